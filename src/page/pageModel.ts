/**
 * The versions HTML page as a finished view model (docs/page.md).
 * Templates in views/ and themes/ render it without further lookups.
 */
import { hasTitle, mainAuthorOf, shortTitleOf, yearOf, type CatalogRecord } from '../record/catalogRecord.js';
import { frozenRecordParts } from '../record/frozenRecordParts.js';
import { showingLine } from '../feed/feedModel.js';
import { formatLabel, perTranslator, type Translate } from '../i18n/labels.js';
import { lastPageOf, offsetOf, PAGE_ROWS, visiblePageNumbers } from '../versions/paging.js';
import { recordUrl, versionsFeedUrl, versionsLanguageHrefs, versionsPageHref, versionsPageHrefs, VERSIONS_PARAMETERS, VERSIONS_SEARCH } from '../versions/versionsUrls.js';
import { languageNameIn } from '../record/recordLanguages.js';
import type {
  DetailModel, FacetModel, FacetValueModel, FilteredModel, LanguageChoiceModel, PaginationModel, PastEndModel, SortModel, SourceModel, VersionEntryModel, VersionsPageModel,
} from './pageViewModels.js';
import { reasonForSharedKeys, type VersionReason } from '../work-keys/workKeyKinds.js';
import type { LabelKey } from '../i18n/labels.js';
import type { VersionsFilter, VersionsPage } from '../ports.js';
import { DEFAULT_PAGE_SORT, PAGE_SORTS, type PageSort } from '../versions/versionsSorts.js';
import { filterParameter } from '../versions/versionsFilters.js';
import { FACET_FIELDS, FACET_VALUES_LIMIT, isYearsFacet, type FacetField } from '../record/recordFacets.js';

/**
 * The label of each reason a page gives; a reason from keys of no known kind (a host's own keys) says
 * nothing a patron could read, so it has none and the entry shows no reason.
 */
const REASON_LABELS: Readonly<Record<VersionReason, LabelKey | undefined>> = {
  'same-author-title': 'reason.sameAuthorTitle',
  'same-uniform-title': 'reason.sameUniformTitle',
  translation: 'reason.translation',
  'same-identifier': 'reason.sameIdentifier',
  'grouped-by-library': 'reason.groupedByLibrary',
  'same-key': undefined,
};

/**
 * Why a version other than the requested record is listed, from the keys the two share (workKeyKinds.ts).
 * The versions of one work mostly hold the same keys: a page works a reason out once for each list of
 * keys among its versions, not once for every version. `reasons` holds those worked out, by the list's
 * first key; the lists are compared key by key, so that no text is made or hashed per version (the index
 * gives the key texts of one turn as the same strings).
 */
type PageReasons = Map<string, Array<{ readonly keys: readonly string[]; readonly text: string | undefined }>>;

function reasonOf(record: CatalogRecord, input: VersionsPageInput, reasons: PageReasons): string | undefined {
  if (record.id === input.requestedRecord.id) return undefined;
  const keys = record.workKeys;
  const first = keys[0] ?? '';
  let known = reasons.get(first);
  for (const reason of known ?? []) if (sameKeys(reason.keys, keys)) return reason.text;
  const reason = reasonForSharedKeys(input.requestedRecord.workKeys, keys);
  const label = reason === undefined ? undefined : REASON_LABELS[reason];
  const text = label === undefined ? undefined : input.translate(label);
  if (known === undefined) reasons.set(first, known = []);
  known.push({ keys, text });
  return text;
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export interface VersionsPageInput {
  readonly requestedRecord: CatalogRecord;
  readonly versions: VersionsPage;
  readonly page: number;
  readonly language: string;
  /** The `lng` the request carried, kept in page links (only when it named a supported language). */
  readonly explicitLanguage?: string;
  readonly baseUrl: string;
  readonly siteTitle: string;
  /** The catalog's home page (the catalogHomeUrl option), linked from the site header. */
  readonly catalogHomeUrl: string;
  readonly translate: Translate;
  /** Every offered language with its own name, in the configured order. */
  readonly languages: ReadonlyArray<{ readonly code: string; readonly name: string }>;
  /** The page answers a browser that opened the feed's address: it says so and shows that address. */
  readonly feedPreview?: boolean;
  /** The sort asked for (`sort`; the default when absent), kept in page and language links. */
  readonly sort?: PageSort;
  /** The filters applied (`filter[]`): the page says how many versions they leave and offers to clear them. */
  readonly filters?: readonly VersionsFilter[];
}

/** Full-text links are followed by patrons: only web addresses become links (no `javascript:`, `data:`, …). */
function isWebAddress(url: string): boolean {
  return /^https?:\/\/[^\s]+$/i.test(url.trim());
}

// What an entry without any of a list's values holds: one list for all of them, as nothing changes it.
const NONE: readonly never[] = Object.freeze([]);

/**
 * Values trimmed, blank ones left out, each once, in their order; then those of `more` the same way. One
 * list filled in one pass: a record has a few values of each field, and this is done for several fields
 * of every entry built afresh. A record without any of them (most lack several fields) gets the one shared
 * empty list, NONE, with no list made.
 */
function shown(values: readonly string[] | undefined, more?: readonly string[]): readonly string[] {
  if ((values === undefined || values.length === 0) && (more === undefined || more.length === 0)) return NONE;
  const kept: string[] = [];
  // A set only for the rare record with many values, where looking each up in the list would not scale.
  const many = (values?.length ?? 0) + (more?.length ?? 0) > 16 ? new Set<string>() : undefined;
  if (values !== undefined) keepShown(values, kept, many);
  if (more !== undefined) keepShown(more, kept, many);
  return kept;
}

function keepShown(list: readonly string[], kept: string[], many: Set<string> | undefined): void {
  for (let i = 0; i < list.length; i++) {
    const value = (list[i] as string).trim();
    if (value === '' || (many !== undefined ? many.has(value) : kept.includes(value))) continue;
    kept.push(value);
    many?.add(value);
  }
}

/**
 * The words of an entry that take no values, looked up once per translator rather than for every entry:
 * the plugin makes one translator per language (labelCatalogs.ts), whose label without values is the
 * same text every time.
 */
interface EntryWords {
  readonly titleMissing: string;
  readonly publishedIn: string;
  readonly requested: string;
  readonly source: string;
  readonly language: string;
  readonly edition: string;
  readonly publisher: string;
  readonly physical: string;
  readonly fullText: string;
}

const entryWordsOf = perTranslator((translate): EntryWords => ({
  titleMissing: translate('record.titleMissing'),
  publishedIn: translate('record.publishedIn'),
  requested: translate('record.requested'),
  source: translate('record.source'),
  language: translate('record.language'),
  edition: translate('record.edition'),
  publisher: translate('record.publisher'),
  physical: translate('record.physical'),
  fullText: translate('record.fullText'),
}));

/** Institutions, then libraries or collections, each once (a catalog often repeats one in both fields). */
function sourceOf(record: CatalogRecord, words: EntryWords): SourceModel | undefined {
  const names = shown(record.institutions, record.buildings);
  return names.length > 0 ? { label: words.source, names } : undefined;
}

/** The record's languages named in the page's language, each once. */
function languageNamesOf(record: CatalogRecord, language: string): readonly string[] {
  const codes = shown(record.languages);
  return codes.length === 0 ? NONE : shown(codes.map((code) => languageNameIn(code, language)));
}

/** Language, edition, place and publisher, physical description: what the record has of them (VersionEntryModel.details). */
function detailsOf(record: CatalogRecord, input: VersionsPageInput, words: EntryWords): readonly DetailModel[] {
  let details: DetailModel[] | undefined;
  const languages = languageNamesOf(record, input.language);
  if (languages.length > 0) (details ??= []).push({ label: words.language, value: languages.join(', ') });
  const edition = record.edition?.trim();
  if (edition !== undefined && edition !== '') (details ??= []).push({ label: words.edition, value: edition });
  const places = shown(record.publishPlaces).join('; ');
  const publishers = shown(record.publishers).join('; ');
  if (places !== '' || publishers !== '') {
    (details ??= []).push({ label: words.publisher, value: places !== '' && publishers !== '' ? `${places}: ${publishers}` : places + publishers });
  }
  const physical = shown(record.physicalDescriptions);
  if (physical.length > 0) (details ??= []).push({ label: words.physical, value: physical.join('; ') });
  return details ?? NONE;
}

/** The record's web addresses as links (isWebAddress), each with the same label. */
function fullTextLinksOf(record: CatalogRecord, words: EntryWords): VersionEntryModel['fullTextLinks'] {
  let links: Array<VersionEntryModel['fullTextLinks'][number]> | undefined;
  for (const href of record.urls) if (isWebAddress(href)) (links ??= []).push({ href: href.trim(), label: words.fullText });
  return links ?? NONE;
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/** What an entry shows of its record alone, the same on every page in one language and base URL. */
interface RecordPart {
  readonly title: string;
  readonly recordUrl: string;
  readonly author: string | undefined;
  readonly year: string | undefined;
  readonly publishedIn: string | undefined;
  readonly formats: readonly string[];
  readonly source: SourceModel | undefined;
  readonly details: readonly DetailModel[];
  readonly fullTextLinks: VersionEntryModel['fullTextLinks'];
}

function recordPartOf(record: CatalogRecord, input: VersionsPageInput): RecordPart {
  const year = yearOf(record);
  const words = entryWordsOf(input.translate);
  return {
    title: hasTitle(record) ? record.title as string : words.titleMissing,
    recordUrl: recordUrl(input.baseUrl, record.id),
    author: mainAuthorOf(record),
    year,
    publishedIn: year !== undefined ? `${words.publishedIn} ${year}` : undefined,
    formats: record.formats.length > 0 ? record.formats.map((format) => formatLabel(format, input.translate)) : NONE,
    source: sourceOf(record, words),
    details: detailsOf(record, input, words),
    fullTextLinks: fullTextLinksOf(record, words),
  };
}

function deepFrozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFrozen(inner);
    Object.freeze(value);
  }
  return value;
}

/**
 * The record part of an entry: for a frozen record, made once per translator, language and base URL and
 * given frozen (frozenRecordParts.ts), since the pages of one large work list mostly the same records.
 */
const recordPartOfEntry = frozenRecordParts<VersionsPageInput, { readonly translate: Translate; readonly language: string; readonly baseUrl: string }, RecordPart>({
  make: recordPartOf,
  variantOf: (_record, { translate, language, baseUrl }) => ({ translate, language, baseUrl }),
  isVariantOf: (kept, _record, input) => kept.translate === input.translate && kept.language === input.language && kept.baseUrl === input.baseUrl,
  freeze: deepFrozen,
});

function entryOf(record: CatalogRecord, input: VersionsPageInput, reasons: PageReasons): VersionEntryModel {
  const part = recordPartOfEntry(record, input);
  const isRequestedRecord = record.id === input.requestedRecord.id;
  const reason = reasonOf(record, input, reasons);
  // The properties a record has, set one after another in the model's order rather than spread in from
  // objects made for each: the same entry, without the generic copying of a spread.
  const entry: Writable<VersionEntryModel> = { title: part.title, recordUrl: part.recordUrl, isRequestedRecord } as Writable<VersionEntryModel>;
  if (isRequestedRecord) entry.requestedLabel = entryWordsOf(input.translate).requested;
  if (reason !== undefined) entry.reason = reason;
  if (part.author !== undefined) entry.author = part.author;
  if (part.year !== undefined) {
    entry.year = part.year;
    entry.publishedIn = part.publishedIn as string;
  }
  entry.formats = part.formats;
  if (part.source !== undefined) entry.source = part.source;
  entry.details = part.details;
  entry.fullTextLinks = part.fullTextLinks;
  return entry;
}

/**
 * The page navigation, when there is more than one page. Past the end it still leads back: the numbers
 * around the last page (none current) and "previous" to the last page. A single page needs none, even
 * past the end (the past-end message links to it).
 */
function paginationOf(input: VersionsPageInput): PaginationModel | undefined {
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
function pastEndOf(input: VersionsPageInput): PastEndModel | undefined {
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
function sortOf(input: VersionsPageInput): SortModel | undefined {
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

/** Facet values as a reader sees them: formats translated, languages named in the page's language. */
function facetValueLabel(field: FacetField, value: string, input: VersionsPageInput): string {
  if (field === 'format') return formatLabel(value, input.translate);
  if (field === 'language') return languageNameIn(value, input.language);
  return value;
}

/** The facets beside the list: each value adds its filter (page 1), an applied one removes it. */
function facetsOf(input: VersionsPageInput): VersionsPageModel['facets'] {
  const counts = input.versions.facets;
  if (counts === undefined || input.versions.total < 2 && (input.filters ?? []).length === 0) return undefined;
  const applied = input.filters ?? [];
  const fields: FacetModel[] = [];
  const pageHref = versionsPageHrefs(input.requestedRecord.id, input.explicitLanguage, input.sort);
  // The applied filters' parameters, written once for the links of every value.
  const appliedParams = applied.map(filterParameter);
  const isFilter = (filter: VersionsFilter, field: FacetField, value: string) => filter.field === field && filter.value === value;
  for (const field of FACET_FIELDS) {
    const values = counts[field];
    if (values === undefined || values.length === 0) continue;
    const shown = values.map(({ value, count }): FacetValueModel => {
      const isApplied = applied.some((filter) => isFilter(filter, field, value));
      const next = isApplied
        ? appliedParams.filter((_, i) => !isFilter(applied[i] as VersionsFilter, field, value))
        : appliedParams.length === 0 ? [filterParameter({ field, value })] : [...appliedParams, filterParameter({ field, value })];
      return { label: facetValueLabel(field, value, input), count, isApplied, href: pageHref(1, next) };
    });
    // The years come uncut, newest first (src/record/recordFacets.ts): those beyond the 30 newest are folded, not dropped.
    if (!isYearsFacet(field) || shown.length <= FACET_VALUES_LIMIT) {
      fields.push({ label: input.translate(`facet.${field}`), values: shown });
      continue;
    }
    const rest = shown.slice(FACET_VALUES_LIMIT);
    fields.push({
      label: input.translate(`facet.${field}`),
      values: shown.slice(0, FACET_VALUES_LIMIT),
      more: { label: input.translate('facets.moreYears', { count: rest.length }), values: rest, isOpen: rest.some((value) => value.isApplied) },
    });
  }
  return fields.length > 0 ? { label: input.translate('facets.label'), removeLabel: input.translate('facets.remove'), fields } : undefined;
}

/** The request's filters as `filter[]` values, kept by page, language and sort links. */
function filterParams(input: VersionsPageInput): readonly string[] {
  return input.filters === undefined || input.filters.length === 0 ? NONE : input.filters.map(filterParameter);
}

/** With filters: "3 of 8 versions" (or that none matches) and the way back to every version. */
function filteredOf(input: VersionsPageInput): FilteredModel | undefined {
  const filters = input.filters ?? [];
  if (filters.length === 0) return undefined;
  const { total } = input.versions;
  const of = input.versions.unfilteredTotal ?? total;
  return {
    message: total === 0 ? input.translate('filters.none', { total: of }) : input.translate('filters.count', { count: total, total: of }),
    clear: { href: versionsPageHref(input.requestedRecord.id, 1, input.explicitLanguage, input.sort), label: input.translate('filters.clear') },
  };
}

export function buildVersionsPageModel(input: VersionsPageInput): VersionsPageModel {
  const { translate, versions, page, language } = input;
  const id = input.requestedRecord.id;
  const offset = offsetOf(page, PAGE_ROWS);
  const heading = `${translate('versions.label')} - ${shortTitleOf(input.requestedRecord) ?? translate('record.titleMissing')}`;
  const languageHref = versionsLanguageHrefs(id, page, input.sort, filterParams(input));
  const languageChoices: LanguageChoiceModel[] = input.languages.map(({ code, name }) => ({
    code, name, href: languageHref(code), isCurrent: code === language,
  }));
  const pagination = paginationOf(input);
  const pastEnd = pastEndOf(input);
  const sort = sortOf(input);
  const filtered = filteredOf(input);
  const facets = facetsOf(input);
  const reasons: PageReasons = new Map();
  // The properties set one after another in the model's order, those a page may lack only when it has
  // them, rather than spread in from objects made for the purpose: the same model, without the generic copying.
  const model: Writable<VersionsPageModel> = {
    language,
    documentTitle: `${heading} :: ${input.siteTitle}`,
    siteTitle: input.siteTitle,
    homeLink: { href: input.catalogHomeUrl, label: translate('site.home') },
    skipLinkLabel: translate('site.skipToContent'),
    heading,
    backLink: { href: recordUrl(input.baseUrl, id), label: translate('record.backToRecord') },
    showing: pastEnd?.message ?? showingLine(translate, offset, versions.records.length, versions.total),
  } as Writable<VersionsPageModel>;
  if (pastEnd !== undefined) model.pastEnd = pastEnd;
  model.listStart = offset + 1;
  const entries: VersionEntryModel[] = new Array(versions.records.length);
  for (let i = 0; i < entries.length; i++) entries[i] = entryOf(versions.records[i] as CatalogRecord, input, reasons);
  model.entries = entries;
  if (pagination !== undefined) model.pagination = pagination;
  if (input.feedPreview === true) {
    model.feedPreview = {
      notice: translate('feed.previewNotice'),
      addressLabel: translate('feed.address'),
      address: versionsFeedUrl(input.baseUrl, { id, language }, page > 1 ? page : undefined),
    };
  }
  if (sort !== undefined) model.sort = sort;
  if (filtered !== undefined) model.filtered = filtered;
  if (facets !== undefined) model.facets = facets;
  model.feed = {
    href: versionsFeedUrl(input.baseUrl, { id, language }),
    label: translate('feed.rssLink'),
    title: `${translate('results.for')} ${translate('versions.label')} - ${id}`,
  };
  model.languageChoices = languageChoices;
  model.languageSwitchLabel = translate('language.switchLabel');
  return model;
}
