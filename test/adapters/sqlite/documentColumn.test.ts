import test from 'ava';
import { documentColumnOf } from '../../../src/adapters/sqlite/indexTables.js';
import { prepareRecordDocument } from '../../../src/ingest/prepareRecordDocument.js';
import { RECORD_FIELDS } from '../../../src/record/recordFields.js';
import type { RecordDocument } from '../../../src/record/catalogRecord.js';

// What the column must hold: JSON.stringify's own filter over the fields kept in it, in table order.
const KEPT = RECORD_FIELDS.map((field) => field.name).filter((name) => name !== 'id' && name !== 'last_indexed' && name !== 'work_keys_str_mv');
const MULTI_VALUED = new Set(RECORD_FIELDS.filter((field) => field.multiValued).map((field) => field.name as string));
const byStringify = (document: RecordDocument) => JSON.stringify(document, KEPT);
const NOW = new Date('2025-07-01T00:00:00Z');

test('the document column holds the kept fields as JSON.stringify filters them, whatever their order and content', (t) => {
  const documents: unknown[] = [
    { id: 'only-id' },
    { id: 'nulls', title: null, author: null, format: ['Book'] },
    { building: 'Main', id: 'out-of-order', url: [], title: 'Título — "quoted" \\ back\nslash', publishDate: ['1999', 'c2001'] },
    { id: 'extra-fields', title: 'Kept', fullrecord: '<record/>', spelling: ['x'], author2: ['Ünïcødé', '\u{1F600}', 'lone \uD800 half'] },
    { id: 'control', title: '\u0000\u001f\u2028\u2029', title_short: '', institution: ['A', 'B'], author_corporate: 'Corp' },
    { id: 'all', title: 't', title_short: 's', title_uniform: ['u'], author: 'a', author2: ['b'], author_corporate: ['c'], format: 'f',
      publishDate: '2001', last_indexed: '2024-01-02T03:04:05Z', url: 'http://x', work_keys_str_mv: ['k'], institution: 'i', building: ['b'] },
  ];
  // And documents with every subset of the kept fields, in a shuffled order.
  let seed = 7;
  const next = (below: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed % below;
  };
  for (let i = 0; i < 300; i++) {
    const fields = KEPT.filter(() => next(2) === 1).sort(() => next(3) - 1);
    documents.push(Object.fromEntries([['id', `random-${i}`], ...fields.map((name) => [name, next(3) === 0 ? `v${i}` : next(2) === 0 ? null : MULTI_VALUED.has(name) ? [`a${i}`, 'b'] : [`a${i}`]])]));
  }
  for (const input of documents) {
    const { document } = prepareRecordDocument(input, NOW);
    t.is(documentColumnOf(document), byStringify(document), document.id);
  }
});
