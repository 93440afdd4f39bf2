/**
 * The MARCXML reader (src/marc/marcXmlReader.ts): a collection or a single record, in the MARC 21
 * slim namespace as the default namespace, under a prefix, or in no namespace; documents cut into chunks at
 * every byte position (inside UTF-8 sequences and entity references too); entity and character
 * references; records that MARCXML cannot express and malformed XML among good records; and
 * `parseMarcXml` on one string.
 */
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MarcRecord } from '../../src/marc/marcRecord.js';
import { parseMarcXml, readMarcXml, readMarcXmlStream } from '../../src/marc/marcXmlReader.js';
import type { SourceItem } from '../../src/record/sourceRecord.js';
import { chunksOf } from '../support/byteChunks.js';

const SOURCE = 'catalog.xml';
const SLIM = 'http://www.loc.gov/MARC21/slim';
const LEADER = '01121nam a2200265 a 4500';

type Item = SourceItem<MarcRecord>;


async function readAll(xml: string | Uint8Array, cuts: readonly number[] = []): Promise<Item[]> {
  const bytes = typeof xml === 'string' ? Buffer.from(xml, 'utf8') : xml;
  const items: Item[] = [];
  for await (const item of readMarcXmlStream(chunksOf(bytes, cuts), SOURCE)) items.push(item);
  return items;
}

function summary(items: readonly Item[]): string[] {
  return items.map((item) => `${item.position.recordNumber} ${item.kind} ${item.position.id ?? '-'}`);
}

function reasonOf(item: Item | undefined): string {
  if (item?.kind !== 'problem') throw new Error(`expected a problem, got ${JSON.stringify(item)}`);
  return item.reason;
}

/** One record's elements, with `p` as the element prefix ('' or 'marc:'). */
function recordXml(id: string, title: string, p = ''): string {
  return (
    `<${p}record><${p}leader>${LEADER}</${p}leader>` +
    `<${p}controlfield tag="001">${id}</${p}controlfield>` +
    `<${p}datafield tag="100" ind1="1" ind2=" "><${p}subfield code="a">Tolkien, J. R. R.</${p}subfield></${p}datafield>` +
    `<${p}datafield tag="245" ind1="1" ind2="4"><${p}subfield code="a">${title}</${p}subfield><${p}subfield code="c">São Paulo</${p}subfield></${p}datafield>` +
    `</${p}record>`
  );
}

function expectedRecord(id: string, title: string): MarcRecord {
  return {
    leader: LEADER,
    fields: [
      { tag: '001', value: id },
      { tag: '100', ind1: '1', ind2: ' ', subfields: [{ code: 'a', value: 'Tolkien, J. R. R.' }] },
      {
        tag: '245',
        ind1: '1',
        ind2: '4',
        subfields: [
          { code: 'a', value: title },
          { code: 'c', value: 'São Paulo' },
        ],
      },
    ],
  };
}

const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

test('a collection in the slim namespace (the default namespace)', async (t) => {
  const xml = `${DECLARATION}<collection xmlns="${SLIM}">\n${recordXml('h-1', 'The hobbit')}\n${recordXml('h-2', 'O hobbit')}\n</collection>\n`;
  const items = await readAll(xml);
  t.deepEqual(items, [
    { kind: 'record', position: { source: SOURCE, recordNumber: 1, id: 'h-1' }, record: expectedRecord('h-1', 'The hobbit') },
    { kind: 'record', position: { source: SOURCE, recordNumber: 2, id: 'h-2' }, record: expectedRecord('h-2', 'O hobbit') },
  ]);
});

test('a collection in no namespace', async (t) => {
  const items = await readAll(`<collection>${recordXml('n-1', 'One')}${recordXml('n-2', 'Two')}</collection>`);
  t.deepEqual(summary(items), ['1 record n-1', '2 record n-2']);
  t.deepEqual(items[1]?.kind === 'record' ? items[1].record : undefined, expectedRecord('n-2', 'Two'));
});

test('a collection with the marc: prefix', async (t) => {
  const xml = `<marc:collection xmlns:marc="${SLIM}">${recordXml('p-1', 'One', 'marc:')}${recordXml('p-2', 'Two', 'marc:')}</marc:collection>`;
  const items = await readAll(xml);
  t.deepEqual(summary(items), ['1 record p-1', '2 record p-2']);
  t.deepEqual(items[0]?.kind === 'record' ? items[0].record : undefined, expectedRecord('p-1', 'One'));
});

test('a single record as the document, with and without the namespace', async (t) => {
  const namespaced = recordXml('s-1', 'Alone').replace('<record>', `<record xmlns="${SLIM}">`);
  t.deepEqual(await readAll(DECLARATION + namespaced), [
    { kind: 'record', position: { source: SOURCE, recordNumber: 1, id: 's-1' }, record: expectedRecord('s-1', 'Alone') },
  ]);
  t.deepEqual(summary(await readAll(recordXml('s-2', 'Alone'))), ['1 record s-2']);
});

test('elements of other namespaces are not MARC: an OAI-PMH envelope around marc:record', async (t) => {
  const oai = 'http://www.openarchives.org/OAI/2.0/';
  const envelope = (id: string) =>
    `<record><header><identifier>oai:x:${id}</identifier></header><metadata>` +
    `${recordXml(id, 'Harvested', 'marc:').replace('<marc:record>', `<marc:record xmlns:marc="${SLIM}">`)}</metadata></record>`;
  const xml = `<OAI-PMH xmlns="${oai}"><ListRecords>${envelope('o-1')}${envelope('o-2')}</ListRecords></OAI-PMH>`;
  const items = await readAll(xml);
  t.deepEqual(summary(items), ['1 record o-1', '2 record o-2']);
  t.deepEqual(items[0]?.kind === 'record' ? items[0].record : undefined, expectedRecord('o-1', 'Harvested'));
});

test('entity and character references, CDATA, and text in NFC', async (t) => {
  const title = 'Tom &amp; Jerry &lt;1&gt; &quot;q&quot; &apos;a&apos; caf&#233; cafe&#x301; &#x6771;&#20140; <![CDATA[<raw & ready>]]>';
  const [item] = await readAll(`<collection xmlns="${SLIM}">${recordXml('e-1', title)}</collection>`);
  const subfield = item?.kind === 'record' ? item.record.fields[2] : undefined;
  t.deepEqual(subfield !== undefined && 'subfields' in subfield ? subfield.subfields[0] : undefined, {
    code: 'a',
    value: 'Tom & Jerry <1> "q" \'a\' café café 東京 <raw & ready>',
  });
});

test('a small document cut into two chunks at every byte position reads the same as whole', async (t) => {
  const xml = `${DECLARATION}<marc:collection xmlns:marc="${SLIM}">${recordXml('c-1', 'Caf&#233; 東京 &amp; ç', 'marc:')}${recordXml('c-2', 'Zweite', 'marc:')}</marc:collection>`;
  const bytes = Buffer.from(xml, 'utf8');
  const whole = await readAll(bytes);
  t.deepEqual(summary(whole), ['1 record c-1', '2 record c-2']);
  for (let cut = 0; cut <= bytes.length; cut += 1) {
    t.deepEqual(await readAll(bytes, [cut]), whole, `cut at byte ${cut}`);
  }
});

test('a small document in one-byte chunks reads the same as whole', async (t) => {
  const bytes = Buffer.from(`<collection>${recordXml('b-1', 'Ærø 東京')}</collection>`, 'utf8');
  const cuts = Array.from({ length: bytes.length - 1 }, (_, index) => index + 1);
  t.deepEqual(await readAll(bytes, cuts), await readAll(bytes));
});

test('pretty-printed MARCXML: whitespace between elements is ignored, a padded leader trimmed', async (t) => {
  const xml = `<collection xmlns="${SLIM}">
  <record>
    <leader>
      ${LEADER}
    </leader>
    <controlfield tag="001">pp-1</controlfield>
    <datafield tag="245" ind1="0" ind2="0">
      <subfield code="a">Indented</subfield>
    </datafield>
  </record>
</collection>`;
  const [item] = await readAll(xml);
  t.deepEqual(item?.kind === 'record' ? item.record : undefined, {
    leader: LEADER,
    fields: [
      { tag: '001', value: 'pp-1' },
      { tag: '245', ind1: '0', ind2: '0', subfields: [{ code: 'a', value: 'Indented' }] },
    ],
  });
});

test('missing indicators read as blanks', async (t) => {
  const xml = `<record><leader>${LEADER}</leader><datafield tag="500"><subfield code="a">Note</subfield></datafield><datafield tag="650" ind1="" ind2="0"><subfield code="a">Jazz</subfield></datafield></record>`;
  const [item] = await readAll(xml);
  t.deepEqual(item?.kind === 'record' ? item.record.fields : undefined, [
    { tag: '500', ind1: ' ', ind2: ' ', subfields: [{ code: 'a', value: 'Note' }] },
    { tag: '650', ind1: ' ', ind2: '0', subfields: [{ code: 'a', value: 'Jazz' }] },
  ]);
});

test('records MARCXML cannot express are problems among good ones, numbered in order', async (t) => {
  const noLeader = '<record><controlfield tag="001">no-leader</controlfield></record>';
  const shortLeader = '<record><leader>01121nam a22</leader><controlfield tag="001">short-leader</controlfield></record>';
  const noTag = `<record><leader>${LEADER}</leader><controlfield tag="001">no-tag</controlfield><datafield ind1=" " ind2=" "><subfield code="a">x</subfield></datafield></record>`;
  const noCode = `<record><leader>${LEADER}</leader><controlfield tag="001">no-code</controlfield><datafield tag="245" ind1="0" ind2="0"><subfield>x</subfield></datafield></record>`;
  const wideIndicator = `<record><leader>${LEADER}</leader><controlfield tag="001">wide-ind</controlfield><datafield tag="245" ind1="10" ind2="0"><subfield code="a">x</subfield></datafield></record>`;
  const xml = `<collection xmlns="${SLIM}">${recordXml('g-1', 'One')}${noLeader}${shortLeader}${recordXml('g-4', 'Four')}${noTag}${noCode}${wideIndicator}${recordXml('g-8', 'Eight')}</collection>`;
  const items = await readAll(xml);
  t.deepEqual(summary(items), [
    '1 record g-1',
    '2 problem no-leader',
    '3 problem short-leader',
    '4 record g-4',
    '5 problem no-tag',
    '6 problem no-code',
    '7 problem wide-ind',
    '8 record g-8',
  ]);
  t.is(reasonOf(items[1]), 'the record has no leader');
  t.is(reasonOf(items[2]), 'the leader is 12 characters long, not 24 ("01121nam a22")');
  t.is(reasonOf(items[4]), 'a data field has no tag');
  t.is(reasonOf(items[5]), 'field 245 has a subfield with no code');
  t.is(reasonOf(items[6]), 'field 245 has ind1 "10", not one character');
});

test('malformed XML inside a record makes that record a problem; the records around it are read', async (t) => {
  const mismatched = `<record><leader>${LEADER}</leader><controlfield tag="001">bad-xml</controlfield><datafield tag="245" ind1="0" ind2="0"><subfield code="a">x</subfeld></datafield></record>`;
  const badCharacter = `<record><leader>${LEADER}</leader><controlfield tag="001">bad-char</controlfield><datafield tag="245" ind1="0" ind2="0"><subfield code="a">bell \u0007</subfield></datafield></record>`;
  const xml = `<collection xmlns="${SLIM}">\n${recordXml('g-1', 'One')}\n${badCharacter}\n${recordXml('g-3', 'Three')}\n${mismatched}\n${recordXml('g-5', 'Five')}\n</collection>`;
  const items = await readAll(xml);
  t.deepEqual(summary(items), ['1 record g-1', '2 problem bad-char', '3 record g-3', '4 problem bad-xml', '5 record g-5']);
  t.regex(reasonOf(items[1]), /^malformed XML at line 3, column \d+: disallowed character$/);
  t.regex(reasonOf(items[3]), /^malformed XML at line 5, column \d+: unexpected close tag$/);
});

test('malformed XML between records is one problem, numbered as a record; later ones there are not repeated', async (t) => {
  const xml = `<collection>${recordXml('g-1', 'One')} </oops> ${recordXml('g-3', 'Three')} </again> ${recordXml('g-4', 'Four')}</collection>`;
  const items = await readAll(xml);
  t.deepEqual(summary(items), ['1 record g-1', '2 problem -', '3 record g-3', '4 record g-4']);
  t.regex(reasonOf(items[1]), /^malformed XML at line 1, column \d+: unexpected close tag, after record 1$/);
});

test('documents concatenated into one file are read as one stream of records', async (t) => {
  const one = `${DECLARATION}<collection xmlns="${SLIM}">${recordXml('a-1', 'One')}</collection>\n`;
  const two = `${DECLARATION}<collection xmlns="${SLIM}">${recordXml('b-1', 'Two')}${recordXml('b-2', 'Three')}</collection>\n`;
  t.deepEqual(summary(await readAll(one + two)), ['1 record a-1', '2 record b-1', '3 record b-2']);
});

test('an unescaped & that swallows the rest of the file: the record says the rest was not read', async (t) => {
  const swallowing = `<record><leader>${LEADER}</leader><controlfield tag="001">amp</controlfield><datafield tag="245" ind1="0" ind2="0"><subfield code="a">AT & T</subfield></datafield></record>`;
  const xml = `<collection>${recordXml('g-1', 'One')}${swallowing}${recordXml('g-3', 'Three')}</collection>`;
  const items = await readAll(xml);
  t.deepEqual(summary(items), ['1 record g-1', '2 problem amp']);
  t.regex(reasonOf(items[1]), /^the file ends inside this record \(malformed XML at line 1, column \d+: unclosed tag: subfield\): either the file is cut short, or an unescaped & or </);
});

test('when saxes finds no tag again for megabytes, reading stops without waiting for the end of the file', async (t) => {
  const swallowing = `<record><leader>${LEADER}</leader><controlfield tag="001">stuck</controlfield><datafield tag="245" ind1="0" ind2="0"><subfield code="a">AT & T `;
  const filler = 'x'.repeat(1 << 20);
  async function* chunks(): AsyncGenerator<Uint8Array> {
    yield Buffer.from(`<collection>${recordXml('g-1', 'One')}${swallowing}`);
    for (let k = 0; k < 40; k += 1) yield Buffer.from(filler);
    throw new Error('read past the point where the reader should have stopped');
  }
  const items: Item[] = [];
  for await (const item of readMarcXmlStream(chunks(), SOURCE)) items.push(item);
  t.deepEqual(summary(items), ['1 record g-1', '2 problem stuck']);
  t.regex(reasonOf(items[1]), /^no XML tag in the \d+ characters after line 1: an unescaped & or < .*; the rest of the file was not read$/);
});

test('a file that is not XML is one problem, and reading stops', async (t) => {
  const iso2709 = '00962njm  2200253 a 4500001001100000\x1e03-0018137\x1e\x1d';
  const items = await readAll(iso2709);
  t.deepEqual(summary(items), ['1 problem -']);
  t.regex(reasonOf(items[0]), /^malformed XML at line 1, column \d+: .*, before the first element: the file does not start as XML; the rest of the file was not read$/);
});

test('an empty file holds no records and is no problem', async (t) => {
  t.deepEqual(await readAll(''), []);
  t.deepEqual(await readAll('\n  \n'), []);
});

test('a file cut short inside a record', async (t) => {
  const xml = `<collection>${recordXml('g-1', 'One')}<record><leader>${LEADER}</leader><controlfield tag="001">cut</controlfield><datafield tag="245"`;
  const items = await readAll(xml);
  t.deepEqual(summary(items), ['1 record g-1', '2 problem cut']);
  t.regex(reasonOf(items[1]), /^the file ends inside this record/);
});

test('an encoding the declaration names is decoded', async (t) => {
  const xml = `<?xml version="1.0" encoding="ISO-8859-1"?><collection>${recordXml('l-1', 'Caf\xe9')}</collection>`;
  const [item] = await readAll(Buffer.from(xml, 'latin1'));
  t.deepEqual(item?.kind === 'record' ? item.record : undefined, expectedRecord('l-1', 'Café'));
});

test('readMarcXml reads a file from disk; a missing file throws', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'marcxml-reader-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'catalog.xml');
  writeFileSync(path, `<collection xmlns="${SLIM}">${recordXml('d-1', 'Disk')}</collection>`);
  const items: Item[] = [];
  for await (const item of readMarcXml(path)) items.push(item);
  t.deepEqual(items, [{ kind: 'record', position: { source: path, recordNumber: 1, id: 'd-1' }, record: expectedRecord('d-1', 'Disk') }]);
  await t.throwsAsync(async () => {
    for await (const item of readMarcXml(join(dir, 'missing.xml'))) t.fail(`read ${item.kind}`);
  }, { code: 'ENOENT' });
});

test('parseMarcXml: one record, or a collection, from a string', (t) => {
  t.deepEqual(parseMarcXml(`<marc:record xmlns:marc="${SLIM}">${recordXml('x-1', 'One', 'marc:').slice('<marc:record>'.length)}`), [expectedRecord('x-1', 'One')]);
  t.deepEqual(parseMarcXml(`${DECLARATION}<collection xmlns="${SLIM}">${recordXml('x-1', 'One')}${recordXml('x-2', 'Two')}</collection>`), [
    expectedRecord('x-1', 'One'),
    expectedRecord('x-2', 'Two'),
  ]);
  t.deepEqual(parseMarcXml(`<collection xmlns="${SLIM}"/>`), []);
});

test('parseMarcXml throws a clear Error on malformed XML and on a record MARCXML cannot express', (t) => {
  t.throws(() => parseMarcXml(`<record><leader>${LEADER}</leader><controlfield tag="001">x</controlfield>`), {
    message: /^malformed MARCXML: line 1, column \d+: unclosed tag: record$/,
  });
  t.throws(() => parseMarcXml(`<record><leader>${LEADER}</leader></recrod>`), { message: /^malformed MARCXML: line 1, column \d+: / });
  t.throws(() => parseMarcXml(''), { message: /^malformed MARCXML: / });
  t.throws(() => parseMarcXml('<record><controlfield tag="001">x</controlfield></record>'), { message: 'MARCXML record 1: the record has no leader' });
});
