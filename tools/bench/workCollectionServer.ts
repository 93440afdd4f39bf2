/**
 * Benchmark child process of the work-collection case (workCollectionCase.ts): the plugin in a small Koa
 * host on the Solr adapter over the aggregator's core, its versions either from a work collection
 * (`createSolrIndex({ url, workCollection: { url } })`) or from a work index file beside it
 * (`createSolrIndex({ url, workIndex: { path } })`).
 *
 * It counts the requests the plugin served and the Solr requests the adapter made for them (the
 * adapter's `logger.debug` writes one line per request; background version reads, which name themselves
 * `indexVersion`, are left out), and sums each kind of request's time as the adapter saw it. With `walk`,
 * a work index file is first removed and synced from the whole core (what a new app server on the file path
 * does before its first answer) and the walk's time is reported. With `trace`, the adapter talks to Solr
 * through a forwarder on loopback that notes, per collection and handler, the time Solr took to answer
 * (upstream) and the QTime it reported, so an answer's time splits into Solr's work, Solr's HTTP and
 * JSON, and the plugin's side.
 *
 * Usage: node workCollectionServer.js <collection|file> <core URL> <collection URL | file path> <base URL>
 *          <versionCheckMs> [walk] [trace]
 */
import { rmSync } from 'node:fs';
import { Agent, createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { createSolrIndex } from '../../src/adapters/solr/solrIndex.js';
import { syncWorkIndex } from '../../src/adapters/solr/workIndex/workIndexSync.js';
import { createVersionsPlugin } from '../../src/http/createVersionsPlugin.js';
import { reportToParent, serveForParent } from './processStats.js';

/** A kind of request with how many there were and their summed milliseconds. */
export type KindTotals = Record<string, { count: number; ms: number }>;

/** What the server counted so far (asked for with a `counts` message). */
export interface WorkCollectionServerCounts {
  readonly type: 'wc-counts';
  /** Requests the plugin served. */
  readonly served: number;
  /** Solr requests the adapter made for them, version reads left out. */
  readonly questions: number;
  /** By the adapter's debug line ("<collection>/<handler> <what>"): count and summed ms as the adapter saw them. */
  readonly adapter: KindTotals;
  /** With `trace`, by collection and handler: count, summed upstream ms and summed QTime. */
  readonly upstream: KindTotals;
  readonly qtime: KindTotals;
}

/** Sent before `listening` when the server walked the core first (`walk`). */
export interface WorkCollectionServerWalk {
  readonly type: 'wc-walked';
  readonly walkMs: number;
  readonly documents: number;
}

const add = (totals: KindTotals, kind: string, ms: number) => {
  const entry = (totals[kind] ??= { count: 0, ms: 0 });
  entry.count++;
  entry.ms += ms;
};

/** "…/solr/<collection>/<handler>…" as "<collection>/<handler>". */
function kindOfPath(path: string): string {
  const match = /\/solr\/([^/?]+)\/([^?]+)/.exec(path);
  return match === null ? path.replace(/\?.*/, '') : `${match[1]}/${match[2]}`;
}

/**
 * A forwarder on loopback to `target` (a Solr node's origin) noting each request's upstream time and the
 * QTime in Solr's answer; its origin replaces the node's in the URLs the adapter is given.
 */
async function tracingForwarder(target: URL, upstream: KindTotals, qtime: KindTotals): Promise<string> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const server = createServer((incoming, outgoing) => {
    const started = performance.now();
    const forwarded = request({ host: target.hostname, port: target.port, path: incoming.url, method: incoming.method, headers: incoming.headers, agent }, (answer: IncomingMessage) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const body = Buffer.concat(chunks);
        const kind = kindOfPath(incoming.url ?? '');
        add(upstream, kind, performance.now() - started);
        const reported = /"QTime":\s*(\d+)/.exec(body.subarray(0, 400).toString());
        if (reported !== null) add(qtime, kind, Number(reported[1]));
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        outgoing.end(body);
      });
    });
    forwarded.on('error', (error) => {
      outgoing.writeHead(502);
      outgoing.end(String(error));
    });
    incoming.pipe(forwarded);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function serve(source: 'collection' | 'file', coreUrl: string, target: string, baseUrl: string, versionCheckMs: number, walk: boolean, trace: boolean): Promise<void> {
  const counts = { served: 0, questions: 0, adapter: {} as KindTotals, upstream: {} as KindTotals, qtime: {} as KindTotals };
  if (source === 'file' && walk) {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${target}${suffix}`, { force: true });
    const started = performance.now();
    const summary = await syncWorkIndex({ url: coreUrl, path: target });
    await reportToParent({ type: 'wc-walked', walkMs: performance.now() - started, documents: summary.fetched } satisfies WorkCollectionServerWalk);
  }
  let core = coreUrl;
  let where = target;
  if (trace) {
    const origin = new URL(coreUrl).origin;
    const forwarder = await tracingForwarder(new URL(coreUrl), counts.upstream, counts.qtime);
    core = coreUrl.replace(origin, forwarder);
    if (source === 'collection') where = target.replace(new URL(target).origin, new URL(target).origin === origin ? forwarder : await tracingForwarder(new URL(target), counts.upstream, counts.qtime));
  }
  let logged = 0;
  const logger = {
    debug(message: string) {
      if (/indexVersion/.test(message)) return;
      counts.questions++;
      // "Solr GET http://host/solr/<collection>/<handler> <what>: HTTP 200 in 3 ms"
      const line = /^Solr \S+ (\S+) (.*): (?:HTTP \d+|\w+) in (\d+) ms$/.exec(message);
      // What the request was for, without the ids and numbers in it, so that requests of one kind add up.
      if (line !== null) add(counts.adapter, `${kindOfPath(line[1] ?? '')} ${(line[2] ?? '').replace(/"(?:[^"\\]|\\.)*"/g, '…').replace(/, [a-z-]+, start \d+/, '').replace(/\d+/g, 'N')}`, Number(line[3]));
      else add(counts.adapter, message.replace(/\d+/g, 'N'), 0);
    },
    error(message: string, details?: unknown) {
      if (logged++ < 5) process.stderr.write(`work collection server (${source}) error: ${message} ${details instanceof Error ? details.stack : JSON.stringify(details)}\n`);
    },
    warn(message: string) {
      if (logged++ < 5) process.stderr.write(`work collection server (${source}) warning: ${message}\n`);
    },
  };
  const index = createSolrIndex(source === 'collection'
    ? { url: core, workCollection: { url: where }, versionCheckMs, logger }
    : { url: core, workIndex: { path: where }, versionCheckMs, logger });
  const app = new Koa();
  app.use(async (_ctx, next) => {
    counts.served++;
    await next();
  });
  app.use(createVersionsPlugin({ index, baseUrl, logger }));
  serveForParent(app, () => index.close());
  process.on('message', (message: { type?: string }) => {
    if (message.type === 'counts') void reportToParent({ type: 'wc-counts', ...counts } satisfies WorkCollectionServerCounts);
  });
}

const [source, coreUrl, target, baseUrl, versionCheck, ...flags] = process.argv.slice(2);
if ((source !== 'collection' && source !== 'file') || coreUrl === undefined || target === undefined || baseUrl === undefined || versionCheck === undefined) {
  throw new Error('usage: workCollectionServer <collection|file> <core URL> <collection URL | file path> <base URL> <versionCheckMs> [walk] [trace]');
}
void serve(source, coreUrl, target, baseUrl, Number(versionCheck), flags.includes('walk'), flags.includes('trace'));
