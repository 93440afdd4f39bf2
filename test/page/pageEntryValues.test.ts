import test from 'ava';
import { buildVersionsPageModel } from '../../src/page/pageModel.js';
import { recordFromDocument } from '../../src/record/catalogRecord.js';

const pageOf = (document: Record<string, unknown>) => {
  const record = recordFromDocument({ id: 'values-1', title: 'Values', author: 'A', format: 'Book', ...document });
  return buildVersionsPageModel({
    requestedRecord: record, versions: { total: 1, records: [record] }, page: 1, language: 'en', baseUrl: 'https://catalog.example.edu',
    siteTitle: 'Catalog', catalogHomeUrl: '/', translate: (key) => key, languages: [{ code: 'en', name: 'English' }],
  }).entries[0]!;
};

test('an entry shows each value once, trimmed, blank ones left out, in the order the record gives them: a few values or many', (t) => {
  for (const count of [3, 40]) {
    const publishers = Array.from({ length: count }, (_, i) => [` Editora ${i % 5} `, '', `Editora ${i % 5}`][i % 3]!);
    const entry = pageOf({ publisher: publishers, publishPlace: ['  ', 'Rio de Janeiro', ' Rio de Janeiro'], institution: ['USP', ' UFRJ'], building: ['UFRJ', 'Biblioteca Central', 'USP '] });
    const expected = [...new Set(publishers.map((value) => value.trim()).filter((value) => value !== ''))].join('; ');
    t.deepEqual(entry.details.find((detail) => detail.label === 'record.publisher')?.value, `Rio de Janeiro: ${expected}`, `${count} publishers`);
    t.deepEqual(entry.source?.names, ['USP', 'UFRJ', 'Biblioteca Central']);
  }
});

test('the publication detail is the place alone, the publisher alone, or neither', (t) => {
  t.is(pageOf({ publishPlace: 'Lisboa' }).details.find((detail) => detail.label === 'record.publisher')?.value, 'Lisboa');
  t.is(pageOf({ publisher: 'Ática' }).details.find((detail) => detail.label === 'record.publisher')?.value, 'Ática');
  t.is(pageOf({ publisher: ' ', publishPlace: [''] }).details.find((detail) => detail.label === 'record.publisher'), undefined);
});
