/**
 * Benchmark child process: the latency of findVersions on the embedded index, opened read-only as a server
 * opens it, for records of typical works and of very large works, in both orders the plugin asks for (the
 * feed: last_indexed, 50 rows; the page: relevance, 20 rows). It also checks every total against the
 * planned work size, so a generator or index fault shows up as mismatches rather than as fast numbers.
 *
 * The sample comes from the parent as one IPC message; the answer goes back the same way.
 */
import { openEmbeddedIndex } from '../../src/entries/sqlite.js';
import type { CatalogIndex, VersionsOrder } from '../../src/ports.js';
import type { SampleRecord } from './catalogGenerator.js';
import { percentile, reportToParent, sortedCopy } from './processStats.js';

export interface LookupRequest {
  readonly type: 'lookup';
  readonly path: string;
  readonly typical: readonly SampleRecord[];
  readonly large: readonly SampleRecord[];
  /** Passes over the samples; the first is a warm-up and is not measured. */
  readonly passes: number;
}

export interface LatencySummary {
  readonly count: number;
  readonly p50Us: number;
  readonly p99Us: number;
  readonly maxUs: number;
}

export interface LookupReport {
  readonly type: 'lookups';
  readonly typicalFeed: LatencySummary;
  readonly typicalPage: LatencySummary;
  readonly largeFeed: LatencySummary;
  readonly largePage: LatencySummary;
  /** countVersions for result pages of 20 typical ids. */
  readonly countPage: LatencySummary;
  /** Samples whose total differs from the planned work size. */
  readonly mismatches: number;
  readonly mismatchExamples: readonly string[];
}

function summarise(micros: number[]): LatencySummary {
  const sorted = sortedCopy(micros);
  return { count: sorted.length, p50Us: percentile(sorted, 0.5), p99Us: percentile(sorted, 0.99), maxUs: sorted[sorted.length - 1] ?? Number.NaN };
}

async function measure(index: CatalogIndex, samples: readonly SampleRecord[], order: VersionsOrder, passes: number, mismatches: string[]): Promise<LatencySummary> {
  const micros: number[] = [];
  const limit = order === 'last-indexed' ? 50 : 20;
  for (let pass = 0; pass < passes; pass++) {
    for (const sample of samples) {
      const record = await index.getRecord(sample.id);
      if (record === undefined) throw new Error(`sample record ${sample.id} is not in the index`);
      if (record.workKeys.length === 0) continue;
      const started = process.hrtime.bigint();
      const page = await index.findVersions({ workKeys: record.workKeys, order, offset: 0, limit });
      const elapsed = Number(process.hrtime.bigint() - started) / 1000;
      if (pass === 0) {
        if (page.total !== sample.workSize) mismatches.push(`${sample.id}: ${page.total} versions, planned ${sample.workSize}`);
        continue;
      }
      micros.push(elapsed);
    }
  }
  return summarise(micros);
}

async function measureCounts(index: CatalogIndex, samples: readonly SampleRecord[], passes: number): Promise<LatencySummary> {
  const micros: number[] = [];
  const ids = samples.map((sample) => sample.id);
  for (let pass = 0; pass < passes; pass++) {
    for (let start = 0; start + 20 <= ids.length; start += 20) {
      const started = process.hrtime.bigint();
      await index.countVersions(ids.slice(start, start + 20));
      const elapsed = Number(process.hrtime.bigint() - started) / 1000;
      if (pass > 0) micros.push(elapsed);
    }
  }
  return summarise(micros);
}

async function run(request: LookupRequest): Promise<LookupReport> {
  const index = openEmbeddedIndex({ path: request.path, readOnly: true });
  try {
    const mismatches: string[] = [];
    const passes = Math.max(2, request.passes);
    const report: LookupReport = {
      type: 'lookups',
      typicalFeed: await measure(index, request.typical, 'last-indexed', passes, mismatches),
      typicalPage: await measure(index, request.typical, 'relevance', passes, []),
      largeFeed: await measure(index, request.large, 'last-indexed', passes, mismatches),
      largePage: await measure(index, request.large, 'relevance', passes, []),
      countPage: await measureCounts(index, request.typical, passes),
      mismatches: mismatches.length,
      mismatchExamples: mismatches.slice(0, 5),
    };
    return report;
  } finally {
    await index.close();
  }
}

process.once('message', (message: LookupRequest) => {
  run(message)
    .then(reportToParent)
    .then(() => process.exit(0))
    .catch((error: unknown) => {
      process.stderr.write(`lookupLatency: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
      process.exit(1);
    });
});
