/**
 * `npm run soak` (issue item 4; not part of `npm test`): runs the demo server (dist/demo/server.js) in a
 * process of its own on 127.0.0.1 and keeps 50 connections busy for 60 seconds with autocannon, mixing
 * feeds, pages, the host's record pages, missing records, bad input and path tricks. Each request in the mix
 * says which statuses it may get; anything else, any 5xx, socket error or timeout, a server that dies or
 * logs an error, counts as unexpected.
 *
 * It reports the status mix (overall and per kind of request), the unexpected errors, throughput and
 * latency, and the server's resident memory (VmRSS from /proc/<pid>/status) at the start, after a warm-up
 * and at the end. Memory is judged from the warm-up on, because the first requests grow the heap to its
 * working size (compiled templates, JIT code, SQLite's page cache); growth after that beyond noise is what
 * a leak looks like.
 *
 * Exit status: 0 when nothing unexpected happened and memory stayed flat, 1 otherwise, 2 on bad usage.
 *
 * Options: --duration <seconds> (default 60), --connections <n> (default 50), --json (the report as JSON).
 * Traffic goes only to 127.0.0.1, to the server this script started, and stops by itself.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { PACKAGE_ROOT } from '../../src/packageFiles.js';

// ---------------------------------------------------------------------------------------------------------
// Options

interface SoakOptions {
  readonly durationSeconds: number;
  readonly connections: number;
  readonly json: boolean;
}

function optionsFrom(argv: string[]): SoakOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      duration: { type: 'string', default: '60' },
      connections: { type: 'string', default: '50' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log('usage: npm run soak [-- --duration SECONDS] [--connections N] [--json]');
    process.exit(0);
  }
  const durationSeconds = Number(values.duration);
  const connections = Number(values.connections);
  if (!Number.isInteger(durationSeconds) || durationSeconds < 2 || durationSeconds > 3600) throw new UsageError('--duration must be a whole number of seconds, 2 to 3600');
  if (!Number.isInteger(connections) || connections < 1 || connections > 1000) throw new UsageError('--connections must be a whole number, 1 to 1000');
  return { durationSeconds, connections, json: values.json ?? false };
}

class UsageError extends Error {}

// ---------------------------------------------------------------------------------------------------------
// The server under test

const SERVER_SCRIPT = join(PACKAGE_ROOT, 'dist', 'demo', 'server.js');
const DEMO_CATALOG = join(PACKAGE_ROOT, 'demo', 'demo-catalog.jsonl');

/** A port nobody listens on right now (the server is told to use it; PORT=0 would leave us guessing). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** What the server wrote to stderr, sorted: the plugin logs 4xx causes as warnings and 5xx causes as errors. */
interface ServerLog {
  /** Warnings about 4xx answers (RECORD_NOT_FOUND, MISSING_RECORD_ID): expected for the mix's bad requests. */
  clientErrorWarnings: number;
  /** Anything that says the server failed: the plugin's error log (5xx causes), uncaught errors. */
  readonly failures: string[];
}

const PLUGIN_WARNING = /\[koa-catalog-versions\] (RECORD_NOT_FOUND|MISSING_RECORD_ID):/;
const FAILURE = /\[koa-catalog-versions\] (?!RECORD_NOT_FOUND:|MISSING_RECORD_ID:)|Uncaught|Unhandled|FATAL|out of memory|EMFILE/;

interface RunningServer {
  readonly child: ChildProcess;
  readonly origin: string;
  readonly log: ServerLog;
  exitCode(): number | null;
  stop(): Promise<void>;
}

async function startServer(): Promise<RunningServer> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [SERVER_SCRIPT], {
    env: { ...process.env, PORT: String(port), BASE_URL: origin, SOLR_URL: '', CATALOG_RECORDS: DEMO_CATALOG },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: ServerLog = { clientErrorWarnings: 0, failures: [] };
  const startup: string[] = [];
  let partial = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (PLUGIN_WARNING.test(line)) log.clientErrorWarnings += 1;
      else if (FAILURE.test(line) && log.failures.length < 50) log.failures.push(line);
      if (startup.length < 50) startup.push(line);
    }
  });
  child.stdout?.resume();
  let exited: number | null = null;
  child.on('exit', (code, signal) => { exited = code ?? (signal !== null ? 128 : 1); });

  // Ready when the home page answers (the catalog is loaded before the server listens).
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited !== null) throw new Error(`the demo server exited with status ${exited} before answering:\n${startup.join('\n')}`);
    try {
      if ((await fetch(`${origin}/`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('the demo server did not answer within 60 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    child,
    origin,
    log,
    exitCode: () => exited,
    stop: () => new Promise<void>((resolve) => {
      if (exited !== null) return resolve();
      const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
      child.once('exit', () => { clearTimeout(force); resolve(); });
      child.kill('SIGTERM');
    }),
  };
}

/** VmRSS of a process in bytes (Linux /proc), or NaN when it cannot be read. */
function residentBytes(pid: number): number {
  try {
    const kib = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kib === undefined ? Number.NaN : Number(kib) * 1024;
  } catch {
    return Number.NaN;
  }
}

// ---------------------------------------------------------------------------------------------------------
// The request mix

interface MixEntry {
  /** What kind of request this is, for the report. */
  readonly kind: string;
  // No HEAD: autocannon's response parser does not know a HEAD answer has no body, waits for the announced
  // Content-Length bytes and pairs every later response with the wrong request (HEAD is tested in test/).
  readonly method?: 'GET' | 'POST';
  readonly path: string;
  readonly headers?: Record<string, string>;
  /** Statuses this request may get; anything else is unexpected. */
  readonly expected: readonly number[];
}

/** Record ids spread over the demo catalog, so the mix touches small and large works alike. */
function sampleIds(count: number): string[] {
  const ids = readFileSync(DEMO_CATALOG, 'utf8').split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => (JSON.parse(line) as { id?: unknown }).id)
    .filter((id): id is string => typeof id === 'string');
  const step = Math.max(1, Math.floor(ids.length / count));
  return ids.filter((_, i) => i % step === 0).slice(0, count);
}

function requestMix(): MixEntry[] {
  const ids = sampleIds(12);
  const q = encodeURIComponent;
  const versions = (query: string) => `/Search/Versions?${query}`;
  const mix: MixEntry[] = [];
  ids.forEach((id, i) => {
    const lng = ['en', 'pt-br', 'es'][i % 3] ?? 'en';
    mix.push(
      { kind: 'feed', path: versions(`sort=last_indexed+desc&limit=50&view=rss&id=${q(id)}&search=versions&lng=${lng}`), expected: [200] },
      { kind: 'page', path: versions(`id=${q(id)}&search=versions&lng=${lng}`), expected: [200] },
      { kind: 'page', path: versions(`id=${q(id)}&search=versions`), headers: { cookie: `ui=mobile; language=${lng}; VUFIND_SESSION=0123456789abcdef0123456789abcdef` }, expected: [200] },
      { kind: 'record page (host)', path: `/Record/${q(id)}`, expected: [200] },
    );
  });
  const first = q(ids[0] ?? 'none');
  mix.push(
    { kind: 'feed', path: versions(`view=rss&id=${first}&page=2`), expected: [200] },
    { kind: 'page', path: versions(`id=${first}&search=versions&page=999999999`), expected: [200] },
    { kind: 'missing record', path: versions('id=no-such-record&search=versions'), expected: [404] },
    { kind: 'missing record', path: versions('id=no-such-record&search=versions&view=rss&lng=es'), expected: [404] },
    { kind: 'missing record', path: `/Record/no-such-record`, expected: [404] },
    { kind: 'bad input', path: versions('search=versions'), expected: [400] },
    { kind: 'bad input', path: versions('id=&view=rss'), expected: [400] },
    { kind: 'bad input', path: versions(`id=${first}&lng=%E0%A4%A&page=-1&limit=%&sort=%00`), expected: [200] },
    { kind: 'bad input', path: versions(`id=%3Cscript%3Ealert(1)%3C%2Fscript%3E&view=rss`), expected: [404] },
    { kind: 'bad input', path: versions(`id=${first}&lng=es%0D%0ASet-Cookie:%20evil=1`), headers: { cookie: 'ui="><script>; language=%0D%0A; VUFIND_SESSION=<b>' }, expected: [200] },
    { kind: 'bad input', path: versions(`id=${'a'.repeat(8 * 1024)}`), expected: [404] },
    { kind: 'bad input', path: versions(`id=${first}&page=99999999999999999999999&view=rss`), headers: { 'accept-language': `${'x'.repeat(5000)}, pt;q=0.5` }, expected: [200] },
    { kind: 'bad input', path: versions(`id=${first}&id=other&view=rss&view=html&lng=__proto__`), expected: [200] },
    { kind: 'bad input', method: 'POST', path: versions(`id=${first}`), expected: [405] },
    { kind: 'path trick', path: '/themes/standard/assets/..%2F..%2Fpackage.json', expected: [404] },
    { kind: 'path trick', path: '/themes/%2e%2e/assets/theme.json', expected: [404] },
    { kind: 'assets', path: '/themes/standard/assets/theme.css', expected: [200] },
    { kind: 'assets', path: '/themes/root/assets/xsl/rss.xsl', expected: [200] },
  );
  return spreadEvenly(mix);
}

/**
 * The mix with each kind spread evenly over the list. autocannon walks the list in order on every
 * connection, all connections in step, so a list grouped by kind would send all feeds at once, then all
 * pages, and a short run would never reach the bad input at the end.
 */
function spreadEvenly(mix: readonly MixEntry[]): MixEntry[] {
  const sizes = new Map<string, number>();
  for (const entry of mix) sizes.set(entry.kind, (sizes.get(entry.kind) ?? 0) + 1);
  const seen = new Map<string, number>();
  return mix
    .map((entry) => {
      const position = seen.get(entry.kind) ?? 0;
      seen.set(entry.kind, position + 1);
      return { entry, key: (position + 0.5) / (sizes.get(entry.kind) ?? 1) };
    })
    .sort((a, b) => a.key - b.key)
    .map(({ entry }) => entry);
}

// ---------------------------------------------------------------------------------------------------------
// Running and reporting

interface SoakReport {
  readonly durationSeconds: number;
  readonly connections: number;
  readonly requests: number;
  readonly requestsPerSecond: number;
  readonly latencyMs: { readonly p50: number; readonly p99: number; readonly max: number };
  readonly statuses: Record<string, number>;
  readonly byKind: Record<string, Record<string, number>>;
  readonly unexpected: { readonly count: number; readonly samples: string[] };
  /** The server's warnings about 4xx answers (expected: the mix asks for missing records and sends bad input). */
  readonly serverWarnings: number;
  readonly memory: {
    readonly startMiB: number;
    readonly afterWarmUpMiB: number;
    readonly endMiB: number;
    readonly peakMiB: number;
    readonly growthMiB: number;
    readonly allowedGrowthMiB: number;
  };
  readonly ok: boolean;
}

const MiB = 1024 * 1024;
const round = (value: number) => Math.round(value * 10) / 10;
const median = (values: number[]) => {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : (sorted[Math.floor((sorted.length - 1) / 2)] as number);
};

async function soak(options: SoakOptions): Promise<SoakReport> {
  const server = await startServer();
  const pid = server.child.pid ?? 0;
  const unexpected: string[] = [];
  let unexpectedCount = 0;
  const noteUnexpected = (line: string) => {
    unexpectedCount += 1;
    if (unexpected.length < 20) unexpected.push(line);
  };
  const byKind: Record<string, Record<string, number>> = {};

  try {
    const startRss = residentBytes(pid);
    const samples: Array<{ at: number; rss: number }> = [];
    const started = Date.now();
    const sampler = setInterval(() => samples.push({ at: (Date.now() - started) / 1000, rss: residentBytes(pid) }), 500);

    const mix = requestMix();
    const instance = autocannon({
      url: server.origin,
      connections: options.connections,
      duration: options.durationSeconds,
      timeout: 10,
      requests: mix.map((entry) => ({
        method: entry.method ?? 'GET',
        path: entry.path,
        ...(entry.headers !== undefined ? { headers: entry.headers } : {}),
        onResponse: (status: number) => {
          const counts = (byKind[entry.kind] ??= {});
          counts[status] = (counts[status] ?? 0) + 1;
          if (!entry.expected.includes(status)) noteUnexpected(`${entry.method ?? 'GET'} ${entry.path.slice(0, 100)} → ${status} (expected ${entry.expected.join(' or ')})`);
        },
      })),
    });
    const result = await instance;
    clearInterval(sampler);
    const endRss = residentBytes(pid);

    if (result.errors > 0) noteUnexpected(`${result.errors} socket error(s), ${result.timeouts} of them timeouts`);
    if (result['5xx'] > 0) noteUnexpected(`${result['5xx']} answer(s) with a 5xx status`);
    if (server.exitCode() !== null) noteUnexpected(`the server exited with status ${server.exitCode()} during the run`);
    for (const line of server.log.failures) noteUnexpected(`server logged: ${line.slice(0, 200)}`);

    // Warm-up: the second tenth of the run (the first tenth grows the heap to its working size).
    const windowMedian = (from: number, to: number) => median(samples.filter((s) => s.at >= from && s.at < to).map((s) => s.rss));
    const d = options.durationSeconds;
    const afterWarmUp = windowMedian(d * 0.1, d * 0.2 + 0.5);
    const end = Number.isFinite(windowMedian(d * 0.9, d + 1)) ? windowMedian(d * 0.9, d + 1) : endRss;
    const peak = Math.max(startRss, endRss, ...samples.map((s) => s.rss).filter(Number.isFinite));
    // Noise: a garbage-collected heap breathes by tens of MiB under load; a leak grows with the run.
    const allowedGrowth = Math.max(48 * MiB, afterWarmUp * 0.25);
    const growth = end - afterWarmUp;

    const statuses: Record<string, number> = {};
    for (const [status, { count }] of Object.entries(result.statusCodeStats ?? {})) statuses[status] = count ?? 0;
    const memoryOk = !Number.isFinite(growth) || growth <= allowedGrowth;
    return {
      durationSeconds: result.duration,
      connections: options.connections,
      requests: result.requests.total,
      requestsPerSecond: round(result.requests.average),
      latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
      statuses,
      byKind,
      unexpected: { count: unexpectedCount, samples: unexpected },
      serverWarnings: server.log.clientErrorWarnings,
      memory: {
        startMiB: round(startRss / MiB),
        afterWarmUpMiB: round(afterWarmUp / MiB),
        endMiB: round(end / MiB),
        peakMiB: round(peak / MiB),
        growthMiB: round(growth / MiB),
        allowedGrowthMiB: round(allowedGrowth / MiB),
      },
      ok: unexpectedCount === 0 && memoryOk,
    };
  } finally {
    await server.stop();
  }
}

function printReport(report: SoakReport): void {
  const lines = [
    `soak: ${report.durationSeconds} s, ${report.connections} connections, ${report.requests} requests (${report.requestsPerSecond}/s)`,
    `latency: p50 ${report.latencyMs.p50} ms, p99 ${report.latencyMs.p99} ms, max ${report.latencyMs.max} ms`,
    `statuses: ${Object.entries(report.statuses).map(([status, count]) => `${status}: ${count}`).join(', ')}`,
    ...Object.entries(report.byKind).map(([kind, counts]) => `  ${kind}: ${Object.entries(counts).map(([status, count]) => `${status}×${count}`).join(', ')}`),
    `unexpected: ${report.unexpected.count} (server warnings about 4xx answers, expected: ${report.serverWarnings})`,
    ...report.unexpected.samples.map((line) => `  ${line}`),
    `server memory (RSS): start ${report.memory.startMiB} MiB, after warm-up ${report.memory.afterWarmUpMiB} MiB, `
      + `end ${report.memory.endMiB} MiB, peak ${report.memory.peakMiB} MiB; growth after warm-up ${report.memory.growthMiB} MiB `
      + `(allowed ${report.memory.allowedGrowthMiB} MiB)`,
    report.ok ? 'soak: OK' : 'soak: FAILED',
  ];
  console.log(lines.join('\n'));
}

try {
  const options = optionsFrom(process.argv.slice(2));
  const report = await soak(options);
  if (options.json) console.log(JSON.stringify(report, null, 2));
  else printReport(report);
  process.exitCode = report.ok ? 0 : 1;
} catch (error) {
  console.error(`soak: ${(error as Error).message}`);
  process.exitCode = error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') ? 2 : 1;
}
