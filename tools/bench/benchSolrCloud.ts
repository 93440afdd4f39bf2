/**
 * The SolrCloud the benchmark's work-collection case measures on (workCollectionCase.ts), and the
 * aggregator collection it fills there: found as the tests find it (SOLR_CLOUD_TEST_URL, a collection URL
 * of a cloud started by tools/solr/start.sh, and SOLR_CLOUD_NODE_URLS), the collection made from the test
 * configset `vufind-biblio` with its aggregator schema (test/solr-configsets/vufind-biblio: an OAI-PMH
 * aggregator's core, no work keys, `_version_` without docValues), as test/support/realSolr.ts makes
 * collections; the benchmark does not import the tests, so the few requests are written here again.
 * Left to others: the work collection (src/adapters/solr/workCollection/workCollectionAdmin.ts).
 */
import { generateRecords, planCatalog } from './catalogGenerator.js';

export interface BenchSolrCloud {
  /** A node's base URL, `http://host:port/solr`. */
  readonly base: string;
  /** Every node's base URL. */
  readonly nodes: readonly string[];
}

/** The SolrCloud named by SOLR_CLOUD_TEST_URL, or why there is none. */
export function solrCloudToMeasure(): BenchSolrCloud | { skipped: string } {
  const named = process.env.SOLR_CLOUD_TEST_URL?.trim().replace(/\/+$/, '');
  if (named === undefined || named === '') return { skipped: 'no SolrCloud named (SOLR_CLOUD_TEST_URL, as eval "$(tools/solr/start.sh)" sets it)' };
  const base = named.replace(/\/[^/]+$/, '');
  const nodes = (process.env.SOLR_CLOUD_NODE_URLS ?? '').split(',').map((url) => url.trim().replace(/\/+$/, '')).filter((url) => url !== '');
  return { base, nodes: nodes.length > 0 ? nodes : [base] };
}

/** A GET's JSON; fails on any HTTP error, quoting Solr. */
export async function askSolrJson(url: string, timeoutMs = 300_000): Promise<Record<string, unknown>> {
  const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}: ${text.slice(0, 600)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** Collection names of the cloud. */
export async function collectionNames(base: string): Promise<string[]> {
  const list = await askSolrJson(`${base}/admin/collections?action=LIST&wt=json`);
  return Array.isArray(list.collections) ? list.collections.filter((name): name is string => typeof name === 'string') : [];
}

/** The URL of the aggregator collection `name` (two shards, one replica each), made when missing. */
export async function aggregatorCollection(cloud: Pick<BenchSolrCloud, 'base'>, name: string): Promise<string> {
  if (!(await collectionNames(cloud.base)).includes(name)) {
    const q = encodeURIComponent;
    await askSolrJson(`${cloud.base}/admin/collections?action=CREATE&name=${q(name)}&numShards=2&replicationFactor=1`
      + '&collection.configName=vufind-biblio&property.schema=aggregator-schema.xml&waitForFinalState=true&wt=json');
  }
  return `${cloud.base}/${name}`;
}

/** What a generated record keeps in the aggregator's core: no work keys, and no `last_indexed` (its documents never carry one). */
const AGGREGATOR_FIELDS = new Set(['id', 'title', 'title_short', 'title_uniform', 'author', 'author2', 'author_corporate', 'format', 'publishDate', 'url']);

export async function documentCount(url: string): Promise<number> {
  const data = await askSolrJson(`${url}/select?q=*:*&rows=0&wt=json`);
  return Number((data.response as { numFound?: unknown } | undefined)?.numFound ?? Number.NaN);
}

async function postUpdate(url: string, body: unknown, commit: boolean): Promise<void> {
  const response = await fetch(`${url}/update?wt=json${commit ? '&commit=true' : ''}`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(600_000),
  });
  if (!response.ok) throw new Error(`${url}/update answered HTTP ${response.status}: ${(await response.text()).slice(0, 300)}`);
}

/**
 * The benchmark's catalog (catalogGenerator.ts, the records and ids the embedded index is built from) into
 * the collection, in large batches, one commit at the end. A collection already holding that many
 * documents is kept (a cloud kept running): `filled` says whether it was filled now, and in how long.
 */
export async function fillAggregator(url: string, records: number, seed: number): Promise<{ filled: boolean; seconds: number }> {
  const started = performance.now();
  if (await documentCount(url) === records) return { filled: false, seconds: 0 };
  await postUpdate(url, { delete: { query: '*:*' } }, true);
  let batch: Array<Record<string, unknown>> = [];
  let inFlight = Promise.resolve();
  for (const record of generateRecords(planCatalog(records, seed))) {
    batch.push(Object.fromEntries(Object.entries(record).filter(([name]) => AGGREGATOR_FIELDS.has(name))));
    if (batch.length === 10_000) {
      await inFlight;
      inFlight = postUpdate(url, batch, false);
      batch = [];
    }
  }
  await inFlight;
  if (batch.length > 0) await postUpdate(url, batch, false);
  await postUpdate(url, { commit: {} }, false);
  return { filled: true, seconds: (performance.now() - started) / 1000 };
}
