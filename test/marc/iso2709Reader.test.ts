/**
 * The ISO 2709 reader (src/marc/iso2709Reader.ts) on files written by test/support/writeIso2709.ts:
 * UTF-8 and MARC-8 records in one file; broken records between good ones (each a problem with a reason,
 * the good ones keeping their record numbers); the sloppy-but-unambiguous records the reader accepts; a
 * small file cut into chunks at every byte position; empty files and what may follow the last record. Each
 * file is also read as records' bytes (readIso2709RecordBytes, parseIso2709Record), which must agree.
 */
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parseIso2709Record, readIso2709, readIso2709RecordBytes, readIso2709Stream } from '../../src/marc/iso2709Reader.js';
import type { MarcDataField, MarcRecord } from '../../src/marc/marcRecord.js';
import type { SourceItem } from '../../src/record/sourceRecord.js';
import { chunksOf } from '../support/byteChunks.js';
import { encodeIso2709, encodeIso2709Raw, rawControlField, rawDataField } from '../support/writeIso2709.js';

const SOURCE = 'catalog.mrc';
const ESC = '\x1b';

type Item = SourceItem<MarcRecord>;


/**
 * The items read from `bytes` cut at `cuts`. Every test also reads them as bytes (readIso2709RecordBytes,
 * how records go to the mapping threads) and fails here unless that gives the same items: the same
 * problems and positions, and bytes that parseIso2709Record makes into the same records.
 */
async function readAll(bytes: Uint8Array, cuts: readonly number[] = []): Promise<Item[]> {
  const items: Item[] = [];
  for await (const item of readIso2709Stream(chunksOf(bytes, cuts), SOURCE)) items.push(item);
  const asBytes: Item[] = [];
  for await (const item of readIso2709RecordBytes(chunksOf(bytes, cuts), SOURCE)) {
    asBytes.push(item.kind === 'record' ? { ...item, record: parseIso2709Record(item.record) } : item);
  }
  if (!isDeepStrictEqual(asBytes, items)) {
    throw new Error(`read as bytes, the file gives other items:\n${JSON.stringify(asBytes)}\nagainst\n${JSON.stringify(items)}`);
  }
  return items;
}

function records(items: readonly Item[]): MarcRecord[] {
  return items.flatMap((item) => (item.kind === 'record' ? [item.record] : []));
}

function summary(items: readonly Item[]): string[] {
  return items.map((item) => `${item.position.recordNumber} ${item.kind} ${item.position.id ?? '-'}`);
}

function dataField(record: MarcRecord, tag: string): MarcDataField {
  const field = record.fields.find((candidate) => candidate.tag === tag);
  if (field === undefined || !('subfields' in field)) throw new Error(`no data field ${tag}`);
  return field;
}

function reasonOf(item: Item | undefined): string {
  if (item?.kind !== 'problem') throw new Error(`expected a problem, got ${JSON.stringify(item)}`);
  return item.reason;
}

/** A UTF-8 record; its 245 holds a decomposed é (e + U+0301), which the reader must compose. */
function utf8Record(id: string, title = 'Cafe\u0301 society'): MarcRecord {
  return {
    leader: '00000nam a2200000 i 4500',
    fields: [
      { tag: '001', value: id },
      { tag: '008', value: '240101s2024    bl            000 0 por d' },
      { tag: '100', ind1: '1', ind2: ' ', subfields: [{ code: 'a', value: 'Tolkien, J. R. R.' }] },
      { tag: '245', ind1: '1', ind2: '0', subfields: [{ code: 'a', value: title }, { code: 'c', value: 'São Paulo ; Москва ; 東京' }] },
    ],
  };
}

/** A MARC-8 record (Leader/09 blank): diacritics before their letters, an escape to Cyrillic and back. */
function marc8Record(id: string): Buffer {
  return encodeIso2709Raw('00000nam  2200000 a 4500', [
    rawControlField('001', id),
    rawDataField('100', '1', ' ', [['a', '\xA1\xE2od\xE2z, Jan']]),
    rawDataField('245', '1', '0', [
      ['a', 'Caf\xE2e cr\xE8eme :'],
      ['b', `${ESC}(NKNIGA${ESC}(B /`],
    ]),
  ]);
}

const GOOD_UTF8_TITLE = 'Café society';

test('UTF-8 and MARC-8 records in one file come out decoded, in NFC, numbered, with their 001', async (t) => {
  const file = Buffer.concat([encodeIso2709(utf8Record('u-1')), marc8Record('m-2'), encodeIso2709(utf8Record('u-3'))]);
  const items = await readAll(file);
  t.deepEqual(summary(items), ['1 record u-1', '2 record m-2', '3 record u-3']);
  const [first, second] = records(items) as [MarcRecord, MarcRecord];
  t.is(first.leader, `${String(encodeIso2709(utf8Record('u-1')).length).padStart(5, '0')}nam a2200073 i 4500`);
  t.deepEqual(dataField(first, '245').subfields, [
    { code: 'a', value: GOOD_UTF8_TITLE },
    { code: 'c', value: 'São Paulo ; Москва ; 東京' },
  ]);
  t.deepEqual(first.fields[0], { tag: '001', value: 'u-1' });
  t.deepEqual(dataField(second, '100'), { tag: '100', ind1: '1', ind2: ' ', subfields: [{ code: 'a', value: 'Łódź, Jan' }] });
  t.deepEqual(dataField(second, '245').subfields, [
    { code: 'a', value: 'Café crëme :' },
    { code: 'b', value: 'книга /' },
  ]);
  t.is(second.leader[9], ' ');
});

test('a MARC-8 escape holds across subfields of its field and ends with the field', async (t) => {
  const file = encodeIso2709Raw('00000nam  2200000 a 4500', [
    rawControlField('001', 'esc-1'),
    rawDataField('245', '0', '0', [
      ['a', `${ESC}(NKNIGA`],
      ['b', 'SLOW'],
    ]),
    rawDataField('500', ' ', ' ', [['a', 'KNIGA']]),
  ]);
  const [record] = records(await readAll(file)) as [MarcRecord];
  t.deepEqual(dataField(record, '245').subfields, [
    { code: 'a', value: 'книга' },
    { code: 'b', value: 'слов' },
  ]);
  t.deepEqual(dataField(record, '500').subfields, [{ code: 'a', value: 'KNIGA' }]);
});

test('MARC-8 in a control field is decoded too, and the id is the 001 without surrounding spaces', async (t) => {
  const file = encodeIso2709Raw('00000nam  2200000 a 4500', [rawControlField('001', ' ocm0042 '), rawControlField('009', 'Caf\xE2e')]);
  const [item] = await readAll(file);
  t.is(item?.position.id, 'ocm0042');
  t.deepEqual(item?.kind === 'record' ? item.record.fields : undefined, [
    { tag: '001', value: ' ocm0042 ' },
    { tag: '009', value: 'Café' },
  ]);
});

test('broken records between good ones are problems; the good ones keep their record numbers', async (t) => {
  const good = (n: number) => encodeIso2709(utf8Record(`good-${n}`));

  const brokenDirectory = encodeIso2709(utf8Record('bad-dir'));
  brokenDirectory.write('x', 24 + 12 * 2 + 5, 'latin1'); // entry 3 (100): its length 00xN

  const shortDirectory = encodeIso2709(utf8Record('bad-dir-length'));
  const shortDirectoryRecord = Buffer.concat([shortDirectory.subarray(0, 30), shortDirectory.subarray(31)]);

  const truncated = encodeIso2709(utf8Record('cut-short'));
  const truncatedRecord = Buffer.concat([truncated.subarray(0, truncated.length - 40), Buffer.from([0x1d])]);

  const controlInLeader = encodeIso2709(utf8Record('bad-leader'));
  controlInLeader[7] = 0x1e;

  const file = Buffer.concat([
    good(1),
    brokenDirectory,
    good(3),
    shortDirectoryRecord,
    good(5),
    truncatedRecord,
    good(7),
    controlInLeader,
    good(9),
    Buffer.from('hello\x1d', 'latin1'),
    good(11),
  ]);
  const items = await readAll(file);
  t.deepEqual(summary(items), [
    '1 record good-1',
    '2 problem bad-dir',
    '3 record good-3',
    '4 problem bad-dir-length',
    '5 record good-5',
    '6 problem cut-short',
    '7 record good-7',
    '8 problem -',
    '9 record good-9',
    '10 problem -',
    '11 record good-11',
  ]);
  t.is(reasonOf(items[1]), 'directory entry 3 (field "100"): the field length "00x2" is not a number');
  t.regex(reasonOf(items[3]), /^the directory is 47 characters long, not a whole number of 12-character entries/);
  t.regex(reasonOf(items[5]), /^field "245" \(directory entry 4\) runs past the end of the record: .*record terminator comes after/);
  t.regex(reasonOf(items[7]), /^the leader is broken: character 7 of it is byte 1E/);
  t.is(reasonOf(items[9]), 'the record is only 5 bytes long, too short for a 24-character leader and a directory');
  for (const record of records(items)) t.is(dataField(record, '245').subfields[0]?.value, GOOD_UTF8_TITLE);
});

test('a field that does not end where the directory says, with no way to tell the fields apart, is a problem', async (t) => {
  const record = encodeIso2709(utf8Record('shifted'));
  const base = Number(record.toString('latin1', 12, 17));
  const startOf = (entry: number) => 24 + 12 * entry + 7;
  // Entry 3 (100) starts two bytes late, and a field terminator inside 245 makes one field too many.
  const start100 = Number(record.toString('latin1', startOf(2), startOf(2) + 5));
  record.write(String(start100 + 2).padStart(5, '0'), startOf(2), 'latin1');
  const start245 = Number(record.toString('latin1', startOf(3), startOf(3) + 5));
  record[base + start245 + 8] = 0x1e;
  const items = await readAll(Buffer.concat([record, encodeIso2709(utf8Record('next'))]));
  t.deepEqual(summary(items), ['1 problem shifted', '2 record next']);
  t.is(
    reasonOf(items[0]),
    'field "100" (directory entry 3) does not end where the directory says (no field terminator at byte 72 of the data), and the data does not hold one field per directory entry',
  );
});

test('lenient: a wrong or non-numeric record length and a wrong base address are ignored when the rest agrees', async (t) => {
  const wrongLength = encodeIso2709(utf8Record('wrong-length'));
  wrongLength.write('01234', 0, 'latin1');
  const lettersForLength = encodeIso2709(utf8Record('letters'));
  lettersForLength.write('abcde', 0, 'latin1');
  const wrongBase = encodeIso2709(utf8Record('wrong-base'));
  wrongBase.write('00300', 12, 'latin1');
  const items = await readAll(Buffer.concat([wrongLength, lettersForLength, wrongBase]));
  t.deepEqual(summary(items), ['1 record wrong-length', '2 record letters', '3 record wrong-base']);
  for (const record of records(items)) t.is(dataField(record, '245').subfields[0]?.value, GOOD_UTF8_TITLE);
  t.is(records(items)[0]?.leader.slice(0, 5), '01234', 'the leader is given as it stands');
});

test('lenient: a directory that counts characters instead of bytes is read field by field', async (t) => {
  // What a tool produces when it converts to UTF-8 but counts lengths in characters.
  const record = utf8Record('counted-in-characters', 'Ærø — café');
  let directory = '';
  let data = '';
  for (const field of record.fields) {
    const text = ('subfields' in field ? field.ind1 + field.ind2 + field.subfields.map((s) => `\x1f${s.code}${s.value}`).join('') : field.value) + '\x1e';
    directory += field.tag + String(text.length).padStart(4, '0') + String(data.length).padStart(5, '0');
    data += text;
  }
  const base = 24 + directory.length + 1;
  const leader = `${String(base + data.length + 1).padStart(5, '0')}nam a22${String(base).padStart(5, '0')} i 4500`;
  const bytes = Buffer.from(`${leader}${directory}\x1e${data}\x1d`, 'utf8');
  const [item] = await readAll(bytes);
  t.is(item?.kind, 'record');
  t.deepEqual(item?.kind === 'record' ? dataField(item.record, '245').subfields[0] : undefined, { code: 'a', value: 'Ærø — café' });
});

test('lenient: a record terminator inside a field is kept when the leader length points at the real one', async (t) => {
  const withStray = encodeIso2709(utf8Record('stray', 'Before\x1dafter'));
  const items = await readAll(Buffer.concat([withStray, encodeIso2709(utf8Record('after-stray'))]));
  t.deepEqual(summary(items), ['1 record stray', '2 record after-stray']);
  t.is(dataField(records(items)[0] as MarcRecord, '245').subfields[0]?.value, 'Before\x1dafter');
});

test('lenient: the leader length can wait for the next chunk when the first terminator is inside a field', async (t) => {
  const withStray = encodeIso2709(utf8Record('stray', 'Before\x1dafter'));
  const file = Buffer.concat([withStray, encodeIso2709(utf8Record('after-stray'))]);
  const strayAt = withStray.indexOf(0x1d);
  const items = await readAll(file, [strayAt + 2]);
  t.deepEqual(summary(items), ['1 record stray', '2 record after-stray']);
});

test('lenient: two records run together (a lost terminator) are told apart by the first one\'s leader', async (t) => {
  const first = encodeIso2709(utf8Record('first'));
  const file = Buffer.concat([first.subarray(0, first.length - 1), encodeIso2709(utf8Record('second')), encodeIso2709(utf8Record('third'))]);
  t.deepEqual(summary(await readAll(file)), ['1 record first', '2 record second', '3 record third']);
});

test('lenient: line breaks and NULs between records are skipped', async (t) => {
  const file = Buffer.concat([
    encodeIso2709(utf8Record('a')),
    Buffer.from('\r\n'),
    encodeIso2709(utf8Record('b')),
    Buffer.from('\n\0'),
    encodeIso2709(utf8Record('c')),
    Buffer.from('\n'),
  ]);
  t.deepEqual(summary(await readAll(file)), ['1 record a', '2 record b', '3 record c']);
});

test('lenient: a blank Leader/09 over UTF-8 bytes is read as UTF-8, not as MARC-8', async (t) => {
  const mislabelled = encodeIso2709(utf8Record('mislabelled'));
  mislabelled[9] = 0x20;
  const [record] = records(await readAll(mislabelled)) as [MarcRecord];
  t.is(dataField(record, '245').subfields[1]?.value, 'São Paulo ; Москва ; 東京');
});

test('missing indicators read as blanks, and empty subfields are dropped', async (t) => {
  const file = encodeIso2709Raw('00000nam  2200000 a 4500', [
    rawControlField('001', 'ind'),
    { tag: '500', bytes: Buffer.from('\x1fano indicators', 'latin1') },
    { tag: '650', bytes: Buffer.from(' 0\x1faJazz\x1f\x1fvScores', 'latin1') },
  ]);
  const [record] = records(await readAll(file)) as [MarcRecord];
  t.deepEqual(dataField(record, '500'), { tag: '500', ind1: ' ', ind2: ' ', subfields: [{ code: 'a', value: 'no indicators' }] });
  t.deepEqual(dataField(record, '650').subfields, [
    { code: 'a', value: 'Jazz' },
    { code: 'v', value: 'Scores' },
  ]);
});

test('a small file cut into two chunks at every byte position reads the same as whole', async (t) => {
  const file = Buffer.concat([encodeIso2709(utf8Record('u-1')), marc8Record('m-2'), encodeIso2709(utf8Record('u-3'))]);
  const whole = await readAll(file);
  t.is(whole.length, 3);
  for (let cut = 0; cut <= file.length; cut += 1) {
    t.deepEqual(await readAll(file, [cut]), whole, `cut at byte ${cut}`);
  }
});

test('a small file in one-byte chunks reads the same as whole', async (t) => {
  const file = Buffer.concat([encodeIso2709(utf8Record('u-1')), marc8Record('m-2'), Buffer.from('\n')]);
  const cuts = Array.from({ length: file.length - 1 }, (_, index) => index + 1);
  t.deepEqual(await readAll(file, cuts), await readAll(file));
});

test('an empty file and a file of whitespace hold no records', async (t) => {
  t.deepEqual(await readAll(Buffer.alloc(0)), []);
  t.deepEqual(await readAll(Buffer.from(' \r\n\n\x1a')), []);
});

test('a last record without its terminator is still read', async (t) => {
  const last = encodeIso2709(utf8Record('last'));
  const file = Buffer.concat([encodeIso2709(utf8Record('first')), last.subarray(0, last.length - 1)]);
  t.deepEqual(summary(await readAll(file)), ['1 record first', '2 record last']);
});

test('trailing garbage after the last record is one problem numbered after it', async (t) => {
  const file = Buffer.concat([encodeIso2709(utf8Record('only')), Buffer.from('this is not MARC\n')]);
  const items = await readAll(file);
  t.deepEqual(summary(items), ['1 record only', '2 problem -']);
  t.regex(reasonOf(items[1]), /^the file ends in the middle of a record \(17 bytes with no record terminator\): the record is only 17 bytes long/);
});

test('a truncated last record is a problem that names its 001', async (t) => {
  const last = encodeIso2709(utf8Record('truncated'));
  const file = Buffer.concat([encodeIso2709(utf8Record('whole')), last.subarray(0, last.length - 30)]);
  const items = await readAll(file);
  t.deepEqual(summary(items), ['1 record whole', '2 problem truncated']);
  t.regex(reasonOf(items[1]), /^the file ends in the middle of a record .*: field "245" \(directory entry 4\) runs past the end/);
});

test('megabytes without any record terminator are one problem, and reading finds the next record', async (t) => {
  const junk = Buffer.alloc(17 << 20, 0x78);
  const file = Buffer.concat([encodeIso2709(utf8Record('before')), junk, encodeIso2709(utf8Record('after')), encodeIso2709(utf8Record('later'))]);
  const cuts = [];
  for (let cut = 1 << 20; cut < file.length; cut += 1 << 20) cuts.push(cut);
  const items = await readAll(file, cuts);
  t.deepEqual(summary(items), ['1 record before', '2 problem -', '3 record after', '4 record later']);
  t.regex(reasonOf(items[1]), /^no record terminator in \d+ bytes: this part of the file is not MARC records/);
});

test('readIso2709 reads a file from disk; a missing file throws', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'iso2709-reader-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'catalog.mrc');
  writeFileSync(path, Buffer.concat([encodeIso2709(utf8Record('disk-1')), marc8Record('disk-2')]));
  const items: Item[] = [];
  for await (const item of readIso2709(path)) items.push(item);
  t.deepEqual(
    items.map((item) => item.position),
    [
      { source: path, recordNumber: 1, id: 'disk-1' },
      { source: path, recordNumber: 2, id: 'disk-2' },
    ],
  );
  await t.throwsAsync(async () => {
    for await (const item of readIso2709(join(dir, 'missing.mrc'))) t.fail(`read ${item.kind}`);
  }, { code: 'ENOENT' });
});

/** A record labelled UTF-8 from its fields' texts (terminators included) as they lie in the data, and its directory's entries [tag, index of the text]. */
function utf8RecordLaidOut(texts: readonly string[], entries: readonly (readonly [string, number])[]): Buffer {
  const bytes = texts.map((text) => Buffer.from(text, 'utf8'));
  const offsets = bytes.map((_, i) => bytes.slice(0, i).reduce((sum, b) => sum + b.length, 0));
  const directory = entries.map(([tag, i]) => tag + String(bytes[i]!.length).padStart(4, '0') + String(offsets[i]).padStart(5, '0')).join('');
  const base = 24 + directory.length + 1;
  const length = base + bytes.reduce((sum, b) => sum + b.length, 0) + 1;
  const leader = `${String(length).padStart(5, '0')}nam a22${String(base).padStart(5, '0')} i 4500`;
  return Buffer.concat([Buffer.from(`${leader}${directory}\x1e`, 'latin1'), ...bytes, Buffer.from('\x1d', 'latin1')]);
}

test('UTF-8 fields are read where the directory puts them: out of order, or holding a field terminator', async (t) => {
  // The data holds 245 before 001 while the directory lists 001 first; the 500's length takes in a 1E.
  const outOfOrder = utf8RecordLaidOut(['10\x1faCafe\u0301 society\x1e', 'out-of-order\x1e'], [['001', 1], ['245', 0]]);
  const innerTerminator = utf8RecordLaidOut(['inner-1e\x1e', '  \x1faNote\x1econtinued, cafe\u0301\x1e'], [['001', 0], ['500', 1]]);
  const [first, second] = records(await readAll(Buffer.concat([outOfOrder, innerTerminator]))) as [MarcRecord, MarcRecord];
  t.deepEqual(first.fields.map((field) => field.tag), ['001', '245']);
  t.deepEqual(first.fields[0], { tag: '001', value: 'out-of-order' });
  t.deepEqual(dataField(first, '245').subfields, [{ code: 'a', value: GOOD_UTF8_TITLE }]);
  t.deepEqual(second.fields[0], { tag: '001', value: 'inner-1e' });
  t.deepEqual(dataField(second, '500').subfields, [{ code: 'a', value: 'Note\x1econtinued, café' }]);
});
