/**
 * The local mapping (src/ingest/localMapping.ts): the file format and its errors, the flags over it, and
 * what it does to hand-written MARC records: ids from fallback fields with a prefix, institution and
 * building from constants or fields, overrides of the stock mapping, withdrawn records (Leader/05 d).
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { InvalidOptionError, InvalidRecordDocumentError } from '../../src/errors.js';
import {
  isStockMapping, localMarcDocument, parseLocalMapping, STOCK_MAPPING, withLocalSettings, withMappingFlags,
} from '../../src/ingest/localMapping.js';
import { recordDocumentFromMarc } from '../../src/ingest/marc/vufindMarcMapping.js';
import { isRecordDeletion } from '../../src/ingest/recordDeletion.js';
import type { MarcRecord } from '../../src/marc/marcRecord.js';
import { bookRecord, dataField } from '../support/marcFields.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/local-mapping/${name}`, import.meta.url), 'utf8');
const SETTINGS = parseLocalMapping(fixture('ids-from-035-with-prefix.properties'), 'ids-from-035-with-prefix.properties');

const withControlNumber: MarcRecord = bookRecord(
  { tag: '001', value: ' 12345 ' },
  dataField('245', '10', '$aSymphonies.$nNo. 5 /$cBeethoven.'),
  dataField('852', '  ', '$aVA$bMusic Library'),
  dataField('852', '  ', '$aVA$bAlderman'),
);
const onlyOclcNumber: MarcRecord = bookRecord(
  dataField('035', '  ', '$a(OCoLC)987'),
  dataField('245', '10', '$aSonatas /'),
);
const only907: MarcRecord = bookRecord(dataField('907', '  ', '$a.b1000'), dataField('245', '10', '$aQuartets'));
const withdrawn: MarcRecord = { leader: '00000dam a2200000 a 4500', fields: [dataField('035', '  ', '$a(OCoLC)555'), dataField('245', '10', '$aGone')] };

test('the stock mapping file-free: 001, no prefix, withdrawn records deleted', (t) => {
  t.true(isStockMapping(STOCK_MAPPING));
  t.false(isStockMapping(SETTINGS));
  const document = localMarcDocument(withControlNumber, STOCK_MAPPING);
  t.deepEqual(document, recordDocumentFromMarc(withControlNumber));
});

const idCases: ReadonlyArray<readonly [string, MarcRecord, string]> = [
  ['001 first, trimmed', withControlNumber, 'uva.12345'],
  ['035$a when there is no 001', onlyOclcNumber, 'uva.(OCoLC)987'],
  ['907$a when there is neither', only907, 'uva..b1000'],
];
for (const [name, record, id] of idCases) {
  test(`id: ${name}`, (t) => {
    const document = localMarcDocument(record, SETTINGS);
    t.false(isRecordDeletion(document));
    t.is((document as { id: string }).id, id);
  });
}

test('a record with none of the id fields is rejected, naming them', (t) => {
  const error = t.throws(() => localMarcDocument(bookRecord(dataField('245', '10', '$aX')), SETTINGS), { instanceOf: InvalidRecordDocumentError });
  t.regex(error!.reason, /none of the id fields \(001, 035\$a, 907\$a\)/);
  const stock = t.throws(() => localMarcDocument(bookRecord(dataField('245', '10', '$aX')), STOCK_MAPPING), { instanceOf: InvalidRecordDocumentError });
  t.regex(stock!.reason, /no 001.*--id-field/);
});

test('institution and building from a constant and from 852$b; title and format overridden', (t) => {
  const document = localMarcDocument(withControlNumber, SETTINGS) as Record<string, unknown>;
  t.deepEqual(document.institution, ['University of Virginia']);
  t.deepEqual(document.building, ['Music Library', 'Alderman']);
  t.is(document.title, 'Symphonies. No. 5', 'the 245abnp override, trimmed of ISBD punctuation like the stock title');
  t.deepEqual(document.format, ['Local archive']);
  t.deepEqual(document.work_keys_str_mv, recordDocumentFromMarc(withControlNumber).work_keys_str_mv, 'work keys stay the stock ones');
});

test('a field override that finds nothing leaves the field out', (t) => {
  const document = localMarcDocument(onlyOclcNumber, SETTINGS) as Record<string, unknown>;
  t.false('building' in document);
  t.is(document.title, 'Sonatas');
});

test('a withdrawn record (Leader/05 d) is a deletion of the id it would have had; delete_withdrawn = false loads it', (t) => {
  const deletion = localMarcDocument(withdrawn, SETTINGS);
  t.true(isRecordDeletion(deletion));
  t.deepEqual(deletion, { deletedRecordId: 'uva.(OCoLC)555' });
  const keep = parseLocalMapping('id = 035a\ndelete_withdrawn = false\n', 'keep.properties');
  const document = localMarcDocument(withdrawn, keep);
  t.false(isRecordDeletion(document));
  t.is((document as { id: string }).id, '(OCoLC)555');
});

test('flags replace the file: id fields, prefix, institution and building constants', (t) => {
  const settings = withMappingFlags(SETTINGS, { idFields: '907a:001', idPrefix: 'lib2-', institution: 'Library Two', building: 'Annex' });
  const document = localMarcDocument(withControlNumber, settings) as Record<string, unknown>;
  t.is(document.id, 'lib2-12345');
  t.deepEqual(document.institution, ['Library Two']);
  t.deepEqual(document.building, ['Annex']);
  t.is((localMarcDocument(only907, settings) as { id: string }).id, 'lib2-.b1000');
  t.throws(() => withMappingFlags(STOCK_MAPPING, { idFields: '35a' }), { instanceOf: InvalidOptionError, message: /--id-field/ });
});

test('Dublin Core documents get the prefix and the constants only', (t) => {
  const document = withLocalSettings({ id: 'oai:repo:1', title: 'T', institution: ['Old'] }, SETTINGS);
  t.deepEqual(document, { id: 'uva.oai:repo:1', title: 'T', institution: ['University of Virginia'], format: ['Local archive'] });
});

const fileErrors: ReadonlyArray<readonly [string, string, RegExp]> = [
  ['unknown key', fixture('unknown-key-on-line-4.properties'), /"f:4".*unknown key "instituton"/],
  ['a line without =', 'id = 001\njust words\n', /"f:2".*expected "key = value"/],
  ['a key set twice', 'id = 001\n\nid = 035a\n', /"f:3".*set again \(first on line 1\)/],
  ['an id that is not a field', 'id = control number\n', /"f:1".*"id" needs MARC fields/],
  ['a field value neither quoted nor a field', 'building = Main Library\n', /"f:1".*"quoted constant"/],
  ['delete_withdrawn not a boolean', 'delete_withdrawn = yes\n', /"f:1".*true or false/],
  ['a key without value', 'institution =\n', /"f:1".*has no value/],
];
for (const [name, text, message] of fileErrors) {
  test(`mapping file error names the line: ${name}`, (t) => {
    t.throws(() => parseLocalMapping(text, 'f'), { instanceOf: InvalidOptionError, message });
  });
}

test('control field positions and comments with ! are read', (t) => {
  const settings = parseLocalMapping('! a comment\nid = 001\nformat = 008[35-37]\n', 'f');
  const record = bookRecord({ tag: '001', value: 'x' }, { tag: '008', value: '850101s1985    xx            000 0 eng d' }, dataField('245', '10', '$aT'));
  t.deepEqual((localMarcDocument(record, settings) as Record<string, unknown>).format, ['eng']);
});
