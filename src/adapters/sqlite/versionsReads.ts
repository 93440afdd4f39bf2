/**
 * The read path of the embedded index on the current layout (indexTables.ts): a record by id, a page of
 * versions with its total, and version counts for a list. Small works are paged here from their key rows,
 * works with a large key from its remembered records (largeKeyMembers.ts), others by one statement. An
 * order on record fields (year, title, author), filters or facets read every record of the work in one
 * statement and cut the page by the rules all adapters share (src/record/recordFacets.ts).
 * embeddedIndex.ts wraps these with the port's errors and lifecycle, and does the small search.
 */
import type Database from 'better-sqlite3';
import type { CatalogRecord } from '../../record/catalogRecord.js';
import type { VersionsPage, VersionsQuery } from '../../ports.js';
import { firstKeyIdOf, KEYS_PER_HASH, RECORD_COLUMNS, recordFromRow, recordOfRow, workKeysOf, type RecordRow } from './indexTables.js';
import { holds, largeKeys, pageOfUnion, type KeyMembers } from './largeKeyMembers.js';
import { versionOrder, type VersionEntry } from './versionOrder.js';
import { pageOfWork, readsWholeWork } from '../../record/recordFacets.js';

export interface IndexReads {
  getRecord(id: string): CatalogRecord | undefined;
  findVersions(query: VersionsQuery): VersionsPage;
  countVersions(ids: readonly string[]): Array<{ id: string; versions: number }>;
  /** Forgets what was read this turn: called after every write of this connection. */
  forgetRecent?(): void;
}

/** A version's row: its keys' ids only (a page never shows the keys of its versions). */
type VersionRow = Omit<RecordRow, 'keys'>;
const VERSION_COLUMNS = 'r.id AS id, r.last_indexed AS last_indexed, r.key_ids AS key_ids, r.document AS document';
/** A key row as the page is cut from it: record id, last_indexed, the record's row. */
const KEY_ROW_COLUMNS = 'record_id, last_indexed, record_row';

/**
 * Key rows read in one go before a work counts as large. A statement that groups, sorts and counts in
 * SQLite costs more in its temporary B-trees than reading the rows and cutting the page here, up to works
 * of a few hundred key rows (docs/benchmarks.md, "What changed": 256 rather than 16). A larger work goes to largeWork(), at once when one of its keys is remembered as large.
 */
const SMALL_WORK_KEY_ROWS = 256;
/** Up to this many keys are bound one by one (IN (?, ?)): SQLite seeks them without a temporary list. */
const BOUND_KEYS = 8;

export function currentReads(db: Database.Database): IndexReads {
  const selectRecord = db.prepare<[string], RecordRow>(`SELECT ${RECORD_COLUMNS} FROM records AS r WHERE r.id = ?`);
  // A page's records are read by row: a work's records are neighbours there (indexTables.ts).
  const selectVersion = db.prepare<[number], VersionRow>(`SELECT ${VERSION_COLUMNS} FROM records AS r WHERE r.row = ?`);
  const selectVersions = db.prepare<[string], VersionRow>(`SELECT ${VERSION_COLUMNS} FROM records AS r WHERE r.row IN (SELECT value FROM json_each(?))`);
  const keysOfIds = db.prepare<[string], string>(`SELECT ${workKeysOf('?')}`).pluck();

  // The key ids of the keys of records given out by getRecord, by the identity of their workKeys list:
  // listVersions asks for the versions of exactly that list next, and its ids need no lookup then.
  const keyIdsOfList = new WeakMap<readonly string[], string>();
  // The records of this event-loop turn, by id: a record requested is most often the only one, or one,
  // of its own versions page, and is not read twice. Cleared every turn, so never older than the turn.
  let recordsThisTurn: Map<string, CatalogRecord> | undefined;
  const rememberThisTurn = (record: CatalogRecord): CatalogRecord => {
    if (recordsThisTurn === undefined) {
      recordsThisTurn = new Map();
      setImmediate(() => {
        recordsThisTurn = undefined;
      });
    }
    recordsThisTurn.set(record.id, record);
    return record;
  };

  /**
   * A version as a record whose work keys are read when first asked for: a page never shows them, and
   * reading them took a quarter of a large work's page.
   */
  const versionOfRow = (row: VersionRow): CatalogRecord => {
    const known = recordsThisTurn?.get(row.id);
    if (known !== undefined) return known;
    const record = recordFromRow(row, []);
    let workKeys: readonly string[] | undefined;
    return Object.defineProperty(record, 'workKeys', {
      enumerable: true,
      get: () => (workKeys ??= JSON.parse(keysOfIds.get(row.key_ids) ?? '[]') as string[]),
    });
  };

  /**
   * The records of a page, given their ids and rows in page order; an id whose record is missing counts
   * in the total and gives none.
   */
  const pageRecords = (ids: readonly string[], rows: ArrayLike<number>): CatalogRecord[] => {
    const toRead: number[] = [];
    for (let i = 0; i < ids.length; i++) if (recordsThisTurn?.has(ids[i] as string) !== true) toRead.push(rows[i] as number);
    // Several rows in one statement: a third less time per row than one statement each.
    const found = toRead.length === 1 ? [selectVersion.get(toRead[0] as number)] : toRead.length > 1 ? selectVersions.all(JSON.stringify(toRead)) : [];
    const read = new Map<string, VersionRow>();
    for (const row of found) if (row !== undefined) read.set(row.id, row);
    const records: CatalogRecord[] = [];
    for (const id of ids) {
      const known = recordsThisTurn?.get(id);
      const row = known === undefined ? read.get(id) : undefined;
      if (known !== undefined) records.push(known);
      else if (row !== undefined) records.push(versionOfRow(row));
    }
    return records;
  };

  const keyIdOf = db.prepare<[number, number, string], number>('SELECT key_id FROM work_keys WHERE key_id BETWEEN ? AND ? AND key = ?').pluck();
  const keyIdsOf = (keys: readonly string[]): number[] => {
    const known = keyIdsOfList.get(keys);
    if (known !== undefined) return JSON.parse(known) as number[];
    const ids: number[] = [];
    for (const key of keys) {
      const first = firstKeyIdOf(key);
      const id = keyIdOf.get(first, first + KEYS_PER_HASH - 1, key);
      if (id !== undefined && !ids.includes(id)) ids.push(id);
    }
    return ids;
  };

  // A large work's page and total in one statement: the distinct records of its key rows are collected
  // once, counted, and cut to the page, and only the page's records are read. An empty page (offset past
  // the end, limit 0) has no row to carry the total, so then the count runs alone.
  type PageRow = VersionRow & { total: number };
  const KEYED = 'FROM records_by_key WHERE key_id IN (SELECT value FROM json_each(?))';
  const largePage = (order: string, columns: string) => db.prepare<[string, number, number], PageRow>(`
    WITH versions AS MATERIALIZED (SELECT ${columns} ${KEYED} GROUP BY record_id),
         page AS (SELECT * FROM versions ORDER BY ${order} LIMIT ? OFFSET ?)
    SELECT ${VERSION_COLUMNS}, (SELECT COUNT(*) FROM versions) AS total
      FROM page JOIN records AS r ON r.row = page.record_row
     ORDER BY ${order.replace(/(last_indexed|record_id)/g, 'page.$1')}`);
  // A record's key rows all carry its last_indexed and its row.
  const newestFirst = largePage('last_indexed DESC, record_id', 'record_id, MAX(last_indexed) AS last_indexed, MAX(record_row) AS record_row');
  const byId = largePage('record_id', 'record_id, MAX(record_row) AS record_row');
  const countOf = db.prepare<[string], number>(`SELECT COUNT(*) FROM (SELECT DISTINCT record_id ${KEYED})`).pluck();
  const pageByStatement = (keyIds: string, query: VersionsQuery) => {
    const rows = query.limit > 0 ? (query.order === 'last-indexed' ? newestFirst : byId).all(keyIds, query.limit, query.offset) : [];
    return { total: rows[0]?.total ?? countOf.get(keyIds) ?? 0, records: rows.map(versionOfRow) };
  };

  // A large work: its large keys' records remembered (largeKeyMembers.ts), the page cut from them with
  // what its small keys add; otherwise (no large key, or several large keys naming different records)
  // the statement.
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  const large = largeKeys(db);
  const smallKeyRows = db.prepare<[number], VersionEntry>(`SELECT ${KEY_ROW_COLUMNS} FROM records_by_key WHERE key_id = ?`).raw();
  const largeWork = (keyIds: readonly number[], query: VersionsQuery) => {
    const version = dataVersion.get() ?? 0;
    let members: KeyMembers | undefined;
    const smallKeys: number[] = [];
    for (const keyId of keyIds) {
      const found = large.membersOf(keyId, version);
      if (found === undefined) smallKeys.push(keyId);
      else if (members === undefined) members = found;
      else if (found !== members) return pageByStatement(JSON.stringify(keyIds), query);
    }
    if (members === undefined) return pageByStatement(JSON.stringify(keyIds), query);
    const extras = new Map<string, VersionEntry>();
    for (const keyId of smallKeys) {
      for (const entry of smallKeyRows.all(keyId)) {
        if (entry[0].includes('\uFFFD')) return pageByStatement(JSON.stringify(keyIds), query);
        if (!holds(members, entry[0])) extras.set(entry[0], entry);
      }
    }
    const { total, ids, rows } = pageOfUnion(members, extras, query);
    return { total, records: pageRecords(ids, rows) };
  };

  type KeyRows = Database.Statement<unknown[], VersionEntry>;
  const keyRowsByCount: KeyRows[] = [];
  for (let count = 1; count <= BOUND_KEYS; count++) {
    keyRowsByCount[count] = db.prepare<unknown[], VersionEntry>(
      `SELECT ${KEY_ROW_COLUMNS} FROM records_by_key WHERE key_id IN (${new Array(count).fill('?').join(', ')}) LIMIT ?`).raw();
  }
  const keyRowsByList = db.prepare<unknown[], VersionEntry>(`SELECT ${KEY_ROW_COLUMNS} ${KEYED} LIMIT ?`).raw();

  // Every record of a work, for the orders on record fields.
  const workRecords = db.prepare<[string], VersionRow>(`SELECT ${VERSION_COLUMNS} FROM records AS r
    WHERE r.row IN (SELECT record_row ${KEYED})`);

  const versionCounts = db.prepare<[string], { id: string; versions: number }>(`
    SELECT r.id AS id,
           (SELECT COUNT(DISTINCT k.record_id) FROM json_each(r.key_ids) AS j JOIN records_by_key AS k ON k.key_id = j.value) AS versions
      FROM records AS r
     WHERE r.id IN (SELECT value FROM json_each(?))`);

  return {
    getRecord(id) {
      const row = selectRecord.get(id);
      if (row === undefined) return undefined;
      const record = recordOfRow(row);
      keyIdsOfList.set(record.workKeys, row.key_ids);
      return rememberThisTurn(record);
    },

    findVersions(query) {
      const ids = keyIdsOf(query.workKeys);
      if (ids.length === 0) return { total: 0, records: [] };
      if (readsWholeWork(query)) return pageOfWork(workRecords.all(JSON.stringify(ids)).map(versionOfRow), query);
      if (ids.some(large.remembers)) return largeWork(ids, query);
      const bound = keyRowsByCount[ids.length];
      const rows = bound !== undefined ? bound.all(...ids, SMALL_WORK_KEY_ROWS + 1) : keyRowsByList.all(JSON.stringify(ids), SMALL_WORK_KEY_ROWS + 1);
      // A larger work, or (rarely) an id stored with a lone surrogate, which comes back with U+FFFD in
      // place of bytes that are not UTF-8 and then names no record: the statement, which never turns ids
      // into JavaScript strings and back.
      if (rows.length > SMALL_WORK_KEY_ROWS || rows.some(([id]) => id.includes('\uFFFD'))) return largeWork(ids, query);
      // A record's key rows all carry its last_indexed and row: the distinct records are the distinct ids.
      const latest = new Map<string, VersionEntry>();
      for (const entry of rows) latest.set(entry[0], entry);
      const versions = [...latest.values()];
      versions.sort(versionOrder(query.order));
      // As LIMIT and OFFSET: no rows for a limit of 0, a negative offset counts as 0.
      const offset = Math.max(0, query.offset);
      const page = query.limit > 0 ? versions.slice(offset, offset + query.limit) : [];
      return { total: versions.length, records: pageRecords(page.map(([id]) => id), page.map(([, , row]) => row)) };
    },

    countVersions: (ids) => versionCounts.all(JSON.stringify(ids)),

    forgetRecent() {
      recordsThisTurn = undefined;
      large.forget();
    },
  };
}

/** Whether a query is answered from the whole work's records (the one rule, src/record/recordFacets.ts). */
export { readsWholeWork };
