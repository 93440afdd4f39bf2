/**
 * Records whose Leader/09 says UTF-8 (`a`) but whose bytes are not UTF-8, read as marc4j's permissive
 * reader (VuFind's importer) reads them: as MARC-8, unless they hold no escape and only a few bytes are
 * amiss among many UTF-8 characters (those few become U+FFFD). Valid UTF-8 records, a U+FFFD written as
 * UTF-8 among them, read as before. Each row is a hand-written ISO 2709 record, read both as the file
 * reader streams it and as the mapping workers parse its bytes, and its title and title work key compared.
 */
import test from 'ava';
import { parseIso2709Record, readIso2709Stream } from '../../src/marc/iso2709Reader.js';
import type { MarcRecord } from '../../src/marc/marcRecord.js';
import { recordDocumentFromMarc } from '../../src/ingest/marc/vufindMarcMapping.js';
import { encodeIso2709Raw, rawControlField, rawDataField } from '../support/writeIso2709.js';

const ESC = '\x1b';
const utf8Bytes = (text: string): string => Buffer.from(text, 'utf8').toString('latin1');

/** A record labelled UTF-8 (or MARC-8), with this title's bytes (latin1: one character a byte). */
function recordWithTitle(id: string, titleBytes: string, leader09: 'a' | ' ' = 'a'): Buffer {
  return encodeIso2709Raw(`00000nam ${leader09}2200000 a 4500`, [
    rawControlField('001', id),
    rawDataField('100', '1', ' ', [['a', 'Brook, Peter.']]),
    rawDataField('245', '1', '0', [['a', `${titleBytes} /`], ['c', 'Peter Brook.']]),
  ]);
}

async function streamed(bytes: Buffer): Promise<MarcRecord> {
  const items = [];
  for await (const item of readIso2709Stream((async function* () { yield bytes; })(), 'mislabelled.mrc')) items.push(item);
  const [item] = items;
  if (items.length !== 1 || item?.kind !== 'record') throw new Error(`not read as one record: ${JSON.stringify(items)}`);
  return item.record as MarcRecord;
}

const titleKeyOf = (record: MarcRecord): string | undefined =>
  [recordDocumentFromMarc(record).work_keys_str_mv ?? []].flat().find((key) => key.startsWith('AT '));

interface Row {
  readonly name: string;
  /** The 245 $a as bytes (latin1). */
  readonly titleBytes: string;
  /** The title the document gets. */
  readonly title: string;
  /** The same title written as a record labelled MARC-8, when the record must key as that one does. */
  readonly asMarc8?: string;
}

const longUtf8 = 'Ça, ès, où, à, été, çà, là: ôté, dûment, naïf, Noël, über, Ærø';

const ROWS: readonly Row[] = [
  {
    name: 'MARC-8 accents labelled UTF-8 are MARC-8 (not th\uFFFDe\uFFFDatre)',
    titleBytes: 'Le th\xE2e\xE3atre et son double', title: 'Le théâtre et son double', asMarc8: 'Le th\xE2e\xE3atre et son double',
  },
  {
    name: 'MARC-8 labelled UTF-8 with an escape beside its accents is MARC-8',
    titleBytes: `Caf\xE2e n${ESC}p0${ESC}s 3`, title: 'Café n⁰ 3', asMarc8: `Caf\xE2e n${ESC}p0${ESC}s 3`,
  },
  {
    name: 'MARC-8 labelled UTF-8 with the odd superscript escapes keys as MARC-8 with ESC p',
    titleBytes: `Th\xE2e\xE3atre n${ESC}b-${ESC}sp0${ESC}b-${ESC}ss 3`, title: 'Théâtre n⁰ 3', asMarc8: `Th\xE2e\xE3atre n${ESC}p0${ESC}s 3`,
  },
  {
    name: 'valid UTF-8 is read as UTF-8',
    titleBytes: utf8Bytes('Le théâtre et son double'), title: 'Le théâtre et son double',
  },
  {
    name: 'a U+FFFD written as UTF-8 stays one: the bytes are UTF-8',
    titleBytes: utf8Bytes('Le th\uFFFDatre'), title: 'Le th\uFFFDatre',
  },
  {
    name: 'UTF-8 with one stray byte among many accented letters stays UTF-8 (the byte becomes U+FFFD)',
    titleBytes: `${utf8Bytes(longUtf8)}\xFF`, title: `${longUtf8}\uFFFD`,
  },
];

for (const row of ROWS) {
  test(`labelled UTF-8: ${row.name}`, async (t) => {
    const bytes = recordWithTitle('mislabelled-1', row.titleBytes);
    const record = await streamed(bytes);
    const document = recordDocumentFromMarc(record);
    t.is(document.title, row.title);
    t.deepEqual(parseIso2709Record(bytes), record, 'the mapping workers parse the bytes alike');
    if (row.asMarc8 !== undefined) {
      const key = titleKeyOf(record);
      t.truthy(key);
      t.is(key, titleKeyOf(await streamed(recordWithTitle('mislabelled-1', row.asMarc8, ' '))));
    }
  });
}

test('labelled UTF-8: a few slips are fewer than five and under a tenth of the characters above ASCII; more make it MARC-8', async (t) => {
  // marc4j's measure: fewer than 5 U+FFFD, and under a tenth of the characters above ASCII.
  // 17 accented letters in longUtf8: three times over, four slips are under a tenth; once, they are not.
  const thrice = `${longUtf8}; ${longUtf8}; ${longUtf8}`;
  const fourSlips = await streamed(recordWithTitle('four', `${utf8Bytes(thrice)} \xFF\xFF\xFF\xFF`));
  t.is(recordDocumentFromMarc(fourSlips).title, `${thrice} \uFFFD\uFFFD\uFFFD\uFFFD`);
  const fourSlipsAmongFewer = await streamed(recordWithTitle('four-of-fewer', `${utf8Bytes(longUtf8)} \xFF\xFF\xFF\xFF`));
  t.false(recordDocumentFromMarc(fourSlipsAmongFewer).title?.includes('été'), 'read as MARC-8');
  const fiveSlips = await streamed(recordWithTitle('five', `${utf8Bytes('Ærø')} \xFF\xFF\xFF\xFF\xFF`));
  t.false(recordDocumentFromMarc(fiveSlips).title?.includes('Ærø'), 'read as MARC-8, its UTF-8 letters are not those letters');
  const oneSlipAmongFew = await streamed(recordWithTitle('few', `${utf8Bytes('é')}th\xE2eatre`));
  t.is(recordDocumentFromMarc(oneSlipAmongFew).title, '©♭théatre', 'one slip beside one UTF-8 letter: MARC-8, where C3 A9 are © and ♭');
});
