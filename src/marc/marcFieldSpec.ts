/**
 * SolrMarc field specifications, read once, for the MARC mapping (src/ingest/marc/vufindMarcMapping.ts), the author rules
 * (src/ingest/marc/vufindAuthors.ts) and the work keys (src/work-keys/marcWorkKeys.ts). The forms, as SolrMarc's documentation
 * ("Basic field based extraction specifications") and VuFind's import/marc.properties use them:
 *
 *   245ab            a tag, then subfield codes
 *   100              a tag alone: every subfield of the field
 *   245a             one code: each subfield a is a value of its own (SolrMarc)
 *   650aa            one code repeated: all the field's subfields a joined into one value (SolrMarc)
 *   600[a-z]         a bracketed pattern of codes, read as the codes it covers
 *   008[35-37]       character positions of a control field (000 is the leader), inclusive; 000[6] one
 *   856u:555u        several parts, colon between them
 *   245ab, first     a modifier after a comma: `first` (the first value only), `join(" : ")` (the
 *                    separator between joined subfields; a space when not given)
 *
 * Two readers of a parsed specification, because the two Java sides VuFind 7.1.1 runs read them apart:
 * - `solrMarcValues`: SolrMarc's own rules, for the plain `field = spec` lines of marc.properties
 *   (title, title_short, url): parts in the order named; one code gives one value per subfield, several
 *   codes one value per field, each subfield trimmed as Java trims, empty values dropped.
 * - `fieldSpecValues` with `fieldsNamedBy` and `joinedSubfields`: VuFind's FieldSpecTools
 *   (`getFieldsByTagList`), which its getWorkKeys and CreatorTools call: fields in record order, a field's
 *   named subfields always joined into one value, one code or several, with the non-filing removal the
 *   work keys ask for.
 *
 * Left to others: what a value means (the mapping, the author and key rules); reading MARC (the readers).
 */
import { InvalidArgumentError } from '../errors.js';
import { DistinctStrings } from '../distinctStrings.js';
import { isDataField, type MarcDataField, type MarcRecord } from './marcRecord.js';

/** One colon-separated part of a specification. */
export interface FieldSpecPart {
  readonly tag: string;
  /** The subfield codes named, in the order named; '' names every subfield. */
  readonly codes: string;
  /** For a control field or the leader: the character positions named, first and last (inclusive). */
  readonly positions?: { readonly first: number; readonly last: number };
}

export interface FieldSpec {
  /** The specification as written. */
  readonly text: string;
  readonly parts: readonly FieldSpecPart[];
  /** Tag → the code strings named for it, in the order named, each once. */
  readonly codesByTag: ReadonlyMap<string, readonly string[]>;
  /** The `first` modifier: only the first value is kept. */
  readonly first: boolean;
  /** The separator between joined subfields (`join(" : ")`); a space when not given. */
  readonly separator: string;
}

const PART = /^(\d{3})(?:\[(\d+)(?:-(\d+))?\]|\[([^\]]+)\]|([0-9a-z]*))$/;

/** Java's `String.trim`: drops code units up to U+0020 at both ends, and nothing else (not NBSP). */
export function trimAsJavaDoes(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && value.charCodeAt(start) <= 0x20) start++;
  while (end > start && value.charCodeAt(end - 1) <= 0x20) end--;
  return value.slice(start, end);
}

/** The codes a bracketed pattern such as `a-z`, `a-cx` or `0-9` covers, in order. */
function codesOfPattern(pattern: string, spec: string): string {
  let codes = '';
  for (let i = 0; i < pattern.length; i++) {
    const from = pattern[i]!;
    if (pattern[i + 1] === '-' && i + 2 < pattern.length) {
      const to = pattern[i + 2]!;
      if (to < from) throw new InvalidArgumentError('parseFieldSpec', 'spec', 'a SolrMarc field specification', spec);
      for (let code = from.charCodeAt(0); code <= to.charCodeAt(0); code++) codes += String.fromCharCode(code);
      i += 2;
    } else {
      codes += from;
    }
  }
  return codes;
}

function parsePart(part: string, spec: string): FieldSpecPart {
  const match = PART.exec(part.trim());
  if (match === null) throw new InvalidArgumentError('parseFieldSpec', 'spec', 'a SolrMarc field specification (e.g. 245ab:246a or 008[35-37])', spec);
  const [, tag, firstPosition, lastPosition, pattern, listed] = match;
  if (firstPosition !== undefined) {
    const first = Number(firstPosition);
    const last = lastPosition === undefined ? first : Number(lastPosition);
    if (last < first) throw new InvalidArgumentError('parseFieldSpec', 'spec', 'character positions from low to high', spec);
    return { tag: tag!, codes: '', positions: { first, last } };
  }
  const codes = pattern !== undefined ? codesOfPattern(pattern, spec) : listed ?? '';
  // One code named twice (`650aa`) is two codes to the readers, so its subfields are joined, as SolrMarc joins them.
  return { tag: tag!, codes };
}

function parseModifiers(modifiers: readonly string[], spec: string): { first: boolean; separator: string } {
  let first = false;
  let separator = ' ';
  for (const modifier of modifiers.map((text) => text.trim())) {
    if (modifier === 'first') first = true;
    else if (modifier === 'join') separator = ' ';
    else {
      const join = /^join\((["'])(.*)\1\)$/.exec(modifier);
      if (join === null) throw new InvalidArgumentError('parseFieldSpec', 'spec', 'a specification whose modifiers are first or join("…")', spec);
      separator = join[2]!;
    }
  }
  return { first, separator };
}

// The few specifications the mapping uses, parsed once each rather than once per record.
const parsedSpecs = new Map<string, FieldSpec>();

/** `245ab:246a, first` → its parts and modifiers. Throws InvalidArgumentError for text that is no specification. */
export function parseFieldSpec(text: string): FieldSpec {
  if (typeof text !== 'string') throw new InvalidArgumentError('parseFieldSpec', 'spec', 'a SolrMarc field specification string', text);
  const known = parsedSpecs.get(text);
  if (known !== undefined) return known;
  // A comma inside join("…") is part of the separator, not a modifier boundary.
  const [fields = '', ...modifiers] = text.split(/,(?![^(]*\))/);
  if (fields.trim() === '') throw new InvalidArgumentError('parseFieldSpec', 'spec', 'a SolrMarc field specification (e.g. 245ab)', text);
  const parts = fields.split(':').map((part) => parsePart(part, text));
  const codesByTag = new Map<string, string[]>();
  for (const part of parts) {
    const named = codesByTag.get(part.tag);
    if (named === undefined) codesByTag.set(part.tag, [part.codes]);
    else if (!named.includes(part.codes)) named.push(part.codes);
  }
  const spec: FieldSpec = { text, parts, codesByTag, ...parseModifiers(modifiers, text) };
  if (parsedSpecs.size < 64) parsedSpecs.set(text, spec);
  return spec;
}

/** Tags whose first indicator counts non-filing characters (SolrMarc's table). */
const NON_FILING_IN_IND1 = new Set(['130', '630', '730', '740']);
/** Tags whose second indicator counts non-filing characters (SolrMarc's table). */
const NON_FILING_IN_IND2 = new Set(['222', '240', '242', '243', '245', '440', '830']);

/** How many characters the field's non-filing indicator says to skip (0 when it says none). */
export function nonFilingCharacterCount(field: MarcDataField): number {
  const indicator = NON_FILING_IN_IND1.has(field.tag) ? field.ind1 : NON_FILING_IN_IND2.has(field.tag) ? field.ind2 : '';
  return /^[0-9]$/.test(indicator) ? Number(indicator) : 0;
}

/** The data fields whose tags a specification names, in record order (FieldSpecTools). */
export function fieldsNamedBy(record: MarcRecord, spec: FieldSpec): MarcDataField[] {
  return record.fields.filter((field): field is MarcDataField => isDataField(field) && spec.codesByTag.has(field.tag));
}

/**
 * A field's subfields with the given codes ('' for all), in field order, each trimmed as Java trims,
 * joined with one space (none before the first non-empty one), as FieldSpecTools joins them; undefined
 * when that leaves nothing. With `removeNonFiling`, subfield a first loses the characters the non-filing
 * indicator counts.
 */
export function joinedSubfields(field: MarcDataField, codes: string, removeNonFiling = false): string | undefined {
  let value = '';
  for (const subfield of field.subfields) {
    if (codes !== '' && !codes.includes(subfield.code)) continue;
    // As VuFind: a space before every subfield once something is written, even before an empty one.
    if (value.length > 0) value += ' ';
    let data = trimAsJavaDoes(subfield.value);
    if (removeNonFiling && subfield.code === 'a') {
      // Counted in UTF-16 code units, as Java's substring counts.
      data = trimAsJavaDoes(data.substring(Math.min(nonFilingCharacterCount(field), data.length)));
    }
    value += data;
  }
  return value.length > 0 ? value : undefined;
}

/**
 * The values FieldSpecTools' getFieldsByTagList gives: fields in record order, one joined value per field
 * and naming of its tag, each value once (first occurrence kept).
 */
export function fieldSpecValues(record: MarcRecord, spec: FieldSpec | string, removeNonFiling = false): string[] {
  const parsed = typeof spec === 'string' ? parseFieldSpec(spec) : spec;
  const values = new DistinctStrings();
  for (const field of fieldsNamedBy(record, parsed)) {
    for (const codes of parsed.codesByTag.get(field.tag) ?? []) {
      const value = joinedSubfields(field, codes, removeNonFiling);
      if (value !== undefined) values.add(value);
    }
  }
  return values.values;
}

/**
 * One part's values, as solrMarcValues reads each part: a control field's value (or the named characters),
 * each subfield of a one-code part, or one value per field of its named subfields joined by `separator`.
 */
export function fieldSpecPartValues(record: MarcRecord, part: FieldSpecPart, separator = ' '): string[] {
  const values: string[] = [];
  addPartValues(values, record, part, separator);
  return values;
}

/** A control field's tag (`001` to `009`) or the leader's (`000`). */
function isControlOrLeaderTag(tag: string): boolean {
  if (tag.length !== 3 || tag.charCodeAt(0) !== 0x30 || tag.charCodeAt(1) !== 0x30) return false;
  const last = tag.charCodeAt(2);
  return last >= 0x30 && last <= 0x39;
}

/** fieldSpecPartValues appending to `values` (a field's subfields read in one pass, without lists made for them). */
function addPartValues(values: string[], record: MarcRecord, part: FieldSpecPart, separator: string): void {
  const tag = part.tag;
  if (isControlOrLeaderTag(tag)) {
    const positions = part.positions;
    const add = (text: string) => {
      const value = positions === undefined ? text : text.substring(positions.first, positions.last + 1);
      if (value !== '') values.push(value);
    };
    if (tag === '000') add(record.leader);
    else for (const field of record.fields) if (field.tag === tag && !isDataField(field)) add(field.value);
    return;
  }
  const codes = part.codes;
  for (const field of record.fields) {
    if (field.tag !== tag || !isDataField(field)) continue;
    if (codes.length === 1) {
      for (const subfield of field.subfields) {
        if (!codes.includes(subfield.code)) continue;
        const value = trimAsJavaDoes(subfield.value);
        if (value !== '') values.push(value);
      }
      continue;
    }
    // SolrMarc writes the separator for every subfield after the first, even an empty one.
    let value = '';
    let matched = false;
    for (const subfield of field.subfields) {
      if (codes !== '' && !codes.includes(subfield.code)) continue;
      if (matched) value += separator;
      value += trimAsJavaDoes(subfield.value);
      matched = true;
    }
    if (value !== '') values.push(value);
  }
}

/**
 * The values SolrMarc gives a specification: its parts in the order named; within a part, fields in
 * record order; a one-code part gives each subfield as its own value, any other part one value per field
 * (its named subfields, each trimmed, joined by the separator); empty values dropped; `first` keeps the
 * first. Values are not de-duplicated here (SolrMarc's multi-valued fields keep one of each; the caller
 * says which fields are).
 */
export function solrMarcValues(record: MarcRecord, spec: FieldSpec | string): string[] {
  const parsed = typeof spec === 'string' ? parseFieldSpec(spec) : spec;
  const values: string[] = [];
  for (const part of parsed.parts) {
    addPartValues(values, record, part, parsed.separator);
    if (parsed.first && values.length > 0) return values.slice(0, 1);
  }
  return values;
}
