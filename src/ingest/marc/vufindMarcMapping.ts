/**
 * Maps a MARC 21 bibliographic record to the plugin's record document as VuFind 7.1.1's own importer does
 * (SolrMarc 3.3 with VuFind's stock import/marc.properties and its Java indexing helpers):
 *
 *   id                 001, trimmed (marc4j, under SolrMarc, keeps the last 001 a record has)
 *   title              245ab, first: $a and $b in field order, each trimmed, joined with a space
 *   title_short        245a, first
 *   author, author2, author_corporate (+ their _role lists)   vufindAuthors.ts
 *   format             vufindFormats.ts
 *   publishDate        getDates: every 260$c, then the 264$c of 264s with ind2 1 (publication), or when
 *                      there are none those with ind2 4 (copyright), each cleaned to a year as SolrMarc's
 *                      DataUtil.cleanDate does; no 008 fallback (stock VuFind has none)
 *   url                856u:555u, every subfield u, each value once
 *   language           008[35-37]:041a:041d, each code named in English as VuFind's language_map does
 *                      (through Intl's names: `por` → `Portuguese`), unknown codes and `und`/`zxx` left out
 *   edition            250a, first
 *   publisher          260b:264b
 *   publishPlace       260a:264a (not a VuFind field: VuFind reads the place from the stored MARC)
 *   physical           300abcefg:530abcd, one value per field
 *   work_keys_str_mv   src/work-keys/marcWorkKeys.ts; always present, [] when VuFind makes none, so that the loader
 *                      does not compute keys of its own for the record
 * No uniform-title field: stock VuFind indexes none (130/730 only feed the UT work keys), so
 * `title_uniform` is never set. 880 fields are read by none of these specifications.
 *
 * Deliberate differences from VuFind's output:
 * - Trailing ISBD punctuation is trimmed from title, title_short and the three author fields
 *   (`Le concerto /` → `Le concerto`, `Baldazzi, Gianfranco.` → `Baldazzi, Gianfranco`); see
 *   trimTrailingIsbdPunctuation for the rules. Work keys are made from the untrimmed text, as VuFind's.
 *   publishDate needs no trim: getDates already gives bare years (`[1989?]` → `1989`).
 *   The same trim applies to edition, publisher, publishPlace and physical (`Lisboa :` → `Lisboa`).
 * - A name or title that trimming leaves empty is left out; every list keeps one of each value.
 * - Language names are Intl's English names, which may differ from language_map's for a few languages.
 * - Text is Unicode NFC (the readers give NFC); VuFind stores MARC-8 records decomposed.
 * - A record without a usable 001 is refused (InvalidRecordDocumentError); VuFind would index it under
 *   whatever its local id configuration says (the Concerto comparison used 901$c).
 * - Where VuFind's format code would throw on a record without an 008, see vufindFormats.ts.
 *
 * Left to others: reading MARC (the readers), the format and relator rules (vufindFormats.ts,
 * vufindAuthors.ts), key normalisation (src/work-keys/workKeys.ts), checking and storing documents.
 */
import { InvalidArgumentError, InvalidRecordDocumentError } from '../../errors.js';
import type { RecordDocument } from '../../record/catalogRecord.js';
import { solrMarcValues, trimAsJavaDoes } from '../../marc/marcFieldSpec.js';
import { isDataField, type MarcDataField, type MarcField, type MarcRecord } from '../../marc/marcRecord.js';
import { marcWorkKeys } from '../../work-keys/marcWorkKeys.js';
import { workStatementFromMarc } from '../../work-keys/extended/marcWorkStatement.js';
import { extendedWorkKeys } from '../../work-keys/extended/extendedWorkKeys.js';
import { checkKeyProfile, DEFAULT_WORK_KEY_PROFILE, type WorkKeyProfileName } from '../../work-keys/workKeyProfiles.js';
import { vufindAuthorFields, type NamesAndRoles } from './vufindAuthors.js';
import { vufindFormats } from './vufindFormats.js';
import { englishLanguageNameOf } from '../../record/recordLanguages.js';

export interface VufindMappingOptions {
  /**
   * The year SolrMarc takes as "now": a publication year after the next one is dropped as a typing
   * error. Defaults to the clock's year.
   */
  readonly currentYear?: number;
  /**
   * The work-key profile (src/work-keys/workKeyProfiles.ts): `vufind` (the default, VuFind's own keys,
   * src/work-keys/marcWorkKeys.ts) or `extended` (src/work-keys/extended/marcWorkStatement.ts read by extendedWorkKeys).
   */
  readonly keyProfile?: WorkKeyProfileName;
}

/** The plain field specifications of VuFind's stock import/marc.properties that the mapping reads. */
export const MARC_PROPERTIES = {
  title: '245ab, first',
  title_short: '245a, first',
  url: '856u:555u',
  language: '008[35-37]:041a:041d',
  edition: '250a, first',
  publisher: '260b:264b',
  publishPlace: '260a:264a',
  physical: '300abcefg:530abcd',
} as const;

/** A record document with VuFind's field values for a MARC record (deliberate differences above). */
export function recordDocumentFromMarc(record: MarcRecord, options: VufindMappingOptions = {}): RecordDocument {
  checkMarcRecord(record, 'recordDocumentFromMarc');
  checkMappingOptions(options, 'recordDocumentFromMarc');
  return documentOfCheckedMarc(record, options);
}

/** Refuses mapping options that are not an object, naming the function that was called. */
export function checkMappingOptions(options: unknown, functionName: string): asserts options is VufindMappingOptions {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidArgumentError(functionName, 'options', 'an object ({ currentYear, keyProfile })', options);
  }
}

/** recordDocumentFromMarc for a record and options checked already (localMapping.ts checks them once, at its entry). */
export function documentOfCheckedMarc(record: MarcRecord, options: VufindMappingOptions): RecordDocument {
  const currentYear = options.currentYear ?? clockYear();
  const keyProfile = options.keyProfile === undefined ? DEFAULT_WORK_KEY_PROFILE : checkKeyProfile(options.keyProfile);
  const document: RecordDocument = { id: idOf(record) };
  const title = solrMarcValues(record, MARC_PROPERTIES.title)[0];
  if (title !== undefined) setSingle(document, 'title', title);
  const shortTitle = solrMarcValues(record, MARC_PROPERTIES.title_short)[0];
  if (shortTitle !== undefined) setSingle(document, 'title_short', shortTitle);
  const authors = vufindAuthorFields(record);
  setNames(document, 'author', authors.author);
  setNames(document, 'author2', authors.author2);
  setNames(document, 'author_corporate', authors.author_corporate);
  const formats = vufindFormats(record);
  if (formats.length > 0) document.format = formats;
  const dates = vufindPublishDates(record, currentYear);
  if (dates.length > 0) document.publishDate = dates;
  // SolrMarc keeps one of each value of a specification's field.
  const urls = [...new Set(solrMarcValues(record, MARC_PROPERTIES.url))];
  if (urls.length > 0) document.url = urls;
  setDetails(document, record);
  document.work_keys_str_mv = keyProfile === 'extended' ? extendedWorkKeys(workStatementFromMarc(record)) : marcWorkKeys(record);
  return document;
}

// The year the clock was last read in, and the instants (milliseconds) that year begins and ends at, local time.
let yearOfClock = 0;
let yearBegins = Number.POSITIVE_INFINITY;
let yearEnds = Number.NEGATIVE_INFINITY;

/**
 * The clock's year, as `new Date().getFullYear()` gives it: read off the clock's milliseconds while they
 * stay within the year last worked out, since a Date's local year costs more than mapping a short field
 * and a load maps every record in the same year.
 */
function clockYear(): number {
  const now = Date.now();
  if (now >= yearBegins && now < yearEnds) return yearOfClock;
  yearOfClock = new Date(now).getFullYear();
  yearBegins = new Date(yearOfClock, 0, 1).getTime();
  yearEnds = new Date(yearOfClock + 1, 0, 1).getTime();
  return yearOfClock;
}

/**
 * A MARC record as the readers give it: a leader string and a list of fields, each with a tag. Only the
 * shape is checked (a plain object, a number, a Buffer are refused), not every subfield: the readers'
 * records pass in a few comparisons per field.
 */
export function checkMarcRecord(record: unknown, functionName: string): asserts record is MarcRecord {
  const candidate = record as Partial<MarcRecord> | null | undefined;
  let wellFormed = typeof candidate === 'object' && candidate !== null && typeof candidate.leader === 'string' && Array.isArray(candidate.fields);
  if (wellFormed) {
    for (const field of candidate!.fields!) {
      if (typeof field !== 'object' || field === null || typeof field.tag !== 'string') {
        wellFormed = false;
        break;
      }
    }
  }
  if (!wellFormed) {
    throw new InvalidArgumentError(functionName, 'record', 'a MARC record ({ leader, fields }) as readIso2709 or readMarcXml give it', record);
  }
}

function idOf(record: MarcRecord): string {
  let last: MarcField | undefined;
  for (let i = record.fields.length - 1; i >= 0 && last === undefined; i--) {
    const field = record.fields[i]!;
    if (field.tag === '001' && !isDataField(field)) last = field;
  }
  if (last === undefined || isDataField(last)) {
    throw new InvalidRecordDocumentError('the MARC record has no 001 (control number), so it has no id');
  }
  const id = trimAsJavaDoes(last.value);
  if (id === '') throw new InvalidRecordDocumentError('the MARC record\'s 001 (control number) is empty, so it has no id');
  return id;
}

function setSingle(document: RecordDocument, field: 'title' | 'title_short', value: string): void {
  const trimmed = trimTrailingIsbdPunctuation(value);
  if (trimmed !== '') document[field] = trimmed;
}

function setNames(document: RecordDocument, field: 'author' | 'author2' | 'author_corporate', found: NamesAndRoles): void {
  const names: string[] = [];
  for (const name of found.names) {
    const trimmed = trimTrailingIsbdPunctuation(name);
    if (trimmed !== '') names.push(trimmed);
  }
  if (names.length > 0) document[field] = names;
  if (found.roles.length > 0) document[`${field}_role`] = found.roles;
}

/** Language, edition, publisher, place and physical description: what tells one version from another. */
function setDetails(document: RecordDocument, record: MarcRecord): void {
  const languages = distinctOf(solrMarcValues(record, MARC_PROPERTIES.language), englishLanguageNameOf);
  if (languages.length > 0) document.language = languages;
  const edition = trimTrailingIsbdPunctuation(solrMarcValues(record, MARC_PROPERTIES.edition)[0] ?? '');
  if (edition !== '') document.edition = edition;
  for (const field of ['publisher', 'publishPlace', 'physical'] as const) {
    const values = distinctOf(solrMarcValues(record, MARC_PROPERTIES[field]), trimTrailingIsbdPunctuation);
    if (values.length > 0) document[field] = values;
  }
}

/**
 * What `read` gives of each value, each non-empty one once, first occurrence kept. A record has a few
 * values a field: searched in the list as they come, without the lists and set a filter and a spread make.
 */
function distinctOf(values: readonly string[], read: (value: string) => string | undefined): string[] {
  const found: string[] = [];
  for (const value of values) {
    const readValue = read(value);
    if (readValue !== undefined && readValue !== '' && !found.includes(readValue)) found.push(readValue);
  }
  return found;
}

/**
 * VuFind's getDates: the cleaned years of every 260$c, then those of the 264$c with ind2 1, or when
 * there are none those with ind2 4; no repeats, first occurrence kept.
 */
export function vufindPublishDates(record: MarcRecord, currentYear: number): string[] {
  const dates = new Set<string>();
  const addYearsOf = (field: MarcDataField, years: Set<string>): void => {
    for (const subfield of field.subfields) {
      if (subfield.code !== 'c') continue;
      const year = cleanDateAsSolrMarc(subfield.value, currentYear);
      if (year !== undefined) years.add(year);
    }
  };
  // One pass: the 260s' years go straight in, the 264s' wait for the choice between their two kinds.
  let publication: Set<string> | undefined;
  let copyright: Set<string> | undefined;
  for (const field of record.fields) {
    if (!isDataField(field)) continue;
    if (field.tag === '260') addYearsOf(field, dates);
    else if (field.tag === '264') {
      if (field.ind2 === '1') addYearsOf(field, publication ??= new Set());
      else if (field.ind2 === '4') addYearsOf(field, copyright ??= new Set());
    }
  }
  const chosen = publication !== undefined && publication.size > 0 ? publication : copyright;
  if (chosen !== undefined) for (const year of chosen) dates.add(year);
  return [...dates];
}

/**
 * A year from a date as catalogued, the way SolrMarc's DataUtil.cleanDate finds it: the first pattern
 * that matches wins, in this order: `[1999]`; `i.e. 1999`; `[1999`; a B.C. date (no year); 1500–2099;
 * `l999` (a typed l for 1); `[19]99`; `199-` or `199?` (the unknown digit read as 0). A year after
 * `currentYear + 1` is taken for a typing error and dropped.
 */
export function cleanDateAsSolrMarc(date: string, currentYear: number): string | undefined {
  // Most dates (`1989.`, `c1989`, `p1992, c1991.`) hold no `[`, no `i` (of `i.e.`) and no `b` or `B`
  // (of `B.C.`): the first four patterns cannot match them, so the 1500–2099 one is the first to try.
  if (!mayMatchBeforePlainYear(date)) {
    const at = plainYearAt(date);
    if (at >= 0) {
      const year = date.slice(at, at + 4);
      return Number(year) > currentYear + 1 ? undefined : year;
    }
  }
  let year: string | undefined;
  let match: RegExpExecArray | null;
  if ((match = /\[[12]\d{3}\]/.exec(date)) !== null) year = withoutOuterBrackets(match[0]);
  // The dots are regular-expression wildcards in SolrMarc too.
  else if ((match = /i.e. (20|19|18|17|16|15)[0-9][0-9]/.exec(date)) !== null) year = match[0].replace(/i.e. /g, '');
  else if ((match = /\[[12]\d{3}/.exec(date)) !== null) year = withoutOuterBrackets(match[0]);
  else if (/[0-9]+ [Bb][.]?[Cc][.]?/.test(date)) year = undefined;
  else if ((match = /(20|19|18|17|16|15)[0-9][0-9]/.exec(date)) !== null) year = match[0];
  else if ((match = /l\d{3}/.exec(date)) !== null) year = match[0].replace(/l/g, '1');
  else if ((match = /\[19\]\d{2}/.exec(date)) !== null) year = match[0].replace(/[[\]]/g, '');
  else if ((match = /(20|19|18|17|16|15)[0-9][-?0-9]/.exec(date)) !== null) year = match[0].replace(/[-?]/g, '0');
  if (year === undefined || !/^[0-9]+$/.test(year)) return undefined;
  return Number(year) > currentYear + 1 ? undefined : year;
}

/** Whether the date holds `[`, `i`, `b` or `B`, which the patterns before the 1500–2099 one all need. */
function mayMatchBeforePlainYear(date: string): boolean {
  for (let i = 0; i < date.length; i++) {
    const code = date.charCodeAt(i);
    if (code === 0x5b || code === 0x69 || code === 0x62 || code === 0x42) return true;
  }
  return false;
}

/** Where `(20|19|18|17|16|15)[0-9][0-9]` first matches in the date, or -1. */
function plainYearAt(date: string): number {
  for (let i = 0; i + 4 <= date.length; i++) {
    const century = (date.charCodeAt(i) - 0x30) * 10 + (date.charCodeAt(i + 1) - 0x30);
    if (!isDigitCode(date.charCodeAt(i)) || !isDigitCode(date.charCodeAt(i + 1)) || century < 15 || century > 20) continue;
    if (isDigitCode(date.charCodeAt(i + 2)) && isDigitCode(date.charCodeAt(i + 3))) return i;
  }
  return -1;
}

function isDigitCode(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/** SolrMarc's removeOuterBrackets, for the bracket patterns above. */
function withoutOuterBrackets(value: string): string {
  let result = trimAsJavaDoes(value);
  const opens = result.startsWith('[');
  const closes = result.endsWith(']');
  if (opens && closes && result.indexOf('[', 1) === -1 && result.lastIndexOf(']', result.length - 2) === -1) {
    result = result.slice(1, -1);
  } else if (opens && !result.includes(']')) {
    result = result.slice(1);
  } else if (closes && !result.includes('[')) {
    result = result.slice(0, -1);
  }
  return trimAsJavaDoes(result);
}

/** Abbreviations whose period stays (VuFind's untrimmed list, and a few more for titles and firms). */
const KEPT_ABBREVIATIONS = new Set(['col', 'mr', 'mrs', 'ms', 'etc', 'jr', 'sr', 'inc', 'ltd', 'co', 'corp', 'bros']);

/**
 * A title, name or date without the punctuation cataloguing puts after it for the next element:
 * - trailing spaces (Unicode's, as `\s` reads them) and ` / : ; , =`, and a dangling `(` or `[`;
 * - a closing `. -` or `. -.`;
 * - a final period, except after an initial (`Tolkien, J. R. R.`), an ellipsis (`...`) or a kept
 *   abbreviation (`Mrs.`, `etc.`, `Inc.` …);
 * - a closing `)` or `]` whose opening one is not in the string.
 * Repeated until nothing changes (`Foo. /` → `Foo`). The rules move an end mark over the value and cut
 * it once, rather than making a string for each rule and round.
 */
export function trimTrailingIsbdPunctuation(value: string): string {
  // Every rule below ends on a separator, a space, a period, a dash or a bracket: a value ending on an
  // ASCII letter or digit, or on a letter of the Latin, Greek or Cyrillic blocks (no space among them),
  // is already as trimmed, and most values end so.
  if (endsOnLetterOrDigit(value)) return value;
  let end = value.length;
  for (;;) {
    const before = end;
    while (end > 0 && isTrailingSeparator(value.charCodeAt(end - 1))) end--;
    // `. -` or `. -.` at the end.
    if (end >= 3 && value.charCodeAt(end - 1) === 0x2e && value.charCodeAt(end - 2) === 0x2d && value.charCodeAt(end - 3) === 0x20 && end >= 4 && value.charCodeAt(end - 4) === 0x2e) end -= 4;
    else if (end >= 3 && value.charCodeAt(end - 1) === 0x2d && value.charCodeAt(end - 2) === 0x20 && value.charCodeAt(end - 3) === 0x2e) end -= 3;
    if (end > 0 && value.charCodeAt(end - 1) === 0x2e && !keepsFinalPeriod(value, end)) end--;
    if (end > 0 && value.charCodeAt(end - 1) === 0x29 && !opensBefore(value, 0x28, end)) end--;
    if (end > 0 && value.charCodeAt(end - 1) === 0x5d && !opensBefore(value, 0x5b, end)) end--;
    if (end === before) return end === value.length ? value : value.slice(0, end);
  }
}

/** Whether `value[0, end)` holds the character `code`. */
function opensBefore(value: string, code: number, end: number): boolean {
  for (let i = 0; i < end; i++) if (value.charCodeAt(i) === code) return true;
  return false;
}

/** A character of `[\s/:;,=(\[]` (with the u flag: JavaScript's white space and line terminators). */
function isTrailingSeparator(code: number): boolean {
  switch (code) {
    case 0x2f: case 0x3a: case 0x3b: case 0x2c: case 0x3d: case 0x28: case 0x5b:
    case 0x09: case 0x0a: case 0x0b: case 0x0c: case 0x0d: case 0x20: case 0xa0:
    case 0x1680: case 0x2028: case 0x2029: case 0x202f: case 0x205f: case 0x3000: case 0xfeff:
      return true;
    default:
      return code >= 0x2000 && code <= 0x200a;
  }
}

function endsOnLetterOrDigit(value: string): boolean {
  const last = value.charCodeAt(value.length - 1);
  if (last >= 0x30 && last <= 0x39) return true;
  const folded = last | 0x20;
  if (folded >= 0x61 && folded <= 0x7a) return true;
  // U+00C0 to U+052F: Latin-1's letters (and × ÷) to the end of Cyrillic; none is a space or a separator.
  return last >= 0xc0 && last <= 0x52f;
}

/** Whether the period at `value[end - 1]` stays: after a period, an initial or a kept abbreviation. */
function keepsFinalPeriod(value: string, end: number): boolean {
  const period = end - 1;
  if (period > 0 && value.charCodeAt(period - 1) === 0x2e) return true;
  // The last word before the period: ASCII letters up to a character that is neither a letter nor past
  // ASCII read here; otherwise the Unicode rule on the text before the period.
  let start = period;
  while (start > 0 && isAsciiLetter(value.charCodeAt(start - 1))) start--;
  let lastWord: string | undefined;
  if (start === 0 || value.charCodeAt(start - 1) < 0x80) lastWord = start < period ? value.slice(start, period) : undefined;
  else lastWord = /(\p{L}+)$/u.exec(value.slice(0, period))?.[1];
  if (lastWord === undefined) return false;
  // A one-letter word is an initial.
  return Array.from(lastWord).length === 1 || KEPT_ABBREVIATIONS.has(lastWord.toLowerCase());
}

function isAsciiLetter(code: number): boolean {
  const folded = code | 0x20;
  return folded >= 0x61 && folded <= 0x7a;
}
