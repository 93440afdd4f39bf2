import { readFileSync } from 'node:fs';
import test from 'ava';
import { recordFromDocument } from '../../src/record/catalogRecord.js';
import { addToFacetTally, facetCountsOf, facetCountsOfTally, facetValuesOf, pageOfWork } from '../../src/record/recordFacets.js';
import { facetTallyOfDocuments, facetTallyOfDocumentTexts } from '../../src/record/documentFacetTally.js';

const record = (id: string, fields: Record<string, unknown>) => recordFromDocument({ id, last_indexed: '2025-01-01T00:00:00.000Z', work_keys_str_mv: ['K'], ...fields });

test('at most 30 values a field, the most frequent first, equal counts by value; the years every one, newest first', (t) => {
  // 40 records of 40 years (a reprint every year) in 40 libraries, three of them maps.
  const records = Array.from({ length: 40 }, (_, i) => record(`r${i}`, {
    publishDate: [String(1900 + i)], format: i < 3 ? ['Map'] : ['Book'], institution: [`Library ${String(i).padStart(2, '0')}`],
  }));
  const counts = facetCountsOf(records);
  t.is(counts.publishDate?.length, 40, 'no year dropped');
  t.deepEqual(counts.publishDate?.slice(0, 2), [{ value: '1939', count: 1 }, { value: '1938', count: 1 }]);
  t.deepEqual(counts.publishDate?.at(-1), { value: '1900', count: 1 });
  t.is(counts.institution?.length, 30);
  t.deepEqual([counts.institution?.[0]?.value, counts.institution?.at(-1)?.value], ['Library 00', 'Library 29']);
  t.deepEqual(counts.format, [{ value: 'Book', count: 37 }, { value: 'Map', count: 3 }]);
});

test('years are ordered by year, not by how many versions carry them', (t) => {
  const table: Array<[string, string[][], string[]]> = [
    ['a reprint-heavy year stays in its place', [['1998'], ['2011'], ['2011'], ['2011'], ['1813']], ['2011', '1998', '1813']],
    ['dates as catalogued, read as years', [['[1899?]'], ['c1970'], ['2016-03-01']], ['2016', '1970', '1899']],
    ['a record of two years counts in each', [['1850', '1881'], ['1882']], ['1882', '1881', '1850']],
  ];
  for (const [name, dates, years] of table) {
    const counts = facetCountsOf(dates.map((publishDate, i) => record(`r${i}`, { publishDate })));
    t.deepEqual(counts.publishDate?.map((value) => value.value), years, name);
  }
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

test('a tally kept for some records, with a few more added, counts as the records together; the kept tally is not changed', (t) => {
  const kept = Array.from({ length: 40 }, (_, i) => record(`k${i}`, { publishDate: [String(1900 + (i % 35))], format: i % 4 === 0 ? ['Map'] : ['Book'], language: ['English'] }));
  const added = [record('a1', { publishDate: ['1934'], format: ['Map'], institution: ['Library A'] }), record('a2', { publishDate: ['1899'], format: ['Map'] })];
  const tally = addToFacetTally(kept);
  const before = facetCountsOfTally(tally);
  t.deepEqual(facetCountsOfTally(addToFacetTally(added, tally)), facetCountsOf([...kept, ...added]));
  t.deepEqual(facetCountsOfTally(tally), before);
  t.deepEqual(before, facetCountsOf(kept));
  t.is(before.institution, undefined, 'a field no record carries is absent');
});

test('documents counted without being made records count as the records made of them', (t) => {
  // The forms a stored document may hold: a single string for a list, null, an empty list, blanks and
  // repeats, catalogued dates, a field missing.
  const documents: Array<Record<string, unknown>> = [
    { format: 'Book', publishDate: '[1899?]', language: ['Portuguese', 'Portuguese '], institution: null },
    { format: ['Book', 'eBook'], publishDate: ['c1901', 'n.d.'], building: [], language: 'English' },
    { format: [' ', 'Map'], publishDate: [], institution: ['Library A', 'Library B'], building: ['Main'] },
    { format: ['Map'] },
  ];
  const records = documents.map((fields, i) => record(`d${i}`, fields));
  t.deepEqual(facetCountsOfTally(facetTallyOfDocuments(documents)), facetCountsOf(records));
  t.deepEqual(facetCountsOfTally(facetTallyOfDocuments([])), {});
});

test('stored documents counted from their JSON texts count as the records made of them, whatever the texts hold', (t) => {
  // Texts as a stored document may be written: escapes in values and names, quotes and braces inside
  // strings, spaces, lists, null, missing fields, other fields of any shape, a name given twice.
  const texts = readFileSync(new URL('../fixtures/stored-documents-with-awkward-facets.jsonl', import.meta.url), 'utf8').split('\n').filter((line) => line !== '');
  const records = texts.map((text, i) => record(`s${i}`, JSON.parse(text) as Record<string, unknown>));
  const counts = facetCountsOfTally(facetTallyOfDocumentTexts(texts));
  t.deepEqual(counts, facetCountsOf(records));
  t.deepEqual(counts.format, [{ value: 'Book', count: 3 }, { value: 'Map', count: 2 }, { value: 'eBook', count: 2 }, { value: 'Journal', count: 1 }, { value: 'Thesis', count: 1 }]);
  t.deepEqual(counts.institution?.map(({ value }) => value), ['Biblioteca', 'Bibliothèque 𝔐', 'Library "A"', 'Library B\\']);
  // Text by text as well: a value that one text carries is not lost to a neighbour.
  for (const [i, text] of texts.entries()) t.deepEqual(facetCountsOfTally(facetTallyOfDocumentTexts([text])), facetCountsOf([records[i]!]), text);
  // Some given as texts, the others parsed already (a page's records, parsed to be given out).
  t.deepEqual(facetCountsOfTally(facetTallyOfDocumentTexts(texts.slice(0, 4), texts.slice(4).map((text) => JSON.parse(text) as Record<string, unknown>))), counts);
  t.deepEqual(facetCountsOfTally(facetTallyOfDocumentTexts([])), {});
});

test('a stored text that is not JSON fails as JSON.parse fails, not with a count', (t) => {
  t.throws(() => facetTallyOfDocumentTexts(['{"format":"Book"']), { instanceOf: SyntaxError });
});
