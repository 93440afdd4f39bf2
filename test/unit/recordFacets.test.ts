import test from 'ava';
import { recordFromDocument } from '../../src/record/catalogRecord.js';
import { facetCountsOf, facetValuesOf, pageOfWork } from '../../src/record/recordFacets.js';

const record = (id: string, fields: Record<string, unknown>) => recordFromDocument({ id, last_indexed: '2025-01-01T00:00:00.000Z', work_keys_str_mv: ['K'], ...fields });

test('at most 30 values a field: the most frequent, equal counts by value', (t) => {
  const records = Array.from({ length: 40 }, (_, i) => record(`r${i}`, { publishDate: [String(1900 + i)], format: i < 3 ? ['Map'] : ['Book'] }));
  const counts = facetCountsOf(records);
  t.is(counts.publishDate?.length, 30);
  t.deepEqual(counts.publishDate?.[0], { value: '1900', count: 1 });
  t.deepEqual(counts.publishDate?.at(-1), { value: '1929', count: 1 });
  t.deepEqual(counts.format, [{ value: 'Book', count: 37 }, { value: 'Map', count: 3 }]);
});

test('publication dates count as years; a value repeated in one record counts once', (t) => {
  const catalogued = record('a', { publishDate: ['[1899?]', 'c1899'], language: ['Portuguese', 'Portuguese '] });
  t.deepEqual(facetValuesOf(catalogued, 'publishDate'), ['1899']);
  t.deepEqual(facetCountsOf([catalogued]).language, [{ value: 'Portuguese', count: 1 }]);
});

test('without filters or facets asked for, a page says nothing of them', (t) => {
  const page = pageOfWork([record('a', {}), record('b', {})], { order: 'relevance', offset: 1, limit: 5 });
  t.deepEqual({ ...page, records: page.records.map((r) => r.id) }, { total: 2, records: ['b'] });
});
