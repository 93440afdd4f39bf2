import test from 'ava';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { workKeyHash } from '../../../src/adapters/sqlite/indexTables.js';
import type { RecordVersionsQuery } from '../../../src/ports.js';
import { openEmbeddedIndex, type EmbeddedIndex } from '../../../src/entries/sqlite.js';

const folder = mkdtempSync(join(tmpdir(), 'records-alone-'));
test.after.always(() => rmSync(folder, { recursive: true, force: true }));

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

// Two work keys with the same 32-bit hash (found by search, as in embeddedIndex.test.ts): a bulk load
// renumbers the second, whose total it does not know.
const SAME_HASH = ['AT author898759 title', 'AT author1230204 title'] as const;
/** The key that keeps the shared first id is the least text (tableWriters.ts). */
const [KEEPS_FIRST_ID, RENUMBERED] = [...SAME_HASH].sort();

const CATALOG = [
  doc('h1', [SAME_HASH[0]], 10),
  doc('h2', [SAME_HASH[1]], 11),
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
    versions: { a1: ['a2', 'a1'], a2: ['a2', 'a1'], b1: ['b1'], c1: ['c1'], d1: ['d2', 'd1'], d2: ['d2', 'd1'], h1: ['h1'], h2: ['h2'] },
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

/** Each key's stored total against the records holding it: [key, total, held]. */
function keyTotals(path: string): Array<[string, number | null, number]> {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare<[], [string, number | null, number]>(
      'SELECT w.key, w.records, (SELECT COUNT(*) FROM records_by_key AS k WHERE k.key_id = w.key_id) FROM work_keys AS w ORDER BY w.key').raw().all();
  } finally {
    db.close();
  }
}

test('records alone in their work and not, through loads, puts, deletes and a grouping decision', async (t) => {
  t.is(workKeyHash(SAME_HASH[0]), workKeyHash(SAME_HASH[1]), 'the fixture keys share a hash');
  const path = join(folder, 'steps.sqlite');
  const index = openEmbeddedIndex({ path, create: true });
  t.teardown(() => index.close());
  for (const { name, step, versions } of STEPS) {
    await step(index);
    // A key's total is never fewer than the records holding it; known exactly but for the renumbered key.
    for (const [key, total, held] of keyTotals(path)) {
      if (key === RENUMBERED) t.is(total, null, `${name}: the renumbered key's total is not known`);
      else if (key === KEEPS_FIRST_ID) t.true(total! >= held, `${name}: the key keeping the shared first id counts both`);
      else t.is(total, held, `${name}: ${key}`);
    }
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

test('a schema 3 file: served as it is read-only, given the keys\' totals by a writable open, and its records found alone once written again', async (t) => {
  const path = join(folder, 'schema-3.sqlite');
  const first = openEmbeddedIndex({ path, create: true });
  await first.load([doc('m1', ['WORK M'], 1), doc('m2', ['WORK M'], 2), doc('n1', ['WORK N'], 3)]);
  await first.close();
  // The layout of schema 3: work_keys without its totals.
  const raw = new Database(path);
  raw.exec('ALTER TABLE work_keys DROP COLUMN records; PRAGMA user_version = 3;');
  raw.close();

  const check = async (index: EmbeddedIndex, name: string) => {
    for (const [id, expected] of [['m1', ['m2', 'm1']], ['n1', ['n1']]] as const) {
      const record = await index.getRecord(id);
      for (const query of [FEED, PAGE]) t.deepEqual(await index.findVersionsOf(record!, query), await index.findVersions({ ...query, workKeys: record!.workKeys }), `${name}: ${id}`);
      t.deepEqual((await index.findVersionsOf(record!, FEED)).records.map((version) => version.id), [...expected], `${name}: ${id}`);
    }
  };
  const reader = openEmbeddedIndex({ path, readOnly: true });
  await check(reader, 'read-only, schema 3');
  await reader.close();
  const version = () => {
    const db = new Database(path, { readonly: true });
    try {
      return db.pragma('user_version', { simple: true });
    } finally {
      db.close();
    }
  };
  t.is(version(), 3, 'a read-only open changes nothing');

  const writer = openEmbeddedIndex({ path, create: true });
  t.is(version(), 4);
  t.deepEqual(keyTotals(path).map(([key, total]) => [key, total]), [['WORK M', null], ['WORK N', null]], 'totals not known: no record counts as alone');
  await check(writer, 'migrated');
  await writer.load([doc('n1', ['WORK N'], 4), doc('p1', ['WORK P'], 5)]);
  t.deepEqual(keyTotals(path).map(([key, total]) => [key, total]), [['WORK M', null], ['WORK N', 1], ['WORK P', 1]], 'a key written again by its only record, and a new key, are counted; a key not known stays so');
  await check(writer, 'written again');
  await writer.close();
});
