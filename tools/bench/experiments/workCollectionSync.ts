/**
 * Measures `sync --work-collection` (src/adapters/solr/workCollection/workCollectionSync.ts) on a real
 * SolrCloud, side by side in one run: fills an aggregator-shaped catalogue collection (two shards, the test
 * configsets) with generated records (catalogGenerator.ts, no work keys), then into fresh work collections
 * of 2 shards × 2 replicas (workCollectionAdmin.ts) times
 *
 * - `after`: the first walk of this checkout's sync;
 * - `before` (with --before CHECKOUT): the first walk of another checkout's sync, e.g. an unpacked
 *   `git archive main src package.json | tar -x -C /tmp/before` with node_modules linked beside it;
 * - `ceiling`: plain /update posts of the same collection documents (workCollectionDocument, made before
 *   the clock starts) in batches of the same size, one after another and then two at a time, and a commit:
 *   what Solr itself takes on this machine in this run;
 * - `read`: the sync's walk of the catalogue alone (its fields, its page size), writing nothing;
 *
 * then the collection's index bytes per document (one replica of each shard, after the sync's commit), a
 * run with no change, and the catalogue's document count and highest `_version_` before and after (the
 * sync only reads it). Machines shared with other work make the wall clock noisy: read the ratios.
 *
 *   eval "$(cat /tmp/solr.env)"   # or: eval "$(bash tools/solr/start.sh)"; SOLR_CLOUD_TEST_URL names the cloud
 *   npx tsx tools/bench/experiments/workCollectionSync.ts [records] [--rows N] [--before CHECKOUT] [--rounds N]
 *       [--keep-core] [--json]
 *
 * --rows N is the sync's page and the ceiling's batch (default: the sync's own default, 5000 if unset there).
 * --rounds N repeats before/after/ceiling N times, alternating, so noise falls on each alike.
 * --keep-core leaves a catalogue that already holds `records` documents as it is.
 * --json ends the output with one line of JSON (what runBench.ts reads).
 */
import { syncWorkCollection, walkReadParams, workCollectionDocument } from '../../../src/adapters/solr/workCollection/workCollectionSync.js';
import { createWorkCollection, deleteWorkCollection } from '../../../src/adapters/solr/workCollection/workCollectionAdmin.js';
import { DEFAULT_SOLR_FIELDS } from '../../../src/adapters/solr/solrIndexOptions.js';
import { facetFieldNamesOf } from '../../../src/adapters/solr/workIndex/documentFacets.js';
import { solrVersionOf } from '../../../src/adapters/solr/workIndex/documentOrder.js';
import { solrIndexVersionProbe } from '../../../src/adapters/solr/solrVersionWatch.js';
import { cursorPages, selectOn, withExactVersions } from '../../../src/adapters/solr/workIndex/syncReads.js';
import { STORED_KEY_FIELDS, storedFieldsRead } from '../../../src/work-keys/storedDocumentKeys.js';
import { solrCore, updateSolr } from '../../../test/support/realSolr.js';
import { generateRecords, planCatalog } from '../catalogGenerator.js';

const argv = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = argv.indexOf(name);
  return at < 0 ? undefined : argv[at + 1];
};
const records = Number(argv.find((arg, k) => /^\d+$/.test(arg) && (k === 0 || !argv[k - 1]!.startsWith('--'))) ?? 100_000);
const rows = option('--rows') === undefined ? undefined : Number(option('--rows'));
const batch = rows ?? 5000;
const rounds = Number(option('--rounds') ?? 1);
const beforeCheckout = option('--before');
const cloud = process.env.SOLR_CLOUD_TEST_URL?.trim().replace(/\/+$/, '');
if (cloud === undefined || cloud === '') throw new Error('set SOLR_CLOUD_TEST_URL (tools/solr/start.sh; a SolrCloud collection URL)');
const base = cloud.replace(/\/[^/]+$/, '');
const log = (line: string) => console.log(line);

const core = await solrCore({ name: 'solrcloud', base }, 'bench_work_collection_source', 'aggregator');
/** The fields a generated record keeps in an aggregator's core (never work keys: the sync makes them). */
const KEPT = ['id', 'title', 'title_short', 'title_uniform', 'author', 'author2', 'author_corporate', 'format', 'publishDate', 'url'];

async function ask(url: string, init?: RequestInit): Promise<Record<string, unknown>> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(600_000) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}: ${text.slice(0, 600)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** The catalogue's document count and highest `_version_` (what a write would move). */
async function coreFingerprint(): Promise<string> {
  const count = ((await ask(`${core}/select?q=*:*&rows=0&wt=json`)).response as { numFound: number }).numFound;
  const version = await solrIndexVersionProbe(selectOn({ url: new URL(core), display: core, timeoutMs: 60_000 }), core)();
  return `${count} documents, version ${String(version)}`;
}

async function post(url: string, body: unknown): Promise<void> {
  await ask(`${url}/update?wt=json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

if (argv.includes('--keep-core') && ((await ask(`${core}/select?q=*:*&rows=0&wt=json`)).response as { numFound: number }).numFound === records) {
  log(`catalogue ${core} already holds ${records} documents; kept`);
} else {
  await updateSolr(core, { delete: { query: '*:*' } });
  const filled = Date.now();
  let pending: Array<Record<string, unknown>> = [];
  let inFlight: Promise<void> = Promise.resolve();
  for (const record of generateRecords(planCatalog(records))) {
    pending.push(Object.fromEntries(Object.entries(record).filter(([name]) => KEPT.includes(name))));
    if (pending.length === 20_000) {
      await inFlight;
      inFlight = post(core, pending);
      pending = [];
    }
  }
  await inFlight;
  if (pending.length > 0) await post(core, pending);
  await updateSolr(core, { commit: {} });
  log(`filled the catalogue ${core} with ${records} documents in ${((Date.now() - filled) / 1000).toFixed(1)} s`);
}
const coreBefore = await coreFingerprint();

/** A fresh work collection of 2 shards × 2 replicas named `name` (one left by a stopped run is removed first). */
async function freshCollection(name: string): Promise<string> {
  await deleteWorkCollection({ solr: base, name }).catch(() => undefined);
  return (await createWorkCollection({ solr: base, name, shards: 2, replicas: 2 })).url;
}

/** Index bytes of the collection: one replica (the leader) of each shard, by the CoreAdmin STATUS of its node. */
async function indexBytes(name: string): Promise<number> {
  const status = await ask(`${base}/admin/collections?action=CLUSTERSTATUS&collection=${name}&wt=json`);
  const shards = ((status.cluster as { collections: Record<string, { shards: Record<string, { replicas: Record<string, Record<string, string>> }> }> }).collections[name]?.shards) ?? {};
  let bytes = 0;
  for (const shard of Object.values(shards)) {
    const leader = Object.values(shard.replicas).find((replica) => replica.leader === 'true');
    if (leader === undefined) throw new Error(`${name}: a shard without a leader`);
    const cores = await ask(`${leader.base_url}/admin/cores?action=STATUS&core=${encodeURIComponent(leader.core ?? '')}&wt=json`);
    bytes += Number((cores.status as Record<string, { index: { sizeInBytes: number } }>)[leader.core ?? '']?.index.sizeInBytes);
  }
  return bytes;
}

/** The collection documents of the whole catalogue, as the sync makes them (read and made before any clock starts). */
async function collectionDocuments(): Promise<Array<Record<string, unknown>>> {
  const facetNames = facetFieldNamesOf(DEFAULT_SOLR_FIELDS);
  const out: Array<Record<string, unknown>> = [];
  let cursor = '*';
  for (;;) {
    const body = new URLSearchParams({ q: '*:*', fl: '*,_version_', sort: 'id asc', rows: '10000', cursorMark: cursor, wt: 'json' });
    const response = await fetch(`${core}/select`, { method: 'POST', body, signal: AbortSignal.timeout(600_000) });
    const text = await response.text();
    const data = JSON.parse(text) as { response: { docs: Array<Record<string, unknown>> }; nextCursorMark: string };
    const digits = [...text.matchAll(/"_version_":(\d+)/g)].map((match) => match[1]!);
    data.response.docs.forEach((doc, k) => {
      const made = workCollectionDocument({ ...doc, _version_: digits[k] ?? solrVersionOf(doc) }, 'vufind', STORED_KEY_FIELDS, facetNames);
      if ('document' in made) out.push(made.document);
    });
    if (data.nextCursorMark === cursor) return out;
    cursor = data.nextCursorMark;
  }
}

type SyncFunction = typeof syncWorkCollection;
const syncs: Array<{ label: string; sync: SyncFunction }> = [];
if (beforeCheckout !== undefined) {
  const module = await import(`${beforeCheckout.replace(/\/+$/, '')}/src/adapters/solr/workCollection/workCollectionSync.ts`) as { syncWorkCollection: SyncFunction };
  syncs.push({ label: 'before', sync: module.syncWorkCollection });
}
syncs.push({ label: 'after', sync: syncWorkCollection });

const documents = await collectionDocuments();
const rates: Record<string, number[]> = {};
const note = (label: string, rate: number) => (rates[label] ??= []).push(rate);
let bytesPerDocument = Number.NaN;
for (let round = 1; round <= rounds; round++) {
  for (const { label, sync } of syncs) {
    const name = `bench_work_collection_${label}`;
    const url = await freshCollection(name);
    const started = performance.now();
    const summary = await sync({ url: core, workCollection: { url }, ...(rows === undefined ? {} : { rows }) });
    const seconds = (performance.now() - started) / 1000;
    note(label, summary.fetched / seconds);
    log(`round ${round} ${label}: first walk of ${summary.fetched} documents in ${seconds.toFixed(2)} s = ${Math.round(summary.fetched / seconds)} documents/s (held ${summary.held})`);
    if (label === 'after') {
      bytesPerDocument = await indexBytes(name) / summary.held;
      log(`  index: ${bytesPerDocument.toFixed(1)} bytes/document (one replica of each shard, after the sync's commit)`);
      const again = await sync({ url: core, workCollection: { url } });
      log(`  a run with no change: ${again.elapsedMs} ms (fetched ${again.fetched}, swept ${again.swept})`);
    }
    await deleteWorkCollection({ solr: base, name });
  }
  {
    const fl = [...new Set(['id', '_version_', 'last_indexed', ...storedFieldsRead(STORED_KEY_FIELDS), ...Object.values(facetFieldNamesOf(DEFAULT_SOLR_FIELDS))])].join(',');
    const select = selectOn({ url: new URL(core), display: core, timeoutMs: 600_000 });
    const started = performance.now();
    let read = 0;
    for await (const { page } of cursorPages(select, core, '*', 'read walk', (cursor) => walkReadParams('*:*', fl, batch, cursor))) read += withExactVersions(page).length;
    const seconds = (performance.now() - started) / 1000;
    note('read', read / seconds);
    log(`round ${round} read: the walk's reads alone, ${read} documents in pages of ${batch}: ${seconds.toFixed(2)} s = ${Math.round(read / seconds)} documents/s`);
  }
  for (const inFlight of [1, 2]) {
    const label = `ceiling-${inFlight}`;
    const name = `bench_work_collection_ceiling`;
    const url = await freshCollection(name);
    const started = performance.now();
    const writing = new Set<Promise<void>>();
    for (let at = 0; at < documents.length; at += batch) {
      if (writing.size >= inFlight) await Promise.race(writing);
      const sent = post(url, documents.slice(at, at + batch)).finally(() => writing.delete(sent));
      writing.add(sent);
    }
    await Promise.all(writing);
    await post(url, { commit: {} });
    const seconds = (performance.now() - started) / 1000;
    note(label, documents.length / seconds);
    log(`round ${round} ${label}: /update of ${documents.length} documents in batches of ${batch}, ${inFlight} at a time, and a commit: ${seconds.toFixed(2)} s = ${Math.round(documents.length / seconds)} documents/s`);
    await deleteWorkCollection({ solr: base, name });
  }
}
const coreAfter = await coreFingerprint();
const best = (label: string) => Math.max(...(rates[label] ?? [Number.NaN]));
const ceiling = Math.max(best('ceiling-1'), best('ceiling-2'));
log(`best of ${rounds} round(s), ${records} documents, batches of ${batch}: ${Object.keys(rates).map((label) => `${label} ${Math.round(best(label))}/s`).join(', ')}`);
// Read and write on the same Solr: on a machine without a spare core their times add up.
const serialBound = 1 / (1 / best('read') + 1 / best('ceiling-1'));
log(`  reads then writes, one after the other (1 / (1/read + 1/ceiling-1)): ${Math.round(serialBound)}/s; after/that ${(best('after') / serialBound).toFixed(2)}`);
log(`  after/ceiling ${(best('after') / ceiling).toFixed(2)}${rates.before === undefined ? '' : `, after/before ${(best('after') / best('before')).toFixed(1)}×, before/ceiling ${(best('before') / ceiling).toFixed(2)}`}`);
log(`catalogue before: ${coreBefore}; after: ${coreAfter}: ${coreBefore === coreAfter ? 'untouched' : 'CHANGED'}`);
if (argv.includes('--json')) {
  console.log(JSON.stringify({ records, batch, rounds, rates: Object.fromEntries(Object.keys(rates).map((label) => [label, best(label)])), ceiling, serialBound, bytesPerDocument, coreUntouched: coreBefore === coreAfter }));
}
