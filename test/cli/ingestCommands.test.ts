/**
 * `catalog-versions load`, `convert` and `harvest` on library data as it comes: MARC 21 files (ISO 2709 in
 * UTF-8 and MARC-8, MARCXML) recognised from their content, and an OAI-PMH repository on loopback
 * (test/support/oaiProvider.ts) harvested into the embedded index, incrementally, with deletions. The
 * shared index behaviours then hold on documents that came from MARC (the index answers the versions a
 * VuFind core would: the keys are VuFind's getWorkKeys keys).
 */
import test from 'ava';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXIT_OK, EXIT_REJECTED_LINES, EXIT_USAGE, runCli } from '../../src/cli/catalogVersions.js';
import { encodeIso2709Raw, rawControlField, rawDataField, writeIso2709 } from '../support/writeIso2709.js';
import { capture, tempDir } from '../support/commandRuns.js';
import { startOaiProvider, type ProvidedRecord } from '../support/oaiProvider.js';
import { openEmbeddedIndex } from '../../src/entries/sqlite.js';
import type { MarcRecord } from '../../src/marc/marcRecord.js';

const BOOK_LEADER = '00000cam a2200000 a 4500';

/** A MARC book: 001, 100 author, 245 with its non-filing indicator, 260 date. */
function marcBook(id: string, title: string, nonFiling: number, author: string, year: string): MarcRecord {
  return {
    leader: BOOK_LEADER,
    fields: [
      { tag: '001', value: id },
      { tag: '008', value: `850101s${year}    xxu           000 1 eng d` },
      { tag: '100', ind1: '1', ind2: ' ', subfields: [{ code: 'a', value: author }] },
      { tag: '245', ind1: '1', ind2: String(nonFiling), subfields: [{ code: 'a', value: title }] },
      { tag: '260', ind1: ' ', ind2: ' ', subfields: [{ code: 'c', value: `${year}.` }] },
    ],
  };
}

const MARCXML_COLLECTION = `<?xml version="1.0" encoding="UTF-8"?>
<collection xmlns="http://www.loc.gov/MARC21/slim">
  <record>
    <leader>00000cam a2200000 a 4500</leader>
    <controlfield tag="001">xml-hobbit</controlfield>
    <controlfield tag="008">850101s1966    xxu           000 1 eng d</controlfield>
    <datafield tag="100" ind1="1" ind2=" "><subfield code="a">Tolkien, J. R. R.</subfield></datafield>
    <datafield tag="245" ind1="1" ind2="4"><subfield code="a">The hobbit /</subfield></datafield>
    <datafield tag="260" ind1=" " ind2=" "><subfield code="b">Allen &amp; Unwin,</subfield><subfield code="c">1966.</subfield></datafield>
  </record>
</collection>
`;

test('load recognises ISO 2709 (UTF-8 and MARC-8) and MARCXML, loads with VuFind keys, reports a broken record by position', async (t) => {
  const dir = tempDir(t);
  const utf8 = writeIso2709([
    marcBook('utf8-hobbit', 'The hobbit /', 4, 'Tolkien, J. R. R.,', '1937'),
    marcBook('utf8-other', 'Unrelated book', 0, 'Someone, A.', '2001'),
  ]);
  // MARC-8: "ciência" written with the circumflex (0xE3) before its letter, Leader/09 blank.
  const marc8 = encodeIso2709Raw('00000cam  2200000 a 4500', [
    rawControlField('001', 'marc8-hobbit'),
    rawDataField('100', '1', ' ', [['a', 'Tolkien, J. R. R.']]),
    rawDataField('245', '1', '0', [['a', 'Hobbit : a ci\xE3encia /']]),
  ]);
  const broken = Buffer.from('00099cam  2200037   4500001001X\x1e\x1d', 'latin1');
  const noId = writeIso2709([{ leader: BOOK_LEADER, fields: [{ tag: '245', ind1: '0', ind2: '0', subfields: [{ code: 'a', value: 'No 001' }] }] }]);
  const mrc = join(dir, 'catalog.dat');
  writeFileSync(mrc, Buffer.concat([utf8, broken, marc8, noId]));
  const xml = join(dir, 'more.xml');
  writeFileSync(xml, MARCXML_COLLECTION);
  const db = join(dir, 'catalog.sqlite');

  const run = capture();
  t.is(await runCli(['load', mrc, xml, '--db', db, '--key-profile', 'vufind'], run.io), EXIT_REJECTED_LINES, run.err());
  t.regex(run.err(), new RegExp(`${mrc.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: MARC 21 \\(ISO 2709\\)`), 'says which reader it chose');
  t.regex(run.err(), /more\.xml: MARCXML/);
  t.regex(run.err(), /catalog\.dat:record 3: /, 'the broken record, by its number in the file');
  t.regex(run.err(), /catalog\.dat:record 5: .*001/, 'the record without 001, not an invented id');
  t.regex(run.out(), /6 read: 4 new, 2 rejected\./);

  const index = openEmbeddedIndex({ path: db, readOnly: true });
  t.teardown(() => index.close());
  const hobbit = await index.getRecord('utf8-hobbit');
  t.is(hobbit?.title, 'The hobbit', 'the trailing ISBD punctuation trimmed');
  t.true(hobbit!.workKeys.some((key) => key.includes('hobbit')), hobbit!.workKeys.join(' | '));
  t.is((await index.getRecord('marc8-hobbit'))?.title, 'Hobbit : a ciência', 'MARC-8 diacritic after its letter, composed');
  const versions = await index.findVersions({ workKeys: hobbit!.workKeys, order: 'relevance', offset: 0, limit: 10 });
  t.deepEqual(versions.records.map((record) => record.id).sort(), ['utf8-hobbit', 'xml-hobbit'], 'one work, from ISO 2709 and from MARCXML');
});

test('convert prints the documents load would write, one JSON object a line, rejections on stderr', async (t) => {
  const dir = tempDir(t);
  const mrc = join(dir, 'books.mrc');
  writeFileSync(mrc, writeIso2709([marcBook('c1', 'The hobbit /', 4, 'Tolkien, J. R. R.', '1937')]));
  const run = capture();
  t.is(await runCli(['convert', mrc], run.io), EXIT_OK, run.err());
  const lines = run.out().trim().split('\n');
  t.is(lines.length, 1);
  const document = JSON.parse(lines[0]!) as Record<string, unknown>;
  t.like(document, { id: 'c1', title: 'The hobbit', title_short: 'The hobbit' });
  t.true(Array.isArray(document.work_keys_str_mv));
  t.is(typeof document.last_indexed, 'string');

  const usage = capture();
  t.is(await runCli(['convert', mrc, '--db', 'x.sqlite'], usage.io), EXIT_USAGE);
});

const dc = (title: string, creator: string, date: string): ProvidedRecord['dublinCore'] => ({
  title: [title], creator: [creator], date: [date], type: ['Thesis'], identifier: ['https://repo.example/bitstream/1.pdf'],
});

test('harvest loads a repository page by page, removes deletions, and a rerun continues from the last harvest', async (t) => {
  const dir = tempDir(t);
  let now = new Date('2026-01-10T00:00:00Z');
  const records: ProvidedRecord[] = [
    { identifier: 'oai:repo:1', datestamp: '2026-01-01T10:00:00Z', sets: ['theses'], dublinCore: dc('O ensino de ciências', 'Pereira, Ana Clara', '2019') },
    { identifier: 'oai:repo:2', datestamp: '2026-01-02T10:00:00Z', sets: ['theses'], dublinCore: dc('O ensino de ciencias', 'Pereira, Ana Clara', '2019') },
    { identifier: 'oai:repo:3', datestamp: '2026-01-03T10:00:00Z', sets: ['theses'], dublinCore: dc('Outra tese', 'Souza, B.', '2020') },
    { identifier: 'oai:repo:4', datestamp: '2026-01-04T10:00:00Z', sets: ['theses'], dublinCore: dc('Quarta', 'Lima, C.', '2021') },
  ];
  const provider = await startOaiProvider({ records, pageSize: 2, clock: () => now });
  t.teardown(() => provider.close());
  const db = join(dir, 'harvest.sqlite');

  const first = capture();
  t.is(await runCli(['harvest', provider.baseUrl, '--prefix', 'oai_dc', '--db', db, '--institution', 'Repositório X'], first.io), EXIT_OK, first.err());
  t.regex(first.out(), /4 read: 4 new, 0 rejected\./);
  t.true(provider.requests.some((request) => request.params.resumptionToken !== undefined), 'followed a resumption token');

  let index = openEmbeddedIndex({ path: db, readOnly: true });
  const thesis = await index.getRecord('oai:repo:1');
  t.deepEqual((await index.findVersions({ workKeys: thesis!.workKeys, order: 'relevance', offset: 0, limit: 10 })).records.map((r) => r.id), ['oai:repo:1', 'oai:repo:2']);
  await index.close();

  // The repository changes: one record deleted, one added after the first harvest's response date.
  records[2] = { identifier: 'oai:repo:3', datestamp: '2026-01-11T09:00:00Z', deleted: true };
  records.push({ identifier: 'oai:repo:5', datestamp: '2026-01-11T10:00:00Z', dublinCore: dc('Quinta', 'Lima, C.', '2022') });
  now = new Date('2026-01-12T00:00:00Z');
  const before = provider.requests.length;
  const second = capture();
  t.is(await runCli(['harvest', provider.baseUrl, '--prefix', 'oai_dc', '--db', db], second.io), EXIT_OK, second.err());
  t.regex(second.err(), /Continuing from the last harvest: --from 2026-01-10/);
  const listed = provider.requests.slice(before).find((request) => request.params.verb === 'ListRecords' && request.params.resumptionToken === undefined);
  t.is(listed?.params.from?.slice(0, 10), '2026-01-10');
  t.regex(second.out(), /2 read: 1 new, 1 deleted, 0 rejected\./);

  index = openEmbeddedIndex({ path: db, readOnly: true });
  t.teardown(() => index.close());
  t.is(await index.getRecord('oai:repo:3'), undefined, 'the deleted record left the index');
  t.is((await index.getRecord('oai:repo:5'))?.title, 'Quinta');
  t.is(await index.count(), 4);

  // Nothing new: noRecordsMatch is a normal, successful empty harvest.
  now = new Date('2026-01-13T00:00:00Z');
  const third = capture();
  t.is(await runCli(['harvest', provider.baseUrl, '--prefix', 'oai_dc', '--db', db], third.io), EXIT_OK, third.err());
  t.regex(third.out(), /0 read: nothing written, 0 rejected\./);
});

test('harvest usage errors and OAI errors get clear messages', async (t) => {
  const dir = tempDir(t);
  const provider = await startOaiProvider({ records: [] });
  t.teardown(() => provider.close());
  for (const [argv, message] of [
    [['harvest', provider.baseUrl, '--db', 'x.sqlite'], /--prefix marc21 or oai_dc/],
    [['harvest', 'ftp://x', '--prefix', 'oai_dc', '--db', 'x.sqlite'], /http\(s\) base URL/],
    [['harvest', provider.baseUrl, '--prefix', 'oai_dc', '--db', 'x.sqlite', '--from', 'yesterday'], /--from needs a date/],
  ] as Array<[string[], RegExp]>) {
    const run = capture();
    t.is(await runCli(argv, run.io), EXIT_USAGE, argv.join(' '));
    t.regex(run.err(), message);
  }
  provider.injectFault({ on: 'ListRecords', fault: { kind: 'oai-error', code: 'cannotDisseminateFormat' } });
  const run = capture();
  t.is(await runCli(['harvest', provider.baseUrl, '--prefix', 'marc21', '--db', join(dir, 'h.sqlite')], run.io), 1);
  t.regex(run.err(), /cannotDisseminateFormat/);
});
