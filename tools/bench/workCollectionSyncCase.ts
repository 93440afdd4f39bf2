/**
 * Benchmark phase, only when a SolrCloud is named (SOLR_CLOUD_TEST_URL, as tools/solr/start.sh sets it):
 * `sync --work-collection` into a work collection of 2 shards × 2 replicas against plain /update posts of
 * the same documents, side by side in one run (experiments/workCollectionSync.ts, run as a child process
 * and read from its last line of JSON), and the collection's index bytes per document. Issue 35's targets:
 * at least 5,000 documents a second, at most 250 bytes a document.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt } from './loadDriver.js';

/** What experiments/workCollectionSync.ts prints as its last line with --json. */
export interface WorkCollectionSyncReport {
  readonly records: number;
  readonly batch: number;
  readonly rates: Readonly<Record<string, number>>;
  readonly ceiling: number;
  readonly bytesPerDocument: number;
  readonly coreUntouched: boolean;
}

/** Documents in the catalogue the case fills (fewer than the run's records: each fill and walk takes minutes); a later run keeps it. */
const MOST_RECORDS = 200_000;

/** The case's report, or undefined without a SolrCloud (or when it failed, said on stderr). */
export async function measureWorkCollectionSync(records: number): Promise<WorkCollectionSyncReport | undefined> {
  if ((process.env.SOLR_CLOUD_TEST_URL ?? '').trim() === '') return undefined;
  const script = join(fileURLToPath(new URL('.', import.meta.url)), 'experiments', 'workCollectionSync.js');
  return new Promise((resolve) => {
    execFile(process.execPath, [script, String(Math.min(records, MOST_RECORDS)), '--keep-core', '--json'], { maxBuffer: 16 * 1024 * 1024, timeout: 3_600_000 }, (error, stdout, stderr) => {
      const last = stdout.trim().split('\n').at(-1) ?? '';
      if (error !== null || !last.startsWith('{')) {
        process.stderr.write(`work collection sync case failed: ${error?.message ?? ''}\n${stderr.slice(-2000)}`);
        resolve(undefined);
        return;
      }
      resolve(JSON.parse(last) as WorkCollectionSyncReport);
    });
  });
}

export function workCollectionSyncTargets(report: WorkCollectionSyncReport | undefined): Array<{ name: string; measured: string; goal: string; pass: boolean }> {
  if (report === undefined) return [];
  const rate = report.rates.after ?? Number.NaN;
  return [
    { name: `sync into a work collection (2 × 2), ${fmt(report.records)} documents`, measured: `${fmt(rate)}/s (plain /update of the same: ${fmt(report.ceiling)}/s, ${fmt(rate / report.ceiling * 100, 0)}%)`, goal: '>= 5,000/s', pass: rate >= 5000 },
    { name: 'work collection index size', measured: `${fmt(report.bytesPerDocument, 1)} B/document`, goal: '<= 250 B/document', pass: report.bytesPerDocument <= 250 },
    { name: 'work collection sync: the catalogue untouched', measured: report.coreUntouched ? 'untouched' : 'CHANGED', goal: 'untouched', pass: report.coreUntouched },
  ];
}
