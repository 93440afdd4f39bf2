/**
 * Plain mistakes in calling the loading API answer with InvalidOptionError naming what is wrong, never a
 * TypeError from inside: runIngest without a clock or a writer, load() and loadDocuments() given something
 * that is not a sequence of documents, an index opened where no file can be (a missing file:
 * test/adapters/sqlite/indexFileMissing.test.ts).
 */
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidOptionError } from '../../src/errors.js';
import { openEmbeddedIndex } from '../../src/entries/sqlite.js';
import { loadDocuments } from '../../src/ingest/loadDocuments.js';
import { runIngest } from '../../src/ingest/pipeline.js';
import type { SourceItem } from '../../src/record/sourceRecord.js';

const folder = mkdtempSync(join(tmpdir(), 'load-arguments-'));
test.after.always(() => rmSync(folder, { recursive: true, force: true }));

const oneRecord: SourceItem<unknown>[] = [{ kind: 'record', position: { source: 'test', recordNumber: 1 }, record: { id: 'a', title: 'A' } }];

test('runIngest without now, writer, items or options names the option, and writes nothing', async (t) => {
  const index = openEmbeddedIndex({ path: ':memory:' });
  const writer = index.openWriter();
  const base = { items: oneRecord, toDocument: (record: unknown) => record, writer, now: () => new Date('2025-01-01T00:00:00Z') };
  const cases: Array<[string, unknown]> = [
    ['now', { ...base, now: undefined }],
    ['now', { ...base, now: new Date() }],
    ['writer', { ...base, writer: undefined }],
    ['writer', { ...base, writer: {} }],
    ['items', { ...base, items: 42 }],
    ['toDocument', { ...base, toDocument: 'json' }],
    ['batchSize', { ...base, batchSize: 0 }],
    ['options', undefined],
  ];
  for (const [option, options] of cases) {
    const error = await t.throwsAsync(runIngest(options as Parameters<typeof runIngest>[0]), { instanceOf: InvalidOptionError }, option);
    t.is(error?.code, 'INVALID_OPTION');
    t.is(error?.option, option);
  }
  await writer.close();
  t.is(await index.count(), 0);
  await index.close();
});

test('load() and loadDocuments() given what is not a sequence of documents name "documents"; the index stays usable', async (t) => {
  const index = openEmbeddedIndex({ path: ':memory:' });
  for (const documents of [{ id: 'x', title: 'One document, not a list' }, undefined, 42, 'a string', Buffer.from('{"id":"b"}'), null]) {
    const error = await t.throwsAsync(index.load(documents as never), { instanceOf: InvalidOptionError });
    t.is(error?.option, 'documents');
    const direct = await t.throwsAsync(loadDocuments(index.openWriter(), documents as never), { instanceOf: InvalidOptionError });
    t.is(direct?.option, 'documents');
  }
  const badOptions = await t.throwsAsync(index.load([{ id: 'a' }], { onRejected: 'log' } as never), { instanceOf: InvalidOptionError });
  t.is(badOptions?.option, 'onRejected');
  // The refused calls took no writer turn, or gave theirs back: a load still runs.
  t.deepEqual(await index.load([{ id: 'a', title: 'A' }]), { read: 1, loaded: 1, rejected: 0 });
  t.deepEqual(await loadDocuments(index.openWriter(), [{ id: 'b', title: 'B' }]), { read: 1, loaded: 1, rejected: 0 });
  t.is(await index.count(), 2);
  await index.close();
});

test('an index opened in a missing folder or on a folder is refused naming the path', (t) => {
  const inMissingFolder = join(folder, 'no-such-folder', 'catalog.sqlite');
  for (const [options, named] of [
    [{ path: inMissingFolder }, join(folder, 'no-such-folder')],
    [{ path: inMissingFolder, readOnly: true }, join(folder, 'no-such-folder')],
    [{ path: folder }, folder],
  ] as const) {
    const error = t.throws(() => openEmbeddedIndex(options), { instanceOf: InvalidOptionError });
    t.is(error?.option, 'path');
    t.true(error!.message.includes(named), error!.message);
  }
  for (const options of [undefined, {}, { path: 42 }, Buffer.from('x')]) {
    t.is(t.throws(() => openEmbeddedIndex(options as never), { instanceOf: InvalidOptionError })?.option, 'path');
  }
});
