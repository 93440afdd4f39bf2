import test from 'ava';
import assert from 'node:assert';
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IndexUnavailableError, InvalidOptionError, InvalidRecordDocumentError } from '../../../src/errors.js';
import type { CatalogIndex } from '../../../src/ports.js';
import { firstKeyIdOf, workKeyHash } from '../../../src/adapters/sqlite/indexTables.js';
import { pageOfWork } from '../../../src/record/recordFacets.js';
import { indexBehaviourSuite, suiteDocuments } from '../indexBehaviourSuite.js';
import { openEmbeddedIndex } from '../../../src/entries/sqlite.js';

const folder = mkdtempSync(join(tmpdir(), 'versions-index-'));
test.after.always(() => rmSync(folder, { recursive: true, force: true }));
let files = 0;
const newFile = (name: string) => join(folder, `${(files += 1)}-${name}.sqlite`);

/**
 * A file as 0.1.0 writes it (schema 1: key rows with the record's last_indexed), or as the index made it
 * before schema versions were recorded (schema 0: keys without last_indexed), which 0.1.0 still opened.
 */
function writeLegacyFile(path: string, documents: readonly Record<string, unknown>[], version: 0 | 1): void {
  const db = new Database(path);
  db.exec(`
    CREATE TABLE records (id TEXT PRIMARY KEY NOT NULL, last_indexed TEXT NOT NULL, content_hash TEXT NOT NULL, document TEXT NOT NULL) WITHOUT ROWID;
    CREATE TABLE work_keys (key TEXT NOT NULL, record_id TEXT NOT NULL, ${version === 1 ? 'last_indexed TEXT NOT NULL, ' : ''}PRIMARY KEY (key, record_id)) WITHOUT ROWID;
    CREATE INDEX work_keys_by_record ON work_keys (record_id);
    ${version === 1 ? 'PRAGMA user_version = 1;' : 'CREATE INDEX records_by_last_indexed ON records (last_indexed DESC, id);'}`);
  const addRecord = db.prepare('INSERT INTO records (id, last_indexed, content_hash, document) VALUES (?, ?, ?, ?)');
  const addKey = db.prepare(version === 1
    ? 'INSERT OR IGNORE INTO work_keys (key, record_id, last_indexed) VALUES (?, ?, ?)'
    : 'INSERT OR IGNORE INTO work_keys (key, record_id) VALUES (?, ?)');
  db.transaction(() => {
    for (const document of documents) {
      const { last_indexed: lastIndexed, ...content } = document;
      addRecord.run(document.id, lastIndexed, createHash('sha256').update(JSON.stringify(content)).digest('base64url'), JSON.stringify(document));
      for (const key of (document.work_keys_str_mv as string[] | undefined) ?? []) addKey.run(key, document.id, ...(version === 1 ? [lastIndexed] : []));
    }
  })();
  db.close();
}

/**
 * A file of 0.2.0's unreleased layout (schema 2): records by id without a row number, key rows without
 * the records' rows; keys by their first id (no two suite keys share a hash).
 */
function writeSchema2File(path: string, documents: readonly Record<string, unknown>[]): void {
  const db = new Database(path);
  db.exec(`
    CREATE TABLE records (id TEXT PRIMARY KEY NOT NULL, last_indexed INTEGER NOT NULL, key_ids TEXT NOT NULL, document TEXT NOT NULL) WITHOUT ROWID;
    CREATE TABLE work_keys (key_id INTEGER PRIMARY KEY, key TEXT NOT NULL);
    CREATE TABLE records_by_key (key_id INTEGER NOT NULL, record_id TEXT NOT NULL, last_indexed INTEGER NOT NULL, PRIMARY KEY (key_id, record_id)) WITHOUT ROWID;
    PRAGMA user_version = 2;`);
  const addRecord = db.prepare('INSERT INTO records (id, last_indexed, key_ids, document) VALUES (?, ?, ?, ?)');
  const addKey = db.prepare('INSERT OR IGNORE INTO work_keys (key_id, key) VALUES (?, ?)');
  const addKeyRow = db.prepare('INSERT INTO records_by_key (key_id, record_id, last_indexed) VALUES (?, ?, ?)');
  db.transaction(() => {
    for (const { id, last_indexed: lastIndexed, work_keys_str_mv: keys, ...fields } of documents) {
      const instant = Date.parse(lastIndexed as string);
      const keyIds = ((keys as string[] | undefined) ?? []).map((key) => [firstKeyIdOf(key), key] as const);
      addRecord.run(id, instant, JSON.stringify(keyIds.map(([keyId]) => keyId)), JSON.stringify(fields));
      for (const [keyId, key] of keyIds) {
        addKey.run(keyId, key);
        addKeyRow.run(keyId, id, instant);
      }
    }
  })();
  db.close();
}

/** The tables and indexes of the current layout, and its version. */
const CURRENT_LAYOUT = { version: 4, tables: ['harvests', 'records', 'records_by_key', 'work_keys'], indexes: ['records_by_id'] };
/** The layout once a load began: the file also records its work-key profile (keyProfileRecord.ts). */
const LOADED_LAYOUT = { ...CURRENT_LAYOUT, tables: ['harvests', 'index_meta', 'records', 'records_by_key', 'work_keys'] };

function schemaOf(path: string): { version: unknown; tables: string[]; indexes: string[] } {
  const db = new Database(path, { readonly: true });
  try {
    return {
      version: db.pragma('user_version', { simple: true }),
      tables: db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all().map((r) => r.name),
      indexes: db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name").all().map((r) => r.name),
    };
  } finally {
    db.close();
  }
}

// The shared behaviours through each way the embedded index gets its records: a load into an empty index
// (staged), a load into an index holding records (upserts), a file of schema 0 served read-only as it is,
// and one migrated by a writable open.
indexBehaviourSuite(test, 'embedded', async (documents) => {
  const index = openEmbeddedIndex({ path: ':memory:' });
  await index.load(documents);
  return index;
});

indexBehaviourSuite(test, 'embedded, loaded in two parts', async (documents) => {
  const index = openEmbeddedIndex({ path: ':memory:' });
  await index.load(documents.filter((_, i) => i % 2 === 0));
  await index.load(documents.filter((_, i) => i % 2 === 1), { batchSize: 3 });
  return index;
});

indexBehaviourSuite(test, 'embedded, schema 0 read-only', async (documents) => {
  const path = newFile('schema0');
  writeLegacyFile(path, documents, 0);
  return openEmbeddedIndex({ path, readOnly: true });
});

indexBehaviourSuite(test, 'embedded, 0.1.0 file read-only', async (documents) => {
  const path = newFile('v010');
  writeLegacyFile(path, documents, 1);
  return openEmbeddedIndex({ path, readOnly: true });
});

indexBehaviourSuite(test, 'embedded, 0.1.0 file rebuilt', async (documents) => {
  const path = newFile('v010-rebuilt');
  writeLegacyFile(path, documents, 1);
  await openEmbeddedIndex({ path, create: true }).close();
  assert.deepStrictEqual(schemaOf(path), CURRENT_LAYOUT, 'a writable open rebuilds a 0.1.0 file');
  return openEmbeddedIndex({ path, readOnly: true });
});

indexBehaviourSuite(test, 'embedded, migrated from schema 0', async (documents) => {
  const path = newFile('migrated');
  writeLegacyFile(path, documents, 0);
  await openEmbeddedIndex({ path, create: true }).close();
  return openEmbeddedIndex({ path, readOnly: true });
});

test('load computes missing keys, keeps explicit ones, sets last_indexed from the clock', async (t) => {
  const index = openEmbeddedIndex({ path: ':memory:' });
  const summary = await index.load([
    { id: 'a', title: 'The Hobbit', author: 'Tolkien, J. R. R.' },
    { id: 'b', title: 'Anything', work_keys_str_mv: ['MINE 1'] },
  ], { now: () => new Date('2024-02-03T04:05:06Z') });
  t.deepEqual(summary, { read: 2, loaded: 2, rejected: 0 });
  const a = await index.getRecord('a');
  t.deepEqual(a?.workKeys, ['AT tolkienjrr thehobbit', 'AT tolkienjrr hobbit']);
  t.is(a?.lastIndexed, '2024-02-03T04:05:06.000Z');
  t.deepEqual((await index.getRecord('b'))?.workKeys, ['MINE 1']);
});

test('records given out are whole plain values: kept past a reload and past close, they still carry their keys', async (t) => {
  const index = openEmbeddedIndex({ path: ':memory:' });
  await index.load([
    { id: 'first', title: 'The Hobbit', author: 'Tolkien, J. R. R.' },
    { id: 'second', title: 'The Hobbit', author: 'Tolkien, J. R. R.', publishDate: ['1966'] },
  ]);
  const record = await index.getRecord('first');
  const asked = { order: 'relevance', offset: 0, limit: 10 } as const;
  const page = await index.findVersionsOf!(record!, asked);
  const sorted = await index.findVersions({ workKeys: record!.workKeys, order: 'year-asc', offset: 0, limit: 10, facets: true });
  // The keys change under the records held: the second record is given other keys, then the index closes.
  await index.load([{ id: 'second', title: 'Other', author: 'Someone', work_keys_str_mv: ['MINE 2'] }]);
  await index.close();
  const expected = ['AT tolkienjrr thehobbit', 'AT tolkienjrr hobbit'];
  t.deepEqual(record!.workKeys, expected);
  t.deepEqual(page.records.map((version) => [version.id, version.workKeys]), [['first', expected], ['second', expected]]);
  t.deepEqual(sorted.records.map((version) => version.workKeys), [expected, expected]);
  t.deepEqual(Object.getOwnPropertyDescriptor(record, 'workKeys')?.get, undefined, 'a data property, not a getter');
});

test('a document with an indexed id replaces it, keys included', async (t) => {
  const index = openEmbeddedIndex({ path: ':memory:' });
  await index.load([{ id: 'x', title: 'Old title', author: 'A' }, { id: 'y', title: 'Old title', author: 'A' }]);
  await index.load([{ id: 'x', title: 'New title', author: 'A' }]);
  t.is(await index.count(), 2);
  t.is((await index.getRecord('x'))?.title, 'New title');
  const old = await index.findVersions({ workKeys: ['AT a oldtitle'], order: 'relevance', offset: 0, limit: 10 });
  t.deepEqual(old.records.map((r) => r.id), ['y']);
});

test('loading the same documents twice leaves the same index, last_indexed included', async (t) => {
  const index = openEmbeddedIndex({ path: ':memory:' });
  const documents = [{ id: 'p', title: 'Same', author: 'Same' }];
  await index.load(documents, { now: () => new Date('2024-01-01T00:00:00Z') });
  await index.load(documents, { now: () => new Date('2024-06-01T00:00:00Z') });
  t.is((await index.getRecord('p'))?.lastIndexed, '2024-01-01T00:00:00.000Z');
  await index.load([{ id: 'p', title: 'Changed', author: 'Same' }], { now: () => new Date('2024-07-01T00:00:00Z') });
  t.is((await index.getRecord('p'))?.lastIndexed, '2024-07-01T00:00:00.000Z');
});

test('load takes async iterables and reports bad documents without losing the rest', async (t) => {
  const index = openEmbeddedIndex({ path: ':memory:' });
  async function* documents() {
    yield { id: 'ok-1', title: 'T' };
    yield { title: 'no id' };
    yield { id: 'ok-2', author: 42 };
    yield 'not an object';
    yield { id: 'ok-3', title: 'T' };
  }
  const rejected: unknown[] = [];
  const summary = await index.load(documents(), { onRejected: (problem) => rejected.push(problem), batchSize: 2 });
  t.deepEqual(summary, { read: 5, loaded: 2, rejected: 3 });
  t.deepEqual(rejected, [
    { position: 2, reason: 'field "id" is missing' },
    { position: 3, id: 'ok-2', reason: 'field "author" must be a string, not a number' },
    { position: 4, reason: 'a record document must be a JSON object, not a string' },
  ]);
  t.is(await index.count(), 2);
});

test('without onRejected, a bad document stops the load with its position', async (t) => {
  const index = openEmbeddedIndex({ path: ':memory:' });
  const error = await t.throwsAsync(index.load([{ id: 'fine' }, { id: '' }]), { instanceOf: InvalidRecordDocumentError });
  t.regex(error!.message, /document 2 \(id ""\): field "id" is empty/);
  t.is(await index.count(), 1, 'documents before the bad one are kept');
});

test('a file index keeps its records across close and reopen, and opens read-only', async (t) => {
  const folder = mkdtempSync(join(tmpdir(), 'versions-index-'));
  try {
    const path = join(folder, 'catalog.sqlite');
    const writer = openEmbeddedIndex({ path, create: true });
    await writer.load([{ id: 'kept', title: 'Kept', author: 'K' }]);
    await writer.close();
    const reader = openEmbeddedIndex({ path, readOnly: true });
    t.is((await reader.getRecord('kept'))?.title, 'Kept');
    await t.throwsAsync(reader.load([{ id: 'z' }]), { message: /read-only/ });
    await reader.close();
    await t.throwsAsync(reader.getRecord('kept'), { message: /after close/ });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test('bad options are refused naming the option', (t) => {
  t.throws(() => openEmbeddedIndex({ path: '' }), { message: /"path"/ });
  t.throws(() => openEmbeddedIndex(undefined as never), { message: /"path"/ });
});

test('countVersions answers for a list of records in one call', async (t) => {
  const index = openEmbeddedIndex({ path: ':memory:' });
  await index.load([
    { id: 'h1', title: 'The Hobbit', author: 'Tolkien, J. R. R.' },
    { id: 'h2', title: 'Hobbit', author: 'Tolkien, J. R. R.' },
    { id: 'h3', title: 'The hobbit', author: 'Tolkien, J.R.R.' },
    { id: 'lonely', title: 'Anonymous pamphlet' },
    { id: 'other', title: 'Unrelated', author: 'Someone' },
  ]);
  const counts = await index.countVersions(['h1', 'h2', 'lonely', 'other', 'missing']);
  t.deepEqual([...counts.entries()].sort(), [['h1', 3], ['h2', 3], ['lonely', 1], ['other', 1]]);
  t.deepEqual([...(await index.countVersions([])).entries()], []);
});

const ids = (page: { records: ReadonlyArray<{ id: string }> }) => page.records.map((r) => r.id);
const at = (iso: string) => ({ now: () => new Date(iso) });

test('a load into an empty index keeps the last copy of a repeated id, with only that copy\'s keys', async (t) => {
  const index = openEmbeddedIndex({ path: ':memory:' });
  const summary = await index.load([
    { id: 'd', title: 'First', author: 'A', last_indexed: '2025-03-01T00:00:00Z' },
    { id: 'd', title: 'Second', author: 'A', last_indexed: '2025-03-02T00:00:00Z' },
    { id: 'g', title: 'Gone', author: 'G' },
    { id: 'h', title: 'Third', author: 'A', last_indexed: '2026-01-01T00:00:00Z' },
    { id: 'h', title: 'Third', author: 'A', last_indexed: '2024-06-01T00:00:00Z' },
    { id: 'd', title: 'Third', author: 'A', last_indexed: '2024-01-01T00:00:00Z' },
    { id: 'g', format: 'Book' },
  ], { batchSize: 2, ...at('2025-01-01T00:00:00Z') });
  t.deepEqual(summary, { read: 7, loaded: 7, rejected: 0 });
  t.is(await index.count(), 3);
  t.is((await index.getRecord('h'))?.lastIndexed, '2024-06-01T00:00:00.000Z', 'copies with the same keys: the last');
  const d = await index.getRecord('d');
  t.is(d?.title, 'Third');
  t.is(d?.lastIndexed, '2024-01-01T00:00:00.000Z');
  t.deepEqual((await index.getRecord('g'))?.workKeys, []);
  for (const key of ['AT a first', 'AT a second', 'AT g gone']) {
    t.deepEqual(await index.findVersions({ workKeys: [key], order: 'relevance', offset: 0, limit: 10 }), { total: 0, records: [] }, key);
  }
  // The key rows carry the last copy's last_indexed: h (2024-06) is newer than d (2024-01).
  const third = await index.findVersions({ workKeys: d!.workKeys, order: 'last-indexed', offset: 0, limit: 10 });
  t.deepEqual(ids(third), ['h', 'd']);
  t.deepEqual(third.records.map((record) => record.lastIndexed), ['2024-06-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z']);
  t.is(third.total, 2);
  t.deepEqual(Object.fromEntries(await index.countVersions(['d', 'g', 'h'])), { d: 2, g: 1, h: 2 });
});

test('a bad document stopping a load into an empty index keeps the documents before it, searchable', async (t) => {
  const path = newFile('aborted');
  const index = openEmbeddedIndex({ path, create: true });
  const documents = [
    { id: 'a1', title: 'Same', author: 'A' },
    { id: 'a2', title: 'Same', author: 'A' },
    { id: 'a3', title: 'Same', author: 'A' },
    { id: 'bad', author: 7 },
    { id: 'a5', title: 'Same', author: 'A' },
  ];
  const progress: number[] = [];
  await t.throwsAsync(index.load(documents, { batchSize: 2, onProgress: (read) => progress.push(read) }), {
    instanceOf: InvalidRecordDocumentError,
    message: /document 4 \(id "bad"\)/,
  });
  t.deepEqual(progress, [2, 4], 'each committed batch is reported, the one cut short by the bad document too');
  t.is(await index.count(), 3);
  const page = await index.findVersions({ workKeys: ['AT a same'], order: 'relevance', offset: 0, limit: 10 });
  t.deepEqual(page, { total: 3, records: page.records });
  t.deepEqual(ids(page), ['a1', 'a2', 'a3']);
  await index.close();
  t.deepEqual(schemaOf(path), LOADED_LAYOUT);
});

test('a failing source stopping a load into an empty index keeps its committed batches', async (t) => {
  const index = openEmbeddedIndex({ path: ':memory:' });
  async function* documents() {
    yield { id: 'c1', title: 'Kept', author: 'C' };
    yield { id: 'c2', title: 'Kept', author: 'C' };
    yield { id: 'c3', title: 'Lost', author: 'C' };
    throw new Error('the source broke');
  }
  await t.throwsAsync(index.load(documents(), { batchSize: 2 }), { message: 'the source broke' });
  t.is(await index.count(), 2);
  t.is((await index.findVersions({ workKeys: ['AT c kept'], order: 'last-indexed', offset: 0, limit: 10 })).total, 2);
  await index.load([{ id: 'c3', title: 'Kept', author: 'C' }]);
  t.is((await index.findVersions({ workKeys: ['AT c kept'], order: 'last-indexed', offset: 0, limit: 10 })).total, 3);
});

test('a load into an index holding records replaces records and keys, last_indexed of the keys included', async (t) => {
  const index = openEmbeddedIndex({ path: ':memory:' });
  await index.load([
    { id: 'x', title: 'Work', author: 'W', last_indexed: '2025-01-01T00:00:00Z' },
    { id: 'y', title: 'Work', author: 'W', last_indexed: '2025-01-02T00:00:00Z' },
    { id: 'z', title: 'Work', author: 'W', last_indexed: '2025-01-03T00:00:00Z' },
  ]);
  const feed = () => index.findVersions({ workKeys: ['AT w work'], order: 'last-indexed', offset: 0, limit: 10 });
  t.deepEqual(ids(await feed()), ['z', 'y', 'x']);
  const summary = await index.load([
    { id: 'x', title: 'Work', author: 'W', last_indexed: '2025-02-01T00:00:00Z' },
    { id: 'y', title: 'Other work', author: 'W' },
    { id: 'n', title: 'Work', author: 'W', last_indexed: '2024-12-31T00:00:00Z' },
    { id: 'x', title: 'Work', author: 'W', last_indexed: '2025-02-02T00:00:00Z' },
  ], { batchSize: 1, ...at('2025-03-01T00:00:00Z') });
  t.deepEqual(summary, { read: 4, loaded: 4, rejected: 0 });
  t.is(await index.count(), 4);
  const page = await feed();
  t.deepEqual(ids(page), ['x', 'z', 'n']);
  t.is(page.total, 3);
  t.is(page.records[0]?.lastIndexed, '2025-02-02T00:00:00.000Z');
  t.deepEqual(ids(await index.findVersions({ workKeys: ['AT w otherwork'], order: 'last-indexed', offset: 0, limit: 10 })), ['y']);
  t.deepEqual(Object.fromEntries(await index.countVersions(['x', 'y'])), { x: 3, y: 1 });
});

test('loads started together run one after the other', async (t) => {
  const index = openEmbeddedIndex({ path: ':memory:' });
  let release!: () => void;
  const gate = new Promise<void>((resolve) => { release = resolve; });
  async function* slow() {
    yield { id: 's1', title: 'Together', author: 'T', last_indexed: '2025-01-01T00:00:00Z' };
    await gate;
    yield { id: 's2', title: 'Together', author: 'T', last_indexed: '2025-01-02T00:00:00Z' };
  }
  const first = index.load(slow());
  const second = index.load([{ id: 's1', title: 'Together', author: 'T', last_indexed: '2025-01-03T00:00:00Z' }]);
  release();
  t.deepEqual(await Promise.all([first, second]), [{ read: 2, loaded: 2, rejected: 0 }, { read: 1, loaded: 1, rejected: 0 }]);
  t.is((await index.getRecord('s1'))?.lastIndexed, '2025-01-03T00:00:00.000Z', 'the second load came after the first');
  t.deepEqual(ids(await index.findVersions({ workKeys: ['AT t together'], order: 'last-indexed', offset: 0, limit: 10 })), ['s1', 's2']);
});

test('a page carries its total; an empty page (past the end, limit 0) still reports it', async (t) => {
  const index = openEmbeddedIndex({ path: ':memory:' });
  await index.load(suiteDocuments());
  const big = (await index.getRecord('big-01'))!.workKeys;
  for (const order of ['last-indexed', 'relevance'] as const) {
    const page = (offset: number, limit: number) => index.findVersions({ workKeys: big, order, offset, limit });
    const last = await page(40, 20);
    t.is(last.total, 45, order);
    t.is(last.records.length, 5, order);
    t.deepEqual(await page(45, 20), { total: 45, records: [] }, order);
    t.deepEqual(await page(1000, 20), { total: 45, records: [] }, order);
    t.deepEqual(await page(44, 0), { total: 45, records: [] }, order);
    t.deepEqual(await index.findVersions({ workKeys: ['NO such key'], order, offset: 5, limit: 20 }), { total: 0, records: [] }, order);
  }
  await index.close();
});

test('a writable open rebuilds a schema 0 file in the current layout; a read-only open serves it as it is', async (t) => {
  const path = newFile('schema0-migration');
  const documents = suiteDocuments();
  writeLegacyFile(path, documents, 0);
  t.deepEqual(schemaOf(path), { version: 0, tables: ['records', 'work_keys'], indexes: ['records_by_last_indexed', 'work_keys_by_record'] });

  const hobbitKeys = (documents.find((d) => d.id === 'hobbit-2')!.work_keys_str_mv as string[]);
  const feed = (index: CatalogIndex) => index.findVersions({ workKeys: hobbitKeys, order: 'last-indexed', offset: 0, limit: 50 });
  const reader = openEmbeddedIndex({ path, readOnly: true });
  const before = await feed(reader);
  t.deepEqual(ids(before), ['hobbit-1', 'hobbit-3', 'hobbit:tie/a', 'hobbit:tie/b', 'hobbit-2']);
  t.is(before.total, 5);
  await t.throwsAsync(reader.load([{ id: 'z' }]), { message: /read-only/ });
  t.is(schemaOf(path).version, 0, 'a read-only open changes nothing');

  const writer = openEmbeddedIndex({ path, create: true });
  t.deepEqual(schemaOf(path), CURRENT_LAYOUT);
  t.deepEqual(await feed(writer), before);
  // The reader opened before the migration has lost its tables: it fails as an unavailable index (503),
  // never with answers from half a layout, and a new open reads the rebuilt file.
  await t.throwsAsync(feed(reader), { instanceOf: IndexUnavailableError });
  await reader.close();
  const newReader = openEmbeddedIndex({ path, readOnly: true });
  t.deepEqual(await feed(newReader), before);
  await newReader.close();
  // Content loaded again unchanged keeps its last_indexed: the stored content hashes are still valid.
  const { last_indexed: _ignored, ...hobbit2 } = documents.find((d) => d.id === 'hobbit-2')!;
  await writer.load([hobbit2, { id: 'hobbit-4', title: 'The Hobbit', author: 'Tolkien, J. R. R.', last_indexed: '2025-01-02T12:00:00Z' }], at('2026-01-01T00:00:00Z'));
  t.is((await writer.getRecord('hobbit-2'))?.lastIndexed, '2025-01-01T00:00:00.000Z');
  t.deepEqual(ids(await feed(writer)), ['hobbit-1', 'hobbit-4', 'hobbit-3', 'hobbit:tie/a', 'hobbit:tie/b', 'hobbit-2']);
  t.is(await writer.count(), documents.length + 1);
  await writer.close();

  const again = openEmbeddedIndex({ path, create: true });
  t.is((await feed(again)).total, 6, 'a second writable open finds the current layout and leaves it');
  await again.close();
});

test('a file of the unreleased schema 2 is refused, read-only or not, naming the file and changing nothing', (t) => {
  const path = newFile('schema2');
  writeSchema2File(path, suiteDocuments());
  for (const readOnly of [true, false]) {
    const error = t.throws(() => openEmbeddedIndex({ path, readOnly }), { instanceOf: InvalidOptionError });
    t.is(error!.code, 'INVALID_OPTION');
    t.true(error!.message.includes(path), error!.message);
    t.regex(error!.message, /unreleased.*schema 2/);
  }
  t.is(schemaOf(path).version, 2, 'the refused opens change nothing');
});

test('a bulk load puts the records of a work next to each other, whatever their ids', async (t) => {
  const path = newFile('neighbours');
  const index = openEmbeddedIndex({ path, create: true });
  // Three works whose records' ids interleave: in id order no two records of a work are neighbours.
  const works = ['Alpha', 'Beta', 'Gamma'];
  const documents = Array.from({ length: 30 }, (_, i) => ({ id: `r${String(i).padStart(2, '0')}`, title: works[i % 3], author: 'Same, Author' }));
  await index.load(documents);
  await index.close();
  const db = new Database(path, { readonly: true });
  const byRow = db.prepare<[], { id: string }>('SELECT id FROM records ORDER BY row').all().map((row) => Number(row.id.slice(1)) % 3);
  db.close();
  const runs = byRow.filter((work, i) => i === 0 || work !== byRow[i - 1]).length;
  t.is(runs, 3, `rows by work: ${byRow.join('')}`);
});

test('a file of a newer schema is refused, naming the path option', (t) => {
  const path = newFile('newer');
  const db = new Database(path);
  db.pragma('user_version = 99');
  db.close();
  for (const readOnly of [false, true]) {
    const error = t.throws(() => openEmbeddedIndex({ path, readOnly }), { instanceOf: InvalidOptionError });
    t.regex(error!.message, /"path".*schema version 99/);
  }
});

test('the content version stays while the index is only read, and changes with every load, own or another connection\'s', async (t) => {
  const path = join(folder, 'content-version.sqlite');
  const writer = openEmbeddedIndex({ path, create: true });
  await writer.load([{ id: 'a', title: 'A', author: 'Author' }]);
  const reader = openEmbeddedIndex({ path, readOnly: true });
  t.teardown(async () => {
    await reader.close();
    await writer.close();
  });
  const readerBefore = reader.contentVersion!();
  const writerBefore = writer.contentVersion!();
  await reader.getRecord('a');
  await reader.findVersions({ workKeys: ['x'], order: 'relevance', offset: 0, limit: 20 });
  t.is(reader.contentVersion!(), readerBefore);
  t.is(writer.contentVersion!(), writerBefore);

  await writer.load([{ id: 'b', title: 'B', author: 'Author' }]);
  t.not(writer.contentVersion!(), writerBefore, 'its own load, at once');
  t.is(reader.contentVersion!(), readerBefore, 'another connection\'s commit is read once an event-loop turn');
  await new Promise(setImmediate);
  t.not(reader.contentVersion!(), readerBefore, 'and seen on the next turn');

  const afterLoad = writer.contentVersion!();
  await t.throwsAsync(writer.load([{ id: 'c', title: 'C' }, { nope: true }]));
  t.not(writer.contentVersion!(), afterLoad, 'a load stopped by a bad document has still committed its first batch');
  await reader.close();
  t.throws(() => reader.contentVersion!(), { message: /after close/ });
});

test('replaced and deleted records take their key rows with them, and keys no record has any more', async (t) => {
  const path = newFile('replace-delete');
  const index = openEmbeddedIndex({ path, create: true });
  await index.load([
    { id: 'r1', title: 'Work', author: 'A', last_indexed: '2025-01-01T00:00:00Z' },
    { id: 'r2', title: 'Work', author: 'A', last_indexed: '2025-01-02T00:00:00Z' },
    { id: 'r3', title: 'Other', author: 'B', last_indexed: '2025-01-03T00:00:00Z' },
  ]);
  await index.load([{ id: 'r1', title: 'Another work', author: 'A', last_indexed: '2025-02-01T00:00:00Z' }]);
  const writer = index.openWriter();
  await writer.delete(['r2', 'r3']);
  await writer.close();
  const tables = new Database(path, { readonly: true });
  t.deepEqual(tables.prepare('SELECT w.key, k.record_id, k.last_indexed FROM records_by_key AS k JOIN work_keys AS w USING (key_id)').all(), [
    { key: 'AT a anotherwork', record_id: 'r1', last_indexed: Date.parse('2025-02-01T00:00:00Z') },
  ], 'the replaced record\'s old keys and the deleted records\' keys are gone');
  t.deepEqual(tables.prepare('SELECT key FROM work_keys').all(), [{ key: 'AT a anotherwork' }], 'keys of no record are dropped');
  tables.close();
  t.deepEqual(Object.fromEntries(await index.countVersions(['r1', 'r2'])), { r1: 1 });
  await index.close();
});

// Two work keys with the same 32-bit hash (found by search): the second gets the next number of the hash.
const SAME_HASH = ['AT author898759 title', 'AT author1230204 title'] as const;

test('work keys sharing a hash stay apart, in a bulk load and in a load into an index holding records', async (t) => {
  t.is(workKeyHash(SAME_HASH[0]), workKeyHash(SAME_HASH[1]), 'the fixture keys share a hash');
  const [first, second] = SAME_HASH;
  const documents = [
    { id: 'a1', work_keys_str_mv: [first], last_indexed: '2025-01-01T00:00:00Z' },
    { id: 'a2', work_keys_str_mv: [first, 'OTHER'], last_indexed: '2025-01-02T00:00:00Z' },
    { id: 'b1', work_keys_str_mv: ['OTHER 2', second], last_indexed: '2025-01-03T00:00:00Z' },
  ];
  const bulk = openEmbeddedIndex({ path: ':memory:' });
  await bulk.load(documents);
  const upserted = openEmbeddedIndex({ path: ':memory:' });
  await upserted.load([{ id: 'seed', title: 'Seed' }]);
  await upserted.load([...documents].reverse());
  for (const [name, index] of [['bulk', bulk], ['upserts', upserted]] as const) {
    const versionsOf = async (keys: string[]) => ids(await index.findVersions({ workKeys: keys, order: 'relevance', offset: 0, limit: 10 }));
    t.deepEqual(await versionsOf([first]), ['a1', 'a2'], name);
    t.deepEqual(await versionsOf([second]), ['b1'], name);
    t.deepEqual((await index.getRecord('b1'))?.workKeys, ['OTHER 2', second], `${name}: a record's keys in its order`);
    t.deepEqual(Object.fromEntries(await index.countVersions(['a1', 'b1'])), { a1: 2, b1: 1 }, name);
    // Through getRecord, as listVersions asks: the key ids remembered for the record's list.
    const b1 = await index.getRecord('b1');
    t.deepEqual(ids(await index.findVersions({ workKeys: b1!.workKeys, order: 'last-indexed', offset: 0, limit: 10 })), ['b1'], name);
    const a2 = await index.getRecord('a2');
    t.deepEqual(ids(await index.findVersions({ workKeys: a2!.workKeys, order: 'last-indexed', offset: 0, limit: 10 })), ['a2', 'a1'], name);
    await index.close();
  }
});

test('versions listed on a page read their work keys when asked for', async (t) => {
  const index = openEmbeddedIndex({ path: ':memory:' });
  await index.load([
    { id: 'v1', work_keys_str_mv: ['K', 'K2'] },
    { id: 'v2', work_keys_str_mv: ['K3', 'K'] },
  ]);
  const page = await index.findVersions({ workKeys: ['K'], order: 'relevance', offset: 0, limit: 10 });
  t.deepEqual(page.records.map((record) => record.workKeys), [['K', 'K2'], ['K3', 'K']]);
  await index.close();
});

test('a large work read again gives the pages the statement gives, and sees every write, own or another connection\'s', async (t) => {
  const path = newFile('large-work');
  // 300 records of one work (more key rows than the small-work path reads), last_indexed in runs of three
  // equal instants (ties ordered by id).
  const documents = Array.from({ length: 300 }, (_, i) => ({
    id: `w${String((i * 37) % 300).padStart(3, '0')}`, title: 'Big', author: 'Many',
    last_indexed: new Date(Date.UTC(2025, 0, 1) + Math.floor(i / 3) * 60_000).toISOString(),
  }));
  const writer = openEmbeddedIndex({ path, create: true });
  await writer.load(documents);
  const reader = openEmbeddedIndex({ path, readOnly: true });
  t.teardown(async () => {
    await reader.close();
    await writer.close();
  });
  const keys = (await reader.getRecord('w000'))!.workKeys;
  const expected = (order: 'last-indexed' | 'relevance') => [...documents]
    .sort(order === 'relevance' ? (a, b) => (a.id < b.id ? -1 : 1) : (a, b) => b.last_indexed.localeCompare(a.last_indexed) || (a.id < b.id ? -1 : 1))
    .map((d) => d.id);
  for (const order of ['last-indexed', 'relevance'] as const) {
    for (let round = 0; round < 2; round++) {
      const pages = [];
      for (let offset = 0; offset < 310; offset += 50) pages.push(await reader.findVersions({ workKeys: keys, order, offset, limit: 50 }));
      t.deepEqual(pages.map((page) => page.total), [300, 300, 300, 300, 300, 300, 300], `${order}, round ${round}`);
      t.deepEqual(pages.flatMap(ids), expected(order), `${order}, round ${round}`);
    }
  }
  await writer.load([{ id: 'w999', title: 'Big', author: 'Many', last_indexed: '2026-01-01T00:00:00Z' }]);
  const afterOther = await reader.findVersions({ workKeys: keys, order: 'last-indexed', offset: 0, limit: 2 });
  t.is(afterOther.total, 301, 'another connection\'s commit');
  t.deepEqual(ids(afterOther), ['w999', expected('last-indexed')[0]]);
  await writer.findVersions({ workKeys: keys, order: 'last-indexed', offset: 0, limit: 2 });
  const deleting = writer.openWriter();
  await deleting.delete(['w999']);
  await deleting.close();
  t.is((await writer.findVersions({ workKeys: keys, order: 'last-indexed', offset: 0, limit: 2 })).total, 300, 'its own write');
});

test('a large key\'s remembered records and what a record\'s small keys add make the pages the statement makes', async (t) => {
  const at = (minutes: number) => new Date(Date.UTC(2025, 0, 1) + minutes * 60_000).toISOString();
  // 300 records of one work (its key names all of them, more than the small-work path reads); every tenth
  // also has a second author whose key also names two records outside the work, one newer than all, one
  // tied with a record of the work.
  const documents: Array<Record<string, unknown>> = Array.from({ length: 300 }, (_, i) => ({
    id: `big-${String(i).padStart(3, '0')}`, title: 'Big', author: 'Many',
    ...(i % 10 === 0 ? { author2: 'Other' } : {}), last_indexed: at(i % 40),
  }));
  documents.push({ id: 'outside-new', title: 'Big', author: 'Other', last_indexed: at(1000) });
  documents.push({ id: 'big-0105x', title: 'Big', author: 'Other', last_indexed: at(5) });
  // VuFind's keys: an added entry's name makes a key of its own (the extended profile leaves it out beside a main entry).
  const index = openEmbeddedIndex({ path: ':memory:', keyProfile: 'vufind' });
  await index.load(documents);
  const record = (await index.getRecord('big-010'))!;
  t.deepEqual(record.workKeys, ['AT many big', 'AT other big']);
  const versions = documents.map((d) => ({ id: d.id as string, lastIndexed: d.last_indexed as string }));
  const byId = versions.map((v) => v.id).sort();
  const newest = [...versions].sort((a, b) => b.lastIndexed.localeCompare(a.lastIndexed) || (a.id < b.id ? -1 : 1)).map((v) => v.id);
  for (const [order, expected] of [['last-indexed', newest], ['relevance', byId]] as const) {
    for (let round = 0; round < 2; round++) {
      const seen: string[] = [];
      for (let offset = 0; offset < 310; offset += 20) {
        const page = await index.findVersions({ workKeys: record.workKeys, order, offset, limit: 20 });
        t.is(page.total, 302, `${order} ${offset}`);
        seen.push(...ids(page));
      }
      t.deepEqual(seen, expected, `${order}, round ${round}`);
    }
  }
  // A record of the work without the second author: the work alone.
  t.is((await index.findVersions({ workKeys: ['AT many big'], order: 'relevance', offset: 0, limit: 5 })).total, 300);
  await index.close();
});

test('a large work\'s page with its facets, cut from its remembered records, is the page and the facets of every record read whole', async (t) => {
  const at = (minutes: number) => new Date(Date.UTC(2025, 0, 1) + minutes * 60_000).toISOString();
  // 300 records of one work in a few formats, languages, places and years; every tenth also has a second
  // author whose key names two records outside the work, in a format and a year no record of the work has.
  const documents: Array<Record<string, unknown>> = Array.from({ length: 300 }, (_, i) => ({
    id: `big-${String(i).padStart(3, '0')}`, title: 'Big', author: 'Many', format: i % 3 === 0 ? ['Book', 'eBook'] : 'Book',
    language: ['English', 'Portuguese', 'Spanish'][i % 7 % 3], publishDate: String(1900 + (i % 45)), institution: `Library ${i % 35}`,
    ...(i % 10 === 0 ? { author2: 'Other' } : {}), last_indexed: at(i % 40),
  }));
  documents.push({ id: 'outside-new', title: 'Big', author: 'Other', format: 'Map', publishDate: '1700', last_indexed: at(1000) });
  documents.push({ id: 'big-0105x', title: 'Big', author: 'Other', format: 'Map', publishDate: '1701', last_indexed: at(5) });
  const index = openEmbeddedIndex({ path: ':memory:', keyProfile: 'vufind' });
  t.teardown(() => index.close());
  await index.load(documents);
  const all = await Promise.all(documents.map(async (d) => (await index.getRecord(d.id as string))!));
  const work = all.filter((record) => record.workKeys.includes('AT many big'));
  for (const [id, versions] of [['big-010', all], ['big-011', work]] as const) {
    for (let round = 0; round < 3; round++) {
      for (const order of ['last-indexed', 'relevance'] as const) {
        for (const [offset, limit] of [[0, 20], [280, 50], [0, 0]] as const) {
          const record = (await index.getRecord(id))!;
          const query = { order, offset, limit, facets: true };
          const expected = pageOfWork(versions, query);
          const ofRecord = await index.findVersionsOf(record, query);
          t.deepEqual({ ...ofRecord, records: ids(ofRecord) }, { ...expected, records: ids(expected) }, `${id} ${order} ${offset}/${limit}, round ${round}`);
          t.deepEqual(ofRecord.facets, expected.facets);
          const byKeys = await index.findVersions({ workKeys: record.workKeys, ...query });
          t.deepEqual({ ...byKeys, records: ids(byKeys) }, { ...expected, records: ids(expected) }, `by keys: ${id} ${order} ${offset}/${limit}, round ${round}`);
        }
      }
    }
  }
  t.true(all.length > 300);
});

test('a large work read whole for its facets is remembered with the facets counted then: later pages, cut from its list, are the pages of every record read whole', async (t) => {
  const at = (minutes: number) => new Date(Date.UTC(2025, 0, 1) + minutes * 60_000).toISOString();
  // 280 records of one work (its keys name all of them), in a few formats, languages and years.
  const documents: Array<Record<string, unknown>> = Array.from({ length: 280 }, (_, i) => ({
    id: `mid-${String(i).padStart(3, '0')}`, title: 'Middle', author: 'Many', format: i % 4 === 0 ? ['Book', 'eBook'] : 'Book',
    language: ['English', 'German', 'French'][i % 5 % 3], publishDate: String(1950 + (i % 17)), last_indexed: at(i % 30),
  }));
  const index = openEmbeddedIndex({ path: ':memory:', keyProfile: 'vufind' });
  t.teardown(() => index.close());
  await index.load(documents);
  const work = await Promise.all(documents.map(async (d) => (await index.getRecord(d.id as string))!));
  for (const [id, order, offset, limit] of [['mid-005', 'relevance', 0, 20], ['mid-006', 'relevance', 260, 20], ['mid-007', 'last-indexed', 20, 20], ['mid-008', 'relevance', 0, 0]] as const) {
    await new Promise((resolve) => setImmediate(resolve));
    const record = (await index.getRecord(id))!;
    const query = { order, offset, limit, facets: true };
    const expected = pageOfWork(work, query);
    const page = await index.findVersionsOf(record, query);
    t.deepEqual({ ...page, records: ids(page) }, { ...expected, records: ids(expected) }, `${id} ${order} ${offset}/${limit}`);
  }
});

test('a work of 101-256 records read whole for its facets gives its other records the same first page, any other page read whole, and sees every write', async (t) => {
  const at = (minutes: number) => new Date(Date.UTC(2025, 0, 1) + minutes * 60_000).toISOString();
  // 150 records of one work (its keys name all of them), in a few formats, languages and years.
  const documentOf = (i: number, format: unknown = i % 4 === 0 ? ['Book', 'eBook'] : 'Book'): Record<string, unknown> => ({
    id: `kept-${String(i).padStart(3, '0')}`, title: 'Kept', author: 'Often', format,
    language: ['English', 'German', 'French'][i % 5 % 3], publishDate: String(1950 + (i % 17)), last_indexed: at(i % 30),
  });
  const index = openEmbeddedIndex({ path: ':memory:', keyProfile: 'vufind' });
  t.teardown(() => index.close());
  await index.load(Array.from({ length: 150 }, (_, i) => documentOf(i)));
  const pagesOf = async (asked: ReadonlyArray<readonly [id: string, order: 'relevance' | 'last-indexed', offset: number, limit: number]>) => {
    const work = await Promise.all(Array.from({ length: 150 }, async (_, i) => (await index.getRecord(`kept-${String(i).padStart(3, '0')}`))!));
    for (const [id, order, offset, limit] of asked) {
      await new Promise((resolve) => setImmediate(resolve));
      const query = { order, offset, limit, facets: true };
      const page = await index.findVersionsOf((await index.getRecord(id))!, query);
      t.deepEqual(page, pageOfWork(work, query), `${id} ${order} ${offset}/${limit}`);
    }
  };
  await pagesOf([['kept-005', 'relevance', 0, 20], ['kept-006', 'relevance', 0, 20], ['kept-007', 'relevance', 5, 10], ['kept-008', 'relevance', 20, 20],
    ['kept-009', 'last-indexed', 0, 20], ['kept-010', 'relevance', 0, 20], ['kept-011', 'last-indexed', 0, 20], ['kept-012', 'relevance', 0, 0], ['kept-013', 'last-indexed', 0, 20]]);
  // A record past the first page changed: the next first page's facets are the work's as it is now.
  await index.load([documentOf(100, 'Map')]);
  await pagesOf([['kept-014', 'relevance', 0, 20], ['kept-015', 'last-indexed', 0, 20]]);
});

test('the first page a work of 101-256 records keeps is not given after another connection\'s commit', async (t) => {
  const path = newFile('kept-first-page');
  const documentOf = (i: number, format: string): Record<string, unknown> => ({
    id: `kept-${String(i).padStart(3, '0')}`, title: 'Kept', author: 'Often', format, publishDate: String(1950 + (i % 17)),
    last_indexed: new Date(Date.UTC(2025, 0, 1) + (i % 30) * 60_000).toISOString(),
  });
  const writer = openEmbeddedIndex({ path, create: true });
  await writer.load(Array.from({ length: 150 }, (_, i) => documentOf(i, 'Book')));
  const reader = openEmbeddedIndex({ path, readOnly: true });
  t.teardown(async () => {
    await reader.close();
    await writer.close();
  });
  const query = { order: 'relevance', offset: 0, limit: 20, facets: true } as const;
  const formatsOf = async (id: string) => {
    await new Promise((resolve) => setImmediate(resolve));
    return (await reader.findVersionsOf((await reader.getRecord(id))!, query)).facets?.format;
  };
  t.deepEqual(await formatsOf('kept-005'), [{ value: 'Book', count: 150 }]);
  t.deepEqual(await formatsOf('kept-006'), [{ value: 'Book', count: 150 }]);
  // A record past the first page changed by another connection.
  await writer.load([documentOf(100, 'Map')]);
  t.deepEqual(await formatsOf('kept-007'), [{ value: 'Book', count: 149 }, { value: 'Map', count: 1 }]);
});

test('a work read whole for its page\'s facets gives the page and the facets of every record, wherever the page falls', async (t) => {
  // 60 records of one work, fewer than a large work has: read whole for every page with facets. Their
  // documents hold what the stored text scan meets: escapes, lists, null, missing facet fields.
  const at = (minutes: number) => new Date(Date.UTC(2025, 0, 1) + minutes * 60_000).toISOString();
  const documents: Array<Record<string, unknown>> = Array.from({ length: 60 }, (_, i) => ({
    id: `mid-${String(i).padStart(2, '0')}`, title: 'Mid', author: 'Middle', ...(i % 5 === 0 ? { edition: 'A "quoted" \\ edition {' } : {}),
    format: i % 4 === 0 ? ['Book', 'eBook'] : i % 4 === 1 ? 'Book' : i % 4 === 2 ? null : 'Map "A"',
    ...(i % 3 === 0 ? { language: ['English', 'English '] } : {}), publishDate: i % 6 === 0 ? '[1899?]' : String(1950 + (i % 9)),
    institution: `Library ${i % 7}\u00e9`, last_indexed: at(i % 13),
  }));
  const index = openEmbeddedIndex({ path: ':memory:', keyProfile: 'vufind' });
  t.teardown(() => index.close());
  await index.load(documents);
  const work = await Promise.all(documents.map(async (d) => (await index.getRecord(d.id as string))!));
  t.true(work.every((record) => record.workKeys.join() === work[0]!.workKeys.join()));
  for (const order of ['last-indexed', 'relevance'] as const) {
    for (const [offset, limit] of [[0, 20], [40, 20], [50, 20], [75, 20], [0, 0], [60, 0]] as const) {
      const query = { order, offset, limit, facets: true };
      const expected = pageOfWork(work, query);
      const ofRecord = await index.findVersionsOf((await index.getRecord('mid-07'))!, query);
      t.deepEqual(ofRecord, expected, `${order} ${offset}/${limit}`);
      const byKeys = await index.findVersions({ workKeys: work[7]!.workKeys, ...query });
      t.deepEqual(byKeys, expected, `by keys: ${order} ${offset}/${limit}`);
    }
  }
});

test('a load that names no batch size writes in the batches its writer prefers: 1,000 into an empty index, 5,000 into a filled one', async (t) => {
  const index = openEmbeddedIndex({ path: newFile('preferred-batches'), create: true });
  const documents = (count: number, prefix: string) => Array.from({ length: count }, (_, i) => ({ id: `${prefix}${i}`, title: `Title ${i % 40}`, author: 'A' }));
  // A writer takes its turn until closed: each one opened to be asked is closed.
  const preferredNow = async () => {
    const writer = index.openWriter();
    await writer.close();
    return writer.preferredBatchSize;
  };
  t.is(await preferredNow(), 1000);
  const intoEmpty: number[] = [];
  await index.load(documents(2500, 'e'), { onProgress: (read) => intoEmpty.push(read) });
  t.deepEqual(intoEmpty, [1000, 2000, 2500]);
  t.is(await preferredNow(), 5000);
  const intoFilled: number[] = [];
  await index.load(documents(6000, 'f'), { onProgress: (read) => intoFilled.push(read) });
  t.deepEqual(intoFilled, [5000, 6000]);
  const named: number[] = [];
  await index.load(documents(5, 'n'), { batchSize: 2, onProgress: (read) => named.push(read) });
  t.deepEqual(named, [2, 4, 5], 'a batch size given wins');
  t.is(await index.count(), 8505);
  await index.close();
});
