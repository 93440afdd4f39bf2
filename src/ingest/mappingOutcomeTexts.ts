/**
 * How a batch's outcomes cross back from a mapping thread (mappingThread.ts) to the pool (mappingPool.ts):
 * the thread writes each outcome as a kind and a text, UTF-8 one after another in one buffer that is
 * transferred (OutcomeTexts, outcomeText), with, for a prepared document, the runs of its JSON text that
 * hold its stored fields (storedFieldRuns); the pool reads them back (outcomesOf), a prepared document
 * parsed only when the pipeline takes it (PreparedText) and given its stored fields' JSON cut from the same
 * text (src/record/storedFieldsJson.ts), so a writer storing it does not write it again.
 *
 * Left to others: what is posted to the thread and the pool's turns (mappingPool.ts), the mapping itself
 * (mappingThread.ts, recordFormats.ts).
 */
import type { MappingOutcome } from './batchMapping.js';
import type { PreparedDocument, PreparedRecordDocument } from './prepareRecordDocument.js';
import { rememberStoredFieldsJson } from '../record/storedFieldsJson.js';
import { DOCUMENT_COLUMN_FIELD_NAMES } from '../record/recordFields.js';

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

/**
 * The outcomes of a batch from the worker's texts (FromMappingWorker). A prepared document is parsed when
 * the pipeline reads it (PreparedText), so that batches waiting their turn hold one short string per
 * record rather than its objects.
 */
export function outcomesOf({ kinds, texts, ends, runCounts, runs }: FromMappingWorker): MappingOutcome[] {
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
