/**
 * Benchmark child process: builds the embedded index file from the generated catalog through the real
 * load path (openEmbeddedIndex + load, which checks documents and computes work keys), then reports the
 * time it took and the process's peak resident memory. It runs in a process of its own so that the peak
 * belongs to loading alone, not to the benchmark driver or an earlier phase.
 *
 * Usage (from runBench): node buildIndex.js <index path> <records> <seed>
 */
import { rmSync } from 'node:fs';
import { openEmbeddedIndex } from '../../src/entries/sqlite.js';
import { generateRecords, planCatalog } from './catalogGenerator.js';
import { watchMachineShare, type MachineShare } from './machineShare.js';
import { memoryOf, reportToParent } from './processStats.js';

export interface BuildReport {
  readonly type: 'built';
  readonly records: number;
  readonly loaded: number;
  readonly rejected: number;
  readonly seconds: number;
  readonly peakRssBytes: number;
  /** This process's CPU seconds and the other processes' cores during the load (machineShare.ts). */
  readonly share: MachineShare;
}

async function main(): Promise<void> {
  const [path, recordsText, seedText] = process.argv.slice(2);
  if (path === undefined || recordsText === undefined || seedText === undefined) {
    throw new Error('usage: buildIndex <index path> <records> <seed>');
  }
  const records = Number(recordsText);
  const seed = Number(seedText);
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });

  const started = process.hrtime.bigint();
  const shareSoFar = watchMachineShare();
  // Planning is part of generating the documents, so it is inside the measured time.
  const plan = planCatalog(records, seed);
  const index = openEmbeddedIndex({ path, create: true });
  let lastReport = Date.now();
  const summary = await index.load(generateRecords(plan), {
    // A fixed clock: documents carry last_indexed anyway, and a run must not depend on the date.
    now: () => new Date('2025-07-01T00:00:00Z'),
    onProgress: (read) => {
      if (Date.now() - lastReport < 5000) return;
      lastReport = Date.now();
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      process.stderr.write(`  loading: ${read.toLocaleString('en')} records, ${Math.round(read / seconds).toLocaleString('en')}/s\n`);
    },
  });
  // close() checkpoints the write-ahead log into the file: the index is only usable read-only after it.
  await index.close();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const report: BuildReport = {
    type: 'built',
    records,
    loaded: summary.loaded,
    rejected: summary.rejected,
    seconds,
    peakRssBytes: memoryOf().peakRss,
    share: shareSoFar(),
  };
  await reportToParent(report);
}

main().catch((error: unknown) => {
  process.stderr.write(`buildIndex: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
