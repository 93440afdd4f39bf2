/**
 * The reads of the embedded index for a work read whole, for its facets, filters or an order on record
 * fields, or because its keys' totals say it is small enough to read at once (readStrategy.ts): its
 * records in one statement, the page cut by the rules every adapter shares (src/record/recordFacets.ts),
 * and the first pages of works of a hundred or so records kept to be read again by their rows.
 */
import type Database from 'better-sqlite3';
import type { RecordVersionsQuery, VersionsPage } from '../../ports.js';
import { recordOfParsedColumns } from './indexTables.js';
import type { CatalogRecord } from '../../record/catalogRecord.js';
import { facetCountsOfTally, pageOfWork, type FacetCounts, type FacetTally } from '../../record/recordFacets.js';
import { facetTallyOfDocumentTexts } from '../../record/documentFacetTally.js';
import { REUSED_FROM_WORK_RECORDS, SMALL_WORK_KEY_ROWS } from './readStrategy.js';
import { versionOrder } from './versionOrder.js';
import type { VersionRecords } from './versionRecords.js';
import { KEYED, NO_KEYS, statementsByKeyCount, VERSION_COLUMNS, VERSION_COLUMNS_WITHOUT_KEYS, versionOfColumns, wantsKeys, type VersionRow } from './versionRows.js';

/** The first pages of works read whole for their facets kept at most (firstPages). */
const FIRST_PAGES = 512;
/** Where a row of a work read whole with keys holds the record's row (workColumns). */
const WORK_ROW = 4;

/** The whole-work reads of the index file `db`, giving out records through `recordReads` (versionRecords.ts). */
export function wholeWorkReads(db: Database.Database, recordReads: VersionRecords) {
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

  /**
   * A page of a work read whole (for its facets, filters or a sort on record fields): its records decoded
   * without their work keys, which no filter, facet or order reads (those of this turn reused); only the
   * page's records are given theirs (records given out are complete).
   */
  const pageOfWholeWork = (rows: readonly VersionRow[], query: RecordVersionsQuery): VersionsPage => {
    const work: CatalogRecord[] = [];
    const rowOf = new Map<CatalogRecord, VersionRow>();
    for (const row of rows) {
      const known = recordReads.thisTurn(row[0]);
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
    const texts = recordReads.keyTextsOfRows(pageRows);
    return { ...page, records: page.records.map((record) => {
      const row = rowOf.get(record);
      return row === undefined ? record : { ...record, workKeys: recordReads.keyTextsOfRow(row, texts) };
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
    const texts = recordReads.keyTextsOfRows(page.filter((row) => recordReads.thisTurn(row[0]) === undefined));
    const records = page.map((row, i) => recordReads.thisTurn(row[0]) ?? recordOfParsedColumns(row[0], row[1], documents[i]!, recordReads.keyTextsOfRow(row, texts)));
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
    const records = recordReads.pageRecords(known.ids.slice(offset, end), known.rows.slice(offset, end));
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
    return { total: rows.length, records: recordReads.versionsOfRows(rows.slice(offset, offset + query.limit), wantsKeys(query)) };
  };

  return {
    workRecords,
    pageOfWholeWork,
    pageOfWholeWorkWithFacets,
    pageOfWorkRows,
    firstPageOf,
    keepFirstPage,
    forget: (): void => firstPages.clear(),
  };
}
