/**
 * koa-catalog-versions: the names a host catalog app imports.
 */
export { createVersionsPlugin } from './http/createVersionsPlugin.js';
export type { VersionsPluginOptions, PluginLogger } from './config.js';
export { openEmbeddedIndex } from './index/embeddedIndex.js';
export type { EmbeddedIndex, EmbeddedIndexOptions, LoadOptions, LoadSummary, RejectedDocument } from './index/embeddedIndex.js';
export { createSolrIndex } from './index/solrIndex.js';
export type { SolrIndexOptions, SolrFieldMap } from './index/solrIndex.js';
export { createSolrWriter } from './index/solrWriter.js';
export type { SolrWriterOptions, SolrWriter } from './index/solrWriter.js';
export type { CatalogIndex, VersionsQuery, VersionsPage, VersionsOrder } from './index/catalogIndex.js';
export type { CatalogRecord, RecordDocument } from './core/catalogRecord.js';
export { workKeysOf, workKeysOfDocument, normaliseForWorkKey } from './core/workKeys.js';
export { resolveLanguage } from './core/resolveLanguage.js';
export type { ServerTimeZone } from './core/rfc822Date.js';
export {
  VersionsError, RecordNotFoundError, MissingRecordIdError, IndexUnavailableError, InvalidOptionError, InvalidRecordDocumentError,
} from './core/errors.js';
export type { VersionsErrorCode } from './core/errors.js';
