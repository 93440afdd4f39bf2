/**
 * `npm start`: runs the demo host (demoHost.ts) on one of two indexes and listens.
 *
 * - Without SOLR_URL: the embedded index (demoCatalog.ts): in memory, loaded at start with the demo catalog
 *   or the record file CATALOG_RECORDS (JSON Lines, MARC 21 or MARCXML, recognised from its content), or
 *   the index file CATALOG_INDEX read as it is; the search box searches titles and authors through the
 *   index's searchRecords, and the home page suggests the index's largest works and a few records alone in
 *   theirs (and, for CATALOG_RECORDS or CATALOG_INDEX, describes that catalog: records, works, key profile).
 * - With SOLR_URL: the Solr core at that URL, read through the Solr adapter; nothing is loaded (fill the
 *   core first, e.g. `catalog-versions load FILE.jsonl --solr URL`). The home page suggests FEATURED_IDS;
 *   the search box is hidden (the home page says why).
 *
 * Environment: PORT (default 3000), BASE_URL (default http://localhost:PORT), CATALOG_RECORDS, CATALOG_INDEX,
 * CATALOG_KEY_PROFILE (the work-key profile records are loaded with: extended, the default, or vufind), SOLR_URL,
 * FEATURED_IDS (comma-separated record ids for the home page; overrides the computed ones).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createSolrIndex } from 'koa-catalog-versions/solr';
import { DemoCatalogError, openEmbeddedCatalog, type DemoCatalog, type DemoKeyProfile, type EmbeddedSource } from './demoCatalog.js';
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

/** The embedded catalog's source: CATALOG_INDEX, CATALOG_RECORDS or the demo records (demoCatalog.ts). */
function embeddedSource(): EmbeddedSource {
  const indexFile = process.env.CATALOG_INDEX?.trim() || undefined;
  const records = process.env.CATALOG_RECORDS?.trim() || undefined;
  if (indexFile !== undefined && records !== undefined) {
    throw new DemoCatalogError('give CATALOG_RECORDS (a record file to load) or CATALOG_INDEX (an index file to read), not both');
  }
  const keyProfile = process.env.CATALOG_KEY_PROFILE?.trim() || 'extended';
  return indexFile !== undefined ? { indexFile } : { records: records ?? demoCatalogFile(), keyProfile: keyProfile as DemoKeyProfile };
}

/** The Solr core at SOLR_URL. One probe query says at start whether it answers; the demo starts either way,
 * as a host would, and shows the error page (503) while the core is down. */
async function openSolrCatalog(url: string): Promise<DemoCatalog> {
  if (process.env.CATALOG_RECORDS !== undefined || process.env.CATALOG_INDEX !== undefined) {
    console.warn('CATALOG_RECORDS and CATALOG_INDEX are ignored with SOLR_URL (load the core with catalog-versions load … --solr)');
  }
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

/** Why the demo cannot listen on PORT, and what to set instead. */
function listenProblem(error: NodeJS.ErrnoException): string {
  const alsoBaseUrl = process.env.BASE_URL !== undefined ? ', and BASE_URL to match' : '';
  if (error.code === 'EADDRINUSE') {
    const other = port === 65535 ? 3000 : port + 1;
    return `port ${port} is already in use (another program listens there). Stop it, or set another port: PORT=${other} npm start${alsoBaseUrl}`;
  }
  if (error.code === 'EACCES') return `port ${port} needs privileges this user does not have. Set a port above 1023: PORT=3000 npm start${alsoBaseUrl}`;
  return `cannot listen on port ${port}: ${error.message}`;
}

try {
  const catalog = solrUrl !== undefined ? await openSolrCatalog(solrUrl) : await openEmbeddedCatalog(embeddedSource());
  const featured = featuredFromEnv ?? catalog.featured;
  // A library's own records or index is described on the home page; the demo records keep their own words.
  const ownCatalog = process.env.CATALOG_RECORDS?.trim() || process.env.CATALOG_INDEX?.trim();
  const app = createDemoHost({
    index: catalog.index, baseUrl, featuredIds: featured,
    ...(catalog.alone ? { aloneIds: catalog.alone } : {}),
    ...(ownCatalog && catalog.facts ? { catalogFacts: catalog.facts } : {}),
    ...(catalog.search ? { search: catalog.search } : {}),
  });
  const server = app.listen(port, () => {
    console.log(catalog.startMessage);
    console.log(`Demo catalog listening on ${baseUrl}/`);
    const first = featured[0];
    if (first !== undefined) {
      console.log(`Open first: ${baseUrl}/Search/Versions?${new URLSearchParams({ id: first, search: 'versions' })}`);
    }
  });
  // A port already taken (or one the user may not open) is the usual first-run problem: say which port
  // and what to set, without a stack trace, and exit non-zero.
  server.on('error', (error: NodeJS.ErrnoException) => {
    console.error(`Could not start the demo: ${listenProblem(error)}`);
    void catalog.index.close().finally(() => process.exit(1));
  });
  const stop = () => server.close(() => void catalog.index.close().then(() => process.exit(0)));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (error) {
  console.error(`Could not start the demo: ${error instanceof DemoCatalogError ? error.message : (error as Error).stack ?? error}`);
  process.exit(1);
}
