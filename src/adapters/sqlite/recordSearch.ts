/**
 * The embedded index's search box, for a small catalog (the demo's): records whose searched fields (the
 * field table's `searched` column, recordFields.ts: titles and authors) contain every word asked,
 * case- and accent-insensitive, by id. A scan of the stored documents, matched by folded words: good for
 * the thousands of records the embedded index is meant for; a large catalog searches its Solr. Not part of
 * the port.
 *
 * Left to others: reading records (indexTables.ts, legacyLayouts.ts), the index's lifetime (embeddedIndex.ts).
 */
import type Database from 'better-sqlite3';
import { recordFromDocument, type CatalogRecord } from '../../record/catalogRecord.js';
import { SEARCHED_FIELD_NAMES } from '../../record/recordFields.js';
import { IndexUnavailableError } from '../../errors.js';
import { RECORD_COLUMNS, recordOfRow, type RecordRow } from './indexTables.js';

export interface RecordSearchResult {
  readonly total: number;
  readonly records: readonly CatalogRecord[];
}

export interface RecordSearchOptions {
  readonly limit?: number;
  readonly offset?: number;
}

export type RecordSearch = (text: string, options?: RecordSearchOptions) => RecordSearchResult;

/** The search of an index file of the current layout, or of a 0.1.0 file served as it is (`currentLayout` false). */
export function recordSearchOn(db: Database.Database, currentLayout: boolean): RecordSearch {
  db.function('search_text', { deterministic: true }, (json: unknown) => searchTextOf(String(json)));
  const MATCHES = `FROM records AS r WHERE (SELECT COUNT(*) FROM json_each(?) AS w WHERE instr(search_text(r.document), w.value) > 0) = ?`;
  const searchRows = db.prepare<[string, number, number, number], RecordRow & { total: number }>(
    `SELECT ${currentLayout ? RECORD_COLUMNS : 'r.document AS document'}, COUNT(*) OVER () AS total ${MATCHES} ORDER BY r.id LIMIT ? OFFSET ?`);
  const searchTotal = db.prepare<[string, number], number>(`SELECT COUNT(*) ${MATCHES}`).pluck();
  const decodeFound = currentLayout ? recordOfRow : (row: { document: string }) => recordFromDocument(JSON.parse(row.document));
  return (text, searchOptions = {}) => {
    const limit = searchOptions.limit ?? 20;
    const offset = searchOptions.offset ?? 0;
    if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError(`limit must be a whole number >= 0, not ${limit}`);
    if (!Number.isSafeInteger(offset) || offset < 0) throw new RangeError(`offset must be a whole number >= 0, not ${offset}`);
    const words = searchWordsOf(typeof text === 'string' ? text : '');
    if (words.length === 0) return { total: 0, records: [] };
    try {
      const rows = searchRows.all(JSON.stringify(words), words.length, limit, offset);
      return { total: rows[0]?.total ?? (offset > 0 ? searchTotal.get(JSON.stringify(words), words.length) ?? 0 : 0), records: rows.map(decodeFound) };
    } catch (cause) {
      throw new IndexUnavailableError(`Embedded index: record search failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    }
  };
}

/** Lower case, accents dropped, letters and digits only: how titles, authors and search words compare. */
function foldForSearch(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

function searchWordsOf(text: string): string[] {
  return [...new Set(foldForSearch(text).split(/[^\p{L}\p{N}]+/u).filter((word) => word !== ''))].slice(0, 16);
}

/** The folded searched fields of a stored document, one string to look words up in. */
function searchTextOf(documentJson: string): string {
  const document = JSON.parse(documentJson) as Record<string, unknown>;
  const parts: string[] = [];
  for (const field of SEARCHED_FIELD_NAMES) {
    const value = document[field];
    for (const item of Array.isArray(value) ? value : [value]) if (typeof item === 'string') parts.push(item);
  }
  return foldForSearch(parts.join(' '));
}
