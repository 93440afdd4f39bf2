/**
 * Names the package root exported in 0.1.0 that now live elsewhere, kept working for one release
 * (CHANGELOG.md, 0.2.0). The root loads neither index adapter nor the ingest pipeline, so the adapters'
 * names load their subpath's entry (src/entries/sqlite.ts, src/adapters/solr/index.ts) only when first
 * called, with a synchronous `require`, as their 0.1.0 signatures are: from Node 20.19 (the package's oldest)
 * `require` of an ES module gives the one copy `import` gives. A loader may give a copy of its own instead
 * (tsx, which runs the tests, does); the errors of either copy answer `instanceof` alike (src/errors.ts,
 * VersionsError). test/package/rootEntryLoads.test.ts holds what the built root loads.
 */
import { createRequire } from 'node:module';
import { resolveLanguage as resolveLanguageNow } from './i18n/resolveLanguage.js';
import { InvalidArgumentError } from './errors.js';
import type { WorkKeySource } from './work-keys/workKeys.js';
import { normaliseForWorkKey as normaliseNow, workKeysOf as workKeysOfNow } from './work-keys/workKeys.js';
import type { RecordDocument } from './record/catalogRecord.js';

export type { SolrIndexOptions, SolrFieldMap } from './adapters/solr/solrIndexOptions.js';
export type { EmbeddedIndex, EmbeddedIndexOptions, LoadOptions, LoadSummary, RejectedDocument } from './entries/sqlite.js';
export type { SolrWriterOptions, SolrWriter } from './adapters/solr/solrWriter.js';

type SqliteEntry = typeof import('./entries/sqlite.js');
type SolrEntry = typeof import('./adapters/solr/index.js');
const requireOnCall = createRequire(import.meta.url);
const sqliteEntry = () => requireOnCall('./entries/sqlite.js') as SqliteEntry;
const solrEntry = () => requireOnCall('./adapters/solr/index.js') as SolrEntry;

/** @deprecated Import it from `koa-catalog-versions/sqlite`. */
export const openEmbeddedIndex: SqliteEntry['openEmbeddedIndex'] = (options) => sqliteEntry().openEmbeddedIndex(options);
/** @deprecated Import it from `koa-catalog-versions/solr`. */
export const createSolrIndex: SolrEntry['createSolrIndex'] = (options) => solrEntry().createSolrIndex(options);
/** @deprecated Import it from `koa-catalog-versions/solr`. */
export const createSolrWriter: SolrEntry['createSolrWriter'] = (options) => solrEntry().createSolrWriter(options);
/** @deprecated Import it from `koa-catalog-versions/work-keys`. */
export const normaliseForWorkKey = normaliseNow;
/** @deprecated Import `workKeysOf` from `koa-catalog-versions/work-keys`. */
export const workKeysOfDocument = workKeysOfNow;

/**
 * @deprecated Import it from `koa-catalog-versions/work-keys`. One meaning with it: the same keys for a
 * record document; a 0.1.0 `CatalogRecord` (`authors`, `uniformTitles`, … as lists), which the subpath's
 * `workKeysOf` would read as a document with no names and key to `[]`, is refused here with an
 * InvalidArgumentError that says how to call it instead, so that no host loses versions silently.
 */
export function workKeysOf(record: Readonly<Partial<RecordDocument>> | null | undefined): string[] {
  if (typeof record === 'object' && record !== null && Array.isArray((record as Partial<WorkKeySource>).authors)
    && Array.isArray((record as Partial<WorkKeySource>).uniformTitles)) {
    throw new InvalidArgumentError(
      'workKeysOf', 'record',
      'a record document (VuFind field names); for a 0.1.0 CatalogRecord call workKeysOf from koa-catalog-versions/work-keys '
        + 'with { title, title_uniform: uniformTitles, author: authors, author2: secondaryAuthors, author_corporate: corporateAuthors }',
      record,
    );
  }
  return workKeysOfNow(record);
}

/** @deprecated The plugin resolves the language itself; this internal function leaves the public API. */
export function resolveLanguage(...args: Parameters<typeof resolveLanguageNow>): ReturnType<typeof resolveLanguageNow> {
  const [candidates, settings] = args;
  if (typeof candidates !== 'object' || candidates === null) {
    throw new InvalidArgumentError('resolveLanguage', 'candidates', 'an object ({ query, session, cookie, acceptLanguage })', candidates);
  }
  if (typeof settings !== 'object' || settings === null || !Array.isArray(settings.supported)) {
    throw new InvalidArgumentError('resolveLanguage', 'settings', 'an object with the supported language codes ({ supported: [...] , … })', settings);
  }
  return resolveLanguageNow(candidates, settings);
}
