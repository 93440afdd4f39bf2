import test from 'ava';
import Database from 'better-sqlite3';
import { holds, idAt, integersOfList, LARGE_KEY_RECORDS, largeKeys, listBytes, pageOfUnion } from '../../../src/adapters/sqlite/largeKeyMembers.js';
import { compareAsSqlite, type VersionEntry } from '../../../src/adapters/sqlite/versionOrder.js';
import { openEmbeddedIndex } from '../../../src/entries/sqlite.js';

/** The key rows table of the index's layout (indexTables.ts), holding only what largeKeys reads. */
function keyRowsFile(keys: Record<number, readonly VersionEntry[]>): Database.Database {
  const db = new Database(':memory:');
  db.exec(`CREATE TABLE records_by_key (key_id INTEGER NOT NULL, record_id TEXT NOT NULL, last_indexed INTEGER NOT NULL,
    record_row INTEGER NOT NULL, PRIMARY KEY (key_id, record_id)) WITHOUT ROWID`);
  const insert = db.prepare('INSERT INTO records_by_key VALUES (?, ?, ?, ?)');
  for (const [keyId, entries] of Object.entries(keys)) for (const [id, lastIndexed, row] of entries) insert.run(Number(keyId), id, lastIndexed, row);
  return db;
}

/**
 * A large work's records as a catalog names them: ids of a few scripts (Latin-1, Greek, beyond the Basic
 * Multilingual Plane, whose UTF-16 order is not SQLite's), last_indexed in runs of equal instants.
 */
const work = (size: number, prefix = 'w'): VersionEntry[] => Array.from({ length: size }, (_, i) => {
  const script = ['', 'é', 'λ', '\u{1D400}', '\uFF21'][i % 5];
  return [`${prefix}${script}${String((i * 37) % size).padStart(4, '0')}`, 1_700_000_000_000 + Math.floor(i / 4) * 60_000, 1000 + i] as const;
});
const newestFirst = (a: VersionEntry, b: VersionEntry) => b[1] - a[1] || compareAsSqlite(a[0], b[0]);
const byId = (a: VersionEntry, b: VersionEntry) => compareAsSqlite(a[0], b[0]);

test('a remembered list cuts the pages the statement cuts, in both orders, and holds exactly its records', (t) => {
  const entries = work(230);
  const large = largeKeys(keyRowsFile({ 1: entries }));
  const members = large.membersOf(1, 7)!;
  t.is(members.size, 230);
  for (const [order, compare] of [['last-indexed', newestFirst], ['relevance', byId]] as const) {
    const expected = [...entries].sort(compare);
    for (const [offset, limit] of [[0, 50], [200, 50], [-3, 10], [0, 0], [300, 10]] as const) {
      const page = pageOfUnion(members, new Map(), { order, offset, limit });
      const wanted = limit > 0 ? expected.slice(Math.max(0, offset), Math.max(0, offset) + limit) : [];
      t.deepEqual(page, { total: 230, ids: wanted.map(([id]) => id), rows: wanted.map(([, , row]) => row) }, `${order} ${offset}/${limit}`);
    }
  }
  t.deepEqual(Array.from({ length: 230 }, (_, i) => idAt(members, i)), [...entries].sort(byId).map(([id]) => id));
  t.true(entries.every(([id]) => holds(members, id)));
  t.false(holds(members, 'w0000x'));
  t.false(holds(members, 'a'));
  t.false(holds(members, '\u{10FFFF}'));
});

test('a list read as one row of lists (ids within the Basic Multilingual Plane) is the list read row by row', (t) => {
  // No id beyond the BMP: the key is read by its one row of lists; the same records with one id beyond it
  // are read row by row. Both lists hold the same records in the same orders.
  const entries = work(230).filter(([id]) => !/[\u{10000}-\u{10FFFF}]/u.test(id)).map(([id, lastIndexed, row], i) => [id, i % 7 === 0 ? -lastIndexed : lastIndexed, row] as const);
  const beyond: VersionEntry[] = [...entries, ['w\u{1D400}9999', 5, 99_999]];
  const db = keyRowsFile({ 1: entries, 2: beyond });
  const large = largeKeys(db);
  const byList = large.membersOf(1, 1)!;
  const byRows = large.membersOf(2, 1)!;
  t.is(byList.size, entries.length);
  t.is(byRows.size, entries.length + 1);
  const sorted = [...entries].sort(byId);
  t.deepEqual(Array.from({ length: byList.size }, (_, i) => idAt(byList, i)), sorted.map(([id]) => id));
  t.deepEqual(Array.from(byList.byIdRows), sorted.map(([, , row]) => row));
  const newest = [...entries].sort(newestFirst);
  t.deepEqual(Array.from(byList.newestLastIndexed), newest.map(([, lastIndexed]) => lastIndexed));
  t.deepEqual(pageOfUnion(byList, new Map(), { order: 'last-indexed', offset: 10, limit: 30 }).ids, newest.slice(10, 40).map(([id]) => id));
  // The list read row by row holds the one more record, in its place of both orders.
  const withBeyond = [...beyond].sort(byId).map(([id]) => id);
  t.deepEqual(Array.from({ length: byRows.size }, (_, i) => idAt(byRows, i)), withBeyond);
});

test('a decimal list is read only when it holds exactly the integers asked for', (t) => {
  const into = () => new Float64Array(3);
  const cases: Array<[string, number[] | undefined]> = [
    ['1,22,333', [1, 22, 333]],
    ['-5,0,1700000000000', [-5, 0, 1_700_000_000_000]],
    ['1,2', undefined],
    ['1,2,3,4', undefined],
    ['1,2.5,3', undefined],
    ['1,,3', undefined],
    ['1,2,-', undefined],
    ['1,1e3,2', undefined],
    ['1,2,99999999999999999', undefined],
  ];
  for (const [text, expected] of cases) {
    const values = into();
    const read = integersOfList(text, values);
    t.is(read, expected !== undefined, text);
    if (expected !== undefined) t.deepEqual(Array.from(values), expected, text);
  }
});

test('records a list lacks are merged into its pages in the order of the query', (t) => {
  const entries = work(150);
  const members = largeKeys(keyRowsFile({ 1: entries })).membersOf(1, 1)!;
  // One newer than all, one tied in last_indexed with a record of the list, one first in id order.
  const extras: VersionEntry[] = [['w-new', 1_800_000_000_000, 5], [`${entries[9]![0]}x`, entries[9]![1], 6], ['a-first', 1, 7]];
  for (const [order, compare] of [['last-indexed', newestFirst], ['relevance', byId]] as const) {
    const expected = [...entries, ...extras].sort(compare);
    for (const offset of [0, 20, 140]) {
      const page = pageOfUnion(members, new Map(extras.map((entry) => [entry[0], entry])), { order, offset, limit: 20 });
      const wanted = expected.slice(offset, offset + 20);
      t.deepEqual(page, { total: 153, ids: wanted.map(([id]) => id), rows: wanted.map(([, , row]) => row) }, `${order} ${offset}`);
    }
  }
});

test('keys naming the same records share one list, counted once against the bound; the least recently used key is given up first', (t) => {
  const shared = work(120, 'same');
  const other = work(120, 'other');
  const db = keyRowsFile({ 1: shared, 2: shared, 3: other, 4: work(LARGE_KEY_RECORDS) });
  const probe = largeKeys(db).membersOf(1, 1)!;
  // Room for one list and a half: the two keys of one list stay, the third key's list gives up both.
  const large = largeKeys(db, Math.floor(listBytes(probe) * 1.5));
  const first = large.membersOf(1, 1);
  t.is(large.membersOf(2, 1), first, 'one list for both keys');
  t.true(large.remembers(1) && large.remembers(2));
  t.not(large.membersOf(3, 1), undefined);
  t.true(large.remembers(3));
  t.false(large.remembers(1) || large.remembers(2));
  // Another data_version: the list is read again, not shared with the old one.
  const again = large.membersOf(3, 2);
  t.not(again, undefined);
  t.is(again!.version, 2);
  t.is(large.membersOf(4, 2), undefined, 'a key of LARGE_KEY_RECORDS records is not large');
  large.forget();
  t.false(large.remembers(3));
});

test('a key its total says is large is read without its count, as it is read after the count; one that names LARGE_KEY_RECORDS records or fewer after all is not remembered', (t) => {
  const entries = work(150);
  const db = keyRowsFile({ 1: entries, 2: work(LARGE_KEY_RECORDS, 'fewer'), 3: work(20, 'small') });
  const counted = largeKeys(db).membersOf(1, 1)!;
  const large = largeKeys(db);
  const uncounted = large.membersOf(1, 1, true)!;
  t.is(uncounted.size, 150);
  t.is(uncounted.idText, counted.idText);
  t.deepEqual([...uncounted.byIdRows], [...counted.byIdRows]);
  t.deepEqual([...uncounted.newestOrder], [...counted.newestOrder]);
  t.true(large.remembers(1));
  // A stored total is never fewer than the records holding the key, but may be more (indexTables.ts).
  t.is(large.membersOf(2, 1, true), undefined, 'a key of LARGE_KEY_RECORDS records is not large, whatever its total said');
  t.is(large.membersOf(3, 1, true), undefined);
  t.false(large.remembers(2) || large.remembers(3));
});

test('a key with an id that came back with U+FFFD is not remembered', (t) => {
  const entries = work(120);
  const large = largeKeys(keyRowsFile({ 1: [...entries, ['w\uFFFD', 1, 1]] }));
  t.is(large.membersOf(1, 1), undefined);
  t.false(large.remembers(1));
});

test('a work of 101-256 records named by two large keys is paged from their one list, as the statement pages it', async (t) => {
  const at = (minutes: number) => new Date(Date.UTC(2025, 0, 1) + minutes * 60_000).toISOString();
  // 150 records, each with both authors: two keys of 150 records (300 key rows, more than the small-work
  // path reads), last_indexed in runs of equal instants.
  const documents: Array<Record<string, unknown>> = Array.from({ length: 150 }, (_, i) => ({
    id: `mid-${String((i * 7) % 150).padStart(3, '0')}`, title: 'Middle', author: 'Many', author2: 'Other', last_indexed: at(Math.floor(i / 3)),
  }));
  const index = openEmbeddedIndex({ path: ':memory:', keyProfile: 'vufind' });
  t.teardown(() => index.close());
  await index.load(documents);
  const expected = {
    'last-indexed': [...documents].sort((a, b) => String(b.last_indexed).localeCompare(String(a.last_indexed)) || (String(a.id) < String(b.id) ? -1 : 1)).map((d) => d.id),
    relevance: documents.map((d) => d.id as string).sort(),
  };
  for (const order of ['last-indexed', 'relevance'] as const) {
    for (let round = 0; round < 2; round++) {
      const seen: string[] = [];
      for (let offset = 0; offset < 160; offset += 40) {
        const record = (await index.getRecord(`mid-${String(offset).padStart(3, '0')}`))!;
        t.is(record.workKeys.length, 2);
        const page = await index.findVersionsOf(record, { order, offset, limit: 40 });
        t.is(page.total, 150);
        seen.push(...page.records.map((version) => version.id));
        const byKeys = await index.findVersions({ workKeys: record.workKeys, order, offset, limit: 40 });
        t.deepEqual(byKeys.records.map((version) => version.id), page.records.map((version) => version.id));
      }
      t.deepEqual(seen, expected[order], `${order}, round ${round}`);
    }
  }
});
