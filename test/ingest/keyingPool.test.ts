/**
 * Work keys of record documents made in worker threads (src/ingest/keyingPool.ts) against the same
 * documents prepared on the main thread, through the one pipeline, under each work-key profile and with a
 * writer's grouping decision: the test fixtures' documents over and over (some carrying their own keys,
 * some without last_indexed), with documents the check refuses, a deletion and a duplicate, long enough for
 * several batches in flight, give the same documents, deletions, rejections with their positions and counts.
 */
import test from 'ava';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordBatchMapping } from '../../src/ingest/pipeline.js';
import { startKeyingWorkers } from '../../src/ingest/keyingPool.js';
import { loadDocuments } from '../../src/ingest/loadDocuments.js';
import { recordFormatNamed } from '../../src/ingest/recordFormats.js';
import { loadRecordFiles, MAPPING_WORKERS_MIN_BYTES } from '../../src/cli/loadRecords.js';
import { recordedLoad, recordingWriter } from '../support/recordingWriter.js';
import { describeRejection, type SourceItem } from '../../src/record/sourceRecord.js';
import { WORK_KEY_PROFILES, WORK_KEY_PROFILE_NAMES, type WorkKeyProfileName } from '../../src/work-keys/workKeyProfiles.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');

/** Every document of the fixtures' JSON Lines files. */
function fixtureDocuments(): Record<string, unknown>[] {
  return readdirSync(FIXTURES).filter((name) => name.endsWith('.jsonl')).sort().flatMap((name) => readFileSync(join(FIXTURES, name), 'utf8')
    .split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as Record<string, unknown>));
}

/** 2,600 documents: the fixtures again and again under new ids; every 211th refused, one deletion, one duplicate. */
function catalog(): unknown[] {
  const fixtures = fixtureDocuments();
  const documents: unknown[] = [];
  for (let n = 1; n <= 2600; n++) {
    const fixture = fixtures[n % fixtures.length]!;
    if (n % 211 === 0) documents.push({ ...fixture, id: `bad-${n}`, title: 42 });
    else if (n === 1500) documents.push({ title: 'No id here' });
    else if (n === 1700) documents.push({ deletedRecordId: 'doc-12' });
    else if (n === 2100) documents.push({ ...fixtures[7 % fixtures.length]!, id: 'doc-7' });
    else documents.push({ ...fixture, id: `doc-${n}` });
  }
  return documents;
}

function load(documents: readonly unknown[], mapBatches: RecordBatchMapping<unknown> | undefined, keyProfile: WorkKeyProfileName) {
  const items: SourceItem<unknown>[] = documents.map((record, i) => ({ kind: 'record', position: { source: 'docs', recordNumber: i + 1 }, record }));
  return recordedLoad(items, (record) => record, mapBatches, keyProfile);
}

for (const keyProfile of WORK_KEY_PROFILE_NAMES) {
  test(`documents keyed in worker threads are written as the main thread prepares them, with the same rejections at the same positions (${keyProfile} keys)`, async (t) => {
    const documents = catalog();
    const here = await load(documents, undefined, keyProfile);
    const inOneWorker = await load(documents, startKeyingWorkers({ workers: 1, keyHereFirst: 0 }), keyProfile);
    const inWorkers = await load(documents, startKeyingWorkers({ workers: 2, keyHereFirst: 1200 }), keyProfile);
    t.is(here.counts.rejected, 13);
    t.is(here.counts.deleted, 1);
    t.is(here.counts.duplicates, 1);
    t.true(here.log.some((entry) => typeof entry === 'object' && (entry as { work_keys_str_mv: string[] }).work_keys_str_mv.includes('curated')));
    t.deepEqual(inOneWorker, here);
    t.deepEqual(inWorkers, here);
  });

  test(`a document holding only the fields the ${keyProfile} profile reads has the same keys as the whole document`, (t) => {
    const profile = WORK_KEY_PROFILES[keyProfile];
    for (const document of fixtureDocuments()) {
      const keyed = Object.fromEntries(profile.keyedFields.filter((name) => document[name] !== undefined).map((name) => [name, document[name]]));
      t.deepEqual(profile.keysOfDocument(keyed), profile.keysOfDocument(document), String(document.id));
    }
  });
}

test('loadDocuments names the id of a refused document read batches ahead of the one written', async (t) => {
  const documents = catalog().filter((document) => (document as { deletedRecordId?: string }).deletedRecordId === undefined);
  const { writer } = recordingWriter('extended');
  const error = await t.throwsAsync(loadDocuments(writer, documents, { workers: 2 }));
  t.regex(error!.message, /document 211 \(id "bad-211"\): field "title"/);
});

test('a JSON Lines file large enough for workers is loaded with the keys and rejections of a load without them', async (t) => {
  // Enough documents for the workers to start after the ones keyed first on the main thread, and bytes for the loader to use them.
  const fixtures = fixtureDocuments();
  const lines: string[] = [];
  for (let n = 1, bytes = 0; n <= 15_000 || bytes < MAPPING_WORKERS_MIN_BYTES; n++) {
    const line = n % 977 === 0 ? JSON.stringify({ id: `bad-${n}`, author: 7 }) : JSON.stringify({ ...fixtures[n % fixtures.length]!, id: `doc-${n}`, work_keys_str_mv: undefined });
    lines.push(line);
    bytes += line.length + 1;
  }
  const directory = mkdtempSync(join(tmpdir(), 'keying-workers-'));
  t.teardown(() => rmSync(directory, { recursive: true, force: true }));
  const path = join(directory, 'catalog.jsonl');
  writeFileSync(path, `${lines.join('\n')}\n`);
  const loaded = async (workers: number) => {
    const { writer, log } = recordingWriter('extended');
    const rejections: string[] = [];
    await loadRecordFiles({ files: [{ path, format: recordFormatNamed('jsonl')! }], writer, workers, clock: new Date('2026-11-26T00:00:00Z'), onRejected: ({ position, reason }) => rejections.push(describeRejection(position, reason)) });
    // Compared as digests: a difference in 15,000 documents is too large for ava to show.
    return { documents: log.length, digest: createHash('sha256').update(JSON.stringify(log)).digest('hex'), rejections };
  };
  const here = await loaded(0);
  t.true(here.rejections.length > 10);
  t.deepEqual(await loaded(2), here);
});

test('the keying workers refuse a worker count that is not a whole number >= 1', (t) => {
  for (const workers of [0, -1, 1.5, Number.NaN]) {
    t.throws(() => startKeyingWorkers({ workers }), { message: /workers/ });
  }
});
