/**
 * What the staging worker of a MARC load spends a record on staging and on the final move, code against
 * code: maps the first records of an ISO 2709 file once (with this tree's mapping, `extended` keys unless
 * told), makes their staged rows in batches (tableWriters.ts, stagedRowsOf, as the main thread posts them),
 * then, for each built tree given (a `dist/` of this project), stages the same rows into a fresh in-memory
 * database with that tree's stagedLoad and moves them, rounds alternating the trees, and prints CPU
 * microseconds a record of this thread for each step (SQLite's sorter threads, which the move may start, are
 * not counted: the move's figure is this thread's only).
 *
 *   node dist/tools/bench/marcStagingCost.js --file F [--records N] [--rounds R] [--key-profile vufind|extended]
 *        --tree label=/path/to/dist ...
 *
 * Not part of the package, nor of `npm run bench`: for iterating on the load's writer side (docs/benchmarks.md).
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type Database from 'better-sqlite3';
import { bytesMappingOf, outcomeOf } from '../../src/ingest/mappingWorkers.js';
import { stagedRowsOf } from '../../src/adapters/sqlite/tableWriters.js';
import { SCHEMA } from '../../src/adapters/sqlite/indexTables.js';
import type { StagedRows } from '../../src/adapters/sqlite/bulkLoad.js';
import type { PreparedRecordDocument } from '../../src/ports.js';
import { checkKeyProfile } from '../../src/work-keys/workKeyProfiles.js';
import { costOptionsOf } from './marcCostOptions.js';

const BetterSqlite3 = createRequire(import.meta.url)('better-sqlite3') as typeof Database;

/** The staged rows of the first `count` records of an ISO 2709 file, in batches of 1,000 as a load posts them. */
function stagedBatchesOf(path: string, count: number, keyProfile: ReturnType<typeof checkKeyProfile>): StagedRows[] {
  const all = readFileSync(path);
  const mapping = bytesMappingOf('iso2709');
  const now = new Date('2024-06-11T00:00:00Z');
  const batches: StagedRows[] = [];
  let batch: PreparedRecordDocument[] = [];
  let at = 0;
  for (let record = 1; record <= count && at + 5 <= all.length; record++) {
    const length = Number(all.toString('latin1', at, at + 5));
    const outcome = outcomeOf(mapping, new Uint8Array(all.subarray(at, at + length)), { source: 'bench', recordNumber: record }, undefined, keyProfile, now);
    at += length;
    if ('prepared' in outcome) batch.push(outcome.prepared.document);
    if (batch.length === 1000) {
      batches.push(stagedRowsOf(batch));
      batch = [];
    }
  }
  if (batch.length > 0) batches.push(stagedRowsOf(batch));
  return batches;
}

function cpuMicros(): number {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
}

async function main(): Promise<void> {
  const options = costOptionsOf(process.argv.slice(2), 50_000);
  const batches = stagedBatchesOf(options.file, options.records, checkKeyProfile(options.keyProfile, '--key-profile'));
  const records = options.records;
  const loads = await Promise.all(options.trees.map(async (tree) => {
    const { stagedLoad } = await import(pathToFileURL(join(tree.dist, 'src/adapters/sqlite/tableWriters.js')).href);
    return stagedLoad as (db: Database.Database) => { writeRows: (rows: StagedRows) => void; finish: () => void };
  }));
  for (let round = 0; round < options.rounds; round++) {
    for (const [i, tree] of options.trees.entries()) {
      const db = new BetterSqlite3(':memory:');
      db.exec(SCHEMA);
      const load = loads[i]!(db);
      let started = cpuMicros();
      for (const rows of batches) load.writeRows(rows);
      const staging = (cpuMicros() - started) / records;
      started = cpuMicros();
      load.finish();
      const move = (cpuMicros() - started) / records;
      db.close();
      process.stdout.write(`round ${round + 1} ${tree.label}: staging ${staging.toFixed(2)} µs a record, move ${move.toFixed(2)} µs (this thread)\n`);
    }
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`marcStagingCost: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
