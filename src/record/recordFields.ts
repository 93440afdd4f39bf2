/**
 * The one table of record fields: every field of a record document the plugin reads, and each fact about
 * it that code needs. The public types (CatalogRecord and RecordDocument, catalogRecord.ts), validation
 * and the one reader of stored fields (catalogRecord.ts), what counts as changed content (recordContent.ts),
 * the work keys' inputs (src/work-keys/workKeys.ts), the embedded index's stored columns and demo search
 * (src/adapters/sqlite/) and the Solr adapter's default field names all read this table;
 * docs/record-documents.md describes the fields for people.
 *
 * Columns:
 * - `name`: the record document's field (VuFind's `biblio` schema); `property`: the CatalogRecord property.
 * - `multiValued`: a list (a document may give one string), or one value.
 * - `optional`: the property may be absent from a CatalogRecord. A required list is always there, empty
 *   when the document has none; an optional one is absent when empty (the views tell "none" from "empty").
 *   `id` must be in every document; a missing `last_indexed` reads as 1970.
 * - `searched`: the embedded index's search box (the demo's) looks words up in it.
 * - `keyed`: what work keys make of it (workKeys.ts): a `title`, a `uniformTitle`, a `name`; or nothing.
 * - `solr`: the Solr field it is read from and written to by default (an adapter option may rename it).
 * - `stored`: where the embedded index keeps it: a column of its own, or the `document` column's JSON.
 *
 * To add a field: a row here, then whatever view shows it (docs/architecture.md, "Add a field to feed items and the page").
 */

export const RECORD_FIELDS = [
  { name: 'id', property: 'id', multiValued: false, optional: false, searched: false, keyed: undefined, solr: 'id', stored: 'id' },
  { name: 'title', property: 'title', multiValued: false, optional: true, searched: true, keyed: 'title', solr: 'title', stored: 'document' },
  { name: 'title_short', property: 'shortTitle', multiValued: false, optional: true, searched: true, keyed: undefined, solr: 'title_short', stored: 'document' },
  { name: 'title_uniform', property: 'uniformTitles', multiValued: true, optional: false, searched: false, keyed: 'uniformTitle', solr: 'title_uniform', stored: 'document' },
  { name: 'author', property: 'authors', multiValued: true, optional: false, searched: true, keyed: 'name', solr: 'author', stored: 'document' },
  { name: 'author2', property: 'secondaryAuthors', multiValued: true, optional: false, searched: true, keyed: 'name', solr: 'author2', stored: 'document' },
  { name: 'author_corporate', property: 'corporateAuthors', multiValued: true, optional: false, searched: true, keyed: 'name', solr: 'author_corporate', stored: 'document' },
  { name: 'format', property: 'formats', multiValued: true, optional: false, searched: false, keyed: undefined, solr: 'format', stored: 'document' },
  { name: 'publishDate', property: 'publishDates', multiValued: true, optional: false, searched: false, keyed: undefined, solr: 'publishDate', stored: 'document' },
  // An ISO 8601 UTC instant, normalised (`2024-03-01T10:00:00.000Z`), so that string order is time order.
  { name: 'last_indexed', property: 'lastIndexed', multiValued: false, optional: false, searched: false, keyed: undefined, solr: 'last_indexed', stored: 'last_indexed' },
  { name: 'url', property: 'urls', multiValued: true, optional: false, searched: false, keyed: undefined, solr: 'url', stored: 'document' },
  { name: 'work_keys_str_mv', property: 'workKeys', multiValued: true, optional: false, searched: false, keyed: undefined, solr: 'work_keys_str_mv', stored: 'key_ids' },
  // Where a version is held or comes from (VuFind's facets): the page shows it under each version.
  { name: 'institution', property: 'institutions', multiValued: true, optional: true, searched: false, keyed: undefined, solr: 'institution', stored: 'document' },
  { name: 'building', property: 'buildings', multiValued: true, optional: true, searched: false, keyed: undefined, solr: 'building', stored: 'document' },
  // What tells one version from another on the page (VuFind's fields; MARC 008/041, 250, 260/264, 300).
  // `language` holds MARC codes (`por`) or, as a VuFind core does, English names (`Portuguese`).
  { name: 'language', property: 'languages', multiValued: true, optional: true, searched: false, keyed: undefined, solr: 'language', stored: 'document' },
  { name: 'edition', property: 'edition', multiValued: false, optional: true, searched: false, keyed: undefined, solr: 'edition', stored: 'document' },
  { name: 'publisher', property: 'publishers', multiValued: true, optional: true, searched: false, keyed: undefined, solr: 'publisher', stored: 'document' },
  // Not in VuFind's stock schema (VuFind reads the place from the stored MARC record): the plugin's own.
  { name: 'publishPlace', property: 'publishPlaces', multiValued: true, optional: true, searched: false, keyed: undefined, solr: 'publishPlace_str_mv', stored: 'document' },
  { name: 'physical', property: 'physicalDescriptions', multiValued: true, optional: true, searched: false, keyed: undefined, solr: 'physical', stored: 'document' },
] as const satisfies readonly RecordFieldRow[];

/** What a row of the table says (the columns above). */
export interface RecordFieldRow {
  readonly name: string;
  readonly property: string;
  readonly multiValued: boolean;
  readonly optional: boolean;
  readonly searched: boolean;
  readonly keyed: 'title' | 'uniformTitle' | 'name' | undefined;
  readonly solr: string;
  readonly stored: 'id' | 'last_indexed' | 'key_ids' | 'document';
}

export type RecordField = (typeof RECORD_FIELDS)[number];
export type RecordFieldName = RecordField['name'];
export type SingleValuedField = Extract<RecordField, { readonly multiValued: false }>;
export type MultiValuedField = Extract<RecordField, { readonly multiValued: true }>;

/** A field's value as a CatalogRecord holds it. */
type RecordValueOf<F extends RecordField> = F extends { readonly multiValued: true } ? readonly string[] : string;

/** The CatalogRecord properties, from the table (catalogRecord.ts names it). */
export type RecordProperties =
  & { readonly [F in RecordField as F['optional'] extends false ? F['property'] : never]: RecordValueOf<F> }
  & { readonly [F in RecordField as F['optional'] extends true ? F['property'] : never]?: RecordValueOf<F> };

/** The record document's fields the plugin reads, from the table: a list field may hold one string. */
export type RecordDocumentFields =
  & { id: string }
  & { [F in RecordField as F['name'] extends 'id' ? never : F['name']]?: F extends { readonly multiValued: true } ? string | string[] : string };

export const SINGLE_VALUED: readonly SingleValuedField[] = RECORD_FIELDS.filter((field): field is SingleValuedField => !field.multiValued);
export const MULTI_VALUED: readonly MultiValuedField[] = RECORD_FIELDS.filter((field): field is MultiValuedField => field.multiValued);
export const SINGLE_VALUED_FIELDS: ReadonlySet<string> = new Set(SINGLE_VALUED.map((f) => f.name));
export const MULTI_VALUED_FIELDS: ReadonlySet<string> = new Set(MULTI_VALUED.map((f) => f.name));

/** The fields the embedded index's search box looks words up in, in table order. */
export const SEARCHED_FIELD_NAMES: readonly RecordFieldName[] = RECORD_FIELDS.filter((field) => field.searched).map((field) => field.name);

export type KeyedField = Extract<RecordField, { readonly keyed: string }>;
const keyedAs = (role: KeyedField['keyed']): readonly KeyedField[] => RECORD_FIELDS.filter((field): field is KeyedField => field.keyed === role);

/** The fields work keys read, by what they make of them, each in table order. */
export const KEYED_FIELDS = { title: keyedAs('title'), uniformTitle: keyedAs('uniformTitle'), name: keyedAs('name') } as const;

/** The names of the fields work keys read, in table order (the `vufind` profile reads these and no other). */
export const KEYED_FIELD_NAMES: readonly RecordFieldName[] = RECORD_FIELDS.filter((field) => field.keyed !== undefined).map((field) => field.name);

/** The fields the embedded index keeps in its `document` column (the others have columns of their own). */
export const DOCUMENT_COLUMN_FIELD_NAMES: readonly RecordFieldName[] = RECORD_FIELDS.filter((field) => field.stored === 'document').map((field) => field.name);
