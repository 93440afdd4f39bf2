/**
 * Benchmark phase: the plugin on a real Solr 9 (issue 20; issue 23 item 6). The benchmark starts Solr
 * itself on loopback through tools/solr/start.sh (Java 17+ and Maven needed; without them the phase is
 * skipped and the report says so; with SOLR_TEST_URL set, that Solr is used instead and left running),
 * makes a core of VuFind's biblio schema (test/solr-configsets/vufind-biblio: no work keys in it, `_version_`
 * without docValues), fills it with the benchmark's catalog (catalogGenerator.ts, the same records and ids
 * as the embedded index), syncs a work index beside it (src/adapters/solr/workIndex/workIndexSync.ts,
 * `vufind` keys) and serves the plugin on the Solr adapter answering versions from that work index.
 *
 * Cases, at 50 connections, as ratios to runBench.ts's bare-Koa ceiling measured again here (alternating
 * with the kept cases, and with the plugin on the embedded index's kept RSS answers, the target's
 * reference): the RSS and HTML views over the asked-again records (kept answers, once the
 * adapter's background read has confirmed the core's version), then over records never asked before
 * (each answer built: the record from Solr, its versions' ids from the work index, their records from
 * Solr). The Solr requests per answer built afresh are counted in the plugin's server (the adapter logs
 * each request; its background version reads are left out), and shown beside the core's own `/select`
 * statistics.
 *
 * Usage: measureSolrServerCase(…) from runBench.ts; as a child, node solrServerCase.js plugin-server
 * <core URL> <work index> <base URL> [<package root>] (another build's dist/, for experiments/solrFreshSideBySide.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Koa from 'koa';
import { syncWorkIndex } from '../../src/adapters/solr/workIndex/workIndexSync.js';
import { PACKAGE_ROOT } from '../../src/packageFiles.js';
import { solrCore, updateSolr } from '../../test/support/realSolr.js';
import { generateRecords, planCatalog } from './catalogGenerator.js';
import { figuresOf, fmt, newCaseResult, type CaseResult, type HttpFigures } from './loadDriver.js';
import { reportToParent, serveForParent, type ListeningReport } from './processStats.js';
import { caseJson, caseTable, confirmKeptAnswers, drive, fetchAll, fourCases, type SolrPhaseSettings } from './solrPhaseDriving.js';

export interface SolrServerCaseSettings extends SolrPhaseSettings {
  /** The catalog (catalogGenerator.ts), as the embedded index was built from it. */
  readonly records: number;
  readonly seed: number;
  /** Where the work index file goes (runBench's .bench directory). */
  readonly folder: string;
  /** The embedded index of the same catalog: the plugin on it is measured again beside Solr (versionsServer.ts). */
  readonly indexPath: string;
}

export type SolrServerCase =
  | {
    readonly ok: true;
    readonly solr: string;
    readonly fillSeconds: number;
    readonly walkDocumentsPerSecond: number;
    readonly ceiling: HttpFigures;
    readonly rssKept: HttpFigures;
    readonly htmlKept: HttpFigures;
    readonly rssCold: HttpFigures;
    readonly htmlCold: HttpFigures;
    /** The plugin on the embedded index, kept RSS answers, in the same rounds (the target's reference). */
    readonly embeddedRssKept: HttpFigures;
    /** Requests the core's /select served per good response (its statistics; version reads and requests in flight at the ends of runs included). */
    readonly selectsPerKeptAnswer: number;
    readonly selectsPerColdAnswer: number;
    /** Solr requests the adapter made per request the plugin served, version reads left out (counted in the server). */
    readonly questionsPerColdAnswer: number;
    readonly coldRepeats: number;
  }
  | { readonly ok: false; readonly skipped: boolean; readonly error: string };

const CHILD = 'solrServerCase';

/** What the plugin server counted: requests it served, and the Solr requests its adapter made for them (not version reads). */
export interface ServerCounts {
  readonly type: 'solr9-counts';
  readonly served: number;
  readonly questions: number;
}
const CORE = 'bench_versions';
/** What a generated record keeps in a VuFind core: no work keys (the work index makes them). */
const KEPT_FIELDS = ['id', 'title', 'title_short', 'title_uniform', 'author', 'author2', 'author_corporate', 'format', 'publishDate', 'url', 'last_indexed'];
/** Never-asked records per view and second of load: more than Solr answers cold here. */
const COLD_PER_SECOND = 1500;

function progress(text: string): void {
  process.stderr.write(`[bench] solr 9: ${text}\n`);
}

/** A Solr to measure: the one SOLR_TEST_URL names, else one started by tools/solr/start.sh (stop() ends it). */
async function solrToMeasure(): Promise<{ base: string; stop(): void } | { skipped: string }> {
  const named = process.env.SOLR_TEST_URL?.trim().replace(/\/+$/, '');
  if (named !== undefined && named !== '') return { base: named.replace(/\/[^/]+$/, ''), stop: () => undefined };
  progress('starting Solr 9 through tools/solr/start.sh');
  const child = spawn('bash', [join(PACKAGE_ROOT, 'tools', 'solr', 'start.sh')], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, SOLR_TEST_HEAP: process.env.SOLR_TEST_HEAP ?? '2g' } });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const value = (name: string) => new RegExp(`^export ${name}=(.*)$`, 'm').exec(out)?.[1];
  const url = value('SOLR_TEST_URL');
  const pid = Number(value('SOLR_TEST_PID'));
  if (code !== 0 || url === undefined || !Number.isInteger(pid)) return { skipped: `tools/solr/start.sh exited ${code}: ${err.trim().split('\n').slice(-3).join(' / ')}` };
  return {
    base: url.replace(/\/[^/]+$/, ''),
    stop: () => {
      try {
        process.kill(pid);
      } catch {
        // already gone
      }
    },
  };
}

/** Requests the core's /select handler has served. */
async function selectRequests(url: string): Promise<number> {
  const data = await (await fetch(`${url}/admin/mbeans?cat=QUERY&stats=true&key=/select&wt=json`)).json() as { 'solr-mbeans': unknown[] };
  const beans = data['solr-mbeans'][1] as Record<string, { stats: Record<string, number> }>;
  return Number(beans['/select']?.stats['QUERY./select.requests'] ?? Number.NaN);
}

async function countOf(url: string): Promise<number> {
  const data = await (await fetch(`${url}/select?q=*:*&rows=0&wt=json`)).json() as { response: { numFound: number } };
  return data.response.numFound;
}

/** The benchmark's catalog into the core, in large batches, one commit at the end; kept when it is already there. */
export async function fill(url: string, records: number, seed: number): Promise<number> {
  const started = performance.now();
  if (await countOf(url) === records) {
    progress(`the core already holds ${fmt(records)} documents (a Solr kept running): kept`);
    return 0;
  }
  await updateSolr(url, { delete: { query: '*:*' } });
  const post = async (batch: Array<Record<string, unknown>>) => {
    const response = await fetch(`${url}/update?wt=json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(batch), signal: AbortSignal.timeout(600_000) });
    if (!response.ok) throw new Error(`${url}/update answered HTTP ${response.status}: ${(await response.text()).slice(0, 300)}`);
  };
  let batch: Array<Record<string, unknown>> = [];
  let inFlight = Promise.resolve();
  for (const record of generateRecords(planCatalog(records, seed))) {
    batch.push(Object.fromEntries(Object.entries(record).filter(([name]) => KEPT_FIELDS.includes(name))));
    if (batch.length === 20_000) {
      await inFlight;
      inFlight = post(batch);
      batch = [];
    }
  }
  await inFlight;
  if (batch.length > 0) await post(batch);
  await updateSolr(url, { commit: {} });
  return (performance.now() - started) / 1000;
}

/** Runs the phase; never throws, so a failure here leaves the rest of the benchmark's report standing. */
export async function measureSolrServerCase(settings: SolrServerCaseSettings): Promise<SolrServerCase> {
  const { children } = settings;
  const solr = await solrToMeasure().catch((error: unknown) => ({ skipped: error instanceof Error ? error.message : String(error) }));
  if ('skipped' in solr) {
    progress(`skipped: ${solr.skipped}`);
    return { ok: false, skipped: true, error: solr.skipped };
  }
  let server: ChildProcess | undefined;
  let embedded: ChildProcess | undefined;
  const workIndex = join(settings.folder, `solr-work-index-${settings.records}.sqlite`);
  try {
    const url = await solrCore({ name: 'standalone', base: solr.base }, CORE, 'vufind');
    progress(`filling ${url} with the ${fmt(settings.records)} records of the catalog (no work keys)`);
    const fillSeconds = await fill(url, settings.records, settings.seed);
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${workIndex}${suffix}`, { force: true });
    progress('syncing the work index beside the core (vufind keys)');
    const walk = await syncWorkIndex({ url, path: workIndex });
    const walkDocumentsPerSecond = walk.fetched / (walk.elapsedMs / 1000);
    progress(`walk: ${fmt(walk.fetched)} documents in ${fmt(walk.elapsedMs / 1000, 1)} s (${fmt(walkDocumentsPerSecond)}/s)`);

    server = children.start(CHILD, ['plugin-server', url, workIndex, settings.baseUrl], false);
    const port = (await children.message<ListeningReport>(server, 'listening', 120_000)).port;
    const plugin = server;
    const countsOf = async (): Promise<ServerCounts> => {
      // Requests still in flight when a timed run ends finish first (p99 here is seconds on a busy machine).
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const reply = children.message<ServerCounts>(plugin, 'solr9-counts', 30_000);
      plugin.send({ type: 'counts' });
      return reply;
    };
    const path = (id: string, view: 'rss' | 'html') => `/Search/Versions?${new URLSearchParams({ id, search: 'versions', ...(view === 'rss' ? { view: 'rss' } : {}) })}`;
    const keptRss = settings.keptIds.map((id) => path(id, 'rss'));
    const keptHtml = settings.keptIds.map((id) => path(id, 'html'));
    const coldPerView = Math.min(Math.floor(settings.coldIds.length / 2), Math.ceil(settings.duration * COLD_PER_SECOND));
    const rssCold = settings.coldIds.slice(0, coldPerView).map((id) => path(id, 'rss'));
    const htmlCold = settings.coldIds.slice(coldPerView, 2 * coldPerView).map((id) => path(id, 'html'));
    embedded = children.start('versionsServer', [settings.indexPath, settings.baseUrl], false);
    const embeddedPort = (await children.message<ListeningReport>(embedded, 'listening', 120_000)).port;
    const tallies = {
      ceiling: newCaseResult(), rssKept: newCaseResult(), htmlKept: newCaseResult(), rssCold: newCaseResult(), htmlCold: newCaseResult(), embeddedRssKept: newCaseResult(),
    };
    const kept: Array<{ port: number; paths: readonly string[]; headers: Readonly<Record<string, string>>; into: CaseResult; label: string }> = [
      { port: settings.ceilingPort, paths: keptRss, headers: {}, into: tallies.ceiling, label: 'ceiling' },
      { port, paths: keptRss, headers: {}, into: tallies.rssKept, label: 'RSS on Solr' },
      { port: embeddedPort, paths: keptRss, headers: {}, into: tallies.embeddedRssKept, label: 'RSS on the embedded index' },
      { port, paths: keptHtml, headers: settings.htmlHeaders, into: tallies.htmlKept, label: 'HTML on Solr' },
    ];

    progress('waiting for the adapter to confirm the core\'s version');
    await confirmKeptAnswers(port, keptRss[0] ?? '/', () => selectRequests(url));
    progress(`building and keeping the ${keptRss.length} asked-again feeds and pages once`);
    await fetchAll(port, keptRss, {});
    await fetchAll(port, keptHtml, settings.htmlHeaders);
    await fetchAll(embeddedPort, keptRss, {});
    const warmUp = Math.min(3, Math.max(1, settings.duration / 5));
    for (const run of kept.slice(1)) await drive(run.port, run.paths, run.headers, warmUp);
    const beforeKept = await selectRequests(url);
    const rounds = settings.duration >= 6 ? 2 : 1;
    for (let round = 0; round < rounds; round++) {
      for (const run of round % 2 === 0 ? kept : [...kept].reverse()) {
        progress(`round ${round + 1}/${rounds}: ${run.label} for ${settings.duration / rounds} s`);
        await drive(run.port, run.paths, run.headers, settings.duration / rounds, run.into);
      }
    }
    const afterKept = await selectRequests(url);
    await children.stop(embedded);
    const countsBeforeCold = await countsOf();
    progress(`records never asked before, ${settings.duration} s per view`);
    await drive(port, rssCold, {}, settings.duration, tallies.rssCold, true);
    await drive(port, htmlCold, settings.htmlHeaders, settings.duration, tallies.htmlCold, true);
    const countsAfterCold = await countsOf();
    const afterCold = await selectRequests(url);
    const keptAnswers = tallies.rssKept.responses + tallies.htmlKept.responses;
    const coldAnswers = tallies.rssCold.responses + tallies.htmlCold.responses;
    return {
      ok: true,
      solr: url,
      fillSeconds,
      walkDocumentsPerSecond,
      ceiling: figuresOf(tallies.ceiling),
      rssKept: figuresOf(tallies.rssKept),
      htmlKept: figuresOf(tallies.htmlKept),
      rssCold: figuresOf(tallies.rssCold),
      htmlCold: figuresOf(tallies.htmlCold),
      selectsPerKeptAnswer: (afterKept - beforeKept) / Math.max(1, keptAnswers),
      selectsPerColdAnswer: (afterCold - afterKept) / Math.max(1, coldAnswers),
      questionsPerColdAnswer: (countsAfterCold.questions - countsBeforeCold.questions) / Math.max(1, countsAfterCold.served - countsBeforeCold.served),
      embeddedRssKept: figuresOf(tallies.embeddedRssKept),
      coldRepeats: Math.max(0, tallies.rssCold.sent - rssCold.length) + Math.max(0, tallies.htmlCold.sent - htmlCold.length),
    };
  } catch (error) {
    progress(`failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    return { ok: false, skipped: false, error: error instanceof Error ? error.message : String(error) };
  } finally {
    if (server !== undefined) await children.stop(server);
    if (embedded !== undefined) await children.stop(embedded);
    solr.stop();
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${workIndex}${suffix}`, { force: true });
  }
}

// ---------------------------------------------------------------------------------------------------
// The report

/** Kept answers on Solr within 20% of the embedded index's (issue 20), and at most 2 requests per answer built. */
export function solrServerCaseTargets(result: SolrServerCase): Array<{ name: string; measured: string; goal: string; pass: boolean }> {
  if (!result.ok) return [];
  const ratio = result.rssKept.rps / result.ceiling.rps;
  const embeddedRatio = result.embeddedRssKept.rps / result.ceiling.rps;
  return [
    {
      name: 'Solr 9, kept RSS / ceiling, against the embedded index\'s (same rounds)',
      measured: `${fmt(ratio * 100, 1)}% vs ${fmt(embeddedRatio * 100, 1)}% (${fmt((ratio / embeddedRatio) * 100)}%)`,
      goal: '>= 80% of it', pass: ratio >= 0.8 * embeddedRatio,
    },
    { name: 'Solr 9, requests per answer built afresh', measured: fmt(result.questionsPerColdAnswer, 3), goal: '<= 2', pass: result.questionsPerColdAnswer <= 2 },
  ];
}

export function solrServerCaseLines(result: SolrServerCase): string[] {
  const title = 'Plugin on a real Solr 9.10.1 (loopback, same machine), VuFind biblio core without keys, work index beside it, 50 conns';
  if (!result.ok) return [title, `  ${result.skipped ? 'skipped' : 'not measured'}: ${result.error}`, ''];
  const lines = caseTable(title, result.ceiling, [...fourCases('Solr 9 + work index', result), ['embedded index: RSS view, kept answers (same rounds)', result.embeddedRssKept]]);
  const failures = [result.rssKept, result.htmlKept, result.rssCold, result.htmlCold].reduce((sum, f) => sum + f.failures, 0);
  lines.push(
    `  Solr requests per answer built afresh, counted in the server (version reads left out): ${fmt(result.questionsPerColdAnswer, 3)}; `
      + `the core's /select statistics per good response: ${fmt(result.selectsPerKeptAnswer, 4)} with kept answers (the background version read), `
      + `${fmt(result.selectsPerColdAnswer, 2)} never asked before (version reads and requests in flight at the ends of runs included)`,
    `  failed responses: ${failures}${result.coldRepeats > 0 ? `; ${fmt(result.coldRepeats)} never-asked requests came round again` : ''}`,
    `  core filled in ${result.fillSeconds > 0 ? `${fmt(result.fillSeconds, 1)} s` : '(kept)'}, work index walk ${fmt(result.walkDocumentsPerSecond)} documents/s`,
    '',
  );
  return lines;
}

export function solrServerCaseJson(result: SolrServerCase): Record<string, number | string> {
  if (!result.ok) return { solr9_error: result.error };
  const round2 = (n: number) => Math.round(n * 100) / 100;
  const out: Record<string, number | string> = caseJson('solr9', result);
  out.solr9_selects_per_kept_answer = Math.round(result.selectsPerKeptAnswer * 10_000) / 10_000;
  out.solr9_selects_per_cold_answer = round2(result.selectsPerColdAnswer);
  out.solr9_requests_per_cold_answer = Math.round(result.questionsPerColdAnswer * 1000) / 1000;
  out.solr9_embedded_rss_kept_rps_50 = Math.round(result.embeddedRssKept.rps);
  out.solr9_embedded_rss_kept_ceiling_ratio_50 = Math.round((result.embeddedRssKept.rps / result.ceiling.rps) * 1000) / 1000;
  out.solr9_walk_documents_per_s = Math.round(result.walkDocumentsPerSecond);
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Child: the plugin on the Solr adapter with the work index, in a minimal Koa host

async function runPluginServer(solrUrl: string, workIndexPath: string, baseUrl: string, root?: string): Promise<void> {
  const source = (module: string) => (root === undefined ? `../../src/${module}` : join(root, 'dist/src', module));
  const { createSolrIndex } = await import(source('adapters/solr/solrIndex.js')) as typeof import('../../src/adapters/solr/solrIndex.js');
  const { createVersionsPlugin } = await import(source('http/createVersionsPlugin.js')) as typeof import('../../src/http/createVersionsPlugin.js');
  // Defaults as a host would leave them: versionCheckMs 1000, so kept answers once two reads agree.
  const counts = { served: 0, questions: 0 };
  let logged = 0;
  const logger = {
    debug(message: string) {
      // The adapter logs each Solr request; its background version reads name themselves indexVersion.
      if (!/ indexVersion/.test(message)) counts.questions++;
    },
    error(message: string, details?: unknown) {
      if (logged++ < 5) process.stderr.write(`solr 9 plugin server error: ${message} ${details instanceof Error ? details.stack : JSON.stringify(details)}\n`);
    },
    warn(message: string) {
      if (logged++ < 5) process.stderr.write(`solr 9 plugin server warning: ${message}\n`);
    },
  };
  const index = createSolrIndex({ url: solrUrl, workIndex: { path: workIndexPath }, logger });
  const app = new Koa();
  app.use(async (_ctx, next) => {
    counts.served++;
    await next();
  });
  app.use(createVersionsPlugin({ index, baseUrl, logger }));
  serveForParent(app, () => index.close());
  process.on('message', (message: { type?: string }) => {
    if (message.type === 'counts') void reportToParent({ type: 'solr9-counts', ...counts } satisfies ServerCounts);
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === 'plugin-server') {
  const [solrUrl, workIndexPath, baseUrl, root] = process.argv.slice(3);
  if (solrUrl === undefined || workIndexPath === undefined || baseUrl === undefined) throw new Error('usage: solrServerCase plugin-server <core URL> <work index> <base URL> [<package root>]');
  void runPluginServer(solrUrl, workIndexPath, baseUrl, root);
}
