/**
 * Measures the work index sync (src/adapters/solr/workIndex/workIndexSync.ts) on a real Solr: fills a core
 * without work keys with generated records (catalogGenerator.ts), then times the first walk, an
 * incremental run with no change, the file's bytes per document, and reads the core's update statistics
 * before and after the syncs (they must not move). The figures of the latest measurement are in docs/benchmarks.md ("Work index sync").
 *
 *   eval "$(bash tools/solr/start.sh)"
 *   npx tsx tools/bench/experiments/workIndexSync.ts [records] [--schema vufind|aggregator] [--key-profile vufind|extended]
 *       [--rows N] [--walks N] [--limit N] [--keep-core]
 *   kill $SOLR_TEST_PID
 *
 * --schema vufind (default) fills a core of VuFind's biblio schema (test/solr-configsets/vufind-biblio;
 * `last_indexed` present, no `work_keys_str_mv`); aggregator, the aggregator-shaped one (no `last_indexed`).
 * --keep-core leaves a core that already holds `records` documents as it is (filling 1,000,000 takes
 * minutes). --walks N makes N first walks into fresh files, to see how much the figure moves. --limit N
 * stops each walk after about N documents (to compare changes quickly on a large core).
 *
 * Beside the wall-clock rate it prints the CPU seconds Node and Solr (SOLR_TEST_PID, /proc) spent in the
 * walk: on a machine shared with other work the wall clock says little, the CPU per document more.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { syncWorkIndex } from '../../../src/adapters/solr/workIndex/workIndexSync.js';
import type { WorkKeyProfileName } from '../../../src/work-keys/workKeyProfiles.js';
import { solrCore, solrTargets, updateSolr } from '../../../test/support/realSolr.js';
import { generateRecords, planCatalog } from '../catalogGenerator.js';

const argv = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = argv.indexOf(name);
  return at < 0 ? undefined : argv[at + 1];
};
const records = Number(argv.find((arg, k) => /^\d+$/.test(arg) && (k === 0 || !argv[k - 1]!.startsWith('--'))) ?? 100_000);
const schema = (option('--schema') ?? 'vufind') as 'vufind' | 'aggregator';
const keyProfile = (option('--key-profile') ?? 'vufind') as WorkKeyProfileName;
const rows = option('--rows') === undefined ? undefined : Number(option('--rows'));
const walks = Number(option('--walks') ?? 1);
const limit = option('--limit') === undefined ? undefined : Number(option('--limit'));
const target = solrTargets()[0];
if (target === undefined) throw new Error('set SOLR_TEST_URL (tools/solr/start.sh)');
const url = await solrCore(target, `bench_work_index_${schema}`, schema);

/** The fields a generated record keeps in each shape of core (never work keys: the sync makes them). */
const KEPT = schema === 'vufind'
  ? ['id', 'title', 'title_short', 'title_uniform', 'author', 'author2', 'author_corporate', 'format', 'publishDate', 'url', 'last_indexed']
  : ['id', 'title', 'title_short', 'title_uniform', 'author', 'author2', 'author_corporate', 'format', 'publishDate', 'url'];

async function countOf(): Promise<number> {
  const data = await (await fetch(`${url}/select?q=*:*&rows=0&wt=json`)).json() as { response: { numFound: number } };
  return data.response.numFound;
}

/** Posts a batch without committing (one commit at the end). */
async function post(batch: Array<Record<string, unknown>>): Promise<void> {
  const response = await fetch(`${url}/update?wt=json`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(batch), signal: AbortSignal.timeout(600_000),
  });
  if (!response.ok) throw new Error(`${url}/update answered HTTP ${response.status}: ${(await response.text()).slice(0, 600)}`);
}

if (argv.includes('--keep-core') && await countOf() === records) {
  console.log(`core ${url} already holds ${records} documents; kept`);
} else {
  await updateSolr(url, { delete: { query: '*:*' } });
  const filled = Date.now();
  let batch: Array<Record<string, unknown>> = [];
  let inFlight: Promise<void> = Promise.resolve();
  let sent = 0;
  for (const record of generateRecords(planCatalog(records))) {
    batch.push(Object.fromEntries(Object.entries(record).filter(([name]) => KEPT.includes(name))));
    if (batch.length === 20_000) {
      // One batch on the wire while the next is generated.
      await inFlight;
      inFlight = post(batch);
      sent += batch.length;
      batch = [];
      if (sent % 100_000 === 0) console.log(`  posted ${sent} in ${((Date.now() - filled) / 1000).toFixed(0)} s`);
    }
  }
  await inFlight;
  if (batch.length > 0) await post(batch);
  await updateSolr(url, { commit: {} });
  console.log(`filled ${await countOf()} documents in ${((Date.now() - filled) / 1000).toFixed(1)} s`);
}

/** The core's update statistics: requests served by /update, and documents added and deleted by its update handler. */
async function updateStatistics(): Promise<{ requests: number; adds: number; deletes: number }> {
  const data = await (await fetch(`${url}/admin/mbeans?cat=UPDATE&stats=true&wt=json`)).json() as { 'solr-mbeans': unknown[] };
  const beans = data['solr-mbeans'][1] as Record<string, { stats: Record<string, number> }>;
  const handler = beans.updateHandler?.stats ?? {};
  return {
    requests: Number(beans['/update']?.stats['UPDATE./update.requests'] ?? Number.NaN),
    adds: Number(handler['UPDATE.updateHandler.cumulativeAdds.count'] ?? Number.NaN),
    deletes: Number(handler['UPDATE.updateHandler.cumulativeDeletesById.count'] ?? 0) + Number(handler['UPDATE.updateHandler.cumulativeDeletesByQuery.count'] ?? 0),
  };
}

/** CPU seconds of this process and of Solr's (SOLR_TEST_PID) so far. */
function cpuSeconds(): { node: number; solr: number } {
  const usage = process.cpuUsage();
  let solr = Number.NaN;
  try {
    const fields = readFileSync(`/proc/${process.env.SOLR_TEST_PID}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    solr = (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    // no Solr process of ours to read
  }
  return { node: (usage.user + usage.system) / 1e6, solr };
}

const folder = mkdtempSync(join(tmpdir(), 'bench-work-index-'));
try {
  const before = await updateStatistics();
  let path = '';
  for (let walk = 1; walk <= walks; walk++) {
    path = join(folder, `work-index-${walk}.sqlite`);
    const cpuBefore = cpuSeconds();
    const started = performance.now();
    let done = 0;
    const summary = await syncWorkIndex({
      url, path, keyProfile, ...(rows === undefined ? {} : { rows }),
      onProgress: (progress) => {
        done = progress.done;
        if (limit !== undefined && progress.done >= limit) throw new Error('limit');
      },
    }).catch((error: unknown) => {
      if ((error as Error).message !== 'limit') throw error;
      return { fetched: done, elapsedMs: performance.now() - started, unkeyable: {}, held: done };
    });
    const cpu = cpuSeconds();
    const [node, solr] = [cpu.node - cpuBefore.node, cpu.solr - cpuBefore.solr];
    console.log(`  CPU: Node ${node.toFixed(1)} s (${(node / summary.fetched * 1e6).toFixed(0)} µs/document), Solr ${solr.toFixed(1)} s (${(solr / summary.fetched * 1e6).toFixed(0)} µs/document)`);
    console.log(`walk ${walk} (${schema} core, ${keyProfile} keys${rows === undefined ? '' : `, rows ${rows}`}): ${summary.fetched} documents in ${(summary.elapsedMs / 1000).toFixed(2)} s`
      + ` = ${Math.round(summary.fetched / (summary.elapsedMs / 1000))} documents/s; unkeyable ${JSON.stringify(summary.unkeyable)}`);
    const bytes = statSync(path).size + (statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0);
    console.log(`  file: ${bytes} bytes = ${(bytes / summary.held).toFixed(1)} bytes/document`);
  }
  // A walk stopped at --limit would be resumed by another run.
  for (let run = 1; run <= (limit === undefined ? 3 : 0); run++) {
    const again = await syncWorkIndex({ url, path, keyProfile });
    console.log(`no-change run ${run}: ${again.elapsedMs} ms (fetched ${again.fetched}, swept ${again.swept})`);
  }
  const after = await updateStatistics();
  console.log(`core update statistics before ${JSON.stringify(before)}, after ${JSON.stringify(after)}: `
    + (JSON.stringify(before) === JSON.stringify(after) ? 'no writes' : 'CHANGED'));
} finally {
  rmSync(folder, { recursive: true, force: true });
}
