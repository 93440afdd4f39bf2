/**
 * The rows the embedded index's read path (versionsReads.ts) reads versions from: their columns, their
 * shape as arrays, the statements bound one key at a time, and a version's record made of its row.
 */
import type Database from 'better-sqlite3';
import type { CatalogRecord } from '../../record/catalogRecord.js';
import type { RecordVersionsQuery } from '../../ports.js';
import { parameterList, recordOfColumns } from './indexTables.js';

/**
 * A version's row as its statements read it, an array (better-sqlite3's raw rows: no object made per row):
 * id, last_indexed, its keys' ids only (a JSON array, as stored; null when read for a query that wants no
 * keys: VERSION_COLUMNS_WITHOUT_KEYS), document.
 */
export type VersionRow = readonly [id: string, lastIndexed: number, keyIds: string | null, document: string, ...more: unknown[]];
export const versionOfColumns = (row: VersionRow, keys: readonly string[]): CatalogRecord => recordOfColumns(row[0], row[1], row[3], keys);
export const VERSION_COLUMNS = 'r.id AS id, r.last_indexed AS last_indexed, r.key_ids AS key_ids, r.document AS document';
/**
 * The columns of a version read for a query that wants no keys (the feed's): its key ids left in the file,
 * one string fewer made for each row (each value handed to JavaScript costs more than its bytes).
 */
export const VERSION_COLUMNS_WITHOUT_KEYS = 'r.id AS id, r.last_indexed AS last_indexed, NULL AS key_ids, r.document AS document';
/** The columns of a version's row for a query that wants its keys or not. */
export const versionColumns = (withKeys: boolean): string => (withKeys ? VERSION_COLUMNS : VERSION_COLUMNS_WITHOUT_KEYS);
/** A key row as the page is cut from it: record id, last_indexed, the record's row. */
export const KEY_ROW_COLUMNS = 'record_id, last_indexed, record_row';
/** The key rows of the keys whose ids are a JSON array (the one parameter). */
export const KEYED = 'FROM records_by_key WHERE key_id IN (SELECT value FROM json_each(?))';
/** Up to this many keys are bound one by one (IN (?, ?)): SQLite seeks them without a temporary list. */
const BOUND_KEYS = 8;
/**
 * One statement (its rows as arrays) for each count of key ids from 1 to BOUND_KEYS, indexed by the
 * count, `sqlOf` given that many parameters: a list of at most BOUND_KEYS keys is bound one by one, with
 * no JSON list made and read; a longer one goes to the caller's json_each statement.
 */
export function statementsByKeyCount<Row>(db: Database.Database, sqlOf: (keyIdParameters: string) => string): Array<Database.Statement<unknown[], Row>> {
  const statements: Array<Database.Statement<unknown[], Row>> = [];
  for (let count = 1; count <= BOUND_KEYS; count++) statements[count] = db.prepare<unknown[], Row>(sqlOf(parameterList(count))).raw();
  return statements;
}
/**
 * The work keys of a record decoded only for a filter, a facet or a sort, never given out as it is, and of
 * a version given to a query that does not want their keys (wantsKeys).
 */
export const NO_KEYS: readonly string[] = Object.freeze([]);

/** Whether a query wants the versions' work keys (the port's `versionKeys`, wanted unless false). */
export function wantsKeys(query: RecordVersionsQuery): boolean {
  return query.versionKeys !== false;
}
