/**
 * Writing prepared record documents into the embedded index's tables (indexTables.ts): the bulk load into
 * an empty index (staged, moved into place in key order at its end: stagedLoad.ts), the replacing writer for an index
 * holding records, and deletions. A bulk load into a file runs its SQLite side in a worker thread
 * (stagedLoadOffThread.ts); into `:memory:` it runs here, on the index's connection. What a writer turn is,
 * and when kept answers are dropped, is writerTurns.ts's and embeddedIndex.ts's business.
 */
import type Database from 'better-sqlite3';
import { contentFingerprintOf } from '../../record/recordContent.js';
import type { PreparedRecordDocument, StoredContent } from '../../ports.js';
import { documentColumnOf, documentFromRow, holdsRecords, RECORD_COLUMNS, storedInstantOf, type RecordRow } from './indexTables.js';
import type { BulkLoad } from './bulkLoad.js';
import { stagedLoad, stagedRowsOf, type BatchWriter } from './stagedLoad.js';
import { stagedLoadOffThread } from './stagedLoadOffThread.js';
import { keyIdsFinder } from './writtenKeyIds.js';


/** What a writer of the embedded index does once its turn has come. */
export interface TableWriter {
  storedContentOf(ids: readonly string[]): Map<string, StoredContent>;
  put(batch: readonly PreparedRecordDocument[]): Promise<void>;
  delete(ids: readonly string[]): Promise<void>;
  close(): Promise<void>;
  /** The index is being closed while this writer is open: a load still staged is dropped, not written. */
  abandon(): void;
}

/**
 * Into an empty index the writer stages (stagedLoad); into one holding records it replaces by id, one
 * transaction per batch. A file's staged load runs in a worker thread, so that preparing the next
 * documents on this thread and writing the last ones overlap; an in-memory index has no file a second
 * connection could open, so its load runs here.
 */
export function openTableWriter(db: Database.Database): TableWriter {
  let bulk: BulkLoad | undefined;
  if (!holdsRecords(db)) {
    bulk = db.memory ? stagedLoadHere(db) : stagedLoadOffThread(db);
  }
  const drop = recordDropper(db);
  let writeBatch = bulk === undefined ? replacingWriter(db, drop) : undefined;
  const stored = db.prepare<[string], RecordRow>(`SELECT ${RECORD_COLUMNS} FROM records AS r WHERE r.id IN (SELECT value FROM json_each(?))`);
  const dropRecords = db.transaction((ids: readonly string[]) => {
    for (const id of ids) drop(id);
  });
  return {
    storedContentOf(ids) {
      const held = new Map<string, StoredContent>();
      // An empty index being filled holds nothing to compare with.
      if (bulk !== undefined) return held;
      for (const row of stored.all(JSON.stringify(ids))) {
        const document = documentFromRow(row);
        held.set(row.id, { fingerprint: contentFingerprintOf(document), lastIndexed: document.last_indexed as string });
      }
      return held;
    },
    async put(batch) {
      if (bulk !== undefined) await bulk.put(stagedRowsOf(batch));
      else writeBatch!(batch);
    },
    async delete(ids) {
      // Staged documents are not in the tables yet: a deletion must apply after them, so the staged part
      // of the load is moved into place first (by the worker, if it runs in one, which then ends) and the
      // rest of the load replaces record by record on this connection.
      if (bulk !== undefined) {
        await bulk.finish();
        bulk = undefined;
        writeBatch = replacingWriter(db, drop);
      }
      dropRecords(ids);
    },
    async close() {
      await bulk?.finish();
    },
    abandon() {
      bulk?.abandon();
    },
  };
}

/** A staged load on the index's own connection (an in-memory index). */
function stagedLoadHere(db: Database.Database): BulkLoad {
  const load = stagedLoad(db);
  return {
    put: load.writeRows,
    finish: load.finish,
    // Closing the connection drops the staging tables with it.
    abandon() {},
  };
}

/**
 * Deletes a stored record: its key rows (found through the key ids its row names), the keys no other
 * record has any more, and its row.
 */
function recordDropper(db: Database.Database): (id: string) => void {
  const keyIds = db.prepare<[string], string>('SELECT key_ids FROM records WHERE id = ?').pluck();
  const dropKeyRows = db.prepare<[string, string]>('DELETE FROM records_by_key WHERE key_id IN (SELECT value FROM json_each(?)) AND record_id = ?');
  const dropUnusedKeys = db.prepare<[string]>(`
    DELETE FROM work_keys WHERE key_id IN (SELECT value FROM json_each(?))
       AND NOT EXISTS (SELECT 1 FROM records_by_key AS k WHERE k.key_id = work_keys.key_id)`);
  const dropRecord = db.prepare<[string]>('DELETE FROM records WHERE id = ?');
  const counted = keyTotalsCounter(db);
  return (id) => {
    const ids = keyIds.get(id);
    if (ids === undefined) return;
    counted.dropping(ids, id);
    dropKeyRows.run(ids, id);
    dropUnusedKeys.run(ids);
    dropRecord.run(id);
  };
}

/**
 * The keys' totals (work_keys.records, indexTables.ts) as single writes change them: one more for a key
 * row added, one less for each key row of a record about to be dropped. A total not known (NULL) stays so.
 */
function keyTotalsCounter(db: Database.Database): { added(keyId: number): void; dropping(keyIds: string, recordId: string): void } {
  const addOne = db.prepare<[number]>('UPDATE work_keys SET records = records + 1 WHERE key_id = ?');
  const takeOne = db.prepare<[string, string]>(`
    UPDATE work_keys SET records = records - 1
     WHERE key_id IN (SELECT key_id FROM records_by_key WHERE key_id IN (SELECT value FROM json_each(?)) AND record_id = ?)`);
  return {
    added: (keyId) => addOne.run(keyId),
    dropping: (keyIds, recordId) => takeOne.run(keyIds, recordId),
  };
}

/**
 * Into an index holding records: each document replaces its record and that record's keys. A record
 * written here takes the next row, not a place beside its work's records: only a bulk load orders rows.
 */
function replacingWriter(db: Database.Database, drop: (id: string) => void): BatchWriter {
  const keyIdsOf = keyIdsFinder(db);
  const insertRecord = db.prepare('INSERT INTO records (id, last_indexed, key_ids, document) VALUES (?, ?, ?, ?)');
  const addKeyRow = db.prepare('INSERT OR IGNORE INTO records_by_key (key_id, record_id, last_indexed, record_row) VALUES (?, ?, ?, ?)');
  const counted = keyTotalsCounter(db);
  return db.transaction((batch: readonly PreparedRecordDocument[]) => {
    for (const document of batch) {
      const id = document.id;
      drop(id);
      const lastIndexed = storedInstantOf(document);
      const keyIds = keyIdsOf(document.work_keys_str_mv);
      const { lastInsertRowid: row } = insertRecord.run(id, lastIndexed, JSON.stringify(keyIds), documentColumnOf(document));
      for (const keyId of keyIds) {
        if (addKeyRow.run(keyId, id, lastIndexed, row).changes > 0) counted.added(keyId);
      }
    }
  });
}
