/**
 * The one table of record fields: every field of a record document the plugin reads, whether it holds one
 * value or a list, and the CatalogRecord property it becomes. Validation and reading (catalogRecord.ts),
 * what counts as changed content (recordContent.ts), and the Solr adapter and writer (their default field
 * names are these names, VuFind's `biblio` schema) all read this table; docs/record-documents.md
 * describes the fields for people.
 *
 * To add a field: a row here, the property in CatalogRecord, then whatever view shows it.
 */

export const RECORD_FIELDS = [
  { name: 'id', multiValued: false, property: 'id' },
  { name: 'title', multiValued: false, property: 'title' },
  { name: 'title_short', multiValued: false, property: 'shortTitle' },
  { name: 'title_uniform', multiValued: true, property: 'uniformTitles' },
  { name: 'author', multiValued: true, property: 'authors' },
  { name: 'author2', multiValued: true, property: 'secondaryAuthors' },
  { name: 'author_corporate', multiValued: true, property: 'corporateAuthors' },
  { name: 'format', multiValued: true, property: 'formats' },
  { name: 'publishDate', multiValued: true, property: 'publishDates' },
  { name: 'last_indexed', multiValued: false, property: 'lastIndexed' },
  { name: 'url', multiValued: true, property: 'urls' },
  { name: 'work_keys_str_mv', multiValued: true, property: 'workKeys' },
  // Where a version is held or comes from (VuFind's facets): the page shows it under each version.
  { name: 'institution', multiValued: true, property: 'institutions' },
  { name: 'building', multiValued: true, property: 'buildings' },
] as const;

export type RecordFieldName = (typeof RECORD_FIELDS)[number]['name'];
export type RecordField = (typeof RECORD_FIELDS)[number];

export const RECORD_FIELD_NAMES: readonly RecordFieldName[] = RECORD_FIELDS.map((field) => field.name);
export const SINGLE_VALUED_FIELDS: ReadonlySet<string> = new Set(RECORD_FIELDS.filter((f) => !f.multiValued).map((f) => f.name));
export const MULTI_VALUED_FIELDS: ReadonlySet<string> = new Set(RECORD_FIELDS.filter((f) => f.multiValued).map((f) => f.name));
