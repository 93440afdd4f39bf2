/**
 * `catalog-versions works …`: a librarian's corrections of work groups on an embedded index, and the
 * report that finds the groups to correct (docs/curation.md).
 *
 *   works merge ID ID… --db PATH --note TEXT [--by NAME]   list these records as versions of each other
 *   works split ID --db PATH --note TEXT [--by NAME]       take a record out of its group
 *   works list --db PATH                                   the decisions, who took them, when and why
 *   works undo DECISION_ID --db PATH                       take a decision back
 *   works export FILE --db PATH                            the decisions as a JSON file (`-`: standard output)
 *   works import FILE --db PATH                            replace the decisions with a file's
 *   works report --db PATH [--top N] [--large-key N] [--many-authors N]
 *   works evaluate --gold LABELS (FILE… [--key-profile P|both] | --db PATH)   grouping against labels (worksEvaluate.ts)
 *
 * Exit status as the rest of the command: 0 done, 1 failed (named on stderr), 64 wrong command line
 * (evaluate: 2 too, when records of its files were rejected).
 * The clock and the user are arguments, so that tests give their own.
 *
 * Left to others: what decisions do (src/work-keys/curation/), keeping and applying them
 * (src/adapters/sqlite/curationTable.ts), counting groups (src/adapters/sqlite/groupQualityReads.ts).
 */
import { readFile, stat, writeFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { openSqliteIndex, type SqliteIndex } from '../adapters/sqlite/embeddedIndex.js';
import type { GroupQualityReport, KeyGroupReport } from '../adapters/sqlite/groupQualityReads.js';
import { VersionsError } from '../errors.js';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, parseArguments, UsageError, wholeNumber, type CliIo, type OwnLineCommand } from './commandLine.js';
import { DEFAULT_GENERIC_KEY_LIMITS } from '../work-keys/curation/groupQuality.js';
import type { CurationDecision } from '../work-keys/curation/curationDecisions.js';
import { curationFileText, decisionsFromCurationFile } from '../work-keys/curation/curationFile.js';
import { EVALUATE_USAGE, evaluateCommandOf, runEvaluate, type EvaluateCommand } from './worksEvaluate.js';


export const WORKS_USAGE = `Usage: catalog-versions works merge ID ID… --db PATH --note TEXT [--by NAME]
       catalog-versions works split ID --db PATH --note TEXT [--by NAME]
       catalog-versions works list|report --db PATH
       catalog-versions works undo DECISION_ID --db PATH
       catalog-versions works export|import FILE --db PATH
       catalog-versions works evaluate --gold LABELS (FILE… | --db PATH)   (works evaluate --help)

merge    lists these records as versions of each other, whatever their keys say
split    takes a record out of its group: it is listed only with what it is merged
         with (by default, only itself)
list     the decisions, with who took them, when and why
undo     takes a decision back (its id, as list shows it: m1, s2, …)
export   writes the decisions to FILE (- for standard output) as stable JSON, to keep
         under version control and import into a rebuilt index
import   replaces the index's decisions with FILE's
report   the largest versions lists, the keys that join the most records, and the
         keys that look generic (a collective title, many authors), to find bad groups
evaluate measures grouping against the library's labels (which records are one
         work): pairwise and B-cubed precision, recall and F1, wrong groups, missed pairs

Decisions are kept in the index and applied to every later load; a decision
applies at once to the records the index holds.

Options:
  --db PATH            the embedded index file (it must exist)
  --note TEXT          merge, split: why (required)
  --by NAME            merge, split: who (default: the user running the command)
  --top N              report, evaluate: rows in each part (default 10)
  --large-key N        report: a key joining more than N records … (default ${DEFAULT_GENERIC_KEY_LIMITS.largeKey})
  --many-authors N     … with N different authors or more looks generic (default ${DEFAULT_GENERIC_KEY_LIMITS.manyAuthors})
`;


type WorksCommand =
  | { kind: 'merge'; records: string[]; note: string; by: string | undefined }
  | { kind: 'split'; record: string; note: string; by: string | undefined }
  | { kind: 'list' }
  | { kind: 'undo'; decision: string }
  | { kind: 'export'; file: string }
  | { kind: 'import'; file: string }
  | { kind: 'report'; top: number | undefined; largeKey: number | undefined; manyAuthors: number | undefined };

type ParsedWorksCommand = { db: string; command: WorksCommand } | { evaluate: EvaluateCommand } | { help: string };

function parseWorksCommand(argv: readonly string[]): ParsedWorksCommand {
  const { values, positionals } = parseArguments(argv, {
    db: { type: 'string' },
    note: { type: 'string' },
    by: { type: 'string' },
    top: { type: 'string' },
    'large-key': { type: 'string' },
    'many-authors': { type: 'string' },
    gold: { type: 'string' },
    'key-profile': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  const [action, ...rest] = positionals;
  if (values.help === true) return { help: action === 'evaluate' ? EVALUATE_USAGE : WORKS_USAGE };
  const text = (name: string) => values[name] as string | undefined;
  const db = text('db');
  if (action === undefined) throw new UsageError('works needs what to do: merge, split, list, undo, export, import, report or evaluate');
  const onlyFor = (names: string[], actions: string) => {
    for (const name of names) if (text(name) !== undefined) throw new UsageError(`--${name} applies to works ${actions} only`);
  };
  if (action !== 'report' && action !== 'evaluate') onlyFor(['top'], 'report and evaluate');
  if (action !== 'report') onlyFor(['large-key', 'many-authors'], 'report');
  if (action !== 'merge' && action !== 'split') onlyFor(['note', 'by'], 'merge and split');
  if (action !== 'evaluate') onlyFor(['gold', 'key-profile'], 'evaluate');
  else return { evaluate: evaluateCommandOf(text, rest) };
  if (db === undefined || db === '') throw new UsageError(`works ${action} needs --db PATH`);
  const note = (): string => {
    const given = text('note');
    if (given === undefined || given.trim() === '') throw new UsageError(`works ${action} needs --note saying why`);
    return given;
  };
  const count = (n: number, what: string) => {
    if (rest.length !== n) throw new UsageError(`works ${action} needs ${what}`);
  };
  switch (action) {
    case 'merge':
      if (new Set(rest).size < 2) throw new UsageError('works merge needs two different record ids or more');
      return { db, command: { kind: 'merge', records: rest, note: note(), by: text('by') } };
    case 'split':
      count(1, 'exactly one record id');
      return { db, command: { kind: 'split', record: rest[0] as string, note: note(), by: text('by') } };
    case 'list':
    case 'report':
      count(0, 'no other argument');
      return action === 'list' ? { db, command: { kind: 'list' } } : {
        db,
        command: { kind: 'report', top: wholeNumber(text('top'), '--top'), largeKey: wholeNumber(text('large-key'), '--large-key'), manyAuthors: wholeNumber(text('many-authors'), '--many-authors') },
      };
    case 'undo':
      count(1, 'exactly one decision id (works list shows them)');
      return { db, command: { kind: 'undo', decision: rest[0] as string } };
    case 'export':
    case 'import':
      count(1, 'exactly one file');
      return { db, command: { kind: action, file: rest[0] as string } };
    default:
      throw new UsageError(`unknown works command ${JSON.stringify(action)} (merge, split, list, undo, export, import, report or evaluate)`);
  }
}

/** The user running the command, for `by` when --by is not given. */
function currentUser(): string {
  try {
    const name = userInfo().username;
    if (name !== '') return name;
  } catch {
    // no user entry (a container's uid): fall through
  }
  return process.env.USER ?? process.env.USERNAME ?? 'unknown';
}

/** `works`: its row in the table of commands (catalogVersions.ts). */
export const worksCommand: OwnLineCommand = {
  name: 'works',
  synopsis: 'works merge|split|list|undo|export|import|report|evaluate …   (works --help)',
  run: (argv, io) => runWorksCommand(argv, io),
};

/**
 * Runs `works` with these arguments (after the word `works`); resolves to the exit code and never
 * throws. `now` is the clock decisions are stamped with.
 */
export async function runWorksCommand(argv: readonly string[], io: CliIo, now: () => Date = () => new Date()): Promise<number> {
  let parsed: ParsedWorksCommand;
  try {
    parsed = parseWorksCommand(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`catalog-versions: ${error.message}\n\n${argv.includes('evaluate') ? EVALUATE_USAGE : WORKS_USAGE}`);
    return EXIT_USAGE;
  }
  if ('help' in parsed) {
    io.stdout.write(parsed.help);
    return EXIT_OK;
  }
  if ('evaluate' in parsed) return runEvaluate(parsed.evaluate, io);
  const { db, command } = parsed;
  let index: SqliteIndex;
  try {
    // Never a new, empty index from a typo in --db.
    if (!(await stat(db)).isFile()) throw new Error('not a file');
    const readOnly = command.kind === 'list' || command.kind === 'report' || command.kind === 'export';
    index = openSqliteIndex({ path: db, readOnly });
  } catch (error) {
    io.stderr.write(`catalog-versions: cannot open the embedded index ${db}: ${(error as Error).message}\n`);
    return EXIT_FAILED;
  }
  try {
    await run(index, command, io, now);
    return EXIT_OK;
  } catch (error) {
    const code = error instanceof VersionsError ? ` (${error.code})` : '';
    io.stderr.write(`catalog-versions: works ${command.kind}: ${(error as Error).message}${code}\n`);
    return EXIT_FAILED;
  } finally {
    await index.close();
  }
}

async function run(index: SqliteIndex, command: WorksCommand, io: CliIo, now: () => Date): Promise<void> {
  const { curation } = index;
  const rewritten = (n: number) => `${n} record${n === 1 ? '' : 's'} of the index rewritten`;
  switch (command.kind) {
    case 'merge':
    case 'split': {
      const author = { by: command.by ?? currentUser(), at: now(), note: command.note };
      const change = command.kind === 'merge' ? await curation.merge(command.records, author) : await curation.split(command.record, author);
      io.stdout.write(`${decisionLine(change.decision!)}\n${rewritten(change.recordsRewritten)}.\n`);
      return;
    }
    case 'undo': {
      const change = await curation.undo(command.decision);
      io.stdout.write(`Undone: ${decisionLine(change.decision!)}\n${rewritten(change.recordsRewritten)}.\n`);
      return;
    }
    case 'list': {
      const decisions = curation.decisions();
      io.stdout.write(decisions.length === 0 ? 'No grouping decisions.\n' : decisions.map((d) => `${decisionLine(d)}\n`).join(''));
      return;
    }
    case 'export': {
      const text = curationFileText(curation.decisions());
      if (command.file === '-') io.stdout.write(text);
      else {
        await writeFile(command.file, text);
        io.stdout.write(`${curation.decisions().length} decisions → ${command.file}\n`);
      }
      return;
    }
    case 'import': {
      const decisions = decisionsFromCurationFile(await readFile(command.file, 'utf8'), command.file);
      const change = await curation.replaceAll(decisions);
      io.stdout.write(`${command.file}: ${decisions.length} decisions imported; ${rewritten(change.recordsRewritten)}.\n`);
      return;
    }
    case 'report': {
      const limits = {
        largeKey: command.largeKey ?? DEFAULT_GENERIC_KEY_LIMITS.largeKey,
        manyAuthors: command.manyAuthors ?? DEFAULT_GENERIC_KEY_LIMITS.manyAuthors,
      };
      io.stdout.write(reportText(curation.report({ ...(command.top !== undefined ? { top: command.top } : {}), limits })));
    }
  }
}

/** `m1 merge a, b — by anna, 2026-11-25T15:00:00.000Z: why` */
function decisionLine(decision: CurationDecision): string {
  return `${decision.id}  ${decision.action} ${decision.records.join(', ')}  — by ${decision.by}, ${decision.at}: ${decision.note}`;
}

function titled(id: string, title: string | undefined): string {
  return title === undefined ? id : `${id} "${title}"`;
}

function keyLine(group: KeyGroupReport): string {
  const signs = group.signs.length > 0 ? `  [${group.signs.join(', ')}]` : '';
  const examples = group.examples.map((e) => titled(e.id, e.title)).join('; ');
  return `${String(group.records).padStart(7)}  ${String(group.authors).padStart(4)}  ${group.key}${signs}\n${' '.repeat(15)}e.g. ${examples}\n`;
}

function reportText(report: GroupQualityReport): string {
  const lines: string[] = [`Index of ${report.records} records.\n`];
  lines.push('\nLargest versions lists (records listed, the record itself included):\n');
  if (report.largestLists.length === 0) lines.push('  none: no key joins two records\n');
  for (const list of report.largestLists) lines.push(`${String(list.versions).padStart(7)}  ${titled(list.id, list.title)}\n`);
  lines.push('\nKeys that join the most records (records, different main authors, key):\n');
  for (const group of report.joiningKeys) lines.push(keyLine(group));
  lines.push(`\nKeys that look generic (a collective or generic title, or more than ${report.limits.largeKey} records by ${report.limits.manyAuthors} authors or more):\n`);
  if (report.genericKeys.length === 0) lines.push('  none\n');
  for (const group of report.genericKeys) lines.push(keyLine(group));
  lines.push('\nCorrect a group with `catalog-versions works split ID --note …` or `works merge ID ID… --note …` (docs/curation.md).\n');
  return lines.join('');
}
