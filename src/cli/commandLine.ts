/**
 * What every `catalog-versions` command does with its command line the same way: parsing it with
 * node:util's parseArgs into options and positionals, a UsageError for what is wrong (the command
 * prints it with its usage and exits 64), whole-number options, the `--key-profile` name, the exit codes.
 *
 * Left to others: each command's options and usage (catalogVersions.ts, worksCommand.ts).
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { WORK_KEY_PROFILE_NAMES, type WorkKeyProfileName } from '../work-keys/workKeyProfiles.js';

/** The exit status every command ends with (docs/loading.md, docs/curation.md). */
export const EXIT_OK = 0;
/** The command could not run or stopped (named on stderr). */
export const EXIT_FAILED = 1;
/** Some records were rejected and reported; the others were used. */
export const EXIT_REJECTED_LINES = 2;
export const EXIT_USAGE = 64; // sysexits.h EX_USAGE

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
