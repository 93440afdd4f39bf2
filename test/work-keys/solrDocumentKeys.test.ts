/**
 * keysOf(document, profile) (src/work-keys/storedDocumentKeys.ts): a stored Solr document's work
 * keys as `load` makes them: from `fullrecord` (binary MARC as SolrMarc stores it, MARCXML) or from the
 * stored-field list; documents that cannot be keyed say why. And the `workIndex` option of
 * createSolrIndex, checked at creation.
 */
import test from 'ava';
import { createSolrIndex } from '../../src/adapters/solr/solrIndex.js';
import { keysOf, STORED_KEY_FIELDS } from '../../src/work-keys/storedDocumentKeys.js';
import { extendedWorkKeys } from '../../src/work-keys/extended/extendedWorkKeys.js';
import { InvalidOptionError } from '../../src/errors.js';
import { parseMarcXml } from '../../src/marc/marcXmlReader.js';
import { marcWorkKeys } from '../../src/work-keys/marcWorkKeys.js';
import { workStatementFromMarc } from '../../src/work-keys/extended/marcWorkStatement.js';

const HOBBIT_XML = `<record xmlns="http://www.loc.gov/MARC21/slim"><leader>00000nam a2200000 a 4500</leader>
<controlfield tag="001">hobbit-1</controlfield>
<datafield tag="100" ind1="1" ind2=" "><subfield code="a">Tolkien, J. R. R.</subfield></datafield>
<datafield tag="245" ind1="1" ind2="4"><subfield code="a">The hobbit :</subfield><subfield code="b">or, There and back again</subfield></datafield>
</record>`;

/** The same record as ISO 2709, with SolrMarc's #29; #30; #31; in place of the three separators. */
function solrMarcBinary(): string {
  const fields: Array<[string, string]> = [
    ['001', 'hobbit-1'],
    ['100', '1 #31;aTolkien, J. R. R.'],
    ['245', '14#31;aThe hobbit :#31;bor, There and back again'],
  ];
  const real = fields.map(([tag, data]) => [tag, `${data.replaceAll('#31;', '\x1f')}\x1e`] as const);
  let offset = 0;
  const directory = real.map(([tag, data]) => {
    const entry = `${tag}${String(Buffer.byteLength(data)).padStart(4, '0')}${String(offset).padStart(5, '0')}`;
    offset += Buffer.byteLength(data);
    return entry;
  }).join('');
  const base = 24 + directory.length + 1;
  const length = base + offset + 1;
  const leader = `${String(length).padStart(5, '0')}nam a22${String(base).padStart(5, '0')} a 4500`;
  const record = `${leader}${directory}\x1e${real.map(([, data]) => data).join('')}\x1d`;
  return record.replaceAll('\x1d', '#29;').replaceAll('\x1e', '#30;').replaceAll('\x1f', '#31;');
}

test('fullrecord: binary MARC (SolrMarc escapes) and MARCXML give the keys load gives, under both profiles', (t) => {
  const record = parseMarcXml(HOBBIT_XML)[0]!;
  const vufind = marcWorkKeys(record);
  const extended = extendedWorkKeys(workStatementFromMarc(record));
  t.true(vufind.length > 0);
  for (const document of [
    { id: 'hobbit-1', fullrecord: HOBBIT_XML, record_format: 'marcxml' },
    { id: 'hobbit-1', fullrecord: HOBBIT_XML },
    { id: 'hobbit-1', fullrecord: solrMarcBinary(), record_format: 'marc' },
    { id: 'hobbit-1', fullrecord: solrMarcBinary() },
  ]) {
    t.deepEqual(keysOf(document, 'vufind'), { keys: vufind }, document.record_format ?? 'no record_format');
    t.deepEqual(keysOf(document, 'extended'), { keys: extended });
  }
  t.regex(keysOf({ id: 'x', fullrecord: 'not marc at all', record_format: 'marc' }, 'vufind').unkeyable ?? '', /not readable MARC/);
  t.regex(keysOf({ id: 'x', fullrecord: '<record><unclosed', record_format: 'marcxml' }, 'vufind').unkeyable ?? '', /not readable MARCXML|no MARCXML record/);
});

test('stored fields: every title and creator (dc.* included); extended adds DOI keys; no title is reported; the list is configurable', (t) => {
  const aggregator = {
    id: 'oai:repo:1', title: 'Educação ambiental', title_short: 'Educação ambiental', author: ['Silva, Ana'], author2: ['Costa, Rui'],
    'dc.title.none.fl_str_mv': ['Educação ambiental', 'Environmental education'], 'dc.creator.none.fl_str_mv': ['Silva, Ana', 'Costa, Rui'],
    'dc.identifier.doi.fl_str_mv': ['https://doi.org/10.1234/ABC.5'], 'dc.language.none.fl_str_mv': ['por'],
  };
  const vufind = keysOf(aggregator, 'vufind').keys;
  t.true(vufind.includes('AT silvaana educacaoambiental'), vufind.join(' | '));
  t.true(vufind.includes('AT costarui environmentaleducation'), vufind.join(' | '));
  const extended = keysOf(aggregator, 'extended').keys;
  t.true(extended.some((key) => key.includes('10.1234/abc.5')), extended.join(' | '));
  t.deepEqual(keysOf({ id: 'oai:repo:2', format: ['Thesis'] }, 'vufind'), { keys: [], unkeyable: 'no stored title (and no fullrecord)' });
  const narrow = { ...STORED_KEY_FIELDS, titles: ['title'], creators: ['author'] };
  t.deepEqual(keysOf(aggregator, 'vufind', narrow).keys, ['AT silvaana educacaoambiental']);
  t.deepEqual(keysOf({ id: 'k', given_str_mv: ['SHARED x'] }, 'vufind', { ...STORED_KEY_FIELDS, workKeys: ['given_str_mv'] }), { keys: ['SHARED x'] });
});

test('createSolrIndex checks the workIndex option at creation, naming it', (t) => {
  const url = 'http://127.0.0.1:9/solr/biblio';
  for (const [workIndex, option] of [
    ['file.sqlite', /workIndex/], [{}, /workIndex\.path/], [{ path: '' }, /workIndex\.path/],
    [{ path: 'x.sqlite', keyProfile: 'frbr' }, /workIndex\.keyProfile/], [{ path: 'x.sqlite', storedFields: { title: ['x'] } }, /workIndex\.storedFields\.title/],
    [{ path: 'x.sqlite', storedFields: { titles: ['bad name!'] } }, /workIndex\.storedFields\.titles/], [{ path: 'x.sqlite', cache: true }, /workIndex\.cache/],
    [{ path: '/no/such/folder/work-index.sqlite' }, /workIndex\.path.*cannot open/],
  ] as const) {
    t.throws(() => createSolrIndex({ url, workIndex: workIndex as never }), { instanceOf: InvalidOptionError, message: option });
  }
});
