/**
 * The mapping step of a record file format run in worker threads (mappingThread.ts), as the pipeline's
 * batch mapping (batchMapping.ts, RecordBatchMapping): each batch of records goes to the least busy worker as
 * the records' bytes (the format's `asBytes` reading, recordFormats.ts) packed into one buffer that is
 * transferred, not copied; the worker maps each record with the format's own mapping of bytes, prepares
 * each document as the pipeline would (prepareRecordDocument: checked, keyed under the load's profile,
 * stamped with the clock the pipeline gave for its position), so that this costly part runs on every
 * core, and answers the outcomes as JSON texts, UTF-8 in one buffer that is transferred, which this
 * thread decodes and parses one record at a time when the pipeline takes it. Cheaper than cloning the
 * documents as objects; and the batches waiting their turn hold no strings or objects of V8's heap here:
 * as one JSON text per batch (a megabyte or more, placed straight in V8's old generation) or as a string
 * per record (kept long enough to be moved there), they made garbage the heap grew with, batch after
 * batch, over the whole of a large load (docs/benchmarks.md).
 * The batches go round the workers as batchWorkerPool.ts hands them out (this thread maps a waiting one
 * when the pipeline would otherwise wait: mapOneHere).
 * The pipeline keeps the records' order and positions, so every rejection still names its file and record.
 *
 * The documents are the ones the main thread would make: the mapping is the same function, and what it
 * answers is plain JSON (strings, lists, a deletion's id); a rejection comes back as its reason, any other
 * error of the mapping as its name and message (its class does not cross threads), and stops the load.
 *
 * Left to others: when to use workers (src/cli/loadRecords.ts), reading and preparing (the pipeline), the
 * worker's loop (mappingThread.ts), the outcomes' texts both ways (mappingOutcomeTexts.ts).
 */
import { InvalidOptionError, InvalidRecordDocumentError } from '../errors.js';
import { startBatchWorkerPool } from './batchWorkerPool.js';
import type { LocalMappingSettings } from './localMapping.js';
import type { MappingOutcome, RecordBatchMapping } from './batchMapping.js';
import { prepareMappedDocument } from './prepareRecordDocument.js';
import { isRecordDeletion } from './recordDeletion.js';
import { recordFormatNamed, type RecordBytesReading } from './recordFormats.js';
import type { RecordPosition } from '../record/sourceRecord.js';
import type { WorkKeyProfileName } from '../work-keys/workKeyProfiles.js';
import { outcomesOf, type FromMappingWorker } from './mappingOutcomeTexts.js';

export interface MappingWorkerData {
  /** The record file format (recordFormats.ts) whose `asBytes.toDocument` maps the records. */
  readonly format: string;
  readonly settings: LocalMappingSettings | undefined;
}

/**
 * A batch as posted: the records' bytes one after another, where each ends, their positions and their
 * clocks. Positions and clocks go as texts named once and numbers in typed arrays (PackedPositions,
 * PackedClocks): a thousand position objects cost more to clone, and far more to read back in the worker,
 * than mapping a tenth of their records.
 */
export interface ToMappingWorker {
  readonly batch: number;
  readonly bytes: ArrayBuffer;
  readonly ends: Int32Array;
  readonly positions: PackedPositions;
  readonly keyProfile: WorkKeyProfileName;
  readonly clocks: PackedClocks;
}

/** A batch's positions (src/record/sourceRecord.ts, RecordPosition), field by field. */
export interface PackedPositions {
  /** The batch's sources, each once. */
  readonly sources: readonly string[];
  /** For each record, its source's place in `sources`. */
  readonly sourceIndexes: Int32Array;
  readonly recordNumbers: Float64Array;
  /** For each record, its line, NaN when it has none. */
  readonly lines: Float64Array;
  readonly ids: ReadonlyArray<string | undefined>;
}

/** A batch's clocks (pipeline.ts, `now`) as ISO instants, each once, and for each record its clock's place. */
export interface PackedClocks {
  readonly instants: readonly string[];
  readonly indexes: Int32Array;
}

export interface MappingWorkersOptions {
  readonly format: string;
  readonly settings?: LocalMappingSettings;
  /** Worker threads (at least 1). */
  readonly workers: number;
}

interface QueuedBatch {
  readonly records: readonly Uint8Array[];
  readonly positions: readonly RecordPosition[];
  readonly keyProfile: WorkKeyProfileName;
  readonly clocks: readonly Date[];
}

/** Starts the workers; they end when the batch mapping is closed, or fail every batch if one dies. */
export function startMappingWorkers(options: MappingWorkersOptions): RecordBatchMapping<Uint8Array> {
  if (!Number.isSafeInteger(options.workers) || options.workers < 1) throw new InvalidOptionError('workers', `give a whole number >= 1, not ${String(options.workers)}`);
  const workerData: MappingWorkerData = { format: options.format, settings: options.settings };
  const mappingHere = bytesMappingOf(options.format);
  const pool = startBatchWorkerPool<QueuedBatch, MappingOutcome[]>({
    callerUrl: import.meta.url,
    stem: 'mappingThread',
    workerData,
    workers: options.workers,
    messageOf: (queued) => {
      const { bytes, ends, endsBuffer } = packed(queued.records);
      const positions = packedPositions(queued.positions);
      const clocks = packedClocks(queued.clocks);
      const message: Omit<ToMappingWorker, 'batch'> = { bytes, ends, positions, keyProfile: queued.keyProfile, clocks };
      return {
        message,
        transfer: [bytes, endsBuffer, positions.sourceIndexes.buffer as ArrayBuffer, positions.recordNumbers.buffer as ArrayBuffer, positions.lines.buffer as ArrayBuffer, clocks.indexes.buffer as ArrayBuffer],
      };
    },
    resultOf: (answer) => outcomesOf(answer as FromMappingWorker),
    here: (queued) => queued.records.map((record, i) => outcomeOf(mappingHere, record, queued.positions[i]!, options.settings, queued.keyProfile, queued.clocks[i]!)),
  });
  return {
    map: (records, positions, keyProfile, clocks) => pool.run({ records, positions, keyProfile, clocks }),
    mapOneHere: () => pool.runOneHere(),
    close: () => pool.close(),
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

/** A batch's positions as PackedPositions. */
export function packedPositions(positions: readonly RecordPosition[]): PackedPositions {
  const sources: string[] = [];
  const sourceIndexes = new Int32Array(positions.length);
  const recordNumbers = new Float64Array(positions.length);
  const lines = new Float64Array(positions.length);
  const ids: Array<string | undefined> = new Array(positions.length);
  let source: string | undefined;
  let sourceIndex = -1;
  positions.forEach((position, i) => {
    if (position.source !== source) {
      source = position.source;
      sourceIndex = sources.indexOf(source);
      if (sourceIndex < 0) sourceIndex = sources.push(source) - 1;
    }
    sourceIndexes[i] = sourceIndex;
    recordNumbers[i] = position.recordNumber;
    lines[i] = position.line ?? Number.NaN;
    ids[i] = position.id;
  });
  return { sources, sourceIndexes, recordNumbers, lines, ids };
}

/** The position of record `i` of PackedPositions, with the fields it was given. */
export function unpackedPosition({ sources, sourceIndexes, recordNumbers, lines, ids }: PackedPositions, i: number): RecordPosition {
  const line = lines[i]!;
  const id = ids[i];
  const position: { source: string; recordNumber: number; line?: number; id?: string } = { source: sources[sourceIndexes[i]!]!, recordNumber: recordNumbers[i]! };
  if (!Number.isNaN(line)) position.line = line;
  if (id !== undefined) position.id = id;
  return position;
}

/** The clocks of a batch as PackedClocks; a load's records mostly share one clock, made into text once. */
function packedClocks(clocks: readonly Date[]): PackedClocks {
  const instants: string[] = [];
  const indexes = new Int32Array(clocks.length);
  let last: Date | undefined;
  let lastTime = Number.NaN;
  clocks.forEach((clock, i) => {
    if (clock !== last || clock.getTime() !== lastTime) {
      last = clock;
      lastTime = clock.getTime();
      instants.push(clock.toISOString());
    }
    indexes[i] = instants.length - 1;
  });
  return { instants, indexes };
}

/**
 * What the mapping answers for one record's bytes, here or in a worker: a deletion as the mapping gave
 * it, a document prepared as the pipeline prepares it (pipeline.ts, `take`).
 */
export function outcomeOf(
  mapping: RecordBytesReading, bytes: Uint8Array, position: RecordPosition, settings: LocalMappingSettings | undefined, keyProfile: WorkKeyProfileName, now: Date,
): MappingOutcome {
  try {
    const mapped = mapping.toDocument(bytes, position, settings, keyProfile);
    if (isRecordDeletion(mapped)) return { value: mapped };
    return { prepared: prepareMappedDocument(mapped, now, keyProfile) };
  } catch (error) {
    if (error instanceof InvalidRecordDocumentError) return { rejected: error.reason };
    return { failed: error instanceof Error ? error : new Error(String(error)) };
  }
}
