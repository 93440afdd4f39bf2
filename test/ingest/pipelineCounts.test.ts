/**
 * The pipeline's counts (src/ingest/pipeline.ts) against a writer that, like Solr before a commit, does
 * not show what this run wrote to its reads: new, changed, unchanged, not compared, duplicates (also two
 * in one batch), deletions held and not held (a record written earlier in the run counts as held), and
 * deletions a mapping step answers (recordDeletion.ts), in source order.
 */
import test from 'ava';
import { contentFingerprintOf } from '../../src/record/recordContent.js';
import type { RecordDocument } from '../../src/record/catalogRecord.js';
import { runIngest, type IngestDuplicate, type IngestWriter, type StoredContent } from '../../src/ingest/pipeline.js';
import { recordDeletion } from '../../src/ingest/recordDeletion.js';
import type { SourceItem } from '../../src/record/sourceRecord.js';

const STORED_AT = '2020-01-01T00:00:00.000Z';
const stored = (document: RecordDocument): StoredContent => ({ fingerprint: contentFingerprintOf(document), lastIndexed: STORED_AT });

/** Holds `before` from the start; writes and deletions are logged, never shown to storedContentOf. */
function uncommittedWriter(before: readonly RecordDocument[]) {
  const held = new Map(before.map((document) => [document.id, stored(document)]));
  const log: string[] = [];
  const writer: IngestWriter = {
    description: 'test writer',
    storedContentOf: async (ids) => new Map(ids.flatMap((id) => (held.has(id) ? [[id, held.get(id)!] as const] : []))),
    put: async (batch) => { log.push(`put ${batch.map((d) => `${d.id}@${d.last_indexed ?? ''}`).join(' ')}`); return []; },
    delete: async (ids) => { log.push(`delete ${ids.join(' ')}`); },
    close: async () => undefined,
  };
  return { writer, log };
}

type Source = RecordDocument | { withdrawn: string };
const items = (sources: readonly Source[]): Array<SourceItem<Source>> =>
  sources.map((record, i) => ({ kind: 'record', position: { source: 'test', recordNumber: i + 1 }, record }));
const now = new Date('2026-03-01T00:00:00Z');

test('new, changed, unchanged and not compared are kept apart; an unchanged record keeps its stored last_indexed', async (t) => {
  const { writer, log } = uncommittedWriter([{ id: 'same', title: 'Same' }, { id: 'edited', title: 'Old' }]);
  const summary = await runIngest<Source>({
    items: items([{ id: 'same', title: 'Same' }, { id: 'edited', title: 'New' }, { id: 'fresh', title: 'Fresh' }, { id: 'own', title: 'Own', last_indexed: '2024-05-05T00:00:00Z' }]),
    toDocument: (record) => record,
    writer,
    now: () => now,
  });
  t.like(summary, { read: 4, loaded: 4, added: 1, changed: 1, unchanged: 1, notCompared: 1, duplicates: 0, deleted: 0, deletionsNotHeld: 0 });
  t.regex(log[0]!, new RegExp(`^put same@${STORED_AT} edited@2026-03-01`));
});

test('duplicates, also within one batch, are counted and reported once each; the first of each id is classified', async (t) => {
  const { writer } = uncommittedWriter([{ id: 'x', title: 'X' }]);
  const duplicates: IngestDuplicate[] = [];
  const summary = await runIngest<Source>({
    items: items([{ id: 'x', title: 'X' }, { id: 'x', title: 'X2' }, { id: 'y', title: 'Y' }, { id: 'x', title: 'X3' }, { id: 'y', title: 'Y' }]),
    toDocument: (record) => record,
    writer,
    now: () => now,
    batchSize: 2,
    onDuplicate: (duplicate) => duplicates.push(duplicate),
  });
  t.like(summary, { loaded: 5, added: 1, unchanged: 1, changed: 0, duplicates: 3 });
  t.deepEqual(duplicates.map((d) => [d.id, d.position.recordNumber]), [['x', 2], ['x', 4], ['y', 5]]);
});

test('deletions: an id written earlier in the run counts as held though the writer does not show it; an id named twice is one deletion; unknown ids are counted apart', async (t) => {
  const { writer, log } = uncommittedWriter([{ id: 'old', title: 'Old' }]);
  const sources: Array<SourceItem<Source>> = [
    ...items([{ id: 'a', title: 'A' }, { withdrawn: 'a' }, { withdrawn: 'old' }, { withdrawn: 'never' }]),
    { kind: 'deleted', position: { source: 'test', recordNumber: 5 }, id: 'old' },
  ];
  const summary = await runIngest<Source>({
    items: sources,
    toDocument: (record) => ('withdrawn' in record ? recordDeletion(record.withdrawn as string) : record),
    writer,
    now: () => now,
  });
  t.like(summary, { read: 5, loaded: 1, added: 1, deleted: 2, deletionsNotHeld: 1 });
  t.deepEqual(log.map((line) => line.split(' ')[0]), ['put', 'delete'], 'the put comes before the deletions that follow it');
  t.is(log[1], 'delete a old never');
});
