/**
 * `koa-catalog-versions/sqlite`: the embedded index (SQLite, through better-sqlite3), for small catalogs,
 * the demo and tests. Importing the package root does not load it.
 *
 * The index's own module (src/adapters/sqlite/embeddedIndex.ts, `openSqliteIndex`) speaks only the ports;
 * this entry adds the `load` method 0.1.0 hosts call, which runs the ingest pipeline
 * (src/ingest/loadDocuments.ts), until it is removed. It sits above both src/adapters/ and src/ingest/
 * (the layer table in test/package/importGraph.test.ts), so that the adapter never imports the pipeline.
 */
import { openSqliteIndex, type SqliteIndex, type EmbeddedIndexOptions } from '../adapters/sqlite/embeddedIndex.js';
import { withDocumentLoading, type DocumentLoading } from '../ingest/loadDocuments.js';

/** The embedded index, with the 0.1.0 `load` method (deprecated: `loadDocuments` from `koa-catalog-versions/ingest`). */
export interface EmbeddedIndex extends SqliteIndex, DocumentLoading {}

export function openEmbeddedIndex(options: EmbeddedIndexOptions): EmbeddedIndex {
  return withDocumentLoading(openSqliteIndex(options));
}

export type { EmbeddedIndexOptions, RecordSearchResult } from '../adapters/sqlite/embeddedIndex.js';
/** @deprecated Import these from `koa-catalog-versions/ingest`. */
export type { LoadOptions, LoadSummary, RejectedDocument } from '../ingest/loadDocuments.js';
