/**
 * Answers built afresh on a real Solr 9, two builds side by side in one run (issue 23, item 6): each build's
 * plugin on the Solr adapter with its own work index file (synced by that build's workIndexSync.ts from the
 * same VuFind core of the benchmark's catalog), and the bare-Koa ceiling, driven in alternating rounds at
 * 50 connections over records never asked before (disjoint slices of one shuffled mix, as runBench.ts draws
 * it: uniform records plus 5% from the largest works), RSS then HTML. Reported as ratios to the ceiling of
 * the same round, with the Solr requests each build's adapter made per answer (counted in its server, the
 * background version reads left out), and the CPU seconds the plugin's server and Solr's JVM spent per
 * answer (/proc), so that what is left of an answer's time is the round trips' waiting.
 *
 * With --designs, first the two ways of counting a work's facets without its records are timed one request
 * at a time on works of every size: the file's tally (this build's work index) and Solr's (`facet=true` over
 * the work's ids in a terms query, rows = the page), beside the whole-work read the answers made before.
 *
 * Needs a Solr of its own (SOLR_TEST_URL, tools/solr/start.sh). Builds are package roots with dist/ built.
 * Usage: node dist/tools/bench/experiments/solrFreshSideBySide.js --records N --a <root> --b <root> --ceiling-body <file>
 *          [--duration S] [--rounds N] [--designs] [--profile <dir>] [--keep] [--warmup S]
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGE_ROOT } from '../../../src/packageFiles.js';
import type { CatalogIndex } from '../../../src/ports.js';
import { solrCore } from '../../../test/support/realSolr.js';
import { DEFAULT_SEED, planCatalog, requestIds, sampleCatalog } from '../catalogGenerator.js';
import { figuresOf, fmt, newCaseResult, runLoad, type CaseResult } from '../loadDriver.js';
import { cpuSeconds, percentile, sortedCopy, type ListeningReport } from '../processStats.js';
import { fill, type ServerCounts } from '../solrServerCase.js';
import { option } from './benchCommandLine.js';
import { HTML_REQUEST_HEADERS } from '../benchRequests.js';
import { encodeSolrParams, solrPhrase } from '../../../src/adapters/solr/solrParams.js';
import { termsQuery } from '../../../src/adapters/solr/termsQuery.js';
import { openWorkIndex } from '../../../src/adapters/solr/workIndex/workIndexFile.js';

// The bench's own modules, one folder up: the ceiling and the plugin server run from there.
const BENCH = fileURLToPath(new URL('..', import.meta.url));
const EXTENSION = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
const CORE = 'bench_fresh_side_by_side';
const BASE_URL = 'https://catalog.example.org';

const say = (text: string) => process.stderr.write(`[solr fresh] ${text}\n`);
const path = (id: string, view: 'rss' | 'html') => `/Search/Versions?${new URLSearchParams({ id, search: 'versions', ...(view === 'rss' ? { view: 'rss' } : {}) })}`;

/** A bench module as a child: the ceiling (ceilingServer.ts) or a build's plugin server (solrServerCase.ts). */
function start(name: 'ceilingServer' | 'solrServerCase', args: readonly string[], profileDir?: string): ChildProcess {
  const execArgv = profileDir === undefined ? [...process.execArgv] : [...process.execArgv, '--cpu-prof', `--cpu-prof-dir=${profileDir}`];
  return fork(join(BENCH, `${name}${EXTENSION}`), [...args], { execArgv, stdio: ['ignore', 2, 2, 'ipc'] });
}

function driverSeconds(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1e6;
}

function message<T extends { type: string }>(child: ChildProcess, type: T['type'], send?: unknown): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${type} message`)), 120_000);
    const on = (value: { type?: string }) => {
      if (value.type !== type) return;
      clearTimeout(timer);
      child.off('message', on);
      resolve(value as T);
    };
    child.on('message', on);
    if (send !== undefined) child.send(send as object);
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.send({ type: 'stop' });
  await exited;
}

/** The two designs and the whole-work read, one request at a time, on records of works of every size. */
async function timeDesigns(url: string, rootB: string, fileA: string, rootA: string, fileB: string, ids: readonly string[]): Promise<void> {
  const importFrom = (root: string, module: string) => import(join(root, 'dist/src', module));
  const solrOf = async (root: string, file: string): Promise<CatalogIndex> => {
    const { createSolrIndex } = await importFrom(root, 'adapters/solr/solrIndex.js') as { createSolrIndex(options: unknown): CatalogIndex };
    return createSolrIndex({ url, workIndex: { path: file }, versionCheckMs: 0, timeoutMs: 60_000 });
  };
  const before = await solrOf(rootA, fileA);
  const after = await solrOf(rootB, fileB);
  const { openWorkIndex } = await importFrom(rootB, 'adapters/solr/workIndex/workIndexFile.js') as typeof import('../../../src/adapters/solr/workIndex/workIndexFile.js');
  const file = openWorkIndex({ path: fileB, keysOf: () => [] });
  const classes = [[1, 7], [8, 100], [101, 1000], [1001, Infinity]] as const;
  const times = new Map<string, number[]>();
  const note = (name: string, ms: number) => times.set(name, [...(times.get(name) ?? []), ms]);
  const timed = async (work: () => Promise<unknown>): Promise<number> => {
    const started = performance.now();
    await work();
    return performance.now() - started;
  };
  const facetFields = ['format', 'language', 'institution', 'building', 'publishDate'];
  for (const id of ids) {
    const record = await after.getRecord(id);
    if (record === undefined) continue;
    const query = { workKeys: record.workKeys, order: 'relevance', offset: 0, limit: 50, facets: true } as const;
    const size = file.findVersions({ workKeys: record.workKeys, order: 'relevance', offset: 0, limit: -1 });
    const sizeClass = classes.findIndex(([low, high]) => size.total >= low && size.total <= high);
    note(`old ${sizeClass}`, await timed(() => before.findVersions(query)));
    note(`a ${sizeClass}`, await timed(() => after.findVersions(query)));
    note(`tally ${sizeClass}`, await timed(async () => file.facetedVersions({ ...query, filters: [] })));
    // Design (b): Solr counts the work's facets over its ids (from the file) and returns the page.
    note(`b ${sizeClass}`, await timed(async () => {
      const params = new URLSearchParams([['q', `{!terms f=id}${size.ids.join(',')}`], ['rows', '50'], ['sort', 'id asc'], ['facet', 'true'],
        ...facetFields.map((field) => ['facet.field', field] as [string, string]), ['facet.limit', '-1'], ['facet.mincount', '1'], ['wt', 'json']]);
      const response = await fetch(`${url}/select`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: params.toString() });
      await response.json();
    }));
  }
  file.close();
  await before.close();
  await after.close();
  const labels = ['works of 1–7', 'works of 8–100', 'works of 101–1,000', 'works over 1,000'];
  console.log('findVersions with facets, one request at a time, median (p90) ms: whole-work read (before) | the file\'s tally and the page from Solr (a) | of which the file\'s part | Solr facets over the ids (b)');
  classes.forEach((_, k) => {
    const cell = (name: string) => {
      const sorted = sortedCopy(times.get(`${name} ${k}`) ?? []);
      return sorted.length === 0 ? '–' : `${fmt(percentile(sorted, 0.5), 2)} (${fmt(percentile(sorted, 0.9), 2)})`;
    };
    console.log(`  ${labels[k]} (${(times.get(`a ${k}`) ?? []).length} records): ${cell('old')} | ${cell('a')} | ${cell('tally')} | ${cell('b')}`);
  });
}

async function main(): Promise<void> {
  const records = Number(option('--records', '200000'));
  const rootA = resolve(option('--a'));
  const rootB = resolve(option('--b'));
  // --keep: work index files of an earlier run are synced (their changes only) instead of walked afresh.
  const keepFiles = process.argv.includes('--keep');
  const ceilingBody = option('--ceiling-body');
  const duration = Number(option('--duration', '8'));
  const rounds = Number(option('--rounds', '2'));
  // Seconds each build serves each view before the rounds (JIT of both servers and of Solr, Solr's caches), not counted.
  const warmUp = Number(option('--warmup', '0'));
  const profileIndex = process.argv.indexOf('--profile');
  const profileDir = profileIndex >= 0 ? process.argv[profileIndex + 1] : undefined;
  if (profileDir !== undefined) mkdirSync(profileDir, { recursive: true });
  const named = process.env.SOLR_TEST_URL?.trim().replace(/\/+$/, '');
  const solrPid = Number(process.env.SOLR_TEST_PID);
  if (named === undefined || named === '') throw new Error('needs SOLR_TEST_URL (and SOLR_TEST_PID) of a Solr of its own: eval "$(tools/solr/start.sh)"');
  const url = await solrCore({ name: 'standalone', base: named.replace(/\/[^/]+$/, '') }, CORE, 'vufind');
  say(`filling ${url} with ${fmt(records)} records`);
  const fillSeconds = await fill(url, records, DEFAULT_SEED);
  say(`filled in ${fmt(fillSeconds, 1)} s`);
  const folder = join(PACKAGE_ROOT, '.bench');
  mkdirSync(folder, { recursive: true });
  const files = { a: join(folder, `solr-fresh-a-${records}.sqlite`), b: join(folder, `solr-fresh-b-${records}.sqlite`) };
  for (const [name, root] of [['a', rootA], ['b', rootB]] as const) {
    if (!keepFiles) for (const suffix of ['', '-wal', '-shm']) rmSync(`${files[name]}${suffix}`, { force: true });
    const { syncWorkIndex } = await import(join(root, 'dist/src/adapters/solr/workIndex/workIndexSync.js')) as typeof import('../../../src/adapters/solr/workIndex/workIndexSync.js');
    const walk = await syncWorkIndex({ url, path: files[name] });
    say(`${name}: work index walk ${fmt(walk.fetched)} documents in ${fmt(walk.elapsedMs / 1000, 1)} s`);
  }

  const plan = planCatalog(records, DEFAULT_SEED);
  const wanted = Math.min(Math.floor(records * 0.75), 150_000);
  const ids = requestIds(sampleCatalog(plan, wanted, Math.max(20, Math.round(wanted / 19))), DEFAULT_SEED + 7);
  if (process.argv.includes('--designs')) {
    const spread = ids.filter((_, k) => k % Math.max(1, Math.floor(ids.length / 400)) === 0).slice(0, 400);
    await timeDesigns(url, rootB, files.a, rootA, files.b, spread);
  }
  const pool = ids.slice(500);

  const ceiling = start('ceilingServer', [ceilingBody]);
  const servers = {
    a: start('solrServerCase', ['plugin-server', url, files.a, BASE_URL, rootA]),
    b: start('solrServerCase', ['plugin-server', url, files.b, BASE_URL, rootB], profileDir),
  };
  try {
    const ports = {
      ceiling: (await message<ListeningReport>(ceiling, 'listening')).port,
      a: (await message<ListeningReport>(servers.a, 'listening')).port,
      b: (await message<ListeningReport>(servers.b, 'listening')).port,
    };
    // Per round: each view for each build, and Solr asked directly (below).
    const runs = rounds * 5 + (warmUp > 0 ? 4 : 0);
    const slice = Math.floor(pool.length / runs);
    let next = 0;
    const take = () => pool.slice(slice * next, slice * ++next);
    // Solr alone, asked as this build's getRecord asks it (the record with its work of at most 50, else the
    // record alone): what answers asking Solr once would reach with a plugin that cost nothing.
    const file = openWorkIndex({ path: files.b, keysOf: () => [] });
    const solrPath = (id: string) => {
      const work = file.workOfDocument(id, 50)?.ids;
      const params = work === undefined || work.length === 1 ? [['q', solrPhrase('id', id)], ['rows', '1']] as const : [['q', termsQuery('id', work)], ['rows', String(work.length)]] as const;
      return `${new URL(url).pathname}/select?${encodeSolrParams(params)}&wt=json`;
    };
    const solrPort = Number(new URL(url).port);
    const direct = { result: newCaseResult(), solr: 0, driver: 0 };
    let ceilingDriver = 0;
    const tallies = { ceiling: newCaseResult(), rss: { a: newCaseResult(), b: newCaseResult() }, html: { a: newCaseResult(), b: newCaseResult() } };
    const work = { rss: { a: { server: 0, solr: 0, questions: 0, served: 0 }, b: { server: 0, solr: 0, questions: 0, served: 0 } }, html: { a: { server: 0, solr: 0, questions: 0, served: 0 }, b: { server: 0, solr: 0, questions: 0, served: 0 } } };
    const drive = async (port: number, paths: readonly string[], headers: Record<string, string>, into: CaseResult, once: boolean) =>
      runLoad(port, { connections: 50, paths, headers, eachPathOnce: once }, duration, into);
    let repeats = 0;
    let ceilingCpu = 0;
    if (warmUp > 0) {
      for (const view of ['rss', 'html'] as const) {
        for (const build of ['a', 'b'] as const) {
          say(`warm-up: ${view}, build ${build}, ${warmUp} s`);
          await runLoad(ports[build], { connections: 50, paths: take().map((id) => path(id, view)), headers: view === 'html' ? HTML_REQUEST_HEADERS : {}, eachPathOnce: true }, warmUp, newCaseResult());
        }
      }
    }
    for (let round = 0; round < rounds; round++) {
      say(`round ${round + 1}/${rounds}: ceiling`);
      const ceilingBefore = cpuSeconds(ceiling.pid!);
      const driverBefore = process.cpuUsage();
      await drive(ports.ceiling, ['/'], {}, tallies.ceiling, false);
      ceilingCpu += cpuSeconds(ceiling.pid!) - ceilingBefore;
      ceilingDriver += driverSeconds(process.cpuUsage(driverBefore));
      say(`round ${round + 1}/${rounds}: Solr asked directly`);
      const solrBefore = Number.isInteger(solrPid) ? cpuSeconds(solrPid) : 0;
      const directDriverBefore = process.cpuUsage();
      await drive(solrPort, take().map(solrPath), {}, direct.result, true);
      direct.driver += driverSeconds(process.cpuUsage(directDriverBefore));
      await new Promise((resolve) => setTimeout(resolve, 2000));
      direct.solr += (Number.isInteger(solrPid) ? cpuSeconds(solrPid) : 0) - solrBefore;
      for (const view of ['rss', 'html'] as const) {
        for (const build of (round % 2 === 0 ? ['a', 'b'] : ['b', 'a']) as Array<'a' | 'b'>) {
          say(`round ${round + 1}/${rounds}: ${view} never asked before, build ${build}`);
          const paths = take().map((id) => path(id, view));
          const into = newCaseResult();
          const server = servers[build];
          const before = { server: cpuSeconds(server.pid!), solr: Number.isInteger(solrPid) ? cpuSeconds(solrPid) : 0, counts: await message<ServerCounts>(server, 'solr9-counts', { type: 'counts' }) };
          await drive(ports[build], paths, view === 'html' ? HTML_REQUEST_HEADERS : {}, into, true);
          await new Promise((resolve) => setTimeout(resolve, 2000));
          const counts = await message<ServerCounts>(server, 'solr9-counts', { type: 'counts' });
          const spent = work[view][build];
          spent.server += cpuSeconds(server.pid!) - before.server;
          spent.solr += (Number.isInteger(solrPid) ? cpuSeconds(solrPid) : 0) - before.solr;
          spent.questions += counts.questions - before.counts.questions;
          spent.served += counts.served - before.counts.served;
          repeats += Math.max(0, into.sent - paths.length);
          const total = tallies[view][build];
          total.responses += into.responses;
          total.failures += into.failures;
          total.seconds += into.seconds;
          total.latenciesMs.push(...into.latenciesMs);
        }
      }
    }
    const ceilingFigures = figuresOf(tallies.ceiling);
    console.log(`Solr 9 answers built afresh, ${fmt(records)} records, ${rounds} rounds of ${duration} s per case, 50 connections, builds alternating (a: ${rootA}, b: ${rootB})`);
    const ceilingCpuMs = (ceilingCpu / Math.max(1, tallies.ceiling.responses)) * 1000;
    const ceilingDriverMs = (ceilingDriver / Math.max(1, tallies.ceiling.responses)) * 1000;
    console.log(`  ceiling, bare Koa: ${fmt(ceilingFigures.rps)} req/s, p99 ${fmt(ceilingFigures.p99Ms, 2)} ms, CPU per answer ${fmt(ceilingCpuMs, 3)} ms (the load driver's ${fmt(ceilingDriverMs, 3)} ms)`);
    const directFigures = figuresOf(direct.result);
    const directSolrMs = (direct.solr / Math.max(1, direct.result.responses)) * 1000;
    console.log(`  Solr asked directly as getRecord asks it: ${fmt(directFigures.rps, 1)} req/s = ${fmt((directFigures.rps / ceilingFigures.rps) * 100, 2)}% of the ceiling; p99 ${fmt(directFigures.p99Ms, 1)} ms; `
      + `Solr CPU per request ${fmt(directSolrMs, 3)} ms, the load driver's ${fmt((direct.driver / Math.max(1, direct.result.responses)) * 1000, 3)} ms; failures ${directFigures.failures}`);
    console.log(`  bound from CPU per answer, one Solr request an answer, a plugin costing nothing beyond the ceiling: (ceiling + driver) / (ceiling + driver + Solr) = `
      + `${fmt(((ceilingCpuMs + ceilingDriverMs) / (ceilingCpuMs + ceilingDriverMs + directSolrMs)) * 100, 1)}%; ceiling / (ceiling + Solr) = ${fmt((ceilingCpuMs / (ceilingCpuMs + directSolrMs)) * 100, 1)}%`);
    for (const view of ['rss', 'html'] as const) {
      for (const build of ['a', 'b'] as const) {
        const f = figuresOf(tallies[view][build]);
        const spent = work[view][build];
        const answers = Math.max(1, spent.served);
        console.log(`  ${view} ${build}: ${fmt(f.rps, 1)} req/s = ${fmt((f.rps / ceilingFigures.rps) * 100, 2)}% of the ceiling; p50 ${fmt(f.p50Ms, 1)} ms, p99 ${fmt(f.p99Ms, 1)} ms (${fmt(f.p99Ms / ceilingFigures.p99Ms, 1)}× the ceiling's); `
          + `Solr requests per answer ${fmt(spent.questions / answers, 3)}; CPU per answer: plugin ${fmt((spent.server / answers) * 1000, 2)} ms, Solr ${fmt((spent.solr / answers) * 1000, 2)} ms; failures ${f.failures}`);
      }
    }
    // The bound: an answer costs at least the ceiling's own work plus Solr's for each request it sends, on
    // the same cores; with a plugin that cost nothing beyond the ceiling and one request an answer, the
    // share of the ceiling is at most ceiling / (ceiling + Solr per request).
    for (const view of ['rss', 'html'] as const) {
      const both = { solr: work[view].a.solr + work[view].b.solr, questions: work[view].a.questions + work[view].b.questions };
      const perRequestMs = (both.solr / Math.max(1, both.questions)) * 1000;
      console.log(`  ${view}: Solr CPU per request ${fmt(perRequestMs, 3)} ms (both builds) against the ceiling's ${fmt(ceilingCpuMs, 3)} ms an answer: `
        + `one request an answer and a plugin costing nothing beyond the ceiling reach at most ${fmt((ceilingCpuMs / (ceilingCpuMs + perRequestMs)) * 100, 1)}% of the ceiling`);
    }
    console.log(`  never-asked requests that came round again: ${repeats}`);
    file.close();
  } finally {
    await stop(ceiling);
    await stop(servers.a);
    await stop(servers.b);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().then(() => process.exit(0), (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
