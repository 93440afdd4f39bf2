/**
 * Maps a MARC 21 bibliographic record to the plugin's record document as VuFind 7.1.1's own importer does
 * (SolrMarc 3.3 with VuFind's stock import/marc.properties and its Java indexing helpers):
 *
 *   id                 001, trimmed (marc4j, under SolrMarc, keeps the last 001 a record has)
 *   title              245ab, first: $a and $b in field order, each trimmed, joined with a space
 *   title_short        245a, first
 *   author, author2, author_corporate (+ their _role lists)   vufindAuthors.ts
 *   format             vufindFormats.ts
 *   publishDate        getDates (vufindPublishDates.ts): every 260$c, then the 264$c of 264s with ind2 1
 *                      (publication), or when there are none those with ind2 4 (copyright), each cleaned
 *                      to a year as SolrMarc's DataUtil.cleanDate does; no 008 fallback (stock VuFind has none)
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
 *   trimTrailingIsbdPunctuation (isbdPunctuation.ts) for the rules. Work keys are made from the
 *   untrimmed text, as VuFind's.
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
import { isDataField, type MarcField, type MarcRecord } from '../../marc/marcRecord.js';
import { marcWorkKeys } from '../../work-keys/marcWorkKeys.js';
import { workStatementFromMarc } from '../../work-keys/extended/marcWorkStatement.js';
import { extendedWorkKeys } from '../../work-keys/extended/extendedWorkKeys.js';
import { checkKeyProfile, DEFAULT_WORK_KEY_PROFILE, type WorkKeyProfileName } from '../../work-keys/workKeyProfiles.js';
import { vufindAuthorFields, type NamesAndRoles } from './vufindAuthors.js';
import { vufindFormats } from './vufindFormats.js';
import { vufindPublishDates } from './vufindPublishDates.js';
import { trimTrailingIsbdPunctuation } from './isbdPunctuation.js';
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
