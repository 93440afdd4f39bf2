/**
 * Dublin Core (oai_dc) to record document, rule by rule, as VuFind's stock XSLT for repositories maps it.
 */
import test from 'ava';
import { recordDocumentFromDublinCore, recordIdFromOaiIdentifier } from '../../src/ingest/oai/dublinCoreMapping.js';
import { checkRecordDocument, type RecordDocument } from '../../src/record/catalogRecord.js';
import { InvalidRecordDocumentError } from '../../src/errors.js';

const OPEN = '<oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/">';
const CLOSE = '</oai_dc:dc>';

function dc(...elements: string[]): string {
  return `${OPEN}${elements.join('')}${CLOSE}`;
}

const ID = 'oai:repositorio.example.br:123/456';

test('a complete record: every field the XSLT fills', (t) => {
  const doc = recordDocumentFromDublinCore(dc(
    '<dc:title>The Hobbit</dc:title>',
    '<dc:title>There and back again</dc:title>',
    '<dc:creator>Tolkien, J. R. R.</dc:creator>',
    '<dc:creator>Anderson, Douglas A.</dc:creator>',
    '<dc:creator>Hammond, Wayne G.</dc:creator>',
    '<dc:contributor>Someone Else</dc:contributor>',
    '<dc:date>1937-09-21</dc:date>',
    '<dc:date>2002</dc:date>',
    '<dc:type>Text</dc:type>',
    '<dc:type>Book</dc:type>',
    '<dc:identifier>http://hdl.handle.net/123/456</dc:identifier>',
    '<dc:identifier>urn:isbn:9780261102217</dc:identifier>',
    '<dc:identifier>https://doi.org/10.1000/182</dc:identifier>',
  ), ID, { institution: 'Universidade Exemplo' });
  t.deepEqual(doc, {
    id: ID,
    title: 'The Hobbit',
    title_short: 'The Hobbit',
    author: ['Tolkien, J. R. R.'],
    author2: ['Anderson, Douglas A.', 'Hammond, Wayne G.'],
    publishDate: ['1937'],
    format: ['Text'],
    url: ['http://hdl.handle.net/123/456', 'https://doi.org/10.1000/182'],
    institution: ['Universidade Exemplo'],
    work_keys_str_mv: [
      'AT tolkienjrr thehobbit', 'AT andersondouglasa thehobbit', 'AT hammondwayneg thehobbit',
      'AT tolkienjrr hobbit', 'AT andersondouglasa hobbit', 'AT hammondwayneg hobbit',
    ],
  });
  t.notThrows(() => checkRecordDocument(doc));
});

const rules: ReadonlyArray<{ rule: string; elements: string[]; options?: { institution?: string; idPrefix?: string }; identifier?: string; expected: Partial<RecordDocument>; absent?: string[] }> = [
  {
    rule: 'title: the first dc:title that is not blank, white space collapsed',
    elements: ['<dc:title>  </dc:title>', '<dc:title>\n  Dom\n  Casmurro </dc:title>', '<dc:title>Other</dc:title>'],
    expected: { title: 'Dom Casmurro', title_short: 'Dom Casmurro' },
  },
  {
    rule: 'author: the first non-blank creator; author2: the others, blank ones dropped',
    elements: ['<dc:title>T</dc:title>', '<dc:creator> </dc:creator>', '<dc:creator>Assis,  Machado de</dc:creator>', '<dc:creator></dc:creator>', '<dc:creator>Outro</dc:creator>'],
    expected: { author: ['Assis, Machado de'], author2: ['Outro'] },
  },
  {
    rule: 'one creator: author only, no author2',
    elements: ['<dc:title>T</dc:title>', '<dc:creator>Só</dc:creator>'],
    expected: { author: ['Só'] },
    absent: ['author2'],
  },
  {
    rule: 'no creator: no author fields and no work keys (a key needs an author)',
    elements: ['<dc:title>Anonymous work</dc:title>'],
    expected: { work_keys_str_mv: [] },
    absent: ['author', 'author2'],
  },
  {
    rule: 'contributors are not authors',
    elements: ['<dc:title>T</dc:title>', '<dc:contributor>Orientador, Prof.</dc:contributor>'],
    expected: { title: 'T' },
    absent: ['author', 'author2'],
  },
  {
    rule: 'publishDate: the first four characters of the first dc:date',
    elements: ['<dc:title>T</dc:title>', '<dc:date>2019-03-01T12:00:00Z</dc:date>', '<dc:date>2001</dc:date>'],
    expected: { publishDate: ['2019'] },
  },
  {
    rule: 'no dc:date, no dc:type, no URL: those fields are left out',
    elements: ['<dc:title>T</dc:title>', '<dc:identifier>10.1000/182</dc:identifier>', '<dc:identifier>ftp://x.example/y</dc:identifier>'],
    expected: { title: 'T' },
    absent: ['publishDate', 'format', 'url', 'institution'],
  },
  {
    rule: 'format: the first dc:type',
    elements: ['<dc:title>T</dc:title>', '<dc:type>info:eu-repo/semantics/doctoralThesis</dc:type>', '<dc:type>Text</dc:type>'],
    expected: { format: ['info:eu-repo/semantics/doctoralThesis'] },
  },
  {
    rule: 'url: every dc:identifier that is an http(s) URL, trimmed',
    elements: ['<dc:title>T</dc:title>', '<dc:identifier> https://repo.example/1 </dc:identifier>', '<dc:identifier>HTTP://REPO.EXAMPLE/2</dc:identifier>', '<dc:identifier>http://</dc:identifier>'],
    expected: { url: ['https://repo.example/1', 'HTTP://REPO.EXAMPLE/2'] },
  },
  {
    rule: 'id: the OAI identifier, less idPrefix when it starts with it',
    elements: ['<dc:title>T</dc:title>'],
    options: { idPrefix: 'oai:repositorio.example.br:' },
    expected: { id: '123/456' },
  },
  {
    rule: 'id: an idPrefix the identifier does not start with changes nothing',
    elements: ['<dc:title>T</dc:title>'],
    options: { idPrefix: 'oai:elsewhere:' },
    expected: { id: ID },
  },
  {
    rule: 'work keys: the first title as it is and without its leading English article, with every creator',
    elements: ['<dc:title>A Study in Scarlet</dc:title>', '<dc:title>The Other</dc:title>', '<dc:creator>Doyle, Arthur Conan</dc:creator>', '<dc:creator>Paget, Sidney</dc:creator>'],
    expected: { work_keys_str_mv: ['AT doylearthurconan astudyinscarlet', 'AT pagetsidney astudyinscarlet', 'AT doylearthurconan studyinscarlet', 'AT pagetsidney studyinscarlet'] },
  },
  {
    rule: 'work keys: accents and case are folded as the rest of the catalogue folds them',
    elements: ['<dc:title>Memórias Póstumas de Brás Cubas</dc:title>', '<dc:creator>Assis, Machado de</dc:creator>'],
    expected: { work_keys_str_mv: ['AT assismachadode memoriaspostumasdebrascubas'] },
  },
  {
    rule: 'elements are found at any depth and CDATA and entities are text',
    elements: ['<dc:title><![CDATA[Tom & Jerry]]></dc:title>', '<wrapper xmlns="urn:x"><dc:creator>Hanna &amp; Barbera</dc:creator></wrapper>'],
    expected: { title: 'Tom & Jerry', author: ['Hanna & Barbera'] },
  },
];

for (const { rule, elements, options, identifier, expected, absent } of rules) {
  test(`rule: ${rule}`, (t) => {
    const doc = recordDocumentFromDublinCore(dc(...elements), identifier ?? ID, options);
    t.like(doc, expected);
    for (const field of absent ?? []) t.false(field in doc, `${field} should be absent`);
    t.notThrows(() => checkRecordDocument(doc));
  });
}

test('a prefix other than dc and oai_dc, or a default namespace, is the same element', (t) => {
  const xml = '<dc xmlns="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:d="http://purl.org/dc/elements/1.1/"><d:title>Iracema</d:title><d:creator>Alencar, José de</d:creator></dc>';
  t.like(recordDocumentFromDublinCore(xml, 'oai:x:1'), { title: 'Iracema', author: ['Alencar, José de'] });
});

test('an element named like Dublin Core but in another namespace is ignored', (t) => {
  const xml = `${OPEN}<dc:title>Real</dc:title><title xmlns="urn:other">Fake</title><x:creator xmlns:x="urn:other">Nobody</x:creator>${CLOSE}`;
  const doc = recordDocumentFromDublinCore(xml, 'oai:x:1');
  t.is(doc.title, 'Real');
  t.false('author' in doc);
});

const refusals: ReadonlyArray<{ problem: string; xml: string; identifier: string; options?: { idPrefix?: string }; reason: RegExp }> = [
  { problem: 'no dc:title', xml: dc('<dc:creator>A</dc:creator>'), identifier: 'oai:x:1', reason: /"oai:x:1" has no dc:title/ },
  { problem: 'only blank titles', xml: dc('<dc:title> \n </dc:title>'), identifier: 'oai:x:1', reason: /no dc:title/ },
  { problem: 'no identifier', xml: dc('<dc:title>T</dc:title>'), identifier: '  ', reason: /no OAI identifier/ },
  { problem: 'an identifier that is only the prefix', xml: dc('<dc:title>T</dc:title>'), identifier: 'oai:x:', options: { idPrefix: 'oai:x:' }, reason: /nothing but the id prefix/ },
  { problem: 'not oai_dc', xml: '<record xmlns="http://www.loc.gov/MARC21/slim"><leader/></record>', identifier: 'oai:x:1', reason: /not oai_dc: its metadata is <record> in http:\/\/www\.loc\.gov\/MARC21\/slim/ },
  { problem: 'not well-formed', xml: `${OPEN}<dc:title>T</dc:titel>${CLOSE}`, identifier: 'oai:x:1', reason: /"oai:x:1" is not well-formed XML/ },
];

for (const { problem, xml, identifier, options, reason } of refusals) {
  test(`refused: ${problem}`, (t) => {
    const error = t.throws(() => recordDocumentFromDublinCore(xml, identifier, options), { instanceOf: InvalidRecordDocumentError });
    t.regex(error?.reason ?? '', reason);
  });
}

test('recordIdFromOaiIdentifier gives deletions the same id as records', (t) => {
  t.is(recordIdFromOaiIdentifier('oai:repo:42', 'oai:repo:'), '42');
  t.is(recordIdFromOaiIdentifier('oai:repo:42'), 'oai:repo:42');
  t.is(recordIdFromOaiIdentifier(' oai:repo:42 ', ''), 'oai:repo:42');
});

test('rule: language and publisher: each dc:language and dc:publisher once, as written', (t) => {
  const doc = recordDocumentFromDublinCore(dc(
    '<dc:title>Orgulho e preconceito</dc:title>',
    '<dc:language>por</dc:language>',
    '<dc:language> eng </dc:language>',
    '<dc:language>por</dc:language>',
    '<dc:publisher>Editora Exemplo</dc:publisher>',
  ), ID);
  t.deepEqual(doc.language, ['por', 'eng']);
  t.deepEqual(doc.publisher, ['Editora Exemplo']);
  t.false('language' in recordDocumentFromDublinCore(dc('<dc:title>Sem língua</dc:title>', '<dc:language> </dc:language>'), ID));
});
