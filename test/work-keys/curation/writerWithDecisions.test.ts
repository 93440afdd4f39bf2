import test from 'ava';
import type { RecordDocument } from '../../../src/record/catalogRecord.js';
import { contentFingerprintOf } from '../../../src/record/recordContent.js';
import { runIngest, type IngestWriter, type StoredContent, type WriteRefusal } from '../../../src/ingest/pipeline.js';
import type { CurationDecision } from '../../../src/work-keys/curation/curationDecisions.js';
import type { SourceItem } from '../../../src/record/sourceRecord.js';
import { writerWithDecisions } from '../../../src/writerWithDecisions.js';

/** A host's writer written as a class: its methods live on the prototype. */
class RecordingWriter implements IngestWriter {
  readonly description = 'recording';
  readonly preferredBatchSize = 2;
  readonly written: RecordDocument[] = [];
  closed = false;
  constructor(private readonly stored: Map<string, StoredContent> = new Map()) {}
  async storedContentOf(ids: readonly string[]) {
    return new Map(ids.flatMap((id) => (this.stored.has(id) ? [[id, this.stored.get(id)!] as const] : [])));
  }
  async put(batch: readonly RecordDocument[]): Promise<WriteRefusal[]> {
    this.written.push(...batch);
    return [];
  }
  async delete() {}
  async close() {
    this.closed = true;
  }
}

const DECISIONS: CurationDecision[] = [
  { id: 'm1', action: 'merge', records: ['hobbit-1937', 'hobbit-2012'], by: 'anna', at: '2026-11-25T15:00:00.000Z', note: 'one novel' },
  { id: 's2', action: 'split', records: ['chopin'], by: 'anna', at: '2026-11-25T15:00:00.000Z', note: 'generic uniform title' },
];
const DOCUMENTS = [
  { id: 'hobbit-1937', title: 'The hobbit', author: 'Tolkien, J. R. R.' },
  { id: 'hobbit-2012', title: 'The hobbit', author: 'Tolkien, John Ronald Reuel' },
  { id: 'chopin', title: 'Piano concertos', title_uniform: 'Concertos, piano', author: 'Chopin, Frédéric' },
  { id: 'beethoven', title: 'Piano concertos', title_uniform: 'Concertos, piano', author: 'Beethoven, Ludwig van' },
];
const items = (): Array<SourceItem<unknown>> => DOCUMENTS.map((record, i) => ({ kind: 'record', position: { source: 'test', recordNumber: i + 1 }, record }));
const CLOCK = new Date('2026-01-01T00:00:00Z');

test('any writer fed by the pipeline writes the keys the decisions say, and keeps its own members', async (t) => {
  const inner = new RecordingWriter();
  const heard: Array<[string, readonly string[]]> = [];
  const writer = writerWithDecisions(inner, DECISIONS, (id, own) => heard.push([id, own]));
  t.is(writer.preferredBatchSize, 2);
  await runIngest({ items: items(), toDocument: (record) => record, writer, now: () => CLOCK });
  t.true(inner.closed);
  const keys = Object.fromEntries(inner.written.map((d) => [d.id, d.work_keys_str_mv]));
  t.deepEqual(keys, {
    'hobbit-1937': ['AT tolkienjrr thehobbit', 'AT tolkienjrr hobbit', 'GL m1'],
    'hobbit-2012': ['AT tolkienjohnronaldreuel thehobbit', 'AT tolkienjohnronaldreuel hobbit', 'GL m1'],
    chopin: [],
    beethoven: ['UT concertospiano', 'AT beethovenludwigvan pianoconcertos'],
  });
  t.deepEqual(heard.map(([id]) => id), ['hobbit-1937', 'hobbit-2012', 'chopin']);
  t.deepEqual(heard[2]?.[1], ['UT concertospiano', 'AT chopinfrederic pianoconcertos'], 'its own keys, before the split');
  t.is(writerWithDecisions(inner, []), inner, 'no decisions: the writer itself');
});

test('a curated record loaded again unchanged keeps its stored last_indexed', async (t) => {
  const first = new RecordingWriter();
  await runIngest({ items: items(), toDocument: (record) => record, writer: writerWithDecisions(first, DECISIONS), now: () => CLOCK });
  const stored = new Map(first.written.map((d) => [d.id, { fingerprint: contentFingerprintOf(d), lastIndexed: d.last_indexed as string }]));
  const again = new RecordingWriter(stored);
  await runIngest({ items: items(), toDocument: (record) => record, writer: writerWithDecisions(again, DECISIONS), now: () => new Date('2026-06-01T00:00:00Z') });
  t.deepEqual(again.written.map((d) => d.last_indexed), first.written.map((d) => d.last_indexed));
  const uncurated = new RecordingWriter(stored);
  await runIngest({ items: items(), toDocument: (record) => record, writer: uncurated, now: () => new Date('2026-06-01T00:00:00Z') });
  t.is(uncurated.written.find((d) => d.id === 'chopin')?.last_indexed, '2026-06-01T00:00:00.000Z', 'without the decisions its keys differ: new content');
});
