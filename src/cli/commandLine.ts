/**
 * What every `catalog-versions` command does with its command line the same way: parsing it with
 * node:util's parseArgs into options and positionals, a UsageError for what is wrong (the command
 * prints it with its usage and exits 64), whole-number options, the `--key-profile` name, the exit codes,
 * and where a command writes (CliIo).
 *
 * Left to others: the options load, convert, harvest and delete share (ingestCommandLine.ts), each
 * command's own options and usage (its file: loadCommand.ts, syncCommand.ts, worksCommand.ts, …), the
 * table of commands (catalogVersions.ts).
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { WORK_KEY_PROFILE_NAMES, type WorkKeyProfileName } from '../work-keys/workKeyProfiles.js';
import type { ProgressStream } from './progressBar.js';

/** The exit status every command ends with (docs/loading.md, docs/curation.md). */
export const EXIT_OK = 0;
/** The command could not run or stopped (named on stderr). */
export const EXIT_FAILED = 1;
/** Some records were rejected and reported; the others were used. */
export const EXIT_REJECTED_LINES = 2;
export const EXIT_USAGE = 64; // sysexits.h EX_USAGE

/** Where a command writes; a terminal on stderr gets the progress bar (progressBar.ts). */
export interface CliIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: ProgressStream & { readonly isTTY?: boolean };
}

/**
 * A command with a command line and help of its own (`works`, `sync`): its row in the table of commands
 * (catalogVersions.ts) is its name, its line in the usage and what runs it with the arguments after its name.
 */
export interface OwnLineCommand {
  readonly name: string;
  /** Its line in the usage, after `catalog-versions `. */
  readonly synopsis: string;
  /** Resolves to the exit code; a wrong command line is its own usage error (EXIT_USAGE). */
  readonly run: (argv: readonly string[], io: CliIo) => Promise<number>;
}

/** The command line is wrong; the message says how, in one sentence. */
export class UsageError extends Error {}

export interface ParsedArguments {
  readonly values: Record<string, string | boolean | undefined>;
  readonly positionals: string[];
}

/** Options and positionals of a command line; unknown options and missing values are UsageErrors. */
export function parseArguments(argv: readonly string[], options: NonNullable<ParseArgsConfig['options']>): ParsedArguments {
  try {
    const { values, positionals } = parseArgs({ args: [...argv], allowPositionals: true, strict: true, options });
    return { values: values as Record<string, string | boolean | undefined>, positionals };
  } catch (error) {
    // parseArgs explains unknown options and missing values well; keep its sentence, drop its hints.
    throw new UsageError((error as Error).message.split('\n', 1)[0] ?? 'invalid arguments');
  }
}

/** An option's whole number of 1 or more; undefined when the option is not given. */
export function wholeNumber(text: string | undefined, option: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text))) {
    throw new UsageError(`${option} needs a whole number of 1 or more, not ${JSON.stringify(text)}`);
  }
  return Number(text);
}
/** `--key-profile`: a work-key profile's name (src/work-keys/workKeyProfiles.ts), or a usage error naming them. */
export function keyProfileOption(name: string | undefined): WorkKeyProfileName | undefined {
  if (name === undefined) return undefined;
  if (!(WORK_KEY_PROFILE_NAMES as readonly string[]).includes(name)) {
    throw new UsageError(`--key-profile needs ${WORK_KEY_PROFILE_NAMES.join(' or ')}, not ${JSON.stringify(name)}`);
  }
  return name as WorkKeyProfileName;
}
