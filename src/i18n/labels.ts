/**
 * Label lookup as the core sees it: a function from a semantic key (and placeholder values) to text in
 * one language, and the one list of keys (the i18n/ files hold one text per key and language; a test
 * holds the two together). Where the text comes from (the i18n/ files, loaded through koa-i18n) is
 * labelCatalogs.ts's business.
 *
 * Format labels: a record's format is free text of the catalog's format facet. The page shows the
 * values listed in FORMAT_NAMES in the reader's language and any other value as the catalog wrote it;
 * the feed always keeps the catalog's value (docs/feed.md).
 */

/**
 * The format values the page translates: those VuFind's format rules give a MARC record (its
 * FormatCalculator), and a few the catalogs without those rules commonly write (Audio Book, Large Print,
 * DVD, Dissertation, Report, Score). Each is the label key `format.<name>`. The English labels are the
 * names as catalogs display them ("Sound Recording"), so an English page shows the catalog's own words.
 */
export const FORMAT_NAMES = [
  'Article', 'Atlas', 'AudioBook', 'Book', 'BookComponentPart', 'Braille', 'BRDisc', 'CDROM', 'Chart', 'ChipCartridge',
  'Collage', 'ConferenceProceeding', 'DataSet', 'DiscCartridge', 'Dissertation', 'Drawing', 'DVD', 'eBook', 'Electronic',
  'Filmstrip', 'FlashCard', 'FloppyDisk', 'Globe', 'GovernmentDocument', 'Image', 'Journal', 'Kit', 'LargePrint',
  'Manuscript', 'Map', 'Microfilm', 'MotionPicture', 'MusicalScore', 'MusicRecording', 'Newspaper',
  'OnlineIntegratingResource', 'Painting', 'Photo', 'Photonegative', 'PhysicalIntegratingResource', 'PhysicalObject',
  'Postcard', 'Poster', 'Print', 'ProjectedMedium', 'Report', 'Score', 'SensorImage', 'Serial', 'SerialComponentPart', 'Slide',
  'Software', 'SoundCassette', 'SoundDisc', 'SoundRecording', 'TapeCartridge', 'TapeCassette', 'TapeReel', 'Text',
  'Thesis', 'Transparency', 'Unknown', 'Video', 'VideoCartridge', 'VideoCassette', 'VideoDisc', 'VideoGame',
  'VideoOnline', 'VideoReel', 'Website',
] as const;

export type FormatName = (typeof FORMAT_NAMES)[number];

/**
 * Other spellings of a listed format, by their folded form (see foldFormat). Spaces, case and hyphens
 * are folded away already ("Sound Recording", "E-Book"); these are different words for the same thing.
 */
export const FORMAT_ALIASES: Readonly<Record<string, FormatName>> = {
  musicscore: 'MusicalScore',
  musicalrecording: 'MusicRecording',
  electronicbook: 'eBook',
  bluray: 'BRDisc',
  bluraydisc: 'BRDisc',
  videorecording: 'Video',
  conferenceproceedings: 'ConferenceProceeding',
};

export const LABEL_KEYS = [
  'versions.label',
  'results.for',
  'results.showing',
  'paging.label',
  'paging.first',
  'paging.previous',
  'paging.next',
  'paging.last',
  'paging.previousShort',
  'paging.nextShort',
  'paging.pastEnd',
  'record.publishedIn',
  'record.fullText',
  'record.titleMissing',
  'record.showAllVersions',
  'record.requested',
  'record.source',
  'record.backToRecord',
  'reason.sameAuthorTitle',
  'reason.sameUniformTitle',
  'reason.translation',
  'reason.sameIdentifier',
  'reason.groupedByLibrary',
  'record.language',
  'record.edition',
  'record.publisher',
  'record.physical',
  'filters.count',
  'filters.none',
  'filters.clear',
  'facets.label',
  'facets.remove',
  'facets.moreYears',
  'facet.format',
  'facet.language',
  'facet.institution',
  'facet.building',
  'facet.publishDate',
  'sort.label',
  'sort.submit',
  'sort.relevance',
  'sort.year',
  'sort.yearAsc',
  'sort.title',
  'sort.author',
  'feed.rssLink',
  'feed.previewNotice',
  'feed.address',
  'language.name',
  'language.switchLabel',
  'site.skipToContent',
  'site.home',
  'error.heading',
  'error.message',
  'error.contact',
  'error.recordMissing',
  'error.recordMissingAdvice',
  'error.badRequest',
  'error.badRequestAdvice',
  'error.unavailable',
  'error.unavailableAdvice',
  ...FORMAT_NAMES.map((name) => `format.${name}` as const),
] as const;

export type LabelKey = (typeof LABEL_KEYS)[number];

/** A format value folded for matching: letters and digits only, lower case, accents dropped. */
export function foldFormat(value: string): string {
  return value.normalize('NFKD').toLowerCase().replace(/[^a-z0-9]/g, '');
}

const FORMAT_BY_FOLDED: ReadonlyMap<string, FormatName> = new Map<string, FormatName>([
  ...FORMAT_NAMES.map((name) => [foldFormat(name), name] as const),
  ...Object.entries(FORMAT_ALIASES),
]);

// The label key (or null: none) of each format value seen. A catalog writes few distinct values, and
// folding one (Unicode normalisation and two more passes) for every format of every page entry costs more
// than the lookup. Bounded, since the values come from the catalog's data: emptied when full.
const labelKeyOfValue = new Map<string, LabelKey | null>();
const LABEL_KEYS_REMEMBERED = 1000;

/** The label key of a catalog's format value, or undefined when the value is not one the page translates. */
export function formatLabelKey(value: string): LabelKey | undefined {
  let key = labelKeyOfValue.get(value);
  if (key === undefined) {
    const name = FORMAT_BY_FOLDED.get(foldFormat(value));
    key = name === undefined ? null : `format.${name}`;
    if (labelKeyOfValue.size >= LABEL_KEYS_REMEMBERED) labelKeyOfValue.clear();
    labelKeyOfValue.set(value, key);
  }
  return key ?? undefined;
}

/** A format value as the reader sees it: its label in the reader's language, else the value as written. */
export function formatLabel(value: string, translate: Translate): string {
  const key = formatLabelKey(value);
  return key === undefined ? value : translate(key);
}

export type LabelParams = Readonly<Record<string, string | number>>;

export type Translate = (key: LabelKey, params?: LabelParams) => string;

/**
 * What a view makes of a translator alone (its words without values, its sort options), made once per
 * translator and kept as long as the translator is: the plugin makes one translator per language
 * (labelCatalogs.ts), and a label without values is the same text every time it is looked up.
 */
export function perTranslator<Made>(make: (translate: Translate) => Made): (translate: Translate) => Made {
  const kept = new WeakMap<Translate, Made>();
  return (translate) => {
    let made = kept.get(translate);
    if (made === undefined) kept.set(translate, made = make(translate));
    return made;
  };
}

/** Replaces each `{name}` in `template` by its value; unknown placeholders stay as written. */
export function fillPlaceholders(template: string, params: LabelParams = {}): string {
  return fillPlaceholderParts(placeholderParts(template), params);
}

/**
 * `template` cut at its placeholders: text, name, text, …, text. A label is cut once and filled for every
 * request (labelCatalogs.ts), rather than searched for its placeholders each time.
 */
export function placeholderParts(template: string): readonly string[] {
  return template.split(/\{([A-Za-z0-9_]+)\}/);
}

/** fillPlaceholders of a template cut by placeholderParts. */
export function fillPlaceholderParts(parts: readonly string[], params: LabelParams): string {
  let text = parts[0] ?? '';
  for (let i = 1; i < parts.length; i += 2) {
    const name = parts[i] as string;
    text += `${Object.hasOwn(params, name) ? String(params[name]) : `{${name}}`}${parts[i + 1] ?? ''}`;
  }
  return text;
}

/** The `{name}` placeholders a label uses, sorted: the parity test compares them across languages. */
export function placeholdersOf(template: string): string[] {
  return [...new Set([...template.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((match) => match[1] ?? ''))].sort();
}
