/**
 * `catalog-versions sync --solr URL --work-index FILE [--key-profile vufind|extended] [--rows N]
 * [--no-progress]`: keeps the work index beside a Solr core in step with it (docs/solr.md, "The work index
 * beside the core"), through syncWorkIndex; with `--work-collection URL` in place of `--work-index`, keeps
 * a work collection the same way (docs/solr.md, "The work collection"), through syncWorkCollection, with
 * the grouping decisions of `--grouping FILE` applied to its keys. The first run walks the whole core (a
 * stopped walk resumes on the next run), later runs take changes and deletions. On a terminal stderr shows the loader's progress
 * bar (progressBar.ts: share done, documents, rate, ETA); the summary is one line on stdout. Exit status:
 * 0 done, 1 failed (named on stderr), 64 wrong command line (with the usage).
 *
 * Left to others: the sync itself (src/adapters/solr/workIndex/workIndexSync.ts,
 * src/adapters/solr/workCollection/workCollectionSync.ts).
 */
import { readFileSync } from 'node:fs';
import { VersionsError } from '../errors.js';
import { decisionsFromCurationFile } from '../work-keys/curation/curationFile.js';
import { syncWorkIndex, type WorkIndexSyncProgress, type WorkIndexSyncSummary } from '../adapters/solr/workIndex/workIndexSync.js';
import { syncWorkCollection } from '../adapters/solr/workCollection/workCollectionSync.js';
import type { WorkKeyProfileName } from '../work-keys/workKeyProfiles.js';
import { keyProfileOption, parseArguments, UsageError, wholeNumber, type CliIo, type OwnLineCommand } from './commandLine.js';
import { ProgressBar } from './progressBar.js';

export const SYNC_USAGE = `Usage: catalog-versions sync --solr URL --work-index FILE [--key-profile vufind|extended]
                             [--rows N] [--no-progress]
       catalog-versions sync --solr URL --work-collection COLLECTION_URL [--grouping FILE]
                             [--key-profile …] [--rows N] [--no-progress]

Keeps FILE, the work index beside the Solr core at URL, in step with the core, so
that createSolrIndex({ url, workIndex: { path: FILE } }) lists versions on a core
without work keys. Only reads the core. The first run walks every document (rerun
after a stop, it resumes); later runs take the documents changed since the last
run and remove the ones deleted. With --work-collection it keeps a work collection
(catalog-versions work-collection create) instead, the same way, once for all app
servers: the collection records the core and the profile (docs/solr.md). With
--grouping the library's merges and splits apply to the collection's keys.

Options:
  --solr URL           the core or collection, e.g. http://localhost:8983/solr/biblio
  --work-index FILE    the work index file (made when missing)
  --work-collection URL  the work collection, e.g. http://localhost:8983/solr/catalog-versions-works
  --grouping FILE      grouping decisions as \`works export\` writes them (docs/curation.md),
                       for --work-collection; give them on every run once given (a file
                       of no decisions removes them); records they name or named are re-keyed
  --key-profile NAME   vufind (default) or extended for a new file or collection, which keeps it
  --rows N             documents per request and per transaction (default 5000)
  --no-progress        no progress line even on a terminal
`;

/** `sync`: its row in the table of commands (catalogVersions.ts). */
export const syncCommand: OwnLineCommand = {
  name: 'sync',
  synopsis: 'sync --solr URL (--work-index FILE | --work-collection URL) [--key-profile …]   (sync --help)',
  run: (argv, io) => runSyncCommand(argv, io),
};

export async function runSyncCommand(argv: readonly string[], io: CliIo): Promise<number> {
  let options: { url: string; /** The work index file, or the work collection's URL. */ target: string; collection: boolean; keyProfile: WorkKeyProfileName | undefined; rows?: number; grouping?: string; progress: boolean };
  try {
    const { values, positionals } = parseArguments(argv, {
      solr: { type: 'string' }, 'work-index': { type: 'string' }, 'work-collection': { type: 'string' }, grouping: { type: 'string' }, 'key-profile': { type: 'string' }, rows: { type: 'string' },
      'no-progress': { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
    });
    if (values.help === true) {
      io.stdout.write(SYNC_USAGE);
      return 0;
    }
    if (positionals.length > 0) throw new UsageError(`sync takes no file names (got ${JSON.stringify(positionals[0])})`);
    if (typeof values.solr !== 'string') throw new UsageError('sync needs --solr URL');
    const collection = values['work-collection'];
    if (collection !== undefined && values['work-index'] !== undefined) throw new UsageError('give --work-index FILE or --work-collection URL, not both');
    if (collection === undefined && (typeof values['work-index'] !== 'string' || values['work-index'] === '')) throw new UsageError('sync needs --work-index FILE (or --work-collection URL)');
    const grouping = values.grouping as string | undefined;
    // The file's reads key documents afresh from the core and keep no decisions to re-key by.
    if (grouping !== undefined && collection === undefined) throw new UsageError('--grouping applies to --work-collection, not to --work-index (a work index file keeps no grouping decisions)');
    if (grouping === '') throw new UsageError('--grouping needs the decisions FILE `works export` wrote');
    checkCoreUrl(values.solr);
    const profile = keyProfileOption(values['key-profile'] as string | undefined);
    const rows = wholeNumber(values.rows as string | undefined, '--rows');
    options = { url: values.solr, target: String(collection ?? values['work-index']), collection: collection !== undefined, keyProfile: profile, ...(rows !== undefined ? { rows } : {}), ...(grouping !== undefined ? { grouping } : {}), progress: values['no-progress'] !== true };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`catalog-versions: ${error.message}\n\n${SYNC_USAGE}`);
    return 64;
  }
  const line = options.progress && io.stderr.isTTY === true ? progressBars(io.stderr) : undefined;
  try {
    const common = { ...(options.keyProfile !== undefined ? { keyProfile: options.keyProfile } : {}), ...(options.rows !== undefined ? { rows: options.rows } : {}), ...(line ? { onProgress: line.update } : {}) };
    // A core or collection keeps no grouping decisions: a sync is given them from a file (docs/curation.md).
    const grouping = options.grouping;
    const decisions = grouping === undefined ? undefined : decisionsFromCurationFile(readFileSync(grouping, 'utf8'), grouping);
    const summary = options.collection
      ? await syncWorkCollection({ url: options.url, workCollection: { url: options.target }, ...common, ...(decisions !== undefined ? { decisions } : {}) })
      : await syncWorkIndex({ url: options.url, path: options.target, ...common });
    line?.end();
    io.stdout.write(`${summaryLine(summary, options.target)}\n`);
    return 0;
  } catch (error) {
    line?.end();
    const code = error instanceof VersionsError ? ` [${error.code}]` : '';
    io.stderr.write(`catalog-versions: sync ${options.target}: ${(error as Error).message}${code}\n`);
    return 1;
  }
}

/** The checks syncWorkIndex makes of its url, made here so that a wrong one is a usage error, as load's --solr is. */
function checkCoreUrl(text: string): void {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--solr needs the URL of a core, e.g. http://localhost:8983/solr/biblio, not ${JSON.stringify(text)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--solr needs an http(s) URL, not ${url.protocol}`);
  if (url.pathname.replace(/\/+$/, '') === '') throw new UsageError(`--solr needs the URL of a core (with its path, e.g. /solr/biblio), not ${JSON.stringify(text)}`);
}

/** `walk: 1000 documents in 0.4 s (2500/s); file holds 1000 of 1000 in the core; …` */
export function summaryLine(summary: WorkIndexSyncSummary & { readonly regrouped?: number }, path: string): string {
  const seconds = summary.elapsedMs / 1000;
  const rate = seconds > 0 ? Math.round(summary.fetched / seconds) : summary.fetched;
  const parts = [
    `${summary.mode === 'walk' ? 'walk' : 'changes'}: ${summary.fetched} document${summary.fetched === 1 ? '' : 's'} in ${seconds.toFixed(1)} s (${rate}/s)`,
    `${summary.removed} removed${summary.swept ? ' (id sweep)' : ''}`,
    `${path} holds ${summary.held} of the core's ${summary.inCore}`,
  ];
  const unkeyable = Object.entries(summary.unkeyable);
  if (unkeyable.length > 0) parts.push(`without keys, could not be keyed: ${unkeyable.map(([reason, count]) => `${count} ${reason}`).join(', ')}`);
  if (summary.regrouped !== undefined && summary.regrouped > 0) parts.push(`${summary.regrouped} re-keyed because the grouping decisions changed`);
  if (summary.refused > 0) parts.push(`${summary.refused} not stored (no id, or nothing to order them by)`);
  return parts.join('; ');
}

/** The loader's progress bar (progressBar.ts), a new one for each phase of the run (walk, changes, sweep). */
function progressBars(stderr: CliIo['stderr']): { update(progress: WorkIndexSyncProgress): void; end(): void } {
  let bar: ProgressBar | undefined;
  let phase: WorkIndexSyncProgress['phase'] | undefined;
  let first = 0;
  return {
    update(progress) {
      if (bar === undefined || phase !== progress.phase) {
        bar?.clear();
        phase = progress.phase;
        first = progress.done;
        bar = new ProgressBar(stderr, progress.total, 'document', first, phase);
      }
      bar.advanceTo(progress.done);
      bar.update(progress.done, progress.done - first);
    },
    end() {
      bar?.clear();
    },
  };
}
