/**
 * The work index's facet values (src/adapters/solr/workIndex/documentFacets.ts, workIndexFile.ts
 * facetedVersions): a work's facets, filters and pages counted from the file give what the rule every
 * adapter shares (src/record/recordFacets.ts pageOfWork) gives for the same documents read as records, on a
 * work whose documents differ in every faceted field, with values missing, repeated, blank, padded,
 * numeric and dates that are not years.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { DEFAULT_SOLR_FIELDS } from '../../../src/adapters/solr/solrIndexOptions.js';
import { toRecordDocument } from '../../../src/adapters/solr/solrDocuments.js';
import { facetFieldNamesOf, facetValuesOfDocument } from '../../../src/adapters/solr/workIndex/documentFacets.js';
import { openWorkIndex, type KeysOf } from '../../../src/adapters/solr/workIndex/workIndexFile.js';
import { SMALL_WORK } from '../../../src/adapters/solr/workIndex/workIndexAnswers.js';
import { recordFromDocument } from '../../../src/record/catalogRecord.js';
import { FEED_ROWS, PAGE_ROWS } from '../../../src/versions/paging.js';
import { facetCountsOfTally, pageOfWork, type VersionsFilter } from '../../../src/record/recordFacets.js';

const documents = JSON.parse(readFileSync(new URL('../../fixtures/work-with-every-facet-differing.solr.json', import.meta.url), 'utf8')) as Array<Record<string, unknown>>;
// Another work beside it, carrying values of the same fields: never counted in the first.
const otherWork = { id: 'other:1', title: 'Sagarana', format: ['Book'], language: ['Portuguese'], publishDate: ['1946'], last_indexed: '2025-04-09T10:00:00Z' };
const titleKey: KeysOf = (document) => [`T ${String(document.title).toLowerCase()}`];
const names = facetFieldNamesOf(DEFAULT_SOLR_FIELDS);
const records = documents.map((document) => recordFromDocument(toRecordDocument(document, DEFAULT_SOLR_FIELDS)));
const workKeys = ['T grande sertão: veredas'];

const filterSets: VersionsFilter[][] = [
  [],
  [{ field: 'format', value: 'Book' }],
  [{ field: 'language', value: 'Portuguese' }, { field: 'institution', value: 'UFMG' }],
  [{ field: 'publishDate', value: '1956' }],
  [{ field: 'format', value: 'Book' }, { field: 'format', value: 'Large Print' }],
  [{ field: 'format', value: 'Book' }, { field: 'format', value: 'Book' }],
  [{ field: 'building', value: 'Nowhere' }],
  [{ field: 'language', value: 'Portuguese' }, { field: 'publishDate', value: '1958' }],
];

for (const staged of [false, true]) {
  test(`facets, filters and pages from the file's values equal pageOfWork over the records (${staged ? 'a first walk\'s staged puts' : 'puts one by one'})`, (t) => {
    const index = openWorkIndex({ path: ':memory:', keysOf: titleKey, facetsOf: (document) => facetValuesOfDocument(document, names) });
    t.teardown(() => index.close());
    index.put([...documents, otherWork], { staged });
    if (staged) index.moveStagedKeys();
    let compared = 0;
    for (const order of ['relevance', 'last-indexed'] as const) {
      for (const filters of filterSets) {
        for (const [offset, limit] of [[0, 50], [0, 3], [2, 3], [6, 3], [0, 0]] as const) {
          for (const facets of [true, false]) {
            if (!facets && filters.length === 0) continue;
            const query = { order, offset, limit, filters, facets };
            const expected = pageOfWork(records, query);
            const found = index.facetedVersions({ workKeys, ...query });
            t.deepEqual({
              total: found.total, ids: found.ids, unfilteredTotal: found.unfilteredTotal,
              ...(found.tally !== undefined ? { facets: facetCountsOfTally(found.tally) } : {}),
            }, {
              total: expected.total, ids: expected.records.map((record) => record.id), unfilteredTotal: expected.unfilteredTotal,
              ...(expected.facets !== undefined ? { facets: expected.facets } : {}),
            }, JSON.stringify(query));
            compared++;
          }
        }
      }
    }
    t.is(compared, 2 * (filterSets.length * 5 * 2 - 5));
  });
}

test('a replaced document\'s values replace its old ones; a removed document\'s are no longer counted', (t) => {
  const index = openWorkIndex({ path: ':memory:', keysOf: titleKey, facetsOf: (document) => facetValuesOfDocument(document, names) });
  t.teardown(() => index.close());
  index.put(documents);
  const changed = { ...documents[0], format: ['Manuscript'], language: undefined };
  index.put([changed]);
  index.remove(['facets:07']);
  const now = [changed, ...documents.slice(1, 6)].map((document) => recordFromDocument(toRecordDocument(document, DEFAULT_SOLR_FIELDS)));
  const query = { order: 'relevance', offset: 0, limit: 50, filters: [], facets: true } as const;
  t.deepEqual(facetCountsOfTally(index.facetedVersions({ workKeys, ...query }).tally!), pageOfWork(now, query).facets);
});

test('putFacets stores values for documents the file holds (a file made before they were kept), by id', (t) => {
  const before = openWorkIndex({ path: ':memory:', keysOf: titleKey });
  t.teardown(() => before.close());
  before.put(documents);
  const query = { workKeys, order: 'relevance', offset: 0, limit: 50, filters: [], facets: true } as const;
  t.deepEqual(facetCountsOfTally(before.facetedVersions(query).tally!), {}, 'no values kept without facetsOf');
  t.throws(() => before.putFacets(documents), { message: /facetsOf/ });
  const upgraded = openWorkIndex({ path: ':memory:', keysOf: titleKey, facetsOf: (document) => facetValuesOfDocument(document, names) });
  t.teardown(() => upgraded.close());
  upgraded.put(documents.map(({ id, title, last_indexed }) => ({ id, title, last_indexed })));
  t.is(upgraded.putFacets([...documents, { id: 'not:held', format: ['Book'] }]), documents.length);
  t.deepEqual(facetCountsOfTally(upgraded.facetedVersions(query).tally!), pageOfWork(records, query).facets);
});

test('a large work\'s orders and tally, kept between requests, follow every change to the file; a page past the end keeps the totals', (t) => {
  const index = openWorkIndex({ path: ':memory:', keysOf: titleKey, facetsOf: (document) => facetValuesOfDocument(document, names) });
  t.teardown(() => index.close());
  // Large enough for the file to keep its tally: every fixture document many times over, under other ids.
  const many = Array.from({ length: 300 }, (_, k) => ({ ...documents[k % documents.length], id: `many:${String(k).padStart(3, '0')}` }));
  index.put(many);
  const query = { workKeys, order: 'last-indexed', offset: 0, limit: 50, filters: [], facets: true } as const;
  const expected = (list: ReadonlyArray<Record<string, unknown>>) => {
    const page = pageOfWork(list.map((document) => recordFromDocument(toRecordDocument(document, DEFAULT_SOLR_FIELDS))), query);
    return { ids: page.records.map((record) => record.id), facets: page.facets };
  };
  const found = () => {
    const page = index.facetedVersions(query);
    return { ids: page.ids, facets: facetCountsOfTally(page.tally!) };
  };
  t.deepEqual(found(), expected(many));
  t.deepEqual(found(), expected(many), 'kept, the same');
  // Newest of all now, and of another format: first on the page, counted apart.
  const changed = [{ ...many[0], format: ['Manuscript'], last_indexed: '2025-05-01T00:00:00Z' }, ...many.slice(1)];
  index.put([changed[0]!]);
  t.deepEqual(found(), expected(changed), 'a put changes the kept order and tally');
  index.remove(['many:001']);
  t.deepEqual(found(), expected(changed.filter((document) => document.id !== 'many:001')), 'a removal too');
  t.deepEqual(index.findVersions({ workKeys, order: 'relevance', offset: 0, limit: -1 }).ids, changed.map((document) => document.id as string).filter((id) => id !== 'many:001').sort(), 'a negative limit: every id');
  const past = index.facetedVersions({ ...query, offset: 400 });
  t.deepEqual({ total: past.total, unfilteredTotal: past.unfilteredTotal, ids: past.ids }, { total: 299, unfilteredTotal: 299, ids: [] });
  t.deepEqual(index.findVersions({ workKeys, order: 'relevance', offset: 400, limit: 10 }), { total: 299, ids: [] });
});

test('a work fetched whole with its requested record holds the first page of the feed and of the HTML page', (t) => {
  // Otherwise a small work's versions would need a request of their own, or miss records of their first page.
  t.true(SMALL_WORK >= FEED_ROWS, `SMALL_WORK ${SMALL_WORK} against the feed's ${FEED_ROWS} rows`);
  t.true(SMALL_WORK >= PAGE_ROWS, `SMALL_WORK ${SMALL_WORK} against the page's ${PAGE_ROWS} rows`);
});
