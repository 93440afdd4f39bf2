/**
 * Work keys of a MARC record, made as VuFind's importer makes `work_keys_str_mv`: its `getWorkKeys` with
 * the arguments stock `import/marc.properties` passes,
 *
 *   getWorkKeys(130anp:730anp, 240anpmr:245abn:246abn:247abn, 240anpmr:245abn,
 *               100ab:110ab:111ac:700ab:710ab:711ac, "", "", <ICU rules>)
 *
 * What it does, rule by rule (each one read in VuFind's WorkKeys and FieldSpecTools and in SolrMarc):
 * - A field specification `TAGcodes:TAGcodes…` picks the data fields with those tags in record order (not
 *   in the order the specification names them). A tag named twice gives one value per naming.
 * - A value is the field's subfields with the named codes, in the order they stand in the field, each
 *   trimmed as Java's `String.trim` trims (characters up to U+0020), joined with one space. A field with
 *   none of the codes gives no value.
 * - Uniform titles (130, 730) become `UT <key>`. Titles are every 240/245/246/247 value as catalogued, then
 *   every 240/245 value again with its non-filing characters removed: the indicator's digit counts the
 *   characters cut from the start of each subfield a (ind1 for 130/630/730/740, ind2 for
 *   222/240/242/243/245/440/830; 246 and 247 have no non-filing indicator). Uniform titles keep theirs,
 *   because VuFind's own call passes them without the removal.
 * - `AT <author key> <title key>` for every title, then every author, in that order; an author or title
 *   whose key is empty adds nothing, and a record with no author field has no AT keys.
 * - 880 fields (alternate script) are not read: SolrMarc matches them only through `LNK` tags, which
 *   stock VuFind does not name here, so a record's Chinese or Japanese 880s add no keys.
 * - Raw values are de-duplicated before normalising and keys after, first occurrence kept (Java
 *   LinkedHashSet).
 * - The key text is `normaliseForWorkKey` (src/work-keys/workKeys.ts), which stands in for VuFind's ICU
 *   rules `:: NFD; :: lower; :: Latin; :: [^[:letter:] [:number:]] Remove; :: NFKC;`, its lower-casing
 *   and its 255-character cap.
 *
 * Left to others: the normalisation itself (src/work-keys/workKeys.ts), the rest of the record document
 * (vufindMarcMapping.ts), reading MARC (the readers).
 */
import { DistinctStrings, normaliseForWorkKey } from '../../work-keys/workKeys.js';
import { isDataField, type MarcDataField, type MarcRecord } from './marcRecord.js';

/** The field specifications stock VuFind passes to getWorkKeys. */
export interface WorkKeyFieldSpecs {
  readonly uniformTitles: string;
  readonly titles: string;
  /** Titles read again with non-filing characters removed. */
  readonly titlesWithoutNonFiling: string;
  readonly authors: string;
}

export const VUFIND_WORK_KEY_FIELD_SPECS: WorkKeyFieldSpecs = {
  uniformTitles: '130anp:730anp',
  titles: '240anpmr:245abn:246abn:247abn',
  titlesWithoutNonFiling: '240anpmr:245abn',
  authors: '100ab:110ab:111ac:700ab:710ab:711ac',
};

/** Tags whose first indicator counts non-filing characters (SolrMarc's table). */
const NON_FILING_IN_IND1 = new Set(['130', '630', '730', '740']);
/** Tags whose second indicator counts non-filing characters (SolrMarc's table). */
const NON_FILING_IN_IND2 = new Set(['222', '240', '242', '243', '245', '440', '830']);

/** Java's `String.trim`: drops code units up to U+0020 at both ends, and nothing else (not NBSP). */
export function trimAsJavaDoes(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && value.charCodeAt(start) <= 0x20) start++;
  while (end > start && value.charCodeAt(end - 1) <= 0x20) end--;
  return value.slice(start, end);
}

/** `100ab:700ab` → tag → the subfield-code strings named for it, in the order named. */
export function parseFieldSpec(spec: string): Map<string, string[]> {
  const byTag = new Map<string, string[]>();
  for (const part of spec.split(':')) {
    const tag = part.slice(0, 3);
    const codes = part.slice(3);
    const named = byTag.get(tag);
    if (named === undefined) byTag.set(tag, [codes]);
    else if (!named.includes(codes)) named.push(codes);
  }
  return byTag;
}

// The few specifications the mapping uses, parsed once each rather than once per record.
const parsedSpecs = new Map<string, Map<string, string[]>>();
function parsedSpec(spec: string): Map<string, string[]> {
  let parsed = parsedSpecs.get(spec);
  if (parsed === undefined) {
    parsed = parseFieldSpec(spec);
    if (parsedSpecs.size < 64) parsedSpecs.set(spec, parsed);
  }
  return parsed;
}

/** The data fields whose tags a specification names, in record order. */
export function dataFieldsNamedBy(record: MarcRecord, spec: Map<string, string[]>): MarcDataField[] {
  return record.fields.filter((field): field is MarcDataField => isDataField(field) && spec.has(field.tag));
}

/** How many characters the field's non-filing indicator says to skip (0 when it says none). */
export function nonFilingCharacterCount(field: MarcDataField): number {
  const indicator = NON_FILING_IN_IND1.has(field.tag) ? field.ind1 : NON_FILING_IN_IND2.has(field.tag) ? field.ind2 : '';
  return /^[0-9]$/.test(indicator) ? Number(indicator) : 0;
}

/**
 * A field's subfields with the given codes, in field order, each trimmed as Java trims, joined with one
 * space (none before the first non-empty one); undefined when that leaves nothing. With
 * `removeNonFiling`, subfield a first loses the characters the non-filing indicator counts.
 */
export function joinedSubfields(field: MarcDataField, codes: string, removeNonFiling = false): string | undefined {
  let value = '';
  for (const subfield of field.subfields) {
    if (!codes.includes(subfield.code)) continue;
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

/** The values a field specification gives, de-duplicated, in record order (VuFind's getFieldsByTagList). */
export function valuesOfFieldSpec(record: MarcRecord, spec: string, removeNonFiling = false): string[] {
  const parsed = parsedSpec(spec);
  const values = new DistinctStrings();
  for (const field of dataFieldsNamedBy(record, parsed)) {
    for (const codes of parsed.get(field.tag) ?? []) {
      const value = joinedSubfields(field, codes, removeNonFiling);
      if (value !== undefined) values.add(value);
    }
  }
  return values.values;
}

/** A MARC record's work keys as VuFind 7.1.1 stores them in `work_keys_str_mv`. */
export function marcWorkKeys(record: MarcRecord, specs: WorkKeyFieldSpecs = VUFIND_WORK_KEY_FIELD_SPECS): string[] {
  const keys = new DistinctStrings();
  for (const uniformTitle of valuesOfFieldSpec(record, specs.uniformTitles)) {
    const key = normaliseForWorkKey(uniformTitle);
    if (key !== '') keys.add(`UT ${key}`);
  }
  const titles = new DistinctStrings();
  for (const title of valuesOfFieldSpec(record, specs.titles)) titles.add(title);
  for (const title of valuesOfFieldSpec(record, specs.titlesWithoutNonFiling, true)) titles.add(title);
  const authorKeys = valuesOfFieldSpec(record, specs.authors)
    .map(normaliseForWorkKey)
    .filter((key) => key !== '');
  for (const title of titles.values) {
    const titleKey = normaliseForWorkKey(title);
    if (titleKey === '') continue;
    for (const authorKey of authorKeys) keys.add(`AT ${authorKey} ${titleKey}`);
  }
  return keys.values;
}
