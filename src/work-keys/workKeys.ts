/**
 * Work keys: the strings that make two catalog records versions of the same work when they share one
 * (docs/work-keys.md; VuFind-compatible defaults).
 *
 * What it does: normalises titles and authors the way VuFind's ICU rules do, and builds a record's keys,
 * `UT <uniform title>` and `AT <author> <title>`, from a record document (workKeysOf) or a CatalogRecord.
 * Everything here is pure and synchronous.
 *
 * Left to others: transliterating other scripts (transliterateToLatin.ts), validating documents
 * (catalogRecord.ts), storing keys and finding records that share them (the index).
 */
import { InvalidArgumentError } from '../errors.js';
import type { CatalogRecord, RecordDocument } from '../record/catalogRecord.js';
import { KEYED_FIELDS, type KeyedField } from '../record/recordFields.js';
import { transliterateToLatin } from './transliterateToLatin.js';
import { workKeyOf } from './workKeyKinds.js';
import { DistinctStrings } from '../distinctStrings.js';

/** Keys are stored in Solr string fields, where VuFind caps them at this many characters. */
export const MAX_KEY_PART_LENGTH = 255;

const NOT_LETTER_OR_DIGIT = /[^\p{L}\p{N}]/gu;
const ASCII_ONLY = /^[\x00-\x7f]*$/;
const NOT_ASCII_LETTER_OR_DIGIT = /[^a-z0-9]/g;
/** Text of ASCII and the Latin-1 Supplement and Latin Extended-A and -B blocks: pt/es/fr/de catalog text. */
const LATIN_BLOCKS_ONLY = /^[\x00-\u024f]*$/;
const LATIN_BLOCKS_END = 0x250;

/**
 * One leading English article as a whole word. The lookahead needs a separator after it, so "Theory"
 * keeps its "The" and a title that is only "An" stays as it is.
 */
const LEADING_ARTICLE = /^\s*(?:a|an|the)(?=[\s\p{P}])/iu;

/**
 * The normalised form of a title or name: NFD, lower case, Latin script, letters and digits only, NFKC,
 * lower case again, at most 255 code points. Order matters: NFD first so that accents become separate
 * marks the filter drops (ciências → ciencias); lower case before transliterating so Greek final sigma
 * and capitals come out as ICU's rules write them; NFKC after the filter turns compatibility forms into
 * plain ones (ﬁ → fi, 𝐀 → A), which the final lower case then folds.
 */
export function normaliseForWorkKey(s: string): string {
  if (typeof s !== 'string') throw new InvalidArgumentError('normaliseForWorkKey', 'text', 'a string (a title or a name)', s);
  // ASCII text needs none of the Unicode steps (NFD, transliteration and NFKC leave it as it is): lower
  // case and the filter give the same key several times faster, and most catalog text is ASCII.
  if (ASCII_ONLY.test(s)) {
    const key = s.toLowerCase().replace(NOT_ASCII_LETTER_OR_DIGIT, '');
    return key.length > MAX_KEY_PART_LENGTH ? key.slice(0, MAX_KEY_PART_LENGTH) : key;
  }
  return cappedKey(LATIN_BLOCKS_ONLY.test(s) ? latinBlocksKey(s) : byUnicodeSteps(s));
}

/**
 * Text of ASCII and the Latin blocks only, whose key (before the cap) is the concatenation of its
 * characters' keys (latinBlocksKey says why): the `extended` title rules read such text from its key.
 */
export function isLatinBlocksText(s: string): boolean {
  return LATIN_BLOCKS_ONLY.test(s);
}

/** The definition, step by step. */
function byUnicodeSteps(s: string): string {
  const lettersAndDigits = transliterateToLatin(s.normalize('NFD').toLowerCase()).replace(NOT_LETTER_OR_DIGIT, '');
  return lettersAndDigits.normalize('NFKC').toLowerCase();
}

/**
 * Text of the Latin blocks, a character at a time. For these characters every step works on each
 * character alone: NFD and lower case map characters one by one here (no final sigma), transliteration
 * leaves Latin and Common text as it is, and what NFKC composes after the filter is only what a single
 * character's own decomposition holds (the filter has removed every combining mark between them). So
 * the key is the concatenation of each character's key, looked up in a table built from the definition;
 * accented titles (Portuguese, Spanish) took a fifth of a bulk load's main thread through the Unicode
 * steps.
 */
function latinBlocksKey(s: string): string {
  const keys = latinCharacterKeyTable();
  let key = '';
  for (let i = 0; i < s.length; i++) key += keys[s.charCodeAt(i)] as string;
  return key;
}
let latinCharacterKeys: string[] | undefined;

function latinCharacterKeyTable(): string[] {
  return (latinCharacterKeys ??= Array.from({ length: LATIN_BLOCKS_END }, (_, code) => byUnicodeSteps(String.fromCharCode(code))));
}

/**
 * The key of `text.slice(start, end)` read off the key of the whole text (`textKey`, normaliseForWorkKey's),
 * without normalising it again: for text of the Latin blocks whose key is not capped, the key is its
 * characters' keys end to end (latinBlocksKey), so a part's key is the part of the key its characters
 * make. Undefined for other text or a capped key, whose part must be normalised.
 */
export function keyOfLatinBlocksPart(text: string, textKey: string, start: number, end = text.length): string | undefined {
  if (textKey.length >= MAX_KEY_PART_LENGTH || !LATIN_BLOCKS_ONLY.test(text)) return undefined;
  const keys = latinCharacterKeyTable();
  let from = 0;
  for (let i = 0; i < start; i++) from += (keys[text.charCodeAt(i)] as string).length;
  let to = from;
  for (let i = start; i < end; i++) to += (keys[text.charCodeAt(i)] as string).length;
  return textKey.slice(from, to);
}

/** At most MAX_KEY_PART_LENGTH code points. */
function cappedKey(folded: string): string {
  // Count code points, not UTF-16 units, so an astral character is never cut in half (a string of at
  // most 255 units has at most 255 code points, so most need no counting).
  if (folded.length <= MAX_KEY_PART_LENGTH) return folded;
  const codePoints = Array.from(folded);
  return codePoints.length > MAX_KEY_PART_LENGTH ? codePoints.slice(0, MAX_KEY_PART_LENGTH).join('') : folded;
}

/** The parts of a record work keys are made of: the field table's keyed fields (recordFields.ts). */
export type WorkKeySource = Pick<CatalogRecord, KeyedField['property']>;

/** A record's work keys: `UT` keys first, then `AT` keys title by title; no duplicates. */
export function workKeysOfRecord(record: WorkKeySource): string[] {
  return keysFrom(propertyStrings(record, KEYED_FIELDS.title), propertyStrings(record, KEYED_FIELDS.uniformTitle), propertyStrings(record, KEYED_FIELDS.name));
}

/** The strings of these fields of a record, in table order (fieldStrings: of a document). */
function propertyStrings(record: WorkKeySource, fields: readonly KeyedField[]): string[] {
  const strings: string[] = [];
  for (let i = 0; i < fields.length; i++) addStrings(strings, record[(fields[i] as KeyedField).property]);
  return strings;
}

function fieldStrings(document: Readonly<Record<string, unknown>>, fields: readonly KeyedField[]): string[] {
  const strings: string[] = [];
  for (let i = 0; i < fields.length; i++) addStrings(strings, document[(fields[i] as KeyedField).name]);
  return strings;
}

/** A value's strings: the value itself, or a list's strings; anything else is left out. */
function addStrings(strings: string[], value: unknown): void {
  if (typeof value === 'string') strings.push(value);
  else if (Array.isArray(value)) for (let i = 0; i < value.length; i++) if (typeof value[i] === 'string') strings.push(value[i] as string);
}

/**
 * The work keys of a record document (the field table's keyed fields, VuFind names: `title`,
 * `title_uniform`, `author`, `author2`, `author_corporate`), as a host has it. Fields may hold a string or a list of strings; anything else is
 * ignored, since checking documents is catalogRecord.ts's job. Never throws: anything that is not an
 * object, or an object with nothing to key, gives `[]`.
 */
export function workKeysOf(document: Readonly<Partial<RecordDocument>> | null | undefined): string[] {
  if (typeof document !== 'object' || document === null) return [];
  const doc = document as Record<string, unknown>;
  return keysFrom(fieldStrings(doc, KEYED_FIELDS.title), fieldStrings(doc, KEYED_FIELDS.uniformTitle), fieldStrings(doc, KEYED_FIELDS.name));
}

/** @deprecated The former name of workKeysOf(document); kept for one release. */
export const workKeysOfDocument = workKeysOf;

/** Titles are tried as they are, then the first one without its leading article ("The Hobbit" → "Hobbit"). */
function keysFrom(titles: readonly string[], uniformTitles: readonly string[], authors: readonly string[]): string[] {
  const keys = new DistinctStrings();
  for (const uniformTitle of uniformTitles) {
    const normalised = normaliseForWorkKey(uniformTitle);
    if (normalised !== '') keys.add(workKeyOf('UT', normalised));
  }
  const normalisedTitles = new DistinctStrings();
  for (const title of titles) normalisedTitles.add(normaliseForWorkKey(title));
  const first = titles[0];
  const withoutArticle = first?.replace(LEADING_ARTICLE, '');
  // The same text keys the same: only a title that lost an article is keyed again.
  if (withoutArticle !== undefined && withoutArticle !== first) normalisedTitles.add(normaliseForWorkKey(withoutArticle));
  const normalisedAuthors = new DistinctStrings();
  for (const author of authors) normalisedAuthors.add(normaliseForWorkKey(author));
  for (const title of normalisedTitles.values) {
    for (const author of normalisedAuthors.values) keys.add(workKeyOf('AT', `${author} ${title}`));
  }
  return keys.values;
}
