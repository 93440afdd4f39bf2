/**
 * MARC-8 superscript and subscript escapes (ESC p, ESC b … ESC s) in titles, from a hand-written ISO 2709
 * record through the reader and the VuFind mapping to the work keys. marc4j's AnselToUnicode (VuFind's
 * importer) reads ESC p / ESC b as the superscript / subscript sets, so a digit becomes U+2070… / U+2080…,
 * which VuFind's key normalisation (NFKC) turns back into the digit: "Hn ESC p 0 ESC s 3" keys as "hn03".
 * Its permissive reader also takes a record labelled UTF-8 that holds MARC-8 escapes (and is not UTF-8
 * otherwise) for MARC-8; both labels are covered here.
 */
import test from 'ava';
import { readIso2709Stream } from '../../src/marc/iso2709Reader.js';
import type { MarcRecord } from '../../src/marc/marcRecord.js';
import { recordDocumentFromMarc } from '../../src/ingest/marc/vufindMarcMapping.js';
import { encodeIso2709Raw, rawControlField, rawDataField } from '../support/writeIso2709.js';

const ESC = '\x1b';

async function documentOf(bytes: Buffer) {
  const items = [];
  for await (const item of readIso2709Stream((async function* () { yield bytes; })(), 'superscripts.mrc')) items.push(item);
  const [item] = items;
  if (item?.kind !== 'record') throw new Error(`not read as a record: ${JSON.stringify(item)}`);
  return recordDocumentFromMarc(item.record as MarcRecord);
}

/** A record whose title holds a superscript zero and a subscript two, labelled MARC-8 (' ') or UTF-8 ('a'). */
function superscriptRecord(leader09: ' ' | 'a', extraTitle = ''): Buffer {
  return encodeIso2709Raw(`00000nam ${leader09}2200000 a 4500`, [
    rawControlField('001', 'uva-hn03'),
    rawDataField('100', '1', ' ', [['a', 'Moss, Ruth.']]),
    rawDataField('245', '1', '0', [['a', `Spectra of Hn${ESC}p0${ESC}s3 and CO${ESC}b2${ESC}s${extraTitle} /`]]),
  ]);
}

for (const [label, leader09] of [['labelled MARC-8', ' '], ['labelled UTF-8 but holding MARC-8 escapes', 'a']] as const) {
  test(`superscript and subscript escapes in a record ${label} are characters, not letters, and key as VuFind's`, async (t) => {
    const document = await documentOf(superscriptRecord(leader09));
    t.is(document.title, 'Spectra of Hn⁰3 and CO₂');
    const titleKeys = [document.work_keys_str_mv ?? []].flat().filter((key) => key.startsWith('AT '));
    t.true(titleKeys.length > 0);
    for (const key of titleKeys) t.true(key.endsWith('spectraofhn03andco2'), key);
    t.false([document.work_keys_str_mv ?? []].flat().some((key) => /p0s|b2s/.test(key)));
  });
}

test('a record labelled UTF-8 with real UTF-8 text beside an escape stays UTF-8 (marc4j keeps it too)', async (t) => {
  const bytes = superscriptRecord('a', Buffer.from(' — Café', 'utf8').toString('latin1'));
  const document = await documentOf(bytes);
  t.true(document.title?.endsWith('— Café'));
});

test('the odd form ESC b - ESC s p … ESC b - ESC s s of older records reads and keys as ESC p … ESC s (marc4j)', async (t) => {
  const titled = (title: string) => encodeIso2709Raw('00000nam  2200000 a 4500', [
    rawControlField('001', 'old-superscript'),
    rawDataField('100', '1', ' ', [['a', 'Moss, Ruth.']]),
    rawDataField('245', '1', '0', [['a', `${title} /`]]),
  ]);
  const odd = await documentOf(titled(`Quartet n${ESC}b-${ESC}sp0${ESC}b-${ESC}ss 3`));
  const plain = await documentOf(titled(`Quartet n${ESC}p0${ESC}s 3`));
  t.is(odd.title, 'Quartet n⁰ 3');
  t.deepEqual(odd.work_keys_str_mv, plain.work_keys_str_mv);
  t.false([odd.work_keys_str_mv ?? []].flat().some((key) => /p0|0s/.test(key)));
});
