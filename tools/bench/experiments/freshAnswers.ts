/**
 * Side by side, in one run: the server's CPU per answer built afresh (records never asked before) for two
 * builds of the plugin, each serving its own index file of the same catalog, alternated in blocks so that
 * the machine's other tenants fall on both. Each block of never-asked records goes to both servers (each
 * keeps its own answers, so a record is new to each), one build first in even blocks and the other first in
 * odd ones; the server's CPU time comes from /proc, so the figure does not depend on how busy the machine is.
 * Optionally checks that both servers answer every request with the same bytes, and can drop the index
 * files' pages from the OS cache before each block (`--cold`: GNU dd's `iflag=nocache`), to measure answers
 * built afresh when the file's pages are not in memory.
 *
 * Usage: node dist/tools/bench/experiments/freshAnswers.js --records N --a <package root>:<index> --b <package root>:<index>
 *          [--requests N] [--block N] [--view rss|html|both] [--connections N] [--cold] [--compare] [--profile] [--by-size] [--class NAME]
 * With --class (a class's name as workSizeClasses.ts writes it: 1, 2-7, 8-20, 21-100, 101-256, "> 256"), only
 * the records of that class are asked, so that a profile shows one class alone.
 * With --by-size, the mix is asked one class of work size after another (workSizeClasses.ts), each in its
 * own blocks, and the CPU per answer is reported for each class; the servers' memory is reported after the run.
 * A package root is a checkout with its dist/ built (the versions server is its dist/tools/bench/versionsServer.js).
 * With --profile, both servers write their CPU profiles to .bench/profiles of the folder it is run from, never into a package root (the code before may be a read-only checkout).
 */
import { fork, execFileSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Agent, request } from 'node:http';
import { DEFAULT_SEED } from '../catalogGenerator.js';
import { freshRequestMix } from './freshRequestMix.js';
import { cpuSeconds, memoryOf, percentile, sortedCopy } from '../processStats.js';
import { SIZE_CLASSES, sizeClassOf } from './workSizeClasses.js';
import { option, flag } from './benchCommandLine.js';
import { HTML_REQUEST_HEADERS } from '../benchRequests.js';

interface Side { name: string; root: string; index: string; child?: ChildProcess; port?: number }

function sideOf(name: string, text: string): Side {
  const cut = text.lastIndexOf(':');
  return { name, root: text.slice(0, cut), index: text.slice(cut + 1) };
}

function start(side: Side): Promise<void> {
  const execArgv = flag('--profile') ? ['--cpu-prof', `--cpu-prof-dir=${join(process.cwd(), '.bench/profiles')}`, `--cpu-prof-name=fresh-${side.name}-${Date.now()}.cpuprofile`] : [];
  const child = fork(join(side.root, 'dist/tools/bench/versionsServer.js'), [side.index, 'https://catalog.example.org'], { stdio: ['ignore', 2, 2, 'ipc'], execArgv });
  side.child = child;
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${side.name} exited ${code}`)));
    child.on('message', (message: { type?: string; port?: number }) => {
      if (message.type === 'listening') {
        side.port = message.port;
        resolve();
      }
    });
  });
}

function versionsPath(id: string, view: 'rss' | 'html'): string {
  const query = new URLSearchParams({ id, search: 'versions' });
  if (view === 'rss') query.set('view', 'rss');
  return `/Search/Versions?${query}`;
}

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

function get(port: number, path: string, headers: Record<string, string>): Promise<{ status: number; body: Buffer; ms: number }> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, headers, agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks), ms: Number(process.hrtime.bigint() - started) / 1e6 }));
      response.on('error', reject);
    }).on('error', reject).end();
  });
}

/** The paths of a block sent with `connections` at a time; answers their bodies and latencies. */
async function runBlock(port: number, paths: readonly string[], headers: Record<string, string>, connections: number) {
  const bodies: Buffer[] = new Array(paths.length);
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const worker = async () => {
    while (next < paths.length) {
      const at = next++;
      const answer = await get(port, paths[at] as string, headers);
      if (answer.status !== 200) failures += 1;
      bodies[at] = answer.body;
      latencies.push(answer.ms);
    }
  };
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: connections }, worker));
  return { bodies, latencies, seconds: Number(process.hrtime.bigint() - started) / 1e9, failures };
}

function dropFromCache(path: string): void {
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      execFileSync('dd', [`if=${file}`, 'iflag=nocache', 'count=0'], { stdio: 'ignore' });
    } catch {
      // no such file
    }
  }
}

/** An answer without what depends on the second it was built in (the feed's dates of the current year are written with the time of day). */
function withoutTimes(body: Buffer): string {
  return body.toString().replace(/<(pubDate|lastBuildDate)>[^<]*</g, '<$1><');
}

async function main(): Promise<void> {
  const records = Number(option('--records'));
  const seed = Number(option('--seed', String(DEFAULT_SEED)));
  const wanted = Number(option('--requests', '6000'));
  const block = Number(option('--block', '500'));
  const connections = Number(option('--connections', '8'));
  const views = option('--view', 'both') === 'both' ? ['rss', 'html'] as const : [option('--view') as 'rss' | 'html'];
  const cold = flag('--cold');
  const compare = flag('--compare');
  const sides = [sideOf('a', option('--a')), sideOf('b', option('--b'))];

  // The bench's mix of never-asked records (freshRequestMix.ts).
  const onlyClass = option('--class', '');
  if (onlyClass !== '' && !SIZE_CLASSES.some(([, name]) => name === onlyClass)) throw new Error(`--class must be one of ${SIZE_CLASSES.map(([, name]) => JSON.stringify(name)).join(', ')}`);
  const asked = freshRequestMix(records, wanted, seed).filter((s) => onlyClass === '' || sizeClassOf(s.workSize) === onlyClass);
  const groups: Array<[string, string[]]> = flag('--by-size')
    ? SIZE_CLASSES.map(([, name]) => [name, asked.filter((s) => sizeClassOf(s.workSize) === name).map((s) => s.id)])
    : [['all', asked.map((s) => s.id)]];

  for (const side of sides) await start(side);
  const totals = new Map<string, { cpu: number; answers: number; seconds: number; latencies: number[]; failures: number }>();
  let differing = 0;
  for (const view of views) {
    const headers = view === 'html' ? HTML_REQUEST_HEADERS : {};
    for (const [group, ids] of groups) {
      for (const side of sides) totals.set(`${side.name}-${view}-${group}`, { cpu: 0, answers: 0, seconds: 0, latencies: [], failures: 0 });
      for (let from = 0, turn = 0; from < ids.length; from += block, turn++) {
        const paths = ids.slice(from, from + block).map((id) => versionsPath(id, view));
        const order = turn % 2 === 0 ? sides : [...sides].reverse();
        const bodies = new Map<string, Buffer[]>();
        for (const side of order) {
          if (cold) dropFromCache(side.index);
          const before = cpuSeconds(side.child!.pid!);
          const result = await runBlock(side.port!, paths, headers, connections);
          const total = totals.get(`${side.name}-${view}-${group}`)!;
          total.cpu += cpuSeconds(side.child!.pid!) - before;
          total.answers += paths.length;
          total.seconds += result.seconds;
          total.failures += result.failures;
          total.latencies.push(...result.latencies);
          bodies.set(side.name, result.bodies);
        }
        if (compare) {
          const [a, b] = [bodies.get('a')!, bodies.get('b')!];
          for (let i = 0; i < a.length; i++) {
            if (!a[i]!.equals(b[i]!) && withoutTimes(a[i]!) !== withoutTimes(b[i]!)) {
              if (differing++ === 0) process.stderr.write(`first difference, ${paths[i]}:\n${a[i]!.toString()}\n---\n${b[i]!.toString()}\n`);
            }
          }
        }
      }
    }
  }
  // Each server's memory after the run: its kept answers and what its index keeps, the same requests for both.
  const memory = sides.map((side) => memoryOf(side.child!.pid!));
  await Promise.all(sides.map((side) => new Promise<void>((resolve) => {
    side.child!.removeAllListeners('exit');
    side.child!.once('exit', () => resolve());
    side.child!.send({ type: 'stop' });
  })));
  const lines: string[] = [];
  for (const view of views) for (const [group] of groups) {
    const [a, b] = sides.map((side) => totals.get(`${side.name}-${view}-${group}`)!) as [NonNullable<ReturnType<typeof totals.get>>, NonNullable<ReturnType<typeof totals.get>>];
    if (a.answers === 0) continue;
    const describe = (name: string, t: typeof a) => {
      const sorted = sortedCopy(t.latencies);
      return `${name}: ${(t.cpu / t.answers * 1e6).toFixed(0)} µs server CPU/answer, ${(t.answers / t.seconds).toFixed(0)} answers/s, p50 ${percentile(sorted, 0.5).toFixed(2)} ms, p99 ${percentile(sorted, 0.99).toFixed(2)} ms, failures ${t.failures}`;
    };
    lines.push(`${view}${group === 'all' ? '' : `, works of ${group}`}${cold ? ' (index pages dropped from the OS cache before each block)' : ''}, ${a.answers} answers each, ${connections} at a time`);
    lines.push(`  ${describe(`a ${sides[0]!.root}`, a)}`);
    lines.push(`  ${describe(`b ${sides[1]!.root}`, b)}`);
    lines.push(`  b/a CPU per answer: ${((b.cpu / b.answers) / (a.cpu / a.answers)).toFixed(3)}`);
  }
  lines.push(`server memory after the run: ${sides.map((side, i) => `${side.name} ${(memory[i]!.rss / 2 ** 20).toFixed(0)} MB (${(memory[i]!.anonymous / 2 ** 20).toFixed(0)} MB anonymous)`).join(', ')}`);
  if (compare) lines.push(`answers with different bytes: ${differing}`);
  process.stdout.write(`${lines.join('\n')}\n`);
  agent.destroy();
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
