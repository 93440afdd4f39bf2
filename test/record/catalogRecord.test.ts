import test from 'ava';
import fc from 'fast-check';
import { recordFromDocument, yearOf, mainAuthorOf, shortTitleOf, hasTitle, checkRecordDocument, normaliseInstant, instantOfMillis } from '../../src/record/catalogRecord.js';
import { InvalidRecordDocumentError } from '../../src/errors.js';
import { assertPropertyHeld } from '../support/propertyRuns.js';

test('year is the first run of four digits of the first publishDate', (t) => {
  t.is(yearOf({ publishDates: ['c2019'] }), '2019');
  t.is(yearOf({ publishDates: ['[2019?]', '2001'] }), '2019');
  t.is(yearOf({ publishDates: ['2019-05-02'] }), '2019');
  t.is(yearOf({ publishDates: ['s.d.'] }), undefined);
  t.is(yearOf({ publishDates: [] }), undefined);
  t.is(yearOf({ publishDates: ['12345'] }), '1234', 'the leftmost four of a longer run');
  t.is(yearOf({ publishDates: ['vol. 12, no. 345, 1987'] }), '1987', 'shorter runs before it are passed over');
  t.is(yearOf({ publishDates: ['\u0661\u0669\u0668\u0667 / 198x'] }), undefined, 'only ASCII digits count, as \\d');
});

test('year is what /\\d{4}/ finds in the first publishDate, whatever its characters', (t) => {
  const runs = 100;
  const date = fc.array(fc.constantFrom('1', '9', '0', '5', 'x', ' ', '-', '\u0661', '\uD83D')).map((units) => units.join(''));
  assertPropertyHeld(t, fc.check(fc.property(date, (text) => yearOf({ publishDates: [text] }) === /\d{4}/.exec(text)?.[0]), { numRuns: runs }), runs);
});

test('main author is the first author, else the first corporate author', (t) => {
  t.is(mainAuthorOf({ authors: ['Tolkien, J. R. R.', 'Other'], corporateAuthors: ['Inst'] }), 'Tolkien, J. R. R.');
  t.is(mainAuthorOf({ authors: [], corporateAuthors: ['Universidade de São Paulo'] }), 'Universidade de São Paulo');
  t.is(mainAuthorOf({ authors: [], corporateAuthors: [] }), undefined);
});

test('short title falls back to the title', (t) => {
  t.is(shortTitleOf({ title: 'The Hobbit, or, There and back again', shortTitle: 'The Hobbit' }), 'The Hobbit');
  t.is(shortTitleOf({ title: 'Dom Casmurro' }), 'Dom Casmurro');
  t.is(shortTitleOf({}), undefined);
});

test('a record has a title to show unless it is absent or blank', (t) => {
  for (const [title, shown] of [['Dom Casmurro', true], [' O Guarani ', true], [undefined, false], ['', false], ['  \t', false]] as const) {
    t.is(hasTitle(title === undefined ? {} : { title }), shown, JSON.stringify(title));
  }
});

test('a document becomes a record with single values spread into lists', (t) => {
  const record = recordFromDocument({
    id: 'a:1', title: 'T', author: 'A', format: ['Book', 'Thesis'], publishDate: '2019',
    last_indexed: '2024-01-02T03:04:05Z', work_keys_str_mv: ['AT a t'],
  });
  t.deepEqual(record.authors, ['A']);
  t.deepEqual(record.formats, ['Book', 'Thesis']);
  t.is(record.lastIndexed, '2024-01-02T03:04:05.000Z');
  t.deepEqual(record.workKeys, ['AT a t']);
});

test('bad documents are refused with a reason naming the field', (t) => {
  const reasonOf = (doc: unknown) => t.throws(() => checkRecordDocument(doc), { instanceOf: InvalidRecordDocumentError })?.reason;
  t.regex(reasonOf({ title: 'x' }) ?? '', /"id" is missing/);
  t.regex(reasonOf({ id: 7 }) ?? '', /"id" must be a string/);
  t.regex(reasonOf({ id: '  ' }) ?? '', /"id" is empty/);
  t.regex(reasonOf({ id: 'x', author: [1] }) ?? '', /"author"\[0\] must be a string/);
  t.regex(reasonOf({ id: 'x', author: ['a', null] }) ?? '', /"author"\[1\] must be a string, not null/);
  t.regex(reasonOf({ id: 'x', format: { book: true } }) ?? '', /"format" must be a string, not an object/);
  t.regex(reasonOf({ id: 'x', last_indexed: 'yesterday' }) ?? '', /last_indexed/);
  t.regex(reasonOf([]) ?? '', /JSON object/);
});

// What normaliseInstant must answer: toISOString of what Date.parse makes of the value (a bare date is
// midnight UTC), or a refusal when it is no ISO 8601 date-time or no date at all.
function normalisedByDate(value: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(value)) return undefined;
  const time = Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

test('instants already in normal form, and every near miss of it, normalise as Date.parse and toISOString make them', (t) => {
  const cases = [
    '2024-02-29T23:59:59.999Z', '2023-02-29T00:00:00.000Z', '2024-02-30T00:00:00.000Z', '2100-02-29T00:00:00.000Z',
    '2000-02-29T00:00:00.000Z', '2024-04-31T00:00:00.000Z', '2024-01-01T24:00:00.000Z', '2024-01-01T23:60:00.000Z',
    '2024-01-01T23:59:60.000Z', '2024-00-10T00:00:00.000Z', '2024-13-10T00:00:00.000Z', '2024-01-00T00:00:00.000Z',
    '0000-01-01T00:00:00.000Z', '2024-01-01T00:00:00.00Z', '2024-01-01T00:00:00.0000Z', '2024-01-01T00:00:00Z',
    '2024-01-01T00:00:00.000+00:00', '2024-01-01 00:00:00.000Z', '2024-01-01', '2024-1a-01T00:00:00.000Z',
  ];
  // And random values of the normal form's shape, many with a field out of its range.
  let seed = 20241122;
  const next = (below: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed % below;
  };
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  for (let i = 0; i < 5000; i++) {
    cases.push(`${pad(next(10000), 4)}-${pad(next(14), 2)}-${pad(next(33), 2)}T${pad(next(26), 2)}:${pad(next(62), 2)}:${pad(next(62), 2)}.${pad(next(1000), 3)}Z`);
  }
  for (const value of cases) {
    const expected = normalisedByDate(value);
    if (expected === undefined) t.throws(() => normaliseInstant(value), { instanceOf: InvalidRecordDocumentError }, value);
    else t.is(normaliseInstant(value), expected, value);
  }
});

test('an instant in milliseconds is written as toISOString writes it: leap days, century years, the ends of the range, and outside it', (t) => {
  const instants = [
    0, 1, 999, 86_399_999, 86_400_000, Date.UTC(1972, 1, 29, 12), Date.UTC(1999, 11, 31, 23, 59, 59, 999), Date.UTC(2000, 1, 29),
    Date.UTC(2000, 2, 1), Date.UTC(2100, 1, 28, 23, 59, 59, 5), Date.UTC(2100, 2, 1), Date.UTC(2400, 1, 29, 0, 0, 0, 50),
    Date.UTC(9999, 11, 31, 23, 59, 59, 999), Date.UTC(10000, 0, 1), -1, Date.UTC(1969, 11, 31, 0, 0, 0, 1), 1.5,
  ];
  for (const ms of instants) t.is(instantOfMillis(ms), new Date(ms).toISOString(), String(ms));
  fc.assert(fc.property(fc.integer({ min: 0, max: Date.UTC(10000, 0, 1) - 1 }), (ms) => instantOfMillis(ms) === new Date(ms).toISOString()), { numRuns: 20_000 });
});
