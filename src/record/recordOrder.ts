/**
 * The orders of versions that sort on what a record says (VuFind's result-page sorts: newest first, oldest
 * first, title, author), as one comparator every index adapter applies, so that the embedded index and
 * Solr give the same page whatever their engine's collation. Records without the value sort last in both
 * directions (as Solr's sortMissingLast does on VuFind's sort fields); equal values keep id order, by code
 * points (SQLite's order of TEXT and Solr's of a string field).
 *
 * The names of every order are here, in two lists: the engines' own (ENGINE_ORDERS) and the ones on record
 * fields (RECORD_FIELD_ORDERS); src/ports.ts `VersionsOrder` is the two together.
 *
 * Left to others: sorting in the engines' own orders (the adapters), and which URL value names which order
 * (src/versions/versionsSorts.ts).
 */
import { mainAuthorOf, shortTitleOf, yearOf, type CatalogRecord } from './catalogRecord.js';

/**
 * The orders every engine sorts by itself: `last-indexed` (last_indexed descending, then id: the feed's)
 * and `relevance` (score descending, then id: the page's default; a key filter scores every match alike).
 */
export const ENGINE_ORDERS = ['last-indexed', 'relevance'] as const;
export type EngineOrder = (typeof ENGINE_ORDERS)[number];

/** The orders sorted on record fields, by recordFieldOrder below. */
export const RECORD_FIELD_ORDERS = ['year-desc', 'year-asc', 'title', 'author'] as const;
export type RecordFieldOrder = (typeof RECORD_FIELD_ORDERS)[number];

export function isRecordFieldOrder(order: string): order is RecordFieldOrder {
  return (RECORD_FIELD_ORDERS as readonly string[]).includes(order);
}

/** Whether a value names an order of either list. */
export function isVersionsOrder(order: unknown): order is EngineOrder | RecordFieldOrder {
  return typeof order === 'string' && ((ENGINE_ORDERS as readonly string[]).includes(order) || isRecordFieldOrder(order));
}

/** The engine order a page in this order is cut by: `last-indexed` itself, any other the id order of `relevance`. */
export function engineOrderOf(order: string): EngineOrder {
  return order === 'last-indexed' ? 'last-indexed' : 'relevance';
}

/** Ids by code points: SQLite's BINARY order of UTF-8 text, which JavaScript's UTF-16 compare differs from only past U+FFFF. */
export function compareByCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      const xSurrogate = x <= 0xdfff;
      if (xSurrogate !== y <= 0xdfff) return xSurrogate ? 1 : -1;
    }
    return x - y;
  }
  return a.length - b.length;
}

// Case, accents and punctuation do not part two titles or names ("Émile" beside "emile"); digits compare as numbers.
const collator = new Intl.Collator('en', { sensitivity: 'base', ignorePunctuation: true, numeric: true });

/** A sort value or undefined (sorted last), for each order. */
const SORT_VALUE: Readonly<Record<RecordFieldOrder, (record: CatalogRecord) => string | undefined>> = {
  'year-desc': (record) => yearOf(record),
  'year-asc': (record) => yearOf(record),
  title: (record) => shortTitleOf(record)?.trim(),
  author: (record) => mainAuthorOf(record)?.trim(),
};

/** The comparator of an order on record fields. */
export function recordFieldOrder(order: RecordFieldOrder): (a: CatalogRecord, b: CatalogRecord) => number {
  const valueOf = SORT_VALUE[order];
  const direction = order === 'year-desc' ? -1 : 1;
  return (a, b) => {
    const x = valueOf(a);
    const y = valueOf(b);
    if (x !== y) {
      if (x === undefined) return 1;
      if (y === undefined) return -1;
      const compared = direction * collator.compare(x, y);
      if (compared !== 0) return compared;
    }
    return compareByCodePoints(a.id, b.id);
  };
}

