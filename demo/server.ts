/**
 * `npm start`: runs the demo host (demoHost.ts) on one of two indexes and listens.
 *
 * - Without SOLR_URL: an in-memory embedded index, loaded at start with the demo catalog (or the JSON Lines
 *   file CATALOG_RECORDS); the home page suggests the records with the most versions, and the search box
 *   searches titles and authors through the index's searchRecords.
 * - With SOLR_URL: the Solr core at that URL, read through the Solr adapter; nothing is loaded (fill the
 *   core first, e.g. `catalog-versions load FILE.jsonl --solr URL`). The home page suggests FEATURED_IDS;
 *   the search box is hidden (the home page says why).
 *
 * Environment: PORT (default 3000), BASE_URL (default http://localhost:PORT), CATALOG_RECORDS, SOLR_URL,
 * FEATURED_IDS (comma-separated record ids for the home page; overrides the computed ones).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CatalogIndex } from 'koa-catalog-versions';
import { describeRejection, readJsonLines, runIngest } from 'koa-catalog-versions/ingest';
import { createSolrIndex } from 'koa-catalog-versions/solr';
import { openEmbeddedIndex } from 'koa-catalog-versions/sqlite';
import { createDemoHost, type DemoSearch } from './demoHost.js';

/** The demo catalog beside this file: demo/ when run from source, two folders up from dist/demo/ when built. */
function demoCatalogFile(): string {
  const beside = fileURLToPath(new URL('./demo-catalog.jsonl', import.meta.url));
  return existsSync(beside) ? beside : fileURLToPath(new URL('../../demo/demo-catalog.jsonl', import.meta.url));
}

const port = Number(process.env.PORT ?? 3000);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number, got ${JSON.stringify(process.env.PORT)}`);
  process.exit(1);
}
const baseUrl = (process.env.BASE_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
const solrUrl = process.env.SOLR_URL?.trim() || undefined;
const featuredFromEnv = process.env.FEATURED_IDS?.split(',').map((id) => id.trim()).filter((id) => id !== '');

interface DemoCatalog {
  readonly index: CatalogIndex;
  /** Records the home page suggests. */
  readonly featured: readonly string[];
  /** What to say once listening, e.g. how many records were loaded. */
  readonly startMessage: string;
  /** The search box's engine; a Solr core has none here (the demo hides the box and says so). */
  readonly search?: DemoSearch;
}

/** The embedded index, loaded from a JSON Lines file; bad lines are reported and skipped. */
async function openEmbeddedCatalog(): Promise<DemoCatalog> {
  const catalogFile = process.env.CATALOG_RECORDS ?? demoCatalogFile();
  const started = Date.now();
  const index = openEmbeddedIndex({ path: ':memory:' });
  const groups = new Map<string, string[]>();
  let problems = 0;
  const writer = index.openWriter();
  const summary = await runIngest({
    items: readJsonLines(catalogFile),
    toDocument: (record) => record,
    // Remember which records share a key, to suggest records with many versions on the home page.
    writer: {
      ...writer,
      put: (batch) => {
        for (const document of batch) for (const key of document.work_keys_str_mv ?? []) groups.set(key, [...(groups.get(key) ?? []), document.id]);
        return writer.put(batch);
      },
    },
    now: () => new Date(),
    onRejected: (rejection) => {
      problems += 1;
      console.warn(`${describeRejection(rejection.position, `skipped: ${rejection.reason}`)}`);
    },
  });
  const featured = [...groups.values()]
    .sort((a, b) => b.length - a.length)
    .map((ids) => ids[0] as string)
    .filter((id, i, all) => all.indexOf(id) === i)
    .slice(0, 12);
  return {
    index,
    featured,
    search: (text, options) => index.searchRecords(text, options),
    startMessage: `Loaded ${summary.loaded} records from ${catalogFile}${problems > 0 ? ` (${problems} skipped)` : ''} in ${Date.now() - started} ms`,
  };
}

/** The Solr core at SOLR_URL. One probe query says at start whether it answers; the demo starts either way,
 * as a host would, and shows the error page (503) while the core is down. */
async function openSolrCatalog(url: string): Promise<DemoCatalog> {
  if (process.env.CATALOG_RECORDS !== undefined) console.warn('CATALOG_RECORDS is ignored with SOLR_URL (load the core with catalog-versions load … --solr)');
  const index = createSolrIndex({ url, logger: { warn: (message) => console.warn(message) } });
  const display = url.replace(/\/\/[^/@]*@/, '//');
  let startMessage = `Using the Solr core ${display}`;
  try {
    await index.getRecord(featuredFromEnv?.[0] ?? 'catalog-versions-demo-probe');
  } catch (error) {
    startMessage += `; it does not answer yet (${(error as Error).message}), so pages show the error page until it does`;
  }
  return { index, featured: [], startMessage };
}

try {
  const catalog = solrUrl !== undefined ? await openSolrCatalog(solrUrl) : await openEmbeddedCatalog();
  const featured = featuredFromEnv ?? catalog.featured;
  const app = createDemoHost({ index: catalog.index, baseUrl, featuredIds: featured, ...(catalog.search ? { search: catalog.search } : {}) });
  const server = app.listen(port, () => {
    console.log(catalog.startMessage);
    console.log(`Demo catalog listening on ${baseUrl}/`);
    const first = featured[0];
    if (first !== undefined) {
      console.log(`Open first: ${baseUrl}/Search/Versions?${new URLSearchParams({ id: first, search: 'versions' })}`);
    }
  });
  const stop = () => server.close(() => void catalog.index.close().then(() => process.exit(0)));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (error) {
  console.error(`Could not start the demo: ${(error as Error).message}`);
  process.exit(1);
}
