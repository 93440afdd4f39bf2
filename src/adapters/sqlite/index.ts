/**
 * `koa-catalog-versions/sqlite`: the embedded index (SQLite, through better-sqlite3), for small catalogs,
 * the demo and tests. Importing the package root does not load it.
 *
 * The index's own module (embeddedIndex.ts) speaks only the ports; this entry adds the `load` method
 * 0.1.0 hosts call, which runs the ingest pipeline (src/ingest/loadDocuments.ts), until it is removed.
 */
import { openEmbeddedIndex as openIndex, type EmbeddedIndex as IndexOfPorts, type EmbeddedIndexOptions } from './embeddedIndex.js';
import { withDocumentLoading, type DocumentLoading } from '../../ingest/loadDocuments.js';

/** The embedded index, with the 0.1.0 `load` method (deprecated: `loadDocuments` from `koa-catalog-versions/ingest`). */
export interface EmbeddedIndex extends IndexOfPorts, DocumentLoading {}

export function openEmbeddedIndex(options: EmbeddedIndexOptions): EmbeddedIndex {
  return withDocumentLoading(openIndex(options));
}

export type { EmbeddedIndexOptions, RecordSearchResult } from './embeddedIndex.js';
/** @deprecated Import these from `koa-catalog-versions/ingest`. */
export type { LoadOptions, LoadSummary, RejectedDocument } from '../../ingest/loadDocuments.js';
