/**
 * The facet tally (recordFacets.ts) of records given by their stored documents rather than as records:
 * parsed documents, or their JSON texts scanned for the five facet fields only, for an adapter that reads
 * a work's documents only to count their facets. Counted as facetValuesOf counts the record the reader
 * (catalogRecord.ts) makes of the same document.
 */
import { FACET_FIELDS, facetValuesOfList, isYearsFacet, yearOfDate, type FacetField, type FacetTally } from './recordFacets.js';

/**
 * The tally of records given by their checked documents rather than as records (fields by their document
 * names, FACET_FIELDS; each a string, a list of strings, or null or missing for none): counted as
 * facetValuesOf counts the record that the reader (catalogRecord.ts) makes of the same document, for an
 * adapter that would otherwise decode records only to count them.
 */
export function facetTallyOfDocuments(documents: Iterable<Readonly<Record<string, unknown>>>): FacetTally {
  return facetTallyOfDocumentTexts([], documents);
}

/**
 * The tally of records given by their stored documents' JSON texts, and of others whose documents are
 * parsed already (`parsed`), counted as facetTallyOfDocuments counts the parsed documents: the texts are
 * scanned for the five facet fields only (the other fields skipped, not decoded), and a text the scan does
 * not expect (a facet field's value that is neither a string, a list of strings nor null) is parsed whole
 * instead. For an adapter that reads a work's documents only to count their facets, without making
 * objects of their titles, authors and URLs, and parses only those it gives out.
 */
export function facetTallyOfDocumentTexts(texts: Iterable<string>, parsed: Iterable<Readonly<Record<string, unknown>>> = []): FacetTally {
  const tallies = emptyTallies();
  const found: unknown[] = new Array(FACET_FIELDS.length);
  for (const text of texts) {
    if (scanFacetFields(text, found)) {
      for (let i = 0; i < FACET_FIELDS.length; i++) countStored(tallies[i]!, FACET_FIELDS[i]!, found[i]);
    } else {
      const document = JSON.parse(text) as Record<string, unknown>;
      for (let i = 0; i < FACET_FIELDS.length; i++) countStored(tallies[i]!, FACET_FIELDS[i]!, document[FACET_FIELDS[i]!]);
    }
  }
  for (const document of parsed) {
    for (let i = 0; i < FACET_FIELDS.length; i++) countStored(tallies[i]!, FACET_FIELDS[i]!, document[FACET_FIELDS[i]!]);
  }
  return new Map(FACET_FIELDS.map((field, i) => [field, tallies[i]!]));
}

const emptyTallies = (): Array<Map<string, number>> => FACET_FIELDS.map(() => new Map<string, number>());

/** Counts a stored field's values (a string, a list of strings, null or undefined) as facetValuesOf counts the record's list. */
function countStored(tally: Map<string, number>, field: FacetField, stored: unknown): void {
  if (stored === undefined || stored === null) return;
  // One value, the common case: no list or set made for it.
  const one = typeof stored === 'string' ? stored : (stored as string[]).length === 1 ? (stored as string[])[0]! : undefined;
  if (one !== undefined) {
    const value = (isYearsFacet(field) ? yearOfDate(one) : one).trim();
    if (value !== '') tally.set(value, (tally.get(value) ?? 0) + 1);
    return;
  }
  for (const value of facetValuesOfList(field, stored as string[])) tally.set(value, (tally.get(value) ?? 0) + 1);
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** The facet fields' places in FACET_FIELDS, by name. */
const FACET_FIELD_PLACES: ReadonlyMap<string, number> = new Map(FACET_FIELDS.map((field, i) => [field, i]));

/**
 * The facet fields of a stored document's JSON text, into `found` (by FACET_FIELDS' places, undefined
 * when missing; a repeated name keeps its last value, as JSON.parse does): true when the text is an
 * object whose facet fields' values are strings, lists of strings or null, false (what `found` holds then is not to be read)
 * when it must be parsed whole. Other fields' values are skipped whatever they are.
 */
function scanFacetFields(text: string, found: unknown[]): boolean {
  found.fill(undefined);
  const escapes = text.includes('\\');
  let at = skipSpace(text, 0);
  if (text.charCodeAt(at) !== 0x7b) return false;
  at = skipSpace(text, at + 1);
  if (text.charCodeAt(at) === 0x7d) return true;
  for (;;) {
    if (text.charCodeAt(at) !== QUOTE) return false;
    const keyEnd = endOfString(text, at);
    if (keyEnd < 0) return false;
    // A name is made a string only when the text has escapes (then decoded).
    const length = keyEnd - at - 1;
    const place = escapes ? FACET_FIELD_PLACES.get(decodedString(text, at, keyEnd)) : facetFieldPlaceAt(text, at + 1, length);
    at = skipSpace(text, keyEnd + 1);
    if (text.charCodeAt(at) !== 0x3a) return false;
    at = skipSpace(text, at + 1);
    if (place === undefined) at = endOfValue(text, at);
    else {
      const code = text.charCodeAt(at);
      if (code === QUOTE) {
        const end = endOfString(text, at);
        if (end < 0) return false;
        found[place] = decodedString(text, at, end);
        at = end + 1;
      } else if (code === 0x6e && text.startsWith('null', at)) {
        found[place] = null;
        at += 4;
      } else if (code === 0x5b) {
        const list: string[] = [];
        at = skipSpace(text, at + 1);
        if (text.charCodeAt(at) === 0x5d) at += 1;
        else {
          for (;;) {
            if (text.charCodeAt(at) !== QUOTE) return false;
            const end = endOfString(text, at);
            if (end < 0) return false;
            list.push(decodedString(text, at, end));
            at = skipSpace(text, end + 1);
            const next = text.charCodeAt(at);
            at += 1;
            if (next === 0x5d) break;
            if (next !== 0x2c) return false;
            at = skipSpace(text, at);
          }
        }
        found[place] = list;
      } else return false;
    }
    if (at < 0) return false;
    at = skipSpace(text, at);
    const next = text.charCodeAt(at);
    if (next === 0x7d) return true;
    if (next !== 0x2c) return false;
    at = skipSpace(text, at + 1);
  }
}

/** The place in FACET_FIELDS of the name of `length` characters at `at` (without escapes), undefined for another name. */
function facetFieldPlaceAt(text: string, at: number, length: number): number | undefined {
  for (let i = 0; i < FACET_FIELDS.length; i++) if (FACET_FIELDS[i]!.length === length && text.startsWith(FACET_FIELDS[i]!, at)) return i;
  return undefined;
}

/** The place of the quote closing the string opened at `start`, -1 when there is none. */
function endOfString(text: string, start: number): number {
  let end = text.indexOf('"', start + 1);
  while (end >= 0) {
    let slashes = 0;
    while (text.charCodeAt(end - 1 - slashes) === BACKSLASH) slashes += 1;
    if (slashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
  return -1;
}

/** The string between the quotes at `start` and `end`, its escapes decoded (by JSON.parse, the one decoder) when it has any. */
function decodedString(text: string, start: number, end: number): string {
  const inner = text.slice(start + 1, end);
  return inner.includes('\\') ? JSON.parse(text.slice(start, end + 1)) as string : inner;
}

/** The place just after the value (of a field the scan does not read) starting at `at`, -1 when it does not end. */
function endOfValue(text: string, at: number): number {
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      i = endOfString(text, i);
      if (i < 0) return -1;
      if (depth === 0) return i + 1;
    } else if (code === 0x5b || code === 0x7b) depth += 1;
    else if (code === 0x5d || code === 0x7d) {
      if (depth === 0) return i;
      depth -= 1;
      if (depth === 0) return i + 1;
    } else if (code === 0x2c && depth === 0) return i;
  }
  return -1;
}

/** The first place from `at` that is not JSON whitespace. */
function skipSpace(text: string, at: number): number {
  let code = text.charCodeAt(at);
  while (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) code = text.charCodeAt(++at);
  return at;
}
