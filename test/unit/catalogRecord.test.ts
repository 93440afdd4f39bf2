import test from 'ava';
import { recordFromDocument, yearOf, mainAuthorOf, shortTitleOf, checkRecordDocument } from '../../src/record/catalogRecord.js';
import { InvalidRecordDocumentError } from '../../src/errors.js';

test('year is the first run of four digits of the first publishDate', (t) => {
  t.is(yearOf({ publishDates: ['c2019'] }), '2019');
  t.is(yearOf({ publishDates: ['[2019?]', '2001'] }), '2019');
  t.is(yearOf({ publishDates: ['2019-05-02'] }), '2019');
  t.is(yearOf({ publishDates: ['s.d.'] }), undefined);
  t.is(yearOf({ publishDates: [] }), undefined);
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
  t.regex(reasonOf({ id: 'x', last_indexed: 'yesterday' }) ?? '', /last_indexed/);
  t.regex(reasonOf([]) ?? '', /JSON object/);
});
