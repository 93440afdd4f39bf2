/**
 * `koa-catalog-versions/sqlite`: the embedded index (SQLite, through better-sqlite3), for small catalogs,
 * the demo and tests. Importing the package root does not load it.
 */
export { openEmbeddedIndex } from './embeddedIndex.js';
export type { EmbeddedIndex, EmbeddedIndexOptions, LoadOptions, LoadSummary, RejectedDocument } from './embeddedIndex.js';
