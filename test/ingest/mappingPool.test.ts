/**
 * The mapping step in worker threads (src/ingest/mappingPool.ts), which also prepares and keys the
 * documents there, against the same step on the main thread, through the one pipeline, under each work-key
 * profile and with a writer's grouping decision: an ISO 2709 file of UTF-8 and MARC-8 records, records the reader
 * refuses, a record the mapping refuses (no id), a withdrawn record and a duplicate, long enough for
 * several batches in flight, gives the same documents, deletions, rejections with their positions and
 * counts either way.
 */
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IngestOptions, RecordBatchMapping } from '../../src/ingest/pipeline.js';
import { startMappingWorkers } from '../../src/ingest/mappingPool.js';
import { storedFieldRuns, storedFieldsJsonFrom } from '../../src/ingest/mappingOutcomeTexts.js';
import { prepareRecordDocument, type PreparedRecordDocument } from '../../src/ingest/prepareRecordDocument.js';
import { documentColumnOf } from '../../src/adapters/sqlite/indexTables.js';
import { recordFormatNamed } from '../../src/ingest/recordFormats.js';
import { recordedLoad } from '../support/recordingWriter.js';
import { encodeIso2709, encodeIso2709Raw, rawControlField, rawDataField } from '../support/writeIso2709.js';
import type { SourceItem } from '../../src/record/sourceRecord.js';
import type { MarcRecord } from '../../src/marc/marcRecord.js';
import { recordDocumentFromMarc } from '../../src/ingest/marc/vufindMarcMapping.js';
import type { WorkKeyProfileName } from '../../src/work-keys/workKeyProfiles.js';

const ESC = '\x1b';

function bookRecord(n: number): MarcRecord {
  return {
    leader: '00000nam a2200000 i 4500',
    fields: [
      { tag: '001', value: `book-${n}` },
      { tag: '008', value: `${String(200101 + (n % 9))}s${1990 + (n % 30)}    bl            000 0 por d` },
      { tag: '100', ind1: '1', ind2: ' ', subfields: [{ code: 'a', value: `Autor ${n % 37}, Ana,` }, { code: 'e', value: 'author.' }] },
      { tag: '240', ind1: '1', ind2: '0', subfields: [{ code: 'a', value: `Obra ${n % 53}` }] },
      { tag: '245', ind1: '1', ind2: '0', subfields: [{ code: 'a', value: `Cafe\u0301 número ${n} :` }, { code: 'b', value: 'São Paulo' }] },
      { tag: '260', ind1: ' ', ind2: ' ', subfields: [{ code: 'b', value: 'Editora,' }, { code: 'c', value: String(1990 + (n % 30)) }] },
    ],
  };
}

function marc8Record(id: string): Buffer {
  return encodeIso2709Raw('00000nam  2200000 a 4500', [
    rawControlField('001', id),
    rawDataField('100', '1', ' ', [['a', '\xA1\xE2od\xE2z, Jan']]),
    rawDataField('245', '1', '0', [['a', 'Caf\xE2e cr\xE8eme :'], ['b', `${ESC}(NKNIGA${ESC}(B /`]]),
  ]);
}

/** 2,600 source records: every 97th MARC-8, every 211th broken, one without 001, one withdrawn, one duplicate. */
function catalogFile(): Buffer {
  const parts: Buffer[] = [];
  for (let n = 1; n <= 2600; n++) {
    if (n % 211 === 0) {
      const broken = encodeIso2709(bookRecord(n));
      broken.write('x', 24 + 12 * 2 + 5, 'latin1');
      parts.push(broken);
    } else if (n % 97 === 0) {
      parts.push(marc8Record(`marc8-${n}`));
    } else if (n === 1500) {
      parts.push(encodeIso2709({ ...bookRecord(n), fields: bookRecord(n).fields.filter((field) => field.tag !== '001') }));
    } else if (n === 1700) {
      parts.push(encodeIso2709({ ...bookRecord(12), leader: '00000dam a2200000 i 4500' }));
    } else if (n === 2100) {
      parts.push(encodeIso2709(bookRecord(7)));
    } else {
      parts.push(encodeIso2709(bookRecord(n)));
    }
  }
  return Buffer.concat(parts);
}

function load(path: string, mapBatches: RecordBatchMapping<Uint8Array> | undefined, keyProfile: WorkKeyProfileName) {
  const format = recordFormatNamed('iso2709')!;
  const items = (mapBatches === undefined ? format.read(path) : format.asBytes!.read(path)) as AsyncIterable<SourceItem<unknown>>;
  const toDocument: IngestOptions<unknown>['toDocument'] = mapBatches === undefined
    ? (record, position, keyProfile) => format.toDocument(record, position, undefined, keyProfile)
    : (record, position, keyProfile) => format.asBytes!.toDocument(record as Uint8Array, position, undefined, keyProfile);
  return recordedLoad(items, toDocument, mapBatches as RecordBatchMapping<unknown> | undefined, keyProfile);
}

for (const keyProfile of ['vufind', 'extended'] as const) {
test(`a load mapped and keyed in worker threads writes what the main thread's mapping writes, and rejects the same records at the same positions (${keyProfile} keys)`, async (t) => {
  const directory = mkdtempSync(join(tmpdir(), 'mapping-workers-'));
  t.teardown(() => rmSync(directory, { recursive: true, force: true }));
  const path = join(directory, 'catalog.mrc');
  writeFileSync(path, catalogFile());

  const here = await load(path, undefined, keyProfile);
  const inOneWorker = await load(path, startMappingWorkers({ format: 'iso2709', workers: 1 }), keyProfile);
  const inWorkers = await load(path, startMappingWorkers({ format: 'iso2709', workers: 2 }), keyProfile);

  t.is(here.counts.read, 2600);
  t.is(here.counts.rejected, 13, '12 broken records and one without an id');
  t.is(here.counts.duplicates, 1);
  t.is(here.counts.deleted + here.counts.deletionsNotHeld, 1);
  t.true(here.rejections.some((line) => line.startsWith(`${path}:record 211 (001 book-211): directory entry 3`)));
  t.true(here.rejections.some((line) => line.startsWith(`${path}:record 1500: `)));
  t.true(here.log.some((entry) => JSON.stringify(entry).includes('"id":"marc8-97"') && JSON.stringify(entry).includes('Café crëme')));
  t.deepEqual(inWorkers.counts, here.counts);
  t.deepEqual(inWorkers.rejections, here.rejections);
  // The documents themselves, not their JSON: a property present but undefined on one side shows too.
  t.deepEqual(inWorkers.log, here.log);
  t.deepEqual(inOneWorker, here);
  // Keyed under the writer's profile, and the writer's grouping decision applied to documents prepared in a worker.
  const documents = here.log.filter((entry): entry is { id: string; work_keys_str_mv: string[] } => typeof entry === 'object');
  t.deepEqual(documents.find((document) => document.id === 'book-2')!.work_keys_str_mv, keysUnder(keyProfile));
  t.true(documents.filter((document) => document.id.endsWith('3')).every((document) => document.work_keys_str_mv.at(-1) === 'curated'));
  t.false(documents.filter((document) => !document.id.endsWith('3')).some((document) => document.work_keys_str_mv.includes('curated')));
});
}

/** book-2's keys under a profile, from the stock mapping on this thread. */
function keysUnder(keyProfile: WorkKeyProfileName): string[] {
  return (recordDocumentFromMarc(bookRecord(2), { keyProfile }) as { work_keys_str_mv: string[] }).work_keys_str_mv;
}

test('the mapping workers refuse a worker count that is not a whole number >= 1', (t) => {
  for (const workers of [0, -1, 1.5, Number.NaN]) {
    t.throws(() => startMappingWorkers({ format: 'iso2709', workers }), { message: /workers/ });
  }
});

test('the stored fields a worker cuts from a document\'s text are the embedded index\'s document column, and documents out of that order are left to the writer', (t) => {
  const mapped = [1, 2, 3, 40].map((n) => prepareRecordDocument(recordDocumentFromMarc(bookRecord(n)), new Date('2024-06-11T00:00:00Z'), 'extended').document);
  const documents: PreparedRecordDocument[] = [
    ...mapped,
    // Roles between the names, a quote, a backslash and a key's text inside values, a null.
    {
      id: 'x"1', title: 'A "title": \\', author: ['Name, A.'], author_role: ['"author":'], author2: ['B'], author2_role: ['ed.'],
      format: ['Book'], edition: null, work_keys_str_mv: ['"physical":'], last_indexed: '2024-06-11T00:00:00.000Z',
    } as unknown as PreparedRecordDocument,
    // No stored field at all.
    { id: 'bare', work_keys_str_mv: [], last_indexed: '2024-06-11T00:00:00.000Z' } as PreparedRecordDocument,
  ];
  for (const document of documents) {
    const text = JSON.stringify(document);
    const runs: number[] = [7];
    const count = storedFieldRuns(document, text, runs);
    t.true(count >= 0, document.id);
    t.is(runs.length, 1 + 2 * count);
    t.is(storedFieldsJsonFrom(text, Int32Array.from(runs.slice(1))), documentColumnOf(document), document.id);
  }
  // A local mapping's field set after the others (localMapping.ts) is out of the stored order.
  const local = { ...mapped[0]!, title: undefined, institution: ['Main'] } as unknown as PreparedRecordDocument;
  delete (local as { title?: string }).title;
  (local as { title?: string }).title = 'Later';
  const runs: number[] = [];
  t.is(storedFieldRuns(local, JSON.stringify(local), runs), -1);
  t.deepEqual(runs, []);
});
