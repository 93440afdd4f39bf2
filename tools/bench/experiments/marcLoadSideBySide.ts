/**
 * The MARC load of the benchmark alone, code against code: loads one ISO 2709 file into an empty embedded
 * index file with the loader (loadRecordFiles, src/cli/loadRecords.ts) of two or more built trees (each a
 * `dist/` of this project, e.g. a checkout of main before a change and this one), in a child process per
 * load, alternating the trees round after round, and watches each child from outside through
 * /proc: its resident memory every 100 ms (the peak, and when in the load it came), and the CPU seconds of
 * each of its threads (the main thread, the mapping workers, the staging worker, V8's and libuv's helpers).
 * It prints one line per run and, with --json, the samples too.
 *
 *   node dist/tools/bench/experiments/marcLoadSideBySide.js --file F [--records N] [--rounds R] [--workers W]
 *        [--key-profile vufind|extended] [--env NAME=VALUE] [--node-flag --cpu-prof] --tree label=/path/to/dist ...
 *
 * With --records N, the file's first N records (its bytes up to the N-th record terminator, 1D) are copied
 * once into a temporary file that every run loads, and that file is deleted at the end; without it, the
 * whole file is loaded in place.
 *
 * The rest of the benchmark (runBench.ts) is not run: this is for iterating on the MARC load, whose full
 * run takes minutes. Not part of the package, nor of `npm run bench`.
 */
import { fork } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync, readSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString, writeHeapSnapshot } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { memoryOf, reportToParent } from '../processStats.js';
import { watchMachineShare, type MachineShare } from '../machineShare.js';

/** What a child reports: marcLoad.ts's figures that a load alone gives, and the main thread's heap. */
interface ChildReport {
  readonly type: 'marc-alone-loaded';
  readonly loaded: number;
  readonly rejected: number;
  readonly seconds: number;
  readonly peakRssBytes: number;
  readonly share: MachineShare;
  /** The main thread's largest V8 heap (used) and external + array buffers seen, sampled every 100 ms. */
  readonly mainHeapPeakMb: number;
  readonly mainExternalPeakMb: number;
  /** At the sample of the largest resident memory: it, the main thread's heap (committed) and external memory. */
  readonly atPeak: { readonly rssMb: number; readonly mainHeapTotalMb: number; readonly mainHeapUsedMb: number; readonly externalMb: number; readonly seconds: number };
}

interface Tree {
  readonly label: string;
  readonly dist: string;
}

interface ThreadCpu {
  readonly name: string;
  /** CPU seconds (user + system). */
  cpu: number;
}

interface RunFigures {
  readonly label: string;
  readonly report: ChildReport;
  readonly peakMb: number;
  /** Seconds after the start when the peak was seen. */
  readonly peakAt: number;
  readonly threads: ThreadCpu[];
  readonly samples: Array<[number, number]>;
}

function parseArgs(argv: readonly string[]) {
  const trees: Tree[] = [];
  const env: Record<string, string> = {};
  let file: string | undefined;
  let records: number | undefined;
  let rounds = 1;
  let workers: string | undefined;
  let keyProfile: string | undefined;
  let json = false;
  const execArgv: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const next = () => argv[++i] ?? '';
    if (arg === '--file') file = next();
    else if (arg === '--records') records = Number(next());
    else if (arg === '--rounds') rounds = Number(next());
    else if (arg === '--workers') workers = next();
    else if (arg === '--key-profile') keyProfile = next();
    else if (arg === '--json') json = true;
    else if (arg === '--node-flag') execArgv.push(next());
    else if (arg === '--env') {
      const [name, ...value] = next().split('=');
      env[name!] = value.join('=');
    } else if (arg === '--tree') {
      const [label, ...dist] = next().split('=');
      trees.push({ label: label!, dist: dist.join('=') });
    } else throw new Error(`unknown argument ${arg}`);
  }
  if (file === undefined || trees.length === 0) throw new Error('give --file and at least one --tree label=dist');
  if (records !== undefined && !(Number.isInteger(records) && records > 0)) throw new Error('--records takes a whole number of records above 0');
  return { trees, env, file, records, rounds, workers, keyProfile, json, execArgv };
}

/**
 * Copies the first `records` records of the ISO 2709 file at `from` (its bytes up to and including the
 * `records`-th record terminator) to `to`; returns how many it copied (fewer when the file has fewer).
 */
function copyFirstRecords(from: string, to: string, records: number): number {
  const input = openSync(from, 'r');
  const output = openSync(to, 'w');
  const chunk = Buffer.allocUnsafe(1 << 20);
  let copied = 0;
  try {
    for (;;) {
      const length = readSync(input, chunk, 0, chunk.length, null);
      if (length === 0) break;
      let end = length;
      for (let at = chunk.indexOf(0x1d); at >= 0 && at < length; at = chunk.indexOf(0x1d, at + 1)) {
        copied += 1;
        if (copied === records) {
          end = at + 1;
          break;
        }
      }
      writeSync(output, chunk, 0, end);
      if (copied === records) break;
    }
  } finally {
    closeSync(input);
    closeSync(output);
  }
  return copied;
}

function threadCpuOf(pid: number, seen: Map<string, ThreadCpu>): void {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const name = stat.slice(stat.indexOf('(') + 1, close);
      const fields = stat.slice(close + 2).split(' ');
      // utime and stime are fields 14 and 15 of the line (11 and 12 after the name and state), in USER_HZ.
      const cpu = (Number(fields[11]) + Number(fields[12])) / 100;
      // The main thread's id is the process's; worker threads are all named after the program.
      seen.set(tid, { name: tid === String(pid) ? 'main' : `${name}/${tid}`, cpu });
    } catch {
      // the thread ended between the listing and the read
    }
  }
}

function rssMbOf(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? Number.NaN) / 1024;
  } catch {
    return Number.NaN;
  }
}

function runOnce(tree: Tree, options: ReturnType<typeof parseArgs>, run: number): Promise<RunFigures> {
  const indexPath = join(tmpdir(), `marc-side-by-side-${process.pid}-${run}.sqlite`);
  const args = ['child', tree.dist, options.file, indexPath, options.workers ?? '', options.keyProfile ?? ''];
  const child = fork(process.argv[1]!, args, { stdio: ['ignore', process.env.MARC_ALONE_TRACE_GC === '1' ? 'inherit' : 'ignore', 'inherit', 'ipc'], env: { ...process.env, ...options.env }, execArgv: options.execArgv });
  const started = performance.now();
  const samples: Array<[number, number]> = [];
  const threads = new Map<string, ThreadCpu>();
  let peakMb = 0;
  let peakAt = 0;
  const timer = setInterval(() => {
    const mb = rssMbOf(child.pid!);
    const at = (performance.now() - started) / 1000;
    if (!Number.isFinite(mb)) return;
    samples.push([Math.round(at * 10) / 10, Math.round(mb)]);
    if (mb > peakMb) {
      peakMb = mb;
      peakAt = at;
    }
    threadCpuOf(child.pid!, threads);
  }, 100);
  return new Promise((resolve, reject) => {
    let report: ChildReport | undefined;
    child.on('message', (message: ChildReport) => {
      if (message.type === 'marc-alone-loaded') report = message;
    });
    child.on('exit', (code) => {
      clearInterval(timer);
      if (report === undefined) {
        reject(new Error(`${tree.label}: the load ended (code ${code}) without a report`));
        return;
      }
      const byCpu = [...threads.values()].filter((thread) => thread.cpu >= 0.5).sort((a, b) => b.cpu - a.cpu);
      resolve({ label: tree.label, report, peakMb: report.peakRssBytes / 2 ** 20, peakAt, threads: byCpu, samples });
    });
  });
}

async function main(): Promise<void> {
  const given = parseArgs(process.argv.slice(2));
  let options = given;
  let cut: string | undefined;
  if (given.records !== undefined) {
    cut = join(tmpdir(), `marc-side-by-side-${process.pid}-first-${given.records}.mrc`);
    const copied = copyFirstRecords(given.file, cut, given.records);
    process.stdout.write(`loading the first ${copied} records of ${given.file} (copied to ${cut}, deleted at the end)\n`);
    options = { ...given, file: cut };
  }
  try {
    await runAll(options);
  } finally {
    if (cut !== undefined) rmSync(cut, { force: true });
  }
}

async function runAll(options: ReturnType<typeof parseArgs>): Promise<void> {
  const all: RunFigures[] = [];
  let run = 0;
  for (let round = 0; round < options.rounds; round++) {
    for (const tree of options.trees) {
      const figures = await runOnce(tree, options, run++);
      all.push(figures);
      const { report } = figures;
      const threads = figures.threads.map((thread) => `${thread.name} ${thread.cpu.toFixed(1)}`).join(', ');
      process.stdout.write(
        `round ${round + 1} ${tree.label}: ${report.loaded} records in ${report.seconds.toFixed(1)} s = ${Math.round(report.loaded / report.seconds)}/s, `
        + `peak ${Math.round(figures.peakMb)} MB (at ${figures.peakAt.toFixed(1)} s), CPU ${report.share.ownCpuSeconds.toFixed(1)} s, `
        + `others ${report.share.othersCores.toFixed(2)} cores, main heap ≤ ${Math.round(report.mainHeapPeakMb)} MB, external ≤ ${Math.round(report.mainExternalPeakMb)} MB, `
        + `at the peak (${report.atPeak.seconds.toFixed(1)} s) main heap ${Math.round(report.atPeak.mainHeapUsedMb)} used of ${Math.round(report.atPeak.mainHeapTotalMb)} MB, external ${Math.round(report.atPeak.externalMb)} MB; `
        + `rejected ${report.rejected}; threads (CPU s): ${threads}\n`,
      );
    }
  }
  if (options.json) process.stdout.write(`${JSON.stringify(all.map(({ report, ...rest }) => ({ ...rest, seconds: report.seconds, loaded: report.loaded })))}\n`);
}

/** One load in this process with the loader of the tree at `dist`. */
async function child([dist, file, indexPath, workers, keyProfile]: readonly string[]): Promise<ChildReport> {
  const from = (path: string) => import(pathToFileURL(join(dist!, path)).href);
  const { openEmbeddedIndex } = await from('src/adapters/sqlite/index.js');
  const { loadRecordFiles } = await from('src/cli/loadRecords.js');
  const { recordFormatNamed } = await from('src/ingest/recordFormats.js');
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${indexPath}${suffix}`, { force: true });
  let mainHeapPeak = 0;
  let mainExternalPeak = 0;
  let atPeak = { rssMb: 0, mainHeapTotalMb: 0, mainHeapUsedMb: 0, externalMb: 0, seconds: 0 };
  const sample = () => {
    const usage = process.memoryUsage();
    const mb = 2 ** 20;
    if (usage.rss / mb > atPeak.rssMb) {
      atPeak = {
        rssMb: usage.rss / mb, mainHeapTotalMb: usage.heapTotal / mb, mainHeapUsedMb: usage.heapUsed / mb,
        externalMb: (usage.external + usage.arrayBuffers) / mb, seconds: (performance.now() - started) / 1000,
      };
    }
    mainHeapPeak = Math.max(mainHeapPeak, usage.heapUsed);
    mainExternalPeak = Math.max(mainExternalPeak, usage.external + usage.arrayBuffers);
  };
  // MARC_ALONE_TRACE_GC=1: V8's line per collection, every thread's (on stdout, which the parent drops unless told).
  if (process.env.MARC_ALONE_TRACE_GC === '1') setFlagsFromString('--trace-gc');
  const started = performance.now();
  const timer = setInterval(sample, 100);
  // MARC_ALONE_LIVE_AT=s1,s2: the main thread's live heap at those seconds
  // (a full collection first), and MARC_ALONE_SNAPSHOT=1 writes a heap snapshot then, to see what lives.
  for (const at of (process.env.MARC_ALONE_LIVE_AT ?? '').split(',').filter((text) => text !== '')) {
    setTimeout(() => {
      setFlagsFromString('--expose-gc');
      (runInNewContext('gc') as () => void)();
      const usage = process.memoryUsage();
      process.stderr.write(`live at ${at} s: main heap ${Math.round(usage.heapUsed / 2 ** 20)} MB, external ${Math.round((usage.external + usage.arrayBuffers) / 2 ** 20)} MB\n`);
      if (process.env.MARC_ALONE_SNAPSHOT === '1') process.stderr.write(`snapshot ${writeHeapSnapshot()}\n`);
    }, Number(at) * 1000).unref();
  }
  const shareSoFar = watchMachineShare();
  const index = openEmbeddedIndex({ path: indexPath, create: true, ...(keyProfile !== '' ? { keyProfile } : {}) });
  const summary = await loadRecordFiles({
    files: [{ path: file!, format: recordFormatNamed('iso2709') }],
    writer: index.openWriter(`embedded index ${indexPath}`),
    ...(workers !== '' ? { workers: Number(workers) } : {}),
  });
  await index.close();
  const seconds = (performance.now() - started) / 1000;
  clearInterval(timer);
  // MARC_ALONE_KEEP=1 keeps the index file (to compare files), else it goes: 1M records are ~600 MB.
  if (process.env.MARC_ALONE_KEEP !== '1') for (const suffix of ['', '-wal', '-shm']) rmSync(`${indexPath}${suffix}`, { force: true });
  return {
    type: 'marc-alone-loaded', loaded: summary.loaded, rejected: summary.rejected, seconds, peakRssBytes: memoryOf().peakRss,
    share: shareSoFar(), atPeak, mainHeapPeakMb: mainHeapPeak / 2 ** 20, mainExternalPeakMb: mainExternalPeak / 2 ** 20,
  };
}

const [mode, ...rest] = process.argv.slice(2);
(mode === 'child' ? child(rest).then(reportToParent).then(() => process.exit(0)) : main()).catch((error: unknown) => {
  process.stderr.write(`marcLoadSideBySide: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
