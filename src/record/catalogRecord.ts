/**
 * A catalog record in domain terms, and the record document it comes from.
 *
 * Record documents use the VuFind `biblio` field names (the table in recordFields.ts; docs/record-documents.md)
 * so one JSON document can go into the embedded index or a Solr core. This module turns a document into a
 * `CatalogRecord` (validating it) and answers the small questions views ask of a record (its year, its
 * main author, its display title). Computing work keys is workKeys.ts's job.
 */
import { InvalidRecordDocumentError } from '../errors.js';
import {
  MULTI_VALUED, RECORD_FIELDS, SINGLE_VALUED,
  type RecordDocumentFields, type RecordProperties,
} from './recordFields.js';

/** A catalog record in domain terms: the properties of the field table (recordFields.ts). */
export interface CatalogRecord extends RecordProperties {}

/** A record document as loaded or stored: VuFind `biblio` field names (recordFields.ts); unknown fields are kept as they are. */
export type RecordDocument = RecordDocumentFields & { [field: string]: unknown };

/** Throws unless the field is absent, one string, or a list of strings (checking allocates nothing). */
function checkValuesOf(doc: Record<string, unknown>, field: string): void {
  const value = doc[field];
  if (value === undefined || value === null || typeof value === 'string') return;
  if (!Array.isArray(value)) throw new InvalidRecordDocumentError(`field "${field}" must be a string, not ${describe(value)}`);
  for (let i = 0; i < value.length; i++) {
    if (typeof value[i] !== 'string') throw new InvalidRecordDocumentError(`field "${field}"[${i}] must be a string, not ${describe(value[i])}`);
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function singleValueOf(doc: Record<string, unknown>, field: string): string | undefined {
  const value = doc[field];
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value) && value.length === 1 && typeof value[0] === 'string') return value[0];
  if (typeof value !== 'string') throw new InvalidRecordDocumentError(`field "${field}" must be a string, not ${describe(value)}`);
  return value;
}

/** Normalises an ISO 8601 date-time to `toISOString()` form; throws when it is not one. */
export function normaliseInstant(value: string, field = 'last_indexed'): string {
  // Most values are in the normal form already (a load stamps it, and each document is checked before it
  // is prepared): those are answered without the pattern, the parse and the formatting below, which were a
  // twentieth of a bulk load's main thread.
  if (isNormalInstant(value)) return value;
  // Date.parse accepts many informal forms; require an ISO 8601 date-time shape first.
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(value)) {
    throw new InvalidRecordDocumentError(`field "${field}" must be an ISO 8601 date-time, not ${JSON.stringify(value)}`);
  }
  const time = Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(time)) {
    throw new InvalidRecordDocumentError(`field "${field}" is not a valid date-time: ${JSON.stringify(value)}`);
  }
  return new Date(time).toISOString();
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The number the digits at [from, from + count) of `value` write, or -1 when one is not a digit. */
function digitsAt(value: string, from: number, count: number): number {
  let number = 0;
  for (let i = from; i < from + count; i++) {
    const digit = value.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    number = number * 10 + digit;
  }
  return number;
}

/**
 * Whether `value` is already what normaliseInstant gives for it: `YYYY-MM-DDTHH:MM:SS.mmmZ` with every field
 * in its range (Date.parse rolls 30 February over into March, and takes 24:00, which toISOString then writes
 * otherwise; those take the general path).
 */
function isNormalInstant(value: string): boolean {
  if (value.length !== 24 || value.charCodeAt(4) !== 45 || value.charCodeAt(7) !== 45 || value.charCodeAt(10) !== 84
    || value.charCodeAt(13) !== 58 || value.charCodeAt(16) !== 58 || value.charCodeAt(19) !== 46 || value.charCodeAt(23) !== 90) return false;
  const year = digitsAt(value, 0, 4);
  const month = digitsAt(value, 5, 2);
  const day = digitsAt(value, 8, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || digitsAt(value, 20, 3) < 0) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] as number);
  const hour = digitsAt(value, 11, 2);
  const minute = digitsAt(value, 14, 2);
  const second = digitsAt(value, 17, 2);
  return day <= days && hour >= 0 && hour <= 23 && minute >= 0 && minute <= 59 && second >= 0 && second <= 59;
}

const TWO_DIGITS = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, '0'));
const MILLIS_PER_DAY = 86_400_000;
/** 10000-01-01T00:00:00.000Z: instants from 1970 up to this one are written directly. */
const YEAR_10000 = 253_402_300_800_000;

/**
 * An instant in milliseconds since 1970 in the normalised form, as `new Date(ms).toISOString()` writes it:
 * for the instants of 1970–9999 (every stored last_indexed) by arithmetic on the days since 1970, which
 * costs a fraction of making a Date and formatting it, for every record an index reads; others through Date.
 */
export function instantOfMillis(ms: number): string {
  if (!Number.isInteger(ms) || ms < 0 || ms >= YEAR_10000) return new Date(ms).toISOString();
  const days = Math.floor(ms / MILLIS_PER_DAY);
  let rest = ms - days * MILLIS_PER_DAY;
  // The proleptic Gregorian date of a day number, by 400-year eras counted from 0000-03-01.
  const shifted = days + 719_468;
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const millis = rest % 1000;
  rest = (rest - millis) / 1000;
  const second = rest % 60;
  rest = (rest - second) / 60;
  const minute = rest % 60;
  const hour = (rest - minute) / 60;
  return `${TWO_DIGITS[Math.floor(year / 100)]}${TWO_DIGITS[year % 100]}-${TWO_DIGITS[month]}-${TWO_DIGITS[day]}T${TWO_DIGITS[hour]}:${TWO_DIGITS[minute]}:${TWO_DIGITS[second]}.${millis < 100 ? (millis < 10 ? '00' : '0') : ''}${millis}Z`;
}

/** Checks that `doc` is a usable record document: an object with a non-empty string id and well-typed fields. */
export function checkRecordDocument(doc: unknown): asserts doc is RecordDocument {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    throw new InvalidRecordDocumentError(`a record document must be a JSON object, not ${describe(doc)}`);
  }
  const fields = doc as Record<string, unknown>;
  if (typeof fields.id !== 'string') {
    throw new InvalidRecordDocumentError(fields.id === undefined ? 'field "id" is missing' : `field "id" must be a string, not ${describe(fields.id)}`);
  }
  if (fields.id.trim() === '') throw new InvalidRecordDocumentError('field "id" is empty');
  for (const field of MULTI_VALUED) checkValuesOf(fields, field.name);
  for (const field of SINGLE_VALUED) if (field.name !== 'id') singleValueOf(fields, field.name);
  const lastIndexed = singleValueOf(fields, 'last_indexed');
  if (lastIndexed !== undefined) normaliseInstant(lastIndexed);
}

/**
 * The record a stored document describes. The document must carry `last_indexed` (set at load time) and
 * its work keys (computed at load time when absent); a stored document missing them lists itself alone.
 */
export function recordFromDocument(doc: unknown): CatalogRecord {
  checkRecordDocument(doc);
  const lastIndexed = singleValueOf(doc, 'last_indexed');
  const workKeys = doc.work_keys_str_mv;
  return recordOfCheckedFields(
    doc, doc.id, lastIndexed === undefined ? new Date(0).toISOString() : normaliseInstant(lastIndexed),
    workKeys === undefined || workKeys === null ? [] : typeof workKeys === 'string' ? [workKeys] : workKeys.slice(), true,
  );
}

/**
 * The one reader of a record's fields, for every adapter: the record of checked fields (checkRecordDocument
 * passed them, when they were written or just now), with its id, normalised `last_indexed` and work keys
 * given apart (the embedded index keeps those in columns of their own). Single-valued fields take a
 * string or a one-string list; lists take a string or a list, copied when `copyLists` (a caller's
 * document), taken as they are otherwise (freshly parsed JSON). Properties come in table order.
 */
export function recordOfCheckedFields(
  fields: Readonly<Record<string, unknown>>, id: string, lastIndexed: string, workKeys: readonly string[], copyLists = false,
): CatalogRecord {
  const record: { -readonly [P in keyof CatalogRecord]?: CatalogRecord[P] } = {};
  for (const field of RECORD_FIELDS) {
    if (field.multiValued) {
      if (field.name === 'work_keys_str_mv') {
        record[field.property] = workKeys;
        continue;
      }
      const value = fields[field.name];
      const list: readonly string[] = value === undefined || value === null ? [] : typeof value === 'string' ? [value]
        : copyLists ? (value as string[]).slice() : (value as string[]);
      // An optional list (the table's `optional`) is left out when empty.
      if (list.length > 0 || !field.optional) record[field.property] = list;
    } else if (field.name === 'id') {
      record.id = id;
    } else if (field.name === 'last_indexed') {
      record.lastIndexed = lastIndexed;
    } else {
      const value = fields[field.name];
      const one = typeof value === 'string' ? value : Array.isArray(value) ? (value[0] as unknown) : undefined;
      if (typeof one === 'string') record[field.property] = one;
    }
  }
  if (!isComplete(record)) throw new InvalidRecordDocumentError(`record ${JSON.stringify(id)} lacks a required field`);
  return record;
}

/** Whether every required property of the table is there (the reader above sets them all; this says so to the compiler). */
function isComplete(record: { readonly [P in keyof CatalogRecord]?: CatalogRecord[P] }): record is CatalogRecord {
  for (const field of REQUIRED_FIELDS) if (record[field.property] === undefined) return false;
  return true;
}
const REQUIRED_FIELDS = RECORD_FIELDS.filter((field) => !field.optional);

/** Year of a record: the first run of four digits in its first publication date. */
export function yearOf(record: Pick<CatalogRecord, 'publishDates'>): string | undefined {
  const first = record.publishDates[0];
  if (first === undefined) return undefined;
  // What /\d{4}/ finds, without a match array made for every record of a feed or page: the first run of
  // digits to reach four ends the leftmost four.
  let run = 0;
  for (let i = 0; i < first.length; i++) {
    const code = first.charCodeAt(i);
    if (code < 48 || code > 57) run = 0;
    else if (++run === 4) return first.slice(i - 3, i + 1);
  }
  return undefined;
}

/** The feed item's author: the first `author`, else the first `author_corporate` (an institution). */
export function mainAuthorOf(record: Pick<CatalogRecord, 'authors' | 'corporateAuthors'>): string | undefined {
  return nonBlank(record.authors[0]) ?? nonBlank(record.corporateAuthors[0]);
}

/** Whether a record has a title to show: one that is not blank (views show a "title missing" label instead). */
export function hasTitle(record: Pick<CatalogRecord, 'title'>): boolean {
  return nonBlank(record.title) !== undefined;
}

/** Title for headings: the short title, else the full title (undefined when the record has neither). */
export function shortTitleOf(record: Pick<CatalogRecord, 'title' | 'shortTitle'>): string | undefined {
  return nonBlank(record.shortTitle) ?? nonBlank(record.title);
}

function nonBlank(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value : undefined;
}
