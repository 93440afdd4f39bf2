/**
 * What the benchmark's phases on Solr share (solrServerCase.ts drives the plugin on a real Solr 9 with
 * them; perCoreCases.ts takes runBench.ts's child-process helpers through BenchChildren): fetching and
 * driving paths at 50 connections, waiting until answers are kept, and the four cases' table and JSON
 * fields as ratios to the ceiling measured in the same phase.
 */
import type { ChildProcess } from 'node:child_process';
import { fmt, runLoad, type CaseResult, type HttpFigures } from './loadDriver.js';

const CONNECTIONS = 50;

export type CaseFigures = HttpFigures;

/** runBench.ts's child-process helpers, so its clean-up on failure covers these children too. */
export interface BenchChildren {
  start(name: string, args: readonly string[], profile: boolean): ChildProcess;
  message<T extends { type: string }>(child: ChildProcess, type: T['type'], timeoutMs: number): Promise<T>;
  stop(child: ChildProcess): Promise<void>;
}

/** What runBench.ts hands a phase on Solr (solrServerCase.ts). */
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
