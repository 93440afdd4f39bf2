/**
 * VuFind's filter parameters for the versions list: `filter[]=language:"Portuguese"`, repeated for
 * several (every one must match). A value names a facet field (src/record/recordFacets.ts) and a quoted
 * value; anything else (an unknown field, no quotes) is left out, as VuFind leaves out filters it cannot
 * read. The same filters narrow the page and the feed.
 *
 * Left to others: applying them (the index adapters), drawing them (src/page/).
 */
import { isFacetField, type VersionsFilter } from '../record/recordFacets.js';

/** Filters at most read from one request: more would only be a way to make answers expensive. */
const FILTERS_READ = 10;

/** The filters of a request's `filter[]` values, each once, in the order given. */
export function filtersFrom(values: readonly string[]): VersionsFilter[] {
  const filters: VersionsFilter[] = [];
  for (const text of values.slice(0, FILTERS_READ * 2)) {
    const match = /^\s*([A-Za-z_]+)\s*:\s*"((?:[^"\\]|\\.)*)"\s*$/.exec(text);
    const field = match?.[1];
    if (match === null || field === undefined || !isFacetField(field)) continue;
    const value = (match[2] ?? '').replace(/\\(.)/g, '$1').trim();
    if (value === '' || filters.some((filter) => filter.field === field && filter.value === value)) continue;
    filters.push({ field, value });
    if (filters.length === FILTERS_READ) break;
  }
  return filters;
}

/** A filter as its `filter[]` value: `field:"value"`, quotes and backslashes escaped. */
export function filterParameter(filter: VersionsFilter): string {
  // Written for every facet value of a page: most values hold neither, and skip the replacing pass.
  const value = filter.value.includes('"') || filter.value.includes('\\') ? filter.value.replace(/["\\]/g, '\\$&') : filter.value;
  return `${filter.field}:"${value}"`;
}
