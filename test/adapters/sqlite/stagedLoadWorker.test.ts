/**
 * A bulk load into an empty index file stages and moves its rows in a worker thread
 * (src/adapters/sqlite/stagedLoadOffThread.ts, stagedLoadWorker.ts). What that must not change: readers of
 * the index see no record until the load ends and all of them after; a deletion in the middle applies
 * after what came before it; the worker's faults reach the caller as the errors a load on one thread
 * gave; a load abandoned or failed writes nothing half-way and leaves no thread keeping the process alive.
 */
import test from 'ava';
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { IndexUnavailableError } from '../../../src/errors.js';
import { workKeyHash } from '../../../src/adapters/sqlite/indexTables.js';
import { prepareRecordDocument, type PreparedRecordDocument } from '../../../src/ingest/prepareRecordDocument.js';
import { note } from '../../support/testNotes.js';
import { openEmbeddedIndex, type EmbeddedIndex } from '../../../src/entries/sqlite.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const folder = mkdtempSync(join(tmpdir(), 'staged-load-worker-'));
test.after.always(() => rmSync(folder, { recursive: true, force: true }));
let files = 0;
const newFile = (name: string) => join(folder, `${(files += 1)}-${name}.sqlite`);

const NOW = new Date('2025-07-01T00:00:00Z');

/** Documents r<from>…, ten works of several versions each. */
function documents(from: number, count: number): PreparedRecordDocument[] {
  return Array.from({ length: count }, (_, i) => prepareRecordDocument({
    id: `r${from + i}`, title: `Title ${(from + i) % 10}`, author: 'Author', format: 'Book',
    last_indexed: new Date(Date.UTC(2025, 0, 1, 0, 0, from + i)).toISOString(),
  }, NOW).document);
}

async function versionsOf(index: EmbeddedIndex, id: string): Promise<string[]> {
  const record = await index.getRecord(id);
  if (record === undefined) return [];
  const page = await index.findVersions({ workKeys: record.workKeys, order: 'last-indexed', offset: 0, limit: 100 });
  return page.records.map((r) => r.id);
}

test('readers of the index see no record of a staged load until its writer closes, then all of them', async (t) => {
  const index = openEmbeddedIndex({ path: newFile('visibility'), create: true });
  const writer = index.openWriter();
  const versionBefore = index.contentVersion!();
  for (let batch = 0; batch < 5; batch++) {
    await writer.put(documents(batch * 100, 100));
    t.is(await index.count(), 0, `after batch ${batch}`);
    t.is(await index.getRecord('r0'), undefined);
  }
  await writer.close();
  t.is(await index.count(), 500);
  t.not(index.contentVersion!(), versionBefore, 'kept answers are dropped when the load ends');
  // The same answers as a load run on the index's own connection (an in-memory index).
  const inMemory = openEmbeddedIndex({ path: ':memory:' });
  await inMemory.load(documents(0, 500));
  for (const id of ['r0', 'r7', 'r499']) {
    t.deepEqual(await index.getRecord(id), await inMemory.getRecord(id));
    t.deepEqual(await versionsOf(index, id), await versionsOf(inMemory, id));
  }
  await inMemory.close();
  await index.close();
});

test('a staged load in batches of any size gives every record the keys and versions the replacing writer gives it', async (t) => {
  // Staged rows go in many at a time (tableWriters.ts, STAGED_PER_INSERT) and the rest of a batch one by
  // one: batches of 1, 137 and 262 documents of none to three keys take both ways, with a duplicate id.
  const varied = (from: number, count: number) => Array.from({ length: count }, (_, i) => {
    const n = from + i;
    const fields = n % 7 === 0
      ? { format: 'Book' }
      : { title: `Title ${n % 13}`, author: n % 3 === 0 ? ['Author', `Second ${n % 5}`] : 'Author', title_uniform: n % 4 === 0 ? `Uniform ${n % 6}` : undefined, format: 'Book' };
    return prepareRecordDocument({ id: `v${n % 390}`, ...fields, last_indexed: new Date(Date.UTC(2025, 0, 1, 0, 0, n)).toISOString() }, NOW).document;
  });
  const batches = [varied(0, 1), varied(1, 137), varied(138, 262)];
  const staged = openEmbeddedIndex({ path: newFile('batch-sizes'), create: true });
  const stagedWriter = staged.openWriter();
  for (const batch of batches) await stagedWriter.put(batch);
  await stagedWriter.close();
  // Into an index holding a record, every document is written by the replacing writer, one at a time.
  const replaced = openEmbeddedIndex({ path: ':memory:' });
  await replaced.load([prepareRecordDocument({ id: 'other', title: 'Other', author: 'Someone', format: 'Book' }, NOW).document]);
  const replacingWriter = replaced.openWriter();
  for (const batch of batches) await replacingWriter.put(batch);
  await replacingWriter.close();
  t.is(await staged.count(), 390);
  for (let n = 0; n < 390; n++) {
    const record = await staged.getRecord(`v${n}`);
    t.deepEqual(record, await replaced.getRecord(`v${n}`), `v${n}`);
    t.deepEqual((await versionsOf(staged, `v${n}`)).sort(), (await versionsOf(replaced, `v${n}`)).sort(), `versions of v${n}`);
  }
  await staged.close();
  await replaced.close();
});

test('a deletion in the middle of a staged load applies after the documents put before it', async (t) => {
  const path = newFile('delete');
  const index = openEmbeddedIndex({ path, create: true });
  const writer = index.openWriter();
  await writer.put(documents(0, 100));
  await writer.put(documents(100, 100));
  t.is(await index.count(), 0, 'staged, not yet in the tables');
  await writer.delete(['r5', 'r250', 'r150']);
  // The staged part is in the tables now; the rest of the load replaces record by record.
  t.is(await index.count(), 198);
  await writer.put(documents(150, 101));
  await writer.close();
  t.is(await index.count(), 250, 'r200…r250 added, r150 again');
  t.is(await index.getRecord('r5'), undefined);
  t.truthy(await index.getRecord('r150'), 'put again after its deletion');
  t.truthy(await index.getRecord('r250'), 'its deletion came before it');
  t.false((await versionsOf(index, 'r15')).includes('r5'), 'the deleted record left its work');
  await index.close();
});

test('an engine error in the worker reaches the caller as SqliteError, and nothing is written', async (t) => {
  const path = newFile('trigger');
  await openEmbeddedIndex({ path, create: true }).close();
  const tables = new Database(path);
  tables.exec("CREATE TRIGGER refuse BEFORE INSERT ON records BEGIN SELECT RAISE(ABORT, 'refused by the test'); END;");
  const index = openEmbeddedIndex({ path, create: true });
  // better-sqlite3's SqliteError is no native Error (ava's throwsAsync refuses it), so it is caught here.
  const error = await index.load(documents(0, 300), { batchSize: 50 }).then(() => undefined, (e: unknown) => e);
  t.true(error instanceof Database.SqliteError, String(error));
  t.is((error as { code?: string } | undefined)?.code, 'SQLITE_CONSTRAINT_TRIGGER');
  t.regex((error as Error).message, /refused by the test/);
  t.is(await index.count(), 0);
  // The failed load ended its worker and its turn: the next load runs.
  tables.exec('DROP TRIGGER refuse');
  tables.close();
  await index.load(documents(0, 300), { batchSize: 50 });
  t.is(await index.count(), 300);
  await index.close();
});

/** `count` different work keys with one FNV-1a hash (indexTables.ts): equal from the third code unit on. */
function sameHashKeys(count: number): string[] {
  const prefix = 'AT collide ';
  let hash = 0x811c9dc5;
  for (let i = 0; i < prefix.length; i++) hash = Math.imul(hash ^ prefix.charCodeAt(i), 0x01000193);
  const keys: string[] = [];
  let upper: number | undefined;
  for (let a = 0x4e00; keys.length < count; a++) {
    const afterA = Math.imul(hash ^ a, 0x01000193);
    for (let b = 0x4e00; b < 0x9f00 && keys.length < count; b++) {
      const afterB = Math.imul(afterA ^ b, 0x01000193);
      upper ??= afterB >>> 16;
      if (afterB >>> 16 !== upper) continue;
      // The last unit makes afterB ^ c the same for every key, so the final multiplication is too.
      const c = (afterB & 0xffff) ^ 0x4e00;
      if (c >= 0xd800 && c <= 0xdfff) continue;
      keys.push(prefix + String.fromCharCode(a, b, c));
    }
  }
  return keys;
}

test('more than 256 keys of one hash in a staged load reach the caller as IndexUnavailableError', async (t) => {
  const keys = sameHashKeys(257);
  t.is(new Set(keys.map(workKeyHash)).size, 1, 'the keys share a hash');
  const index = openEmbeddedIndex({ path: newFile('hash'), create: true });
  await t.throwsAsync(index.load(keys.map((key, i) => ({ id: `k${i}`, work_keys_str_mv: [key] }))), {
    instanceOf: IndexUnavailableError, message: /more than 256 different work keys share the hash/,
  });
  t.is(await index.count(), 0);
  await index.load(keys.slice(0, 256).map((key, i) => ({ id: `k${i}`, work_keys_str_mv: [key] })));
  t.is(await index.count(), 256, '256 keys of one hash are fine');
  await index.close();
});

test('a load whose source fails writes the batches put before the failure', async (t) => {
  const index = openEmbeddedIndex({ path: newFile('source'), create: true });
  function* failing() {
    yield* documents(0, 25);
    throw new Error('source broke');
  }
  await t.throwsAsync(index.load(failing(), { batchSize: 10 }), { message: 'source broke' });
  t.is(await index.count(), 20);
  await index.close();
});

test('the move goes outside the write-ahead log only for a loader alone with the file, and leaves it in WAL mode', async (t) => {
  const journalModeDuringMove = async (withReader: boolean): Promise<{ during: string; after: string; reader?: number }> => {
    const path = newFile(withReader ? 'shared' : 'alone');
    const index = openEmbeddedIndex({ path, create: true });
    const reader = withReader ? openEmbeddedIndex({ path, readOnly: true }) : undefined;
    const writer = index.openWriter();
    await writer.put(documents(0, 300));
    // The file's mode as a connection opened now sees it (staged, not yet moved).
    const probe = new Database(path, { readonly: true });
    const during = probe.pragma('journal_mode', { simple: true }) as string;
    probe.close();
    await writer.close();
    t.is(await index.count(), 300);
    const seen = reader === undefined ? undefined : await reader.count();
    await reader?.close();
    await index.close();
    const after = new Database(path, { readonly: true });
    const mode = after.pragma('journal_mode', { simple: true }) as string;
    after.close();
    return { during, after: mode, ...(seen === undefined ? {} : { reader: seen }) };
  };
  t.deepEqual(await journalModeDuringMove(false), { during: 'delete', after: 'wal' });
  t.deepEqual(await journalModeDuringMove(true), { during: 'wal', after: 'wal', reader: 300 }, 'a read-only open of the file keeps the load in WAL mode, and sees its records');
});

test('closing the index in the middle of the move ends its worker; the file holds the empty index or the whole load, never part of it', async (t) => {
  const path = newFile('closed-in-move');
  const index = openEmbeddedIndex({ path, create: true });
  const writer = index.openWriter();
  const total = 120_000;
  for (let from = 0; from < total; from += 1000) await writer.put(documents(from, 1000));
  let ended = false;
  const moving = writer.close().catch(() => {}).finally(() => { ended = true; });
  // The move has begun writing into the file, which it then holds alone until its commit: its rollback
  // journal is there and the file has grown (stagedLoadOffThread.ts).
  const before = statSync(path).size;
  while (!ended && !(existsSync(`${path}-journal`) && statSync(path).size > before)) await new Promise((resolve) => setTimeout(resolve, 2));
  t.false(ended, 'the move was caught before it ended');
  await t.throwsAsync(index.getRecord('r0'), { instanceOf: IndexUnavailableError }, 'a read during the move fails at once');
  await index.close();
  await moving;
  const again = openEmbeddedIndex({ path, create: true });
  const count = await again.count();
  t.true(count === 0 || count === total, `${count} records`);
  note(t, count === 0 ? 'rolled back to the empty index' : 'the move had committed');
  t.false(existsSync(`${path}-journal`));
  await again.load(documents(0, 10));
  t.is(await again.count(), count === 0 ? 10 : total);
  await again.close();
});

test('closing the index during a staged load drops the load; the file stays empty and usable', async (t) => {
  const path = newFile('abandoned');
  const index = openEmbeddedIndex({ path, create: true });
  const writer = index.openWriter();
  await writer.put(documents(0, 100));
  await index.close();
  await t.notThrowsAsync(writer.close());
  const again = openEmbeddedIndex({ path, create: true });
  t.is(await again.count(), 0);
  await again.load(documents(0, 100));
  t.is(await again.count(), 100);
  await again.close();
});

test('no worker keeps the process alive after a failed load, a closed one, or one left unfinished', async (t) => {
  const module = (file: string) => JSON.stringify(pathToFileURL(join(ROOT, file)).href);
  const script = `
    import Database from 'better-sqlite3';
    import { openEmbeddedIndex } from ${module('src/entries/sqlite.ts')};
    const folder = ${JSON.stringify(folder)};
    const docs = (n) => Array.from({ length: n }, (_, i) => ({ id: 'c' + i, title: 'T' + (i % 7) }));
    // Finished.
    const done = openEmbeddedIndex({ path: folder + '/child-done.sqlite', create: true });
    await done.load(docs(50));
    // Failed in the worker.
    const path = folder + '/child-failed.sqlite';
    await openEmbeddedIndex({ path, create: true }).close();
    const tables = new Database(path);
    tables.exec("CREATE TRIGGER refuse BEFORE INSERT ON records BEGIN SELECT RAISE(ABORT, 'no'); END;");
    tables.close();
    const failed = openEmbeddedIndex({ path, create: true });
    await failed.load(docs(50)).then(() => { throw new Error('the load should fail'); }, () => {});
    // Closed during the load.
    const closed = openEmbeddedIndex({ path: folder + '/child-closed.sqlite', create: true });
    await closed.openWriter().put(docs(50).map((d) => ({ ...d, last_indexed: '2025-01-01T00:00:00.000Z', work_keys_str_mv: ['K'] })));
    await closed.close();
    // Left unfinished: neither the writer nor the index is closed.
    const left = openEmbeddedIndex({ path: folder + '/child-left.sqlite', create: true });
    await left.openWriter().put(docs(50).map((d) => ({ ...d, last_indexed: '2025-01-01T00:00:00.000Z', work_keys_str_mv: ['K'] })));
    process.stdout.write('reached the end');`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  // Not a timing assertion: a guard so that a process kept alive fails the test instead of hanging it.
  const guard = setTimeout(() => child.kill('SIGKILL'), 45_000);
  const [code, signal] = await new Promise<[number | null, string | null]>((resolve) => child.on('exit', (c, s) => resolve([c, s])));
  clearTimeout(guard);
  t.is(signal, null, `the process ended by itself; output: ${output}`);
  t.is(code, 0, output);
  t.true(output.includes('reached the end'), output);
});
