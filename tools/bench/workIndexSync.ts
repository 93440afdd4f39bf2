/**
 * Measures the work index sync (src/adapters/solr/workIndex/workIndexSync.ts) on a real Solr: fills an
 * aggregator-shaped core (no work keys, no last_indexed) with generated records (catalogGenerator.ts),
 * then times the first walk, an incremental run with no change, and the file's bytes per document.
 * Figures go to docs/benchmarks.md.
 *
 *   eval "$(bash tools/solr/start.sh)"; npx tsx tools/bench/workIndexSync.ts [records]; kill $SOLR_TEST_PID
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { syncWorkIndex } from '../../src/adapters/solr/workIndex/workIndexSync.js';
import { solrCore, solrTargets, updateSolr } from '../../test/indexBehaviour/realSolr.js';
import { generateRecords, planCatalog } from './catalogGenerator.js';

const records = Number(process.argv[2] ?? 100_000);
const target = solrTargets()[0];
if (target === undefined) throw new Error('set SOLR_TEST_URL (tools/solr/start.sh)');
const url = await solrCore(target, 'bench_work_index', 'aggregator');
await updateSolr(url, { delete: { query: '*:*' } });
const KEPT = ['id', 'title', 'title_short', 'title_uniform', 'author', 'author2', 'author_corporate', 'format', 'publishDate', 'url'];
let batch: Record<string, unknown>[] = [];
const filled = Date.now();
for (const record of generateRecords(planCatalog(records))) {
  batch.push(Object.fromEntries(Object.entries(record).filter(([name]) => KEPT.includes(name))));
  if (batch.length === 5000) { await updateSolr(url, batch); batch = []; }
}
if (batch.length > 0) await updateSolr(url, batch);
console.log(`filled ${records} documents in ${((Date.now() - filled) / 1000).toFixed(1)} s`);

const folder = mkdtempSync(join(tmpdir(), 'bench-work-index-'));
try {
  const path = join(folder, 'work-index.sqlite');
  const walk = await syncWorkIndex({ url, path });
  console.log(`walk: ${walk.fetched} documents in ${(walk.elapsedMs / 1000).toFixed(2)} s = ${Math.round(walk.fetched / (walk.elapsedMs / 1000))} documents/s; unkeyable ${JSON.stringify(walk.unkeyable)}`);
  const again = await syncWorkIndex({ url, path });
  console.log(`no-change run: ${again.elapsedMs} ms (fetched ${again.fetched}, swept ${again.swept})`);
  const bytes = statSync(path).size + (statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0);
  console.log(`file: ${bytes} bytes = ${(bytes / walk.held).toFixed(1)} bytes/document`);
} finally {
  rmSync(folder, { recursive: true, force: true });
}
