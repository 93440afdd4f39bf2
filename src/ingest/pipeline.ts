/**
 * The one ingest pipeline, on traject's model: a reader yields source records with their positions, one
 * mapping step turns each into a record document, the document is prepared once (checked, work keys
 * computed when absent, `last_indexed` set), and a writer `put`s batches and is `close`d at the end.
 * Every load goes through here: `catalog-versions load` and `harvest`, `EmbeddedIndex.load()`, the demo.
 *
 * It also applies the rule that a record loaded again with unchanged content keeps its stored
 * `last_indexed` (recordContent.ts says what unchanged means), by asking the writer what it holds for the
 * batch's ids, so both backends answer alike.
 *
 * Nothing is lost silently: every record that is not written (unreadable, not mappable, not a valid
 * document, refused by the engine) is reported with its position and counted. A failure of the source or
 * of the engine stops the load; the writer is closed either way, so what was written is whole records.
 *
 * Left to others: reading formats (readers/, marc/, oai/), mapping (marc/vufindMarcMapping.ts,
 * oai/dublinCoreMapping.ts), storage (the adapters' writers).
 */
import { contentFingerprintOf } from '../record/recordContent.js';
import { InvalidOptionError, InvalidRecordDocumentError } from '../errors.js';
import { prepareRecordDocument, type PreparedRecordDocument } from './prepareRecordDocument.js';
import type { RecordPosition, SourceItem } from './sourceRecord.js';
import type { IngestWriter, StoredContent } from '../ports.js';

export type { IngestWriter, StoredContent, WriteRefusal } from '../ports.js';

/** A record that was not written, and why. */
export interface IngestRejection {
  readonly position: RecordPosition;
  readonly reason: string;
}

export interface IngestProgress {
  /** Source items taken from the reader so far (records, problems, deletions). */
  readonly read: number;
  readonly loaded: number;
  readonly rejected: number;
  readonly deleted: number;
  /** Position of the last item read. */
  readonly position: RecordPosition | undefined;
}

export interface IngestSummary {
  readonly read: number;
  readonly loaded: number;
  readonly rejected: number;
  readonly deleted: number;
  readonly seconds: number;
}

export interface IngestOptions<T> {
  readonly items: AsyncIterable<SourceItem<T>> | Iterable<SourceItem<T>>;
  /** The mapping step: a source record to a record document (throws InvalidRecordDocumentError to reject). */
  readonly toDocument: (record: T, position: RecordPosition) => unknown;
  readonly writer: IngestWriter;
  /** The clock for documents without `last_indexed`. */
  readonly now: () => Date;
  /** Documents per put (default: the writer's preferredBatchSize, else DEFAULT_BATCH_SIZE). */
  readonly batchSize?: number;
  /** Called for each record not written. If it throws, the load writes what came before and stops with that error. */
  readonly onRejected?: (rejection: IngestRejection) => void;
  /** Called after each written batch, and at the end. */
  readonly onProgress?: (progress: IngestProgress) => void;
}

export const DEFAULT_BATCH_SIZE = 1000;

/** A load that stopped on a fault of the source or the index; `summary` says how far it got. */
export class IngestStoppedError extends Error {
  readonly summary: IngestSummary;
  constructor(cause: unknown, summary: IngestSummary) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'IngestStoppedError';
    this.summary = summary;
  }
}

interface Pending {
  readonly document: PreparedRecordDocument;
  readonly position: RecordPosition;
  /** `last_indexed` came from the clock, so a stored one may be kept. */
  readonly stamped: boolean;
}

/**
 * Runs a load to the end. Throws IngestStoppedError when the source or the writer fails, and rethrows
 * what onRejected throws; the writer is closed in every case.
 */
export async function runIngest<T>(options: IngestOptions<T>): Promise<IngestSummary> {
  checkIngestOptions(options);
  const { writer, toDocument, now } = options;
  const batchSize = options.batchSize ?? writer.preferredBatchSize ?? DEFAULT_BATCH_SIZE;
  if (!Number.isSafeInteger(batchSize) || batchSize < 1) throw new InvalidOptionError('batchSize', `give a whole number >= 1, not ${String(batchSize)}`);
  const started = performance.now();
  let read = 0;
  let loaded = 0;
  let rejected = 0;
  let deleted = 0;
  let position: RecordPosition | undefined;
  let batch: Pending[] = [];
  let deletions: string[] = [];
  const summary = (): IngestSummary => ({ read, loaded, rejected, deleted, seconds: (performance.now() - started) / 1000 });
  const progress = () => options.onProgress?.({ read, loaded, rejected, deleted, position });
  const reject = (at: RecordPosition, reason: string) => {
    rejected += 1;
    try {
      options.onRejected?.({ position: at, reason });
    } catch (error) {
      throw new StopRequested(error);
    }
  };

  const flushDeletions = async () => {
    if (deletions.length === 0) return;
    await writer.delete(deletions);
    deleted += deletions.length;
    deletions = [];
  };

  const flushDocuments = async () => {
    if (batch.length === 0) return;
    const pending = batch;
    batch = [];
    const stampedIds = pending.filter((p) => p.stamped).map((p) => p.document.id);
    const stored = stampedIds.length > 0 ? await writer.storedContentOf(stampedIds) : new Map<string, StoredContent>();
    const documents = pending.map(({ document, stamped }) => {
      const before = stamped ? stored.get(document.id) : undefined;
      return before !== undefined && before.fingerprint === contentFingerprintOf(document)
        ? { ...document, last_indexed: before.lastIndexed }
        : document;
    });
    const refused = await writer.put(documents);
    const reasons = new Map(refused.map((refusal) => [refusal.index, refusal.reason]));
    loaded += pending.length - reasons.size;
    progress();
    pending.forEach((p, i) => {
      const reason = reasons.get(i);
      if (reason !== undefined) reject(p.position, reason);
    });
  };

  let failure: unknown;
  let stop: StopRequested | undefined;
  try {
    try {
      for await (const item of options.items as AsyncIterable<SourceItem<T>>) {
        read += 1;
        position = item.position;
        if (item.kind === 'problem') {
          reject(item.position, item.reason);
        } else if (item.kind === 'deleted') {
          await flushDocuments();
          deletions.push(item.id);
          if (deletions.length >= batchSize) await flushDeletions();
        } else {
          let prepared: ReturnType<typeof prepareRecordDocument>;
          try {
            prepared = prepareRecordDocument(toDocument(item.record, item.position), now());
          } catch (error) {
            if (!(error instanceof InvalidRecordDocumentError)) throw error;
            reject(item.position, error.reason);
            continue;
          }
          await flushDeletions();
          batch.push({ document: prepared.document, position: item.position, stamped: prepared.lastIndexedFromClock });
          if (batch.length >= batchSize) await flushDocuments();
        }
      }
    } catch (error) {
      if (!(error instanceof StopRequested)) throw error;
      // onRejected asked to stop: what came before the rejected record is still written.
      stop = error;
    }
    await flushDocuments();
    await flushDeletions();
  } catch (error) {
    failure = error instanceof StopRequested ? error.reason : error;
  }
  try {
    await writer.close();
  } catch (error) {
    failure ??= error;
  }
  if (failure !== undefined) throw new IngestStoppedError(failure, summary());
  if (stop !== undefined) throw stop.reason;
  progress();
  return summary();
}

/**
 * Refuses options a load cannot run with, naming the option, before anything is read or written (the
 * writer is not closed: it was never used).
 */
function checkIngestOptions(options: unknown): asserts options is IngestOptions<unknown> {
  if (typeof options !== 'object' || options === null) throw new InvalidOptionError('options', 'give runIngest an object: { items, toDocument, writer, now }');
  const given = options as Record<string, unknown>;
  const items = given.items as Partial<Record<symbol, unknown>> | null | undefined;
  if (typeof items !== 'object' || items === null || (typeof items[Symbol.iterator] !== 'function' && typeof items[Symbol.asyncIterator] !== 'function')) {
    throw new InvalidOptionError('items', 'give an iterable or async iterable of source items (a reader)');
  }
  for (const name of ['toDocument', 'now'] as const) {
    if (typeof given[name] !== 'function') throw new InvalidOptionError(name, name === 'now' ? 'give a clock: a function answering a Date' : 'give a function');
  }
  for (const name of ['onRejected', 'onProgress'] as const) {
    if (given[name] !== undefined && typeof given[name] !== 'function') throw new InvalidOptionError(name, 'give a function');
  }
  const writer = given.writer as Record<string, unknown> | null | undefined;
  const missing = typeof writer !== 'object' || writer === null ? ['put'] : WRITER_METHODS.filter((method) => typeof writer[method] !== 'function');
  if (missing.length > 0) throw new InvalidOptionError('writer', `give an IngestWriter (src/ports.ts); it has no ${missing.join(', ')}`);
}
const WRITER_METHODS = ['storedContentOf', 'put', 'delete', 'close'] as const;

/** What onRejected threw, carried out of the loop so that the records before it are written first. */
class StopRequested {
  constructor(readonly reason: unknown) {}
}
