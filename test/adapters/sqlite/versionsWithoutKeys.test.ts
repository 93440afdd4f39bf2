import test from 'ava';
import { reusedRecords } from '../../../src/adapters/sqlite/reusedRecords.js';
import { InvalidArgumentError } from '../../../src/errors.js';
import type { CatalogRecord } from '../../../src/record/catalogRecord.js';
import type { RecordVersionsQuery } from '../../../src/ports.js';
import { listVersions } from '../../../src/versions/listVersions.js';
import { openEmbeddedIndex, type EmbeddedIndex } from '../../../src/entries/sqlite.js';

// A query with `versionKeys: false` (the feed's, src/ports.ts): the embedded index gives the versions it
// reads without their work keys, by every way it cuts a page (versionsReads.ts), and a record kept for
// later answers without its keys is never given to a query that wants them (reusedRecords.ts).

const at = (minutes: number) => new Date(Date.UTC(2025, 0, 1) + minutes * 60_000).toISOString();
/** One work of `size` records sharing two keys, each with one of its own. */
const work = (prefix: string, size: number) => Array.from({ length: size }, (_, i) => ({
  id: `${prefix}-${String(i).padStart(3, '0')}`, title: `Work ${prefix}`, last_indexed: at(i % 17),
  work_keys_str_mv: [`${prefix} uniform`, `${prefix} author title`, `${prefix} own ${i}`],
}));
const FEED: RecordVersionsQuery = { order: 'last-indexed', offset: 0, limit: 50 };
const WITHOUT_KEYS: RecordVersionsQuery = { ...FEED, versionKeys: false };

/** The versions of `id`, as listVersions asks for them, in an event-loop turn of its own. */
async function versionsOf(index: EmbeddedIndex, id: string, query: RecordVersionsQuery) {
  await new Promise((resolve) => setImmediate(resolve));
  const record = (await index.getRecord(id))!;
  return { record, page: await index.findVersionsOf(record, query) };
}
const withoutKeys = (record: CatalogRecord) => ({ ...record, workKeys: [] });

// Works of 1 (alone), 3 and 40 (read whole), 120 (from key rows), 300 (a large key's remembered records).
for (const size of [1, 3, 40, 120, 300]) {
  test(`a work of ${size}: without the versions' keys, the same page with the versions' keys left out, the record asked keeping its own`, async (t) => {
    const documents = [...work('w', size), ...work('other', 5)];
    // One index asked only without keys, one only with them: a large work's records kept by the one
    // with keys would be given with them (the next test).
    const [bare, index] = [openEmbeddedIndex({ path: ':memory:' }), openEmbeddedIndex({ path: ':memory:' })];
    t.teardown(() => Promise.all([bare.close(), index.close()]));
    await bare.load(documents);
    await index.load(documents);
    for (const asked of ['w-000', `w-${String(size - 1).padStart(3, '0')}`]) {
      for (const offset of [0, 50, 100]) {
        const { record, page } = await versionsOf(bare, asked, { ...WITHOUT_KEYS, offset });
        const full = (await versionsOf(index, asked, { ...FEED, offset })).page;
        t.is(page.total, size, `${asked} ${offset}`);
        t.true(page.records.every((version) => version.id === asked || version.workKeys.length === 0), `${asked} ${offset}: versions without keys`);
        t.deepEqual(page.records.map(withoutKeys), full.records.map(withoutKeys), `${asked} ${offset}: otherwise the same records`);
        const own = page.records.find((version) => version.id === asked);
        if (own !== undefined) t.deepEqual(own.workKeys, record.workKeys, `${asked} ${offset}: the record asked has its keys`);
        t.true(full.records.every((version) => version.workKeys.length === 3), `${asked} ${offset}: asked with keys, every version has them`);
      }
    }
  });
}

test('a large work\'s records kept without keys are given to the feed again, never to a query that wants keys', async (t) => {
  const index = openEmbeddedIndex({ path: ':memory:' });
  t.teardown(() => index.close());
  await index.load(work('big', 300));
  const first = (await versionsOf(index, 'big-010', WITHOUT_KEYS)).page.records;
  const again = (await versionsOf(index, 'big-011', WITHOUT_KEYS)).page.records;
  const others = (records: readonly CatalogRecord[]) => records.filter((record) => record.id !== 'big-010' && record.id !== 'big-011');
  t.true(others(again).every((record) => first.includes(record)), 'kept records given again');
  const withKeys = (await versionsOf(index, 'big-012', FEED)).page.records;
  t.true(withKeys.every((record) => record.workKeys.length === 3));
  t.false(others(withKeys).some((record) => first.includes(record)));
  // Kept now with their keys: given to either query.
  const afterwards = (await versionsOf(index, 'big-013', WITHOUT_KEYS)).page.records;
  t.true(others(afterwards).filter((record) => record.id !== 'big-012').every((record) => withKeys.includes(record)));
});

test('reusedRecords: a record kept without its keys is given only to a query without keys; kept again with them, to both', (t) => {
  const reused = reusedRecords(10);
  reused.useVersion(1);
  const record = (id: string): CatalogRecord => ({
    id, lastIndexed: at(0), uniformTitles: [], authors: [], secondaryAuthors: [], corporateAuthors: [], formats: [], publishDates: [], urls: [], workKeys: [],
  });
  const keyless = reused.keep(7, record('a'), false);
  t.is(reused.get(7, 'a', false), keyless);
  t.is(reused.get(7, 'a'), undefined);
  t.is(reused.get(7, 'a', true), undefined);
  const complete = reused.keep(7, { ...record('a'), workKeys: ['K'] });
  t.is(reused.get(7, 'a'), complete);
  t.is(reused.get(7, 'a', false), complete);
});

test('listVersions asks the feed\'s versions without their keys, the page\'s with them', async (t) => {
  const index = openEmbeddedIndex({ path: ':memory:' });
  t.teardown(() => index.close());
  await index.load(work('w', 30));
  const feed = await listVersions(index, { id: 'w-003', view: 'rss', page: 1 });
  const page = await listVersions(index, { id: 'w-003', view: 'html', page: 1 });
  t.is(feed.versions.records.length, 30);
  t.true(feed.versions.records.every((record) => record.id === 'w-003' || record.workKeys.length === 0));
  t.true(page.versions.records.every((record) => record.workKeys.length === 3));
});

test('a query\'s versionKeys that is not true or false is refused, naming it', async (t) => {
  const index = openEmbeddedIndex({ path: ':memory:' });
  t.teardown(() => index.close());
  await index.load(work('w', 3));
  const error = await t.throwsAsync(index.findVersions({ workKeys: ['w uniform'], ...FEED, versionKeys: 'no' as unknown as boolean }), { instanceOf: InvalidArgumentError });
  t.regex(error!.message, /query\.versionKeys/);
  const record = (await index.getRecord('w-000'))!;
  await t.throwsAsync(index.findVersionsOf(record, { ...FEED, versionKeys: 0 as unknown as boolean }), { instanceOf: InvalidArgumentError });
});
