/**
 * Facets within a work: which versions filters leave (VuFind's `filter[]=field:"value"`, every filter
 * must match), and how many of them carry each value of the facet fields (format, language, institution,
 * building, publication year): at most 30 values a field, most frequent first, equal counts by value; the
 * years every one, newest first (a reader looks for a year by its place, and a page shows those beyond
 * the 30 newest under "more" rather than dropping them).
 * One rule for every index adapter, applied to the work's records as the adapter read them in one
 * statement or request, so that the embedded index and Solr count alike.
 *
 * Left to others: the tally of stored documents, for an adapter that does not make records of them
 * (documentFacetTally.ts); reading `filter[]` from a request and drawing the facets (src/versions/, src/page/).
 */
import { compareByCodePoints, isRecordFieldOrder, recordFieldOrder } from './recordOrder.js';
import type { CatalogRecord } from './catalogRecord.js';

/** The facet fields, by their record-document (VuFind) names, in the order the page shows them. */
export const FACET_FIELDS = ['format', 'language', 'institution', 'building', 'publishDate'] as const;
export type FacetField = (typeof FACET_FIELDS)[number];

/**
 * What each facet field's values are: `terms` as the records give them, the most frequent
 * FACET_VALUES_LIMIT listed; `years` publication dates read as years (`[1899?]` → `1899`), every one
 * listed, newest first, never cut (a reader looks for a year by its place).
 */
export const FACET_VALUE_KINDS: Readonly<Record<FacetField, 'terms' | 'years'>> = {
  format: 'terms', language: 'terms', institution: 'terms', building: 'terms', publishDate: 'years',
};

/** Whether a facet field's values are years, listed uncut and newest first (FACET_VALUE_KINDS). */
export function isYearsFacet(field: FacetField): boolean {
  return FACET_VALUE_KINDS[field] === 'years';
}

/**
 * Values a facet field lists at most (the observed VuFind service asks its index for 30); the years are
 * all listed, and a page shows this many of them before the rest.
 */
export const FACET_VALUES_LIMIT = 30;

export interface VersionsFilter {
  readonly field: FacetField;
  readonly value: string;
}

export interface FacetValue {
  readonly value: string;
  readonly count: number;
}

/** The values of each facet field the (filtered) versions carry; a field none carries is absent. */
export type FacetCounts = Partial<Readonly<Record<FacetField, readonly FacetValue[]>>>;

export function isFacetField(name: string): name is FacetField {
  return (FACET_FIELDS as readonly string[]).includes(name);
}

/** A record's values of a facet field, each once; publication dates as years (`[1899?]` → `1899`). */
export function facetValuesOf(record: CatalogRecord, field: FacetField): string[] {
  return facetValuesOfList(field, field === 'format' ? record.formats
    : field === 'language' ? record.languages ?? []
      : field === 'institution' ? record.institutions ?? []
        : field === 'building' ? record.buildings ?? []
          : record.publishDates);
}

/** A facet field's values as facetValuesOf counts them, from the field's list (for an adapter that keeps them apart from records). */
export function facetValuesOfList(field: FacetField, list: readonly string[]): string[] {
  const values = isYearsFacet(field) ? list.map(yearOfDate) : list;
  return [...new Set(values.map((value) => value.trim()).filter((value) => value !== ''))];
}

/** A publication date's year, its first four digits ('' for none): a date of four digits alone, the common case, without the pattern. */
export function yearOfDate(date: string): string {
  if (date.length === 4 && isDigit(date.charCodeAt(0)) && isDigit(date.charCodeAt(1)) && isDigit(date.charCodeAt(2)) && isDigit(date.charCodeAt(3))) return date;
  return /\d{4}/.exec(date)?.[0] ?? '';
}
const isDigit = (code: number): boolean => code >= 0x30 && code <= 0x39;

/** Whether a record carries every filter's value. */
export function matchesFilters(record: CatalogRecord, filters: readonly VersionsFilter[]): boolean {
  return filters.every((filter) => facetValuesOf(record, filter.field).includes(filter.value));
}

/**
 * How many records carry each value of each facet field, every value (not cut to the limit): what an
 * adapter may keep for a set of records it reads often (the embedded index, for the records of its large
 * work keys) and add a few records to (addToFacetTally) before the counts are cut (facetCountsOfTally).
 */
export type FacetTally = ReadonlyMap<FacetField, ReadonlyMap<string, number>>;

/** The tally of these records, added to a copy of `base` when given. */
export function addToFacetTally(records: readonly CatalogRecord[], base?: FacetTally): FacetTally {
  const tallies = new Map<FacetField, Map<string, number>>();
  for (const field of FACET_FIELDS) {
    const tally = new Map(base?.get(field));
    for (const record of records) for (const value of facetValuesOf(record, field)) tally.set(value, (tally.get(value) ?? 0) + 1);
    tallies.set(field, tally);
  }
  return tallies;
}

/**
 * The facet counts of a tally: a field no record carries is absent; the years all of them, newest first
 * (yearsNewestFirst); every other field at most FACET_VALUES_LIMIT values, most frequent first
 * (mostFrequentFirst).
 */
export function facetCountsOfTally(tallies: FacetTally): FacetCounts {
  const counts: Partial<Record<FacetField, FacetValue[]>> = {};
  for (const field of FACET_FIELDS) {
    const tally = tallies.get(field);
    if (tally === undefined || tally.size === 0) continue;
    const values = [...tally].map(([value, count]) => ({ value, count }));
    counts[field] = isYearsFacet(field) ? values.sort(yearsNewestFirst) : values.sort(mostFrequentFirst).slice(0, FACET_VALUES_LIMIT);
  }
  return counts;
}

/** Facet values by count, the largest first; equal counts by value. */
export function mostFrequentFirst(a: FacetValue, b: FacetValue): number {
  return b.count - a.count || compareByCodePoints(a.value, b.value);
}

/** Years (four digits, as facetValuesOf makes them), the newest first. */
export function yearsNewestFirst(a: FacetValue, b: FacetValue): number {
  return compareByCodePoints(b.value, a.value);
}

/** The facet counts of these records. */
export function facetCountsOf(records: readonly CatalogRecord[]): FacetCounts {
  return facetCountsOfTally(addToFacetTally(records));
}

const newestIndexedFirst = (a: CatalogRecord, b: CatalogRecord): number =>
  (a.lastIndexed < b.lastIndexed ? 1 : a.lastIndexed > b.lastIndexed ? -1 : 0) || compareByCodePoints(a.id, b.id);
const byId = (a: CatalogRecord, b: CatalogRecord): number => compareByCodePoints(a.id, b.id);

/** The comparator of any order, for pages cut from a whole work read at once. */
/** A port's order (src/ports.ts `VersionsOrder`; named by text here, so the ports' types may use this module's). */
export function compareInOrder(order: string): (a: CatalogRecord, b: CatalogRecord) => number {
  if (isRecordFieldOrder(order)) return recordFieldOrder(order);
  return order === 'last-indexed' ? newestIndexedFirst : byId;
}

/**
 * Whether a query is answered from the whole work's records (an order on record fields, filters or
 * facets) rather than paged by the engine: every adapter asks this one question.
 */
export function readsWholeWork(query: { readonly order: string; readonly filters?: readonly VersionsFilter[]; readonly facets?: boolean }): boolean {
  return isRecordFieldOrder(query.order) || (query.filters?.length ?? 0) > 0 || query.facets === true;
}

export interface WorkPage {
  readonly total: number;
  readonly records: readonly CatalogRecord[];
  /** With filters or facets asked for (the port's rule). */
  readonly unfilteredTotal?: number;
  readonly facets?: FacetCounts;
}

/**
 * One page of a whole work's records: the filters applied, the facets counted over what they leave (when
 * asked for), the order sorted, `offset` and `limit` cut.
 */
export function pageOfWork(
  work: readonly CatalogRecord[],
  query: { readonly order: string; readonly offset: number; readonly limit: number; readonly filters?: readonly VersionsFilter[]; readonly facets?: boolean },
): WorkPage {
  const filters = query.filters ?? [];
  const left = filters.length > 0 ? work.filter((record) => matchesFilters(record, filters)) : work;
  const offset = Math.max(0, query.offset);
  const records = query.limit > 0 ? [...left].sort(compareInOrder(query.order)).slice(offset, offset + query.limit) : [];
  const narrowed = filters.length > 0 || query.facets === true;
  return {
    total: left.length,
    records,
    ...(narrowed ? { unfilteredTotal: work.length } : {}),
    ...(query.facets === true ? { facets: facetCountsOf(left) } : {}),
  };
}
