/**
 * The one format table (src/ingest/recordFormats.ts): files and harvests read from the same rows, an
 * unknown metadata prefix refused before anything is read, and XML that holds no MARC record refused with
 * what was found instead of being loaded as an empty file.
 */
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InvalidOptionError, UnrecognisedRecordFileError, VersionsError } from '../../src/errors.js';
import { harvestedRecordToDocument } from '../../src/ingest/oai/harvestedRecords.js';
import { readMarcXml } from '../../src/marc/marcXmlReader.js';
import {
  detectRecordFormat, harvestFormatFor, HARVEST_PREFIXES, RECORD_FILE_FORMATS, RECORD_FORMATS,
} from '../../src/ingest/recordFormats.js';
import { EXIT_FAILED, runCli } from '../../src/cli/catalogVersions.js';

const notMarc = (name: string): string => fileURLToPath(new URL(`../fixtures/not-marc/${name}`, import.meta.url));

async function drain(items: AsyncIterable<unknown>): Promise<number> {
  let count = 0;
  for await (const _ of items) count += 1;
  return count;
}

test('files and harvests are rows of one table: MARCXML is both a file format and the marc21 prefix', (t) => {
  t.deepEqual(RECORD_FORMATS.map((format) => format.name), ['jsonl', 'iso2709', 'marcxml', 'oai_dc']);
  t.deepEqual(RECORD_FILE_FORMATS.map((format) => format.name), ['jsonl', 'iso2709', 'marcxml']);
  t.deepEqual([...HARVEST_PREFIXES], ['marc21', 'oai_dc']);
  t.is(RECORD_FORMATS.find((format) => format.harvest?.prefix === 'marc21')?.file?.name, 'marcxml');
});

test('an unknown metadata prefix is refused up front, naming the prefixes read here', (t) => {
  for (const prefix of ['mods', 'MARC21', '', undefined, 42]) {
    const error = t.throws(() => harvestFormatFor(prefix), { instanceOf: InvalidOptionError });
    t.is(error?.code, 'INVALID_OPTION');
    t.is(error?.option, 'prefix');
    t.regex(error?.message ?? '', /marc21 or oai_dc/);
  }
  // Before the metadata is read: a MODS record is not taken for MARCXML holding no record.
  const error = t.throws(() => harvestedRecordToDocument(
    { identifier: 'oai:repo:1', datestamp: '2024-01-01', deleted: false, metadataXml: '<mods xmlns="http://www.loc.gov/mods/v3"/>' } as never,
    { prefix: 'mods' },
  ), { instanceOf: InvalidOptionError });
  t.notRegex(error?.message ?? '', /0 MARC records/);
});

for (const [file, root] of [['news-feed.rss.xml', 'rss'], ['thesis.mods.xml', 'mods:modsCollection']] as const) {
  test(`${file}: XML without MARC records is refused, naming its root element <${root}>`, async (t) => {
    const path = notMarc(file);
    t.is((await detectRecordFormat(path))?.name, 'marcxml', 'it looks like XML, so the MARCXML reader is asked');
    const error = await t.throwsAsync(drain(readMarcXml(path)), { instanceOf: UnrecognisedRecordFileError });
    t.true(error instanceof VersionsError);
    t.is(error?.code, 'UNRECOGNISED_RECORD_FILE');
    t.is(error?.path, path);
    t.regex(error?.message ?? '', new RegExp(`<${root}>`));
  });
}

test('an empty MARCXML collection is an empty file, not a refusal', async (t) => {
  t.is(await drain(readMarcXml(notMarc('empty-marc-collection.xml'))), 0);
});

test('load refuses an RSS file with a non-zero exit and a message naming what it found', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-versions-formats-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  let out = '';
  let err = '';
  const io = { stdout: { write: (text: string) => (out += text) }, stderr: { write: (text: string) => (err += text) } };
  const code = await runCli(['load', notMarc('news-feed.rss.xml'), '--db', join(dir, 'catalog.sqlite')], io);
  t.is(code, EXIT_FAILED, out + err);
  t.regex(err, /holds no MARCXML records \(found the root element <rss>/);
  t.notRegex(out, / → /, 'no summary of a load that went to its end');
});
