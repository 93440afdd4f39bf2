/**
 * Side by side, in one run: kept answers (feeds and pages the plugin built before and sends again) for two
 * builds of the plugin serving one read-only index file, against the bare Koa ceiling (ceilingServer.ts)
 * measured in the same rounds. Each server runs in a process of its own; the plugin servers are first asked
 * for every path once (so every answer is kept), then the three alternate in rounds (ceiling, a, b, then
 * reversed), each driven by autocannon at 50 connections over the benchmark's kept RSS paths (and pages with
 * `--view both`). Per round it reports each build's requests/s and p99 as ratios to the ceiling of that round,
 * and the server's CPU per answer from /proc, which does not depend on how busy the machine is.
 *
 * `--compare` first checks that both builds answer feeds, previews, pages, error pages, 304s and HEADs
 * with the same status, headers and bytes (a feed's dates of the current second, the Date header and a new
 * session token aside), both when the answer is built and when it is sent again kept.
 *
 * Usage: node dist/tools/bench/experiments/keptAnswers.js --records N --index <file> --a <package root> --b <package root>
 *          [--rounds N] [--seconds S] [--connections N] [--view rss|both] [--compare] [--profile]
 * A package root is a checkout with its dist/ built (the versions server is its dist/tools/bench/versionsServer.js);
 * `--profile` runs b's server with --cpu-prof (written into b's .bench/profiles when it stops).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:http';
import { parseArgs } from 'node:util';
import { DEFAULT_SEED, planCatalog, requestIds, sampleCatalog } from '../catalogGenerator.js';
import { figuresOf, newCaseResult, runLoad, type CaseResult, type DrivenCase } from '../loadDriver.js';
import { cpuSeconds, type ListeningReport } from '../processStats.js';
import { HTML_REQUEST_HEADERS } from '../benchRequests.js';

interface Server { readonly name: string; readonly child: ChildProcess; readonly port: number }

const BASE_URL = 'https://catalog.example.edu';
const { values: options } = parseArgs({
  options: {
    records: { type: 'string' }, seed: { type: 'string', default: String(DEFAULT_SEED) }, index: { type: 'string' },
    a: { type: 'string' }, b: { type: 'string' }, rounds: { type: 'string', default: '6' }, seconds: { type: 'string', default: '2' },
    connections: { type: 'string', default: '50' }, view: { type: 'string', default: 'rss' },
    compare: { type: 'boolean', default: false }, 'compare-ids': { type: 'string', default: '40' }, profile: { type: 'boolean', default: false },
  },
});
function required(name: 'records' | 'index' | 'a' | 'b'): string {
  const value = options[name];
  if (value === undefined) throw new Error(`missing --${name}`);
  return value;
}

function start(name: string, script: string, args: readonly string[], execArgv: readonly string[] = []): Promise<Server> {
  const child = fork(script, [...args], { stdio: ['ignore', 2, 2, 'ipc'], execArgv: [...execArgv] });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${name} exited ${code}`)));
    child.on('message', (message: Partial<ListeningReport>) => {
      if (message.type === 'listening' && message.port !== undefined) resolve({ name, child, port: message.port });
    });
  });
}

function stop(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.child.removeAllListeners('exit');
    server.child.once('exit', () => resolve());
    server.child.send({ type: 'stop' });
  });
}

function versionsPath(id: string, view: 'rss' | 'html'): string {
  const query = new URLSearchParams({ id, search: 'versions' });
  if (view === 'rss') query.set('view', 'rss');
  return `/Search/Versions?${query}`;
}

/** The benchmark's kept ids: its sample of the catalog as runBench.ts draws it, mixed by requestIds. */
function keptIds(records: number, seed: number): string[] {
  return requestIds(sampleCatalog(planCatalog(records, seed), Math.min(2000, Math.max(100, Math.floor(records / 10))), 300), seed);
}

interface Answer { readonly status: number; readonly headers: Record<string, string | string[] | undefined>; readonly body: Buffer }

function send(port: number, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, headers, method }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    }).on('error', reject).end();
  });
}

/** An answer as text without what depends on the moment or on chance: dates of the current second, Date, a new session token. */
function comparable(answer: Answer): string {
  const headers = Object.entries(answer.headers).filter(([name]) => name !== 'date')
    .map(([name, value]) => `${name}: ${JSON.stringify(value)}`.replace(/VUFIND_SESSION=[0-9a-f]{32}/g, 'VUFIND_SESSION=…'));
  const body = answer.body.toString().replace(/<(pubDate|lastBuildDate)>[^<]*</g, '<$1><');
  return `${answer.status}\n${headers.join('\n')}\n\n${body}`;
}

/** Requests of every kind the versions route answers, for one record id. */
function comparedRequests(id: string, etag: string | undefined, lastModified: string | undefined): Array<{ path: string; headers: Record<string, string>; method?: string }> {
  const preview = { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };
  return [
    { path: versionsPath(id, 'rss'), headers: {} },
    { path: versionsPath(id, 'rss'), headers: { 'accept-language': 'es-MX,es;q=0.9' } },
    { path: `${versionsPath(id, 'rss')}&lng=pt-br`, headers: { cookie: 'ui=mobile' } },
    { path: versionsPath(id, 'rss'), headers: preview },
    { path: versionsPath(id, 'rss'), headers: { ...preview, ...HTML_REQUEST_HEADERS } },
    { path: versionsPath(id, 'html'), headers: {} },
    { path: versionsPath(id, 'html'), headers: HTML_REQUEST_HEADERS },
    { path: versionsPath(id, 'html'), headers: { cookie: 'language=pt-br; ui=mobile', 'accept-language': 'es' } },
    { path: `${versionsPath(id, 'html')}&lng=es&sort=year-asc`, headers: {} },
    { path: `${versionsPath(id, 'html')}&page=2`, headers: HTML_REQUEST_HEADERS },
    { path: versionsPath(id, 'html'), headers: HTML_REQUEST_HEADERS, method: 'HEAD' },
    { path: versionsPath(id, 'rss'), headers: {}, method: 'HEAD' },
    ...(etag !== undefined ? [{ path: versionsPath(id, 'rss'), headers: { 'if-none-match': etag } }] : []),
    ...(lastModified !== undefined ? [{ path: versionsPath(id, 'rss'), headers: { 'if-modified-since': lastModified } }] : []),
    { path: `${versionsPath(id, 'rss')}&page=999`, headers: {} },
    { path: `${versionsPath(`${id}-missing`, 'html')}`, headers: HTML_REQUEST_HEADERS },
    { path: `${versionsPath(id, 'html')}&page=-3`, headers: {} },
    { path: '/Search/Versions', headers: {} },
  ];
}

/** Both builds asked the same requests twice (built, then kept): how many answers differ. */
async function compareBuilds(a: Server, b: Server, ids: readonly string[]): Promise<{ compared: number; differing: number }> {
  let compared = 0;
  let differing = 0;
  for (const id of ids) {
    const first = await send(a.port, versionsPath(id, 'rss'));
    const etag = first.headers.etag as string | undefined;
    const lastModified = first.headers['last-modified'] as string | undefined;
    for (let pass = 0; pass < 2; pass++) {
      for (const asked of comparedRequests(id, etag, lastModified)) {
        const [fromA, fromB] = await Promise.all([a, b].map((server) => send(server.port, asked.path, asked.headers, asked.method)));
        compared++;
        if (comparable(fromA!) !== comparable(fromB!)) {
          if (differing++ === 0) process.stderr.write(`first difference, ${asked.method ?? 'GET'} ${asked.path} ${JSON.stringify(asked.headers)}:\n${comparable(fromA!)}\n---\n${comparable(fromB!)}\n`);
        }
      }
    }
  }
  return { compared, differing };
}

/** A feed of the mean size of the kept feeds: the largest not above the mean, brought to it by a comment (as runBench.ts does). */
async function ceilingBody(port: number, paths: readonly string[]): Promise<string> {
  const feeds = await Promise.all(paths.slice(0, 400).map(async (path) => (await send(port, path)).body.toString()));
  const sizes = feeds.map((feed) => Buffer.byteLength(feed));
  const mean = Math.round(sizes.reduce((sum, size) => sum + size, 0) / Math.max(1, sizes.length));
  let base = '';
  for (const [at, size] of sizes.entries()) if (size <= mean && size > Buffer.byteLength(base)) base = feeds[at] ?? '';
  return `${base}\n<!-- ${'x'.repeat(Math.max(0, mean - Buffer.byteLength(base) - '\n<!--  -->'.length))} -->`;
}

async function warm(port: number, paths: readonly string[], headers: Record<string, string>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < paths.length) await send(port, paths[next++] as string, headers);
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

interface Tally { result: CaseResult; cpu: number }

async function main(): Promise<void> {
  const records = Number(required('records'));
  const seed = Number(options.seed);
  const index = required('index');
  const roots = { a: required('a'), b: required('b') };
  const rounds = Number(options.rounds);
  const seconds = Number(options.seconds);
  const connections = Number(options.connections);
  const views = options.view === 'both' ? ['rss', 'html'] as const : ['rss'] as const;

  const ids = keptIds(records, seed);
  const paths = { rss: ids.map((id) => versionsPath(id, 'rss')), html: ids.map((id) => versionsPath(id, 'html')) };
  const profileDirectory = join(roots.b, '.bench/profiles');
  if (options.profile) mkdirSync(profileDirectory, { recursive: true });
  const serverOf = (name: 'a' | 'b', execArgv: readonly string[] = []) => start(name, join(roots[name], 'dist/tools/bench/versionsServer.js'), [index, BASE_URL], execArgv);
  const a = await serverOf('a');
  const b = await serverOf('b', options.profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDirectory}`, `--cpu-prof-name=kept-b-${Date.now()}.cpuprofile`] : []);

  const lines: string[] = [`${ids.length} kept paths, ${records.toLocaleString('en')} records, ${connections} connections, ${rounds} rounds of ${seconds} s; load average before: ${loadavg().map((n) => n.toFixed(2)).join(' ')}`];
  if (options.compare) {
    const { compared, differing } = await compareBuilds(a, b, ids.slice(0, Number(options['compare-ids'])));
    lines.push(`compared ${compared} answers (built, then kept): ${differing} differ`);
  }
  for (const server of [a, b]) {
    await warm(server.port, paths.rss, {});
    if (views.length > 1) await warm(server.port, paths.html, HTML_REQUEST_HEADERS);
  }
  const bodyFile = join(roots.b, '.bench', `kept-ceiling-body-${records}.xml`);
  writeFileSync(bodyFile, await ceilingBody(b.port, paths.rss));
  const ceiling = await start('ceiling', join(roots.b, 'dist/tools/bench/ceilingServer.js'), [bodyFile]);
  const servers = [ceiling, a, b];

  const loadAverages: number[] = [];
  for (const view of views) {
    const loadCase: DrivenCase = { connections, paths: paths[view], headers: view === 'html' ? HTML_REQUEST_HEADERS : {} };
    // A short run of each first, so the first round does not meet cold code or sockets.
    for (const server of servers) await runLoad(server.port, loadCase, 1);
    const totals = new Map(servers.map((server) => [server.name, { result: newCaseResult(), cpu: 0 } as Tally]));
    lines.push(`${view} (kept answers): per round, req/s and p99 as ratios to the ceiling of that round, server CPU per answer`);
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? servers : [...servers].reverse();
      const here = new Map<string, Tally>();
      for (const server of order) {
        const tally: Tally = { result: newCaseResult(), cpu: 0 };
        const before = cpuSeconds(server.child.pid!);
        await runLoad(server.port, loadCase, seconds, tally.result);
        tally.cpu = cpuSeconds(server.child.pid!) - before;
        here.set(server.name, tally);
        const total = totals.get(server.name)!;
        total.cpu += tally.cpu;
        total.result.responses += tally.result.responses;
        total.result.failures += tally.result.failures;
        total.result.seconds += tally.result.seconds;
        total.result.latenciesMs.push(...tally.result.latenciesMs);
      }
      loadAverages.push(loadavg()[0]!);
      lines.push(`  round ${round + 1} (load ${loadavg()[0]!.toFixed(2)}): ${describe(here)}`);
    }
    lines.push(`  all rounds: ${describe(totals)}`);
  }
  await Promise.all(servers.map(stop));
  lines.push(`load average (1 min) over the rounds: ${Math.min(...loadAverages).toFixed(2)}–${Math.max(...loadAverages).toFixed(2)}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** Each side's figures against the ceiling's of the same tallies. */
function describe(tallies: ReadonlyMap<string, Tally>): string {
  const ceiling = tallies.get('ceiling')!;
  const c = figuresOf(ceiling.result);
  const cpuPerAnswer = (t: Tally) => (t.cpu / Math.max(1, t.result.responses)) * 1e6;
  const parts = [`ceiling ${c.rps.toFixed(0)} req/s, p99 ${c.p99Ms.toFixed(1)} ms, ${cpuPerAnswer(ceiling).toFixed(0)} µs`];
  for (const name of ['a', 'b']) {
    const t = tallies.get(name)!;
    const f = figuresOf(t.result);
    parts.push(`${name} ${(100 * f.rps / c.rps).toFixed(1)}%, p99 ${(f.p99Ms / c.p99Ms).toFixed(2)}x, ${cpuPerAnswer(t).toFixed(0)} µs${f.failures > 0 ? `, ${f.failures} failures` : ''}`);
  }
  return parts.join(' | ');
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
