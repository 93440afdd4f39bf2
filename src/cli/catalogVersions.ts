#!/usr/bin/env node
/**
 * `catalog-versions`: the package's command (package.json `bin`).
 *
 *   catalog-versions load FILE… (--db PATH | --solr CORE_URL)     records into an index
 *   catalog-versions convert FILE…                                the record documents load would write
 *   catalog-versions harvest BASE_URL --prefix marc21|oai_dc (--db PATH | --solr CORE_URL) [--set S] [--from D] [--until D]
 *   catalog-versions delete ID… | --ids-file FILE (--db PATH | --solr CORE_URL)   records out of an index
 *   catalog-versions works …                                      corrections of work groups (worksCommand.ts)
 *   catalog-versions sync --solr URL --work-index FILE            the work index beside a core (syncCommand.ts)
 *   catalog-versions work-collection create|delete …              the work collection in SolrCloud (workCollectionCommand.ts)
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
 * This file is the dispatcher: the table of commands (COMMANDS), the whole help, the exit on SIGINT. Each
 * command is a file of its own with its usage (loadCommand.ts, convertCommand.ts, harvestCommand.ts,
 * deleteCommand.ts, worksCommand.ts, syncCommand.ts, workCollectionCommand.ts); load, convert, harvest and
 * delete share one command line (ingestCommandLine.ts), the others read their own. To add a command: its
 * file, exporting its row (an IngestCommand or an OwnLineCommand), and that row in COMMANDS.
 *
 * Left to others: reading, mapping, checking and writing records (src/ingest/ and the adapters).
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, sep } from 'node:path';
import { GENERATOR, PACKAGE_ROOT } from '../packageFiles.js';
import { EXIT_FAILED, EXIT_OK, EXIT_REJECTED_LINES, EXIT_USAGE, UsageError, type CliIo, type OwnLineCommand } from './commandLine.js';
import { INGEST_OPTIONS_HELP, parseIngestCommandLine, type IngestCommand } from './ingestCommandLine.js';
import { loadCommand } from './loadCommand.js';
import { convertCommand } from './convertCommand.js';
import { harvestCommand } from './harvestCommand.js';
import { deleteCommand } from './deleteCommand.js';
import { worksCommand } from './worksCommand.js';
import { syncCommand } from './syncCommand.js';
import { workCollectionCommand } from './workCollectionCommand.js';

export { EXIT_FAILED, EXIT_OK, EXIT_REJECTED_LINES, EXIT_USAGE };
export type { CliIo };

/** Every command, in the order the usage lists them. */
const COMMANDS: readonly (IngestCommand | OwnLineCommand)[] = [
  loadCommand,
  convertCommand,
  harvestCommand,
  deleteCommand,
  worksCommand,
  syncCommand,
  workCollectionCommand,
];

const INGEST_COMMANDS = COMMANDS.filter((command): command is IngestCommand => 'fromCommandLine' in command);
const OWN_LINE_COMMANDS = COMMANDS.filter((command): command is OwnLineCommand => 'run' in command);

/** The width of a command's name before its paragraph in the help. */
const NAME_COLUMN = 9;

const USAGE = `Usage: ${COMMANDS.map((command) => `catalog-versions ${command.synopsis}`).join('\n       ')}

${INGEST_COMMANDS.map(paragraphOf).join('\n')}

${INGEST_OPTIONS_HELP}
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

/** A command's paragraph in the help: its name, then its description indented beside it. */
function paragraphOf(command: IngestCommand): string {
  return command.description.split('\n').map((line, i) => `${(i === 0 ? command.name : '').padEnd(NAME_COLUMN)}${line}`).join('\n');
}

/** A usage error's one line: what is wrong, and where the whole usage is. */
function usageErrorLine(message: string): string {
  return `catalog-versions: ${message} (catalog-versions --help shows the usage)\n`;
}

/**
 * Runs the command with these arguments (without `node` and the script) and resolves to the exit code.
 * Never throws: every failure is a message on stderr and a code.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const own = OWN_LINE_COMMANDS.find((command) => command.name === argv[0]);
  if (own !== undefined) return own.run(argv.slice(1), io);
  let run: (io: CliIo) => Promise<number>;
  try {
    const parsed = parseIngestCommandLine(argv, INGEST_COMMANDS);
    if (parsed.kind === 'help') {
      io.stdout.write(USAGE);
      return EXIT_OK;
    }
    if (parsed.kind === 'version') {
      io.stdout.write(`${GENERATOR}\n`);
      return EXIT_OK;
    }
    run = parsed.command.fromCommandLine(parsed.line);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(usageErrorLine(error.message));
    return EXIT_USAGE;
  }
  return run(io);
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
