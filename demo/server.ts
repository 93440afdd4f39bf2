/**
 * `npm start`: runs the demo host (demoHost.ts) on one of two indexes and listens.
 *
 * - Without SOLR_URL: an in-memory embedded index, loaded at start with the demo catalog (or the JSON Lines
 *   file CATALOG_RECORDS); the home page suggests the records with the most versions.
 * - With SOLR_URL: the Solr core at that URL, read through the Solr adapter; nothing is loaded (fill the
 *   core first, e.g. `catalog-versions load FILE.jsonl --solr URL`). The home page suggests FEATURED_IDS.
 *
 * Environment: PORT (default 3000), BASE_URL (default http://localhost:PORT), CATALOG_RECORDS, SOLR_URL,
 * FEATURED_IDS (comma-separated record ids for the home page; overrides the computed ones).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CatalogIndex } from '../src/versions/catalogIndex.js';
import { openEmbeddedIndex } from '../src/adapters/sqlite/embeddedIndex.js';
import { createSolrIndex } from '../src/adapters/solr/solrIndex.js';
import { readJsonLines } from '../src/ingest/readers/jsonLinesReader.js';
import { workKeysOfDocument } from '../src/work-keys/workKeys.js';
import { createDemoHost } from './demoHost.js';

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
}

/** The embedded index, loaded from a JSON Lines file; bad lines are reported and skipped. */
async function openEmbeddedCatalog(): Promise<DemoCatalog> {
  const catalogFile = process.env.CATALOG_RECORDS ?? demoCatalogFile();
  const started = Date.now();
  const index = openEmbeddedIndex({ path: ':memory:' });
  const lineOf: number[] = [];
  const groups = new Map<string, string[]>();
  let problems = 0;
  const report = (line: number | undefined, reason: string) => {
    problems += 1;
    console.warn(`${catalogFile}:${line ?? '?'}: skipped: ${reason}`);
  };

  async function* documents() {
    for await (const { line, value } of readJsonLines(catalogFile, (problem) => report(problem.line, problem.reason))) {
      lineOf.push(line);
      const doc = value as { id?: unknown; work_keys_str_mv?: unknown };
      if (typeof doc?.id === 'string') {
        // Remember which records share a key, to suggest records with many versions on the home page.
        try {
          const keys = Array.isArray(doc.work_keys_str_mv) ? doc.work_keys_str_mv : workKeysOfDocument(value as never);
          for (const key of keys) groups.set(String(key), [...(groups.get(String(key)) ?? []), doc.id]);
        } catch { /* the index reports the bad document */ }
      }
      yield value;
    }
  }

  const summary = await index.load(documents(), { onRejected: ({ position, reason }) => report(lineOf[position - 1], reason) });
  const featured = [...groups.values()]
    .sort((a, b) => b.length - a.length)
    .map((ids) => ids[0] as string)
    .filter((id, i, all) => all.indexOf(id) === i)
    .slice(0, 12);
  return {
    index,
    featured,
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
  const app = createDemoHost({ index: catalog.index, baseUrl, featuredIds: featured });
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
