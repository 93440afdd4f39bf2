/**
 * The reads of the embedded index for a large work (versionsReads.ts sends it here, readStrategy.ts says
 * when): its page cut from the remembered records of its large keys (largeKeyMembers.ts) with what its
 * small keys add, and its facets from a tally kept with that list; otherwise one statement that collects,
 * counts and cuts the work's key rows in SQLite.
 */
import type Database from 'better-sqlite3';
import type { RecordVersionsQuery, VersionsPage } from '../../ports.js';
import { addToFacetTally, facetCountsOfTally, type FacetCounts, type FacetTally } from '../../record/recordFacets.js';
import { facetTallyOfDocumentTexts } from '../../record/documentFacetTally.js';
import { holds, LARGE_KEY_RECORDS, largeKeys, pageOfUnion, type KeyMembers } from './largeKeyMembers.js';
import type { VersionEntry } from './versionOrder.js';
import type { VersionRecords } from './versionRecords.js';
import { KEY_ROW_COLUMNS, KEYED, VERSION_COLUMNS, wantsKeys } from './versionRows.js';

/** The large-work reads of the index file `db`, giving out records through `recordReads` (versionRecords.ts). */
export function largeWorkReads(db: Database.Database, recordReads: VersionRecords) {
  // A large work's page and total in one statement: the distinct records of its key rows are collected
  // once, counted, and cut to the page, and only the page's records are read. An empty page (offset past
  // the end, limit 0) has no row to carry the total, so then the count runs alone.
  type PageRow = readonly [id: string, lastIndexed: number, keyIds: string, document: string, total: number];
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
    return { total: rows[0]?.[4] ?? countOf.get(keyIds) ?? 0, records: recordReads.versionsOfRows(rows, wantsKeys(query)) };
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
    const version = recordReads.dataVersion();
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
    return { total, records: recordReads.pageRecords(ids, rows, true, wantsKeys(query), union.version) };
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
      facets = facetCountsOfTally(addToFacetTally(recordReads.pageRecords(added.map(([id]) => id), added.map(([, , row]) => row), true, true, version), tallied.tally));
    }
    const { total, ids, rows } = pageOfUnion(members, extras, query);
    return { total, records: recordReads.pageRecords(ids, rows, true, true, version), unfilteredTotal: total, facets };
  };

  return {
    /** Whether a key is remembered as large (its work goes to largeWork at once). */
    remembers: large.remembers,
    largeWork,
    largeWorkWithFacets,
    /**
     * Keeps the tally of a large work just read whole for its facets with each of its large keys' lists
     * that holds the whole work (as many records, all of the work's), so that the next request is cut
     * from the list (talliedMembers). A key of a known total of LARGE_KEY_RECORDS or fewer is never large:
     * not counted.
     */
    keepWholeWorkTally(ids: readonly number[], totals: ReadonlyArray<number | null> | undefined, workSize: number, tallied: { tally: FacetTally; counts: FacetCounts }, listVersion: number): void {
      for (let i = 0; i < ids.length; i++) {
        if ((totals?.[i] ?? Infinity) <= LARGE_KEY_RECORDS) continue;
        const members = large.membersOf(ids[i] as number, listVersion, totals?.[i] != null);
        if (members !== undefined && members.size === workSize && !tallies.has(members)) tallies.set(members, tallied);
      }
    },
    forget: (): void => large.forget(),
  };
}
