/**
 * Small helpers the benchmark's processes share: memory figures from /proc, percentiles, and the message
 * a child process sends its parent. Kept apart so each child loads only what it needs.
 */
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';

export interface MemoryFigures {
  /** Resident set size now, in bytes. */
  readonly rss: number;
  /** Peak resident set size of the process so far, in bytes. */
  readonly peakRss: number;
  /** Of `rss`: anonymous memory (heap, SQLite's page cache) and mapped files (code, memory-mapped databases). */
  readonly anonymous: number;
  readonly files: number;
}

/** VmRSS and VmHWM of a process from /proc (Linux); elsewhere, this process's own figures from Node. */
export function memoryOf(pid: number | 'self' = 'self'): MemoryFigures {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024;
    const rss = kib('VmRSS');
    const peakRss = kib('VmHWM');
    if (Number.isFinite(rss) && Number.isFinite(peakRss)) return { rss, peakRss, anonymous: kib('RssAnon'), files: kib('RssFile') };
  } catch {
    // not Linux, or the process is gone: fall through
  }
  if (pid !== 'self' && pid !== process.pid) return { rss: Number.NaN, peakRss: Number.NaN, anonymous: Number.NaN, files: Number.NaN };
  // maxRSS is in KiB on every platform Node supports.
  return { rss: process.memoryUsage.rss(), peakRss: process.resourceUsage().maxRSS * 1024, anonymous: Number.NaN, files: Number.NaN };
}

const TICKS_PER_SECOND = 100;

/** CPU time (user + system) a process has used so far, in seconds, from /proc (Linux). */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** The value below which `fraction` of the sorted values lie (nearest rank). */
export function percentile(sorted: ArrayLike<number>, fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(fraction * sorted.length)));
  return sorted[rank - 1] as number;
}

/** Values sorted ascending into a typed array (fast to sort, compact for 100 000s of latencies). */
export function sortedCopy(values: readonly number[] | Float64Array): Float64Array {
  return Float64Array.from(values).sort();
}

/** Sends a result to the parent process, and fails loudly when there is no parent to send it to. */
export function reportToParent(message: unknown): Promise<void> {
  if (process.send === undefined) {
    process.stdout.write(`${JSON.stringify(message)}\n`);
    return Promise.resolve();
  }
  const send = process.send.bind(process);
  return new Promise((resolve, reject) => {
    send(message, undefined, undefined, (error: Error | null) => (error === null ? resolve() : reject(error)));
  });
}

/** What a server child sends its parent once it listens. */
export interface ListeningReport {
  readonly type: 'listening';
  readonly port: number;
}

/**
 * Serves `app` on a free port of 127.0.0.1, tells the parent the port (a ListeningReport), and on the
 * parent's `stop` closes every connection, runs `beforeExit` and exits. The server under test and the
 * ceiling both start this way, so the load generator meets the same socket setup on both.
 */
export function serveForParent(app: Koa, beforeExit: () => Promise<void> = async () => undefined): Server {
  const server: Server = app.listen(0, '127.0.0.1', () => {
    const report: ListeningReport = { type: 'listening', port: (server.address() as AddressInfo).port };
    void reportToParent(report);
  });
  // Keep-alive connections from the load generator stay open between cases; do not let Node cut them.
  server.keepAliveTimeout = 60_000;
  process.on('message', (message: { type?: string }) => {
    if (message.type !== 'stop') return;
    server.closeAllConnections();
    server.close(() => {
      void beforeExit().then(() => process.exit(0));
    });
  });
  process.on('disconnect', () => process.exit(0));
  return server;
}
