/**
 * Index files of the one released earlier version: schema 1, the layout 0.1.0 writes, and schema 0, the
 * older files 0.1.0 still opened (the same tables, its key rows without `last_indexed`, which nothing here
 * reads). `records` holds the whole document as JSON (id and work keys included) and `last_indexed` as
 * ISO text, and `work_keys` one row per (key text, record id). A read-only open serves such a file as it
 * is, with the queries below (slower for large works: their documents are read and sorted); a writable
 * open rebuilds it in the current layout (indexTables.ts) in one transaction. Layouts of 0.2.0 before its
 * release were never released and are not read (indexTables.ts, schemaVersionOf, refuses them), except
 * schema 3, the current layout without the keys' totals, which a writable open completes (addKeyTotals).
 */
import type Database from 'better-sqlite3';
import { recordFromDocument, type CatalogRecord, type RecordDocument } from '../../record/catalogRecord.js';
import type { PreparedRecordDocument } from '../../ports.js';
import { pageOfWork } from '../../record/recordFacets.js';
import { SCHEMA, SCHEMA_VERSION } from './indexTables.js';
import { stagedLoad } from './stagedLoad.js';
import { readsWholeWork, type IndexReads } from './versionsReads.js';

const KEYED = 'FROM work_keys WHERE key IN (SELECT value FROM json_each(?))';

export function legacyReads(db: Database.Database): IndexReads {
  const decode = (document: string): CatalogRecord => recordFromDocument(JSON.parse(document));
  const selectRecord = db.prepare<[string], string>('SELECT document FROM records WHERE id = ?').pluck();
  const countVersions = db.prepare<[string], number>(`SELECT COUNT(*) FROM (SELECT DISTINCT record_id ${KEYED})`).pluck();
  const page = (order: string) => db.prepare<[string, number, number], string>(
    `SELECT document FROM records WHERE id IN (SELECT DISTINCT record_id ${KEYED}) ORDER BY ${order} LIMIT ? OFFSET ?`).pluck();
  const newestFirst = page('last_indexed DESC, id ASC');
  const byId = page('id ASC');
  const wholeWork = db.prepare<[string], string>(`SELECT document FROM records WHERE id IN (SELECT DISTINCT record_id ${KEYED})`).pluck();
  const versionCounts = db.prepare<[string], { id: string; versions: number }>(`
    SELECT r.id AS id,
           (SELECT COUNT(DISTINCT other.record_id)
              FROM json_each(r.document, '$.work_keys_str_mv') AS own JOIN work_keys other ON other.key = own.value) AS versions
      FROM records r
     WHERE r.id IN (SELECT value FROM json_each(?))`);
  return {
    getRecord(id) {
      const document = selectRecord.get(id);
      return document === undefined ? undefined : decode(document);
    },
    findVersions(query) {
      const keys = JSON.stringify(query.workKeys);
      if (readsWholeWork(query)) return pageOfWork(wholeWork.all(keys).map(decode), query);
      const total = countVersions.get(keys) ?? 0;
      const statement = query.order === 'last-indexed' ? newestFirst : byId;
      return { total, records: query.limit > 0 && query.offset < total ? statement.all(keys, query.limit, Math.max(0, query.offset)).map(decode) : [] };
    },
    countVersions: (ids) => versionCounts.all(JSON.stringify(ids)),
  };
}

/**
 * Rebuilds a file of schema 0 or 1 in the current layout: the old tables are renamed, their documents
 * staged and moved as a bulk load moves them, and dropped. One transaction: a rebuild cut short leaves
 * the old file as it was (its time per million records: docs/benchmarks.md).
 */
export function migrateLegacyFile(db: Database.Database): void {
  db.transaction(() => {
    const documentsOf = schema1Documents(db);
    db.exec(SCHEMA);
    const load = stagedLoad(db);
    // Read in pages by id: a statement being iterated would keep the connection from writing the stage.
    for (let after = ''; ;) {
      const documents = documentsOf(after);
      if (documents.length === 0) break;
      load.writeBatch(documents);
      after = documents[documents.length - 1]!.id;
    }
    load.finish();
    db.exec('DROP TABLE legacy_records;');
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  })();
}

/**
 * Gives a schema 3 file the keys' totals column (work_keys.records), NULL for every key: not known, so no
 * record counts as alone in its work until a load writes its keys again or the catalog is loaded afresh.
 * An added column is not written into the rows, so this takes no time whatever the file's size.
 */
export function addKeyTotals(db: Database.Database): void {
  db.exec('ALTER TABLE work_keys ADD COLUMN records INTEGER');
}

type DocumentsAfter = (id: string) => PreparedRecordDocument[];

/** Renames the tables of schema 0 or 1 out of the way; answers their documents in pages by id. */
function schema1Documents(db: Database.Database): DocumentsAfter {
  db.exec(`
    ALTER TABLE records RENAME TO legacy_records;
    DROP TABLE IF EXISTS work_keys;
    DROP INDEX IF EXISTS records_by_last_indexed;`);
  const pageAfter = db.prepare<[string], { id: string; last_indexed: string; document: string }>(
    'SELECT id, last_indexed, document FROM legacy_records WHERE id > ? ORDER BY id LIMIT 5000');
  // The column is the record's last_indexed (the document's copy may be missing in schema 0 files).
  return (after) => pageAfter.all(after).map((row) => {
    const document = JSON.parse(row.document) as RecordDocument;
    const keys = document.work_keys_str_mv;
    return { ...document, id: row.id, last_indexed: row.last_indexed, work_keys_str_mv: keys === undefined ? [] : typeof keys === 'string' ? [keys] : keys };
  });
}
