/**
 * Benchmark phase: versions from a work collection on a SolrCloud (issue 35), side by side in one run with
 * the embedded index and with a work index file. Runs when a SolrCloud is named (benchSolrCloud.ts:
 * SOLR_CLOUD_TEST_URL, as tools/solr/start.sh sets it), else reports itself skipped.
 *
 * On the cloud it fills an aggregator's collection (two shards, no work keys) with the benchmark's catalog
 * (catalogGenerator.ts, the records of the embedded index), makes a work collection beside it
 * (createWorkCollection: two shards unless told otherwise, two replicas) and syncs it (syncWorkCollection); both are kept for
 * the next run while the catalog is the same. Then, each server in a process of its own
 * (workCollectionServer.ts, versionsServer.ts):
 *
 * 1. A second app server's first answer: a new process on `createSolrIndex({ url, workCollection })`, from
 *    its start to its first feed, against one on the file path, which first syncs its own work index file
 *    from the whole core (`sync --work-index`) and then answers.
 * 2. Kept answers: the plugin on the work collection (the adapter's defaults: answers kept once the
 *    background reads have confirmed the core's and the collection's versions) and on the embedded index,
 *    RSS and HTML over the asked-again records, alternating with runBench.ts's bare-Koa ceiling at 50
 *    connections; the target is the collection's share of the ceiling over the embedded index's.
 * 3. Answers built afresh: the work collection against the work index file over the same core, both with
 *    `versionCheckMs: 0` (nothing kept, no version reads, so every adapter debug line is a request an answer
 *    made), over records never asked before, alternating in rounds; the Solr requests per answer, the
 *    server's CPU per answer and the Solr JVM's (SOLR_TEST_PID; other users of that Solr included).
 * 4. Where an answer's time goes: a few hundred such answers one at a time through a forwarder that notes
 *    Solr's upstream time and QTime per collection and handler, beside the adapter's own times.
 *
 * Usage: measureWorkCollectionCase(…) from runBench.ts. Alone (builds or reuses the embedded index of the
 * same N and seed in .bench, starts its own ceiling):
 *   node dist/tools/bench/workCollectionCase.js [--records N] [--duration S] [--seed N] [--work-shards N]
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createWorkCollection, deleteWorkCollection } from '../../src/adapters/solr/workCollection/workCollectionAdmin.js';
import { syncWorkCollection } from '../../src/adapters/solr/workCollection/workCollectionSync.js';
import { PACKAGE_ROOT } from '../../src/packageFiles.js';
import { HTML_REQUEST_HEADERS } from './benchRequests.js';
import { aggregatorCollection, collectionNames, fillAggregator, solrCloudToMeasure } from './benchSolrCloud.js';
import { DEFAULT_SEED, planCatalog, requestIds, sampleCatalog } from './catalogGenerator.js';
import { figuresOf, fmt, newCaseResult, type CaseResult, type HttpFigures } from './loadDriver.js';
import { cpuSeconds, type ListeningReport } from './processStats.js';
import { confirmKeptAnswers, drive, fetchAll, type BenchChildren, type SolrPhaseSettings } from './solrPhaseDriving.js';
import type { WorkCollectionServerCounts, WorkCollectionServerWalk } from './workCollectionServer.js';
import { table, workCollectionCaseJson, workCollectionCaseLines, workCollectionCaseTargets } from './workCollectionReport.js';
import { messageFrom, stopChild } from './benchChildren.js';

export interface WorkCollectionCaseSettings extends SolrPhaseSettings {
  /** The catalog (catalogGenerator.ts), as the embedded index was built from it. */
  readonly records: number;
  readonly seed: number;
  /** Where the work index file goes (runBench's .bench directory). */
  readonly folder: string;
  /** The embedded index of the same catalog (versionsServer.ts serves it for the kept-answer reference). */
  readonly indexPath: string;
  /** Shards of the work collection (default 2; each count has a collection of its own). */
  readonly workShards?: number;
}

type View = 'rss' | 'html';
type Source = 'collection' | 'file';

/** An answer built afresh, per source and view: its HTTP figures, requests and CPU per answer. */
export interface FreshFigures {
  readonly http: HttpFigures;
  readonly questionsPerAnswer: number;
  readonly serverCpuMsPerAnswer: number;
  /** CPU of the Solr JVM per answer (SOLR_TEST_PID; NaN without it): every user of that Solr is in it. */
  readonly solrCpuMsPerAnswer: number;
}

/** One source's answers built one at a time through the tracing forwarder. */
export interface TraceFigures {
  readonly answers: number;
  /** Mean time per answer as the client saw it. */
  readonly answerMs: number;
  readonly counts: WorkCollectionServerCounts;
}

export type WorkCollectionCase =
  | {
    readonly ok: true;
    readonly records: number;
    readonly workShards: number;
    readonly core: string;
    readonly collection: string;
    readonly fillSeconds: number | undefined;
    /** The sync into the work collection this run: a first walk, or the changes since the last run. */
    readonly collectionSync: { readonly seconds: number; readonly fetched: number; readonly firstWalk: boolean };
    readonly firstAnswer: {
      readonly collection: { readonly totalMs: number; readonly startMs: number; readonly answerMs: number };
      readonly file: { readonly totalMs: number; readonly walkMs: number; readonly documents: number; readonly answerMs: number };
    };
    readonly ceiling: HttpFigures;
    readonly kept: Readonly<Record<View, { readonly collection: HttpFigures; readonly embedded: HttpFigures }>>;
    /** Server CPU per kept answer, µs. */
    readonly keptCpuUs: Readonly<Record<View, { readonly collection: number; readonly embedded: number }>>;
    readonly fresh: Readonly<Record<View, Readonly<Record<Source, FreshFigures>>>>;
    readonly trace: Readonly<Record<Source, TraceFigures>>;
    readonly coldRepeats: number;
    readonly loadAverage: readonly [number, number];
  }
  | { readonly ok: false; readonly skipped: boolean; readonly error: string };

const CATALOG = 'bench_wc_answers_catalog';
const WORKS = 'bench_wc_answers_works';
const DEFAULT_WORK_SHARDS = 2;
/** Answers per source and view traced one at a time (step 4). */
const TRACED = 150;

const HERE = fileURLToPath(new URL('.', import.meta.url));
const EXTENSION = import.meta.url.endsWith('.ts') ? '.ts' : '.js';

function progress(text: string): void {
  process.stderr.write(`[bench] work collection: ${text}\n`);
}

const pathOf = (id: string, view: View) => `/Search/Versions?${new URLSearchParams({ id, search: 'versions', ...(view === 'rss' ? { view: 'rss' } : {}) })}`;
const headersOf = (view: View) => (view === 'html' ? HTML_REQUEST_HEADERS : {});

/** The catalog and the work collection on the cloud, filled and synced; the collection made anew when the catalog was. */
async function prepareCloud(settings: WorkCollectionCaseSettings, cloud: { base: string }) {
  const core = await aggregatorCollection(cloud, CATALOG);
  progress(`filling ${core} with ${fmt(settings.records)} records (no work keys), unless it holds them already`);
  const fill = await fillAggregator(core, settings.records, settings.seed);
  if (fill.filled) progress(`filled in ${fmt(fill.seconds, 1)} s`);
  const shards = settings.workShards ?? DEFAULT_WORK_SHARDS;
  const works = shards === DEFAULT_WORK_SHARDS ? WORKS : `${WORKS}_${shards}`;
  const names = await collectionNames(cloud.base);
  if (names.includes(works) && fill.filled) await deleteWorkCollection({ solr: cloud.base, name: works });
  const firstWalk = !names.includes(works) || fill.filled;
  if (firstWalk) await createWorkCollection({ solr: cloud.base, name: works, shards, replicas: 2 });
  const collection = `${cloud.base}/${works}`;
  progress(`syncing the work collection ${collection} (${firstWalk ? 'first walk' : 'changes only'})`);
  const started = performance.now();
  const sync = await syncWorkCollection({ url: core, workCollection: { url: collection } });
  const seconds = (performance.now() - started) / 1000;
  progress(`synced ${fmt(sync.fetched)} documents in ${fmt(seconds, 1)} s`);
  return { core, collection, fillSeconds: fill.filled ? fill.seconds : undefined, collectionSync: { seconds, fetched: sync.fetched, firstWalk } };
}

/** Runs the phase; never throws, so a failure here leaves the rest of the benchmark's report standing. */
export async function measureWorkCollectionCase(settings: WorkCollectionCaseSettings): Promise<WorkCollectionCase> {
  const cloud = solrCloudToMeasure();
  if ('skipped' in cloud) {
    progress(`skipped: ${cloud.skipped}`);
    return { ok: false, skipped: true, error: cloud.skipped };
  }
  const { children } = settings;
  const running = new Set<ChildProcess>();
  const start = (name: string, args: readonly string[]) => {
    const child = children.start(name, args, false);
    running.add(child);
    return child;
  };
  const stop = async (child: ChildProcess) => {
    running.delete(child);
    await children.stop(child);
  };
  const workIndex = join(settings.folder, `wc-work-index-${settings.records}.sqlite`);
  const loadBefore = loadavg()[0] ?? Number.NaN;
  try {
    const prepared = await prepareCloud(settings, cloud);
    const { core, collection } = prepared;
    const server = async (source: Source, versionCheckMs: number, ...flags: string[]) => {
      const child = start('workCollectionServer', [source, core, source === 'collection' ? collection : workIndex, settings.baseUrl, String(versionCheckMs), ...flags]);
      const port = (await children.message<ListeningReport>(child, 'listening', 30 * 60_000)).port;
      return { child, port };
    };
    const countsOf = async (child: ChildProcess): Promise<WorkCollectionServerCounts> => {
      const reply = children.message<WorkCollectionServerCounts>(child, 'wc-counts', 30_000);
      child.send({ type: 'counts' });
      return reply;
    };
    const firstId = settings.keptIds[0] ?? '';
    const timedFirstAnswer = async (source: Source) => {
      const started = performance.now();
      const child = start('workCollectionServer', [source, core, source === 'collection' ? collection : workIndex, settings.baseUrl, '1000', ...(source === 'file' ? ['walk'] : [])]);
      // The file path's child walks the core and says so before it listens.
      const walk = source === 'file' ? children.message<WorkCollectionServerWalk>(child, 'wc-walked', 30 * 60_000) : undefined;
      const port = (await children.message<ListeningReport>(child, 'listening', 30 * 60_000)).port;
      const listening = performance.now();
      await fetchAll(port, [pathOf(firstId, 'rss')], {});
      const answered = performance.now();
      const walkReport = walk === undefined ? undefined : await walk;
      await stop(child);
      return { totalMs: answered - started, startMs: listening - started, answerMs: answered - listening, walkMs: walkReport?.walkMs ?? 0, documents: walkReport?.documents ?? 0 };
    };
    progress('a second app server: from a new process to its first answer, on the work collection');
    const collectionFirst = await timedFirstAnswer('collection');
    progress(`  ${fmt(collectionFirst.totalMs)} ms; now on the file path, which syncs its own work index first`);
    const fileFirst = await timedFirstAnswer('file');
    progress(`  ${fmt(fileFirst.totalMs)} ms, of which the walk ${fmt(fileFirst.walkMs)} ms`);

    // 2. Kept answers, against the ceiling and the embedded index in the same rounds.
    const kept = await server('collection', 1000);
    const embeddedChild = start('versionsServer', [settings.indexPath, settings.baseUrl]);
    const embeddedPort = (await children.message<ListeningReport>(embeddedChild, 'listening', 120_000)).port;
    const paths = { rss: settings.keptIds.map((id) => pathOf(id, 'rss')), html: settings.keptIds.map((id) => pathOf(id, 'html')) };
    progress('waiting for the adapter to confirm the core\'s and the collection\'s versions');
    await confirmKeptAnswers(kept.port, paths.rss[0] ?? '/', async () => (await countsOf(kept.child)).questions);
    progress(`building and keeping the ${paths.rss.length} asked-again feeds and pages on both`);
    for (const port of [kept.port, embeddedPort]) {
      await fetchAll(port, paths.rss, {});
      await fetchAll(port, paths.html, HTML_REQUEST_HEADERS);
    }
    const tallies = { ceiling: newCaseResult(), rss: { collection: newCaseResult(), embedded: newCaseResult() }, html: { collection: newCaseResult(), embedded: newCaseResult() } };
    // The servers' CPU per kept answer: on a shared machine steadier than requests per second.
    const keptCpu = { rss: { collection: 0, embedded: 0 }, html: { collection: 0, embedded: 0 } };
    const keptRuns: Array<{ port: number; pid?: number; cpu?: [View, 'collection' | 'embedded']; paths: readonly string[]; headers: Readonly<Record<string, string>>; into: CaseResult; label: string }> = [
      { port: settings.ceilingPort, paths: paths.rss, headers: {}, into: tallies.ceiling, label: 'ceiling' },
      { port: kept.port, pid: kept.child.pid, cpu: ['rss', 'collection'], paths: paths.rss, headers: {}, into: tallies.rss.collection, label: 'RSS on the work collection' },
      { port: embeddedPort, pid: embeddedChild.pid, cpu: ['rss', 'embedded'], paths: paths.rss, headers: {}, into: tallies.rss.embedded, label: 'RSS on the embedded index' },
      { port: kept.port, pid: kept.child.pid, cpu: ['html', 'collection'], paths: paths.html, headers: HTML_REQUEST_HEADERS, into: tallies.html.collection, label: 'HTML on the work collection' },
      { port: embeddedPort, pid: embeddedChild.pid, cpu: ['html', 'embedded'], paths: paths.html, headers: HTML_REQUEST_HEADERS, into: tallies.html.embedded, label: 'HTML on the embedded index' },
    ];
    const warmUp = Math.min(3, Math.max(1, settings.duration / 5));
    for (const run of keptRuns.slice(1)) await drive(run.port, run.paths, run.headers, warmUp);
    const rounds = settings.duration >= 6 ? 2 : 1;
    for (let round = 0; round < rounds; round++) {
      for (const run of round % 2 === 0 ? keptRuns : [...keptRuns].reverse()) {
        progress(`kept, round ${round + 1}/${rounds}: ${run.label} for ${settings.duration / rounds} s`);
        const cpuBefore = run.pid === undefined ? 0 : cpuSeconds(run.pid);
        await drive(run.port, run.paths, run.headers, settings.duration / rounds, run.into);
        if (run.pid !== undefined && run.cpu !== undefined) keptCpu[run.cpu[0]][run.cpu[1]] += cpuSeconds(run.pid) - cpuBefore;
      }
    }
    await stop(kept.child);
    await stop(embeddedChild);

    // 3. Answers built afresh: the collection against the file, nothing kept, alternating.
    const fresh = { collection: await server('collection', 0), file: await server('file', 0) };
    const pool = settings.coldIds.slice(0, Math.max(0, settings.coldIds.length - 2 * 2 * TRACED));
    const traceIds = settings.coldIds.slice(pool.length);
    const slice = Math.floor(pool.length / (rounds * 4));
    let taken = 0;
    const take = () => pool.slice(slice * taken, slice * ++taken);
    const solrPid = Number(process.env.SOLR_TEST_PID);
    const solrCpu = () => (Number.isInteger(solrPid) && existsSync(`/proc/${solrPid}/stat`) ? cpuSeconds(solrPid) : Number.NaN);
    const freshTallies = { rss: { collection: newCaseResult(), file: newCaseResult() }, html: { collection: newCaseResult(), file: newCaseResult() } };
    const work = Object.fromEntries((['rss', 'html'] as const).map((view) => [view, Object.fromEntries((['collection', 'file'] as const).map((source) => [source, { served: 0, questions: 0, server: 0, solr: 0 }]))])) as Record<View, Record<Source, { served: number; questions: number; server: number; solr: number }>>;
    let coldRepeats = 0;
    for (let round = 0; round < rounds; round++) {
      for (const view of ['rss', 'html'] as const) {
        for (const source of (round % 2 === 0 ? ['collection', 'file'] : ['file', 'collection']) as Source[]) {
          progress(`afresh, round ${round + 1}/${rounds}: ${view} on the ${source === 'collection' ? 'work collection' : 'work index file'} for ${settings.duration / rounds} s`);
          const { child, port } = fresh[source];
          const runPaths = take().map((id) => pathOf(id, view));
          const before = { counts: await countsOf(child), server: cpuSeconds(child.pid!), solr: solrCpu() };
          const into = newCaseResult();
          await drive(port, runPaths, headersOf(view), settings.duration / rounds, into, true);
          // Requests in flight when the run ended finish before the counts are read.
          await new Promise((resolve) => setTimeout(resolve, 1500));
          const after = { counts: await countsOf(child), server: cpuSeconds(child.pid!), solr: solrCpu() };
          const tally = freshTallies[view][source];
          tally.responses += into.responses;
          tally.failures += into.failures;
          tally.seconds += into.seconds;
          tally.latenciesMs.push(...into.latenciesMs);
          coldRepeats += Math.max(0, into.sent - runPaths.length);
          const sum = work[view][source];
          sum.served += after.counts.served - before.counts.served;
          sum.questions += after.counts.questions - before.counts.questions;
          sum.server += after.server - before.server;
          sum.solr += after.solr - before.solr;
        }
      }
    }
    await stop(fresh.collection.child);
    await stop(fresh.file.child);
    const freshOf = (view: View, source: Source): FreshFigures => {
      const sum = work[view][source];
      const answers = Math.max(1, sum.served);
      return { http: figuresOf(freshTallies[view][source]), questionsPerAnswer: sum.questions / answers, serverCpuMsPerAnswer: (sum.server / answers) * 1000, solrCpuMsPerAnswer: (sum.solr / answers) * 1000 };
    };

    // 4. Where an answer's time goes, one answer at a time through the tracing forwarder.
    const trace = {} as Record<Source, TraceFigures>;
    for (const [at, source] of (['collection', 'file'] as const).entries()) {
      progress(`tracing ${2 * TRACED} answers one at a time on the ${source === 'collection' ? 'work collection' : 'work index file'}`);
      const traced = await server(source, 0, 'trace');
      const ids = traceIds.slice(at * 2 * TRACED, (at + 1) * 2 * TRACED);
      const started = performance.now();
      for (const [k, id] of ids.entries()) await fetchAll(traced.port, [pathOf(id, k % 2 === 0 ? 'rss' : 'html')], headersOf(k % 2 === 0 ? 'rss' : 'html'));
      const answerMs = (performance.now() - started) / Math.max(1, ids.length);
      trace[source] = { answers: ids.length, answerMs, counts: await countsOf(traced.child) };
      await stop(traced.child);
    }
    return {
      ok: true,
      records: settings.records,
      workShards: settings.workShards ?? DEFAULT_WORK_SHARDS,
      core,
      collection,
      fillSeconds: prepared.fillSeconds,
      collectionSync: prepared.collectionSync,
      firstAnswer: { collection: collectionFirst, file: fileFirst },
      ceiling: figuresOf(tallies.ceiling),
      keptCpuUs: Object.fromEntries((['rss', 'html'] as const).map((view) => [view, {
        collection: (keptCpu[view].collection / Math.max(1, tallies[view].collection.responses)) * 1e6,
        embedded: (keptCpu[view].embedded / Math.max(1, tallies[view].embedded.responses)) * 1e6,
      }])) as Record<View, { collection: number; embedded: number }>,
      kept: {
        rss: { collection: figuresOf(tallies.rss.collection), embedded: figuresOf(tallies.rss.embedded) },
        html: { collection: figuresOf(tallies.html.collection), embedded: figuresOf(tallies.html.embedded) },
      },
      fresh: { rss: { collection: freshOf('rss', 'collection'), file: freshOf('rss', 'file') }, html: { collection: freshOf('html', 'collection'), file: freshOf('html', 'file') } },
      trace,
      coldRepeats,
      loadAverage: [loadBefore, loadavg()[0] ?? Number.NaN],
    };
  } catch (error) {
    progress(`failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    return { ok: false, skipped: false, error: error instanceof Error ? error.message : String(error) };
  } finally {
    for (const child of running) await children.stop(child);
  }
}

// ---------------------------------------------------------------------------------------------------
// Alone: the embedded index of the same catalog (built when missing), the ceiling, then the phase

function startChild(name: string, args: readonly string[]): ChildProcess {
  return fork(join(HERE, `${name}${EXTENSION}`), [...args], { execArgv: process.execArgv, stdio: ['ignore', 2, 2, 'ipc'] });
}

/** A kept feed of the mean size, padded by a comment (as runBench.ts makes the ceiling's body). */
async function ceilingBody(port: number, paths: readonly string[]): Promise<string> {
  const feeds = await Promise.all(paths.slice(0, 400).map(async (path) => (await fetch(`http://127.0.0.1:${port}${path}`)).text()));
  const sizes = feeds.map((feed) => Buffer.byteLength(feed));
  const mean = Math.round(sizes.reduce((sum, size) => sum + size, 0) / Math.max(1, sizes.length));
  let base = '';
  for (const [at, size] of sizes.entries()) if (size <= mean && size > Buffer.byteLength(base)) base = feeds[at] ?? '';
  return `${base}\n<!-- ${'x'.repeat(Math.max(0, mean - Buffer.byteLength(base) - '\n<!--  -->'.length))} -->`;
}

async function alone(): Promise<void> {
  const option = (name: string, fallback: number) => {
    const at = process.argv.indexOf(name);
    return at < 0 ? fallback : Number(process.argv[at + 1]);
  };
  const records = option('--records', 200_000);
  const duration = option('--duration', 8);
  const seed = option('--seed', DEFAULT_SEED);
  const workShards = option('--work-shards', DEFAULT_WORK_SHARDS);
  const folder = join(PACKAGE_ROOT, '.bench');
  mkdirSync(folder, { recursive: true });
  const indexPath = join(folder, `catalog-${records}-${seed}.sqlite`);
  if (!existsSync(indexPath)) {
    progress(`building the embedded index ${indexPath}`);
    const builder = startChild('buildIndex', [indexPath, String(records), String(seed)]);
    await messageFrom(builder, 'built', 60 * 60_000);
    await new Promise((resolve) => (builder.exitCode !== null ? resolve(undefined) : builder.once('exit', resolve)));
  }
  const plan = planCatalog(records, seed);
  const keptIds = requestIds(sampleCatalog(plan, Math.min(2000, Math.max(100, Math.floor(records / 10))), 300), seed);
  const kept = new Set(keptIds);
  const wanted = Math.min(Math.floor(records / 2), 60_000);
  const coldSample = sampleCatalog(plan, wanted, Math.max(20, Math.round(wanted / 19)));
  const coldIds = requestIds({ ...coldSample, typical: coldSample.typical.filter((s) => !kept.has(s.id)), large: coldSample.large.filter((s) => !kept.has(s.id)) }, seed + 1);
  const baseUrl = 'https://catalog.example.edu';
  const embedded = startChild('versionsServer', [indexPath, baseUrl]);
  const embeddedPort = (await messageFrom<ListeningReport>(embedded, 'listening', 120_000)).port;
  const bodyFile = join(folder, 'wc-ceiling-body.xml');
  writeFileSync(bodyFile, await ceilingBody(embeddedPort, keptIds.map((id) => pathOf(id, 'rss'))));
  await stopChild(embedded);
  const ceiling = startChild('ceilingServer', [bodyFile]);
  const ceilingPort = (await messageFrom<ListeningReport>(ceiling, 'listening', 60_000)).port;
  const children: BenchChildren = { start: (name, args) => startChild(name, args), message: messageFrom, stop: stopChild };
  try {
    const result = await measureWorkCollectionCase({ records, seed, workShards, folder, indexPath, baseUrl, keptIds, coldIds, htmlHeaders: HTML_REQUEST_HEADERS, duration, ceilingPort, children });
    const targets = workCollectionCaseTargets(result);
    process.stdout.write(`${[...workCollectionCaseLines(result), ...table([['target', 'measured', 'goal', 'result'], ...targets.map((t) => [t.name, t.measured, t.goal, t.pass ? 'PASS' : 'MISS'])])].join('\n')}\n`);
    process.stdout.write(`${JSON.stringify({ records, duration, date: new Date().toISOString(), ...workCollectionCaseJson(result) })}\n`);
  } finally {
    await stopChild(ceiling);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  alone().then(() => process.exit(0), (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
