/**
 * Benchmark phase: the plugin's own cost on the Solr adapter. NOT A MEASUREMENT OF SOLR.
 *
 * A stand-in for Solr, a plain Node HTTP server in a child process of its own, answers the adapter's
 * requests in Solr's JSON response format from answers prepared in memory before the load starts (read
 * from the benchmark's embedded index: the same records, keys and totals). What the load generator then
 * measures is the plugin and its Solr adapter — building the requests, two loopback round trips per
 * answer built, parsing and checking Solr's JSON, writing the feed or page — or, for kept answers, the
 * background version read and sending a kept answer. A real Solr adds its own query time to every answer
 * built (and nothing to kept ones), and runs on other machines: none of that is here.
 *
 * Cases, all at 50 connections, as ratios to the bare-Koa ceiling that runBench.ts starts (its ceiling
 * server, measured again here, alternating with the kept cases so machine noise falls on both alike):
 * the RSS and HTML views over the run's asked-again records (kept after their first answer, once the
 * adapter's background read has confirmed the index version), then over records never asked before (each
 * answer built: the record, then its versions, from the stand-in).
 *
 * The same file is the two child processes (`fake-solr`, `plugin-server`), started by runBench.ts's
 * child-process helpers so that a failed run still stops them.
 *
 * A real Solr 9 is measured beside it by solrServerCase.ts, which drives its cases with this file's helpers.
 *
 * Usage: measureSolrAdapterCost(…) from runBench.ts; as a child, node solrAdapterCost.js fake-solr <index>
 * or node solrAdapterCost.js plugin-server <solr core URL> <base URL>.
 */
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import Koa from 'koa';
import { openEmbeddedIndex } from '../../src/adapters/sqlite/index.js';
import { createSolrIndex } from '../../src/adapters/solr/solrIndex.js';
import { createVersionsPlugin } from '../../src/http/createVersionsPlugin.js';
import type { CatalogRecord } from '../../src/record/catalogRecord.js';
import { RECORD_FIELDS } from '../../src/record/recordFields.js';
import { figuresOf, fmt, newCaseResult, runLoad, type CaseResult, type HttpFigures } from './loadDriver.js';
import { reportToParent, serveForParent, type ListeningReport } from './processStats.js';

// ---------------------------------------------------------------------------------------------------
// The driver (runs in runBench's process)

/** runBench.ts's child-process helpers, so its clean-up on failure covers these children too. */
export interface BenchChildren {
  start(name: string, args: readonly string[], profile: boolean): ChildProcess;
  message<T extends { type: string }>(child: ChildProcess, type: T['type'], timeoutMs: number): Promise<T>;
  stop(child: ChildProcess): Promise<void>;
}

/** What runBench.ts hands each phase on Solr (this one, solrServerCase.ts). */
export interface SolrPhaseSettings {
  readonly baseUrl: string;
  /** Records asked for again and again (their answers are kept). */
  readonly keptIds: readonly string[];
  /** Records no case of this phase has asked for: half for the RSS view, half for the HTML view. */
  readonly coldIds: readonly string[];
  readonly htmlHeaders: Readonly<Record<string, string>>;
  /** Seconds of measured load per case. */
  readonly duration: number;
  /** runBench's bare-Koa ceiling server. */
  readonly ceilingPort: number;
  readonly children: BenchChildren;
}

export interface SolrAdapterCostSettings extends SolrPhaseSettings {
  readonly indexPath: string;
}

export type CaseFigures = HttpFigures;

export type SolrAdapterCost =
  | {
    readonly ok: true;
    readonly ceiling: CaseFigures;
    readonly rssKept: CaseFigures;
    readonly htmlKept: CaseFigures;
    readonly rssCold: CaseFigures;
    readonly htmlCold: CaseFigures;
    /** Requests the stand-in got per good response: kept cases (version reads only), never-asked cases. */
    readonly standInRequestsPerKeptAnswer: number;
    readonly standInRequestsPerColdAnswer: number;
    /** Requests the stand-in could not answer (a request shape it was not prepared for). */
    readonly standInUnknown: number;
    readonly preparedAnswers: number;
    readonly prepareSeconds: number;
    /** Never-asked requests that came round again (the prepared records ran out). */
    readonly coldRepeats: number;
  }
  | { readonly ok: false; readonly error: string };

interface FakeSolrPrepare {
  readonly type: 'prepare';
  readonly keptIds: readonly string[];
  readonly rssColdIds: readonly string[];
  readonly htmlColdIds: readonly string[];
}

interface FakeSolrReady {
  readonly type: 'fake-solr-ready';
  readonly port: number;
  readonly answers: number;
  readonly seconds: number;
}

interface FakeSolrStats {
  readonly type: 'fake-solr-stats';
  readonly selects: number;
  readonly versionReads: number;
  readonly unknown: number;
}

const CHILD = 'solrAdapterCost';
const CONNECTIONS = 50;
/** Never-asked records prepared per view and second of load: more than this machine answers cold. */
const COLD_PER_SECOND = 3000;

function progress(text: string): void {
  process.stderr.write(`[bench] solr adapter: ${text}\n`);
}

/** Runs the phase; never throws, so a failure here leaves the rest of the benchmark's report standing. */
export async function measureSolrAdapterCost(settings: SolrAdapterCostSettings): Promise<SolrAdapterCost> {
  const { children } = settings;
  const started: ChildProcess[] = [];
  try {
    progress('NOT a measurement of Solr: a local stand-in answers in Solr\'s JSON format from memory');
    const coldPerView = Math.min(Math.floor(settings.coldIds.length / 2), Math.ceil(settings.duration * COLD_PER_SECOND));
    const rssColdIds = settings.coldIds.slice(0, coldPerView);
    const htmlColdIds = settings.coldIds.slice(coldPerView, 2 * coldPerView);
    const fake = children.start(CHILD, ['fake-solr', settings.indexPath], false);
    started.push(fake);
    const prepare: FakeSolrPrepare = { type: 'prepare', keptIds: settings.keptIds, rssColdIds, htmlColdIds };
    fake.send(prepare);
    progress(`preparing the stand-in's answers for ${settings.keptIds.length + rssColdIds.length + htmlColdIds.length} records`);
    const ready = await children.message<FakeSolrReady>(fake, 'fake-solr-ready', 30 * 60_000);
    const server = children.start(CHILD, ['plugin-server', `http://127.0.0.1:${ready.port}/solr/biblio`, settings.baseUrl], false);
    started.push(server);
    const port = (await children.message<ListeningReport>(server, 'listening', 120_000)).port;
    const statsOf = async (): Promise<FakeSolrStats> => {
      const reply = children.message<FakeSolrStats>(fake, 'fake-solr-stats', 30_000);
      fake.send({ type: 'stats' });
      return reply;
    };

    const path = (id: string, view: 'rss' | 'html') => `/Search/Versions?${new URLSearchParams({ id, search: 'versions', ...(view === 'rss' ? { view: 'rss' } : {}) })}`;
    const keptRss = settings.keptIds.map((id) => path(id, 'rss'));
    const keptHtml = settings.keptIds.map((id) => path(id, 'html'));
    const tallies = { ceiling: newCaseResult(), rssKept: newCaseResult(), htmlKept: newCaseResult(), rssCold: newCaseResult(), htmlCold: newCaseResult() };
    const kept = [
      { port: settings.ceilingPort, paths: keptRss, headers: {}, into: tallies.ceiling },
      { port, paths: keptRss, headers: {}, into: tallies.rssKept },
      { port, paths: keptHtml, headers: settings.htmlHeaders, into: tallies.htmlKept },
    ];

    // Warm-up: first the adapter's version read confirmed (two reads a second apart, while requests come
    // in), then every asked-again answer built once and kept, then a short run per view for the JIT.
    progress('waiting for the adapter to confirm the index version');
    await confirmKeptAnswers(port, keptRss[0] ?? '/', async () => {
      const stats = await statsOf();
      return stats.selects - stats.versionReads;
    });
    progress(`building and keeping the ${keptRss.length} asked-again feeds and pages once`);
    await fetchAll(port, keptRss, {});
    await fetchAll(port, keptHtml, settings.htmlHeaders);
    const warmUp = Math.min(3, Math.max(1, settings.duration / 5));
    progress(`warming up (${warmUp} s per view)`);
    for (const run of kept.slice(1)) await drive(run.port, run.paths, run.headers, warmUp);
    const beforeKept = await statsOf();
    const rounds = settings.duration >= 6 ? 2 : 1;
    for (let round = 0; round < rounds; round++) {
      for (const run of round % 2 === 0 ? kept : [...kept].reverse()) {
        progress(`round ${round + 1}/${rounds}: ${run.port === port ? 'plugin' : 'ceiling'} for ${settings.duration / rounds} s`);
        await drive(run.port, run.paths, run.headers, settings.duration / rounds, run.into);
      }
    }
    const afterKept = await statsOf();
    progress(`records never asked before, ${settings.duration} s per view`);
    await drive(port, rssColdIds.map((id) => path(id, 'rss')), {}, settings.duration, tallies.rssCold, true);
    await drive(port, htmlColdIds.map((id) => path(id, 'html')), settings.htmlHeaders, settings.duration, tallies.htmlCold, true);
    const afterCold = await statsOf();

    const keptAnswers = tallies.rssKept.responses + tallies.htmlKept.responses;
    const coldAnswers = tallies.rssCold.responses + tallies.htmlCold.responses;
    const requestsOf = (stats: FakeSolrStats) => stats.selects;
    return {
      ok: true,
      ceiling: figuresOf(tallies.ceiling),
      rssKept: figuresOf(tallies.rssKept),
      htmlKept: figuresOf(tallies.htmlKept),
      rssCold: figuresOf(tallies.rssCold),
      htmlCold: figuresOf(tallies.htmlCold),
      // The kept rounds also ran the ceiling, which never reaches the stand-in.
      standInRequestsPerKeptAnswer: (requestsOf(afterKept) - requestsOf(beforeKept)) / Math.max(1, keptAnswers),
      standInRequestsPerColdAnswer: (requestsOf(afterCold) - requestsOf(afterKept)) / Math.max(1, coldAnswers),
      standInUnknown: afterCold.unknown,
      preparedAnswers: ready.answers,
      prepareSeconds: ready.seconds,
      coldRepeats: Math.max(0, tallies.rssCold.sent - rssColdIds.length) + Math.max(0, tallies.htmlCold.sent - htmlColdIds.length),
    };
  } catch (error) {
    progress(`failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  } finally {
    await Promise.all(started.map((child) => children.stop(child)));
  }
}

/**
 * Waits until answers are kept: the same path asked twice, the second answer asking the index nothing
 * (`questions`: the requests the index got so far, version reads left out where they can be told apart).
 */
export async function confirmKeptAnswers(port: number, path: string, questions: () => Promise<number>): Promise<void> {
  for (let confirmed = false, tries = 0; !confirmed; tries++) {
    if (tries > 100) throw new Error('answers are never kept: the adapter did not confirm the index version within 10 s');
    await fetchAll(port, [path], {});
    const before = await questions();
    await fetchAll(port, [path], {});
    confirmed = (await questions()) === before;
    if (!confirmed) await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Each path fetched once, 16 at a time; any status but 200 fails the phase. */
export async function fetchAll(port: number, paths: readonly string[], headers: Readonly<Record<string, string>>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const path = paths[next++] as string;
      const response = await fetch(`http://127.0.0.1:${port}${path}`, { headers });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`GET ${path}: HTTP ${response.status}`);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}

/**
 * One timed run at 50 connections. With `eachOnce` the paths are walked in order, each once (a path asked
 * again would be a kept answer); otherwise from a random place, round and round.
 */
export function drive(port: number, paths: readonly string[], headers: Readonly<Record<string, string>>, seconds: number, into?: CaseResult, eachOnce = false): Promise<void> {
  return runLoad(port, { connections: CONNECTIONS, paths, headers, eachPathOnce: eachOnce }, seconds, into);
}

// ---------------------------------------------------------------------------------------------------
// The report (rows for runBench's output and fields for its JSON line)


export function solrAdapterCostLines(cost: SolrAdapterCost): string[] {
  const title = 'Plugin on the Solr adapter, 50 conns. NOT A MEASUREMENT OF SOLR: a local stand-in answers in Solr\'s JSON format from memory';
  if (!cost.ok) return [title, `  not measured: ${cost.error}`, ''];
  const lines = caseTable(title, cost.ceiling, fourCases('Solr adapter', cost));
  const failures = [cost.rssKept, cost.htmlKept, cost.rssCold, cost.htmlCold].reduce((sum, f) => sum + f.failures, 0);
  lines.push(
    `  requests to the stand-in per answer: ${fmt(cost.standInRequestsPerKeptAnswer, 4)} with kept answers (the background version read only), `
      + `${fmt(cost.standInRequestsPerColdAnswer, 2)} never asked before (the record, then its versions); unanswerable requests: ${cost.standInUnknown}; failed responses: ${failures}`,
    `  ${fmt(cost.preparedAnswers)} Solr answers prepared in ${fmt(cost.prepareSeconds, 1)} s from the embedded index${cost.coldRepeats > 0 ? `; ${fmt(cost.coldRepeats)} never-asked requests came round again` : ''}`,
    '  A real Solr adds its own query time to each answer built (kept answers ask it nothing), on other machines.',
    '',
  );
  return lines;
}

/** The four cases of a phase on Solr (kept and never-asked RSS and HTML), labelled. */
export interface FourCases {
  readonly ceiling: CaseFigures;
  readonly rssKept: CaseFigures;
  readonly htmlKept: CaseFigures;
  readonly rssCold: CaseFigures;
  readonly htmlCold: CaseFigures;
}

export function fourCases(what: string, cases: FourCases): Array<readonly [string, CaseFigures]> {
  return [
    [`${what}: RSS view, kept answers`, cases.rssKept],
    [`${what}: HTML view, kept answers`, cases.htmlKept],
    [`${what}: RSS view, records never asked before`, cases.rssCold],
    [`${what}: HTML view, records never asked before`, cases.htmlCold],
  ];
}

/** A phase's table: the ceiling, then each case with its share of it, aligned. */
export function caseTable(title: string, ceiling: CaseFigures, cases: ReadonlyArray<readonly [string, CaseFigures]>): string[] {
  const rows: string[][] = [
    [title, 'req/s', 'p50 ms', 'p99 ms', 'of ceiling'],
    ['ceiling, bare Koa (measured again, alternating)', fmt(ceiling.rps), fmt(ceiling.p50Ms, 2), fmt(ceiling.p99Ms, 2), ''],
    ...cases.map(([label, f]) => [label, fmt(f.rps), fmt(f.p50Ms, 2), fmt(f.p99Ms, 2), `${fmt((f.rps / ceiling.rps) * 100, 1)}%`]),
  ];
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((r) => (r[column] ?? '').length))) ?? [];
  return rows.map((r) => r.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ').trimEnd());
}

/** The four cases' figures for the JSON line, named `<prefix>_<case>_…`. */
export function caseJson(prefix: string, cases: FourCases): Record<string, number> {
  const round2 = (n: number) => Math.round(n * 100) / 100;
  const out: Record<string, number> = {
    [`${prefix}_ceiling_rps_50`]: Math.round(cases.ceiling.rps),
    [`${prefix}_ceiling_p99_ms_50`]: round2(cases.ceiling.p99Ms),
  };
  for (const [name, f] of [['rss_kept', cases.rssKept], ['html_kept', cases.htmlKept], ['rss_cold', cases.rssCold], ['html_cold', cases.htmlCold]] as const) {
    out[`${prefix}_${name}_rps_50`] = Math.round(f.rps);
    out[`${prefix}_${name}_p99_ms_50`] = round2(f.p99Ms);
    out[`${prefix}_${name}_ceiling_ratio_50`] = Math.round((f.rps / cases.ceiling.rps) * 1000) / 1000;
  }
  return out;
}

export function solrAdapterCostJson(cost: SolrAdapterCost): Record<string, number | string> {
  if (!cost.ok) return { solr_adapter_error: cost.error };
  const round2 = (n: number) => Math.round(n * 100) / 100;
  const out: Record<string, number | string> = caseJson('solr_adapter', cost);
  out.solr_adapter_standin_requests_per_kept_answer = Math.round(cost.standInRequestsPerKeptAnswer * 10_000) / 10_000;
  out.solr_adapter_standin_requests_per_cold_answer = round2(cost.standInRequestsPerColdAnswer);
  out.solr_adapter_failed_responses = [cost.rssKept, cost.htmlKept, cost.rssCold, cost.htmlCold].reduce((sum, f) => sum + f.failures, 0) + cost.standInUnknown;
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Child: the stand-in for Solr

const SEPARATOR = '\u001f';
const TERMS = /^\{!terms f=\w+ separator="([^"\\]+)"\}([\s\S]*)$/;
const PHRASE = /^\w+:"((?:[^"\\]|\\[\s\S])*)"$/;

/** Record fields as Solr stores them in a VuFind `biblio` core (the adapter's default field names). */
function solrDocumentOf(record: CatalogRecord, version: number): Record<string, unknown> {
  const doc: Record<string, unknown> = {};
  for (const { name, property, multiValued } of RECORD_FIELDS) {
    const value = (record as unknown as Record<string, unknown>)[property];
    if (value === undefined || (multiValued && Array.isArray(value) && value.length === 0)) continue;
    doc[name] = value;
  }
  doc._version_ = version;
  return doc;
}

function selectAnswer(docs: ReadonlyArray<Record<string, unknown>>, numFound: number, facets: boolean): Buffer {
  const body: Record<string, unknown> = {
    responseHeader: { status: 0, QTime: 1 },
    response: { numFound, start: 0, numFoundExact: true, docs },
  };
  if (facets) {
    // The format facet of the page's records (Solr counts all matches; the adapter does not read facets).
    const counts = new Map<string, number>();
    for (const doc of docs) for (const format of (doc.format as string[] | undefined) ?? []) counts.set(format, (counts.get(format) ?? 0) + 1);
    body.facet_counts = { facet_queries: {}, facet_fields: { format: [...counts].sort((a, b) => b[1] - a[1]).flat() }, facet_ranges: {}, facet_intervals: {}, facet_heatmaps: {} };
  }
  return Buffer.from(JSON.stringify(body));
}

async function runFakeSolr(indexPath: string, request: FakeSolrPrepare): Promise<void> {
  const started = performance.now();
  const answers = new Map<string, Buffer>();
  const index = openEmbeddedIndex({ path: indexPath, readOnly: true });
  let version = 1_790_000_000_000_000_000;
  const views: Array<[string, ReadonlyArray<'rss' | 'html'>]> = [
    ...request.keptIds.map((id): [string, Array<'rss' | 'html'>] => [id, ['rss', 'html']]),
    ...request.rssColdIds.map((id): [string, Array<'rss' | 'html'>] => [id, ['rss']]),
    ...request.htmlColdIds.map((id): [string, Array<'rss' | 'html'>] => [id, ['html']]),
  ];
  try {
    for (const [id, wanted] of views) {
      const record = await index.getRecord(id);
      if (record === undefined) continue;
      answers.set(`record\u0000${id}`, selectAnswer([solrDocumentOf(record, version += 2 ** 20)], 1, false));
      if (record.workKeys.length === 0) continue;
      const keys = [...new Set(record.workKeys)].join(SEPARATOR);
      for (const view of wanted) {
        const key = `versions\u0000${keys}\u0000${view}`;
        if (answers.has(key)) continue;
        const page = await index.findVersions({ workKeys: record.workKeys, order: view === 'rss' ? 'last-indexed' : 'relevance', offset: 0, limit: view === 'rss' ? 50 : 20 });
        answers.set(key, selectAnswer(page.records.map((r) => solrDocumentOf(r, version += 2 ** 20)), page.total, true));
      }
    }
  } finally {
    await index.close();
  }
  const versionAnswer = Buffer.from(JSON.stringify({ responseHeader: { status: 0, QTime: 0 }, response: { numFound: answers.size, start: 0, numFoundExact: true, docs: [{ _version_: version }] } }));
  const unknownAnswer = Buffer.from(JSON.stringify({ responseHeader: { status: 400 }, error: { msg: 'the benchmark\'s stand-in has no answer prepared for this request', code: 400 } }));
  const stats = { selects: 0, versionReads: 0, unknown: 0 };

  const answerFor = (params: URLSearchParams): Buffer | undefined => {
    const q = params.get('q') ?? '';
    if (q === '*:*' && params.get('sort') === '_version_ desc') {
      stats.versionReads++;
      return versionAnswer;
    }
    const phrase = PHRASE.exec(q);
    if (phrase !== null) return answers.get(`record\u0000${(phrase[1] ?? '').replace(/\\([\s\S])/g, '$1')}`);
    const terms = TERMS.exec(q);
    if (terms === null || params.get('start') !== '0') return undefined;
    const keys = (terms[2] ?? '').split(terms[1] ?? SEPARATOR).join(SEPARATOR);
    const view = params.get('rows') === '50' && params.get('sort')?.startsWith('last_indexed desc') ? 'rss' : 'html';
    return answers.get(`versions\u0000${keys}\u0000${view}`);
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      stats.selects++;
      const query = (req.url ?? '').split('?')[1] ?? '';
      const params = new URLSearchParams(chunks.length === 0 ? query : `${query}&${Buffer.concat(chunks).toString('utf8')}`);
      const body = answerFor(params);
      if (body === undefined) stats.unknown++;
      res.writeHead(body === undefined ? 400 : 200, { 'content-type': 'application/json;charset=utf-8', 'content-length': (body ?? unknownAnswer).length });
      res.end(body ?? unknownAnswer);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.on('message', (message: { type?: string }) => {
    if (message.type === 'stats') void reportToParent({ type: 'fake-solr-stats', ...stats } satisfies FakeSolrStats);
    if (message.type === 'stop') {
      server.closeAllConnections();
      server.close(() => process.exit(0));
    }
  });
  process.on('disconnect', () => process.exit(0));
  const ready: FakeSolrReady = { type: 'fake-solr-ready', port: (server.address() as AddressInfo).port, answers: answers.size, seconds: (performance.now() - started) / 1000 };
  await reportToParent(ready);
}

// ---------------------------------------------------------------------------------------------------
// Child: the plugin on the Solr adapter, in a minimal Koa host (as versionsServer.ts does on the embedded index)

function runPluginServer(solrUrl: string, baseUrl: string): void {
  // Defaults as a host would leave them: versionCheckMs 1000, so kept answers once two reads agree.
  const index = createSolrIndex({ url: solrUrl });
  let logged = 0;
  const logger = {
    error(message: string, details?: unknown) {
      if (logged++ < 5) process.stderr.write(`solr plugin server error: ${message} ${details instanceof Error ? details.stack : JSON.stringify(details)}\n`);
    },
    warn(message: string) {
      if (logged++ < 5) process.stderr.write(`solr plugin server warning: ${message}\n`);
    },
  };
  const app = new Koa();
  app.use(createVersionsPlugin({ index, baseUrl, logger }));
  serveForParent(app, () => index.close());
}

const role = process.argv[1] === fileURLToPath(import.meta.url) ? process.argv[2] : undefined;
if (role === 'fake-solr') {
  const indexPath = process.argv[3];
  if (indexPath === undefined) throw new Error('usage: solrAdapterCost fake-solr <index path>');
  process.once('message', (message: FakeSolrPrepare) => {
    runFakeSolr(indexPath, message).catch((error: unknown) => {
      process.stderr.write(`solrAdapterCost fake-solr: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
      process.exit(1);
    });
  });
} else if (role === 'plugin-server') {
  const [solrUrl, baseUrl] = process.argv.slice(3);
  if (solrUrl === undefined || baseUrl === undefined) throw new Error('usage: solrAdapterCost plugin-server <solr core URL> <base URL>');
  runPluginServer(solrUrl, baseUrl);
}
