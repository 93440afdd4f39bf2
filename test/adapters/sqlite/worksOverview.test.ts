/**
 * The works of an embedded index (src/adapters/sqlite/worksOverviewReads.ts, through `curation.overview`):
 * records joined by shared work keys, directly or through another record, make one work; a record that
 * shares no key, or has none, is a work of its own. Each case is a small catalogue of its own.
 */
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLoadedIndex } from '../../support/testHost.js';
import { openEmbeddedIndex } from '../../../src/entries/sqlite.js';

const hobbitEditions = [
  { id: 'hobbit-1937', title: 'The hobbit, or, There and back again', author: 'Tolkien, J. R. R.', publishDate: '1937' },
  { id: 'hobbit-1966', title: 'The Hobbit', author: 'Tolkien, J. R. R.', publishDate: '1966' },
  { id: 'hobbit-pt-2012', title: 'O hobbit', title_uniform: 'The hobbit', author: 'Tolkien, J. R. R.', publishDate: '2012' },
];
const thesisInTwoRepositories = [
  { id: 'usp:tese-2019-0412', title: 'O ensino de ciências na educação básica', author: 'Pereira, Ana Clara', format: 'Thesis' },
  { id: 'bdtd:USP_4f9a2c', title: 'O ensino de ciências na educação básica', author: 'Pereira, Ana Clara', format: 'Thesis' },
];
const pamphletAlone = { id: 'pamphlet-1950', title: 'Notes on a local flood', author: 'Ribeiro, Ana', publishDate: '1950' };
const mapAlone = { id: 'map-1822', title: 'Carta topographica da cidade', author: 'Silva, José da', format: 'Map' };
// Keys as a library's own loader gave them: the reprint shares one key with each edition, the editions none with each other.
const chainedByAReprint = [
  { id: 'quincas-1891', title: 'Quincas Borba', author: 'Assis, Machado de', work_keys_str_mv: ['qb-first-edition'] },
  { id: 'quincas-1899', title: 'Quincas Borba', author: 'Assis, Machado de', work_keys_str_mv: ['qb-first-edition', 'qb-garnier'] },
  { id: 'quincas-1926', title: 'Quincas Borba', author: 'Assis, Machado de', work_keys_str_mv: ['qb-garnier'] },
];
const noKeys = { id: 'untitled-1', work_keys_str_mv: [] };

const table: Array<[string, readonly Record<string, unknown>[], { records: number; works: number; worksOfSeveral: number; largest: Array<[number, string]>; alone: string[] }]> = [
  ['editions of one work and a thesis in two repositories', [...hobbitEditions, ...thesisInTwoRepositories],
    { records: 5, works: 2, worksOfSeveral: 2, largest: [[3, 'hobbit-1937'], [2, 'bdtd:USP_4f9a2c']], alone: [] }],
  ['records alone, one of them without keys, listed by id', [pamphletAlone, mapAlone, noKeys, ...thesisInTwoRepositories],
    { records: 5, works: 4, worksOfSeveral: 1, largest: [[2, 'bdtd:USP_4f9a2c']], alone: ['map-1822', 'pamphlet-1950', 'untitled-1'] }],
  ['editions joined through a reprint sharing a key with each: one work', [...chainedByAReprint, pamphletAlone],
    { records: 4, works: 2, worksOfSeveral: 1, largest: [[3, 'quincas-1891']], alone: ['pamphlet-1950'] }],
  ['works of equal size by their first record\'s id', [...thesisInTwoRepositories, ...hobbitEditions.slice(0, 2)],
    { records: 4, works: 2, worksOfSeveral: 2, largest: [[2, 'bdtd:USP_4f9a2c'], [2, 'hobbit-1937']], alone: [] }],
];

for (const [name, documents, expected] of table) {
  test(`works overview: ${name}`, async (t) => {
    const index = await openLoadedIndex(documents);
    t.teardown(() => index.close());
    const overview = index.curation.overview();
    t.deepEqual({
      records: overview.records,
      works: overview.works,
      worksOfSeveral: overview.worksOfSeveral,
      largest: overview.largestWorks.map((work) => [work.records, work.example.id]),
      alone: overview.recordsAlone.map((record) => record.id),
    }, expected);
  });
}

test('works overview: `top` bounds both lists; titles come with the records; an empty index has no works', async (t) => {
  const index = await openLoadedIndex([...hobbitEditions, ...thesisInTwoRepositories, pamphletAlone, mapAlone]);
  t.teardown(() => index.close());
  const overview = index.curation.overview({ top: 1 });
  t.deepEqual(overview.largestWorks, [{ records: 3, example: { id: 'hobbit-1937', title: 'The hobbit, or, There and back again' } }]);
  t.deepEqual(overview.recordsAlone, [{ id: 'map-1822', title: 'Carta topographica da cidade' }]);
  t.is(overview.works, 4);
  t.throws(() => index.curation.overview({ top: -1 }), { code: 'INVALID_ARGUMENT' });

  const empty = openEmbeddedIndex({ path: ':memory:' });
  t.teardown(() => empty.close());
  t.deepEqual(empty.curation.overview(), { records: 0, works: 0, worksOfSeveral: 0, largestWorks: [], recordsAlone: [] });
});

test('works overview: read from an index file opened read-only, after a merge decision joined two works', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-versions-overview-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'catalog.sqlite');
  const writing = openEmbeddedIndex({ path, create: true });
  await writing.load([...hobbitEditions, pamphletAlone, mapAlone]);
  await writing.curation.merge(['pamphlet-1950', 'map-1822'], { by: 'cataloguer', at: new Date('2026-01-05T10:00:00Z'), note: 'one deposit' });
  await writing.close();
  const reading = openEmbeddedIndex({ path, readOnly: true });
  t.teardown(() => reading.close());
  const overview = reading.curation.overview();
  t.deepEqual([overview.works, overview.largestWorks.map((work) => [work.records, work.example.id])], [2, [[3, 'hobbit-1937'], [2, 'map-1822']]]);
  t.deepEqual(overview.recordsAlone, []);
});
