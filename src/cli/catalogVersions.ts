#!/usr/bin/env node
/**
 * `catalog-versions`: the package's command (package.json `bin`). One subcommand today:
 *
 *   catalog-versions load FILE.jsonl (--db PATH | --solr CORE_URL) [--batch-size N] [--timeout-ms N]
 *
 * What it does: parses the command line (node:util parseArgs), runs the load (loadRecords.ts), draws a
 * progress bar when stderr is a terminal, reports each bad line as `FILE:LINE: reason` on stderr, prints a
 * summary on stdout and ends with an exit code a script can act on:
 *   0  every line loaded;  2  some lines were rejected, the rest loaded;
 *   1  the load could not run or stopped (unreadable file, index unreachable, timed out or failing);
 *   64 the command line is wrong (usage on stderr).
 *
 * Left to others: reading, checking and writing documents (loadRecords.ts and the index modules).
 */
import { constants, createReadStream, realpathSync } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { GENERATOR } from '../packageFiles.js';
import { DEFAULT_SOLR_WRITE_TIMEOUT_MS } from '../adapters/solr/solrWriter.js';
import { DEFAULT_BATCH_SIZE, LoadStoppedError, loadJsonLinesFile, openLoadTarget, type LoadFileSummary, type LoadTarget } from './loadRecords.js';

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_REJECTED_LINES = 2;
export const EXIT_USAGE = 64; // sysexits.h EX_USAGE

const USAGE = `Usage: catalog-versions load FILE.jsonl (--db PATH | --solr CORE_URL) [options]

Loads record documents (JSON Lines: one JSON object per line, VuFind "biblio" field
names) into the embedded index or a Solr core. Work keys and last_indexed are computed
for documents that lack them; last_indexed comes from FILE's modification time, and
records whose content did not change keep the one they have. Loading the same file
again leaves the same index. Bad lines are reported as FILE:LINE: reason and skipped.

Target (exactly one):
  --db PATH            embedded index file (SQLite); created when missing
  --solr CORE_URL      Solr core, e.g. http://localhost:8983/solr/biblio
                       (user:password@ in the URL becomes HTTP basic auth)

Options:
  --batch-size N       documents per write (default ${DEFAULT_BATCH_SIZE})
  --timeout-ms N       Solr: deadline of each request in ms (default ${DEFAULT_SOLR_WRITE_TIMEOUT_MS})
  --no-progress        no progress bar even on a terminal
  -h, --help           this help
  --version            the package version

Exit status: 0 all lines loaded; 2 some lines rejected (the rest loaded);
1 the load failed or stopped (file unreadable, index unreachable or failing);
64 wrong command line.
`;

/** Where the command writes; a terminal on stderr gets the progress bar. */
export interface CliIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown; readonly isTTY?: boolean; readonly columns?: number };
}

class UsageError extends Error {}

interface LoadCommand {
  file: string;
  target: { db: string } | { solr: string; timeoutMs?: number };
  batchSize: number;
  progress: boolean;
}

type Parsed = { kind: 'help' } | { kind: 'version' } | { kind: 'load'; command: LoadCommand };

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
        'batch-size': { type: 'string' },
        'timeout-ms': { type: 'string' },
        'no-progress': { type: 'boolean' },
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
  if (subcommand !== 'load') throw new UsageError(`unknown command ${JSON.stringify(subcommand)} (the command is "load")`);
  if (rest.length === 0) throw new UsageError('load needs the JSON Lines file to read');
  if (rest.length > 1) throw new UsageError(`load reads one file, got ${rest.length}: ${rest.map((r) => JSON.stringify(r)).join(' ')}`);
  const file = rest[0] as string;

  const db = values.db as string | undefined;
  const solr = values.solr as string | undefined;
  if ((db === undefined) === (solr === undefined)) throw new UsageError('give exactly one target: --db PATH or --solr CORE_URL');
  if (db === '') throw new UsageError('--db needs a file path');
  const timeoutMs = wholeNumber(values['timeout-ms'] as string | undefined, '--timeout-ms');
  if (timeoutMs !== undefined && db !== undefined) throw new UsageError('--timeout-ms applies to --solr only');
  if (solr !== undefined) {
    let url: URL;
    try {
      url = new URL(solr);
    } catch {
      throw new UsageError(`--solr needs the URL of a core, e.g. http://localhost:8983/solr/biblio, not ${JSON.stringify(solr)}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--solr needs an http(s) URL, not ${url.protocol}`);
  }
  const batchSize = wholeNumber(values['batch-size'] as string | undefined, '--batch-size') ?? DEFAULT_BATCH_SIZE;
  return {
    kind: 'load',
    command: {
      file,
      target: db !== undefined ? { db } : { solr: solr as string, ...(timeoutMs !== undefined ? { timeoutMs } : {}) },
      batchSize,
      progress: values['no-progress'] !== true,
    },
  };
}

function wholeNumber(text: string | undefined, option: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text))) {
    throw new UsageError(`${option} needs a whole number of 1 or more, not ${JSON.stringify(text)}`);
  }
  return Number(text);
}

/**
 * Runs the command with these arguments (without `node` and the script) and resolves to the exit code.
 * Never throws: every failure is a message on stderr and a code.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let parsed: Parsed;
  try {
    parsed = parseCommandLine(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`catalog-versions: ${error.message}\n\n${USAGE}`);
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
  return load(parsed.command, io);
}

async function load(command: LoadCommand, io: CliIo): Promise<number> {
  const { file } = command;
  // The file first: a typo in its name must not leave behind a new, empty index file.
  try {
    if (!(await stat(file)).isFile()) throw new Error('not a file');
    await access(file, constants.R_OK);
  } catch (error) {
    io.stderr.write(`catalog-versions: cannot read ${file}: ${(error as Error).message}\n`);
    return EXIT_FAILED;
  }
  let target: LoadTarget;
  try {
    target = openLoadTarget(command.target);
  } catch (error) {
    io.stderr.write(`catalog-versions: cannot open ${'db' in command.target ? `the embedded index ${command.target.db}` : 'the Solr core'}: ${(error as Error).message}\n`);
    return EXIT_FAILED;
  }
  const bar = command.progress && io.stderr.isTTY === true ? new ProgressBar(io.stderr, await countLines(file)) : undefined;
  let outcome: { summary: LoadFileSummary; error?: LoadStoppedError };
  try {
    const summary = await loadJsonLinesFile({
      file,
      target,
      batchSize: command.batchSize,
      onProgress: (progress) => bar?.update(progress.line, progress.read),
      onRejected: ({ line, id, reason }) => {
        bar?.clear();
        io.stderr.write(`${file}:${line}: ${reason}${id !== undefined ? ` (record ${JSON.stringify(id)})` : ''}\n`);
      },
    });
    outcome = { summary };
  } catch (error) {
    if (!(error instanceof LoadStoppedError)) throw error;
    outcome = { summary: error.summary, error };
  } finally {
    bar?.clear();
    await target.close().catch(() => undefined);
  }

  const { summary, error } = outcome;
  const rate = summary.seconds > 0 ? Math.round(summary.read / summary.seconds) : summary.read;
  const seconds = summary.seconds.toFixed(summary.seconds < 10 ? 2 : 1);
  const counts = `${summary.read} read, ${summary.loaded} loaded, ${summary.rejected} rejected`;
  if (error !== undefined) {
    io.stderr.write(`catalog-versions: load of ${file} into the ${target.description} stopped: ${error.message}\n`);
    io.stdout.write(`Stopped after ${seconds} s: ${counts} (loaded records before the failure stay in the index).\n`);
    return EXIT_FAILED;
  }
  io.stdout.write(`${file} → ${target.description}: ${counts} in ${seconds} s (${rate} lines/s).\n`);
  return summary.rejected > 0 ? EXIT_REJECTED_LINES : EXIT_OK;
}

/** Lines in a file (for the bar's percentage): a quick byte scan, far cheaper than the load itself. */
async function countLines(file: string): Promise<number | undefined> {
  try {
    let lines = 0;
    let last = 10;
    for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines += 1;
      last = chunk[chunk.length - 1] ?? last;
    }
    return last === 10 ? lines : lines + 1;
  } catch {
    return undefined; // the load reports the file's problem
  }
}

/** One status line on a terminal, rewritten in place at most ten times a second. */
class ProgressBar {
  private readonly started = performance.now();
  private lastDraw = 0;
  private shown = false;

  constructor(private readonly stream: CliIo['stderr'], private readonly totalLines: number | undefined) {}

  update(line: number, read: number): void {
    const now = performance.now();
    if (now - this.lastDraw < 100) return;
    this.lastDraw = now;
    const seconds = (now - this.started) / 1000;
    const rate = seconds > 0 ? Math.round(read / seconds) : 0;
    const width = Math.max(10, Math.min(40, (this.stream.columns || 80) - 50));
    let text: string;
    if (this.totalLines !== undefined && this.totalLines > 0) {
      const fraction = Math.min(1, line / this.totalLines);
      const filled = Math.round(fraction * width);
      text = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(Math.floor(fraction * 100)).padStart(3)}% ` +
        `line ${line}/${this.totalLines}  ${rate} lines/s`;
    } else {
      text = `line ${line}  ${rate} lines/s`;
    }
    this.stream.write(`\r\x1b[2K${text}`);
    this.shown = true;
  }

  /** Removes the bar (before another message, and at the end). */
  clear(): void {
    if (!this.shown) return;
    this.stream.write('\r\x1b[2K');
    this.shown = false;
    this.lastDraw = 0;
  }
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
