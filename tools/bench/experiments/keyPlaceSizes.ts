/**
 * What each place for the work keys costs on disk, per document, for the same generated catalogue
 * (catalogGenerator.ts), as docs/solr.md ("Choosing where the keys live") states it:
 *
 *   keys in the core     two VuFind-style cores (test/solr-configsets/vufind-biblio) filled with the same
 *                        documents, one with `work_keys_str_mv` (the `vufind` keys of each document's stored
 *                        fields, src/work-keys/storedDocumentKeys.ts) and one without; the difference of
 *                        their index sizes (CoreAdmin STATUS) per document;
 *   work index file      `syncWorkIndex` from the core without keys into a new file: its bytes (with the
 *                        WAL) per document held;
 *   work collection      `createWorkCollection` (one replica per shard) on the SolrCloud, `syncWorkCollection`
 *                        from the same core: the index sizes of one replica of each shard, summed, per
 *                        document held. More replicas hold as much again each.
 *
 * Solr sizes are read twice: as the load or sync left them (after its commit; segments not yet merged
 * and documents replaced by later writes still count), and after a forced merge into one segment each,
 * the least the same documents take.
 *
 *   eval "$(bash tools/solr/start.sh)"     (standalone Solr and a SolrCloud: SOLR_TEST_URL, SOLR_CLOUD_NODE_URLS)
 *   npx tsx tools/bench/experiments/keyPlaceSizes.ts --records 50000 [--shards 2] [--keep]
 *
 * The cores and the collection it makes (bench_key_place_*) are removed at the end unless --keep.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWorkCollection, deleteWorkCollection } from '../../../src/adapters/solr/workCollection/workCollectionAdmin.js';
import { syncWorkCollection } from '../../../src/adapters/solr/workCollection/workCollectionSync.js';
import { syncWorkIndex } from '../../../src/adapters/solr/workIndex/workIndexSync.js';
import { keysOf } from '../../../src/work-keys/storedDocumentKeys.js';
import { solrCore, solrTargets, updateSolr } from '../../../test/support/realSolr.js';
import { generateRecords, planCatalog } from '../catalogGenerator.js';
import { flag, option } from './benchCommandLine.js';

const records = Number(option('--records', '50000'));
const shards = Number(option('--shards', '2'));
const standalone = solrTargets().find((target) => target.name === 'standalone');
const cloudNode = process.env.SOLR_CLOUD_NODE_URLS?.split(',')[0]?.trim().replace(/\/+$/, '');
if (standalone === undefined || cloudNode === undefined || cloudNode === '') {
  throw new Error('set SOLR_TEST_URL and SOLR_CLOUD_NODE_URLS (eval "$(bash tools/solr/start.sh)")');
}

/** The fields a VuFind core of the generated catalogue keeps (as workIndexSync.ts's experiment keeps them). */
const KEPT = ['id', 'title', 'title_short', 'title_uniform', 'author', 'author2', 'author_corporate', 'format', 'publishDate', 'url', 'last_indexed'];

async function askJson(url: string, init?: RequestInit): Promise<Record<string, unknown>> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(1_800_000) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}: ${text.slice(0, 600)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

async function post(url: string, batch: Array<Record<string, unknown>>): Promise<void> {
  await askJson(`${url}/update?wt=json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(batch) });
}

/** The index size in bytes of one core, by its name, on the Solr at `base`. */
async function coreBytes(base: string, core: string): Promise<number> {
  const status = await askJson(`${base}/admin/cores?action=STATUS&core=${encodeURIComponent(core)}&wt=json`);
  const bytes = (status.status as Record<string, { index?: { sizeInBytes?: number } }>)[core]?.index?.sizeInBytes;
  if (typeof bytes !== 'number') throw new Error(`${base}: no index size for core ${core}`);
  return bytes;
}

/** One replica of each shard of a collection (the leader), summed: the collection's size before replication. */
async function collectionBytes(name: string): Promise<{ bytes: number; perShard: string }> {
  const status = await askJson(`${cloudNode}/admin/collections?action=CLUSTERSTATUS&collection=${encodeURIComponent(name)}&wt=json`);
  type Shards = Record<string, { replicas: Record<string, Record<string, string>> }>;
  const shardsOf = (status.cluster as { collections?: Record<string, { shards?: Shards }> }).collections?.[name]?.shards;
  if (shardsOf === undefined) throw new Error(`${cloudNode} gave no cluster status for ${name}`);
  let bytes = 0;
  const parts: string[] = [];
  for (const [shard, about] of Object.entries(shardsOf)) {
    const replica = Object.values(about.replicas).find((r) => r.leader === 'true') ?? Object.values(about.replicas)[0];
    if (replica?.base_url === undefined || replica.core === undefined) throw new Error(`${name}: no replica of ${shard} in the cluster status`);
    const size = await coreBytes(replica.base_url, replica.core);
    bytes += size;
    parts.push(`${shard} ${size}`);
  }
  return { bytes, perShard: parts.join(', ') };
}

async function forceMerge(url: string): Promise<void> {
  await askJson(`${url}/update?optimize=true&maxSegments=1&waitSearcher=true&wt=json`);
}

async function countOf(url: string): Promise<number> {
  return ((await askJson(`${url}/select?q=*:*&rows=0&wt=json`)).response as { numFound: number }).numFound;
}

const perDocument = (bytes: number, documents: number): string => (bytes / documents).toFixed(1);

const withoutKeys = await solrCore(standalone, 'bench_key_place_without', 'vufind');
const withKeys = await solrCore(standalone, 'bench_key_place_with', 'vufind');
const collectionName = 'bench_key_place_works';
const folder = mkdtempSync(join(tmpdir(), 'bench-key-place-'));
try {
  // Both cores get the same documents, the second with their keys.
  for (const url of [withoutKeys, withKeys]) await updateSolr(url, { delete: { query: '*:*' } });
  let keyed = 0;
  let keys = 0;
  let plain: Array<Record<string, unknown>> = [];
  let withTheirKeys: Array<Record<string, unknown>> = [];
  const flush = async () => {
    await Promise.all([post(withoutKeys, plain), post(withKeys, withTheirKeys)]);
    plain = [];
    withTheirKeys = [];
  };
  for (const record of generateRecords(planCatalog(records))) {
    const document = Object.fromEntries(Object.entries(record).filter(([name]) => KEPT.includes(name)));
    const { keys: made } = keysOf(document, 'vufind');
    plain.push(document);
    withTheirKeys.push(made.length > 0 ? { ...document, work_keys_str_mv: made } : document);
    if (made.length > 0) keyed++;
    keys += made.length;
    if (plain.length === 10_000) await flush();
  }
  if (plain.length > 0) await flush();
  for (const url of [withoutKeys, withKeys]) await updateSolr(url, { commit: {} });
  const documents = await countOf(withoutKeys);
  if (documents !== records || await countOf(withKeys) !== records) throw new Error(`the cores hold ${documents} and ${await countOf(withKeys)} documents, not ${records}`);
  console.log(`${records} generated documents, ${keyed} with keys, ${(keys / records).toFixed(2)} keys a document`);

  const coreDifference = async (when: string) => {
    const [a, b] = [await coreBytes(standalone.base, 'bench_key_place_without'), await coreBytes(standalone.base, 'bench_key_place_with')];
    console.log(`keys in the core (${when}): without ${a} bytes, with ${b} bytes: ${b - a} bytes = ${perDocument(b - a, records)} bytes/document`
      + ` (the core itself: ${perDocument(a, records)} bytes/document without keys)`);
  };
  await coreDifference('as loaded');

  const path = join(folder, 'work-index.sqlite');
  const file = await syncWorkIndex({ url: withoutKeys, path, keyProfile: 'vufind' });
  const fileBytes = statSync(path).size + (statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0);
  console.log(`work index file: ${fileBytes} bytes for ${file.held} documents = ${perDocument(fileBytes, file.held)} bytes/document (walk ${(file.elapsedMs / 1000).toFixed(1)} s)`);

  await deleteWorkCollection({ solr: cloudNode, name: collectionName }).catch(() => undefined);
  const shape = await createWorkCollection({ solr: cloudNode, name: collectionName, shards, replicas: 1 });
  const synced = await syncWorkCollection({ url: withoutKeys, workCollection: { url: shape.url }, keyProfile: 'vufind' });
  const collectionSize = async (when: string) => {
    const { bytes, perShard } = await collectionBytes(collectionName);
    console.log(`work collection (${when}, ${shards} shards, one replica each: ${perShard}): ${bytes} bytes for ${synced.held} documents = ${perDocument(bytes, synced.held)} bytes/document`);
  };
  console.log(`work collection sync: ${synced.fetched} documents in ${(synced.elapsedMs / 1000).toFixed(1)} s`);
  await collectionSize('as synced');

  for (const url of [withoutKeys, withKeys, shape.url]) await forceMerge(url);
  await coreDifference('one segment');
  await collectionSize('one segment per shard');
  console.log(`measured ${new Date().toISOString().slice(0, 10)}`);
} finally {
  rmSync(folder, { recursive: true, force: true });
  if (!flag('--keep')) {
    await deleteWorkCollection({ solr: cloudNode, name: collectionName }).catch((error: unknown) => console.error(`left ${collectionName}: ${String(error)}`));
    for (const core of ['bench_key_place_without', 'bench_key_place_with']) {
      await askJson(`${standalone.base}/admin/cores?action=UNLOAD&core=${core}&deleteIndex=true&deleteDataDir=true&deleteInstanceDir=true&wt=json`)
        .catch((error: unknown) => console.error(`left core ${core}: ${String(error)}`));
    }
  }
}
