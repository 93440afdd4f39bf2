import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reusedRecords } from '../../../src/adapters/sqlite/reusedRecords.js';
import type { CatalogRecord } from '../../../src/record/catalogRecord.js';
import type { RecordVersionsQuery } from '../../../src/ports.js';
import { openEmbeddedIndex, type EmbeddedIndex } from '../../../src/entries/sqlite.js';

const folder = mkdtempSync(join(tmpdir(), 'versions-reused-'));
test.after.always(() => rmSync(folder, { recursive: true, force: true }));
let files = 0;
const newFile = (name: string) => join(folder, `${(files += 1)}-${name}.sqlite`);

const at = (minutes: number) => new Date(Date.UTC(2025, 0, 1) + minutes * 60_000).toISOString();
/** One work of `size` records (a large work's pages reuse records), each with its own year and format. */
const largeWork = (size: number) => Array.from({ length: size }, (_, i) => ({
  id: `big-${String(i).padStart(3, '0')}`, title: 'Big', author: 'Many', format: i % 2 === 0 ? 'Book' : ['Book', 'eBook'],
  publishDate: String(1900 + i), last_indexed: at(i),
}));
const FEED: RecordVersionsQuery = { order: 'last-indexed', offset: 0, limit: 50 };
const PAGE: RecordVersionsQuery = { order: 'relevance', offset: 0, limit: 20, facets: true };
/** The record a bulk load writes in the last row (the records of one work are in id order). */
const lastId = (size: number) => `big-${String(size - 1).padStart(3, '0')}`;
/** A page that shows the record of the last row: the feed's first (the newest), the page's last. */
const lastPageOf = (query: RecordVersionsQuery, size: number): RecordVersionsQuery => (query.order === 'relevance' ? { ...query, offset: size - query.limit } : query);

/** A page of the versions of `id`, as listVersions asks for it, in an event-loop turn of its own. */
async function pageOf(index: EmbeddedIndex, id: string, query: RecordVersionsQuery) {
  await new Promise((resolve) => setImmediate(resolve));
  const record = (await index.getRecord(id))!;
  return index.findVersionsOf(record, query);
}
const years = (record: CatalogRecord) => `${record.id} ${record.publishDates.join()}`;

// 150 records: paged from the work's key rows; 300: from a large key's remembered records.
for (const size of [150, 300]) {
  for (const [view, query] of [['feed', FEED], ['page', PAGE]] as const) {
    // A work of 150 records read whole for the page's facets decodes its records afresh (versionsReads.ts).
    const reused = view === 'feed' || size > 256;
    test(`a work of ${size} records, ${view}: ${reused ? 'a record given again by a later answer is the same object, and ' : ''}a write of its own connection is seen at once`, async (t) => {
      const documents = largeWork(size);
      const index = openEmbeddedIndex({ path: ':memory:' });
      t.teardown(() => index.close());
      await index.load(documents);
      // The first page of a large work's facets reads it whole, and remembers it for the next.
      await pageOf(index, 'big-009', query);
      const first = await pageOf(index, 'big-000', query);
      const again = await pageOf(index, 'big-001', query);
      t.is(first.records.length, query.limit);
      // The requested record is this turn's own (getRecord's); the others are the records given before.
      const others = again.records.filter((record) => record.id !== 'big-001' && record.id !== 'big-000');
      t.is(others.every((record) => first.records.includes(record)), reused);
      // The record of the last row: replaced, it is written under the same row (a new row is the last + 1).
      const last = await pageOf(index, 'big-001', lastPageOf(query, size));
      const shown = last.records.find((record) => record.id === lastId(size))!;
      await index.load([{ ...documents.find((d) => d.id === shown.id)!, publishDate: '1800' }]);
      const after = await pageOf(index, 'big-001', lastPageOf(query, size));
      t.deepEqual(after.records.find((record) => record.id === shown.id)?.publishDates, ['1800']);
      t.false(after.records.includes(shown));
    });
  }

  test(`a work of ${size} records: a write by another connection is seen by the next answer`, async (t) => {
    const path = newFile(`other-${size}`);
    const documents = largeWork(size);
    const writer = openEmbeddedIndex({ path, create: true });
    await writer.load(documents);
    // A server's read-only open beside the loading one.
    const reader = openEmbeddedIndex({ path, readOnly: true });
    t.teardown(() => Promise.all([reader.close(), writer.close()]));
    for (const query of [FEED, PAGE]) {
      const lastPage = lastPageOf(query, size);
      await pageOf(reader, 'big-009', lastPage);
      const first = await pageOf(reader, 'big-000', lastPage);
      const again = await pageOf(reader, 'big-002', lastPage);
      if (query === FEED || size > 256) t.is(again.records.find((record) => record.id === lastId(size)), first.records.find((record) => record.id === lastId(size)));
      const shown = first.records.find((record) => record.id === lastId(size))!;
      await writer.load([{ ...documents.find((d) => d.id === shown.id)!, publishDate: '1800' }]);
      const after = await pageOf(reader, 'big-002', lastPage);
      t.deepEqual(after.records.map(years), first.records.map((record) => (record.id === shown.id ? `${shown.id} 1800` : years(record))));
    }
  });
}

test('a host that changes a record it was given cannot change what later answers give', async (t) => {
  const index = openEmbeddedIndex({ path: ':memory:' });
  t.teardown(() => index.close());
  await index.load(largeWork(300));
  const first = await pageOf(index, 'big-000', FEED);
  const expected = JSON.stringify(first);
  const record = first.records[2] as unknown as { title?: string; formats: string[]; publishers?: string[]; secondaryAuthors: string[] };
  t.true(Object.isFrozen(record));
  t.throws(() => {
    record.title = 'Changed by the host';
  }, { instanceOf: TypeError });
  t.throws(() => record.formats.push('Changed by the host'), { instanceOf: TypeError });
  t.throws(() => record.secondaryAuthors.push('Changed by the host'), { instanceOf: TypeError });
  t.throws(() => {
    record.publishers = ['Changed by the host'];
  }, { instanceOf: TypeError });
  t.is(JSON.stringify(await pageOf(index, 'big-000', FEED)), expected);
});

test('records kept are bounded: the least recently used is given up first', (t) => {
  const kept = reusedRecords(3);
  kept.useVersion(1);
  const record = (id: string) => ({ id, workKeys: [], formats: [] }) as unknown as CatalogRecord;
  for (const row of [1, 2, 3]) kept.keep(row, record(`r${row}`));
  t.is(kept.get(1, 'r1')?.id, 'r1');
  kept.keep(4, record('r4'));
  t.is(kept.size, 3);
  t.is(kept.get(2, 'r2'), undefined, 'the least recently used');
  t.deepEqual([1, 3, 4].map((row) => kept.get(row, `r${row}`)?.id), ['r1', 'r3', 'r4']);
  t.is(kept.get(1, 'another id'), undefined, 'a row is given only with its record\'s id');
  kept.useVersion(1);
  t.is(kept.size, 3);
  kept.useVersion(2);
  t.is(kept.size, 0, 'another data_version');
  kept.keep(1, record('r1'));
  kept.forget();
  t.is(kept.get(1, 'r1'), undefined, 'forgotten after a write of this connection');
});
