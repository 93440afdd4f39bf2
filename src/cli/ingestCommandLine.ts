/**
 * The command line `load`, `convert`, `harvest` and `delete` share: one set of options (INGEST_OPTIONS),
 * read before the command is known so that options may come before or after the command's name; the
 * checks each of them makes the same way (--format, the mapping flags, --key-profile, the options only
 * some of them take: each command says which in its `takes`); the target (--db or --solr), the local
 * mapping a command line names, and the options' part of the help (INGEST_OPTIONS_HELP).
 *
 * Left to others: each command's own checks and what it runs (loadCommand.ts, convertCommand.ts,
 * harvestCommand.ts, deleteCommand.ts), the table of commands and the whole help (catalogVersions.ts).
 */
import { readFile } from 'node:fs/promises';
import { DEFAULT_SOLR_WRITE_TIMEOUT_MS } from '../adapters/solr/solrWriter.js';
import { LOAD_BATCH_SIZES } from '../adapters/sqlite/embeddedIndex.js';
import { InvalidOptionError } from '../errors.js';
import { parseLocalMapping, STOCK_MAPPING, withMappingFlags, type LocalMappingSettings, type MappingFlags } from '../ingest/localMapping.js';
import { HARVEST_PREFIXES } from '../ingest/oai/harvestedRecords.js';
import { recordFormatNamed, RECORD_FILE_FORMAT_NAMES, type RecordFileFormat } from '../ingest/recordFormats.js';
import type { WorkKeyProfileName } from '../work-keys/workKeyProfiles.js';
import { keyProfileOption, parseArguments, UsageError, wholeNumber, type CliIo } from './commandLine.js';
import { DEFAULT_BATCH_SIZE, type TargetSpec } from './loadRecords.js';

/** The options only some of the commands take; the others refuse them, naming the commands that do. */
export type CommandSpecificOption = 'ids-file' | 'workers' | 'allow-empty';

/** One of the commands that share this command line: its row in the table of commands (catalogVersions.ts). */
export interface IngestCommand {
  readonly name: string;
  /** Its line in the usage, after `catalog-versions `. */
  readonly synopsis: string;
  /** Its paragraph in the help, line by line, without the indent. */
  readonly description: string;
  readonly takes: readonly CommandSpecificOption[];
  /** Its own checks of the command line (a UsageError says what is wrong), and then what it runs. */
  readonly fromCommandLine: (line: IngestCommandLine) => (io: CliIo) => Promise<number>;
}

/** The local mapping a command line names: a file, and flags over it. */
export interface MappingOptions { readonly mappingFile: string | undefined; readonly flags: MappingFlags }

/** The command line, read and checked as far as every command reads it. */
export interface IngestCommandLine {
  /** The positionals after the command's name. */
  readonly operands: readonly string[];
  /** A string option's value, or undefined when it is not given. */
  readonly text: (name: string) => string | undefined;
  readonly format: RecordFileFormat | undefined;
  readonly mapping: MappingOptions;
  readonly keyProfile: WorkKeyProfileName | undefined;
  /** --workers, undefined for the loader's default. */
  readonly workers: number | undefined;
  /** --allow-empty: an empty file loads nothing rather than failing the command. */
  readonly allowEmpty: boolean;
  /** A UsageError when one of these options is given: `--NAME applies to COMMANDS only`. */
  readonly onlyFor: (names: readonly string[], commands: string) => void;
  /** The target --db or --solr names, with the --key-profile asked for. */
  readonly target: () => TargetSpec;
  /** --batch-size and --no-progress. */
  readonly common: () => CommonOptions;
}

export interface CommonOptions {
  /** Undefined: the target writer's preferred size. */
  readonly batchSize: number | undefined;
  readonly progress: boolean;
}

export type ParsedIngestCommandLine =
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | { readonly kind: 'command'; readonly command: IngestCommand; readonly line: IngestCommandLine };

/** The options of every command here (node:util parseArgs); which command takes which is checked after. */
const INGEST_OPTIONS = {
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
} as const;

/** The options of the local mapping (a file and the flags over it). */
export const MAPPING_OPTION_NAMES: readonly string[] = ['mapping', 'id-field', 'id-prefix', 'institution', 'building'];

/** The names --format takes, as the usage writes them. */
export const FILE_FORMAT_CHOICES = RECORD_FILE_FORMAT_NAMES.join('|');

/** The options' part of the help, after the commands' paragraphs. */
export const INGEST_OPTIONS_HELP = `Target (load and harvest; exactly one):
  --db PATH            embedded index file (SQLite); created when missing
  --solr CORE_URL      Solr core, e.g. http://localhost:8983/solr/biblio
                       (user:password@ in the URL becomes HTTP basic auth)

Options:
  --format NAME        read every FILE as ${FILE_FORMAT_CHOICES} instead of recognising it
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
`;

/**
 * Reads the command line of one of `commands`: help and version first, then the command's name (the
 * first positional), then what every command checks alike. Throws UsageError.
 */
export function parseIngestCommandLine(argv: readonly string[], commands: readonly IngestCommand[]): ParsedIngestCommandLine {
  const { values, positionals } = parseArguments(argv, INGEST_OPTIONS);
  if (values.help === true) return { kind: 'help' };
  if (values.version === true) return { kind: 'version' };

  const [name, ...operands] = positionals;
  if (name === undefined) throw new UsageError('no command given');
  const command = commands.find((candidate) => candidate.name === name);
  const text = (option: string) => values[option] as string | undefined;
  const format = formatOption(text('format'));
  const onlyFor = (names: readonly string[], commandNames: string) => {
    for (const option of names) if (text(option) !== undefined) throw new UsageError(`--${option} applies to ${commandNames} only`);
  };
  const mapping: MappingOptions = { mappingFile: text('mapping'), flags: mappingFlagsOf(text) };
  const keyProfile = keyProfileOption(text('key-profile'));
  const refuseUntaken = (option: CommandSpecificOption) => {
    if (command?.takes.includes(option) !== true) onlyFor([option], alternatives(commands.filter((candidate) => candidate.takes.includes(option)).map((candidate) => candidate.name)));
  };
  refuseUntaken('ids-file');
  const workersText = text('workers');
  if (workersText !== undefined && !/^\d+$/.test(workersText)) throw new UsageError(`--workers needs a whole number of 0 or more, not ${JSON.stringify(workersText)}`);
  refuseUntaken('workers');
  refuseUntaken('allow-empty');
  if (command === undefined) {
    const names = commands.map((candidate) => JSON.stringify(candidate.name));
    throw new UsageError(`unknown command ${JSON.stringify(name)} (the commands are ${names.slice(0, -1).join(', ')} and ${names.at(-1)})`);
  }
  const line: IngestCommandLine = {
    operands,
    text,
    format,
    mapping,
    keyProfile,
    workers: workersText === undefined ? undefined : Number(workersText),
    allowEmpty: values['allow-empty'] === true,
    onlyFor,
    target: () => ({ ...targetOf(values), ...(keyProfile !== undefined ? { keyProfile } : {}) }),
    common: () => ({ batchSize: wholeNumber(text('batch-size'), '--batch-size'), progress: values['no-progress'] !== true }),
  };
  return { kind: 'command', command, line };
}

/** `a`, `a or b`, `a, b or c`. */
function alternatives(names: readonly string[]): string {
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
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
export async function mappingSettings(options: MappingOptions, io: CliIo): Promise<LocalMappingSettings | undefined> {
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
  if (format === undefined) throw new UsageError(`--format needs one of ${FILE_FORMAT_CHOICES}, not ${JSON.stringify(name)}`);
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
