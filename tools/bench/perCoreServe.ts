/**
 * The benchmark's servers in per-core mode (`--per-core`): the child that runBench.ts starts becomes a
 * node:cluster primary that forks one worker per core (os.availableParallelism()), each running the same
 * server on the one port the workers share, as a host runs the plugin on every core (docs/deployment.md,
 * "One process per core"). The primary serves nothing itself: it tells the parent the port and the
 * workers' pids once all of them listen (their memory and CPU are read from /proc), and stops them on the
 * parent's `stop`. What each worker serves is the server module's business (versionsServer.ts,
 * ceilingServer.ts); serveForParent (processStats.ts) reports to the primary there, since a worker's
 * parent is the primary.
 */
import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import { reportToParent, type ListeningReport } from './processStats.js';

export const PER_CORE_FLAG = '--per-core';

/** What a per-core primary reports once every worker listens. */
export interface PerCoreListeningReport extends ListeningReport {
  readonly workerPids: readonly number[];
}

/** The command-line arguments without the mode flag, and whether this process is a per-core primary. */
export function perCoreMode(argv: readonly string[]): { readonly args: string[]; readonly primary: boolean } {
  const perCore = argv.includes(PER_CORE_FLAG);
  return { args: argv.filter((arg) => arg !== PER_CORE_FLAG), primary: perCore && cluster.isPrimary };
}

/** Runs the primary: forks the workers, reports when all listen, stops them when asked. */
export function runPerCorePrimary(workerCount = availableParallelism()): void {
  const workers: Worker[] = [];
  const ports = new Map<number, number>();
  for (let i = 0; i < workerCount; i++) {
    const worker = cluster.fork();
    workers.push(worker);
    worker.on('message', (message: { type?: string; port?: number }) => {
      if (message.type !== 'listening' || message.port === undefined) return;
      ports.set(worker.process.pid ?? 0, message.port);
      if (ports.size < workerCount) return;
      const [port] = new Set(ports.values());
      const report: PerCoreListeningReport = { type: 'listening', port: port as number, workerPids: [...ports.keys()] };
      void reportToParent(report);
    });
  }
  const stopAll = () => Promise.all(workers.map((worker) => new Promise<void>((resolve) => {
    if (worker.isDead()) return resolve();
    worker.once('exit', () => resolve());
    worker.send({ type: 'stop' });
  })));
  process.on('message', (message: { type?: string }) => {
    if (message.type === 'stop') void stopAll().then(() => process.exit(0));
  });
  process.on('disconnect', () => {
    for (const worker of workers) worker.kill('SIGKILL');
    process.exit(0);
  });
}
