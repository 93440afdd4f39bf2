/**
 * `koa-catalog-versions/solr`: the Solr adapter (reads a VuFind-style `biblio` core) and the Solr writer
 * (fills one). Importing the package root does not load solr-client.
 */
export { createSolrIndex } from './solrIndex.js';
export { DEFAULT_SOLR_FIELDS } from './solrIndexOptions.js';
export type { SolrIndexOptions, SolrFieldMap, SolrIndexLogger } from './solrIndexOptions.js';
export { createSolrWriter, solrIngestWriter } from './solrWriter.js';
export type { SolrWriterOptions, SolrWriter, SolrAddResult, RejectedSolrDocument } from './solrWriter.js';
export { syncWorkIndex, keepWorkIndexInStep } from './workIndex/workIndexSync.js';
export type { WorkIndexSyncOptions, WorkIndexSyncSummary, WorkIndexSyncProgress } from './workIndex/workIndexSync.js';
export type { SolrWorkIndexOptions } from './workIndex/workIndexAnswers.js';
export { syncWorkCollection } from './workCollection/workCollectionSync.js';
export type { WorkCollectionSyncOptions, WorkCollectionSyncSummary } from './workCollection/workCollectionSync.js';
export { STORED_KEY_FIELDS } from '../../work-keys/storedDocumentKeys.js';
