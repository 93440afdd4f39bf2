#!/usr/bin/env node
/**
 * `catalog-versions`: the package's command (package.json `bin`).
 *
 *   catalog-versions load FILE… (--db PATH | --solr CORE_URL)     records into an index
 *   catalog-versions convert FILE…                                the record documents load would write
 *   catalog-versions harvest BASE_URL --prefix marc21|oai_dc (--db PATH | --solr CORE_URL) [--set S] [--from D] [--until D]
 *   catalog-versions delete ID… | --ids-file FILE (--db PATH | --solr CORE_URL)   records out of an index
 *
 * What it does: parses the command line (node:util parseArgs), picks each file's format from its content
 * (src/ingest/recordFormats.ts) and says which, runs the load or harvest (loadRecords.ts), draws a
 * progress bar when stderr is a terminal (a percentage of the bytes read and an ETA for files, a line for the
 * writer's final step; nothing when stderr is not a terminal, so cron mails only the summary), reports each rejected record on stderr as
 * `FILE:LINE: reason` (JSON Lines), `FILE:record N (001 …): reason` (MARC) or `BASE_URL (identifier):
 * reason` (harvest), prints a summary on stdout and ends with an exit code a script can act on:
 *   0  every record loaded;  2  some records were rejected, the rest loaded;
 *   1  the command could not run or stopped (unreadable, compressed or empty file, index or repository
 *      unreachable or failing; an empty file is skipped instead with --allow-empty);
 *   64 the command line is wrong (one line on stderr naming the mistake and --help);
 *   130 interrupted (SIGINT).
 *
 * Left to others: reading, mapping, checking and writing records (src/ingest/ and the adapters).
 */
import { existsSync, realpathSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { join, sep } from 'node:path';
import { GENERATOR, PACKAGE_ROOT } from '../packageFiles.js';
import { DEFAULT_SOLR_WRITE_TIMEOUT_MS } from '../adapters/solr/solrWriter.js';
import { LOAD_BATCH_SIZES } from '../adapters/sqlite/embeddedIndex.js';
import { describePosition, describeRejection, type SourceItem } from '../ingest/sourceRecord.js';
import { recordFormatNamed, RECORD_FILE_FORMATS, type RecordFileFormat } from '../ingest/recordFormats.js';
import { NO_INGEST_COUNTS, runIngest, type IngestCounts, type IngestDuplicate, type IngestRejection, type IngestSummary, type IngestWriter } from '../ingest/pipeline.js';
import { isStockMapping, parseLocalMapping, STOCK_MAPPING, withMappingFlags, type LocalMappingSettings, type MappingFlags } from '../ingest/localMapping.js';
import { InvalidOptionError } from '../errors.js';
import { harvestOai, type HarvestedRecord } from '../ingest/oai/oaiHarvester.js';
import { harvestedRecordToDocument, HARVEST_PREFIXES } from '../ingest/oai/harvestedRecords.js';
import { HarvestedIdentifiers, harvestedIdentifiersKey } from '../ingest/oai/harvestedIdentifiers.js';
import { isRecordDeletion } from '../ingest/recordDeletion.js';
import { DEFAULT_BATCH_SIZE, LoadStoppedError, loadRecordFiles, openLoadTarget, type LoadTarget, type RecordFile, type TargetSpec } from './loadRecords.js';
import { EXIT_FAILED, EXIT_OK, EXIT_REJECTED_LINES, EXIT_USAGE, keyProfileOption, UsageError, wholeNumber } from './commandLine.js';
import { runWorksCommand } from './worksCommand.js';
import { checkedRecordFiles, type SizedRecordFile } from './recordFileArguments.js';
import type { WorkKeyProfileName } from '../work-keys/workKeyProfiles.js';
import { DEFAULT_EMBEDDED_KEY_PROFILE } from '../adapters/sqlite/keyProfileRecord.js';

/** `convert`'s profile when none is asked for: the CLI's default, that of a new embedded index. */
const CLI_KEY_PROFILE: WorkKeyProfileName = DEFAULT_EMBEDDED_KEY_PROFILE;
import { runSyncCommand } from './syncCommand.js';
import { runWorkCollectionCommand } from './workCollectionCommand.js';
import { ProgressBar } from './progressBar.js';

export { EXIT_FAILED, EXIT_OK, EXIT_REJECTED_LINES, EXIT_USAGE };

const FORMAT_NAMES = RECORD_FILE_FORMATS.map((format) => format.name).join('|');

const USAGE = `Usage: catalog-versions load FILE.jsonl|FILE.mrc|FILE.xml… (--db PATH | --solr CORE_URL) [options]
       catalog-versions convert FILE… [--format ${FORMAT_NAMES}]
       catalog-versions harvest BASE_URL --prefix ${HARVEST_PREFIXES.join('|')} (--db PATH | --solr CORE_URL) [options]
       catalog-versions delete ID… | --ids-file FILE (--db PATH | --solr CORE_URL)
       catalog-versions works merge|split|list|undo|export|import|report|evaluate …   (works --help)
       catalog-versions sync --solr URL --work-index FILE [--key-profile …]   (sync --help)
       catalog-versions work-collection create|delete --solr NODE_URL --name NAME   (work-collection --help)

load     reads record files into the embedded index or a Solr core. Each file's format
         is recognised from its content: JSON Lines record documents (VuFind "biblio"
         field names), MARC 21 in ISO 2709 (UTF-8 or MARC-8) or MARCXML. MARC records
         are mapped to documents as VuFind's own importer does (marc-mapping.md).
         Work keys and last_indexed are computed for documents that lack them;
         last_indexed comes from the file's modification time, and records whose
         content did not change keep the one they have. Loading the same file again
         leaves the same index. Rejected records are reported and skipped.
convert  prints the record documents load would write, one JSON object per line on
         standard output; rejected records go to standard error.
harvest  harvests an OAI-PMH 2.0 repository (ListRecords, following resumption
         tokens), loads its records and removes its deleted ones. Without --from it
         continues from the last successful harvest of the same base URL, prefix
         and set (kept in the index; with --solr, in the --state file).
delete   removes the records with these ids (or the ids of FILE, one a line).
         MARC records marked deleted (Leader/05 d) are deleted by load too.

Target (load and harvest; exactly one):
  --db PATH            embedded index file (SQLite); created when missing
  --solr CORE_URL      Solr core, e.g. http://localhost:8983/solr/biblio
                       (user:password@ in the URL becomes HTTP basic auth)

Options:
  --format NAME        read every FILE as ${FORMAT_NAMES} instead of recognising it
  --allow-empty        load, convert: an empty FILE loads nothing and the command succeeds
                       (without it, an empty FILE fails the command with exit status 1)
  --prefix NAME        harvest: metadata prefix, ${HARVEST_PREFIXES.join(' or ')}
  --set SPEC           harvest: only this set
  --from DATE          harvest: records changed since DATE (YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ)
  --until DATE         harvest: records changed until DATE
  --mapping FILE       local mapping: id fields, id prefix, institution, building,
                       field overrides (docs/marc-mapping.md#local-mapping)
  --id-field SPECS     MARC fields the id is taken from, first found: 001:035a:907a
  --id-prefix TEXT     put before every id of this source
  --institution NAME   the institution field of every record loaded or harvested
  --building NAME      the building field of every record loaded or harvested
  --ids-file FILE      delete: the ids to delete, one a line
  --state FILE         harvest with --solr: where the last harvest's date is kept
  --key-profile NAME   load, convert, harvest: the work-key profile, vufind or extended
                       (default: the one the --db index was keyed with, extended for a new
                       one and for convert; vufind for --solr, as VuFind's importer keys;
                       docs/work-keys.md#choosing-a-profile)
  --grouping FILE      load and harvest with --solr: apply the grouping decisions of FILE
                       (written by works export; docs/curation.md)
  --workers N          load, convert: threads that map MARC ISO 2709 records beside the
                       main one (default: 2 on 2 cores, else the cores but one; 0: none); files
                       under 4 MB are mapped on the main thread
  --batch-size N       documents per write (default ${DEFAULT_BATCH_SIZE}; ${LOAD_BATCH_SIZES.intoFilledIndex} into an
                       embedded index that holds records)
  --timeout-ms N       Solr: deadline of each request in ms (default ${DEFAULT_SOLR_WRITE_TIMEOUT_MS})
  --no-progress        no progress bar even on a terminal (without a terminal on
                       stderr there is none anyway: only the summary line)
  -h, --help           this help
  --version            the package version

Exit status:
  0    every record loaded (or converted)
  1    the command failed or stopped: a file unreadable, compressed, or empty (without
       --allow-empty), the index or repository unreachable or failing (records written
       before the failure stay)
  2    some records were rejected and reported; all the others loaded
  64   wrong command line
  130  interrupted (Ctrl-C); batches written so far stay

Documentation, in this package (${join(PACKAGE_ROOT, 'docs')}${sep}):
  loading.md        this command: formats, output, exit codes, last_indexed
  marc-mapping.md   how MARC and Dublin Core records become record documents
  deployment.md     scheduled loads, logs, health check, backups, upgrades
`;

/** A usage error's one line: what is wrong, and where the whole usage is. */
function usageErrorLine(message: string): string {
  return `catalog-versions: ${message} (catalog-versions --help shows the usage)\n`;
}

/** Where the command writes; a terminal on stderr gets the progress bar. */
export interface CliIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown; readonly isTTY?: boolean; readonly columns?: number };
}

interface Common {
  /** Undefined: the target writer's preferred size. */
  batchSize: number | undefined;
  progress: boolean;
}
/** The local mapping a command line names: a file, and flags over it. */
interface MappingOptions { mappingFile: string | undefined; flags: MappingFlags }
/** `allowEmpty`: --allow-empty, an empty file loads nothing rather than failing the command. */
interface RecordFilesOptions { files: string[]; format: RecordFileFormat | undefined; allowEmpty: boolean }
/** `workers`: --workers, undefined for the loader's default. */
interface LoadCommand extends Common, RecordFilesOptions { kind: 'load'; target: TargetSpec; mapping: MappingOptions; workers?: number }
interface ConvertCommand extends RecordFilesOptions { kind: 'convert'; mapping: MappingOptions; keyProfile?: WorkKeyProfileName; workers?: number }
interface HarvestCommand extends Common {
  kind: 'harvest'; baseUrl: string; prefix: string; set?: string; from?: string; until?: string; target: TargetSpec; mapping: MappingOptions;
}
interface DeleteCommand extends Common { kind: 'delete'; ids: string[]; idsFile: string | undefined; target: TargetSpec }
type Command = LoadCommand | ConvertCommand | HarvestCommand | DeleteCommand;
type Parsed = { kind: 'help' } | { kind: 'version' } | { kind: 'run'; command: Command };

function parseCommandLine(argv: readonly string[]): Parsed {
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        db: { type: 'string' },
        solr: { type: 'string' },
        format: { type: 'string' },
        prefix: { type: 'string' },
        set: { type: 'string' },
        from: { type: 'string' },
        until: { type: 'string' },
        institution: { type: 'string' },
        building: { type: 'string' },
        mapping: { type: 'string' },
        'id-field': { type: 'string' },
        'id-prefix': { type: 'string' },
        'ids-file': { type: 'string' },
        state: { type: 'string' },
        grouping: { type: 'string' },
        'key-profile': { type: 'string' },
        'batch-size': { type: 'string' },
        workers: { type: 'string' },
        'timeout-ms': { type: 'string' },
        'no-progress': { type: 'boolean' },
        'allow-empty': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' },
      },
    }));
  } catch (error) {
    // parseArgs explains unknown options and missing values well; keep its sentence, drop its hints.
    throw new UsageError((error as Error).message.split('\n', 1)[0] ?? 'invalid arguments');
  }
  if (values.help === true) return { kind: 'help' };
  if (values.version === true) return { kind: 'version' };

  const [subcommand, ...rest] = positionals;
  if (subcommand === undefined) throw new UsageError('no command given');
  const text = (name: string) => values[name] as string | undefined;
  const format = formatOption(text('format'));
  const onlyFor = (names: string[], command: string) => {
    for (const name of names) if (text(name) !== undefined) throw new UsageError(`--${name} applies to ${command} only`);
  };
  const mappingNames = ['mapping', 'id-field', 'id-prefix', 'institution', 'building'];
  const mapping: MappingOptions = { mappingFile: text('mapping'), flags: mappingFlagsOf(text) };
  const keyProfile = keyProfileOption(text('key-profile'));
  if (subcommand !== 'delete') onlyFor(['ids-file'], 'delete');
  const workersText = text('workers');
  if (workersText !== undefined && !/^\d+$/.test(workersText)) throw new UsageError(`--workers needs a whole number of 0 or more, not ${JSON.stringify(workersText)}`);
  const workers = workersText === undefined ? {} : { workers: Number(workersText) };
  if (subcommand !== 'load' && subcommand !== 'convert') onlyFor(['workers', 'allow-empty'], 'load or convert');
  const allowEmpty = values['allow-empty'] === true;
  if (subcommand === 'convert') {
    if (rest.length === 0) throw new UsageError('convert needs a file to read');
    onlyFor(['db', 'solr', 'prefix', 'set', 'from', 'until', 'state', 'batch-size', 'timeout-ms', 'grouping'], 'load or harvest');
    return { kind: 'run', command: { kind: 'convert', files: rest, format, allowEmpty, mapping, ...(keyProfile !== undefined ? { keyProfile } : {}), ...workers } };
  }
  if (subcommand !== 'load' && subcommand !== 'harvest' && subcommand !== 'delete') {
    throw new UsageError(`unknown command ${JSON.stringify(subcommand)} (the commands are "load", "convert", "harvest" and "delete")`);
  }
  const common: Common = {
    batchSize: wholeNumber(text('batch-size'), '--batch-size'),
    progress: values['no-progress'] !== true,
  };
  if (subcommand === 'delete') {
    onlyFor(['format', 'prefix', 'set', 'from', 'until', 'state', 'key-profile', ...mappingNames], 'load, convert or harvest');
    const idsFile = text('ids-file');
    if ((rest.length === 0) === (idsFile === undefined)) throw new UsageError('delete needs the ids to delete, or --ids-file FILE (not both)');
    return { kind: 'run', command: { kind: 'delete', ids: rest, idsFile, target: targetOf(values), ...common } };
  }
  if (subcommand === 'load') {
    if (rest.length === 0) throw new UsageError('load needs the JSON Lines file, MARC file or MARCXML file to read');
    onlyFor(['prefix', 'set', 'from', 'until', 'state'], 'harvest');
    return { kind: 'run', command: { kind: 'load', files: rest, format, allowEmpty, target: { ...targetOf(values), ...(keyProfile !== undefined ? { keyProfile } : {}) }, mapping, ...common, ...workers } };
  }
  if (format !== undefined) throw new UsageError('--format applies to load and convert only');
  if (rest.length !== 1) throw new UsageError('harvest needs exactly one OAI-PMH base URL');
  const baseUrl = rest[0] as string;
  if (!/^https?:\/\//.test(baseUrl)) throw new UsageError(`harvest needs an http(s) base URL, not ${JSON.stringify(baseUrl)}`);
  const prefix = text('prefix');
  if (prefix === undefined || !HARVEST_PREFIXES.includes(prefix)) throw new UsageError(`harvest needs --prefix ${HARVEST_PREFIXES.join(' or ')}`);
  for (const name of ['from', 'until']) {
    const value = text(name);
    if (value !== undefined && !/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}Z)?$/.test(value)) {
      throw new UsageError(`--${name} needs a date as YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ, not ${JSON.stringify(value)}`);
    }
  }
  const target: TargetSpec = { ...targetOf(values), ...(keyProfile !== undefined ? { keyProfile } : {}) };
  if ('db' in target && text('state') !== undefined) throw new UsageError('--state applies to --solr only (the embedded index keeps its own)');
  const optional = (name: string) => (text(name) !== undefined ? { [name]: text(name) } : {});
  return {
    kind: 'run',
    command: { kind: 'harvest', baseUrl, prefix, ...optional('set'), ...optional('from'), ...optional('until'), target, mapping, ...common },
  };
}

/** The mapping flags, checked now so that a wrong one is a usage error. */
function mappingFlagsOf(text: (name: string) => string | undefined): MappingFlags {
  const flags: MappingFlags = {
    ...(text('id-field') !== undefined ? { idFields: text('id-field') } : {}),
    ...(text('id-prefix') !== undefined ? { idPrefix: text('id-prefix') } : {}),
    ...(text('institution') !== undefined ? { institution: text('institution') } : {}),
    ...(text('building') !== undefined ? { building: text('building') } : {}),
  };
  try {
    withMappingFlags(STOCK_MAPPING, flags);
  } catch (error) {
    if (error instanceof InvalidOptionError) throw new UsageError(`${error.option} ${error.message.replace(/^Invalid option "[^"]*": /, '')}`);
    throw error;
  }
  return flags;
}

/** The settings a command's mapping options name; undefined (after a message) when the file is unreadable or wrong. */
async function mappingSettings(options: MappingOptions, io: CliIo): Promise<LocalMappingSettings | undefined> {
  let base = STOCK_MAPPING;
  if (options.mappingFile !== undefined) {
    try {
      base = parseLocalMapping(await readFile(options.mappingFile, 'utf8'), options.mappingFile);
    } catch (error) {
      const message = error instanceof InvalidOptionError
        ? `${error.option}: ${error.message.replace(/^Invalid option "[^"]*": /, '')}`
        : `cannot read the mapping file ${options.mappingFile}: ${(error as Error).message}`;
      io.stderr.write(`catalog-versions: ${message}\n`);
      return undefined;
    }
  }
  return withMappingFlags(base, options.flags);
}

function formatOption(name: string | undefined): RecordFileFormat | undefined {
  if (name === undefined) return undefined;
  const format = recordFormatNamed(name);
  if (format === undefined) throw new UsageError(`--format needs one of ${FORMAT_NAMES}, not ${JSON.stringify(name)}`);
  return format;
}

function targetOf(values: Record<string, string | boolean | undefined>): TargetSpec {
  const db = values.db as string | undefined;
  const solr = values.solr as string | undefined;
  if ((db === undefined) === (solr === undefined)) throw new UsageError('give exactly one target: --db PATH or --solr CORE_URL');
  if (db === '') throw new UsageError('--db needs a file path');
  const timeoutMs = wholeNumber(values['timeout-ms'] as string | undefined, '--timeout-ms');
  if (timeoutMs !== undefined && db !== undefined) throw new UsageError('--timeout-ms applies to --solr only');
  if (db !== undefined && values.grouping !== undefined) throw new UsageError('--grouping applies to --solr only (the embedded index keeps its own decisions: works import)');
  if (db !== undefined) return { db };
  let url: URL;
  try {
    url = new URL(solr as string);
  } catch {
    throw new UsageError(`--solr needs the URL of a core, e.g. http://localhost:8983/solr/biblio, not ${JSON.stringify(solr)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--solr needs an http(s) URL, not ${url.protocol}`);
  const stateFile = values.state as string | undefined;
  const groupingFile = values.grouping as string | undefined;
  return {
    solr: solr as string, ...(timeoutMs !== undefined ? { timeoutMs } : {}), ...(stateFile !== undefined ? { stateFile } : {}),
    ...(groupingFile !== undefined ? { groupingFile } : {}),
  };
}

/**
 * Runs the command with these arguments (without `node` and the script) and resolves to the exit code.
 * Never throws: every failure is a message on stderr and a code.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  if (argv[0] === 'works') return runWorksCommand(argv.slice(1), io);
  if (argv[0] === 'sync') return runSyncCommand(argv.slice(1), io);
  if (argv[0] === 'work-collection') return runWorkCollectionCommand(argv.slice(1), io);
  let parsed: Parsed;
  try {
    parsed = parseCommandLine(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(usageErrorLine(error.message));
    return EXIT_USAGE;
  }
  if (parsed.kind === 'help') {
    io.stdout.write(USAGE);
    return EXIT_OK;
  }
  if (parsed.kind === 'version') {
    io.stdout.write(`${GENERATOR}\n`);
    return EXIT_OK;
  }
  const { command } = parsed;
  if (command.kind === 'delete') return deleteRecords(command, io);
  const settings = await mappingSettings(command.mapping, io);
  if (settings === undefined) return EXIT_FAILED;
  if (command.kind === 'harvest') return harvest(command, settings, io);
  const files = await checkedRecordFiles(command.files, { format: command.format, allowEmpty: command.allowEmpty, fileOptions: true }, io.stderr);
  if (files === undefined) return EXIT_FAILED;
  if (files.length === 0 && command.kind === 'load') {
    // Every file empty, and --allow-empty: a success with nothing loaded, and no index opened or made.
    io.stdout.write(`Nothing to load from ${command.files.join(', ')} (--allow-empty). ${countsText(NO_INGEST_COUNTS)}.\n`);
    return EXIT_OK;
  }
  return command.kind === 'load' ? load(command, files, settings, io) : convert(files, settings, command.keyProfile ?? CLI_KEY_PROFILE, command.workers, io);
}

function rejectionLine(rejection: IngestRejection): string {
  return `${describeRejection(rejection.position, rejection.reason)}\n`;
}

function duplicateLine(duplicate: IngestDuplicate): string {
  return `${describePosition(duplicate.position)}: id ${JSON.stringify(duplicate.id)} came earlier in this run; this record replaces it (the last one wins)\n`;
}

/**
 * Opens the target, or says why not (undefined). An embedded index file the command creates is removed
 * again when the command fails before writing anything (reportOutcome), so a harvest of an unreachable
 * repository leaves no empty index behind.
 */
function openTarget(spec: TargetSpec, io: CliIo): LoadTarget | undefined {
  try {
    const created = 'db' in spec && !existsSync(spec.db) ? spec.db : undefined;
    const target = openLoadTarget(spec);
    if (created !== undefined) createdIndexFiles.set(target, created);
    return target;
  } catch (error) {
    io.stderr.write(`catalog-versions: cannot open ${'db' in spec ? `the embedded index ${spec.db}` : 'the Solr core'}: ${(error as Error).message}\n`);
    return undefined;
  }
}

/** Embedded index files a command's target created (see openTarget). */
const createdIndexFiles = new WeakMap<LoadTarget, string>();

async function removeIndexFile(path: string): Promise<void> {
  for (const suffix of ['', '-wal', '-shm', '-journal']) await rm(`${path}${suffix}`, { force: true }).catch(() => undefined);
}

async function load(command: LoadCommand, files: SizedRecordFile[], settings: LocalMappingSettings, io: CliIo): Promise<number> {
  const onlyJsonLines = files.every((file) => file.format.name === 'jsonl');
  if (onlyJsonLines && !isStockMapping(settings)) {
    io.stderr.write('catalog-versions: the local mapping applies to MARC records; JSON Lines record documents are loaded as they are\n');
  }
  const target = openTarget(command.target, io);
  if (target === undefined) return EXIT_FAILED;
  const totalBytes = files.reduce((sum, file) => sum + file.bytes, 0);
  const bar = command.progress && io.stderr.isTTY === true ? new ProgressBar(io.stderr, totalBytes, onlyJsonLines ? 'line' : 'record') : undefined;
  const what = files.length === 1 ? files[0]!.path : `${files.length} files`;
  const unit = onlyJsonLines ? 'lines' : 'records';
  return report(io, what, target, unit, bar, () => loadRecordFiles({
    files,
    mapping: settings,
    writer: announcingClose(target.openWriter(), bar),
    ...(command.workers !== undefined ? { workers: command.workers } : {}),
    ...(command.batchSize !== undefined ? { batchSize: command.batchSize } : {}),
    ...(bar !== undefined ? { onBytesRead: (bytes: number) => bar.advance(bytes) } : {}),
    onProgress: (progress) => bar?.update(progress.position?.line ?? progress.read, progress.read),
    onRejected: (rejection) => {
      bar?.clear();
      io.stderr.write(rejectionLine(rejection));
    },
    onDuplicate: (duplicate) => {
      bar?.clear();
      io.stderr.write(duplicateLine(duplicate));
    },
  }));
}

/**
 * The writer, telling the bar when its close() begins: closing is the load's final step (a bulk load into
 * an empty embedded index moves its staged records into the tables then, Solr commits), which can take a
 * while with nothing else to show. A Proxy, so every other member of the writer is its own.
 */
function announcingClose(writer: IngestWriter, bar: ProgressBar | undefined): IngestWriter {
  if (bar === undefined) return writer;
  return new Proxy(writer, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (key === 'close') {
        return () => {
          bar.finalStep(`finishing: making the records durable and visible in the ${target.description}…`);
          return target.close();
        };
      }
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** Runs a load or harvest and reports its summary; closes the target. */
async function report(
  io: CliIo, what: string, target: LoadTarget, unit: string, bar: ProgressBar | undefined, run: () => Promise<IngestSummary>,
  after?: (summary: IngestSummary) => Promise<string>,
): Promise<number> {
  let outcome: { summary: IngestSummary; error?: LoadStoppedError; note?: string };
  try {
    const summary = await run();
    outcome = { summary, ...(after !== undefined ? { note: await after(summary) } : {}) };
  } catch (error) {
    const stopped = error instanceof LoadStoppedError ? error : new LoadStoppedError(error, { ...NO_INGEST_COUNTS, seconds: 0 });
    outcome = { summary: stopped.summary, error: stopped };
  } finally {
    bar?.clear();
    await target.close().catch(() => undefined);
  }
  const { summary, error } = outcome;
  const created = createdIndexFiles.get(target);
  if (error !== undefined && created !== undefined && summary.loaded === 0 && summary.deleted === 0) await removeIndexFile(created);
  const rate = summary.seconds > 0 ? Math.round(summary.read / summary.seconds) : summary.read;
  const seconds = summary.seconds.toFixed(summary.seconds < 10 ? 2 : 1);
  const counts = countsText(summary);
  const written = writtenText(summary);
  if (written !== undefined) io.stdout.write(`${written}\n`);
  if (error !== undefined) {
    io.stderr.write(`catalog-versions: load of ${what} into the ${target.description} stopped: ${error.message}\n`);
    io.stdout.write(`Stopped after ${seconds} s. ${counts} (records written before the failure stay in the index, whole).\n`);
    return EXIT_FAILED;
  }
  io.stdout.write(`${what} → ${target.description} in ${seconds} s (${rate} ${unit}/s). ${counts}.${outcome.note ?? ''}\n`);
  return summary.rejected > 0 ? EXIT_REJECTED_LINES : EXIT_OK;
}

/**
 * The summary's counts, what each record read did to the index, as the last line a scheduled load mails
 * has them: `3000 read: 999 new, 1998 duplicates (last kept), 3 rejected`; `999 read: 999 unchanged,
 * 0 rejected` for a reload that changed nothing; `2 read: 1 deleted (1 more id was not in the index),
 * 0 rejected`. Kinds that no record had are left out; rejections are always said.
 */
export function countsText(summary: IngestCounts): string {
  const parts: string[] = [];
  const count = (n: number, text: string) => {
    if (n > 0) parts.push(`${n} ${text}`);
  };
  count(summary.added, 'new');
  count(summary.changed, 'changed');
  count(summary.unchanged, 'unchanged');
  count(summary.notCompared, 'with their own last_indexed');
  count(summary.duplicates, 'duplicates (last kept)');
  if (summary.deleted + summary.deletionsNotHeld > 0) {
    const notHeld = summary.deletionsNotHeld;
    parts.push(`${summary.deleted} deleted${notHeld > 0 ? ` (${notHeld} more ${notHeld === 1 ? 'id was' : 'ids were'} not in the index)` : ''}`);
  }
  if (parts.length === 0) parts.push('nothing written');
  return `${summary.read} read: ${parts.join(', ')}, ${summary.rejected} rejected`;
}

/**
 * What the loaded records did to the index, a line before the summary: `Written: 999 new, 0 changed,
 * 0 unchanged, 58941 duplicates (ids that came earlier in this run: the last record of each kept).`
 */
function writtenText(summary: IngestSummary): string | undefined {
  if (summary.loaded === 0) return undefined;
  const parts = [`${summary.added} new`, `${summary.changed} changed`, `${summary.unchanged} unchanged`];
  if (summary.notCompared > 0) parts.push(`${summary.notCompared} with their own last_indexed (not compared)`);
  if (summary.duplicates > 0) parts.push(`${summary.duplicates} duplicates (ids that came earlier in this run: the last record of each kept, listed on stderr)`);
  return `Written: ${parts.join(', ')}.`;
}

/** `convert`: documents as load would write them (prepared: keys and last_indexed), to stdout. */
async function convert(files: RecordFile[], settings: LocalMappingSettings, keyProfile: WorkKeyProfileName, workers: number | undefined, io: CliIo): Promise<number> {
  const printer: IngestWriter = {
    description: 'standard output',
    keyProfile,
    storedContentOf: async () => new Map(),
    async put(batch) {
      io.stdout.write(batch.map((document) => `${JSON.stringify(document)}\n`).join(''));
      return [];
    },
    delete: async () => undefined,
    close: async () => undefined,
  };
  try {
    const deletions: string[] = [];
    const summary = await loadRecordFiles({
      files,
      mapping: settings,
      writer: { ...printer, delete: async (ids) => { deletions.push(...ids); } },
      ...(workers !== undefined ? { workers } : {}),
      onRejected: (rejection) => io.stderr.write(rejectionLine(rejection)),
      onDuplicate: (duplicate) => io.stderr.write(duplicateLine(duplicate)),
    });
    // A withdrawn record (Leader/05 d) would be deleted by load: said, with its id, on stderr.
    for (const id of deletions) io.stderr.write(`withdrawn (load deletes it): ${JSON.stringify(id)}\n`);
    const deleted = summary.deletionsNotHeld > 0 ? `, ${summary.deletionsNotHeld} withdrawn` : '';
    io.stderr.write(`${summary.read} read, ${summary.loaded} converted, ${summary.rejected} rejected${deleted}\n`);
    return summary.rejected > 0 ? EXIT_REJECTED_LINES : EXIT_OK;
  } catch (error) {
    io.stderr.write(`catalog-versions: convert stopped: ${(error as Error).message}\n`);
    return EXIT_FAILED;
  }
}

async function harvest(command: HarvestCommand, settings: LocalMappingSettings, io: CliIo): Promise<number> {
  const target = openTarget(command.target, io);
  if (target === undefined) return EXIT_FAILED;
  const stateKey = JSON.stringify([command.baseUrl, command.prefix, command.set ?? null]);
  let from = command.from;
  // Which record id each OAI identifier was stored under, so a deleted header deletes the right record.
  const identifiersKey = harvestedIdentifiersKey(command.baseUrl, command.prefix);
  let identifiers: HarvestedIdentifiers;
  try {
    if (from === undefined && target.harvestState !== undefined) from = await target.harvestState.get(stateKey);
    identifiers = await HarvestedIdentifiers.load(target.harvestState, identifiersKey, settings.idPrefix);
  } catch (error) {
    io.stderr.write(`catalog-versions: ${(error as Error).message}\n`);
    await target.close().catch(() => undefined);
    return EXIT_FAILED;
  }
  if (from !== undefined && command.from === undefined) io.stderr.write(`Continuing from the last harvest: --from ${from}\n`);
  const oai = harvestOai({
    baseUrl: command.baseUrl,
    metadataPrefix: command.prefix,
    ...(command.set !== undefined ? { set: command.set } : {}),
    ...(from !== undefined ? { from } : {}),
    ...(command.until !== undefined ? { until: command.until } : {}),
  });
  const clock = new Date();
  const bar = command.progress && io.stderr.isTTY === true ? new ProgressBar(io.stderr, undefined, 'record') : undefined;
  const mapping = { prefix: command.prefix, local: settings };
  return report(io, command.baseUrl, target, 'records', bar, () => runIngest<HarvestedRecord>({
    items: identifiers.translateDeletions(oai as AsyncIterable<SourceItem<HarvestedRecord>>),
    toDocument: (record, _position, keyProfile) => {
      const mapped = harvestedRecordToDocument(record, { ...mapping, keyProfile });
      if (isRecordDeletion(mapped)) identifiers.forget(record.identifier);
      else if (typeof (mapped as { id?: unknown }).id === 'string') identifiers.remember(record.identifier, (mapped as { id: string }).id);
      return mapped;
    },
    writer: announcingClose(target.openWriter(), bar),
    now: () => clock,
    ...(command.batchSize !== undefined ? { batchSize: command.batchSize } : {}),
    onProgress: (progress) => bar?.update(progress.read, progress.read),
    onRejected: (rejection) => {
      bar?.clear();
      io.stderr.write(rejectionLine(rejection));
    },
    onDuplicate: (duplicate) => {
      bar?.clear();
      io.stderr.write(duplicateLine(duplicate));
    },
  }), async () => {
    const { responseDate } = oai.summary();
    // Only a harvest that went to the end moves the starting point of the next one.
    if (target.harvestState !== undefined) {
      await identifiers.save(target.harvestState, identifiersKey);
      await target.harvestState.set(stateKey, responseDate);
      return ` Next harvest continues from ${responseDate}.`;
    }
    return ` Harvest date ${responseDate} (give --state FILE to keep it, and which OAI identifier each record came from, for the next run).`;
  });
}

/**
 * `delete`: the records with these ids leave the index, through the pipeline as a harvest's deletions do
 * (so both backends, batches and counts behave alike). An embedded index file that does not exist is
 * not created.
 */
async function deleteRecords(command: DeleteCommand, io: CliIo): Promise<number> {
  let items: Array<SourceItem<never>>;
  let what: string;
  if (command.idsFile !== undefined) {
    let text: string;
    try {
      text = await readFile(command.idsFile, 'utf8');
    } catch (error) {
      io.stderr.write(`catalog-versions: cannot read ${command.idsFile}: ${(error as Error).message}\n`);
      return EXIT_FAILED;
    }
    const source = command.idsFile;
    items = text.split(/\r?\n/).flatMap((line, i) => {
      const id = line.trim();
      return id === '' ? [] : [{ kind: 'deleted' as const, id, position: { source, recordNumber: i + 1, line: i + 1, id } }];
    });
    what = command.idsFile;
  } else {
    items = command.ids.map((id, i) => ({ kind: 'deleted' as const, id, position: { source: 'command line', recordNumber: i + 1, id } }));
    what = `${command.ids.length} id${command.ids.length === 1 ? '' : 's'}`;
  }
  if ('db' in command.target && !existsSync(command.target.db)) {
    io.stderr.write(`catalog-versions: there is no embedded index ${command.target.db} to delete from\n`);
    return EXIT_FAILED;
  }
  const target = openTarget(command.target, io);
  if (target === undefined) return EXIT_FAILED;
  return report(io, what, target, 'ids', undefined, () => runIngest<never>({
    items,
    toDocument: () => undefined,
    writer: target.openWriter(),
    now: () => new Date(),
    ...(command.batchSize !== undefined ? { batchSize: command.batchSize } : {}),
  }));
}

/** True when this file is the program node was started with (also through npm's bin symlink). */
function isMainModule(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMainModule()) {
  process.once('SIGINT', () => {
    // Batches written so far stay (the embedded index commits each one; Solr sees them within commitWithin).
    process.stderr.write('\ncatalog-versions: interrupted\n');
    process.exit(130);
  });
  const code = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr });
  process.exitCode = code;
  // Nothing should be left running; if a stray socket were, it must not keep a finished command alive.
  setTimeout(() => process.exit(code), 2000).unref();
}
