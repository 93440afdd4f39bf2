/**
 * `npm run bench`: the benchmark of the embedded index and the versions plugin, in one run.
 *
 * 1. Builds an embedded index of N generated records (catalogGenerator.ts) in a child process, through the
 *    real load path, measuring records per second, that process's peak memory and the file's bytes per
 *    record; then, in another child, the load ceiling: a bare better-sqlite3 insert of the same rows into
 *    the same tables of an empty file (insertCeiling.ts), so the load is judged against what the storage
 *    design can take on this machine, measured in the same run.
 * 1b. Writes the catalog as MARC (ISO 2709, UTF-8 and MARC-8 records mixed; and a smaller MARCXML file) and
 *    loads each into an empty embedded index through the real loader (marcLoad.ts), end to end.
 * 2. Measures findVersions latency on the index (read-only, as a server opens it) for typical and for very
 *    large works, in another child process.
 * 3. Starts the server under test (versionsServer.ts) and the ceiling, a bare Koa app serving a fixed feed
 *    of the mean size (ceilingServer.ts), each in its own process on 127.0.0.1, and drives them with
 *    autocannon from this process: the RSS view, the HTML view and the ceiling at 1 and at 50 connections
 *    over a set of records asked for again and again (their answers are kept after the first request),
 *    the two views at 50 connections over records never asked for before (every answer built from the
 *    index), and a feed reader polling at 50 connections with the ETag each feed had (If-None-Match,
 *    answered 304); app and ceiling alternate in rounds so machine noise falls on both alike.
 * 3b. The plugin on a real Solr 9 on loopback, with a work index beside a VuFind core (solrServerCase.ts).
 * 3c. With SOLR_CLOUD_TEST_URL: sync into a work collection against plain /update (workCollectionSyncCase.ts).
 * 3d. With a SolrCloud named, versions from a work collection against the embedded index and a work index file (workCollectionCase.ts).
 * 4. Fills the server's kept answers past their budget (more never-asked answers, in other languages),
 *    reads its resident memory, prints a table with each target as PASS or MISS (HTTP targets are ratios
 *    to the ceiling of the same run), and with --json ends its output with one line of JSON.
 *
 * Only loopback traffic; every load case is bounded by --duration; the children are stopped at the end.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGE_ROOT } from '../../src/packageFiles.js';
import { SCHEMA_VERSION } from '../../src/adapters/sqlite/indexTables.js';
import type { BuildReport } from './buildIndex.js';
import { DEFAULT_SEED, GENERATOR_VERSION, planCatalog, requestIds, sampleCatalog, type CatalogSample } from './catalogGenerator.js';
import type { InsertCeilingReport } from './insertCeiling.js';
import type { LookupReport, LookupRequest } from './lookupLatency.js';
import { MARC_CATALOG_VERSION } from './marcCatalog.js';
import type { MarcLoadReport, MarcWriteReport } from './marcLoad.js';
import { figuresOf, fmt, newCaseResult, runLoad, type CaseResult, type DrivenCase, type HttpFigures } from './loadDriver.js';
import { memoryOf, percentile, sortedCopy, type ListeningReport } from './processStats.js';
import { measureSolrServerCase, solrServerCaseJson, solrServerCaseLines, solrServerCaseTargets } from './solrServerCase.js';
import { facetCostJson, facetCostLines, facetCostTarget, measureFacetCost } from './facetCost.js';
import { keyCostLine, measureKeyCost } from './keyCost.js';
import { measureWorkCollectionSync, workCollectionSyncTargets } from './workCollectionSyncCase.js';
import { measurePerCore, perCoreJson, perCoreLines, perCoreTargets } from './perCoreCases.js';
import { HTML_REQUEST_HEADERS } from './benchRequests.js';
import { measureWorkCollectionCase } from './workCollectionCase.js';
import { workCollectionCaseJson, workCollectionCaseLines, workCollectionCaseTargets } from './workCollectionReport.js';
import { messageFrom, stopChild } from './benchChildren.js';

// ---------------------------------------------------------------------------------------------------
// Options

interface BenchOptions {
  records: number;
  /** Seconds of measured load per HTTP case (split over the rounds). */
  duration: number;
  json: boolean;
  keep: boolean;
  profile: boolean;
  seed: number;
  /** Records in the generated ISO 2709 file (0: no MARC phase). */
  marcRecords: number | undefined;
  /** Records in the generated MARCXML file (0: none). */
  marcXmlRecords: number | undefined;
}

/** Share of the ISO 2709 records written in MARC-8 (the rest UTF-8), as a union catalog of old and new sources. */
const MARC8_SHARE = 0.3;
/** MARCXML is ~850 bytes a record: a tenth of the default catalog is plenty for a records/s figure. */
const DEFAULT_MARCXML_RECORDS = 100_000;

const USAGE = `usage: npm run bench -- [--records N] [--duration S] [--json] [--keep] [--profile]
  --records N    records in the generated catalog (default 1000000)
  --duration S   seconds of measured load per HTTP case (default 10)
  --json         end the output with one line of JSON
  --keep         reuse the index built by an earlier run with the same N (its load figures are reported)
  --profile      run the server and the loader with --cpu-prof (profiles in .bench/profiles/)
  --seed N       generator seed (default ${DEFAULT_SEED})
  --marc N       records in the generated ISO 2709 file loaded in the MARC phase (default: --records; 0 skips)
  --marcxml N    records in the generated MARCXML file (default: the smaller of --records and ${DEFAULT_MARCXML_RECORDS}; 0 skips)`;

function parseOptions(argv: readonly string[]): BenchOptions {
  const options: BenchOptions = { records: 1_000_000, duration: 10, json: false, keep: false, profile: false, seed: DEFAULT_SEED, marcRecords: undefined, marcXmlRecords: undefined };
  for (let i = 0; i < argv.length; i++) {
    const [name, inline] = (argv[i] ?? '').split('=', 2) as [string, string | undefined];
    const value = (allowZero = false): number => {
      const text = inline ?? argv[++i];
      const number = Number(text);
      if (text === undefined || text === '' || !Number.isFinite(number) || number < 0 || (number === 0 && !allowZero)) throw new Error(`${name} needs a positive number, not ${JSON.stringify(text)}\n${USAGE}`);
      return number;
    };
    switch (name) {
      case '--records': options.records = Math.round(value()); break;
      case '--duration': options.duration = value(); break;
      case '--seed': options.seed = Math.round(value()); break;
      case '--marc': options.marcRecords = Math.round(value(true)); break;
      case '--marcxml': options.marcXmlRecords = Math.round(value(true)); break;
      case '--json': options.json = true; break;
      case '--keep': options.keep = true; break;
      case '--profile': options.profile = true; break;
      case '--help': case '-h': process.stdout.write(`${USAGE}\n`); process.exit(0); break;
      default: throw new Error(`unknown option ${JSON.stringify(argv[i])}\n${USAGE}`);
    }
  }
  if (options.records < 100) throw new Error('--records must be at least 100');
  return options;
}

// ---------------------------------------------------------------------------------------------------
// Child processes

const HERE = fileURLToPath(new URL('.', import.meta.url));
// The children are the siblings of this file, compiled (.js) or, when run through tsx, the sources (.ts).
const EXTENSION = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
const BENCH_DIRECTORY = join(PACKAGE_ROOT, '.bench');
const PROFILE_DIRECTORY = join(BENCH_DIRECTORY, 'profiles');

const children = new Set<ChildProcess>();

function startChild(name: string, args: readonly string[], profile: boolean): ChildProcess {
  const execArgv = [...process.execArgv.filter((arg) => !arg.startsWith('--cpu-prof'))];
  if (profile) execArgv.push('--cpu-prof', `--cpu-prof-dir=${PROFILE_DIRECTORY}`, `--cpu-prof-name=${name}-${Date.now()}.cpuprofile`);
  // Children write nothing to stdout on purpose; whatever they print goes to stderr, so the last line of
  // this process's stdout stays the JSON line.
  const child = fork(join(HERE, `${name}${EXTENSION}`), [...args], { execArgv, stdio: ['ignore', 2, 2, 'ipc'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

function progress(text: string): void {
  process.stderr.write(`[bench] ${text}\n`);
}

// ---------------------------------------------------------------------------------------------------
// Phases 1 and 2: the index

interface LoadFigures {
  readonly seconds: number;
  readonly peakRssBytes: number;
  readonly reused: boolean;
  /** Cores the other processes of the machine used during the load (machineShare.ts). */
  readonly othersCores?: number;
}

interface IndexManifest {
  readonly generatorVersion: number;
  /** The index layout the file was built in: a kept file of another layout is built anew. */
  readonly schemaVersion: number;
  readonly records: number;
  readonly seed: number;
  readonly build: BuildReport;
}

async function buildOrReuseIndex(options: BenchOptions, indexPath: string): Promise<LoadFigures> {
  const manifestPath = `${indexPath}.json`;
  if (options.keep && existsSync(indexPath) && existsSync(manifestPath)) {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as IndexManifest;
    if (manifest.generatorVersion === GENERATOR_VERSION && manifest.schemaVersion === SCHEMA_VERSION && manifest.records === options.records && manifest.seed === options.seed) {
      progress(`reusing ${indexPath} (built earlier in ${manifest.build.seconds.toFixed(1)} s)`);
      return { seconds: manifest.build.seconds, peakRssBytes: manifest.build.peakRssBytes, reused: true, othersCores: manifest.build.share?.othersCores };
    }
    progress('the kept index was built with other settings; building anew');
  }
  progress(`building an embedded index of ${options.records.toLocaleString('en')} records in ${indexPath}`);
  const child = startChild('buildIndex', [indexPath, String(options.records), String(options.seed)], options.profile);
  const report = await messageFrom<BuildReport>(child, 'built', 30 * 60_000);
  await new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));
  if (report.loaded !== options.records) throw new Error(`the loader loaded ${report.loaded} of ${options.records} records (${report.rejected} rejected)`);
  const manifest: IndexManifest = { generatorVersion: GENERATOR_VERSION, schemaVersion: SCHEMA_VERSION, records: options.records, seed: options.seed, build: report };
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  return { seconds: report.seconds, peakRssBytes: report.peakRssBytes, reused: false, othersCores: report.share.othersCores };
}

/**
 * Reads the index file through once, so that the case measured next finds its pages in memory, as a server
 * with memory to spare has them. On this project's machines the host takes cached file pages back within
 * minutes though most memory is free (a 582 MB index's resident part fell from 243 to 222 MB in 20 s with
 * 23 GB free), and answers then wait for the disk: 445–533 instead of ~1,500 answers/s built afresh.
 * The seconds each read took are reported (a fraction of a second when the pages were still there).
 */
const readThroughSeconds: number[] = [];
function readIndexThrough(path: string): void {
  const started = process.hrtime.bigint();
  const chunk = Buffer.allocUnsafe(8 * MB);
  const file = openSync(path, 'r');
  try {
    while (readSync(file, chunk, 0, chunk.length, null) > 0);
  } finally {
    closeSync(file);
  }
  readThroughSeconds.push(Number(process.hrtime.bigint() - started) / 1e9);
}

async function measureLookups(indexPath: string, sample: CatalogSample): Promise<LookupReport> {
  readIndexThrough(indexPath);
  progress(`findVersions latency: ${sample.typical.length} typical and ${sample.large.length} very-large-work records`);
  const child = startChild('lookupLatency', [], false);
  const request: LookupRequest = { type: 'lookup', path: indexPath, typical: sample.typical, large: sample.large, passes: 3 };
  child.send(request);
  return messageFrom<LookupReport>(child, 'lookups', 30 * 60_000);
}

interface InsertCeilingFigures extends InsertCeilingReport {
  readonly reused: boolean;
}

/**
 * The load ceiling of this run (insertCeiling.ts). With --keep it is kept beside a kept index, so a run
 * that reuses the load figures compares them with the ceiling measured in the run that made them.
 */
async function measureInsertCeiling(options: BenchOptions, load: LoadFigures): Promise<InsertCeilingFigures> {
  const path = join(BENCH_DIRECTORY, `insert-ceiling-${options.records}-${options.seed}.sqlite`);
  const manifestPath = `${path}.json`;
  if (options.keep && load.reused && existsSync(manifestPath)) {
    const kept = JSON.parse(readFileSync(manifestPath, 'utf8')) as InsertCeilingReport & { generatorVersion: number; schemaVersion?: number };
    if (kept.generatorVersion === GENERATOR_VERSION && kept.schemaVersion === SCHEMA_VERSION && kept.records === options.records) {
      progress(`reusing the load ceiling measured with the kept index (${fmt(kept.records / kept.seconds)} records/s)`);
      return { ...kept, reused: true };
    }
  }
  progress(`load ceiling: bare inserts of the same ${options.records.toLocaleString('en')} records into an empty file`);
  const child = startChild('insertCeiling', [path, String(options.records), String(options.seed)], false);
  const report = await messageFrom<InsertCeilingReport>(child, 'insert-ceiling', 60 * 60_000);
  await new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));
  writeFileSync(manifestPath, `${JSON.stringify({ ...report, generatorVersion: GENERATOR_VERSION, schemaVersion: SCHEMA_VERSION }, null, 2)}\n`);
  // The file itself is of no further use and is as large as the index: only its figures are kept.
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
  return { ...report, reused: false };
}

interface MarcFigures {
  readonly written: MarcWriteReport;
  readonly iso2709: MarcLoadReport | undefined;
  readonly marcXml: MarcLoadReport | undefined;
  /** Why a part did not run, for the report. */
  readonly notes: readonly string[];
}

/**
 * The MARC phase: the catalog written as ISO 2709 (and a smaller MARCXML file), each loaded into an empty
 * embedded index through the real loader in a child process of its own. The files are kept in .bench and
 * reused while generator, writer and sizes stay the same: writing them is not what is measured.
 */
async function measureMarcLoads(options: BenchOptions): Promise<MarcFigures | undefined> {
  const isoRecords = options.marcRecords ?? options.records;
  const xmlRecords = options.marcXmlRecords ?? Math.min(options.records, DEFAULT_MARCXML_RECORDS);
  if (isoRecords === 0 && xmlRecords === 0) return undefined;
  const stem = join(BENCH_DIRECTORY, `marc-g${GENERATOR_VERSION}m${MARC_CATALOG_VERSION}-${options.seed}`);
  const isoPath = `${stem}-${isoRecords}.mrc`;
  const xmlPath = `${stem}-${xmlRecords}.xml`;
  const writtenPath = `${stem}-${isoRecords}-${xmlRecords}.json`;
  let written: MarcWriteReport;
  if (existsSync(isoPath) && existsSync(xmlPath) && existsSync(writtenPath)) {
    written = JSON.parse(readFileSync(writtenPath, 'utf8')) as MarcWriteReport;
    progress(`reusing the MARC files ${isoPath} and ${xmlPath}`);
  } else {
    progress(`writing ${isoRecords.toLocaleString('en')} records as ISO 2709 (${MARC8_SHARE * 100}% MARC-8) and ${xmlRecords.toLocaleString('en')} as MARCXML`);
    const child = startChild('marcLoad', ['write', isoPath, String(isoRecords), xmlPath, String(xmlRecords), String(options.seed), String(MARC8_SHARE)], false);
    written = await messageFrom<MarcWriteReport>(child, 'marc-written', 60 * 60_000);
    writeFileSync(writtenPath, `${JSON.stringify(written, null, 2)}\n`);
  }
  const notes: string[] = [];
  const loadOne = async (format: 'iso2709' | 'marcxml', file: string, records: number): Promise<MarcLoadReport | undefined> => {
    if (records === 0) return undefined;
    const indexPath = join(BENCH_DIRECTORY, `marc-load-${format}.sqlite`);
    progress(`loading ${records.toLocaleString('en')} ${format} records into an empty embedded index (loadRecordFiles, index.openWriter())`);
    const child = startChild('marcLoad', ['load', format, file, indexPath, String(records), String(options.seed)], options.profile);
    try {
      const report = await messageFrom<MarcLoadReport>(child, 'marc-loaded', 60 * 60_000);
      if (report.mismatches > 0) progress(`warning: ${report.mismatches} of ${report.checked} sampled ${format} records have a version total other than planned, e.g. ${report.mismatchExamples.join('; ')}`);
      if (report.rejected > 0) progress(`warning: ${report.rejected} ${format} records rejected, e.g. ${report.rejectionExamples.join('; ')}`);
      return report;
    } catch (error) {
      // A reader another engineer is still finishing must not take the HTTP figures down with it.
      notes.push(`${format} load failed: ${error instanceof Error ? error.message : String(error)} (see the log above)`);
      return undefined;
    } finally {
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${indexPath}${suffix}`, { force: true });
    }
  };
  const iso2709 = await loadOne('iso2709', isoPath, written.iso2709.records);
  const marcXml = await loadOne('marcxml', xmlPath, written.marcXml.records);
  return { written, iso2709, marcXml, notes };
}

// ---------------------------------------------------------------------------------------------------
// Phase 3: HTTP

interface LoadCase extends DrivenCase {
  readonly label: string;
  readonly target: 'app' | 'ceiling';
}

/** The ETag of each path's answer, fetched once, a few at a time. */
async function etagsOf(port: number, paths: readonly string[]): Promise<string[]> {
  const etags: string[] = new Array<string>(paths.length).fill('');
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const at = next++;
      const response = await fetch(`http://127.0.0.1:${port}${paths[at]}`);
      await response.arrayBuffer();
      etags[at] = response.headers.get('etag') ?? '';
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return etags;
}

function versionsPath(id: string, view: 'rss' | 'html'): string {
  const query = new URLSearchParams({ id, search: 'versions' });
  if (view === 'rss') query.set('view', 'rss');
  return `/Search/Versions?${query}`;
}

async function fetchText(port: number, path: string, headers: Record<string, string> = {}): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, { headers });
  const text = await response.text();
  if (!response.ok) throw new Error(`GET ${path}: HTTP ${response.status}`);
  return text;
}

interface SampledBodies {
  /** A sampled feed padded to the mean size: the ceiling's body. */
  readonly feed: string;
  readonly feedMeanBytes: number;
  readonly feedMedianBytes: number;
  readonly htmlMedianBytes: number;
}

/**
 * The feed (and page) sizes of a sample of requests. The ceiling serves a feed of the mean size:
 * throughput goes with the bytes sent on average, and the few 50-item feeds of large works make the mean
 * feed about twice the median one (until 2026-11-22 the ceiling served the median feed, fewer bytes per
 * answer than the RSS view sent).
 */
async function sampleBodies(port: number, ids: readonly string[], htmlHeaders: Record<string, string>): Promise<SampledBodies> {
  const feeds: string[] = [];
  const htmlSizes: number[] = [];
  for (const id of ids.slice(0, 400)) {
    feeds.push(await fetchText(port, versionsPath(id, 'rss')));
    htmlSizes.push(Buffer.byteLength(await fetchText(port, versionsPath(id, 'html'), htmlHeaders)));
  }
  const sizes = feeds.map((feed) => Buffer.byteLength(feed));
  const mean = Math.round(sizes.reduce((sum, size) => sum + size, 0) / Math.max(1, sizes.length));
  // The largest sampled feed not above the mean, brought to the mean size by a comment after the root
  // element: still a well-formed feed, and exactly as many bytes as the RSS view sends on average.
  let base = '';
  for (const [at, size] of sizes.entries()) if (size <= mean && size > Buffer.byteLength(base)) base = feeds[at] ?? '';
  const padding = Math.max(0, mean - Buffer.byteLength(base) - '\n<!--  -->'.length);
  const feed = padding > 0 || base.length > 0 ? `${base}\n<!-- ${'x'.repeat(padding)} -->` : base;
  return { feed, feedMeanBytes: mean, feedMedianBytes: percentile(sortedCopy(sizes), 0.5), htmlMedianBytes: percentile(sortedCopy(htmlSizes), 0.5) };
}

/**
 * Records no request of the run has named yet, for the cases that measure answers built from the index:
 * a uniform sample of the catalog plus 5% from the largest works, as requestIds() mixes them.
 */
function neverRequestedIds(plan: ReturnType<typeof planCatalog>, requested: ReadonlySet<string>, seed: number): string[] {
  const wanted = Math.min(Math.floor(plan.records / 2), 60_000);
  const sample = sampleCatalog(plan, wanted, Math.max(20, Math.round(wanted / 19)));
  const fresh = { ...sample, typical: sample.typical.filter((s) => !requested.has(s.id)), large: sample.large.filter((s) => !requested.has(s.id)) };
  return requestIds(fresh, seed + 1);
}

/** The plugin's default budget for kept answers (answerCacheMegabytes), which versionsServer.ts keeps. */
const ANSWER_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * Brings the server's kept answers to their budget before its memory is read, so the memory target holds
 * for a server whose cache is full, not for one that happened to be asked little. `alreadyBytes` is what
 * the run's cases have made it build and keep so far; more answers are asked for, the never-asked records
 * in the other languages (each language is an answer of its own), a few at a time, until the bytes sent
 * reach 1.5 times the budget, so that the least recently used answers have been dropped at least once.
 */
async function fillKeptAnswers(port: number, ids: readonly string[], alreadyBytes: number, htmlHeaders: Record<string, string>): Promise<number> {
  const wanted = ANSWER_CACHE_BYTES * 1.5;
  let bytes = alreadyBytes;
  const paths: Array<[string, Record<string, string>]> = [];
  for (const lng of ['pt-br', 'es']) {
    for (const id of ids) {
      paths.push([`${versionsPath(id, 'rss')}&lng=${lng}`, {}], [`${versionsPath(id, 'html')}&lng=${lng}`, htmlHeaders]);
    }
  }
  let next = 0;
  const worker = async () => {
    while (bytes < wanted && next < paths.length) {
      const [path, headers] = paths[next++] as [string, Record<string, string>];
      const response = await fetch(`http://127.0.0.1:${port}${path}`, { headers });
      const body = await response.arrayBuffer();
      if (response.ok) bytes += body.byteLength;
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return bytes;
}

// ---------------------------------------------------------------------------------------------------
// Report

const MB = 1024 * 1024;
/** The MARC load's target: a million ISO 2709 records in 40 s, end to end. */
const MARC_LOAD_TARGET_PER_SECOND = 25_000;

interface Target {
  readonly name: string;
  readonly measured: string;
  readonly goal: string;
  readonly pass: boolean;
}

function table(rows: ReadonlyArray<readonly string[]>): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows.map((row) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ').trimEnd()).join('\n');
}

// ---------------------------------------------------------------------------------------------------
// Main

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  mkdirSync(BENCH_DIRECTORY, { recursive: true });
  if (options.profile) mkdirSync(PROFILE_DIRECTORY, { recursive: true });
  const started = new Date();
  const indexPath = join(BENCH_DIRECTORY, `catalog-${options.records}-${options.seed}.sqlite`);

  const plan = planCatalog(options.records, options.seed);
  const sample = sampleCatalog(plan, Math.min(2000, Math.max(100, Math.floor(options.records / 10))), 300);

  // 1. Loading
  const load = await buildOrReuseIndex(options, indexPath);
  const loadRate = options.records / load.seconds;
  // After close() the log is checkpointed into the file; a log left over would still be part of the index.
  const indexBytes = statSync(indexPath).size + (existsSync(`${indexPath}-wal`) ? statSync(`${indexPath}-wal`).size : 0);
  const insertCeiling = await measureInsertCeiling(options, load);
  const loadCeilingRate = insertCeiling.records / insertCeiling.seconds;

  // 2. Lookups
  const lookups = await measureLookups(indexPath, sample);
  if (lookups.mismatches > 0) {
    progress(`warning: ${lookups.mismatches} sampled records have a version total other than their planned work size, e.g. ${lookups.mismatchExamples.join('; ')}`);
  }

  // 2b. MARC loads (before the server starts: nothing else competes for the CPUs)
  const marc = await measureMarcLoads(options);

  // 3. HTTP
  const baseUrl = 'https://catalog.example.edu';
  const server = startChild('versionsServer', [indexPath, baseUrl], options.profile);
  const serverPort = (await messageFrom<ListeningReport>(server, 'listening', 120_000)).port;
  const htmlHeaders = HTML_REQUEST_HEADERS;
  const ids = requestIds(sample, options.seed);
  const coldIds = neverRequestedIds(plan, new Set(ids), options.seed);
  const bodies = await sampleBodies(serverPort, ids, htmlHeaders);
  const feedBytes = Buffer.byteLength(bodies.feed);
  const bodyFile = join(BENCH_DIRECTORY, 'ceiling-body.xml');
  writeFileSync(bodyFile, bodies.feed);
  const ceiling = startChild('ceilingServer', [bodyFile], false);
  const ceilingPort = (await messageFrom<ListeningReport>(ceiling, 'listening', 60_000)).port;

  const rssPaths = ids.map((id) => versionsPath(id, 'rss'));
  // A feed reader polling feeds it has seen: each request carries the ETag its feed had (answered 304).
  const feedEtags = await etagsOf(serverPort, rssPaths);
  const htmlPaths = ids.map((id) => versionsPath(id, 'html'));
  const cases: LoadCase[] = [];
  for (const connections of [50, 1]) {
    cases.push(
      { label: `ceiling-${connections}`, target: 'ceiling', connections, paths: rssPaths, headers: {} },
      { label: `rss-${connections}`, target: 'app', connections, paths: rssPaths, headers: {} },
      { label: `html-${connections}`, target: 'app', connections, paths: htmlPaths, headers: htmlHeaders },
    );
  }
  // Records never asked for before: every answer is built from the index (none can have been kept).
  const coldCut = Math.floor(coldIds.length / 2);
  cases.push(
    { label: 'rss-cold-50', target: 'app', connections: 50, paths: coldIds.slice(0, coldCut).map((id) => versionsPath(id, 'rss')), headers: {}, eachPathOnce: true },
    { label: 'html-cold-50', target: 'app', connections: 50, paths: coldIds.slice(coldCut).map((id) => versionsPath(id, 'html')), headers: htmlHeaders, eachPathOnce: true },
  );
  cases.push({ label: 'rss-conditional-50', target: 'app', connections: 50, paths: rssPaths, headers: {}, pathHeaders: feedEtags.map((etag) => ({ 'if-none-match': etag })), expectedStatus: 304 });
  const portOf = (loadCase: LoadCase) => (loadCase.target === 'app' ? serverPort : ceilingPort);
  const results = new Map<string, CaseResult>(cases.map((c) => [c.label, newCaseResult()]));

  const warmUp = Math.min(3, Math.max(1, options.duration / 5));
  progress(`warming up (${warmUp} s per view)`);
  for (const loadCase of cases.filter((c) => c.connections === 50 && c.eachPathOnce !== true)) await runLoad(portOf(loadCase), loadCase, warmUp);

  // Rounds alternate app and ceiling; the second round runs the cases in reverse, so slow drift of the
  // machine (thermal, other tenants) is spread over both sides.
  const rounds = options.duration >= 6 ? 2 : 1;
  const perRound = options.duration / rounds;
  // The never-asked-before cases run after all rounds: their answers, kept too, would otherwise push the
  // kept answers of the asked-again set out of the cache between rounds.
  const repeated = cases.filter((c) => c.eachPathOnce !== true);
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? repeated : [...repeated].reverse();
    for (const loadCase of order) {
      progress(`round ${round + 1}/${rounds}: ${loadCase.label} for ${perRound} s`);
      await runLoad(portOf(loadCase), loadCase, perRound, results.get(loadCase.label));
    }
  }
  for (const loadCase of cases.filter((c) => c.eachPathOnce === true)) {
    readIndexThrough(indexPath);
    progress(`${loadCase.label} for ${options.duration} s`);
    await runLoad(portOf(loadCase), loadCase, options.duration, results.get(loadCase.label));
  }
  // Only the never-asked cases built an answer per response; the other cases mostly re-sent kept ones.
  const keptSoFar = cases.filter((c) => c.eachPathOnce === true).reduce((sum, c) => sum + (results.get(c.label)?.bytes ?? 0), 0);
  progress('filling the kept answers to their budget before reading the server\'s memory');
  const keptAnswerBytes = await fillKeptAnswers(serverPort, [...coldIds, ...ids], keptSoFar, htmlHeaders);
  const serverMemory = memoryOf(server.pid ?? 0);
  await stopChild(server);
  // The plugin on a real Solr 9 with a work index (solrServerCase.ts starts it; skipped without Java and Maven).
  const solr9 = await measureSolrServerCase({
    records: options.records, seed: options.seed, folder: BENCH_DIRECTORY, indexPath, baseUrl, keptIds: ids, coldIds, htmlHeaders, duration: options.duration, ceilingPort,
    children: { start: startChild, message: messageFrom, stop: stopChild },
  });
  const workCollection = await measureWorkCollectionCase({
    records: options.records, seed: options.seed, folder: BENCH_DIRECTORY, indexPath, baseUrl, keptIds: ids, coldIds, htmlHeaders, duration: options.duration, ceilingPort,
    children: { start: startChild, message: messageFrom, stop: stopChild },
  });
  await stopChild(ceiling);
  progress('facets within a work, with and without, every answer built afresh');
  const facetCost = await measureFacetCost();
  const keyCost = measureKeyCost();
  // Only with SOLR_CLOUD_TEST_URL: sync into a work collection against plain /update (workCollectionSyncCase.ts).
  const workCollectionSync = await measureWorkCollectionSync(options.records);
  // One process and one per core side by side, each against a ceiling with as many (perCoreCases.ts).
  const perCore = await measurePerCore({ indexPath, baseUrl, keptPaths: rssPaths, coldIds, versionsPath, htmlHeaders, ceilingBodyFile: bodyFile, duration: options.duration, readIndexThrough: () => readIndexThrough(indexPath), progress, children: { start: startChild, message: messageFrom, stop: stopChild } });

  const http = (label: string): HttpFigures => figuresOf(results.get(label) as CaseResult);
  const [rss50, rss1, html50, html1, ceiling50, ceiling1] = ['rss-50', 'rss-1', 'html-50', 'html-1', 'ceiling-50', 'ceiling-1'].map(http) as [HttpFigures, HttpFigures, HttpFigures, HttpFigures, HttpFigures, HttpFigures];
  const rssConditional50 = http('rss-conditional-50');
  const rssCold50 = http('rss-cold-50');
  const htmlCold50 = http('html-cold-50');
  const coldRepeats = ['rss-cold-50', 'html-cold-50'].reduce((sum, label) => {
    const result = results.get(label) as CaseResult;
    const paths = cases.find((c) => c.label === label)?.paths.length ?? 0;
    return sum + Math.max(0, result.sent - paths);
  }, 0);
  const failures = [...results.values()].reduce((sum, r) => sum + r.failures, 0);

  // 4. Report
  const ratio50 = rss50.rps / ceiling50.rps;
  // HTTP targets are ratios to the bare-Koa ceiling at 50 connections of this same run: what Koa and
  // Node's HTTP stack do on this machine at all, so the targets hold on a slower or busier machine too.
  const throughputTarget = (view: string, f: HttpFigures, share: number): Target => {
    const ratio = f.rps / ceiling50.rps;
    return { name: `${view}: req/s / ceiling`, measured: `${fmt(ratio * 100, 1)}% (${fmt(f.rps)} of ${fmt(ceiling50.rps)})`, goal: `>= ${fmt(share * 100)}%`, pass: ratio >= share };
  };
  const p99Target = (view: string, f: HttpFigures, times: number): Target => {
    const ratio = f.p99Ms / ceiling50.p99Ms;
    return { name: `${view}: p99 / ceiling p99`, measured: `${fmt(ratio, 2)}x (${fmt(f.p99Ms, 2)} vs ${fmt(ceiling50.p99Ms, 2)} ms)`, goal: `<= ${times}x`, pass: ratio <= times };
  };
  const loadRatio = loadRate / loadCeilingRate;
  const bytesPerRecord = indexBytes / options.records;
  const targets: Target[] = [
    throughputTarget('RSS, never asked before, 50 conns', rssCold50, 0.25),
    p99Target('RSS, never asked before, 50 conns', rssCold50, 3),
    throughputTarget('HTML, never asked before, 50 conns', htmlCold50, 0.25),
    p99Target('HTML, never asked before, 50 conns', htmlCold50, 3),
    throughputTarget('RSS, kept answers, 50 conns', rss50, 0.6),
    p99Target('RSS, kept answers, 50 conns', rss50, 2),
    { name: 'load / bare-insert ceiling', measured: `${fmt(loadRatio * 100, 1)}% (${fmt(loadRate)} of ${fmt(loadCeilingRate)}/s; other processes used ${fmt(load.othersCores ?? Number.NaN, 1)} cores during the load, ${fmt(insertCeiling.share?.othersCores ?? Number.NaN, 1)} during the ceiling)`, goal: '>= 50%', pass: loadRatio >= 0.5 },
    { name: 'load: peak RSS of the loading process', measured: `${fmt(load.peakRssBytes / MB)} MB`, goal: '<= 500 MB', pass: load.peakRssBytes / MB <= 500 },
    { name: 'index size', measured: `${fmt(bytesPerRecord)} B/record`, goal: '<= 700 B/record', pass: bytesPerRecord <= 700 },
    { name: 'server RSS with full kept answers', measured: `${fmt(serverMemory.rss / MB)} MB`, goal: '<= 300 MB', pass: serverMemory.rss / MB <= 300 },
    facetCostTarget(facetCost),
  ];
  targets.push(...solrServerCaseTargets(solr9), ...workCollectionSyncTargets(workCollectionSync), ...workCollectionCaseTargets(workCollection));
  if (marc !== undefined && marc.written.iso2709.records > 0) {
    const iso = marc.iso2709;
    const isoRate = iso === undefined ? Number.NaN : iso.loaded / iso.seconds;
    const label = `MARC ISO 2709 load, ${fmt(marc.written.iso2709.records)} records`;
    targets.push(
      { name: `${label}: records/s`, measured: iso === undefined ? 'failed' : `${fmt(isoRate)}/s`, goal: `>= ${fmt(MARC_LOAD_TARGET_PER_SECOND)}/s`, pass: isoRate >= MARC_LOAD_TARGET_PER_SECOND },
      { name: `${label}: peak RSS`, measured: iso === undefined ? 'failed' : `${fmt(iso.peakRssBytes / MB)} MB`, goal: '<= 500 MB', pass: iso !== undefined && iso.peakRssBytes / MB <= 500 },
    );
  }

  targets.push(...perCoreTargets(perCore));
  const out: string[] = [];
  out.push(`koa-catalog-versions benchmark, ${started.toISOString()}`);
  out.push(`Node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'}), ${fmt(totalmem() / 1024 ** 3)} GiB; ${options.duration} s per HTTP case in ${rounds} round(s), autocannon`);
  out.push(`Catalog: ${fmt(options.records)} records in ${fmt(sample.works)} works; ${fmt(sample.singletonShare * 100, 1)}% single-record, ${fmt(sample.upToSevenShare * 100, 1)}% <= 7, ${fmt(sample.overTwentyShare * 100, 2)}% > 20; largest: ${sample.giantSizes.join(', ')} records`);
  out.push('');
  out.push(table([
    ['loading', 'value'],
    [`records/s${load.reused ? ' (index kept from an earlier run)' : ''}`, fmt(loadRate)],
    ['seconds', fmt(load.seconds, 1)],
    ['peak RSS of the loading process', `${fmt(load.peakRssBytes / MB)} MB`],
    ['index file, bytes per record', fmt(bytesPerRecord)],
    [`ceiling: bare inserts into an empty file, records/s${insertCeiling.reused ? ' (kept with the index)' : ''}`, fmt(loadCeilingRate)],
    ['ceiling: seconds inside the insert transactions and close', fmt(insertCeiling.seconds, 1)],
    ['ceiling: file bytes per record', fmt(insertCeiling.fileBytes / insertCeiling.records)],
    ['load / ceiling', `${fmt(loadRatio * 100, 1)}%`],
  ]));
  // Bare inserts in arrival order put each row at a random place of the B-trees; once those outgrow
  // SQLite's page cache that is slower than the loader's staged, sorted inserts, and the "ceiling" is none.
  if (loadRatio > 1) out.push('  the load beat the bare inserts: in arrival order they land at random places of B-trees larger than the page cache, which the staged load sorts away');
  out.push('');
  if (marc !== undefined) {
    const marcRow = (label: string, written: { records: number; bytes: number }, r: MarcLoadReport | undefined) => (r === undefined
      ? [label, fmt(written.records), written.records === 0 ? 'skipped' : 'failed', '', '', '', '']
      : [label, fmt(written.records), fmt(r.loaded / r.seconds), fmt(r.seconds, 1), `${fmt(r.peakRssBytes / MB)} MB`, fmt(r.rejected), `${r.mismatches}/${r.checked}`]);
    out.push(table([
      ['MARC load (loadRecordFiles into an empty embedded index)', 'records', 'records/s', 'seconds', 'peak RSS', 'rejected', 'version totals off'],
      marcRow(`ISO 2709, ${fmt(marc.written.iso2709.marc8Records)} of them MARC-8, ${fmt(marc.written.iso2709.bytes / MB)} MB`, marc.written.iso2709, marc.iso2709),
      marcRow(`MARCXML, ${fmt(marc.written.marcXml.bytes / MB)} MB`, marc.written.marcXml, marc.marcXml),
    ]));
    for (const note of marc.notes) out.push(`  ${note}`);
    out.push('');
  }
  const lookupRow = (label: string, s: LookupReport['typicalFeed']) => [label, fmt(s.count), fmt(s.p50Us), fmt(s.p99Us), fmt(s.maxUs)];
  out.push(table([
    ['findVersions (embedded, read-only)', 'samples', 'p50 us', 'p99 us', 'max us'],
    lookupRow('typical works, feed (50 by last_indexed)', lookups.typicalFeed),
    lookupRow('typical works, page (20 by id)', lookups.typicalPage),
    lookupRow('very large works, feed', lookups.largeFeed),
    lookupRow('very large works, page', lookups.largePage),
    lookupRow('countVersions, 20 ids', lookups.countPage),
  ]));
  if (lookups.mismatches > 0) out.push(`  ${lookups.mismatches} sampled totals differ from the planned work sizes`);
  out.push('');
  const httpRow = (label: string, f: HttpFigures, vsCeiling?: HttpFigures) => [label, fmt(f.rps), fmt(f.p50Ms, 2), fmt(f.p99Ms, 2), vsCeiling === undefined ? '' : `${fmt((f.rps / vsCeiling.rps) * 100, 1)}%`];
  out.push(table([
    ['HTTP (server in its own process)', 'req/s', 'p50 ms', 'p99 ms', 'of ceiling'],
    httpRow(`ceiling, bare Koa, ${fmt(feedBytes)} B body, 1 conn`, ceiling1),
    httpRow('RSS view, 1 conn', rss1, ceiling1),
    httpRow('HTML view, 1 conn', html1, ceiling1),
    httpRow('ceiling, 50 conns', ceiling50),
    httpRow('RSS view, 50 conns', rss50, ceiling50),
    httpRow('HTML view, 50 conns', html50, ceiling50),
    httpRow('RSS view, feed reader polling (304), 50 conns', rssConditional50, ceiling50),
    httpRow('RSS view, records never asked before, 50 conns', rssCold50, ceiling50),
    httpRow('HTML view, records never asked before, 50 conns', htmlCold50, ceiling50),
  ]));
  out.push(`  feeds: ${fmt(bodies.feedMeanBytes)} B mean, ${fmt(bodies.feedMedianBytes)} B median (the ceiling sends ${fmt(feedBytes)} B: a sampled feed padded to the mean); pages ${fmt(bodies.htmlMedianBytes)} B median`);
  out.push(`  requests: ${fmt(ids.length)} record ids asked for again and again (95% uniform over the catalog, 5% from the largest works): after its first request an answer is kept until the index changes;`);
  out.push(`  "never asked before": ${fmt(coldIds.length)} other records of the same mix, each requested once${coldRepeats > 0 ? ` (${fmt(coldRepeats)} requests came round again)` : ''}, so every answer is built from the index; failed responses: ${failures}`);
  out.push(`  before the findVersions latencies and each never-asked-before case the index file was read through once (${readThroughSeconds.map((seconds) => `${seconds.toFixed(2)} s`).join(', ')}), so that its pages come from memory, as on a server with memory to spare`);
  out.push(`  server resident memory with ${keptAnswerBytes >= ANSWER_CACHE_BYTES ? 'full' : 'NOT full (too few records to fill them)'} kept answers (${fmt(keptAnswerBytes / MB)} MB of answers built against a ${fmt(ANSWER_CACHE_BYTES / MB)} MB budget): ${fmt(serverMemory.rss / MB)} MB (${fmt(serverMemory.anonymous / MB)} MB anonymous, ${fmt(serverMemory.files / MB)} MB mapped files; peak ${fmt(serverMemory.peakRss / MB)} MB)`);
  out.push('');
  out.push(...solrServerCaseLines(solr9), ...workCollectionCaseLines(workCollection));
  out.push(...facetCostLines(facetCost));
  out.push(keyCostLine(keyCost));
  out.push(...perCoreLines(perCore));
  out.push(table([['target', 'measured', 'goal', 'result'], ...targets.map((t) => [t.name, t.measured, t.goal, t.pass ? 'PASS' : 'MISS'])]));
  process.stdout.write(`${out.join('\n')}\n`);

  if (options.json) {
    const round2 = (n: number) => Math.round(n * 100) / 100;
    const json = {
      records: options.records,
      load_seconds: round2(load.seconds),
      load_records_per_s: Math.round(loadRate),
      load_peak_rss_mb: round2(load.peakRssBytes / MB),
      load_reused: load.reused,
      load_ceiling_records_per_s: Math.round(loadCeilingRate),
      load_ceiling_seconds: round2(insertCeiling.seconds),
      load_ceiling_reused: insertCeiling.reused,
      load_ceiling_ratio: Math.round(loadRatio * 1000) / 1000,
      index_bytes: indexBytes,
      index_bytes_per_record: Math.round(bytesPerRecord),
      marc_records: marc?.written.iso2709.records ?? 0,
      marc_marc8_records: marc?.written.iso2709.marc8Records ?? 0,
      marc_records_per_s: marc?.iso2709 === undefined ? null : Math.round(marc.iso2709.loaded / marc.iso2709.seconds),
      marc_seconds: marc?.iso2709 === undefined ? null : round2(marc.iso2709.seconds),
      marc_peak_rss_mb: marc?.iso2709 === undefined ? null : round2(marc.iso2709.peakRssBytes / MB),
      marc_rejected: marc?.iso2709?.rejected ?? null,
      marc_version_mismatches: marc?.iso2709?.mismatches ?? null,
      marcxml_records: marc?.written.marcXml.records ?? 0,
      marcxml_records_per_s: marc?.marcXml === undefined ? null : Math.round(marc.marcXml.loaded / marc.marcXml.seconds),
      marcxml_peak_rss_mb: marc?.marcXml === undefined ? null : round2(marc.marcXml.peakRssBytes / MB),
      marcxml_rejected: marc?.marcXml?.rejected ?? null,
      lookup_p50_us: round2(lookups.typicalFeed.p50Us),
      lookup_p99_us: round2(lookups.typicalFeed.p99Us),
      lookup_large_p50_us: round2(lookups.largeFeed.p50Us),
      lookup_large_p99_us: round2(lookups.largeFeed.p99Us),
      lookup_page_p99_us: round2(lookups.typicalPage.p99Us),
      lookup_large_page_p99_us: round2(lookups.largePage.p99Us),
      count_versions_20_p99_us: round2(lookups.countPage.p99Us),
      lookup_mismatches: lookups.mismatches,
      rss_rps_1: Math.round(rss1.rps),
      rss_p99_ms_1: round2(rss1.p99Ms),
      rss_rps_50: Math.round(rss50.rps),
      rss_p50_ms_50: round2(rss50.p50Ms),
      rss_p99_ms_50: round2(rss50.p99Ms),
      html_rps_1: Math.round(html1.rps),
      html_p99_ms_1: round2(html1.p99Ms),
      html_rps_50: Math.round(html50.rps),
      html_p50_ms_50: round2(html50.p50Ms),
      html_p99_ms_50: round2(html50.p99Ms),
      rss_cold_rps_50: Math.round(rssCold50.rps),
      rss_cold_ceiling_ratio_50: Math.round((rssCold50.rps / ceiling50.rps) * 1000) / 1000,
      html_cold_ceiling_ratio_50: Math.round((htmlCold50.rps / ceiling50.rps) * 1000) / 1000,
      rss_cold_p99_ms_50: round2(rssCold50.p99Ms),
      html_cold_rps_50: Math.round(htmlCold50.rps),
      html_cold_p99_ms_50: round2(htmlCold50.p99Ms),
      cold_repeated_requests: coldRepeats,
      rss_conditional_rps_50: Math.round(rssConditional50.rps),
      rss_conditional_p99_ms_50: round2(rssConditional50.p99Ms),
      ceiling_rps_1: Math.round(ceiling1.rps),
      ceiling_rps_50: Math.round(ceiling50.rps),
      ceiling_p99_ms_50: round2(ceiling50.p99Ms),
      rss_ceiling_ratio_50: Math.round(ratio50 * 1000) / 1000,
      server_rss_mb: round2(serverMemory.rss / MB),
      server_kept_answer_mb: round2(keptAnswerBytes / MB),
      server_peak_rss_mb: round2(serverMemory.peakRss / MB),
      server_rss_anon_mb: round2(serverMemory.anonymous / MB),
      server_rss_file_mb: round2(serverMemory.files / MB),
      feed_body_bytes: feedBytes,
      feed_mean_bytes: Math.round(bodies.feedMeanBytes),
      feed_median_bytes: bodies.feedMedianBytes,
      html_body_bytes: bodies.htmlMedianBytes,
      failed_responses: failures,
      duration_s: options.duration,
      node: process.version,
      cpus: cpus().length,
      date: started.toISOString(),
      ...solrServerCaseJson(solr9),
      ...workCollectionCaseJson(workCollection),
      ...facetCostJson(facetCost),
      ...perCoreJson(perCore),
      ...(workCollectionSync === undefined ? {} : { work_collection_sync: workCollectionSync }),
      targets: Object.fromEntries(targets.map((t) => [t.name, t.pass ? 'PASS' : 'MISS'])),
    };
    process.stdout.write(`${JSON.stringify(json)}\n`);
  }
}

main().catch(async (error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  for (const child of children) child.kill('SIGKILL');
  process.exit(1);
});
