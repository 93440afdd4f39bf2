/**
 * Benchmark child process: the load ceiling. A bare better-sqlite3 bulk insert of the rows the real load
 * writes (the same generated documents, prepared and keyed as the pipeline prepares them) into the same
 * tables of an empty file (records, work_keys, records_by_key), with prepared statements and one transaction per batch,
 * and nothing else: no pipeline, no staging, no checks. It is what this storage design can take on this
 * machine at all, so the real load is judged as a ratio of it, measured in the same run.
 *
 * The best case of that design: the rows are prepared in memory first and inserted in each B-tree's own
 * order (records by row, numbered as a bulk load numbers them, keys by id, key rows by key and record), so
 * every insert appends, and the index of records by id is built once after the records (as the load
 * builds it). (Inserting in arrival order puts each row at a random place of trees larger than
 * SQLite's page cache: at a million records that was slower than the real, staged and sorted, load, so no
 * ceiling at all.) Only the writing is timed (the transactions and the close that
 * checkpoints the log into the file): generating, preparing and sorting the rows is the loader's work, not
 * the storage's. The tables come from openEmbeddedIndex itself, so their shape (primary keys, WITHOUT
 * ROWID, journal mode) cannot drift from the index's. (A first load's move writes outside the log, in
 * one transaction; the ceiling's 5,000-row transactions are faster in the log, where a commit does not
 * sync, than in the rollback journal, where each does.)
 *
 * Usage (from runBench): node insertCeiling.js <file path> <records> <seed>
 */
import { rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
import { openEmbeddedIndex } from '../../src/entries/sqlite.js';
import { prepareRecordDocument } from '../../src/ingest/prepareRecordDocument.js';
import { clusterOf, documentColumnOf, KEYS_PER_HASH, storedInstantOf, workKeyHash } from '../../src/adapters/sqlite/indexTables.js';
import { generateRecords, planCatalog } from './catalogGenerator.js';
import { watchMachineShare, type MachineShare } from './machineShare.js';
import { memoryOf, reportToParent } from './processStats.js';

export interface InsertCeilingReport {
  readonly type: 'insert-ceiling';
  readonly records: number;
  readonly keys: number;
  /** Seconds spent inside the insert transactions and the final close. */
  readonly seconds: number;
  readonly fileBytes: number;
  readonly peakRssBytes: number;
  /** This process's CPU seconds and the other processes' cores during the timed part (machineShare.ts). */
  readonly share: MachineShare;
}

/**
 * Rows per transaction: the size this storage takes fastest, as a ceiling must (1,000,000 records in
 * 18.9/20.8 s with 5,000 against 23.9/30.5 s with 1,000, alternated). The real load commits its file once.
 */
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
  await openEmbeddedIndex({ path, create: true }).close();

  const BetterSqlite3 = require('better-sqlite3') as typeof Database;
  const db = new BetterSqlite3(path);
  // What the index's writable connections set: the journal mode is in the file already, this is not.
  db.pragma('synchronous = NORMAL');
  db.exec('DROP INDEX records_by_id');
  const insertRecord = db.prepare('INSERT INTO records (row, id, last_indexed, key_ids, document) VALUES (?, ?, ?, ?, ?)');
  const insertKey = db.prepare('INSERT INTO work_keys (key_id, key, records) VALUES (?, ?, ?)');
  const insertKeyRow = db.prepare('INSERT OR IGNORE INTO records_by_key (key_id, record_id, last_indexed, record_row) VALUES (?, ?, ?, ?)');
  type Row = readonly [id: string, lastIndexed: number, document: string, keys: readonly string[]];
  type KeyRow = readonly [keyId: number, id: string, lastIndexed: number, row: number];
  const inBatches = <T>(write: (batch: readonly T[]) => void, all: readonly T[]) => {
    for (let i = 0; i < all.length; i += BATCH) write(all.slice(i, i + BATCH));
  };

  const now = new Date('2025-07-01T00:00:00Z');
  const rows: Row[] = [];
  for (const generated of generateRecords(planCatalog(records, Number(seedText)))) {
    const { document } = prepareRecordDocument(generated, now);
    rows.push([document.id, storedInstantOf(document), documentColumnOf(document), document.work_keys_str_mv ?? []]);
  }
  // Key ids as the index gives them (indexTables.ts): hash * 256, plus a number within a hash in key order.
  const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const keyTexts = [...new Set(rows.flatMap((row) => row[3]))]
    .map((key) => [workKeyHash(key), key] as const)
    .sort((a, b) => a[0] - b[0] || byText(a[1], b[1]));
  const keyIds = new Map<string, number>();
  let previousHash = -1;
  let number = 0;
  for (const [hash, key] of keyTexts) {
    number = hash === previousHash ? number + 1 : 0;
    previousHash = hash;
    keyIds.set(key, hash * KEYS_PER_HASH + number);
  }
  // Rows numbered as the load numbers them: by the cluster of their first key, then id.
  const clusters = new Map(rows.map((row) => [row[0], clusterOf(row[3])]));
  rows.sort((a, b) => (clusters.get(a[0]) as number) - (clusters.get(b[0]) as number) || byText(a[0], b[0]));
  const rowOf = new Map(rows.map((row, i) => [row[0], i + 1]));
  const keyRows: KeyRow[] = rows.flatMap(([id, lastIndexed, , keys]) => keys.map((key) => [keyIds.get(key) as number, id, lastIndexed, rowOf.get(id) as number] as const));
  keyRows.sort((a, b) => a[0] - b[0] || byText(a[1], b[1]));
  // Each key's total of records, as the load stores it (indexTables.ts, work_keys.records).
  const totals = new Map<number, number>();
  for (const [keyId] of keyRows) totals.set(keyId, (totals.get(keyId) ?? 0) + 1);
  const keyList = [...keyIds].sort((a, b) => a[1] - b[1]);
  const recordRows = rows.map(([id, lastIndexed, document, rowKeys], i) => [i + 1, id, lastIndexed, JSON.stringify(rowKeys.map((key) => keyIds.get(key))), document] as const);
  const keys = keyRows.length;

  const started = process.hrtime.bigint();
  const shareSoFar = watchMachineShare();
  inBatches(db.transaction((batch: readonly (typeof recordRows)[number][]) => {
    for (const [row, id, lastIndexed, keyIdList, document] of batch) insertRecord.run(row, id, lastIndexed, keyIdList, document);
  }), recordRows);
  db.exec('CREATE UNIQUE INDEX records_by_id ON records (id)');
  inBatches(db.transaction((batch: ReadonlyArray<readonly [string, number]>) => {
    for (const [key, keyId] of batch) insertKey.run(keyId, key, totals.get(keyId) ?? 0);
  }), keyList);
  inBatches(db.transaction((batch: readonly KeyRow[]) => {
    for (const [keyId, id, lastIndexed, row] of batch) insertKeyRow.run(keyId, id, lastIndexed, row);
  }), keyRows);
  db.close();
  const timedNs = process.hrtime.bigint() - started;
  const share = shareSoFar();

  const report: InsertCeilingReport = {
    type: 'insert-ceiling',
    records,
    keys,
    seconds: Number(timedNs) / 1e9,
    fileBytes: statSync(path).size,
    peakRssBytes: memoryOf().peakRss,
    share,
  };
  await reportToParent(report);
}

main().catch((error: unknown) => {
  process.stderr.write(`insertCeiling: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
