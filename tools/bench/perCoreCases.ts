/**
 * Benchmark phase: one process, and one process per core, side by side. Starts four servers in child
 * processes — the plugin on the run's index file (versionsServer.ts) and the bare-Koa ceiling
 * (ceilingServer.ts), each once as a single process and once per core (`--per-core`, perCoreServe.ts:
 * node:cluster workers on one shared port, each plugin worker with its own read-only open and its own
 * kept answers) — and drives them at 50 connections: the RSS view over the run's asked-again records (kept
 * answers), alternating with the ceilings in rounds, then both views over records never asked before
 * (each answer built from the index) in each mode. Every figure is a ratio to the ceiling of the same mode.
 *
 * The load generator (autocannon) runs in runBench's process on the same cores as the servers: with N
 * workers on N cores, the generator takes a share of them that a real host's clients would not. So the
 * phase also reports how much CPU the generator and the servers spent per answer (from process.cpuUsage
 * and /proc), which says where the cores went.
 *
 * Usage: measurePerCore(…) from runBench.ts, with its child-process helpers (solrPhaseDriving.ts's
 * BenchChildren) so that a failed run still stops these children.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { availableParallelism } from 'node:os';
import { figuresOf, fmt, newCaseResult, runLoad, type CaseResult, type DrivenCase, type HttpFigures } from './loadDriver.js';
import type { PerCoreListeningReport } from './perCoreServe.js';
import { memoryOf, type ListeningReport } from './processStats.js';
import type { BenchChildren } from './solrPhaseDriving.js';

export interface PerCoreSettings {
  readonly indexPath: string;
  readonly baseUrl: string;
  /** The RSS paths asked for again and again (kept after their first answer). */
  readonly keptPaths: readonly string[];
  /** Records no server of this phase has been asked for: half for the RSS view, half for the HTML view. */
  readonly coldIds: readonly string[];
  readonly versionsPath: (id: string, view: 'rss' | 'html') => string;
  readonly htmlHeaders: Readonly<Record<string, string>>;
  /** The ceiling's body (runBench's sampled feed of the mean size). */
  readonly ceilingBodyFile: string;
  /** Seconds of measured load per case. */
  readonly duration: number;
  /** Brings the index file's pages into memory before a never-asked case (runBench.ts's read-through). */
  readonly readIndexThrough: () => void;
  readonly progress: (text: string) => void;
  readonly children: BenchChildren;
}

export type Mode = 'single' | 'perCore';

export interface CaseFigures extends HttpFigures {
  /** CPU the load generator (this process) spent, as a share of one core over the case. */
  readonly generatorCores: number;
  /** CPU the server's processes spent per good answer, in microseconds (NaN where /proc is missing). */
  readonly serverCpuUsPerAnswer: number;
}

export interface ModeFigures {
  readonly processes: number;
  readonly ceiling: CaseFigures;
  readonly rssKept: CaseFigures;
  readonly rssCold: CaseFigures;
  readonly htmlCold: CaseFigures;
  /** Resident memory of the plugin's processes at the end, summed. */
  readonly pluginRssBytes: number;
}

export interface PerCoreFigures {
  readonly cores: number;
  readonly single: ModeFigures;
  readonly perCore: ModeFigures;
}

interface Server {
  readonly child: ChildProcess;
  readonly port: number;
  /** The processes that serve: the child itself, or its workers. */
  readonly pids: readonly number[];
}

interface Measured {
  readonly result: CaseResult;
  generatorMicros: number;
  serverTicks: number;
}

/** utime + stime of processes, in clock ticks (Linux /proc; NaN elsewhere). */
function cpuTicksOf(pids: readonly number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      // Fields after the command name (which may hold spaces), so split after its closing parenthesis.
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      return Number.NaN;
    }
  }
  return ticks;
}
// Linux's USER_HZ is 100 on every platform Node runs on.
const MICROS_PER_TICK = 10_000;

async function start(children: BenchChildren, name: string, args: readonly string[]): Promise<Server> {
  const child = children.start(name, args, false);
  const report = await children.message<ListeningReport & Partial<PerCoreListeningReport>>(child, 'listening', 120_000);
  return { child, port: report.port, pids: report.workerPids ?? [child.pid ?? 0] };
}

async function drive(server: Server, loadCase: DrivenCase, seconds: number, into: Measured): Promise<void> {
  const cpuBefore = process.cpuUsage();
  const ticksBefore = cpuTicksOf(server.pids);
  await runLoad(server.port, loadCase, seconds, into.result);
  const cpu = process.cpuUsage(cpuBefore);
  into.generatorMicros += cpu.user + cpu.system;
  into.serverTicks += cpuTicksOf(server.pids) - ticksBefore;
}

function caseFigures(measured: Measured): CaseFigures {
  const figures = figuresOf(measured.result);
  return {
    ...figures,
    generatorCores: measured.generatorMicros / 1e6 / Math.max(1e-9, measured.result.seconds),
    serverCpuUsPerAnswer: (measured.serverTicks * MICROS_PER_TICK) / Math.max(1, measured.result.responses),
  };
}

/**
 * Asks for every path on two keep-alive connections per server process, each connection sending all of
 * them: the cluster's primary hands connections to the workers in turn, so each worker gets two of them
 * and builds and keeps every answer (each worker keeps answers of its own).
 */
async function askEveryProcess(server: Server, paths: readonly string[]): Promise<void> {
  const lane = async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (const path of paths) {
        await new Promise<void>((resolve, reject) => {
          http.get({ host: '127.0.0.1', port: server.port, path, agent }, (response) => {
            response.resume();
            response.on('end', () => resolve());
          }).on('error', reject);
        });
      }
    } finally {
      agent.destroy();
    }
  };
  await Promise.all(Array.from({ length: 2 * server.pids.length }, lane));
}

const measured = (): Measured => ({ result: newCaseResult(), generatorMicros: 0, serverTicks: 0 });

export async function measurePerCore(settings: PerCoreSettings): Promise<PerCoreFigures> {
  const { children, progress } = settings;
  const cores = availableParallelism();
  progress(`one process and one per core (${cores}): starting the plugin and the ceiling in each mode`);
  const servers = {
    single: { plugin: await start(children, 'versionsServer', [settings.indexPath, settings.baseUrl]), ceiling: await start(children, 'ceilingServer', [settings.ceilingBodyFile]) },
    perCore: { plugin: await start(children, 'versionsServer', [settings.indexPath, settings.baseUrl, '--per-core']), ceiling: await start(children, 'ceilingServer', [settings.ceilingBodyFile, '--per-core']) },
  };
  try {
    const kept: DrivenCase = { connections: 50, paths: settings.keptPaths, headers: {} };
    const cut = Math.floor(settings.coldIds.length / 2);
    const coldRss: DrivenCase = { connections: 50, paths: settings.coldIds.slice(0, cut).map((id) => settings.versionsPath(id, 'rss')), headers: {}, eachPathOnce: true };
    const coldHtml: DrivenCase = { connections: 50, paths: settings.coldIds.slice(cut).map((id) => settings.versionsPath(id, 'html')), headers: settings.htmlHeaders, eachPathOnce: true };
    const results = {
      single: { ceiling: measured(), rssKept: measured(), rssCold: measured(), htmlCold: measured() },
      perCore: { ceiling: measured(), rssKept: measured(), rssCold: measured(), htmlCold: measured() },
    };
    progress('asking each server process for every kept path once or more, so that the kept cases find them kept');
    for (const mode of ['single', 'perCore'] as const) await askEveryProcess(servers[mode].plugin, settings.keptPaths);
    const rounds = settings.duration >= 6 ? 2 : 1;
    const order: Array<[Mode, 'ceiling' | 'plugin']> = [['single', 'ceiling'], ['single', 'plugin'], ['perCore', 'ceiling'], ['perCore', 'plugin']];
    for (let round = 0; round < rounds; round++) {
      for (const [mode, side] of round % 2 === 0 ? order : [...order].reverse()) {
        progress(`round ${round + 1}/${rounds}: ${side === 'plugin' ? 'RSS view, kept answers' : 'ceiling'}, ${mode === 'single' ? 'one process' : `${cores} processes`}, for ${settings.duration / rounds} s`);
        await drive(servers[mode][side], kept, settings.duration / rounds, side === 'plugin' ? results[mode].rssKept : results[mode].ceiling);
      }
    }
    // The same never-asked records in each mode: each mode's processes have not been asked for them.
    for (const mode of ['single', 'perCore'] as const) {
      for (const [loadCase, into, view] of [[coldRss, results[mode].rssCold, 'RSS'], [coldHtml, results[mode].htmlCold, 'HTML']] as const) {
        settings.readIndexThrough();
        progress(`${view} view, records never asked before, ${mode === 'single' ? 'one process' : `${cores} processes`}, for ${settings.duration} s`);
        await drive(servers[mode].plugin, loadCase, settings.duration, into);
      }
    }
    const modeFigures = (mode: Mode): ModeFigures => ({
      processes: servers[mode].plugin.pids.length,
      ceiling: caseFigures(results[mode].ceiling),
      rssKept: caseFigures(results[mode].rssKept),
      rssCold: caseFigures(results[mode].rssCold),
      htmlCold: caseFigures(results[mode].htmlCold),
      pluginRssBytes: servers[mode].plugin.pids.reduce((sum, pid) => sum + memoryOf(pid).rss, 0),
    });
    return { cores, single: modeFigures('single'), perCore: modeFigures('perCore') };
  } finally {
    for (const mode of ['single', 'perCore'] as const) {
      await children.stop(servers[mode].plugin.child);
      await children.stop(servers[mode].ceiling.child);
    }
  }
}

const MB = 1024 * 1024;

/** The phase's table for runBench's report. */
export function perCoreLines(figures: PerCoreFigures): string[] {
  const row = (label: string, f: CaseFigures, ceiling?: CaseFigures) => [
    label, fmt(f.rps), fmt(f.p99Ms, 2),
    ceiling === undefined ? '' : `${fmt((f.rps / ceiling.rps) * 100, 1)}%`,
    ceiling === undefined ? '' : `${fmt(f.p99Ms / ceiling.p99Ms, 2)}x`,
    fmt(f.serverCpuUsPerAnswer), fmt(f.generatorCores, 2),
  ];
  const rows: string[][] = [['50 connections', 'req/s', 'p99 ms', 'of ceiling', 'p99 / ceiling', 'server CPU us/answer', 'generator cores']];
  for (const mode of ['single', 'perCore'] as const) {
    const m = figures[mode];
    const name = mode === 'single' ? 'one process' : `${m.processes} processes (node:cluster)`;
    rows.push(
      [`ceiling, bare Koa, ${name}`, ...row('', m.ceiling).slice(1)],
      row(`RSS view, kept answers, ${name}`, m.rssKept, m.ceiling),
      row(`RSS view, never asked before, ${name}`, m.rssCold, m.ceiling),
      row(`HTML view, never asked before, ${name}`, m.htmlCold, m.ceiling),
    );
  }
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((r) => (r[column] ?? '').length)));
  const lines = rows.map((r) => r.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ').trimEnd());
  lines.push(
    `  one process and one per core side by side, each against the ceiling in the same mode; ${figures.cores} cores, which the load generator (autocannon, in the bench's own process) shares:`,
    '  "generator cores" is the CPU it took (1.00 = a whole core), so with as many server processes as cores the servers get what is left, and the per-core gain is less than a host whose clients are elsewhere would see',
    `  resident memory of the plugin's processes at the end: one process ${fmt(figures.single.pluginRssBytes / MB)} MB; ${figures.perCore.processes} processes ${fmt(figures.perCore.pluginRssBytes / MB)} MB together (each keeps answers of its own)`,
    '',
  );
  return lines;
}

/** The issue's HTTP targets for the per-core mode, against the ceiling with as many processes. */
export function perCoreTargets(figures: PerCoreFigures): Array<{ name: string; measured: string; goal: string; pass: boolean }> {
  const m = figures.perCore;
  const name = `${m.processes} processes`;
  const share = (view: string, f: CaseFigures, goal: number) => {
    const ratio = f.rps / m.ceiling.rps;
    return { name: `${view}, ${name}: req/s / ceiling`, measured: `${fmt(ratio * 100, 1)}% (${fmt(f.rps)} of ${fmt(m.ceiling.rps)})`, goal: `>= ${fmt(goal * 100)}%`, pass: ratio >= goal };
  };
  const p99 = (view: string, f: CaseFigures, times: number) => {
    const ratio = f.p99Ms / m.ceiling.p99Ms;
    return { name: `${view}, ${name}: p99 / ceiling p99`, measured: `${fmt(ratio, 2)}x (${fmt(f.p99Ms, 2)} vs ${fmt(m.ceiling.p99Ms, 2)} ms)`, goal: `<= ${times}x`, pass: ratio <= times };
  };
  return [
    share('RSS, never asked before', m.rssCold, 0.25), p99('RSS, never asked before', m.rssCold, 3),
    share('HTML, never asked before', m.htmlCold, 0.25), p99('HTML, never asked before', m.htmlCold, 3),
    share('RSS, kept answers', m.rssKept, 0.6), p99('RSS, kept answers', m.rssKept, 2),
  ];
}

/** The phase's fields for runBench's JSON line. */
export function perCoreJson(figures: PerCoreFigures): Record<string, number> {
  const json: Record<string, number> = { per_core_processes: figures.perCore.processes };
  for (const mode of ['single', 'perCore'] as const) {
    const prefix = mode === 'single' ? 'one_process' : 'per_core';
    const m = figures[mode];
    for (const [name, f] of [['ceiling', m.ceiling], ['rss_kept', m.rssKept], ['rss_cold', m.rssCold], ['html_cold', m.htmlCold]] as const) {
      json[`${prefix}_${name}_rps`] = Math.round(f.rps);
      json[`${prefix}_${name}_p99_ms`] = Math.round(f.p99Ms * 100) / 100;
      json[`${prefix}_${name}_server_cpu_us`] = Math.round(f.serverCpuUsPerAnswer);
      json[`${prefix}_${name}_generator_cores`] = Math.round(f.generatorCores * 100) / 100;
    }
    json[`${prefix}_plugin_rss_mb`] = Math.round(m.pluginRssBytes / MB);
  }
  return json;
}
