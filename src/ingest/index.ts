/**
 * `koa-catalog-versions/ingest`: loading a library's records into an index from code, as the
 * `catalog-versions` command does: readers (JSON Lines, MARC, OAI-PMH), the mapping to record documents,
 * and the pipeline that prepares and writes them.
 */
export { describePosition } from './sourceRecord.js';
export type { RecordPosition, SourceItem } from './sourceRecord.js';
