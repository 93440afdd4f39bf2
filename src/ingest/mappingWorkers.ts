/**
 * The mapping step of a record file format run in worker threads (mappingWorker.ts), as the pipeline's
 * batch mapping (pipeline.ts, RecordBatchMapping): each batch of records goes to the least busy worker as
 * the records' bytes (the format's `asBytes` reading, recordFormats.ts) packed into one buffer that is
 * transferred, not copied; the worker maps each record with the format's own mapping of bytes and answers
 * the outcomes as one JSON text, which this thread parses (cheaper than cloning the documents as objects).
 * One batch in workers + 1 is mapped on this thread instead, which would otherwise wait for the workers.
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

/** Starts the workers; they end when the batch mapping is closed, or fail every batch if one dies. */
export function startMappingWorkers(options: MappingWorkersOptions): RecordBatchMapping<Uint8Array> {
  if (!Number.isSafeInteger(options.workers) || options.workers < 1) throw new InvalidOptionError('workers', `give a whole number >= 1, not ${String(options.workers)}`);
  const workerData: MappingWorkerData = { format: options.format, settings: options.settings };
  const waiting = new Map<number, { resolve(outcomes: MappingOutcome[]): void; reject(error: Error): void; worker: Worker }>();
  const busy = new Map<Worker, number>();
  let failure: Error | undefined;
  let closed = false;
  const fail = (error: Error) => {
    failure ??= error;
    for (const [batch, pending] of waiting) {
      waiting.delete(batch);
      pending.reject(failure);
    }
  };
  const workers: Worker[] = [];
  // Started at the first batch: a load that stops before it (refused options, an empty file) starts none.
  const start = () => {
    for (let i = 0; i < options.workers; i++) {
      const worker = startWorkerThread(import.meta.url, 'mappingWorker', { workerData });
      busy.set(worker, 0);
      worker.on('message', (message: FromMappingWorker) => {
        const pending = waiting.get(message.batch);
        if (pending === undefined) return;
        waiting.delete(message.batch);
        busy.set(worker, busy.get(worker)! - 1);
        if (waiting.size === 0) for (const each of workers) each.unref();
        pending.resolve(outcomesOf(message.outcomes));
      });
      worker.on('error', (error) => fail(new Error(`a mapping worker failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error })));
      worker.on('exit', () => {
        if (!closed) fail(new Error('a mapping worker stopped before the load ended'));
      });
      // Like the staged load's worker (src/adapters/sqlite/stagedLoadOffThread.ts): held only while a batch
      // is waited for, so a load abandoned without close does not keep the process alive.
      worker.unref();
      workers.push(worker);
    }
  };
  const mappingHere = bytesMappingOf(options.format);
  let nextBatch = 0;
  return {
    map(records, positions, keyProfile) {
      if (failure !== undefined) return Promise.reject(failure);
      if (closed) return Promise.reject(new Error('the mapping workers are closed'));
      // This thread maps one batch in workers + 1 itself: it would wait for the workers otherwise, since
      // reading and writing take it less time than mapping takes them (docs/benchmarks.md).
      if (nextBatch++ % (options.workers + 1) === options.workers) {
        return Promise.resolve(records.map((record, i) => outcomeOf(mappingHere, record, positions[i]!, options.settings, keyProfile)));
      }
      if (workers.length === 0) start();
      let size = 0;
      for (const record of records) size += record.byteLength;
      const bytes = new Uint8Array(size);
      const ends = new Int32Array(records.length);
      let at = 0;
      records.forEach((record, i) => {
        bytes.set(record, at);
        at += record.byteLength;
        ends[i] = at;
      });
      let worker = workers[0]!;
      for (const candidate of workers) if (busy.get(candidate)! < busy.get(worker)!) worker = candidate;
      const batch = nextBatch;
      busy.set(worker, busy.get(worker)! + 1);
      worker.ref();
      return new Promise<MappingOutcome[]>((resolve, reject) => {
        waiting.set(batch, { resolve, reject, worker });
        const message: ToMappingWorker = { batch, bytes: bytes.buffer, ends, positions, keyProfile };
        worker.postMessage(message, [bytes.buffer, ends.buffer]);
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      fail(new Error('the mapping workers are closed'));
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
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
