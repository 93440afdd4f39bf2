/**
 * Files that hold no records say what they are, before anything is read or an index made
 * (recordFileContent in src/ingest/recordFormats.ts, through `catalog-versions load` and `convert`): a
 * compressed file (gzip, zip, bzip2, xz, zstd, told by its first bytes whatever its name or --format)
 * fails with how to decompress it; an empty file, or one of white space only, fails unless --allow-empty
 * skips it, and a load whose files are all empty then succeeds without opening the index.
 */
import test from 'ava';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, gzipSync } from 'node:zlib';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, runCli } from '../../src/cli/catalogVersions.js';
import { compressionOf, recordFileContent } from '../../src/ingest/recordFormats.js';
import { writeIso2709 } from '../support/writeIso2709.js';
import { capture, tempDir } from '../support/commandRuns.js';

async function run(args: string[]) {
  const io = capture();
  const code = await runCli(args, io.io);
  return { code, out: io.out(), err: io.err() };
}

/** One MARC record of a real-looking export, as ISO 2709 bytes. */
const EXPORT = writeIso2709([{
  leader: '00000nam a2200000 a 4500',
  fields: [
    { tag: '001', value: 'ocm00012345' },
    { tag: '245', ind1: '1', ind2: '0', subfields: [{ code: 'a', value: 'Le théâtre et son double /' }, { code: 'c', value: 'Antonin Artaud.' }] },
  ],
}]);

/** A zip archive holding `name` stored (not deflated), as `zip -0` writes one. */
function storedZip(name: string, data: Buffer): Buffer {
  const nameBytes = Buffer.from(name, 'latin1');
  const crc = crc32(data);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(10, 4);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(nameBytes.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(10, 6);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(nameBytes.length, 28);
  const centralStart = local.length + nameBytes.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + nameBytes.length, 12);
  end.writeUInt32LE(centralStart, 16);
  return Buffer.concat([local, nameBytes, data, central, nameBytes, end]);
}

/** Each compression as its tool writes a file: the export itself where Node can write it, else an empty stream. */
const COMPRESSED: ReadonlyArray<{ readonly name: string; readonly bytes: Buffer; readonly hint: string }> = [
  { name: 'gzip', bytes: gzipSync(EXPORT), hint: 'gzip -dc' },
  { name: 'zip', bytes: storedZip('export.mrc', EXPORT), hint: 'unzip -p' },
  { name: 'zip', bytes: Buffer.from('504b0506000000000000000000000000000000000000', 'hex'), hint: 'unzip -p' },
  { name: 'bzip2', bytes: Buffer.from('425a683917724538509000000000', 'hex'), hint: 'bzip2 -dc' },
  { name: 'xz', bytes: Buffer.from('fd377a585a000004e6d6b446000000001cdf44211fb6f37d010000000004595a', 'hex'), hint: 'xz -dc' },
  { name: 'zstd', bytes: Buffer.from('28b52ffd240001000099e9d851', 'hex'), hint: 'zstd -dc' },
];

for (const [i, { name, bytes, hint }] of COMPRESSED.entries()) {
  test(`a ${name}-compressed file named .mrc is refused with how to decompress it, even with --format, and no index is made (${i})`, async (t) => {
    const dir = tempDir(t);
    const file = join(dir, 'export.mrc');
    writeFileSync(file, bytes);
    const db = join(dir, 'catalog.sqlite');
    for (const args of [['load', file, '--db', db], ['load', file, '--db', db, '--format', 'iso2709'], ['convert', file], ['load', file, '--db', db, '--allow-empty']]) {
      const result = await run(args);
      t.is(result.code, EXIT_FAILED, args.join(' '));
      const decompressed = join(dir, 'export-decompressed.mrc');
      t.is(result.err, `catalog-versions: ${file} is ${name}-compressed: decompress it first (${hint} ${file} > ${decompressed}) and load ${decompressed}\n`);
      t.is(result.out, '');
    }
    t.false(existsSync(db));
  });
}

test('compressionOf: only the whole magic number counts, and record files are none', (t) => {
  t.is(compressionOf(Buffer.from([0x1f, 0x8b, 0x08]))?.name, 'gzip');
  t.is(compressionOf(Buffer.from([0x1f])), undefined, 'a first byte alone is not gzip');
  t.is(compressionOf(Buffer.from('PK\x03\x04', 'latin1'))?.name, 'zip');
  t.is(compressionOf(Buffer.from('PK\x01\x02', 'latin1')), undefined);
  t.is(compressionOf(Buffer.from('BZh91AY&SY', 'latin1'))?.name, 'bzip2');
  for (const records of [EXPORT, Buffer.from('{"id":"a"}\n'), Buffer.from('<?xml version="1.0"?><collection/>'), Buffer.alloc(0)]) {
    t.is(compressionOf(records), undefined);
  }
});

test('recordFileContent tells an empty file, a file of white space, a compressed one and records apart', async (t) => {
  const dir = tempDir(t);
  const write = (name: string, bytes: Buffer | string) => {
    writeFileSync(join(dir, name), bytes);
    return join(dir, name);
  };
  t.like(await recordFileContent(write('empty.mrc', '')), { kind: 'empty', bytes: 0, message: `${join(dir, 'empty.mrc')} is empty (0 bytes): nothing to load` });
  t.like(await recordFileContent(write('blank.jsonl', '\n \r\n')), { kind: 'empty', bytes: 4, message: `${join(dir, 'blank.jsonl')} holds only white space (4 bytes): nothing to load` });
  const gz = write('export.mrc.gz', gzipSync(EXPORT));
  t.like(await recordFileContent(gz), { kind: 'compressed', message: `${gz} is gzip-compressed: decompress it first (gzip -dc ${gz} > ${join(dir, 'export.mrc')}) and load ${join(dir, 'export.mrc')}` });
  const records = await recordFileContent(write('export.dat', EXPORT));
  t.is(records.kind === 'records' ? records.format?.name : records.kind, 'iso2709');
});

test('an empty file fails the load, naming it and --allow-empty, even with --format; no index is made', async (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'nightly.mrc');
  writeFileSync(file, '');
  const db = join(dir, 'catalog.sqlite');
  for (const args of [['load', file, '--db', db], ['load', file, '--db', db, '--format', 'iso2709'], ['convert', file]]) {
    const result = await run(args);
    t.is(result.code, EXIT_FAILED, args.join(' '));
    t.is(result.err, `catalog-versions: ${file} is empty (0 bytes): nothing to load; give --allow-empty to succeed with nothing loaded from it\n`);
    t.is(result.out, '');
  }
  t.false(existsSync(db));
});

test('--allow-empty: a load of empty files succeeds with nothing loaded, without opening or making the index', async (t) => {
  const dir = tempDir(t);
  const empty = join(dir, 'nightly.mrc');
  const blank = join(dir, 'nightly.jsonl');
  writeFileSync(empty, '');
  writeFileSync(blank, '\n\n');
  const db = join(dir, 'catalog.sqlite');
  const result = await run(['load', empty, blank, '--db', db, '--allow-empty', '--format', 'iso2709']);
  t.is(result.code, EXIT_OK, result.err);
  t.is(result.err, `${empty} is empty (0 bytes): nothing to load (--allow-empty: skipped)\n${blank} holds only white space (2 bytes): nothing to load (--allow-empty: skipped)\n`);
  t.is(result.out, `Nothing to load from ${empty}, ${blank} (--allow-empty). 0 read: nothing written, 0 rejected.\n`);
  t.false(existsSync(db));
  const converted = await run(['convert', empty, '--allow-empty']);
  t.is(converted.code, EXIT_OK, converted.err);
  t.is(converted.out, '');
});

test('--allow-empty: the other files load as usual beside an empty one', async (t) => {
  const dir = tempDir(t);
  const empty = join(dir, 'deletions.mrc');
  const file = join(dir, 'updates.mrc');
  writeFileSync(empty, '');
  writeFileSync(file, EXPORT);
  const db = join(dir, 'catalog.sqlite');
  const result = await run(['load', empty, file, '--db', db, '--allow-empty']);
  t.is(result.code, EXIT_OK, result.err);
  t.regex(result.err, new RegExp(`^${empty.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is empty \\(0 bytes\\): nothing to load \\(--allow-empty: skipped\\)\n`));
  t.regex(result.out, /updates\.mrc → embedded index .* 1 read: 1 new, 0 rejected\.\n$/);
  t.true(existsSync(db));
});

test('--allow-empty applies to load and convert only', async (t) => {
  const result = await run(['harvest', 'http://127.0.0.1:9/oai', '--prefix', 'oai_dc', '--db', 'x.sqlite', '--allow-empty']);
  t.is(result.code, EXIT_USAGE);
  t.regex(result.err, /--allow-empty applies to load or convert only/);
});
