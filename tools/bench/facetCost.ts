/**
 * Benchmark phase: what facets within a work cost (issue 21's target: "a 50-version work with 3 facets,
 * answers built afresh within 1.5× the time of the same page without facets, same run").
 *
 * One embedded index file holds a 50-version work whose versions carry three facet fields (format,
 * language, publication year, several values each) among a few thousand smaller works. Two plugins serve
 * it in this process, both without kept answers (their index hides contentVersion, so every answer is
 * built afresh): the page as it is (facets asked of the index and drawn beside the list), and the same
 * page without facets (an index that drops `facets` from the query, so the page is read as before facets
 * existed). Requests for the work's 50 records (HTML view, three languages) go to both over loopback
 * HTTP, alternating in blocks so machine noise falls on both alike; the time measured is the answer's
 * build inside the server (a first middleware's hrtime around everything else), not the HTTP exchange.
 * A second pair of figures is findVersions alone on the index, with and without facets (CPU time).
 *
 * The same on the plugin's Solr adapter (no work index) over a real Solr core, when one is named: both
 * variants then include Solr's own time (the page with facets reads the work's 50 documents, the page
 * without them 20).
 *
 * Usage: measureFacetCost() from runBench.ts, or alone: node dist/tools/bench/facetCost.js [rounds] [Solr core URL]
 * (npx tsx tools/bench/facetCost.ts [rounds] [Solr core URL]; the core is emptied and filled first).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Koa from 'koa';
import { openEmbeddedIndex } from '../../src/entries/sqlite.js';
import { createSolrIndex } from '../../src/adapters/solr/solrIndex.js';
import { createVersionsPlugin } from '../../src/http/createVersionsPlugin.js';
import type { CatalogIndex } from '../../src/ports.js';
import { fmt } from './loadDriver.js';
import { percentile, sortedCopy } from './processStats.js';

/** Versions of the measured work, and the ratio the issue allows. */
const WORK_SIZE = 50;
export const FACET_COST_GOAL = 1.5;
const OTHER_WORKS = 3000;
const BLOCK = 25;

export interface FacetCostReport {
  /** The index measured: the embedded index, or a real Solr core (the plugin's Solr adapter, no work index). */
  readonly engine: 'embedded index' | 'Solr';
  readonly requests: number;
  /** Median build time of an answer, ms: the page with facets, the same page without. */
  readonly withFacetsMs: number;
  readonly withoutFacetsMs: number;
  readonly ratio: number;
  /** findVersions alone (µs, median: CPU time on the embedded index, wall time on Solr, which does the work). */
  readonly findWithFacetsUs: number;
  readonly findWithoutFacetsUs: number;
  readonly findRatio: number;
}

const FORMATS = ['Book', 'eBook', 'Audio Book', 'Large Print'];
const LANGUAGES = ['por', 'eng', 'spa', 'fre'];

/** The measured work (three facet fields with several values each) and smaller works around it. */
function benchDocuments(): Record<string, unknown>[] {
  const work = Array.from({ length: WORK_SIZE }, (_, i) => ({
    id: `facet-work-${String(i + 1).padStart(3, '0')}`,
    title: i % 3 === 0 ? 'Dom Quixote de la Mancha' : 'Don Quijote de la Mancha',
    author: 'Cervantes Saavedra, Miguel de',
    format: i % 7 === 0 ? [FORMATS[i % 4]!, 'eBook'] : FORMATS[i % 4]!,
    language: i % 5 === 0 ? [LANGUAGES[i % 4]!, 'eng'] : [LANGUAGES[(i * 3) % 4]!],
    publishDate: String(1605 + i * 8),
    publisher: [`Editora ${i % 9}`],
    last_indexed: new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString(),
    work_keys_str_mv: ['AT cervantessaavedramiguelde donquijote'],
  }));
  const others = Array.from({ length: OTHER_WORKS }, (_, i) => ({
    id: `other-${i}`,
    title: `Other work ${i >> 1}`,
    author: `Author ${i % 97}`,
    format: FORMATS[i % 4]!,
    language: [LANGUAGES[i % 4]!],
    publishDate: String(1900 + (i % 120)),
    last_indexed: new Date(Date.UTC(2025, 1, 1, 0, 0, i % 60)).toISOString(),
    work_keys_str_mv: [`AT author${i % 97} otherwork${i >> 1}`],
  }));
  return [...others.slice(0, OTHER_WORKS / 2), ...work, ...others.slice(OTHER_WORKS / 2)];
}

/** The index as the plugin sees it, without contentVersion (nothing kept), optionally never asked for facets. */
function builtAfresh(index: CatalogIndex, facets: boolean): CatalogIndex {
  return {
    getRecord: (id) => index.getRecord(id),
    findVersions: (query) => index.findVersions(facets ? query : { ...query, facets: false }),
    countVersions: (ids) => index.countVersions(ids),
    close: async () => undefined,
  };
}

interface Served { port: number; timesMs: number[]; close(): Promise<void> }

async function serve(index: CatalogIndex, baseUrl: string): Promise<Served> {
  const timesMs: number[] = [];
  const app = new Koa();
  app.use(async (ctx, next) => {
    const started = process.hrtime.bigint();
    await next();
    if (ctx.status === 200) timesMs.push(Number(process.hrtime.bigint() - started) / 1e6);
  });
  app.use(createVersionsPlugin({ index, baseUrl }));
  const server = http.createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    timesMs,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function get(port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    }).on('error', reject);
  });
}

const median = (values: readonly number[]): number => percentile(sortedCopy(values), 0.5);

/** A Solr core holding exactly the benchmark's documents (their keys given, as a VuFind core has them). */
async function filledSolrCore(url: string): Promise<CatalogIndex> {
  for (const body of [{ delete: { query: '*:*' } }, benchDocuments()]) {
    const response = await fetch(`${url}/update?commit=true&wt=json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`facetCost: ${url}/update answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
  }
  return createSolrIndex({ url, versionCheckMs: 0 });
}

/** `solrUrl`: a Solr core the documents are written to (everything in it is deleted first); none: an embedded index file. */
export async function measureFacetCost(rounds = 40, solrUrl?: string): Promise<FacetCostReport> {
  const folder = mkdtempSync(join(tmpdir(), 'catalog-versions-facet-cost-'));
  try {
    let index: CatalogIndex;
    if (solrUrl === undefined) {
      const path = join(folder, 'facets.sqlite');
      const writer = openEmbeddedIndex({ path, create: true });
      await writer.load(benchDocuments());
      await writer.close();
      index = openEmbeddedIndex({ path, readOnly: true });
    } else {
      index = await filledSolrCore(solrUrl);
    }
    const baseUrl = 'http://catalog.example.edu';
    const withFacets = await serve(builtAfresh(index, true), baseUrl);
    const withoutFacets = await serve(builtAfresh(index, false), baseUrl);
    const paths = Array.from({ length: WORK_SIZE }, (_, i) => `/Search/Versions?id=facet-work-${String(i + 1).padStart(3, '0')}&search=versions&lng=${['en', 'pt-br', 'es'][i % 3]}`);

    // Both warmed up alike (templates compiled, statements prepared), then measured in alternating blocks.
    for (const served of [withFacets, withoutFacets]) for (const path of paths) await get(served.port, path);
    withFacets.timesMs.length = 0;
    withoutFacets.timesMs.length = 0;
    let requests = 0;
    for (let round = 0; round < rounds; round++) {
      for (let start = 0; start < paths.length; start += BLOCK) {
        const block = paths.slice(start, start + BLOCK);
        const order = (round + start / BLOCK) % 2 === 0 ? [withFacets, withoutFacets] : [withoutFacets, withFacets];
        for (const served of order) {
          for (const path of block) {
            const status = await get(served.port, path);
            if (status !== 200) throw new Error(`facetCost: ${path} answered ${status}`);
            requests++;
          }
        }
      }
    }
    await withFacets.close();
    await withoutFacets.close();

    // findVersions alone, same alternation, CPU time.
    const keys = (await index.getRecord('facet-work-001'))!.workKeys;
    const find = { with: [] as number[], without: [] as number[] };
    for (let round = 0; round < rounds * 10; round++) {
      for (const facets of round % 2 === 0 ? [true, false] : [false, true]) {
        const before = process.cpuUsage();
        const started = process.hrtime.bigint();
        const page = await index.findVersions({ workKeys: keys, order: 'relevance', offset: 0, limit: 20, ...(facets ? { facets: true } : {}) });
        const spent = process.cpuUsage(before);
        const wallUs = Number(process.hrtime.bigint() - started) / 1000;
        if (page.total !== WORK_SIZE) throw new Error(`facetCost: the work has ${page.total} versions, not ${WORK_SIZE}`);
        (facets ? find.with : find.without).push(solrUrl === undefined ? spent.user + spent.system : wallUs);
      }
    }
    await index.close();

    const withFacetsMs = median(withFacets.timesMs);
    const withoutFacetsMs = median(withoutFacets.timesMs);
    const findWithFacetsUs = median(find.with);
    const findWithoutFacetsUs = median(find.without);
    return {
      engine: solrUrl === undefined ? 'embedded index' : 'Solr',
      requests,
      withFacetsMs,
      withoutFacetsMs,
      ratio: withFacetsMs / withoutFacetsMs,
      findWithFacetsUs,
      findWithoutFacetsUs,
      findRatio: findWithFacetsUs / findWithoutFacetsUs,
    };
  } finally {
    agent.destroy();
    rmSync(folder, { recursive: true, force: true });
  }
}

export function facetCostLines(report: FacetCostReport): string[] {
  return [
    `Facets within a work (${report.engine}, a ${WORK_SIZE}-version work with 3 facet fields, every answer built afresh, ${fmt(report.requests)} HTML requests alternating):`,
    `  answer built: ${fmt(report.withFacetsMs, 2)} ms median with facets, ${fmt(report.withoutFacetsMs, 2)} ms without: ${fmt(report.ratio, 2)}× (goal ≤ ${FACET_COST_GOAL}×): ${report.ratio <= FACET_COST_GOAL ? 'PASS' : 'MISS'}`,
    `  findVersions alone: ${fmt(report.findWithFacetsUs)} µs ${report.engine === 'Solr' ? 'wall' : 'CPU'} median with facets, ${fmt(report.findWithoutFacetsUs)} µs without: ${fmt(report.findRatio, 2)}×`,
  ];
}

/** The target as a row of runBench's table. */
export function facetCostTarget(report: FacetCostReport): { name: string; measured: string; goal: string; pass: boolean } {
  return {
    name: `${WORK_SIZE}-version work with 3 facets / same page without, built afresh (${report.engine})`,
    measured: `${fmt(report.ratio, 2)}× (${fmt(report.withFacetsMs, 2)} / ${fmt(report.withoutFacetsMs, 2)} ms)`,
    goal: `<= ${FACET_COST_GOAL}×`,
    pass: report.ratio <= FACET_COST_GOAL,
  };
}

export function facetCostJson(report: FacetCostReport): Record<string, number> {
  return {
    facets_answer_ms: Math.round(report.withFacetsMs * 1000) / 1000,
    facets_absent_answer_ms: Math.round(report.withoutFacetsMs * 1000) / 1000,
    facets_answer_ratio: Math.round(report.ratio * 100) / 100,
    facets_find_ratio: Math.round(report.findRatio * 100) / 100,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rounds = process.argv[2] === undefined ? 40 : Number(process.argv[2]);
  measureFacetCost(rounds, process.argv[3]).then((report) => process.stdout.write(`${facetCostLines(report).join('\n')}\n`), (error: unknown) => {
    process.stderr.write(`facetCost failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    process.exit(1);
  });
}
