/**
 * What `load`, `harvest` and `delete` do alike around their run through the pipeline: open the target
 * (and remove an embedded index file the command made when it fails before writing anything), tell the
 * progress bar when the writer's final step begins, say each rejected record and each duplicate id on
 * stderr, and end with the summary on stdout and the exit code (runReported). `convert` says rejections
 * and duplicates the same way.
 *
 * Left to others: the run itself (loadRecords.ts, src/ingest/pipeline.ts), the bar (progressBar.ts).
 */
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { describePosition, describeRejection } from '../record/sourceRecord.js';
import { NO_INGEST_COUNTS, type IngestCounts, type IngestDuplicate, type IngestRejection, type IngestSummary, type IngestWriter } from '../ingest/pipeline.js';
import { EXIT_FAILED, EXIT_OK, EXIT_REJECTED_LINES, type CliIo } from './commandLine.js';
import { LoadStoppedError, openLoadTarget, type LoadTarget, type TargetSpec } from './loadRecords.js';
import type { ProgressBar } from './progressBar.js';

/** A run's callbacks that say each rejected record and each duplicate id on stderr, the bar cleared first. */
export function recordReports(io: CliIo, bar?: ProgressBar): { onRejected(rejection: IngestRejection): void; onDuplicate(duplicate: IngestDuplicate): void } {
  return {
    onRejected: (rejection) => {
      bar?.clear();
      io.stderr.write(`${describeRejection(rejection.position, rejection.reason)}\n`);
    },
    onDuplicate: (duplicate) => {
      bar?.clear();
      io.stderr.write(`${describePosition(duplicate.position)}: id ${JSON.stringify(duplicate.id)} came earlier in this run; this record replaces it (the last one wins)\n`);
    },
  };
}

/**
 * Opens the target, or says why not (undefined). An embedded index file the command creates is removed
 * again when the command fails before writing anything (runReported), so a harvest of an unreachable
 * repository leaves no empty index behind.
 */
export function openTarget(spec: TargetSpec, io: CliIo): LoadTarget | undefined {
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

/**
 * The writer, telling the bar when its close() begins: closing is the load's final step (a bulk load into
 * an empty embedded index moves its staged records into the tables then, Solr commits), which can take a
 * while with nothing else to show. A Proxy, so every other member of the writer is its own.
 */
export function announcingClose(writer: IngestWriter, bar: ProgressBar | undefined): IngestWriter {
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

/** Runs a load, harvest or deletion and reports its summary; closes the target. */
export async function runReported(
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
