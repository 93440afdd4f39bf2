/**
 * The read path of the embedded index on the current layout (indexTables.ts): a record by id, a page of
 * versions with its total, and version counts for a list. Small works are paged here from their key rows,
 * works with a large key from its remembered records (largeKeyMembers.ts), others by one statement; the
 * pages of large works give out records kept from earlier answers (reusedRecords.ts). An
 * order on record fields (year, title, author), filters or facets read every record of the work in one
 * statement and cut the page by the rules all adapters share (src/record/recordFacets.ts).
 * embeddedIndex.ts wraps these with the port's errors and lifecycle, and does the small search.
 *
 * This module chooses the read for a work (by the rules of readStrategy.ts) and reads small works; the
 * other reads are large works' (largeWorkReads.ts) and whole works' (wholeWorkReads.ts), all giving out
 * records through versionRecords.ts, made of the rows of versionRows.ts.
 */
import type Database from 'better-sqlite3';
import type { CatalogRecord } from '../../record/catalogRecord.js';
import { versionsOfKeylessRecord, type RecordVersionsQuery, type VersionsPage, type VersionsQuery } from '../../ports.js';
import { firstKeyIdOf, holdsKeyTotals, KEYS_PER_HASH, workKeysAndSharedOf } from './indexTables.js';
import { versionOrder, type VersionEntry } from './versionOrder.js';
import { pageOfWork, readsWholeWork } from '../../record/recordFacets.js';
import { largeWorkReads } from './largeWorkReads.js';
import { listsFacetsOnly, namesLargeWork, readsWhole, REUSED_FROM_WORK_RECORDS, SMALL_WORK_KEY_ROWS } from './readStrategy.js';
import { versionRecords } from './versionRecords.js';
import { KEY_ROW_COLUMNS, KEYED, statementsByKeyCount, VERSION_COLUMNS, versionOfColumns, wantsKeys } from './versionRows.js';
import { wholeWorkReads } from './wholeWorkReads.js';

export interface IndexReads {
  getRecord(id: string): CatalogRecord | undefined;
  findVersions(query: VersionsQuery): VersionsPage;
  /** The versions of a record getRecord gave out, by its stored key ids (the port's findVersionsOf). */
  findVersionsOf?(record: CatalogRecord, query: RecordVersionsQuery): VersionsPage;
  countVersions(ids: readonly string[]): Array<{ id: string; versions: number }>;
  /** Forgets what was read this turn: called after every write of this connection. */
  forgetRecent?(): void;
}

export function currentReads(db: Database.Database): IndexReads {
  // A record's versions are found from the key ids stored with it (findVersionsOf), not from its keys' texts.
  // The record, its key ids and its keys' texts in one statement, and which of its keys may name another
  // record (by the keys' totals): its versions are those keys' records, and a record with none is alone in
  // its work, its own versions page (findVersionsOf).
  const selectRecord = db.prepare<[string], readonly [id: string, lastIndexed: number, keyIds: string, document: string, keysAndShared: string]>(
    `SELECT ${VERSION_COLUMNS}, ${workKeysAndSharedOf('r.key_ids', holdsKeyTotals(db))} AS keys_and_shared FROM records AS r WHERE r.id = ?`).raw();
  const records = versionRecords(db);

  // The key ids of records given out by getRecord (a JSON array, as stored), by the identity of their
  // workKeys list: listVersions asks for the versions of that record's list next (findVersionsOf or
  // findVersions), and its ids need no lookup then.
  const keyIdsOfList = new WeakMap<readonly string[], string>();

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

  const large = largeWorkReads(db, records);
  const whole = wholeWorkReads(db, records);
  const keyRowsByCount = statementsByKeyCount<VersionEntry>(db, (keyIds) => `SELECT ${KEY_ROW_COLUMNS} FROM records_by_key WHERE key_id IN (${keyIds}) LIMIT ?`);
  const keyRowsByList = db.prepare<unknown[], VersionEntry>(`SELECT ${KEY_ROW_COLUMNS} ${KEYED} LIMIT ?`).raw();

  const versionCounts = db.prepare<[string], { id: string; versions: number }>(`
    SELECT r.id AS id,
           (SELECT COUNT(DISTINCT k.record_id) FROM json_each(r.key_ids) AS j JOIN records_by_key AS k ON k.key_id = j.value) AS versions
      FROM records AS r
     WHERE r.id IN (SELECT value FROM json_each(?))`);

  /**
   * The key rows of a work, one per record, when it has at most SMALL_WORK_KEY_ROWS of them; undefined for
   * a larger work, or (rarely) an id stored with a lone surrogate, which comes back with U+FFFD in place of
   * bytes that are not UTF-8 and then names no record: those go to the statements that never turn ids
   * into JavaScript strings and back.
   */
  const smallWorkEntries = (ids: readonly number[]): VersionEntry[] | undefined => {
    const bound = keyRowsByCount[ids.length];
    const rows = bound !== undefined ? bound.all(...ids, SMALL_WORK_KEY_ROWS + 1) : keyRowsByList.all(JSON.stringify(ids), SMALL_WORK_KEY_ROWS + 1);
    if (rows.length > SMALL_WORK_KEY_ROWS || rows.some(([id]) => id.includes('\uFFFD'))) return undefined;
    // A record's key rows all carry its last_indexed and row: the distinct records are the distinct ids.
    const latest = new Map<string, VersionEntry>();
    for (const entry of rows) latest.set(entry[0], entry);
    return [...latest.values()];
  };
  /**
   * The versions of the records holding any of these keys (by id), one page of them. With the keys' totals
   * (null when not known; never fewer than the records holding the key), a key of a large total goes
   * to largeWork without its first rows read, and one of a small total is not counted there.
   */
  const versionsOfKeyIds = (ids: readonly number[], query: RecordVersionsQuery, totals?: ReadonlyArray<number | null>): VersionsPage => {
    if (ids.length === 0) return { total: 0, records: [] };
    if (readsWholeWork(query)) {
      const remembered = ids.some(large.remembers);
      if (remembered && listsFacetsOnly(query)) {
        const page = large.largeWorkWithFacets(ids, query, totals);
        if (page !== undefined) return page;
      }
      // A first page is kept for a work with a key of more than REUSED_FROM_WORK_RECORDS records by its
      // total (a work of 101-256 records most often has one naming all of them), under the data_version
      // read before the work is (a commit of another connection in between makes it older, never newer).
      const version = listsFacetsOnly(query) && (totals === undefined || totals.some((total) => total === null || total > REUSED_FROM_WORK_RECORDS)) ? records.dataVersion() : undefined;
      const known = version === undefined ? undefined : whole.firstPageOf(ids, query, version);
      if (known !== undefined) return known;
      const work = whole.workRecords(ids);
      if (!listsFacetsOnly(query)) return whole.pageOfWholeWork(work, query);
      const { page, tally } = whole.pageOfWholeWorkWithFacets(work, query);
      if (version !== undefined) whole.keepFirstPage(ids, query, work, page, version);
      // A large work read whole for its facets: its large keys are remembered for the next request, and
      // the tally just counted kept with a list that holds the whole work (as many records, all of the
      // work's), so that request does not read every document again (talliedMembers).
      if (!remembered && work.length > SMALL_WORK_KEY_ROWS) large.keepWholeWorkTally(ids, totals, work.length, { tally, counts: page.facets! }, version ?? records.dataVersion());
      return page;
    }
    if (ids.some(large.remembers) || (totals !== undefined && namesLargeWork(totals))) return large.largeWork(ids, query, totals);
    // A work whose keys' totals say it has few more records than the page shows (readsWhole): its records
    // read at once, in one statement, rather than its key rows and then the page's rows.
    if (totals !== undefined && query.limit > 0 && readsWhole(totals, Math.max(0, query.offset) + query.limit)) {
      const page = whole.pageOfWorkRows(whole.workRecords(ids, wantsKeys(query)), query);
      if (page !== undefined) return page;
    }
    const versions = smallWorkEntries(ids);
    if (versions === undefined) return large.largeWork(ids, query, totals);
    versions.sort(versionOrder(query.order));
    // As LIMIT and OFFSET: no rows for a limit of 0, a negative offset counts as 0.
    const offset = Math.max(0, query.offset);
    const page = query.limit > 0 ? versions.slice(offset, offset + query.limit) : [];
    return { total: versions.length, records: records.pageRecords(page.map(([id]) => id), page.map(([, , row]) => row), versions.length > REUSED_FROM_WORK_RECORDS, wantsKeys(query)) };
  };

  return {
    getRecord(id) {
      const row = selectRecord.get(id);
      if (row === undefined) return undefined;
      const [ids, totals, keys] = JSON.parse(row[4]) as [number[], Array<number | null>, string[]];
      keyIdsOfList.set(keys, row[2]);
      const record = records.rememberThisTurn(versionOfColumns(row, keys), JSON.parse(row[2]) as number[]);
      if (ids.length === 0) records.keepAlone(record);
      else records.keepSharedKeys(record, { ids, totals });
      return record;
    },

    findVersions: (query) => versionsOfKeyIds(keyIdsOf(query.workKeys), query),

    // The key ids of a record getRecord gave out are known by its workKeys list (keyIdsOf).
    findVersionsOf: (record, query) => {
      if (record.workKeys.length === 0) return versionsOfKeylessRecord(record, query.offset);
      // Alone in its work, as getRecord found it this turn: its versions are the page of a work of one
      // (its total, facets and filters by the shared rule), without its key rows read.
      if (records.isAlone(record)) return pageOfWork([record], query);
      const shared = records.sharedKeysOf(record);
      if (shared !== undefined) return versionsOfKeyIds(shared.ids, query, shared.totals);
      return versionsOfKeyIds(keyIdsOf(record.workKeys), query);
    },

    countVersions: (ids) => versionCounts.all(JSON.stringify(ids)),

    forgetRecent() {
      records.forget();
      large.forget();
      whole.forget();
    },
  };
}

/** Whether a query is answered from the whole work's records (the one rule, src/record/recordFacets.ts). */
export { readsWholeWork };
