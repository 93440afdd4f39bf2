/**
 * Benchmark child process: the load ceiling. A bare better-sqlite3 bulk insert of the rows the real load
 * writes (the same generated documents, prepared and keyed as the pipeline prepares them) into the same
 * records and work_keys tables of an empty file, with prepared statements and one transaction per batch,
 * and nothing else: no pipeline, no staging, no checks. It is what this storage design can take on this
 * machine at all, so the real load is judged as a ratio of it, measured in the same run.
 *
 * Only the writing is timed (each batch's transaction, and the close that checkpoints the log into the
 * file): generating and preparing the rows is the loader's work, not the storage's, so it happens between
 * the timed parts. The tables come from openEmbeddedIndex itself, so their shape (primary keys, secondary
 * index, WITHOUT ROWID, journal mode) cannot drift from the index's.
 *
 * Usage (from runBench): node insertCeiling.js <file path> <records> <seed>
 */
import { rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
import { openEmbeddedIndex } from '../../src/adapters/sqlite/embeddedIndex.js';
import { prepareRecordDocument } from '../../src/ingest/prepareRecordDocument.js';
import { generateRecords, planCatalog } from './catalogGenerator.js';
import { memoryOf, reportToParent } from './processStats.js';

export interface InsertCeilingReport {
  readonly type: 'insert-ceiling';
  readonly records: number;
  readonly keys: number;
  /** Seconds spent inside the insert transactions and the final close. */
  readonly seconds: number;
  readonly fileBytes: number;
  readonly peakRssBytes: number;
}

/** The batch size EmbeddedIndex.load() uses, so both sides commit equally often. */
const BATCH = 5000;

const require = createRequire(import.meta.url);

async function main(): Promise<void> {
  const [path, recordsText, seedText] = process.argv.slice(2);
  if (path === undefined || recordsText === undefined || seedText === undefined) {
    throw new Error('usage: insertCeiling <file path> <records> <seed>');
  }
  const records = Number(recordsText);
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
  // The schema and the journal mode (WAL persists in the file) as the embedded index makes them.
  await openEmbeddedIndex({ path }).close();

  const BetterSqlite3 = require('better-sqlite3') as typeof Database;
  const db = new BetterSqlite3(path);
  // What the index's writable connections set: the journal mode is in the file already, this is not.
  db.pragma('synchronous = NORMAL');
  const insertRecord = db.prepare('INSERT INTO records (id, last_indexed, content_hash, document) VALUES (?, ?, ?, ?)');
  const insertKey = db.prepare('INSERT OR IGNORE INTO work_keys (key, record_id, last_indexed) VALUES (?, ?, ?)');
  type Row = readonly [id: string, lastIndexed: string, document: string, keys: readonly string[]];
  const writeBatch = db.transaction((rows: readonly Row[]) => {
    for (const [id, lastIndexed, document, keys] of rows) {
      insertRecord.run(id, lastIndexed, '', document);
      for (const key of keys) insertKey.run(key, id, lastIndexed);
    }
  });

  const now = new Date('2025-07-01T00:00:00Z');
  let timedNs = 0n;
  let keys = 0;
  let rows: Row[] = [];
  const flush = () => {
    const started = process.hrtime.bigint();
    writeBatch(rows);
    timedNs += process.hrtime.bigint() - started;
    rows = [];
  };
  for (const generated of generateRecords(planCatalog(records, Number(seedText)))) {
    const { document } = prepareRecordDocument(generated, now);
    const workKeys = document.work_keys_str_mv ?? [];
    keys += workKeys.length;
    rows.push([document.id, document.last_indexed as string, JSON.stringify(document), workKeys]);
    if (rows.length >= BATCH) flush();
  }
  if (rows.length > 0) flush();
  const closing = process.hrtime.bigint();
  db.close();
  timedNs += process.hrtime.bigint() - closing;

  const report: InsertCeilingReport = {
    type: 'insert-ceiling',
    records,
    keys,
    seconds: Number(timedNs) / 1e9,
    fileBytes: statSync(path).size,
    peakRssBytes: memoryOf().peakRss,
  };
  await reportToParent(report);
}

main().catch((error: unknown) => {
  process.stderr.write(`insertCeiling: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
