/**
 * The staged load into an empty embedded index (stagedLoad): batches appended to temporary staging
 * tables, then moved into the index's tables in key order in one transaction, with the rare first key id
 * that two keys share renumbered. It runs on the index's connection (an in-memory index, tableWriters.ts)
 * or in a worker thread (stagedLoadWorker.ts).
 */
import { availableParallelism } from 'node:os';
import type Database from 'better-sqlite3';
import type { PreparedRecordDocument } from '../../ports.js';
import { IndexUnavailableError } from '../../errors.js';
import { clusterOf, documentColumnOf, firstKeyIdOf, parameterList, SCHEMA, storedInstantOf } from './indexTables.js';
import { storedFieldsJsonOf } from '../../record/storedFieldsJson.js';
import type { StagedRows } from './bulkLoad.js';
import { keyIdsFinder } from './writtenKeyIds.js';

/** Writes a batch of prepared documents. */
export type BatchWriter = (batch: readonly PreparedRecordDocument[]) => void;

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
