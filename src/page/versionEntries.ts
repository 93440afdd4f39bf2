/**
 * The entries of the versions page: what each version shows of its record (title, author, year, formats,
 * source, details, full-text links; made once per frozen record, frozenRecordParts.ts) and why it is
 * listed (the reason from the keys it shares with the requested record).
 */
import { hasTitle, mainAuthorOf, yearOf, type CatalogRecord } from '../record/catalogRecord.js';
import { frozenRecordParts } from '../record/frozenRecordParts.js';
import { formatLabel, perTranslator, type LabelKey, type Translate } from '../i18n/labels.js';
import { recordUrl } from '../versions/versionsUrls.js';
import { languageNameIn } from '../record/recordLanguages.js';
import type { DetailModel, SourceModel, VersionEntryModel } from './pageViewModels.js';
import { reasonForSharedKeys, type VersionReason } from '../work-keys/workKeyKinds.js';
import { deepFrozen, NONE, type Writable } from './modelValues.js';
import type { VersionsPageInput } from './pageInput.js';

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
export type PageReasons = Map<string, Array<{ readonly keys: readonly string[]; readonly text: string | undefined }>>;

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

/** Full-text links are followed by patrons: only web addresses become links (no `javascript:`, `data:`, …). */
function isWebAddress(url: string): boolean {
  return /^https?:\/\/[^\s]+$/i.test(url.trim());
}

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

export function entryOf(record: CatalogRecord, input: VersionsPageInput, reasons: PageReasons): VersionEntryModel {
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
