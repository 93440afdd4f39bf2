/**
 * The page's sort choices, by the values VuFind's result pages use for `sort` (its searches.ini
 * [Sorting]): `relevance` (the specified default: id order for a key filter), `year` (newest first),
 * `year asc`, `title`, `author`; each with the order the index port sorts by and its label key. A value
 * the page does not offer (the feed's `last_indexed desc` in its link to the page, a typing error) is the
 * default, as VuFind answers an unknown sort. The feed keeps its own order whatever `sort` says.
 *
 * Left to others: sorting (the adapters and src/record/recordOrder.ts), the selector's markup (views/).
 */
import type { LabelKey } from '../i18n/labels.js';
import type { VersionsOrder } from '../ports.js';

export const PAGE_SORTS = [
  { value: 'relevance', order: 'relevance', label: 'sort.relevance' },
  { value: 'year', order: 'year-desc', label: 'sort.year' },
  { value: 'year asc', order: 'year-asc', label: 'sort.yearAsc' },
  { value: 'title', order: 'title', label: 'sort.title' },
  { value: 'author', order: 'author', label: 'sort.author' },
] as const satisfies ReadonlyArray<{ value: string; order: VersionsOrder; label: LabelKey }>;

export type PageSort = (typeof PAGE_SORTS)[number]['value'];
export const DEFAULT_PAGE_SORT: PageSort = 'relevance';

/** The sort a request's `sort` value names, the default for any other value. */
export function pageSortFrom(value: string | undefined): PageSort {
  return PAGE_SORTS.find((sort) => sort.value === value?.trim())?.value ?? DEFAULT_PAGE_SORT;
}

/** The index order of a page sort. */
export function orderOfPageSort(sort: PageSort): VersionsOrder {
  return PAGE_SORTS.find((choice) => choice.value === sort)?.order ?? 'relevance';
}
