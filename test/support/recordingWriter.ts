/**
 * A writer for pipeline tests: keyed with a profile, it records every document, deletion and close it is
 * given, and has a grouping decision of its own (as src/adapters/sqlite/curationTable.ts's writer has):
 * records whose id ends in 3 get one more key, `curated`; and a load into it (recordedLoad).
 */
import { runIngest, type IngestOptions, type IngestWriter, type RecordBatchMapping } from '../../src/ingest/pipeline.js';
import { describeRejection, type SourceItem } from '../../src/record/sourceRecord.js';
import type { WorkKeyProfileName } from '../../src/work-keys/workKeyProfiles.js';

export function recordingWriter(keyProfile: WorkKeyProfileName): { writer: IngestWriter; log: unknown[] } {
  const log: unknown[] = [];
  const writer: IngestWriter = {
    description: 'recording writer',
    keyProfile,
    curateWorkKeys: (document) => (document.id.endsWith('3') ? { ...document, work_keys_str_mv: [...document.work_keys_str_mv, 'curated'] } : document),
    storedContentOf: async () => new Map(),
    put: async (batch) => {
      log.push(...batch);
      return [];
    },
    delete: async (ids) => { log.push(`delete ${ids.join(' ')}`); },
    close: async () => { log.push('close'); },
  };
  return { writer, log };
}

/** A load through runIngest into a recording writer, batches of 300, one clock: its counts, what the writer got, and the rejections. */
export async function recordedLoad(
  items: AsyncIterable<SourceItem<unknown>> | Iterable<SourceItem<unknown>>, toDocument: IngestOptions<unknown>['toDocument'],
  mapBatches: RecordBatchMapping<unknown> | undefined, keyProfile: WorkKeyProfileName,
) {
  const { writer, log } = recordingWriter(keyProfile);
  const rejections: string[] = [];
  const now = new Date('2026-11-25T12:00:00Z');
  const summary = await runIngest<unknown>({
    items,
    toDocument,
    ...(mapBatches === undefined ? {} : { mapBatches }),
    writer,
    now: () => now,
    batchSize: 300,
    onRejected: ({ position, reason }) => rejections.push(describeRejection(position, reason)),
  });
  const { seconds: _seconds, ...counts } = summary;
  return { counts, log, rejections };
}
