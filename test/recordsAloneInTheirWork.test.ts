import test from 'ava';
import { openEmbeddedIndex, type EmbeddedIndex } from '../src/adapters/sqlite/index.js';
import type { RecordVersionsQuery } from '../src/ports.js';

// The embedded index answers the versions of a record whose work keys name no other record without
// reading its key rows (versionsReads.ts). Through every write that changes who shares a key, the answer
// of findVersionsOf stays the one findVersions gives by the record's keys, and names the records listed.

const FEED: RecordVersionsQuery = { order: 'last-indexed', offset: 0, limit: 50 };
const PAGE: RecordVersionsQuery = { order: 'relevance', offset: 0, limit: 20, facets: true };
const SECOND_PAGE: RecordVersionsQuery = { order: 'relevance', offset: 20, limit: 20, facets: true };
const AUTHOR = { by: 'cataloguer', at: new Date('2025-03-01T00:00:00Z'), note: 'the same work' };

/** Records with the keys they are listed by; years and formats so the page's facets have values. */
const doc = (id: string, keys: string[], day: number) => ({
  id, title: `Title ${id}`, author: 'Author', year: String(2000 + day), format: ['Book'], work_keys_str_mv: keys,
  last_indexed: new Date(Date.UTC(2025, 0, day)).toISOString(),
});

const CATALOG = [
  doc('a1', ['WORK A'], 1),
  doc('a2', ['WORK A', 'EXTRA A2'], 2),
  doc('b1', ['WORK B'], 3),
  doc('c1', ['WORK C', 'SECOND C'], 4),
  doc('d1', ['WORK D'], 5),
  doc('d2', ['OTHER D2', 'WORK D'], 6),
];

/** Each step, then the versions (ids, in the feed's order) every listed record must have. */
const STEPS: Array<{ name: string; step: (index: EmbeddedIndex) => Promise<unknown>; versions: Record<string, string[]> }> = [
  {
    name: 'a bulk load into an empty index',
    step: (index) => index.load(CATALOG),
    versions: { a1: ['a2', 'a1'], a2: ['a2', 'a1'], b1: ['b1'], c1: ['c1'], d1: ['d2', 'd1'], d2: ['d2', 'd1'] },
  },
  {
    name: 'a put sharing a lone record\'s key, and a put alone',
    step: (index) => index.load([doc('b2', ['WORK B'], 7), doc('e1', ['WORK E'], 8)]),
    versions: { b1: ['b2', 'b1'], b2: ['b2', 'b1'], e1: ['e1'], c1: ['c1'] },
  },
  {
    name: 'a delete leaving a record alone',
    step: async (index) => {
      const writer = index.openWriter();
      await writer.delete(['b2', 'd2']);
      await writer.close();
    },
    versions: { b1: ['b1'], d1: ['d1'], a1: ['a2', 'a1'] },
  },
  {
    name: 'a record replaced by one with another key, leaving its work',
    step: (index) => index.load([doc('a2', ['WORK A2 ALONE'], 9)]),
    versions: { a1: ['a1'], a2: ['a2'] },
  },
  {
    name: 'a grouping decision merging two lone records',
    step: (index) => index.curation.merge(['c1', 'e1'], AUTHOR),
    versions: { c1: ['e1', 'c1'], e1: ['e1', 'c1'], b1: ['b1'] },
  },
  {
    name: 'the decision undone',
    step: async (index) => {
      const [decision] = index.curation.decisions();
      await index.curation.undo(decision!.id);
    },
    versions: { c1: ['c1'], e1: ['e1'] },
  },
];

test('records alone in their work and not, through loads, puts, deletes and a grouping decision', async (t) => {
  const index = openEmbeddedIndex({ path: ':memory:' });
  t.teardown(() => index.close());
  for (const { name, step, versions } of STEPS) {
    await step(index);
    for (const [id, expected] of Object.entries(versions)) {
      const record = await index.getRecord(id);
      if (record === undefined) return t.fail(`${name}: ${id} is missing`);
      for (const query of [FEED, PAGE, SECOND_PAGE]) {
        const page = await index.findVersionsOf(record, query);
        t.deepEqual(page, await index.findVersions({ ...query, workKeys: record.workKeys }), `${name}: ${id}, ${query.order} from ${query.offset}`);
        t.is(page.total, expected.length, `${name}: ${id}'s total`);
      }
      const feed = await index.findVersionsOf(record, FEED);
      t.deepEqual(feed.records.map((version) => version.id), expected, `${name}: ${id}'s versions`);
    }
  }
});

test('a record found alone is not answered alone once a write gives it company', async (t) => {
  const index = openEmbeddedIndex({ path: ':memory:' });
  t.teardown(() => index.close());
  await index.load([doc('x1', ['WORK X'], 1), doc('y1', ['WORK Y'], 2)]);
  const x1 = await index.getRecord('x1');
  await index.load([doc('x2', ['WORK X'], 3)]);
  const page = await index.findVersionsOf(x1!, PAGE);
  t.deepEqual(page.records.map((version) => version.id), ['x1', 'x2']);
  t.is(page.unfilteredTotal, 2);
});

test('the page of a lone record has the facets of a work of one, and a filter narrows it like any work', async (t) => {
  const index = openEmbeddedIndex({ path: ':memory:' });
  t.teardown(() => index.close());
  await index.load([doc('z1', ['WORK Z'], 1)]);
  const z1 = await index.getRecord('z1');
  const page = await index.findVersionsOf(z1!, PAGE);
  t.is(page.unfilteredTotal, 1);
  t.deepEqual(page.facets?.format, [{ value: 'Book', count: 1 }]);
  t.deepEqual(page.records.map((version) => version.id), ['z1']);
  const filtered = await index.findVersionsOf(z1!, { ...PAGE, filters: [{ field: 'format', value: 'Map' }] });
  t.like(filtered, { total: 0, records: [], unfilteredTotal: 1 });
  t.deepEqual(await index.findVersionsOf(z1!, { ...FEED, limit: 0 }), { total: 1, records: [] });
});
