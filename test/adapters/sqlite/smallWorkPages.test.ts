import test from 'ava';
import type { VersionsOrder } from '../../../src/ports.js';
import { openEmbeddedIndex } from '../../../src/entries/sqlite.js';

// The pages of works too small to be remembered (versionsReads.ts), by each way the embedded index cuts
// them: from the keys' totals it may read a work whole in one statement, or its key rows and then the
// page's records. Every page must be the one findVersions gives by the keys' texts, and the work's
// records in the query's order.

const at = (minutes: number) => new Date(Date.UTC(2025, 0, 1) + minutes * 60_000).toISOString();
const ids = (page: { records: ReadonlyArray<{ id: string }> }) => page.records.map((r) => r.id);
const PAGES = [[0, 20], [20, 20], [40, 20], [0, 50], [50, 50], [0, 0], [90, 20]] as const;

function inOrder(documents: ReadonlyArray<{ id: string; last_indexed: string }>, order: VersionsOrder): string[] {
  return [...documents]
    .sort(order === 'relevance' ? (a, b) => (a.id < b.id ? -1 : 1) : (a, b) => b.last_indexed.localeCompare(a.last_indexed) || (a.id < b.id ? -1 : 1))
    .map((d) => d.id);
}

test('a work whose records each hold its three keys: every page is its records in order, its keys\' totals thrice its size', async (t) => {
  // 40 records, each holding the work's three keys and one of its own: the keys' totals add up to 120
  // while the work has 40 records. Ties of last_indexed in runs of four.
  const documents = Array.from({ length: 40 }, (_, i) => ({
    id: `three-${String((i * 7) % 40).padStart(2, '0')}`, title: 'Three', last_indexed: at(Math.floor(i / 4)),
    work_keys_str_mv: ['WORK uniform', 'WORK author title', 'WORK translated', `OWN ${i}`],
  }));
  const index = openEmbeddedIndex({ path: ':memory:' });
  t.teardown(() => index.close());
  await index.load(documents);
  for (const order of ['last-indexed', 'relevance'] as const) {
    const expected = inOrder(documents, order);
    for (const asked of ['three-00', 'three-17', 'three-39']) {
      for (const [offset, limit] of PAGES) {
        const record = (await index.getRecord(asked))!;
        const page = await index.findVersionsOf(record, { order, offset, limit });
        const byKeys = await index.findVersions({ workKeys: record.workKeys, order, offset, limit });
        t.is(page.total, 40, `${asked} ${order} ${offset}/${limit}`);
        t.deepEqual(ids(page), expected.slice(offset, offset + limit), `${asked} ${order} ${offset}/${limit}`);
        t.deepEqual(page, byKeys, `${asked} ${order} ${offset}/${limit}: as by the keys' texts, records and their keys included`);
      }
    }
  }
});

test('a record whose keys name different records: its versions are every record of either key, each once', async (t) => {
  // Two keys naming 35 records each, 10 of them held by both (the record asked holds both): 60 versions,
  // more than the largest total, fewer than their sum.
  const documents = Array.from({ length: 60 }, (_, i) => ({
    id: `pair-${String(i).padStart(2, '0')}`, title: 'Pair', last_indexed: at(i % 9),
    work_keys_str_mv: [...(i < 35 ? ['LEFT'] : []), ...(i >= 25 ? ['RIGHT'] : []), `OWN ${i}`],
  }));
  const index = openEmbeddedIndex({ path: ':memory:' });
  t.teardown(() => index.close());
  await index.load(documents);
  const record = (await index.getRecord('pair-30'))!;
  t.deepEqual(record.workKeys, ['LEFT', 'RIGHT', 'OWN 30']);
  for (const order of ['last-indexed', 'relevance'] as const) {
    const expected = inOrder(documents, order);
    for (const [offset, limit] of PAGES) {
      const page = await index.findVersionsOf((await index.getRecord('pair-30'))!, { order, offset, limit });
      t.is(page.total, 60, `${order} ${offset}/${limit}`);
      t.deepEqual(ids(page), expected.slice(offset, offset + limit), `${order} ${offset}/${limit}`);
      t.deepEqual(page, await index.findVersions({ workKeys: record.workKeys, order, offset, limit }), `${order} ${offset}/${limit}: as by the keys' texts`);
    }
  }
});

test('a work of 80 records whose four keys each name all of them: more key rows than are read in one go, every page as by the keys\' texts', async (t) => {
  // The keys' totals add up to 320 key rows, none of them a large key's: neither the key rows (at most
  // 256 read) nor a remembered list can cut its pages.
  const documents = Array.from({ length: 80 }, (_, i) => ({
    id: `four-${String((i * 13) % 80).padStart(2, '0')}`, title: 'Four', last_indexed: at(i % 11),
    work_keys_str_mv: ['FOUR a', 'FOUR b', 'FOUR c', 'FOUR d', `OWN ${i}`],
  }));
  const index = openEmbeddedIndex({ path: ':memory:' });
  t.teardown(() => index.close());
  await index.load(documents);
  for (const order of ['last-indexed', 'relevance'] as const) {
    const expected = inOrder(documents, order);
    for (const [offset, limit] of PAGES) {
      const record = (await index.getRecord('four-41'))!;
      const page = await index.findVersionsOf(record, { order, offset, limit });
      t.is(page.total, 80, `${order} ${offset}/${limit}`);
      t.deepEqual(ids(page), expected.slice(offset, offset + limit), `${order} ${offset}/${limit}`);
      t.deepEqual(page, await index.findVersions({ workKeys: record.workKeys, order, offset, limit }), `${order} ${offset}/${limit}: as by the keys' texts`);
    }
  }
});
