/**
 * What the work collection is made of, as the code needs to know it (docs/solr.md, "The work collection"):
 * where its configset is in the package, the name its schema carries (how a work collection is told from
 * any other collection), the fields the configset declares, and the id of its state document. The
 * configset itself (src/adapters/solr/work-collection-configset/conf/managed-schema.xml) is where each
 * field is defined and explained.
 */
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../../packageFiles.js';
import { FACET_FIELDS } from '../../../record/recordFacets.js';

/** The configset folder shipped in the package (package.json "files"): conf/solrconfig.xml and conf/managed-schema.xml. */
export const WORK_COLLECTION_CONFIGSET = join(PACKAGE_ROOT, 'src', 'adapters', 'solr', 'work-collection-configset');

/** The `name` of the configset's schema: a collection whose schema has another name is not a work collection. */
export const WORK_COLLECTION_SCHEMA_NAME = 'catalog-versions-work-collection';

/** The configset a work collection is made from is uploaded under this name followed by the collection's. */
export const WORK_COLLECTION_CONFIGSET_PREFIX = 'catalog-versions-work-';

/**
 * The id of the one document that is no record's: its `state` field holds, as JSON, the key profile the
 * collection is keyed with and how far the sync got. `~` sorts after the letters and digits of record ids,
 * so the id walks meet it last.
 */
export const WORK_COLLECTION_STATE_ID = '~catalog-versions-state';

/** The fields the sync writes and the answers read by name: a document's id, its work keys, its order time. */
export const WORK_COLLECTION_ID_FIELD = 'id';
export const WORK_COLLECTION_KEYS_FIELD = 'work_keys';
export const WORK_COLLECTION_ORDER_FIELD = 'ordered_at';

/** Each field of the schema with the type it is declared with and whether it is multi-valued. */
export const WORK_COLLECTION_FIELDS: Readonly<Record<string, { type: string; multiValued: boolean }>> = Object.freeze({
  [WORK_COLLECTION_ID_FIELD]: { type: 'string', multiValued: false },
  [WORK_COLLECTION_KEYS_FIELD]: { type: 'strings', multiValued: true },
  [WORK_COLLECTION_ORDER_FIELD]: { type: 'plong', multiValued: false },
  source_version: { type: 'plong', multiValued: false },
  // The facet values are kept under the page's own facet names (src/record/recordFacets.ts FACET_FIELDS).
  ...Object.fromEntries(FACET_FIELDS.map((field) => [field, { type: 'strings', multiValued: true }])),
  state: { type: 'string', multiValued: false },
});
