/**
 * A load killed halfway (SIGKILL: no cleanup of any kind) leaves the embedded index as it was before the
 * load, or with whole records only, and a rerun of the same command completes it: the real command in
 * its own process, a file large enough to be caught in the middle.
 */
import test, { type ExecutionContext } from 'ava';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { IndexUnavailableError } from '../../src/errors.js';
import { runCli } from '../../src/cli/catalogVersions.js';
import { openEmbeddedIndex } from '../../src/entries/sqlite.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const RECORDS = 50_000;
const quiet = { stdout: { write: () => true }, stderr: { write: () => true } };

function catalogFile(dir: string, records = RECORDS): string {
  const lines: string[] = [];
  for (let i = 0; i < records; i += 1) {
    lines.push(JSON.stringify({ id: `r${i}`, title: `Title ${i % 5000}`, author: `Author ${i % 13}`, format: 'Book', publishDate: String(1900 + (i % 120)) }));
  }
  const file = join(dir, 'big.jsonl');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** A folder of the test's own (removed after it) holding a catalog of `records` lines, and its index's path. */
function catalogInFolder(t: ExecutionContext, records = RECORDS): { file: string; db: string } {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-versions-killed-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return { file: catalogFile(dir, records), db: join(dir, 'catalog.sqlite') };
}

/**
 * Records, key rows whose record or key is missing, and records of this catalog without their one key row
 * each (every record here has one key: its author and title).
 */
function integrityOf(path: string): { records: number; orphanKeys: number; recordsMissingKeys: number } {
  // A first load killed while it stages or moves leaves its rollback journal, which only a writable open
  // rolls back (a read-only one fails with SQLITE_READONLY_ROLLBACK): opened as the next load would open it.
  const db = new Database(path, { readonly: !existsSync(`${path}-journal`) });
  try {
    const count = (sql: string) => (db.prepare(sql).pluck().get() as number);
    const records = count('SELECT COUNT(*) FROM records');
    const orphanKeys = count(`SELECT COUNT(*) FROM records_by_key k
      WHERE NOT EXISTS (SELECT 1 FROM records r WHERE r.id = k.record_id) OR NOT EXISTS (SELECT 1 FROM work_keys w WHERE w.key_id = k.key_id)`);
    // The key rows have no index by record: count them per record in one pass.
    const recordsMissingKeys = count(`SELECT COUNT(*) FROM records r
      LEFT JOIN (SELECT record_id, COUNT(*) AS c FROM records_by_key GROUP BY record_id) k ON k.record_id = r.id
      WHERE r.id LIKE 'r%' AND (IFNULL(k.c, 0) <> 1 OR json_array_length(r.key_ids) <> 1)`);
    return { records, orphanKeys, recordsMissingKeys };
  } finally {
    db.close();
  }
}

/**
 * Starts the command, kills it with SIGKILL once `ready()` says so (or after a while), resolves when it is
 * dead, with whether the kill is what ended it (not the load finishing first).
 */
function loadAndKill(file: string, db: string, ready: () => boolean, giveUpAfter = 20_000): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli', 'catalogVersions.ts'), 'load', file, '--db', db, '--batch-size', '500'],
      { cwd: ROOT, stdio: 'ignore' });
    const started = Date.now();
    const poll = setInterval(() => {
      let now = false;
      try {
        now = ready() || Date.now() - started > giveUpAfter;
      } catch { /* the file may not exist yet */ }
      if (now) {
        clearInterval(poll);
        child.kill('SIGKILL');
      }
    }, 20);
    child.on('exit', (_code, signal) => {
      clearInterval(poll);
      resolve(signal === 'SIGKILL');
    });
  });
}

test('a load into an index holding records, killed halfway, leaves whole records; a rerun completes it', async (t) => {
  t.timeout(180_000);
  const { file, db } = catalogInFolder(t);
  const before = openEmbeddedIndex({ path: db, create: true });
  await before.load([{ id: 'existing', title: 'Already here', author: 'Someone' }]);
  await before.close();

  t.true(await loadAndKill(file, db, () => integrityOf(db).records > 2_000), 'killed before the load ended');
  const halfway = integrityOf(db);
  t.true(halfway.records > 1 && halfway.records < RECORDS + 1, `killed halfway: ${halfway.records} records`);
  t.is(halfway.orphanKeys, 0, 'no key without its record');
  t.is(halfway.recordsMissingKeys, 0, 'no record without its keys');

  t.is(await runCli(['load', file, '--db', db], quiet), 0);
  t.deepEqual(integrityOf(db), { records: RECORDS + 1, orphanKeys: 0, recordsMissingKeys: 0 });
});

test('a first load into an empty index, killed halfway, leaves it empty; a rerun completes it', async (t) => {
  t.timeout(180_000);
  // A first load stages quickly (a bulk load): a larger file, killed shortly after the command created
  // the index file, while it stages documents.
  const records = 4 * RECORDS;
  const { file, db } = catalogInFolder(t, records);
  let created: number | undefined;
  const killed = await loadAndKill(file, db, () => {
    if (created === undefined && existsSync(db)) created = Date.now();
    return created !== undefined && Date.now() - created > 300;
  });
  t.true(created !== undefined && killed, 'killed while the command was writing, before the load ended');
  t.is(integrityOf(db).records, 0, 'staged documents never reached the index');
  t.is(await runCli(['load', file, '--db', db], quiet), 0);
  t.deepEqual(integrityOf(db), { records, orphanKeys: 0, recordsMissingKeys: 0 });
});

test('a first load into an empty index, killed in its final move, leaves it empty and whole; a rerun completes it', async (t) => {
  t.timeout(300_000);
  const records = 4 * RECORDS;
  const { file, db } = catalogInFolder(t, records);
  // The move of a load into an empty file that only the loader has open writes the new tables straight
  // into the file, their old pages (the empty index's) kept in the rollback journal: the journal is there
  // from the move's first write to its commit (and for a moment when the command creates the file, before
  // it holds the schema), and a kill while both it and the written tables are there is a kill in the move.
  const journal = `${db}-journal`;
  // Staging comes first and takes its time on a busy machine: the kill waits for the move.
  const killed = await loadAndKill(file, db, () => existsSync(journal) && statSync(db).size > 1_000_000, 150_000);
  t.true(killed, 'killed before the load ended');
  t.true(existsSync(journal), 'killed in the move: its journal is left behind');
  t.true(statSync(db).size > 1_000_000, 'the move had written into the file before the kill');

  // A read-only open cannot roll the journal back, and SQLite reads no page of the file until it is: the
  // file is refused with a coded error naming what to do, never read half-written.
  const refused = t.throws(() => openEmbeddedIndex({ path: db, readOnly: true }), { instanceOf: IndexUnavailableError });
  t.regex(refused?.message ?? '', /interrupted.*open it once without readOnly/);
  const index = openEmbeddedIndex({ path: db, create: true });
  t.is(await index.count(), 0, 'the empty index, as before the load');
  await index.close();
  t.false(existsSync(journal), 'the journal was rolled back');
  const check = new Database(db, { readonly: true });
  t.is(check.pragma('integrity_check', { simple: true }), 'ok');
  t.is(check.pragma('journal_mode', { simple: true }), 'wal', 'the next open put the file back into WAL mode');
  check.close();

  t.is(await runCli(['load', file, '--db', db], quiet), 0);
  t.deepEqual(integrityOf(db), { records, orphanKeys: 0, recordsMissingKeys: 0 });
});
