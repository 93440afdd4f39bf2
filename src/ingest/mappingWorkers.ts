/**
 * The mapping step of a record file format run in worker threads (mappingWorker.ts), as the pipeline's
 * batch mapping (pipeline.ts, RecordBatchMapping): each batch of records goes to the least busy worker as
 * the records' bytes (the format's `asBytes` reading, recordFormats.ts) packed into one buffer that is
 * transferred, not copied; the worker maps each record with the format's own mapping of bytes and answers
 * the outcomes as one JSON text, which this thread parses (cheaper than cloning the documents as objects).
 * Each worker holds at most two batches; the others wait in a queue, and when the pipeline would wait for
 * a batch it has this thread map a queued one instead (mapOneHere), so no thread idles while records wait.
 * The pipeline keeps the records' order and positions, so every rejection still names its file and record.
 *
 * The documents are the ones the main thread would make: the mapping is the same function, and what it
 * answers is plain JSON (strings, lists, a deletion's id); a rejection comes back as its reason, any other
 * error of the mapping as its name and message (its class does not cross threads), and stops the load.
 *
 * Left to others: when to use workers (src/cli/loadRecords.ts), reading and preparing (the pipeline), the
 * worker's loop (mappingWorker.ts).
 */
import type { Worker } from 'node:worker_threads';
import { InvalidOptionError, InvalidRecordDocumentError } from '../errors.js';
import { startWorkerThread } from '../workerThreadStart.js';
import type { LocalMappingSettings } from './localMapping.js';
import type { MappingOutcome, RecordBatchMapping } from './pipeline.js';
import { recordFormatNamed, type RecordBytesReading } from './recordFormats.js';
import type { RecordPosition } from './sourceRecord.js';
import type { WorkKeyProfileName } from '../work-keys/workKeyProfiles.js';

export interface MappingWorkerData {
  /** The record file format (recordFormats.ts) whose `asBytes.toDocument` maps the records. */
  readonly format: string;
  readonly settings: LocalMappingSettings | undefined;
}

/** A batch as posted: the records' bytes one after another, where each ends, and their positions. */
export interface ToMappingWorker {
  readonly batch: number;
  readonly bytes: ArrayBuffer;
  readonly ends: Int32Array;
  readonly positions: readonly RecordPosition[];
  readonly keyProfile: WorkKeyProfileName;
}

/**
 * The outcomes of a batch as one JSON text of a list, two entries per record: 0 and the mapping's value,
 * 1 and a rejection's reason, or 2 and [name, message] of another error.
 */
export interface FromMappingWorker {
  readonly batch: number;
  readonly outcomes: string;
}

export interface MappingWorkersOptions {
  readonly format: string;
  readonly settings?: LocalMappingSettings;
  /** Worker threads (at least 1). */
  readonly workers: number;
}

/** Batches a worker holds at once (one it maps, one waiting in its port), so that it never waits for this thread. */
const BATCHES_PER_WORKER = 2;

interface QueuedBatch {
  readonly records: readonly Uint8Array[];
  readonly positions: readonly RecordPosition[];
  readonly keyProfile: WorkKeyProfileName;
  resolve(outcomes: MappingOutcome[]): void;
  reject(error: Error): void;
}

/** Starts the workers; they end when the batch mapping is closed, or fail every batch if one dies. */
export function startMappingWorkers(options: MappingWorkersOptions): RecordBatchMapping<Uint8Array> {
  if (!Number.isSafeInteger(options.workers) || options.workers < 1) throw new InvalidOptionError('workers', `give a whole number >= 1, not ${String(options.workers)}`);
  const workerData: MappingWorkerData = { format: options.format, settings: options.settings };
  const mappingHere = bytesMappingOf(options.format);
  /** Batches no worker has taken yet, oldest first: the next free worker takes them, or this thread (mapOneHere). */
  const queue: QueuedBatch[] = [];
  const posted = new Map<number, QueuedBatch>();
  const held = new Map<Worker, number>();
  let failure: Error | undefined;
  let closed = false;
  let nextBatch = 0;
  const fail = (error: Error) => {
    failure ??= error;
    for (const batch of [...posted.values(), ...queue.splice(0)]) batch.reject(failure);
    posted.clear();
  };
  const workers: Worker[] = [];
  /** Posts queued batches to workers holding fewer than BATCHES_PER_WORKER; refs a worker while it holds any. */
  const pump = () => {
    for (const worker of workers) {
      while (queue.length > 0 && held.get(worker)! < BATCHES_PER_WORKER) {
        const queued = queue.shift()!;
        const batch = nextBatch++;
        posted.set(batch, queued);
        held.set(worker, held.get(worker)! + 1);
        worker.ref();
        const { bytes, ends, endsBuffer } = packed(queued.records);
        const message: ToMappingWorker = { batch, bytes, ends, positions: queued.positions, keyProfile: queued.keyProfile };
        worker.postMessage(message, [bytes, endsBuffer]);
      }
    }
  };
  // Started at the first batch: a load that stops before it (refused options, an empty file) starts none.
  const start = () => {
    for (let i = 0; i < options.workers; i++) {
      const worker = startWorkerThread(import.meta.url, 'mappingWorker', { workerData });
      held.set(worker, 0);
      worker.on('message', (message: FromMappingWorker) => {
        const batch = posted.get(message.batch);
        if (batch === undefined) return;
        posted.delete(message.batch);
        held.set(worker, held.get(worker)! - 1);
        // Like the staged load's worker (src/adapters/sqlite/stagedLoadOffThread.ts): it holds the
        // process open only while it holds a batch, so a load abandoned without close does not keep it alive.
        if (held.get(worker) === 0) worker.unref();
        batch.resolve(outcomesOf(message.outcomes));
        pump();
      });
      worker.on('error', (error) => fail(new Error(`a mapping worker failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error })));
      worker.on('exit', () => {
        if (!closed) fail(new Error('a mapping worker stopped before the load ended'));
      });
      worker.unref();
      workers.push(worker);
    }
  };
  return {
    map(records, positions, keyProfile) {
      if (failure !== undefined) return Promise.reject(failure);
      if (closed) return Promise.reject(new Error('the mapping workers are closed'));
      if (workers.length === 0) start();
      return new Promise<MappingOutcome[]>((resolve, reject) => {
        queue.push({ records, positions, keyProfile, resolve, reject });
        pump();
      });
    },
    mapOneHere() {
      // The newest batch: the workers take the oldest next, and the pipeline waits for the oldest first.
      const queued = queue.pop();
      if (queued === undefined) return false;
      queued.resolve(queued.records.map((record, i) => outcomeOf(mappingHere, record, queued.positions[i]!, options.settings, queued.keyProfile)));
      return true;
    },
    async close() {
      if (closed) return;
      closed = true;
      fail(new Error('the mapping workers are closed'));
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}

/** A batch's records one after another in one buffer, and where each ends. */
function packed(records: readonly Uint8Array[]): { bytes: ArrayBuffer; ends: Int32Array; endsBuffer: ArrayBuffer } {
  let size = 0;
  for (const record of records) size += record.byteLength;
  const buffer = new ArrayBuffer(size);
  const bytes = new Uint8Array(buffer);
  const endsBuffer = new ArrayBuffer(records.length * 4);
  const ends = new Int32Array(endsBuffer);
  let at = 0;
  records.forEach((record, i) => {
    bytes.set(record, at);
    at += record.byteLength;
    ends[i] = at;
  });
  return { bytes: buffer, ends, endsBuffer };
}

/** The mapping of bytes of the format named; throws when it has none. */
export function bytesMappingOf(formatName: string): RecordBytesReading {
  const mapping = recordFormatNamed(formatName)?.asBytes;
  if (mapping === undefined) throw new InvalidOptionError('format', `the record format ${JSON.stringify(formatName)} has no mapping of bytes (recordFormats.ts, asBytes)`);
  return mapping;
}

/** What the mapping answers for one record's bytes, here or in a worker. */
export function outcomeOf(
  mapping: RecordBytesReading, bytes: Uint8Array, position: RecordPosition, settings: LocalMappingSettings | undefined, keyProfile: WorkKeyProfileName,
): MappingOutcome {
  try {
    return { value: mapping.toDocument(bytes, position, settings, keyProfile) };
  } catch (error) {
    if (error instanceof InvalidRecordDocumentError) return { rejected: error.reason };
    return { failed: error instanceof Error ? error : new Error(String(error)) };
  }
}

/** The outcomes of a batch from the worker's JSON text (FromMappingWorker). */
function outcomesOf(text: string): MappingOutcome[] {
  const flat = JSON.parse(text) as unknown[];
  const outcomes: MappingOutcome[] = new Array(flat.length / 2);
  for (let i = 0; i < flat.length; i += 2) {
    const kind = flat[i];
    const value = flat[i + 1];
    if (kind === 0) outcomes[i / 2] = { value };
    else if (kind === 1) outcomes[i / 2] = { rejected: value as string };
    else {
      const [name, message] = value as [string, string];
      const error = new Error(message);
      error.name = name;
      outcomes[i / 2] = { failed: error };
    }
  }
  return outcomes;
}
