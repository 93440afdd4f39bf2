/**
 * koa-catalog-versions: what a host catalog app imports from the package root. The plugin factory, its
 * options, the index port it reads through, and the named errors. The index adapters and the work keys
 * have subpaths of their own (`/sqlite`, `/solr`, `/work-keys`, `/ingest`), so a host loads only what it uses.
 */
export { createVersionsPlugin } from './http/createVersionsPlugin.js';
export type { VersionsPlugin, HostLabels, VersionsLink } from './http/createVersionsPlugin.js';
export { checkIndexHealth, watchIndexFile } from './http/indexHealth.js';
export type { IndexHealth, IndexHealthStatus, IndexHealthOptions, WatchedIndexFile } from './http/indexHealth.js';
export type { VersionsPluginOptions, PluginLogger } from './http/pluginOptions.js';
export type { CatalogIndex, VersionsQuery, RecordVersionsQuery, VersionsPage, VersionsOrder } from './ports.js';
export type { CatalogRecord, RecordDocument } from './record/catalogRecord.js';
export type { ServerTimeZone } from './feed/rfc822Date.js';
export {
  VersionsError, RecordNotFoundError, MissingRecordIdError, IndexUnavailableError, IndexFileMissingError, InvalidOptionError, InvalidRecordDocumentError,
  InvalidArgumentError, InvalidCallError, MalformedMarcError, UnrecognisedRecordFileError, OaiError, OaiRequestError,
  MalformedOaiResponseError,
} from './errors.js';
export { UnknownCuratedRecordError, UnknownCurationDecisionError, InvalidCurationFileError, KeyProfileMismatchError } from './errors.js';
export { WorkCollectionError } from './errors.js';
export { IngestStoppedError } from './errors.js';
export type { VersionsErrorCode } from './errors.js';
export * from './deprecatedExports.js';
