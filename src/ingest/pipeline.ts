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
import type { RecordDocument } from '../record/catalogRecord.js';
import { contentFingerprintOf } from '../record/recordContent.js';
import { InvalidRecordDocumentError, VersionsError } from '../errors.js';
import { prepareRecordDocument } from './prepareRecordDocument.js';
import type { RecordPosition, SourceItem } from './sourceRecord.js';

/** What a writer holds for a record: the fingerprint of its content and its `last_indexed`. */
export interface StoredContent {
  readonly fingerprint: string;
  readonly lastIndexed: string;
}

/** A document of a batch the engine refused, by its place in the batch. */
export interface WriteRefusal {
  readonly index: number;
  readonly reason: string;
}

/** Where documents go: the embedded index, a Solr core. */
export interface IngestWriter {
  /** For messages: `embedded index catalog.sqlite`, `Solr core http://…/solr/biblio`. */
  readonly description: string;
  /** Documents per `put` this writer takes best, used when the load names no batch size. */
  readonly preferredBatchSize?: number;
  /** For the ids it holds: the stored content's fingerprint and `last_indexed`. */
  storedContentOf(ids: readonly string[]): Promise<ReadonlyMap<string, StoredContent>>;
  /** Adds or replaces (by id) prepared documents; answers the ones the engine refused. */
  put(batch: readonly RecordDocument[]): Promise<readonly WriteRefusal[]>;
  /** Removes these records (a harvested deletion); an id the index does not hold is no error. */
  delete(ids: readonly string[]): Promise<void>;
  /** Makes everything written durable and visible. Called once, also after a failure. */
  close(): Promise<void>;
}

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
export class IngestStoppedError extends VersionsError {
  readonly summary: IngestSummary;
  constructor(cause: unknown, summary: IngestSummary) {
    super('INGEST_STOPPED', cause instanceof Error ? cause.message : String(cause), { cause });
    this.summary = summary;
  }
}

interface Pending {
  readonly document: RecordDocument;
  readonly position: RecordPosition;
  /** `last_indexed` came from the clock, so a stored one may be kept. */
  readonly stamped: boolean;
}

/**
 * Runs a load to the end. Throws IngestStoppedError when the source or the writer fails, and rethrows
 * what onRejected throws; the writer is closed in every case.
 */
export async function runIngest<T>(options: IngestOptions<T>): Promise<IngestSummary> {
  const { writer, toDocument, now } = options;
  const batchSize = options.batchSize ?? writer.preferredBatchSize ?? DEFAULT_BATCH_SIZE;
  if (!Number.isSafeInteger(batchSize) || batchSize < 1) throw new RangeError(`batchSize must be a whole number >= 1, not ${batchSize}`);
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

/** What onRejected threw, carried out of the loop so that the records before it are written first. */
class StopRequested {
  constructor(readonly reason: unknown) {}
}
