/**
 * Benchmark child process: the load ceiling. A bare better-sqlite3 bulk insert of the rows the real load
 * writes (the same generated documents, prepared and keyed as the pipeline prepares them) into the same
 * records and work_keys tables of an empty file, with prepared statements and one transaction per batch,
 * and nothing else: no pipeline, no staging, no checks. It is what this storage design can take on this
 * machine at all, so the real load is judged as a ratio of it, measured in the same run.
 *
 * The best case of that design: the rows are prepared in memory first and inserted in each B-tree's own
 * order (records by id, key rows by key and record), so every insert appends. (Inserting in arrival order puts each row at a random place of trees larger than
 * SQLite's page cache: at a million records that was slower than the real, staged and sorted, load, so no
 * ceiling at all.) Only the writing is timed (the transactions and the close that
 * checkpoints the log into the file): generating, preparing and sorting the rows is the loader's work, not
 * the storage's. The tables come from openEmbeddedIndex itself, so their shape (primary keys, WITHOUT
 * ROWID, journal mode) cannot drift from the index's.
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
  type KeyRow = readonly [key: string, id: string, lastIndexed: string];
  const writeRecords = db.transaction((batch: readonly Row[]) => {
    for (const [id, lastIndexed, document] of batch) insertRecord.run(id, lastIndexed, '', document);
  });
  const writeKeys = db.transaction((batch: readonly KeyRow[]) => {
    for (const [key, id, lastIndexed] of batch) insertKey.run(key, id, lastIndexed);
  });

  const now = new Date('2025-07-01T00:00:00Z');
  const rows: Row[] = [];
  const keyRows: KeyRow[] = [];
  for (const generated of generateRecords(planCatalog(records, Number(seedText)))) {
    const { document } = prepareRecordDocument(generated, now);
    const workKeys = document.work_keys_str_mv ?? [];
    rows.push([document.id, document.last_indexed as string, JSON.stringify(document), workKeys]);
    for (const key of workKeys) keyRows.push([key, document.id, document.last_indexed as string]);
  }
  const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  rows.sort((a, b) => byText(a[0], b[0]));
  keyRows.sort((a, b) => byText(a[0], b[0]) || byText(a[1], b[1]));
  const keys = keyRows.length;

  const started = process.hrtime.bigint();
  db.exec('DROP INDEX IF EXISTS work_keys_by_record');
  for (let i = 0; i < rows.length; i += BATCH) writeRecords(rows.slice(i, i + BATCH));
  for (let i = 0; i < keyRows.length; i += BATCH) writeKeys(keyRows.slice(i, i + BATCH));
  db.close();
  const timedNs = process.hrtime.bigint() - started;

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
