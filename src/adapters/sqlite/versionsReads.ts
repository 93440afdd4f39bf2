/**
 * The read path of the embedded index on the current layout (indexTables.ts): a record by id, a page of
 * versions with its total, and version counts for a list. Small works are paged here from their key rows,
 * works with a large key from its remembered records (largeKeyMembers.ts), others by one statement; the
 * pages of large works give out records kept from earlier answers (reusedRecords.ts). An
 * order on record fields (year, title, author), filters or facets read every record of the work in one
 * statement and cut the page by the rules all adapters share (src/record/recordFacets.ts).
 * embeddedIndex.ts wraps these with the port's errors and lifecycle, and does the small search.
 */
import type Database from 'better-sqlite3';
import type { CatalogRecord } from '../../record/catalogRecord.js';
import { versionsOfKeylessRecord, type RecordVersionsQuery, type VersionsPage, type VersionsQuery } from '../../ports.js';
import { firstKeyIdOf, holdsKeyTotals, KEYS_PER_HASH, parameterList, recordOfColumns, recordOfParsedColumns, workKeysAndSharedOf } from './indexTables.js';
import { holds, LARGE_KEY_RECORDS, largeKeys, pageOfUnion, type KeyMembers } from './largeKeyMembers.js';
import { versionOrder, type VersionEntry } from './versionOrder.js';
import { reusedRecords } from './reusedRecords.js';
import { isRecordFieldOrder } from '../../record/recordOrder.js';
import { addToFacetTally, facetCountsOfTally, facetTallyOfDocumentTexts, pageOfWork, readsWholeWork, type FacetCounts, type FacetTally } from '../../record/recordFacets.js';

export interface IndexReads {
  getRecord(id: string): CatalogRecord | undefined;
  findVersions(query: VersionsQuery): VersionsPage;
  /** The versions of a record getRecord gave out, by its stored key ids (the port's findVersionsOf). */
  findVersionsOf?(record: CatalogRecord, query: RecordVersionsQuery): VersionsPage;
  countVersions(ids: readonly string[]): Array<{ id: string; versions: number }>;
  /** Forgets what was read this turn: called after every write of this connection. */
  forgetRecent?(): void;
}

/** The keys of a record that may name another record, by id, with their totals (null when not known). */
interface SharedKeys {
  readonly ids: readonly number[];
  readonly totals: ReadonlyArray<number | null>;
}

/**
 * A version's row as its statements read it, an array (better-sqlite3's raw rows: no object made per row):
 * id, last_indexed, its keys' ids only (a JSON array, as stored; null when read for a query that wants no
 * keys: VERSION_COLUMNS_WITHOUT_KEYS), document.
 */
type VersionRow = readonly [id: string, lastIndexed: number, keyIds: string | null, document: string, ...more: unknown[]];
const versionOfColumns = (row: VersionRow, keys: readonly string[]): CatalogRecord => recordOfColumns(row[0], row[1], row[3], keys);
const VERSION_COLUMNS = 'r.id AS id, r.last_indexed AS last_indexed, r.key_ids AS key_ids, r.document AS document';
/**
 * The columns of a version read for a query that wants no keys (the feed's): its key ids left in the file,
 * one string fewer made for each row (each value handed to JavaScript costs more than its bytes).
 */
const VERSION_COLUMNS_WITHOUT_KEYS = 'r.id AS id, r.last_indexed AS last_indexed, NULL AS key_ids, r.document AS document';
/** The columns of a version's row for a query that wants its keys or not. */
const versionColumns = (withKeys: boolean): string => (withKeys ? VERSION_COLUMNS : VERSION_COLUMNS_WITHOUT_KEYS);
/** A key row as the page is cut from it: record id, last_indexed, the record's row. */
const KEY_ROW_COLUMNS = 'record_id, last_indexed, record_row';

/**
 * Key rows read in one go before a work counts as large. A statement that groups, sorts and counts in
 * SQLite costs more in its temporary B-trees than reading the rows and cutting the page here, up to works
 * of a few hundred key rows (docs/benchmarks.md, "Figures behind choices in the code"). A larger work goes to largeWork(), at once when one of its keys is remembered as large.
 */
const SMALL_WORK_KEY_ROWS = 256;
/**
 * A work whose largest key total is at most this many times the end of the page (offset + limit), and whose
 * keys' totals add up to at most WHOLE_WORK_KEY_ROWS, is read whole in one statement (pageOfWorkRows); a
 * larger one is cut from its key rows first. The largest total is the fewest records the work can have,
 * the sum the most: a work's keys most often name the same records, so the sum alone would send works
 * that fit in a page to their key rows (docs/benchmarks.md, "Figures behind choices in the code").
 */
const WHOLE_WORK_PAGE_SHARE = 2;
/**
 * The most key rows (the sum of its keys' totals) of a work read whole. Beyond SMALL_WORK_KEY_ROWS the key
 * rows are not read in one go, and a work without a large key then goes to pageByStatement, which costs
 * more than reading its records whole while they are a few hundred (docs/benchmarks.md, "Figures behind choices in the code").
 */
const WHOLE_WORK_KEY_ROWS = 4 * SMALL_WORK_KEY_ROWS;
/** The first pages of works read whole for their facets kept at most (firstPages). */
const FIRST_PAGES = 512;
/** Where a row of a work read whole with keys holds the record's row (workColumns). */
const WORK_ROW = 4;
/** Up to this many keys are bound one by one (IN (?, ?)): SQLite seeks them without a temporary list. */
const BOUND_KEYS = 8;
/**
 * One statement (its rows as arrays) for each count of key ids from 1 to BOUND_KEYS, indexed by the
 * count, `sqlOf` given that many parameters: a list of at most BOUND_KEYS keys is bound one by one, with
 * no JSON list made and read; a longer one goes to the caller's json_each statement.
 */
function statementsByKeyCount<Row>(db: Database.Database, sqlOf: (keyIdParameters: string) => string): Array<Database.Statement<unknown[], Row>> {
  const statements: Array<Database.Statement<unknown[], Row>> = [];
  for (let count = 1; count <= BOUND_KEYS; count++) statements[count] = db.prepare<unknown[], Row>(sqlOf(parameterList(count))).raw();
  return statements;
}
/**
 * Pages of works of more than this many records give out records kept from earlier answers
 * (reusedRecords.ts). Smaller works are seldom asked twice before their records would be given up, and
 * keeping theirs costs the freezing and gives up the large works' records sooner (docs/benchmarks.md,
 * "Records of large works reused").
 */
const REUSED_FROM_WORK_RECORDS = 100;
/**
 * The work keys of a record decoded only for a filter, a facet or a sort, never given out as it is, and of
 * a version given to a query that does not want their keys (wantsKeys).
 */
const NO_KEYS: readonly string[] = Object.freeze([]);

export function currentReads(db: Database.Database): IndexReads {
  // A record's versions are found from the key ids stored with it (findVersionsOf), not from its keys' texts.
  // The record, its key ids and its keys' texts in one statement, and which of its keys may name another
  // record (by the keys' totals): its versions are those keys' records, and a record with none is alone in
  // its work, its own versions page (findVersionsOf).
  const selectRecord = db.prepare<[string], readonly [id: string, lastIndexed: number, keyIds: string, document: string, keysAndShared: string]>(
    `SELECT ${VERSION_COLUMNS}, ${workKeysAndSharedOf('r.key_ids', holdsKeyTotals(db))} AS keys_and_shared FROM records AS r WHERE r.id = ?`).raw();
  // A page's records are read by row: a work's records are neighbours there (indexTables.ts).
  // Each by whether the query wants the versions' keys (versionColumns).
  const selectVersion = [false, true].map((withKeys) => db.prepare<[number], VersionRow>(`SELECT ${versionColumns(withKeys)} FROM records AS r WHERE r.row = ?`).raw());
  const selectVersions = [false, true].map((withKeys) => db.prepare<[string], VersionRow>(`SELECT ${versionColumns(withKeys)} FROM records AS r WHERE r.row IN (SELECT value FROM json_each(?))`).raw());
  const keyTextsOf = db.prepare<[string], [number, string]>('SELECT key_id, key FROM work_keys WHERE key_id IN (SELECT value FROM json_each(?))').raw();
  const keyTextsByCount = statementsByKeyCount<[number, string]>(db, (keyIds) => `SELECT key_id, key FROM work_keys WHERE key_id IN (${keyIds})`);

  // The key ids of records given out by getRecord (a JSON array, as stored), by the identity of their
  // workKeys list: listVersions asks for the versions of that record's list next (findVersionsOf or
  // findVersions), and its ids need no lookup then.
  const keyIdsOfList = new WeakMap<readonly string[], string>();
  // The records of this event-loop turn, by id: a record requested is most often the only one, or one,
  // of its own versions page, and is not read twice. Cleared every turn, so never older than the turn.
  let recordsThisTurn: Map<string, CatalogRecord> | undefined;
  // The texts of the key ids read this turn: the versions of a record share most of its keys, whose texts
  // getRecord has just read. Cleared with recordsThisTurn.
  let keyTextsThisTurn: Map<number, string> | undefined;
  // The records getRecord gave out this turn that no other record shares a key with: their versions are
  // themselves. Cleared with recordsThisTurn, and by every write (a plain set: weak collections cost the
  // garbage collector more).
  let aloneThisTurn: Set<CatalogRecord> | undefined;
  // The keys that may name another record (their total not 1) of the records getRecord gave out this turn,
  // with their totals (null when not known): their versions are read through these keys only, as a key of
  // total 1 names the record alone. Cleared with aloneThisTurn (totals change with writes).
  let sharedKeysThisTurn: Map<CatalogRecord, SharedKeys> | undefined;
  const rememberThisTurn = (record: CatalogRecord, keyIds: readonly number[]): CatalogRecord => {
    if (recordsThisTurn === undefined || keyTextsThisTurn === undefined) {
      recordsThisTurn = new Map();
      keyTextsThisTurn = new Map();
      setImmediate(() => {
        recordsThisTurn = undefined;
        keyTextsThisTurn = undefined;
        aloneThisTurn = undefined;
        sharedKeysThisTurn = undefined;
      });
    }
    recordsThisTurn.set(record.id, record);
    // The texts come in the order of the ids, unless an id names no stored key (then none is remembered).
    if (keyIds.length === record.workKeys.length) for (let i = 0; i < keyIds.length; i++) keyTextsThisTurn.set(keyIds[i] as number, record.workKeys[i] as string);
    return record;
  };

  /**
   * Versions as records, their work keys' texts read in one statement for all of them (a page, or a whole
   * work read for its sort or facets): the ids of one work's keys are mostly the same few. Records are
   * plain values, complete when given out: a host may keep one after the index is closed. Without
   * `withKeys` (a query that does not want the versions' keys: the feed's), they are given without them.
   */
  const versionsOfRows = (rows: readonly VersionRow[], withKeys: boolean): CatalogRecord[] => {
    const texts = withKeys ? keyTextsOfRows(rows.filter((row) => recordsThisTurn?.has(row[0]) !== true)) : undefined;
    return rows.map((row) => recordsThisTurn?.get(row[0]) ?? versionOfRow(row, texts));
  };
  // The key ids of the rows keyTextsOfRows was last given, parsed there once for keyTextsOfRow.
  let keyIdsOfRows = new Map<VersionRow, number[]>();
  /** The texts of these rows' key ids: those read this turn, the others in one statement. */
  const keyTextsOfRows = (rows: readonly VersionRow[]): ReadonlyMap<number, string> => {
    const known = keyTextsThisTurn;
    keyIdsOfRows = new Map();
    if (rows.length === 0) return known ?? new Map();
    const unknownIds = new Set<number>();
    for (const row of rows) {
      const keyIds = JSON.parse(row[2] ?? '[]') as number[];
      keyIdsOfRows.set(row, keyIds);
      for (const keyId of keyIds) if (known?.has(keyId) !== true) unknownIds.add(keyId);
    }
    if (unknownIds.size === 0) return known ?? new Map();
    const texts = known ?? new Map<number, string>();
    const unknown = [...unknownIds];
    const bound = keyTextsByCount[unknown.length];
    for (const [keyId, text] of bound !== undefined ? bound.all(...unknown) : keyTextsOf.all(JSON.stringify(unknown))) texts.set(keyId, text);
    return texts;
  };
  /** A version's record, with its keys' texts from `texts`, or without keys (NO_KEYS) when none are given. */
  const versionOfRow = (row: VersionRow, texts: ReadonlyMap<number, string> | undefined): CatalogRecord =>
    versionOfColumns(row, texts === undefined ? NO_KEYS : keyTextsOfRow(row, texts));
  const keyTextsOfRow = (row: VersionRow, texts: ReadonlyMap<number, string>): string[] => {
    const keys: string[] = [];
    for (const keyId of keyIdsOfRows.get(row) ?? JSON.parse(row[2] ?? '[]') as number[]) {
      const text = texts.get(keyId);
      if (text !== undefined) keys.push(text);
    }
    return keys;
  };

  // Records of large works' pages kept from earlier answers, while the file is unchanged (reusedRecords.ts).
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  const reused = reusedRecords();

  /**
   * The records of a page, given their ids and rows in page order; an id whose record is missing counts
   * in the total and gives none. With `reuse` (a large work's page), records kept from earlier answers
   * are given again and those read now are kept. Without `withKeys`, the records read now are made
   * without their keys (versionsOfRows), and kept as such: only a query without keys is given them again.
   * `version`: SQLite's data_version as the caller read it for this answer (each reading is a statement).
   */
  const pageRecords = (ids: readonly string[], rows: ArrayLike<number>, reuse = false, withKeys = true, version?: number): CatalogRecord[] => {
    if (reuse) reused.useVersion(version ?? dataVersion.get() ?? 0);
    const toRead: number[] = [];
    const kept: Array<CatalogRecord | undefined> = [];
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i] as string;
      const record = recordsThisTurn?.get(id) ?? (reuse ? reused.get(rows[i] as number, id, withKeys) : undefined);
      kept.push(record);
      if (record === undefined) toRead.push(rows[i] as number);
    }
    // Several rows in one statement: less time per row than one statement each (docs/benchmarks.md).
    const found = toRead.length === 1 ? [selectVersion[Number(withKeys)]!.get(toRead[0] as number)] : toRead.length > 1 ? selectVersions[Number(withKeys)]!.all(JSON.stringify(toRead)) : [];
    const read = new Map<string, VersionRow>();
    for (const row of found) if (row !== undefined) read.set(row[0], row);
    const texts = withKeys ? keyTextsOfRows([...read.values()]) : undefined;
    const records: CatalogRecord[] = [];
    for (let i = 0; i < ids.length; i++) {
      const known = kept[i];
      const row = known === undefined ? read.get(ids[i] as string) : undefined;
      if (known !== undefined) records.push(known);
      else if (row !== undefined) records.push(reuse ? reused.keep(rows[i] as number, versionOfRow(row, texts), withKeys) : versionOfRow(row, texts));
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
  type PageRow = readonly [id: string, lastIndexed: number, keyIds: string, document: string, total: number];
  const KEYED = 'FROM records_by_key WHERE key_id IN (SELECT value FROM json_each(?))';
  const largePage = (order: string, columns: string) => db.prepare<[string, number, number], PageRow>(`
    WITH versions AS MATERIALIZED (SELECT ${columns} ${KEYED} GROUP BY record_id),
         page AS (SELECT * FROM versions ORDER BY ${order} LIMIT ? OFFSET ?)
    SELECT ${VERSION_COLUMNS}, (SELECT COUNT(*) FROM versions) AS total
      FROM page JOIN records AS r ON r.row = page.record_row
     ORDER BY ${order.replace(/(last_indexed|record_id)/g, 'page.$1')}`).raw();
  // A record's key rows all carry its last_indexed and its row.
  const newestFirst = largePage('last_indexed DESC, record_id', 'record_id, MAX(last_indexed) AS last_indexed, MAX(record_row) AS record_row');
  const byId = largePage('record_id', 'record_id, MAX(record_row) AS record_row');
  const countOf = db.prepare<[string], number>(`SELECT COUNT(*) FROM (SELECT DISTINCT record_id ${KEYED})`).pluck();
  const pageByStatement = (keyIds: string, query: RecordVersionsQuery) => {
    const rows = query.limit > 0 ? (query.order === 'last-indexed' ? newestFirst : byId).all(keyIds, query.limit, query.offset) : [];
    return { total: rows[0]?.[4] ?? countOf.get(keyIds) ?? 0, records: versionsOfRows(rows, wantsKeys(query)) };
  };

  // A large work: its large keys' records remembered (largeKeyMembers.ts), the page cut from them with
  // what its small keys add; otherwise (no large key, or several large keys naming different records)
  // the statement.
  const large = largeKeys(db);
  const smallKeyRows = db.prepare<[number], VersionEntry>(`SELECT ${KEY_ROW_COLUMNS} FROM records_by_key WHERE key_id = ?`).raw();
  /**
   * A large work as one remembered list and the records its small keys add (`extras`, by id); undefined
   * when the statement must answer (no large key, several large keys naming different records, an id that
   * does not survive the trip into JavaScript).
   */
  const largeUnion = (keyIds: readonly number[], totals?: ReadonlyArray<number | null>): { members: KeyMembers; extras: Map<string, VersionEntry>; version: number } | undefined => {
    const version = dataVersion.get() ?? 0;
    let members: KeyMembers | undefined;
    const smallKeys: number[] = [];
    for (let i = 0; i < keyIds.length; i++) {
      const keyId = keyIds[i] as number;
      // A key of a known small total is never remembered as large: not counted again.
      const total = totals?.[i] ?? null;
      const found = total !== null && total <= LARGE_KEY_RECORDS ? undefined : large.membersOf(keyId, version, total !== null);
      if (found === undefined) smallKeys.push(keyId);
      else if (members === undefined) members = found;
      else if (found !== members) return undefined;
    }
    if (members === undefined) return undefined;
    const extras = new Map<string, VersionEntry>();
    for (const keyId of smallKeys) {
      for (const entry of smallKeyRows.all(keyId)) {
        if (entry[0].includes('\uFFFD')) return undefined;
        if (!holds(members, entry[0])) extras.set(entry[0], entry);
      }
    }
    return { members, extras, version };
  };
  const largeWork = (keyIds: readonly number[], query: RecordVersionsQuery, totals?: ReadonlyArray<number | null>) => {
    const union = largeUnion(keyIds, totals);
    if (union === undefined) return pageByStatement(JSON.stringify(keyIds), query);
    const { total, ids, rows } = pageOfUnion(union.members, union.extras, query);
    return { total, records: pageRecords(ids, rows, true, wantsKeys(query), union.version) };
  };

  // The facet values of a remembered list's records, tallied once (read while the list is remembered), and
  // its facet counts: the page of a large work is then cut from the list, not from every record read again.
  // Tallied from the stored documents, as pageOfWholeWorkWithFacets tallies them: no record made of each.
  const tallies = new WeakMap<KeyMembers, { tally: FacetTally; counts: FacetCounts }>();
  const documentsOfRows = db.prepare<[string], string>('SELECT document FROM records WHERE row IN (SELECT value FROM json_each(?))').pluck();
  const talliedMembers = (members: KeyMembers) => {
    let tallied = tallies.get(members);
    if (tallied === undefined) {
      // Counted from the stored texts' facet fields, as a work read whole is (pageOfWholeWorkWithFacets).
      const tally = facetTallyOfDocumentTexts(documentsOfRows.all(JSON.stringify(Array.from(members.byIdRows))));
      tallied = { tally, counts: facetCountsOfTally(tally) };
      tallies.set(members, tallied);
    }
    return tallied;
  };
  /** A large work's page with its facets (no filters, the feed's or the page's default order), as pageOfWork would cut it from every record. */
  const largeWorkWithFacets = (keyIds: readonly number[], query: RecordVersionsQuery, totals?: ReadonlyArray<number | null>): VersionsPage | undefined => {
    const union = largeUnion(keyIds, totals);
    if (union === undefined) return undefined;
    const { members, extras, version } = union;
    const tallied = talliedMembers(members);
    let facets = tallied.counts;
    if (extras.size > 0) {
      const added = [...extras.values()];
      facets = facetCountsOfTally(addToFacetTally(pageRecords(added.map(([id]) => id), added.map(([, , row]) => row), true, true, version), tallied.tally));
    }
    const { total, ids, rows } = pageOfUnion(members, extras, query);
    return { total, records: pageRecords(ids, rows, true, true, version), unfilteredTotal: total, facets };
  };

  const keyRowsByCount = statementsByKeyCount<VersionEntry>(db, (keyIds) => `SELECT ${KEY_ROW_COLUMNS} FROM records_by_key WHERE key_id IN (${keyIds}) LIMIT ?`);
  const keyRowsByList = db.prepare<unknown[], VersionEntry>(`SELECT ${KEY_ROW_COLUMNS} ${KEYED} LIMIT ?`).raw();

  // Every record of a work: for its facets, filters or an order on record fields, or a small work's page
  // (for a query that wants no keys, without their key ids: versionColumns).
  // With keys (the page's), each row carries the record's row too (WORK_ROW), by which a work's first page
  // is read again (firstPages).
  const workColumns = (withKeys: boolean): string => (withKeys ? `${VERSION_COLUMNS}, r.row AS row` : VERSION_COLUMNS_WITHOUT_KEYS);
  const workRecordsByList = [false, true].map((withKeys) => db.prepare<[string], VersionRow>(`SELECT ${workColumns(withKeys)} FROM records AS r
    WHERE r.row IN (SELECT record_row ${KEYED})`).raw());
  const workRecordsByCount = [false, true].map((withKeys) => statementsByKeyCount<VersionRow>(db, (keyIds) => `SELECT ${workColumns(withKeys)} FROM records AS r
      WHERE r.row IN (SELECT record_row FROM records_by_key WHERE key_id IN (${keyIds}))`));
  const workRecords = (ids: readonly number[], withKeys = true): VersionRow[] =>
    workRecordsByCount[Number(withKeys)]![ids.length]?.all(...ids) ?? workRecordsByList[Number(withKeys)]!.all(JSON.stringify(ids));

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
   * A page of a work read whole (for its facets, filters or a sort on record fields): its records decoded
   * without their work keys, which no filter, facet or order reads (those of this turn reused); only the
   * page's records are given theirs (records given out are complete).
   */
  const pageOfWholeWork = (rows: readonly VersionRow[], query: RecordVersionsQuery): VersionsPage => {
    const work: CatalogRecord[] = [];
    const rowOf = new Map<CatalogRecord, VersionRow>();
    for (const row of rows) {
      const known = recordsThisTurn?.get(row[0]);
      if (known !== undefined) {
        work.push(known);
        continue;
      }
      const record = versionOfColumns(row, NO_KEYS);
      rowOf.set(record, row);
      work.push(record);
    }
    const page = pageOfWork(work, query);
    if (rowOf.size === 0) return page;
    const pageRows: VersionRow[] = [];
    for (const record of page.records) {
      const row = rowOf.get(record);
      if (row !== undefined) pageRows.push(row);
    }
    const texts = keyTextsOfRows(pageRows);
    return { ...page, records: page.records.map((record) => {
      const row = rowOf.get(record);
      return row === undefined ? record : { ...record, workKeys: keyTextsOfRow(row, texts) };
    }) };
  };

  /**
   * A page of a work read whole for its facets only (no filters, the feed's or the page's default order),
   * as pageOfWholeWork cuts it: the page's rows parsed and made records (with their work keys), the other
   * rows' documents only scanned for their facet fields (facetTallyOfDocumentTexts: their titles, authors
   * and the rest are not decoded), all of them counted.
   */
  const pageOfWholeWorkWithFacets = (rows: VersionRow[], query: RecordVersionsQuery): { page: VersionsPage; tally: FacetTally } => {
    rows.sort(versionOrder(query.order));
    const offset = Math.max(0, query.offset);
    const end = query.limit > 0 ? Math.min(rows.length, offset + query.limit) : offset;
    const page = rows.slice(offset, end);
    const documents = page.map((row) => JSON.parse(row[3]) as Record<string, unknown>);
    const others: string[] = [];
    for (let i = 0; i < rows.length; i++) if (i < offset || i >= end) others.push(rows[i]![3]);
    const tally = facetTallyOfDocumentTexts(others, documents);
    const texts = keyTextsOfRows(page.filter((row) => recordsThisTurn?.has(row[0]) !== true));
    const records = page.map((row, i) => recordsThisTurn?.get(row[0]) ?? recordOfParsedColumns(row[0], row[1], documents[i]!, keyTextsOfRow(row, texts)));
    return { page: { total: rows.length, records, unfilteredTotal: rows.length, facets: facetCountsOfTally(tally) }, tally };
  };

  // The first pages of works of 101-256 records read whole for their facets (no filters, the feed's or the
  // page's order), by the order and their keys' ids: the work's total, facet counts, and its first page's ids and rows, under the
  // data_version they were read in. The other records of a work have the same keys most often, and their
  // page is the same page: it is then read by its rows, without every record of the work read and scanned
  // again. At most FIRST_PAGES works, the least recently used given up first; a few hundred bytes each.
  const firstPages = new Map<string, { version: number; total: number; ids: string[]; rows: number[]; facets: FacetCounts }>();
  const firstPageKey = (ids: readonly number[], order: string): string => `${order} ${[...ids].sort((a, b) => a - b).join(',')}`;
  const firstPageOf = (ids: readonly number[], query: RecordVersionsQuery, version: number): VersionsPage | undefined => {
    if (firstPages.size === 0 || query.limit <= 0) return undefined;
    const key = firstPageKey(ids, query.order);
    const known = firstPages.get(key);
    if (known === undefined) return undefined;
    const offset = Math.max(0, query.offset);
    const end = Math.min(known.total, offset + query.limit);
    if (end > known.ids.length) return undefined;
    if (version !== known.version) {
      firstPages.delete(key);
      return undefined;
    }
    firstPages.delete(key);
    firstPages.set(key, known);
    const records = pageRecords(known.ids.slice(offset, end), known.rows.slice(offset, end));
    // A record missing since (another connection's write not yet seen in data_version): read whole again.
    if (records.length !== Math.max(0, end - offset)) return undefined;
    return { total: known.total, records, unfilteredTotal: known.total, facets: known.facets };
  };
  const keepFirstPage = (ids: readonly number[], query: RecordVersionsQuery, sorted: readonly VersionRow[], page: VersionsPage, version: number) => {
    const end = Math.max(0, query.offset) + query.limit;
    // Works of more than REUSED_FROM_WORK_RECORDS records: smaller ones are seldom asked again and cheaper
    // to read whole; larger ones are cut from their remembered lists (talliedMembers).
    if (query.limit <= 0 || sorted.length <= Math.max(end, REUSED_FROM_WORK_RECORDS) || sorted.length > SMALL_WORK_KEY_ROWS || page.facets === undefined) return;
    const first = sorted.slice(0, end);
    if (first.some((row) => typeof row[WORK_ROW] !== 'number')) return;
    firstPages.set(firstPageKey(ids, query.order), {
      version, total: sorted.length,
      ids: first.map(([id]) => id), rows: first.map((row) => row[WORK_ROW] as number), facets: page.facets,
    });
    if (firstPages.size > FIRST_PAGES) for (const oldest of firstPages.keys()) {
      firstPages.delete(oldest);
      break;
    }
  };

  /**
   * A page of a work's rows read whole, in the feed's or the page's default order, as the key rows would
   * have cut it; undefined when an id came back with U+FFFD (smallWorkEntries says why).
   */
  const pageOfWorkRows = (rows: VersionRow[], query: RecordVersionsQuery): VersionsPage | undefined => {
    if (rows.some(([id]) => id.includes('\uFFFD'))) return undefined;
    rows.sort(versionOrder(query.order));
    const offset = Math.max(0, query.offset);
    return { total: rows.length, records: versionsOfRows(rows.slice(offset, offset + query.limit), wantsKeys(query)) };
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
        const page = largeWorkWithFacets(ids, query, totals);
        if (page !== undefined) return page;
      }
      // A first page is kept for a work with a key of more than REUSED_FROM_WORK_RECORDS records by its
      // total (a work of 101-256 records most often has one naming all of them), under the data_version
      // read before the work is (a commit of another connection in between makes it older, never newer).
      const version = listsFacetsOnly(query) && (totals === undefined || totals.some((total) => total === null || total > REUSED_FROM_WORK_RECORDS)) ? dataVersion.get() ?? 0 : undefined;
      const known = version === undefined ? undefined : firstPageOf(ids, query, version);
      if (known !== undefined) return known;
      const work = workRecords(ids);
      if (!listsFacetsOnly(query)) return pageOfWholeWork(work, query);
      const { page, tally } = pageOfWholeWorkWithFacets(work, query);
      if (version !== undefined) keepFirstPage(ids, query, work, page, version);
      // A large work read whole for its facets: its large keys are remembered for the next request, and
      // the tally just counted kept with a list that holds the whole work (as many records, all of the
      // work's), so that request does not read every document again (talliedMembers).
      if (!remembered && work.length > SMALL_WORK_KEY_ROWS) {
        const listVersion = version ?? dataVersion.get() ?? 0;
        for (let i = 0; i < ids.length; i++) {
          // A key of a known total of LARGE_KEY_RECORDS or fewer is never large: not counted.
          if ((totals?.[i] ?? Infinity) <= LARGE_KEY_RECORDS) continue;
          const members = large.membersOf(ids[i] as number, listVersion, totals?.[i] != null);
          if (members !== undefined && members.size === work.length && !tallies.has(members)) tallies.set(members, { tally, counts: page.facets! });
        }
      }
      return page;
    }
    if (ids.some(large.remembers) || (totals !== undefined && namesLargeWork(totals))) return largeWork(ids, query, totals);
    // A work whose keys' totals say it has few more records than the page shows (readsWhole): its records
    // read at once, in one statement, rather than its key rows and then the page's rows.
    if (totals !== undefined && query.limit > 0 && readsWhole(totals, Math.max(0, query.offset) + query.limit)) {
      const page = pageOfWorkRows(workRecords(ids, wantsKeys(query)), query);
      if (page !== undefined) return page;
    }
    const versions = smallWorkEntries(ids);
    if (versions === undefined) return largeWork(ids, query, totals);
    versions.sort(versionOrder(query.order));
    // As LIMIT and OFFSET: no rows for a limit of 0, a negative offset counts as 0.
    const offset = Math.max(0, query.offset);
    const page = query.limit > 0 ? versions.slice(offset, offset + query.limit) : [];
    return { total: versions.length, records: pageRecords(page.map(([id]) => id), page.map(([, , row]) => row), versions.length > REUSED_FROM_WORK_RECORDS, wantsKeys(query)) };
  };

  return {
    getRecord(id) {
      const row = selectRecord.get(id);
      if (row === undefined) return undefined;
      const [ids, totals, keys] = JSON.parse(row[4]) as [number[], Array<number | null>, string[]];
      keyIdsOfList.set(keys, row[2]);
      const record = rememberThisTurn(versionOfColumns(row, keys), JSON.parse(row[2]) as number[]);
      if (ids.length === 0) (aloneThisTurn ??= new Set()).add(record);
      else (sharedKeysThisTurn ??= new Map()).set(record, { ids, totals });
      return record;
    },

    findVersions: (query) => versionsOfKeyIds(keyIdsOf(query.workKeys), query),

    // The key ids of a record getRecord gave out are known by its workKeys list (keyIdsOf).
    findVersionsOf: (record, query) => {
      if (record.workKeys.length === 0) return versionsOfKeylessRecord(record, query.offset);
      // Alone in its work, as getRecord found it this turn: its versions are the page of a work of one
      // (its total, facets and filters by the shared rule), without its key rows read.
      if (aloneThisTurn?.has(record) === true) return pageOfWork([record], query);
      const shared = sharedKeysThisTurn?.get(record);
      if (shared !== undefined) return versionsOfKeyIds(shared.ids, query, shared.totals);
      return versionsOfKeyIds(keyIdsOf(record.workKeys), query);
    },

    countVersions: (ids) => versionCounts.all(JSON.stringify(ids)),

    forgetRecent() {
      recordsThisTurn = undefined;
      keyTextsThisTurn = undefined;
      aloneThisTurn = undefined;
      sharedKeysThisTurn = undefined;
      large.forget();
      reused.forget();
      firstPages.clear();
    },
  };
}

/** Whether a query is answered from the whole work's records (the one rule, src/record/recordFacets.ts). */
export { readsWholeWork };

/** Whether a query wants the versions' work keys (the port's `versionKeys`, wanted unless false). */
function wantsKeys(query: RecordVersionsQuery): boolean {
  return query.versionKeys !== false;
}

/** Whether a query asks for facets in the feed's or the page's default order, without filters: a large work's page is then cut from its remembered list. */
function listsFacetsOnly(query: RecordVersionsQuery): boolean {
  return query.facets === true && (query.filters?.length ?? 0) === 0 && !isRecordFieldOrder(query.order);
}

/**
 * Whether keys' totals say a work goes to largeWork at once: a key of more than SMALL_WORK_KEY_ROWS, or a
 * large key (more than LARGE_KEY_RECORDS) among keys whose totals add up to more key rows than
 * smallWorkEntries reads, which would read SMALL_WORK_KEY_ROWS + 1 of them only to give up.
 */
function namesLargeWork(totals: ReadonlyArray<number | null>): boolean {
  let large = false;
  for (const total of totals) {
    if (total !== null && total > SMALL_WORK_KEY_ROWS) return true;
    if (total !== null && total > LARGE_KEY_RECORDS) large = true;
  }
  return large && sumOfTotals(totals) > SMALL_WORK_KEY_ROWS;
}

/** Whether keys' totals say a work is read whole for a page ending at `pageEnd` (WHOLE_WORK_PAGE_SHARE). */
function readsWhole(totals: ReadonlyArray<number | null>, pageEnd: number): boolean {
  let largest = 0;
  for (const total of totals) if (total !== null && total > largest) largest = total;
  return largest <= WHOLE_WORK_PAGE_SHARE * pageEnd && sumOfTotals(totals) <= WHOLE_WORK_KEY_ROWS;
}

/** The sum of keys' totals, Infinity when one is not known. */
function sumOfTotals(totals: ReadonlyArray<number | null>): number {
  let sum = 0;
  for (const total of totals) sum += total ?? Infinity;
  return sum;
}
