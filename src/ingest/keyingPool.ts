/**
 * The pipeline's batch mapping (batchMapping.ts, RecordBatchMapping) for record documents a program already
 * holds (`loadDocuments`, JSON Lines files): the mapping step takes them as they are, and what costs is
 * making their work keys, which this runs in worker threads (keyingThread.ts, through batchWorkerPool.ts).
 * Each document is checked here, in order; one that needs keys is sent as only the fields its profile
 * reads (WorkKeyProfile.keyedFields), its keys come back, and it is prepared here with them
 * (preparedWithKeys), so the documents themselves never cross threads; a document that carries its keys
 * is prepared here with them. Anything else (a deletion, a document that fails its check) is answered as
 * the mapping's value, which the pipeline prepares or rejects on this thread as it would without workers. The keys are the profile's
 * keysOfDocument of the same fields wherever they are made.
 *
 * The first documents of a load are keyed here (`keyHereFirst`): a short load ends before workers
 * would have started.
 *
 * Left to others: reading, ordering, curation and writing (the pipeline), the workers' turns (batchWorkerPool.ts).
 */
import { InvalidOptionError } from '../errors.js';
import { checkRecordDocument, type RecordDocument } from '../record/catalogRecord.js';
import { WORK_KEY_PROFILES, type WorkKeyProfileName } from '../work-keys/workKeyProfiles.js';
import { startBatchWorkerPool } from './batchWorkerPool.js';
import type { MappingOutcome, RecordBatchMapping } from './batchMapping.js';
import { carriedWorkKeys, preparedWithKeys } from './prepareRecordDocument.js';
import { isRecordDeletion } from './recordDeletion.js';

/** A batch as posted: for each document, its keyed fields' values in the profile's order (null for none), as one JSON text. */
export interface ToKeyingWorker {
  readonly batch: number;
  readonly keyProfile: WorkKeyProfileName;
  readonly fields: string;
}

/** The keys of a batch's documents, in order: a list per document, as one JSON text. */
export interface FromKeyingWorker {
  readonly batch: number;
  readonly keys: string;
}

export interface KeyingWorkersOptions {
  /** Worker threads (at least 1). */
  readonly workers: number;
  /** Documents keyed on this thread before the workers are started (default KEYED_HERE_FIRST). */
  readonly keyHereFirst?: number;
}

/** Documents a load keys on its own thread before it starts keying workers: below this, starting them costs more than they save. */
export const KEYED_HERE_FIRST = 10_000;

interface KeyingBatch {
  readonly documents: readonly RecordDocument[];
  readonly keyProfile: WorkKeyProfileName;
}

/** Starts keying; the workers start when the first documents after `keyHereFirst` are handed over. */
export function startKeyingWorkers(options: KeyingWorkersOptions): RecordBatchMapping<unknown> {
  if (!Number.isSafeInteger(options.workers) || options.workers < 1) throw new InvalidOptionError('workers', `give a whole number >= 1, not ${String(options.workers)}`);
  const keyHereFirst = options.keyHereFirst ?? KEYED_HERE_FIRST;
  let handedOver = 0;
  const pool = startBatchWorkerPool<KeyingBatch, string[][]>({
    callerUrl: import.meta.url,
    stem: 'keyingThread',
    workerData: undefined,
    workers: options.workers,
    messageOf: ({ documents, keyProfile }) => {
      const message: Omit<ToKeyingWorker, 'batch'> = { keyProfile, fields: keyedFieldsText(documents, keyProfile) };
      return { message, transfer: [] };
    },
    resultOf: (answer) => JSON.parse((answer as FromKeyingWorker).keys) as string[][],
    here: ({ documents, keyProfile }) => documents.map(WORK_KEY_PROFILES[keyProfile].keysOfDocument),
  });
  return {
    map(records, _positions, keyProfile, clocks) {
      const outcomes: MappingOutcome[] = new Array(records.length);
      const keyed: number[] = [];
      const documents: RecordDocument[] = [];
      const here = handedOver < keyHereFirst;
      handedOver += records.length;
      for (let i = 0; i < records.length; i++) {
        const record = records[i];
        outcomes[i] = { value: record };
        if (here || isRecordDeletion(record)) continue;
        try {
          checkRecordDocument(record);
        } catch {
          // Rejected (or thrown) by the pipeline's own preparing, with its reason, in its turn.
          continue;
        }
        // Checked above: prepared here with the keys it carries, rather than checked again by the pipeline.
        const carried = carriedWorkKeys(record);
        if (carried !== undefined) {
          outcomes[i] = { prepared: preparedWithKeys(record, carried, clocks[i]!) };
          continue;
        }
        keyed.push(i);
        documents.push(record);
      }
      if (documents.length === 0) return Promise.resolve(outcomes);
      return pool.run({ documents, keyProfile }).then((keys) => {
        for (let j = 0; j < keyed.length; j++) {
          const i = keyed[j]!;
          outcomes[i] = { prepared: preparedWithKeys(documents[j]!, keys[j]!, clocks[i]!) };
        }
        return outcomes;
      });
    },
    mapOneHere: () => pool.runOneHere(),
    close: () => pool.close(),
    // Keying a batch takes a few milliseconds: one batch ahead keeps the workers busy, and documents
    // held for more were promoted to V8's old generation, which the load's peak memory grew with.
    batchesAhead: 1,
  };
}

/** The fields the profile reads of each document, as ToKeyingWorker.fields. */
function keyedFieldsText(documents: readonly RecordDocument[], keyProfile: WorkKeyProfileName): string {
  const names = WORK_KEY_PROFILES[keyProfile].keyedFields;
  const rows: unknown[][] = new Array(documents.length);
  for (let i = 0; i < documents.length; i++) {
    const document = documents[i] as unknown as Readonly<Record<string, unknown>>;
    const row: unknown[] = new Array(names.length);
    for (let f = 0; f < names.length; f++) row[f] = document[names[f]!] ?? null;
    rows[i] = row;
  }
  return JSON.stringify(rows);
}

/** The keys of a batch posted to a keying worker (keyingThread.ts), as FromKeyingWorker.keys. */
export function keysOfFieldsText({ keyProfile, fields }: Omit<ToKeyingWorker, 'batch'>): string {
  const profile = WORK_KEY_PROFILES[keyProfile];
  const names = profile.keyedFields;
  const rows = JSON.parse(fields) as unknown[][];
  const keys: string[][] = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const document: Record<string, unknown> = {};
    for (let f = 0; f < names.length; f++) if (row[f] !== null) document[names[f]!] = row[f];
    keys[i] = profile.keysOfDocument(document);
  }
  return JSON.stringify(keys);
}
