/**
 * A catalog record in domain terms, and the record document it comes from.
 *
 * Record documents use the VuFind `biblio` field names (the table in recordFields.ts; docs/record-documents.md)
 * so one JSON document can go into the embedded index or a Solr core. This module turns a document into a
 * `CatalogRecord` (validating it) and answers the small questions views ask of a record (its year, its
 * main author, its display title). Computing work keys is workKeys.ts's job.
 */
import { InvalidRecordDocumentError } from '../errors.js';
import { MULTI_VALUED_FIELDS, SINGLE_VALUED_FIELDS } from './recordFields.js';

export interface CatalogRecord {
  readonly id: string;
  readonly title?: string;
  readonly shortTitle?: string;
  readonly uniformTitles: readonly string[];
  readonly authors: readonly string[];
  readonly secondaryAuthors: readonly string[];
  readonly corporateAuthors: readonly string[];
  readonly formats: readonly string[];
  readonly publishDates: readonly string[];
  /** ISO 8601 UTC instant, normalised (`2024-03-01T10:00:00.000Z`), so that string order is time order. */
  readonly lastIndexed: string;
  readonly urls: readonly string[];
  readonly workKeys: readonly string[];
  /** Institutions holding the record or supplying it (`institution`); absent when the document has none. */
  readonly institutions?: readonly string[];
  /** Libraries or collections within them (`building`); absent when the document has none. */
  readonly buildings?: readonly string[];
}

/** A record document as loaded or stored: VuFind `biblio` field names; unknown fields are kept as they are. */
export interface RecordDocument {
  id: string;
  title?: string;
  title_short?: string;
  title_uniform?: string | string[];
  author?: string | string[];
  author2?: string | string[];
  author_corporate?: string | string[];
  format?: string | string[];
  publishDate?: string | string[];
  last_indexed?: string;
  url?: string | string[];
  work_keys_str_mv?: string[];
  institution?: string | string[];
  building?: string | string[];
  [field: string]: unknown;
}

/** Throws unless the field is absent, one string, or a list of strings (checking allocates nothing). */
function checkValuesOf(doc: Record<string, unknown>, field: string): void {
  const value = doc[field];
  if (value === undefined || value === null || typeof value === 'string') return;
  if (!Array.isArray(value)) throw new InvalidRecordDocumentError(`field "${field}" must be a string, not ${describe(value)}`);
  for (let i = 0; i < value.length; i++) {
    if (typeof value[i] !== 'string') throw new InvalidRecordDocumentError(`field "${field}"[${i}] must be a string, not ${describe(value[i])}`);
  }
}

function valuesOf(doc: Record<string, unknown>, field: string): string[] {
  checkValuesOf(doc, field);
  const value = doc[field] as string | string[] | undefined | null;
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value.slice() : [value];
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
  for (const field of MULTI_VALUED_FIELDS) checkValuesOf(fields, field);
  for (const field of SINGLE_VALUED_FIELDS) if (field !== 'id') singleValueOf(fields, field);
  const lastIndexed = singleValueOf(fields, 'last_indexed');
  if (lastIndexed !== undefined) normaliseInstant(lastIndexed);
}

/**
 * The record a stored document describes. The document must carry `last_indexed` (set at load time) and
 * its work keys (computed at load time when absent); a stored document missing them lists itself alone.
 */
export function recordFromDocument(doc: unknown): CatalogRecord {
  checkRecordDocument(doc);
  const title = singleValueOf(doc, 'title');
  const shortTitle = singleValueOf(doc, 'title_short');
  const lastIndexed = singleValueOf(doc, 'last_indexed');
  const institutions = valuesOf(doc, 'institution');
  const buildings = valuesOf(doc, 'building');
  return {
    id: doc.id,
    ...(title !== undefined ? { title } : {}),
    ...(shortTitle !== undefined ? { shortTitle } : {}),
    uniformTitles: valuesOf(doc, 'title_uniform'),
    authors: valuesOf(doc, 'author'),
    secondaryAuthors: valuesOf(doc, 'author2'),
    corporateAuthors: valuesOf(doc, 'author_corporate'),
    formats: valuesOf(doc, 'format'),
    publishDates: valuesOf(doc, 'publishDate'),
    lastIndexed: lastIndexed === undefined ? new Date(0).toISOString() : normaliseInstant(lastIndexed),
    urls: valuesOf(doc, 'url'),
    workKeys: valuesOf(doc, 'work_keys_str_mv'),
    ...(institutions.length > 0 ? { institutions } : {}),
    ...(buildings.length > 0 ? { buildings } : {}),
  };
}

/** Year of a record: the first run of four digits in its first publication date. */
export function yearOf(record: Pick<CatalogRecord, 'publishDates'>): string | undefined {
  const first = record.publishDates[0];
  return first === undefined ? undefined : /\d{4}/.exec(first)?.[0];
}

/** The feed item's author: the first `author`, else the first `author_corporate` (an institution). */
export function mainAuthorOf(record: Pick<CatalogRecord, 'authors' | 'corporateAuthors'>): string | undefined {
  return nonBlank(record.authors[0]) ?? nonBlank(record.corporateAuthors[0]);
}

/** Title for headings: the short title, else the full title (undefined when the record has neither). */
export function shortTitleOf(record: Pick<CatalogRecord, 'title' | 'shortTitle'>): string | undefined {
  return nonBlank(record.shortTitle) ?? nonBlank(record.title);
}

function nonBlank(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value : undefined;
}
