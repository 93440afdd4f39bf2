/**
 * The mapping step of a record file format run in worker threads (mappingThread.ts), as the pipeline's
 * batch mapping (pipeline.ts, RecordBatchMapping): each batch of records goes to the least busy worker as
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
 * worker's loop (mappingThread.ts).
 */
import { InvalidOptionError, InvalidRecordDocumentError } from '../errors.js';
import { startBatchWorkerPool } from './batchWorkerPool.js';
import type { LocalMappingSettings } from './localMapping.js';
import type { MappingOutcome, RecordBatchMapping } from './pipeline.js';
import { prepareMappedDocument, type PreparedDocument, type PreparedRecordDocument } from './prepareRecordDocument.js';
import { rememberStoredFieldsJson } from '../record/storedFieldsJson.js';
import { isRecordDeletion } from './recordDeletion.js';
import { recordFormatNamed, type RecordBytesReading } from './recordFormats.js';
import type { RecordPosition } from './sourceRecord.js';
import type { WorkKeyProfileName } from '../work-keys/workKeyProfiles.js';
import { DOCUMENT_COLUMN_FIELD_NAMES } from '../record/recordFields.js';

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

/** A batch's positions (sourceRecord.ts, RecordPosition), field by field. */
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

/** What an outcome's text (FromMappingWorker) holds. */
export enum OutcomeKind {
  /** The mapping's value as JSON (a deletion). */
  Value = 0,
  /** A rejection's reason, as it is. */
  Rejected = 1,
  /** Another error, [name, message] as JSON. */
  Failed = 2,
  /** The prepared document as JSON, stamped with the clock. */
  PreparedFromClock = 3,
  /** The prepared document as JSON, with its own last_indexed. */
  Prepared = 4,
}

/** The outcomes of a batch, in the records' order: each one's kind, and its text as UTF-8 up to its end. */
export interface FromMappingWorker {
  readonly batch: number;
  readonly kinds: Uint8Array;
  readonly texts: Uint8Array;
  readonly ends: Int32Array;
  /**
   * For each record, how many runs of its text (StoredFieldRuns) hold its stored fields, or -1 when
   * they are not known (not a prepared document, or its stored fields out of their order).
   */
  readonly runCounts: Int32Array;
  /** The runs of the records one after another: the start and end of each in its record's text. */
  readonly runs: Int32Array;
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

/**
 * The outcomes of a batch from the worker's texts (FromMappingWorker). A prepared document is parsed when
 * the pipeline reads it (PreparedText), so that batches waiting their turn hold one short string per
 * record rather than its objects.
 */
function outcomesOf({ kinds, texts, ends, runCounts, runs }: FromMappingWorker): MappingOutcome[] {
  const outcomes: MappingOutcome[] = new Array(kinds.length);
  let start = 0;
  let runsAt = 0;
  for (let i = 0; i < kinds.length; i++) {
    const kind = kinds[i] as OutcomeKind;
    const bytes = texts.subarray(start, ends[i]);
    start = ends[i]!;
    const runCount = runCounts[i]!;
    const ownRuns = runCount < 0 ? undefined : runs.subarray(runsAt, runsAt + 2 * runCount);
    if (runCount > 0) runsAt += 2 * runCount;
    if (kind === OutcomeKind.PreparedFromClock || kind === OutcomeKind.Prepared) {
      outcomes[i] = new PreparedText(bytes, kind === OutcomeKind.PreparedFromClock, ownRuns);
      continue;
    }
    const text = utf8.decode(bytes);
    if (kind === OutcomeKind.Value) outcomes[i] = { value: JSON.parse(text) as unknown };
    else if (kind === OutcomeKind.Rejected) outcomes[i] = { rejected: text };
    else {
      const [name, message] = JSON.parse(text) as [string, string];
      const error = new Error(message);
      error.name = name;
      outcomes[i] = { failed: error };
    }
  }
  return outcomes;
}

const utf8 = new TextDecoder();

/**
 * A prepared outcome as the worker's JSON text, decoded and parsed on reading (the pipeline reads it once).
 * With the runs of the text that hold its stored fields, the document is given the JSON of those fields
 * (src/record/storedFieldsJson.ts) cut from the same text, so that a writer storing
 * it does not write it again.
 */
class PreparedText {
  constructor(private readonly bytes: Uint8Array, private readonly fromClock: boolean, private readonly runs: Int32Array | undefined) {}

  get prepared(): PreparedDocument {
    const text = utf8.decode(this.bytes);
    const document = JSON.parse(text) as PreparedRecordDocument;
    if (this.runs !== undefined) rememberStoredFieldsJson(document, storedFieldsJsonFrom(text, this.runs));
    return { document, lastIndexedFromClock: this.fromClock };
  }
}

/** The stored fields' JSON object from the runs of a document's JSON text that hold them (StoredFieldRuns). */
export function storedFieldsJsonFrom(text: string, runs: Int32Array): string {
  if (runs.length === 0) return '{}';
  let json = `{${text.slice(runs[0], runs[1])}`;
  for (let i = 2; i < runs.length; i += 2) json += `,${text.slice(runs[i], runs[i + 1])}`;
  return `${json}}`;
}

/** Each stored field's place in the order of the stored fields (recordFields.ts, DOCUMENT_COLUMN_FIELD_NAMES). */
const STORED_FIELD_ORDER: ReadonlyMap<string, number> = new Map(DOCUMENT_COLUMN_FIELD_NAMES.map((name, i) => [name, i]));
/** `"name":` of each field name met, as JSON.stringify writes a member's start. */
const memberStarts = new Map<string, string>();

/**
 * Where a prepared document's stored fields lie in its JSON text (`JSON.stringify(document)`), for the
 * main thread to cut their JSON object out of the text instead of writing it again: runs of whole
 * members, each as its start and end in the text, appended to `runs`. Joined with commas between braces
 * they are the object that writing the stored fields in their order, each value as JSON.stringify writes
 * it, gives (the embedded index's `document` column) — when the document holds those fields in that
 * order, as the MARC mapping makes them; other fields may lie between them (a name's roles). Answers how
 * many runs, or -1 when the stored fields are out of that order (then `runs` is as it was).
 *
 * A member's start `"name":` is found by searching the text: a flat document's text holds a quote that
 * is not escaped only around its keys and its strings, and a string is followed by a comma, a bracket or
 * a brace, never by a colon, so that `"name":` is a key wherever it is found.
 */
export function storedFieldRuns(document: PreparedRecordDocument, text: string, runs: number[]): number {
  const before = runs.length;
  let from = 0;
  let lastOrder = -1;
  let runStart = -1;
  let count = 0;
  for (const name of Object.keys(document)) {
    if ((document as Record<string, unknown>)[name] === undefined) continue;
    const order = STORED_FIELD_ORDER.get(name);
    if (order !== undefined && order <= lastOrder) {
      runs.length = before;
      return -1;
    }
    // Only where a run starts or ends is a member's place needed.
    if ((order === undefined) === (runStart < 0)) {
      if (order !== undefined) lastOrder = order;
      continue;
    }
    let member = memberStarts.get(name);
    if (member === undefined) {
      member = `${JSON.stringify(name)}:`;
      if (memberStarts.size < 256) memberStarts.set(name, member);
    }
    const start = text.indexOf(member, from);
    if (start < 0) {
      runs.length = before;
      return -1;
    }
    from = start + member.length;
    if (order === undefined) {
      // The run ends before the comma that opens this member.
      runs.push(runStart, start - 1);
      count += 1;
      runStart = -1;
    } else {
      lastOrder = order;
      runStart = start;
    }
  }
  if (runStart >= 0) {
    // The last member ends before the closing brace.
    runs.push(runStart, text.length - 1);
    count += 1;
  }
  return count;
}

/** Outcomes' texts written one after another as UTF-8 (the worker's side of FromMappingWorker). */
export class OutcomeTexts {
  private buffer = new Uint8Array(1 << 20);
  private length = 0;
  private readonly encoder = new TextEncoder();

  /** Appends a text; answers where it ends. */
  add(text: string): number {
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    if (this.length + text.length * 3 > this.buffer.length) {
      const larger = new Uint8Array(Math.max(this.buffer.length * 2, this.length + text.length * 3));
      larger.set(this.buffer.subarray(0, this.length));
      this.buffer = larger;
    }
    this.length += this.encoder.encodeInto(text, this.buffer.subarray(this.length)).written;
    return this.length;
  }

  /** The texts so far, in a buffer of their own (to transfer); starts again empty. */
  take(): Uint8Array {
    const texts = this.buffer.slice(0, this.length);
    this.length = 0;
    return texts;
  }
}

/** An outcome as the worker posts it (FromMappingWorker): its kind and its text. */
export function outcomeText(outcome: MappingOutcome): [OutcomeKind, string] {
  if ('prepared' in outcome) return [outcome.prepared.lastIndexedFromClock ? OutcomeKind.PreparedFromClock : OutcomeKind.Prepared, JSON.stringify(outcome.prepared.document)];
  if ('value' in outcome) return [OutcomeKind.Value, JSON.stringify(outcome.value)];
  if ('rejected' in outcome) return [OutcomeKind.Rejected, outcome.rejected];
  return [OutcomeKind.Failed, JSON.stringify([outcome.failed.name, outcome.failed.message])];
}
