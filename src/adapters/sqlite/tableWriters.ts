/**
 * Writing prepared record documents into the embedded index's tables (indexTables.ts): the bulk load into
 * an empty index (staged, moved into place in key order at its end), the replacing writer for an index
 * holding records, and deletions. A bulk load into a file runs its SQLite side in a worker thread
 * (stagedLoadOffThread.ts); into `:memory:` it runs here, on the index's connection. What a writer turn is,
 * and when kept answers are dropped, is writerTurns.ts's and embeddedIndex.ts's business.
 */
import { availableParallelism } from 'node:os';
import type Database from 'better-sqlite3';
import { contentFingerprintOf } from '../../record/recordContent.js';
import type { PreparedRecordDocument, StoredContent } from '../../ports.js';
import { IndexUnavailableError } from '../../errors.js';
import { clusterOf, documentColumnOf, documentFromRow, firstKeyIdOf, holdsRecords, KEYS_PER_HASH, parameterList, RECORD_COLUMNS, SCHEMA, storedInstantOf, type RecordRow } from './indexTables.js';
import { storedFieldsJsonOf } from '../../record/storedFieldsJson.js';
import type { BulkLoad, StagedRows } from './bulkLoad.js';
import { stagedLoadOffThread } from './stagedLoadOffThread.js';

type BatchWriter = (batch: readonly PreparedRecordDocument[]) => void;

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
 * The id of each key of a document, adding the keys the index does not have yet: the first free number of
 * the key's hash (indexTables.ts), held by no record yet (its total 0; the caller counts the rows it adds).
 */
function keyIdsFinder(db: Database.Database): (keys: readonly string[]) => number[] {
  const ofHash = db.prepare<[number, number], [number, string]>('SELECT key_id, key FROM work_keys WHERE key_id BETWEEN ? AND ?').raw();
  const add = db.prepare<[number, string]>('INSERT INTO work_keys (key_id, key, records) VALUES (?, ?, 0)');
  return (keys) => keys.map((key) => {
    const first = firstKeyIdOf(key);
    const taken = ofHash.all(first, first + KEYS_PER_HASH - 1);
    const found = taken.find(([, text]) => text === key);
    if (found !== undefined) return found[0];
    const id = taken.length === 0 ? first : Math.max(...taken.map(([keyId]) => keyId)) + 1;
    if (id >= first + KEYS_PER_HASH) {
      throw new IndexUnavailableError(`Embedded index: more than ${KEYS_PER_HASH} different work keys share the hash of ${JSON.stringify(key)}`);
    }
    add.run(id, key);
    return id;
  });
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

/** A batch of prepared documents as staged rows (bulkLoad.ts). */
export function stagedRowsOf(batch: readonly PreparedRecordDocument[]): StagedRows {
  const rows: StagedRows = [];
  for (const document of batch) {
    const keys = document.work_keys_str_mv;
    rows.push(document.id, storedInstantOf(document), keys.length);
    for (const key of keys) rows.push(key);
    // The column as the mapping worker cut it from the document's text, when it did (src/record/storedFieldsJson.ts).
    rows.push(storedFieldsJsonOf(document) ?? documentColumnOf(document));
  }
  return rows;
}

/**
 * Into an empty index. Inserting records and keys as they come puts each row at a random place of the
 * B-trees, which was most of a large load's time. So batches are appended to unindexed staging
 * tables (temporary ones: they never reach the index file or its log), and finish() moves them in one
 * transaction with sorted inserts, which append to each B-tree. Readers see no record until then, and
 * then all of them.
 *
 * Each key row is staged under its key's first id (hash * 256, computed here), so the move sorts integers,
 * not key texts. The rare first id that two different keys share (docs/benchmarks.md) is found in
 * the same pass that writes the keys; its other keys get the next numbers and their rows are corrected.
 */
export function stagedLoad(db: Database.Database): { writeBatch: BatchWriter; writeRows: (rows: StagedRows) => void; finish: () => void } {
  // stage_key_rows has one row per (staged document, key), with the rowid of the document's stage_records
  // row: the last copy of an id is then found without reading the documents again.
  const dropStage = `
    DROP TABLE IF EXISTS temp.stage_records;
    DROP TABLE IF EXISTS temp.stage_key_rows;
    DROP TABLE IF EXISTS temp.stage_keys;
    DROP TABLE IF EXISTS temp.stage_rows;
    DROP TABLE IF EXISTS temp.stage_row_of;
    DROP TABLE IF EXISTS temp.stage_copies;
    DROP TABLE IF EXISTS temp.stage_renumbered;
    DROP TABLE IF EXISTS temp.stage_shared;`;
  db.exec(`${dropStage}
    CREATE TEMP TABLE stage_records (cluster INTEGER NOT NULL, id TEXT NOT NULL, last_indexed INTEGER NOT NULL, key_ids TEXT NOT NULL, document TEXT NOT NULL);
    CREATE TEMP TABLE stage_key_rows (stage_rowid INTEGER NOT NULL, key_id INTEGER NOT NULL, key TEXT NOT NULL, record_id TEXT NOT NULL, last_indexed INTEGER NOT NULL);
    CREATE TEMP TABLE stage_rows (stage_rowid INTEGER NOT NULL);`);
  // Rows are inserted STAGED_PER_INSERT at a time, one statement for many rows (a statement run costs
  // more than the rows it appends), and the rest of a batch one by one. A staged record's rowid is given,
  // the count of records staged before it plus one, as SQLite would give it, so that its key rows know it
  // before it is inserted; key rows are appended in the same order as one by one, so their rowids are too.
  const recordColumns = '(rowid, cluster, id, last_indexed, key_ids, document)';
  const keyRowColumns = '(stage_rowid, key_id, key, record_id, last_indexed)';
  const stageRecord = db.prepare(`INSERT INTO temp.stage_records ${recordColumns} VALUES (?, ?, ?, ?, ?, ?)`);
  const stageRecords = db.prepare(`INSERT INTO temp.stage_records ${recordColumns} VALUES ${valuesOf(6, STAGED_PER_INSERT)}`);
  const stageKeyRow = db.prepare(`INSERT INTO temp.stage_key_rows ${keyRowColumns} VALUES (?, ?, ?, ?, ?)`);
  const stageKeyRows = db.prepare(`INSERT INTO temp.stage_key_rows ${keyRowColumns} VALUES ${valuesOf(5, STAGED_PER_INSERT)}`);
  let staged = 0;
  const writeRows = db.transaction((rows: StagedRows) => {
    // Counted once the batch is in: a batch that fails is rolled back whole.
    let next = staged;
    const records: (string | number)[] = [];
    const keyRows: (string | number)[] = [];
    for (let i = 0; i < rows.length;) {
      const id = rows[i++] as string;
      const lastIndexed = rows[i++] as number;
      const keyCount = rows[i++] as number;
      const keysAt = i;
      i += keyCount;
      const document = rows[i++] as string;
      const rowid = ++next;
      const keys = rows.slice(keysAt, keysAt + keyCount) as string[];
      const keyIds = keys.map(firstKeyIdOf);
      for (let k = 0; k < keyCount; k++) {
        keyRows.push(rowid, keyIds[k]!, keys[k]!, id, lastIndexed);
        if (keyRows.length === 5 * STAGED_PER_INSERT) {
          stageKeyRows.run(keyRows);
          keyRows.length = 0;
        }
      }
      records.push(rowid, clusterOf(keys), id, lastIndexed, JSON.stringify(keyIds), document);
      if (records.length === 6 * STAGED_PER_INSERT) {
        stageRecords.run(records);
        records.length = 0;
      }
    }
    for (let r = 0; r < records.length; r += 6) stageRecord.run(records.slice(r, r + 6));
    for (let r = 0; r < keyRows.length; r += 5) stageKeyRow.run(keyRows.slice(r, r + 5));
    staged = next;
  });

  const move = db.transaction(() => {
    // The staged documents are numbered in the order of their cluster, then id (stage_rows' rowid is the
    // record's row), each (cluster, id) once, by its last copy: a later document replaces an earlier one,
    // as it would have replaced it in the index. The records are appended in the same order, so the empty
    // table numbers them alike (sorting the staged rows was faster than reading them
    // in stage_rows' order), and the index by id is built once afterwards (ids inserted in cluster order
    // into an index kept up to date would each go to a random place of it).
    const numbered = db.prepare(`
      INSERT INTO temp.stage_rows (stage_rowid)
        SELECT MAX(rowid) FROM temp.stage_records GROUP BY cluster, id ORDER BY cluster, id`).run().changes;
    db.exec('DROP INDEX IF EXISTS records_by_id');
    const moved = db.prepare(`
      INSERT INTO records (id, last_indexed, key_ids, document)
        SELECT s.id, s.last_indexed, s.key_ids, s.document FROM temp.stage_records AS s
         WHERE s.rowid IN (SELECT stage_rowid FROM temp.stage_rows) ORDER BY s.cluster, s.id`).run();
    if (moved.changes !== numbered || Number(moved.lastInsertRowid) !== numbered) {
      throw new IndexUnavailableError(`Embedded index: the move numbered ${numbered} records but wrote ${moved.changes} ending at row ${String(moved.lastInsertRowid)}`);
    }
    // Copies of an id with different first keys (another cluster) are both there: the index by id cannot
    // be built until the earlier copies are gone. Rare (an edited record twice in one load), so looked for
    // only when the index fails.
    try {
      db.exec(SCHEMA);
    } catch (error) {
      if (!(error instanceof Error && /UNIQUE/.test(error.message))) throw error;
      dropEarlierCopies(db);
      db.exec(SCHEMA);
    }
    if (numbered < staged) db.exec('DELETE FROM temp.stage_key_rows WHERE stage_rowid NOT IN (SELECT stage_rowid FROM temp.stage_rows)');
    db.exec(`
      CREATE TEMP TABLE stage_row_of (stage_rowid INTEGER PRIMARY KEY, row INTEGER NOT NULL);
      INSERT INTO temp.stage_row_of (stage_rowid, row) SELECT stage_rowid, rowid FROM temp.stage_rows ORDER BY stage_rowid;`);
    // One row per first id, in id order: the key that keeps it (the least text), and whether others share it.
    db.exec(`
      CREATE TEMP TABLE stage_keys (key_id INTEGER PRIMARY KEY, key TEXT NOT NULL, shared INTEGER NOT NULL, records INTEGER NOT NULL);
      INSERT INTO temp.stage_keys (key_id, key, shared, records)
        SELECT key_id, MIN(key), MIN(key) <> MAX(key), COUNT(*) FROM temp.stage_key_rows GROUP BY key_id ORDER BY key_id;
      INSERT INTO work_keys (key_id, key, records) SELECT key_id, key, records FROM temp.stage_keys ORDER BY key_id;`);
    renumberSharedFirstIds(db);
    db.prepare(`
      INSERT OR IGNORE INTO records_by_key (key_id, record_id, last_indexed, record_row)
        SELECT k.key_id, k.record_id, k.last_indexed, m.row
          FROM temp.stage_key_rows AS k JOIN temp.stage_row_of AS m ON m.stage_rowid = k.stage_rowid
         ORDER BY k.key_id, k.record_id`).run();
  });

  return {
    writeBatch: (batch) => writeRows(stagedRowsOf(batch)),
    writeRows,
    finish() {
      // A connection closed during the load has lost its staging tables already.
      if (!db.open) return;
      // SQLite's sorter may use helper threads: the move's sorts take less time with two CPUs (docs/benchmarks.md).
      const threads = db.pragma('threads', { simple: true }) as number;
      try {
        db.pragma(`threads = ${availableParallelism()}`);
        if (staged > 0) move();
      } finally {
        db.pragma(`threads = ${threads}`);
        db.exec(dropStage);
      }
    },
  };
}

/** Rows a staging insert appends at once (bound parameters: 6 or 5 a row, far below SQLite's limit). */
const STAGED_PER_INSERT = 100;

/** `(?, ?), (?, ?)`: the VALUES of an insert of `rows` rows of `columns` parameters. */
function valuesOf(columns: number, rows: number): string {
  const row = `(${parameterList(columns)})`;
  return new Array<string>(rows).fill(row).join(', ');
}

/**
 * During a move: the records of ids moved more than once (copies with different clusters) but the last
 * copy staged, from the records and from stage_rows (whose key rows are then left out).
 */
function dropEarlierCopies(db: Database.Database): void {
  db.exec(`
    CREATE TEMP TABLE stage_copies (stage_rowid INTEGER PRIMARY KEY, row INTEGER NOT NULL, last INTEGER NOT NULL);
    INSERT INTO temp.stage_copies (stage_rowid, row, last)
      SELECT o.stage_rowid, o.rowid, o.stage_rowid = MAX(o.stage_rowid) OVER (PARTITION BY s.id)
        FROM temp.stage_rows AS o JOIN temp.stage_records AS s ON s.rowid = o.stage_rowid
       WHERE s.id IN (SELECT id FROM records GROUP BY id HAVING COUNT(*) > 1);
    DELETE FROM records WHERE row IN (SELECT row FROM temp.stage_copies WHERE NOT last);
    DELETE FROM temp.stage_rows WHERE rowid IN (SELECT row FROM temp.stage_copies WHERE NOT last);
    DROP TABLE temp.stage_copies;`);
}

/**
 * The move's keys that did not get their first id, because a key of the same hash with a smaller text
 * took it: each gets the next free number of its hash, and its staged key rows and its records' key ids
 * are corrected. Two scans of the staged key rows, and only when there
 * are such keys.
 */
function renumberSharedFirstIds(db: Database.Database): void {
  const shared = db.prepare<[], number>('SELECT key_id FROM temp.stage_keys WHERE shared').pluck().all();
  if (shared.length === 0) return;
  // The key rows of a shared first id, found in one scan; the rest works on these few.
  db.prepare(`
    CREATE TEMP TABLE stage_shared AS
      SELECT rowid AS key_row, stage_rowid, key_id, key FROM temp.stage_key_rows WHERE key_id IN (SELECT value FROM json_each(?))`)
    .run(JSON.stringify(shared));
  db.exec('CREATE TEMP TABLE stage_renumbered (key TEXT PRIMARY KEY, key_id INTEGER NOT NULL) WITHOUT ROWID');
  const others = db.prepare<[], string>(`
    SELECT DISTINCT p.key FROM temp.stage_shared AS p
     WHERE p.key <> (SELECT s.key FROM temp.stage_keys AS s WHERE s.key_id = p.key_id)`).pluck();
  const renumber = db.prepare('INSERT INTO temp.stage_renumbered (key, key_id) VALUES (?, ?)');
  const keyIdsOf = keyIdsFinder(db);
  for (const key of others.all()) renumber.run(key, keyIdsOf([key])[0]);
  forgetRenumberedKeyTotals(db);
  // The renumbered keys' rows, by rowid (an UPDATE … FROM may loop over the renumbered keys and scan the
  // key rows for each, far slower on a large load).
  db.exec(`
    UPDATE temp.stage_key_rows
       SET key_id = (SELECT r.key_id FROM temp.stage_renumbered AS r WHERE r.key = stage_key_rows.key)
     WHERE rowid IN (SELECT key_row FROM temp.stage_shared WHERE key IN (SELECT key FROM temp.stage_renumbered))`);
  // The records with a renumbered key: their key ids again, in their keys' order (the staging order).
  const keyIdLists = db.prepare<[], { record_id: string; key_ids: string }>(`
    SELECT record_id, json_group_array(key_id ORDER BY rowid) AS key_ids FROM temp.stage_key_rows
     WHERE stage_rowid IN (SELECT stage_rowid FROM temp.stage_shared WHERE key IN (SELECT key FROM temp.stage_renumbered))
     GROUP BY record_id`).all();
  const setKeyIds = db.prepare<[string, string]>('UPDATE records SET key_ids = ? WHERE id = ?');
  for (const { record_id: id, key_ids: keyIds } of keyIdLists) setKeyIds.run(keyIds, id);
}

/**
 * The keys' totals of a move's renumbered keys are not known (NULL): their rows were counted under the
 * first id they shared, whose total is then more than the records holding its key, never fewer.
 */
function forgetRenumberedKeyTotals(db: Database.Database): void {
  db.exec('UPDATE work_keys SET records = NULL WHERE key_id IN (SELECT key_id FROM temp.stage_renumbered)');
}
