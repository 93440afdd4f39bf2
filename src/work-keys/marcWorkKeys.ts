/**
 * Work keys of a MARC record, made as VuFind's importer makes `work_keys_str_mv`: its `getWorkKeys` with
 * the arguments stock `import/marc.properties` passes,
 *
 *   getWorkKeys(130anp:730anp, 240anpmr:245abn:246abn:247abn, 240anpmr:245abn,
 *               100ab:110ab:111ac:700ab:710ab:711ac, "", "", <ICU rules>)
 *
 * What it does, rule by rule (each one read in VuFind's WorkKeys and FieldSpecTools and in SolrMarc):
 * - The field specifications are read as VuFind's FieldSpecTools reads them (src/marc/marcFieldSpec.ts,
 *   `fieldSpecValues`): data fields in record order, not in the order the specification names the tags; a
 *   tag named twice gives one value per naming; a value is the field's subfields with the named codes in
 *   field order, each trimmed as Java trims, joined with one space, one code or several. A field with none
 *   of the codes gives no value.
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
 * Left to others: the normalisation itself (src/work-keys/workKeys.ts), reading field specifications and
 * the non-filing indicators (src/marc/marcFieldSpec.ts), the rest of the record document (src/ingest/marc/vufindMarcMapping.ts),
 * reading MARC (the readers).
 */
import { workKeyOf } from './workKeyKinds.js';
import { DistinctStrings } from '../distinctStrings.js';
import { normaliseForWorkKey } from './workKeys.js';
import { fieldSpecValues } from '../marc/marcFieldSpec.js';
import type { MarcRecord } from '../marc/marcRecord.js';

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

/** A MARC record's work keys as VuFind 7.1.1 stores them in `work_keys_str_mv`. */
export function marcWorkKeys(record: MarcRecord, specs: WorkKeyFieldSpecs = VUFIND_WORK_KEY_FIELD_SPECS): string[] {
  const keys = new DistinctStrings();
  for (const uniformTitle of fieldSpecValues(record, specs.uniformTitles)) {
    const key = normaliseForWorkKey(uniformTitle);
    if (key !== '') keys.add(workKeyOf('UT', key));
  }
  const titles = new DistinctStrings();
  for (const title of fieldSpecValues(record, specs.titles)) titles.add(title);
  for (const title of fieldSpecValues(record, specs.titlesWithoutNonFiling, true)) titles.add(title);
  const authorKeys = fieldSpecValues(record, specs.authors)
    .map(normaliseForWorkKey)
    .filter((key) => key !== '');
  for (const title of titles.values) {
    const titleKey = normaliseForWorkKey(title);
    if (titleKey === '') continue;
    for (const authorKey of authorKeys) keys.add(workKeyOf('AT', `${authorKey} ${titleKey}`));
  }
  return keys.values;
}
