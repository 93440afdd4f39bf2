/**
 * The versions page's ways to other pages of the same versions: the page navigation, the way back from
 * past the end, the sort selector, and the filters every such link keeps.
 */
import { perTranslator, type Translate } from '../i18n/labels.js';
import { lastPageOf, PAGE_ROWS, visiblePageNumbers } from '../versions/paging.js';
import { versionsPageHref, versionsPageHrefs, VERSIONS_PARAMETERS, VERSIONS_SEARCH } from '../versions/versionsUrls.js';
import type { PaginationModel, PastEndModel, SortModel } from './pageViewModels.js';
import { DEFAULT_PAGE_SORT, PAGE_SORTS, type PageSort } from '../versions/versionsSorts.js';
import { filterParameter } from '../versions/versionsFilters.js';
import { deepFrozen, NONE, type Writable } from './modelValues.js';
import type { VersionsPageInput } from './pageInput.js';

/**
 * The page navigation, when there is more than one page. Past the end it still leads back: the numbers
 * around the last page (none current) and "previous" to the last page. A single page needs none, even
 * past the end (the past-end message links to it).
 */
export function paginationOf(input: VersionsPageInput): PaginationModel | undefined {
  const { page, versions, translate, explicitLanguage } = input;
  const id = input.requestedRecord.id;
  const last = lastPageOf(versions.total, PAGE_ROWS);
  if (last === 1) return undefined;
  const pageHref = versionsPageHrefs(id, explicitLanguage, input.sort);
  const filters = filterParams(input);
  const href = (n: number) => pageHref(n, filters);
  const previousShortLabel = translate('paging.previousShort');
  const nextShortLabel = translate('paging.nextShort');
  // The steps set only when they apply, rather than spread in from objects made for the purpose.
  const pagination: Writable<PaginationModel> = {
    label: translate('paging.label'),
    pages: visiblePageNumbers(Math.min(page, last), last).map((n) => ({ number: n, href: href(n), isCurrent: n === page })),
    previousShortLabel,
    nextShortLabel,
  };
  if (page > 1) pagination.previous = { href: href(Math.min(page - 1, last)), label: translate('paging.previous'), shortLabel: previousShortLabel };
  if (page < last) pagination.next = { href: href(page + 1), label: translate('paging.next'), shortLabel: nextShortLabel };
  return pagination;
}

/** On a page past the end (docs/page.md: no entries there), what to say instead of "Showing 1961 - 1960 results of 30". */
export function pastEndOf(input: VersionsPageInput): PastEndModel | undefined {
  const { page, versions, translate, explicitLanguage } = input;
  const last = lastPageOf(versions.total, PAGE_ROWS);
  if (page <= last || versions.records.length > 0) return undefined;
  return {
    message: translate('paging.pastEnd', { page, last }),
    lastPage: { href: versionsPageHref(input.requestedRecord.id, last, explicitLanguage, input.sort, filterParams(input)), label: translate('paging.last') },
  };
}

/**
 * The sort selector's options with the current one marked, the same for every page in one language and
 * sort: made once per translator and sort and given frozen, rather than for every page.
 */
const sortOptionsByTranslator = perTranslator(() => new Map<PageSort, SortModel['options']>());

function sortOptionsOf(translate: Translate, current: PageSort): SortModel['options'] {
  const bySort = sortOptionsByTranslator(translate);
  let options = bySort.get(current);
  if (options === undefined) {
    options = deepFrozen(PAGE_SORTS.map(({ value, label }) => ({ value, label: translate(label), isCurrent: value === current })));
    bySort.set(current, options);
  }
  return options;
}

/** The sort selector, when there is more than one version to order. */
export function sortOf(input: VersionsPageInput): SortModel | undefined {
  if (input.versions.total < 2) return undefined;
  return {
    label: input.translate('sort.label'),
    submitLabel: input.translate('sort.submit'),
    name: VERSIONS_PARAMETERS.sort,
    options: sortOptionsOf(input.translate, input.sort ?? DEFAULT_PAGE_SORT),
    hidden: hiddenFieldsOf(input),
  };
}

/** What the sort form sends besides `sort`: the record, the search, an explicit lng and the filters. */
function hiddenFieldsOf(input: VersionsPageInput): SortModel['hidden'] {
  const { id, search, language, filter } = VERSIONS_PARAMETERS;
  const hidden: Array<SortModel['hidden'][number]> = [{ name: id, value: input.requestedRecord.id }, { name: search, value: VERSIONS_SEARCH }];
  if (input.explicitLanguage !== undefined) hidden.push({ name: language, value: input.explicitLanguage });
  for (const value of filterParams(input)) hidden.push({ name: filter, value });
  return hidden;
}

/** The request's filters as `filter[]` values, kept by page, language and sort links. */
export function filterParams(input: VersionsPageInput): readonly string[] {
  return input.filters === undefined || input.filters.length === 0 ? NONE : input.filters.map(filterParameter);
}
