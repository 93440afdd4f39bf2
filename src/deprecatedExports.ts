/**
 * Names the package root exported in 0.1.0 that now live elsewhere, kept working for one release
 * (CHANGELOG.md, 0.2.0). None of them loads better-sqlite3 or solr-client until it is called.
 */
import { openEmbeddedIndex as openEmbeddedIndexNow } from './adapters/sqlite/index.js';
import { createSolrIndex as createSolrIndexNow } from './adapters/solr/solrIndex.js';
import { createSolrWriter as createSolrWriterNow } from './adapters/solr/solrWriter.js';
import { resolveLanguage as resolveLanguageNow } from './i18n/resolveLanguage.js';
import type { WorkKeySource } from './work-keys/workKeys.js';
import { normaliseForWorkKey as normaliseNow, workKeysOf as workKeysOfNow, workKeysOfRecord } from './work-keys/workKeys.js';
import type { RecordDocument } from './record/catalogRecord.js';

export type { EmbeddedIndex, EmbeddedIndexOptions, LoadOptions, LoadSummary, RejectedDocument } from './adapters/sqlite/index.js';
export type { SolrIndexOptions, SolrFieldMap } from './adapters/solr/solrIndex.js';
export type { SolrWriterOptions, SolrWriter } from './adapters/solr/solrWriter.js';

/** @deprecated Import it from `koa-catalog-versions/sqlite`. */
export const openEmbeddedIndex = openEmbeddedIndexNow;
/** @deprecated Import it from `koa-catalog-versions/solr`. */
export const createSolrIndex = createSolrIndexNow;
/** @deprecated Import it from `koa-catalog-versions/solr`. */
export const createSolrWriter = createSolrWriterNow;
/** @deprecated The plugin resolves the language itself; this internal function leaves the public API. */
export const resolveLanguage = resolveLanguageNow;
/** @deprecated Import it from `koa-catalog-versions/work-keys`. */
export const normaliseForWorkKey = normaliseNow;
/** @deprecated Import `workKeysOf` from `koa-catalog-versions/work-keys`. */
export const workKeysOfDocument = workKeysOfNow;

/**
 * @deprecated Import it from `koa-catalog-versions/work-keys`, where it takes a record document. Here it
 * also still takes the 0.1.0 argument, a CatalogRecord (`authors`, `uniformTitles`, … as lists).
 */
export function workKeysOf(record: Readonly<Partial<RecordDocument>> | WorkKeySource | null | undefined): string[] {
  if (typeof record === 'object' && record !== null && Array.isArray((record as Partial<WorkKeySource>).authors)
    && Array.isArray((record as Partial<WorkKeySource>).uniformTitles)) {
    const shape = record as WorkKeySource;
    return workKeysOfRecord({
      ...(typeof shape.title === 'string' ? { title: shape.title } : {}),
      uniformTitles: shape.uniformTitles ?? [],
      authors: shape.authors ?? [],
      secondaryAuthors: Array.isArray(shape.secondaryAuthors) ? shape.secondaryAuthors : [],
      corporateAuthors: Array.isArray(shape.corporateAuthors) ? shape.corporateAuthors : [],
    });
  }
  return workKeysOfNow(record as Readonly<Partial<RecordDocument>>);
}
