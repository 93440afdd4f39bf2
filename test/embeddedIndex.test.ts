import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidRecordDocumentError } from '../src/core/errors.js';
import { openEmbeddedIndex } from '../src/index/embeddedIndex.js';
import { indexBehaviourSuite } from './indexBehaviour/indexBehaviourSuite.js';

indexBehaviourSuite(test, 'embedded', async (documents) => {
  const index = openEmbeddedIndex({ path: ':memory:' });
  await index.load(documents);
  return index;
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
    const writer = openEmbeddedIndex({ path });
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
