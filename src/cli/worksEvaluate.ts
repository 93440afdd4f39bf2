/**
 * `catalog-versions works evaluate`: a librarian's measure of grouping on the library's own sample
 * (docs/curation.md#measuring-grouping).
 *
 *   works evaluate --gold LABELS FILE… [--key-profile vufind|extended|both] [--top N]
 *   works evaluate --gold LABELS --db INDEX [--top N]
 *
 * With files, their records (any format `load` reads, recognised from the content) are mapped and keyed
 * in memory by the ingest pipeline, as `load` and `convert` key them, under each profile asked for
 * (`both`: vufind, then extended); no index is written. With --db, the keys the embedded index holds for
 * each labelled record are scored, the library's merges and splits included (they are applied to the
 * stored keys). Prints, per profile, the pairwise and B-cubed figures, the largest wrong groups and the
 * works whose records are split apart.
 *
 * Exit status: 0 done, 2 some records of the files were rejected (reported on stderr; the others scored),
 * 1 failed (a file or the index unreadable, the labels wrong: named on stderr), 64 wrong command line.
 *
 * Left to others: the scores (src/work-keys/curation/groupingScores.ts), reading the labels
 * (src/work-keys/curation/workLabels.ts), reading and keying records (src/ingest/, loadRecords.ts).
 */
import { readFile } from 'node:fs/promises';
import { openSqliteIndex } from '../adapters/sqlite/embeddedIndex.js';
import { VersionsError } from '../errors.js';
import { describePosition, describeRejection } from '../record/sourceRecord.js';
import { shortTitleOf } from '../record/catalogRecord.js';
import type { IngestWriter, PreparedRecordDocument } from '../ports.js';
import { evaluateGrouping, scoreText, type GroupingEvaluation, type ScoredRecord } from '../work-keys/curation/groupingScores.js';
import { parseWorkLabels, type WorkLabels } from '../work-keys/curation/workLabels.js';
import { WORK_KEY_PROFILE_NAMES, type WorkKeyProfileName } from '../work-keys/workKeyProfiles.js';
import { EXIT_FAILED, EXIT_OK, EXIT_REJECTED_LINES, UsageError, wholeNumber, type CliIo } from './commandLine.js';
import { loadRecordFiles, type RecordFile } from './loadRecords.js';
import { checkedRecordFiles } from './recordFileArguments.js';

export const EVALUATE_USAGE = `Usage: catalog-versions works evaluate --gold LABELS FILE… [--key-profile vufind|extended|both]
       catalog-versions works evaluate --gold LABELS --db INDEX

evaluate  measures grouping against the library's own labels: which records are one work.
          With FILEs (any format load reads), their records are keyed in memory; with
          --db, the index's keys are scored, merges and splits included. Prints, per
          profile, pairwise and B-cubed precision, recall and F1, the largest wrong
          groups and the works whose records are not all listed together.

LABELS is CSV, \`id,work\` a line (a header line \`id,work\` allowed), or JSON Lines,
{"id": "…", "work": "…"} a line. Records without a label are left out and counted.

Options:
  --gold LABELS        the labels file (required)
  --db INDEX           score the embedded index's keys instead of FILEs
  --key-profile NAME   FILEs: vufind, extended or both (default both)
  --top N              rows of wrong groups and of split works (default 10)
`;

export interface EvaluateCommand {
  readonly gold: string;
  /** The files to key, or the index to read: exactly one. */
  readonly source: { readonly files: readonly string[] } | { readonly db: string };
  /** The profiles to key files with, in order (none for --db: the index's own). */
  readonly profiles: readonly WorkKeyProfileName[];
  readonly top: number | undefined;
}

/** `works evaluate`'s command from the parsed options and the positionals after `evaluate`; UsageError when wrong. */
export function evaluateCommandOf(text: (name: string) => string | undefined, files: readonly string[]): EvaluateCommand {
  const gold = text('gold');
  if (gold === undefined || gold === '') throw new UsageError('works evaluate needs --gold LABELS (a CSV or JSON Lines file of id and work)');
  const db = text('db');
  const top = wholeNumber(text('top'), '--top');
  const profile = text('key-profile');
  if (db !== undefined) {
    if (db === '') throw new UsageError('--db needs a file path');
    if (files.length > 0) throw new UsageError('works evaluate scores FILE… or --db INDEX, not both');
    if (profile !== undefined) throw new UsageError("--key-profile applies to FILE… only (an index's keys are those it was keyed with)");
    return { gold, source: { db }, profiles: [], top };
  }
  if (files.length === 0) throw new UsageError('works evaluate needs record FILEs to key, or --db INDEX');
  if (profile !== undefined && profile !== 'both' && !(WORK_KEY_PROFILE_NAMES as readonly string[]).includes(profile)) {
    throw new UsageError(`--key-profile needs ${WORK_KEY_PROFILE_NAMES.join(', ')} or both, not ${JSON.stringify(profile)}`);
  }
  const profiles = profile === undefined || profile === 'both' ? WORK_KEY_PROFILE_NAMES : [profile as WorkKeyProfileName];
  return { gold, source: { files }, profiles, top };
}

/** Runs `works evaluate`; resolves to the exit code and never throws. */
export async function runEvaluate(command: EvaluateCommand, io: CliIo): Promise<number> {
  let labels: WorkLabels;
  try {
    labels = parseWorkLabels(await readFile(command.gold, 'utf8'), command.gold);
  } catch (error) {
    io.stderr.write(`catalog-versions: works evaluate: ${failure(error, `cannot read the labels ${command.gold}`)}\n`);
    return EXIT_FAILED;
  }
  const options = command.top !== undefined ? { top: command.top } : {};
  if ('db' in command.source) {
    const { db } = command.source;
    try {
      const stored = await storedKeysOf(db, labels);
      const evaluation = evaluateGrouping(stored.records, labels, options);
      const decisions = stored.decisions === 0 ? 'no grouping decisions' : `${stored.decisions} grouping decision${stored.decisions === 1 ? '' : 's'} applied`;
      io.stdout.write(evaluationText(`${stored.profile} profile, the keys of ${db} (${decisions})`, evaluation, stored.indexRecords - evaluation.scoredRecords) + CORRECTING);
      return EXIT_OK;
    } catch (error) {
      io.stderr.write(`catalog-versions: works evaluate: ${failure(error, `cannot read the embedded index ${db}`)}\n`);
      return EXIT_FAILED;
    }
  }
  const files = await checkedRecordFiles(command.source.files, { fileOptions: false }, io.stderr);
  if (files === undefined) return EXIT_FAILED;
  let rejected = 0;
  const what = files.length === 1 ? files[0]!.path : `${files.length} files`;
  for (const [i, profile] of command.profiles.entries()) {
    let records: ScoredRecord[];
    try {
      // The files are read again for each profile (MARC records are keyed as they are mapped); their problems are told once.
      const keyed = await keyedRecordsOf(files, profile, i === 0 ? io : undefined);
      records = keyed.records;
      if (i === 0) rejected = keyed.rejected;
    } catch (error) {
      io.stderr.write(`catalog-versions: works evaluate: reading ${what} stopped: ${(error as Error).message}\n`);
      return EXIT_FAILED;
    }
    const evaluation = evaluateGrouping(records, labels, options);
    io.stdout.write(`${i > 0 ? '\n' : ''}${evaluationText(`${profile} profile, keys computed from ${what}`, evaluation, evaluation.unlabelledRecords)}`);
  }
  io.stdout.write(CORRECTING);
  return rejected > 0 ? EXIT_REJECTED_LINES : EXIT_OK;
}

/** A failure's message, with its code for the package's named errors; `otherwise` for system errors. */
function failure(error: unknown, otherwise: string): string {
  if (error instanceof VersionsError) return `${error.message} (${error.code})`;
  return `${otherwise}: ${(error as Error).message}`;
}

/**
 * The files' records keyed under the profile, through the pipeline `load` uses, into memory: a record
 * whose id comes again is replaced by the later one, a withdrawn one (Leader/05 d) is dropped, as a load
 * into an empty index does. Rejections and duplicates are told on `report`'s stderr when it is given.
 */
async function keyedRecordsOf(files: readonly RecordFile[], profile: WorkKeyProfileName, report: CliIo | undefined): Promise<{ records: ScoredRecord[]; rejected: number }> {
  const records = new Map<string, ScoredRecord>();
  const memory: IngestWriter = {
    description: 'memory',
    keyProfile: profile,
    storedContentOf: async () => new Map(),
    async put(batch) {
      for (const document of batch) {
        records.set(document.id, { id: document.id, keys: document.work_keys_str_mv, title: titleOfDocument(document) });
      }
      return [];
    },
    async delete(ids) {
      for (const id of ids) records.delete(id);
    },
    close: async () => undefined,
  };
  const summary = await loadRecordFiles({
    files,
    writer: memory,
    onRejected: (rejection) => report?.stderr.write(`${describeRejection(rejection.position, rejection.reason)}\n`),
    onDuplicate: (duplicate) => report?.stderr.write(`${describePosition(duplicate.position)}: id ${JSON.stringify(duplicate.id)} came earlier; this record replaces it (the last one wins)\n`),
  });
  return { records: [...records.values()], rejected: summary.rejected };
}

/**
 * The title a record is shown with (shortTitleOf), from its document's two title fields alone: making the
 * whole record of every document read would cost a fifth of the keying.
 */
function titleOfDocument(document: PreparedRecordDocument): string | undefined {
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return shortTitleOf({ title: text(document.title), shortTitle: text(document.title_short) });
}

/** The stored keys of each labelled record the index holds (read-only), with what the heading says of the index. */
async function storedKeysOf(db: string, labels: WorkLabels): Promise<{ records: ScoredRecord[]; profile: WorkKeyProfileName; decisions: number; indexRecords: number }> {
  // Never a new, empty index from a typo: a read-only open refuses a missing file.
  const index = openSqliteIndex({ path: db, readOnly: true });
  try {
    const records: ScoredRecord[] = [];
    for (const id of labels.keys()) {
      const record = await index.getRecord(id);
      if (record !== undefined) records.push({ id, keys: record.workKeys, title: shortTitleOf(record) });
    }
    return { records, profile: index.keyProfile, decisions: index.curation.decisions().length, indexRecords: await index.count() };
  } finally {
    await index.close();
  }
}

const CORRECTING = '\nCorrect a group with `catalog-versions works split ID --note …` or `works merge ID ID… --note …` (docs/curation.md).\n';

/** Rows of other records shown under one wrong group or split work. */
const RECORDS_SHOWN = 8;
/** Label ids without a record named in the heading's note. */
const IDS_NAMED = 5;

function titled(id: string, title: string | undefined): string {
  return title === undefined ? id : `${id} "${title}"`;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** What `evaluate` prints for one profile. `leftOut`: records without a label (of the files, or of the index). */
export function evaluationText(heading: string, evaluation: GroupingEvaluation, leftOut: number): string {
  const { pairwise, bCubed } = evaluation;
  const lines = [
    `${heading}: ${plural(evaluation.scoredRecords, 'labelled record')} of ${plural(evaluation.works, 'work')} scored`,
    `pairwise: precision ${scoreText(pairwise.precision)} recall ${scoreText(pairwise.recall)} F1 ${scoreText(pairwise.f1)} (${pairwise.linkedPairs} linked pairs, ${pairwise.rightPairs} right, ${pairwise.labelPairs} in the labels)`,
    `b-cubed: precision ${scoreText(bCubed.precision)} recall ${scoreText(bCubed.recall)} F1 ${scoreText(bCubed.f1)}`,
  ];
  const missing = evaluation.labelsWithoutRecord;
  const notes = [
    ...(leftOut > 0 ? [`${plural(leftOut, 'record')} without a label`] : []),
    ...(missing.length > 0 ? [`${plural(missing.length, 'label')} naming no record read (${missing.slice(0, IDS_NAMED).join(', ')}${missing.length > IDS_NAMED ? ', …' : ''})`] : []),
  ];
  if (notes.length > 0) lines.push(`left out: ${notes.join('; ')}`);

  lines.push('', 'Largest wrong groups (a record whose versions list holds records of other works, and the keys that joined them):');
  if (evaluation.wrongGroups.length === 0) lines.push('  none');
  for (const group of evaluation.wrongGroups) {
    lines.push(`  ${titled(group.record.id, group.record.title)} [${group.record.work}] lists ${group.listed}, ${plural(group.others.length, 'record')} of other works:`);
    for (const other of group.others.slice(0, RECORDS_SHOWN)) lines.push(`      ${titled(other.id, other.title)} [${other.work}] by ${other.joinedBy.join('; ')}`);
    if (group.others.length > RECORDS_SHOWN) lines.push(`      … and ${group.others.length - RECORDS_SHOWN} more`);
  }

  lines.push('', 'Largest missed pairs (works whose records do not all list each other: each record, how many of its work it leaves out, its keys):');
  if (evaluation.splitWorks.length === 0) lines.push('  none');
  for (const work of evaluation.splitWorks) {
    lines.push(`  [${work.work}] ${plural(work.records.length, 'record')}, ${plural(work.missedPairs, 'pair')} sharing no key:`);
    for (const record of work.records.slice(0, RECORDS_SHOWN)) {
      const keys = record.keys.length === 0 ? 'no keys' : record.keys.join('; ');
      lines.push(`      ${titled(record.id, record.title)} leaves out ${record.notListed}: ${keys}`);
    }
    if (work.records.length > RECORDS_SHOWN) lines.push(`      … and ${work.records.length - RECORDS_SHOWN} more`);
  }
  return `${lines.join('\n')}\n`;
}
