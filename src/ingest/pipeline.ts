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
 * document, refused by the engine) is reported with its position and counted. The summary keeps apart
 * what a load did to the index: records new to it, changed, unchanged (same content as stored), a record
 * whose id came earlier in the same run (a duplicate: the last one wins, and each is reported), and
 * deletions, split into the ids the index held and those it did not. A deletion is a harvested one or a
 * record the mapping step answers as withdrawn (recordDeletion.ts). A failure of the source or
 * of the engine stops the load; the writer is closed either way, so what was written is whole records.
 *
 * Left to others: reading formats (readers/, marc/, oai/), mapping (marc/vufindMarcMapping.ts,
 * oai/dublinCoreMapping.ts), the mapping step run on batches elsewhere and read ahead (batchMapping.ts),
 * storage (the adapters' writers). It stays a little over 300 lines: runIngest's steps share the run's
 * counts and summary, and reading them in one place is what makes "nothing is lost" checkable.
 */
import { contentFingerprintOf } from '../record/recordContent.js';
import { IngestStoppedError, InvalidOptionError, InvalidRecordDocumentError, type IngestCounts, type IngestSummary } from '../errors.js';
import { prepareRecordDocument, type PreparedDocument, type PreparedRecordDocument } from './prepareRecordDocument.js';
import { mappedAhead, mappedValueOf, type MappingOutcome, type RecordBatchMapping } from './batchMapping.js';
import { isRecordDeletion } from './recordDeletion.js';
import type { RecordPosition, SourceItem } from '../record/sourceRecord.js';
import { missingWriterMethods, type IngestWriter, type StoredContent } from '../ports.js';
import { checkKeyProfile, DEFAULT_WORK_KEY_PROFILE, type WorkKeyProfileName } from '../work-keys/workKeyProfiles.js';

export type { IngestWriter, StoredContent, WriteRefusal } from '../ports.js';
// Declared with the error that carries them (src/errors.ts imports nothing); their importers name them here.
export { IngestStoppedError, type IngestCounts, type IngestSummary } from '../errors.js';
// The batch mapping's types, for the command's loader (src/cli/loadRecords.ts), which names them here.
export type { MappingOutcome, RecordBatchMapping } from './batchMapping.js';

/** A record that was not written, and why. */
export interface IngestRejection {
  readonly position: RecordPosition;
  readonly reason: string;
}

/** A record whose id an earlier record of the same run had: it replaces that one (the last one wins). */
export interface IngestDuplicate {
  readonly position: RecordPosition;
  readonly id: string;
}

export interface IngestProgress extends IngestCounts {
  /** Position of the last item read. */
  readonly position: RecordPosition | undefined;
}

/** The counts of a load that did nothing (for a load stopped before it started). */
export const NO_INGEST_COUNTS: IngestCounts = {
  read: 0, loaded: 0, added: 0, changed: 0, unchanged: 0, notCompared: 0, duplicates: 0, rejected: 0, deleted: 0, deletionsNotHeld: 0,
};

export interface IngestOptions<T> {
  readonly items: AsyncIterable<SourceItem<T>> | Iterable<SourceItem<T>>;
  /**
   * The mapping step: a source record to a record document (throws InvalidRecordDocumentError to reject),
   * its work keys made under the writer's work-key profile when the mapping makes them.
   */
  readonly toDocument: (record: T, position: RecordPosition, keyProfile: WorkKeyProfileName) => unknown;
  /**
   * The same mapping step run on batches of records elsewhere (worker threads: mappingPool.ts),
   * answering for each record what `toDocument` would, or that answer already prepared (checked, keyed,
   * stamped: prepareRecordDocument). The pipeline then reads ahead, a few batches at a time, so that
   * reading and writing here overlap the mapping there, and closes it at the end. A library's grouping
   * decisions (the writer's `curateWorkKeys`) are applied here, to every document, wherever it was prepared.
   */
  readonly mapBatches?: RecordBatchMapping<T>;
  readonly writer: IngestWriter;
  /**
   * The clock for documents without `last_indexed`; told the record's position (a load of several files
   * stamps each with its own). With `mapBatches` it is asked when a batch is handed over, before the
   * records before it are written.
   */
  readonly now: (position: RecordPosition) => Date;
  /** Documents per put (default: the writer's preferredBatchSize, else DEFAULT_BATCH_SIZE). */
  readonly batchSize?: number;
  /** Called for each record not written. If it throws, the load writes what came before and stops with that error. */
  readonly onRejected?: (rejection: IngestRejection) => void;
  /** Called for each record whose id an earlier record of this run had (it is written over that one). */
  readonly onDuplicate?: (duplicate: IngestDuplicate) => void;
  /** Called after each written batch, and at the end. */
  readonly onProgress?: (progress: IngestProgress) => void;
}

export const DEFAULT_BATCH_SIZE = 1000;

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
  // Documents are keyed as the index is: the profile is the writer's (the embedded index records its own).
  const keyProfile = writer.keyProfile === undefined ? DEFAULT_WORK_KEY_PROFILE : checkKeyProfile(writer.keyProfile, 'writer.keyProfile');
  const batchSize = options.batchSize ?? writer.preferredBatchSize ?? DEFAULT_BATCH_SIZE;
  if (!Number.isSafeInteger(batchSize) || batchSize < 1) throw new InvalidOptionError('batchSize', `give a whole number >= 1, not ${String(batchSize)}`);
  const started = performance.now();
  let read = 0;
  let rejected = 0;
  const written = { added: 0, changed: 0, unchanged: 0, notCompared: 0, duplicates: 0 };
  let deleted = 0;
  let deletionsNotHeld = 0;
  let position: RecordPosition | undefined;
  let batch: Pending[] = [];
  let deletions: string[] = [];
  // Ids written by this run: a later record with one of them is a duplicate, and deleting one is
  // deleting a held record even where the engine does not show uncommitted writes to reads.
  const writtenIds = new Set<string>();
  const counts = (): IngestCounts => ({
    read, loaded: written.added + written.changed + written.unchanged + written.notCompared + written.duplicates, ...written, rejected, deleted, deletionsNotHeld,
  });
  const summary = (): IngestSummary => ({ ...counts(), seconds: (performance.now() - started) / 1000 });
  const progress = () => options.onProgress?.({ ...counts(), position });
  const duplicate = (at: RecordPosition, id: string) => {
    try {
      options.onDuplicate?.({ position: at, id });
    } catch (error) {
      throw new StopRequested(error);
    }
  };
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
    const ids = [...new Set(deletions)];
    deletions = [];
    const unwritten = ids.filter((id) => !writtenIds.has(id));
    const stored = unwritten.length > 0 ? await writer.storedContentOf(unwritten) : new Map<string, StoredContent>();
    await writer.delete(ids);
    const held = ids.length - unwritten.length + stored.size;
    deleted += held;
    deletionsNotHeld += ids.length - held;
    for (const id of ids) writtenIds.delete(id);
    progress();
  };

  const flushDocuments = async () => {
    if (batch.length === 0) return;
    const pending = batch;
    batch = [];
    // What each record does to the index, decided before the batch is written: a duplicate of a record
    // written earlier in this run (or earlier in this batch), else new, changed or unchanged content.
    // Only documents stamped with the clock are looked up (the unchanged-content rule needs them, and
    // documents that carry their own last_indexed cost no read, as before the counts were kept apart).
    // A stamped duplicate is looked up too, so that the unchanged-content rule holds for it as before.
    const kinds: Array<keyof typeof written> = [];
    const lookedUp = new Set<string>();
    const seenInBatch = new Set<string>();
    for (const { document, stamped } of pending) {
      const id = document.id;
      if (stamped) lookedUp.add(id);
      if (writtenIds.has(id) || seenInBatch.has(id)) {
        kinds.push('duplicates');
      } else {
        seenInBatch.add(id);
        kinds.push(stamped ? 'added' : 'notCompared');
      }
    }
    const stored = lookedUp.size > 0 ? await writer.storedContentOf([...lookedUp]) : new Map<string, StoredContent>();
    const documents = pending.map(({ document, stamped }, i) => {
      const before = stamped ? stored.get(document.id) : undefined;
      if (before === undefined) return document;
      const same = before.fingerprint === contentFingerprintOf(document);
      if (kinds[i] === 'added') kinds[i] = same ? 'unchanged' : 'changed';
      return same ? { ...document, last_indexed: before.lastIndexed } : document;
    });
    const refused = await writer.put(documents);
    const reasons = new Map(refused.map((refusal) => [refusal.index, refusal.reason]));
    pending.forEach((p, i) => {
      if (reasons.has(i)) return;
      written[kinds[i]!] += 1;
      writtenIds.add(idKeptApart(p.document.id));
    });
    progress();
    pending.forEach((p, i) => {
      const reason = reasons.get(i);
      if (reason !== undefined) reject(p.position, reason);
      else if (kinds[i] === 'duplicates') duplicate(p.position, p.document.id);
    });
  };

  /** A deletion, after the documents before it are written. */
  const deleteInTurn = async (id: string) => {
    await flushDocuments();
    deletions.push(id);
    if (deletions.length >= batchSize) await flushDeletions();
  };
  const keep = (prepared: PreparedDocument, at: RecordPosition): Promise<void> | undefined => {
    const document = writer.curateWorkKeys?.(prepared.document) ?? prepared.document;
    batch.push({ document, position: at, stamped: prepared.lastIndexedFromClock });
    return batch.length >= batchSize ? flushDocuments() : undefined;
  };
  /**
   * One source item, mapped here or (`outcome`) by the batch mapping. A promise only when something is
   * written: most records are only prepared and kept, without a turn of the event loop.
   */
  const take = (item: SourceItem<T>, outcome: MappingOutcome | undefined): Promise<void> | undefined => {
    read += 1;
    position = item.position;
    if (item.kind === 'problem') {
      reject(item.position, item.reason);
      return undefined;
    }
    if (item.kind === 'deleted') return deleteInTurn(item.id);
    let prepared: PreparedDocument;
    try {
      if (outcome !== undefined && 'prepared' in outcome) {
        // Checked, keyed and stamped where it was mapped (mappingPool.ts), as it would be here.
        prepared = outcome.prepared;
      } else {
        const mapped = outcome === undefined ? toDocument(item.record, item.position, keyProfile) : mappedValueOf(outcome);
        // A withdrawn record: deleted by id, after the records before it are written.
        if (isRecordDeletion(mapped)) return deleteInTurn(mapped.deletedRecordId);
        prepared = prepareRecordDocument(mapped, now(item.position), keyProfile);
      }
    } catch (error) {
      if (!(error instanceof InvalidRecordDocumentError)) throw error;
      reject(item.position, error.reason);
      return undefined;
    }
    return deletions.length > 0 ? flushDeletions().then(() => keep(prepared, item.position)) : keep(prepared, item.position);
  };

  let failure: unknown;
  let stop: StopRequested | undefined;
  try {
    try {
      if (options.mapBatches === undefined) {
        for await (const item of options.items as AsyncIterable<SourceItem<T>>) {
          const writing = take(item, undefined);
          if (writing !== undefined) await writing;
        }
      } else {
        for await (const { items, outcomes } of mappedAhead(options.items as IngestOptions<T>['items'], options.mapBatches as RecordBatchMapping<T>, keyProfile, now)) {
          let next = 0;
          for (const item of items) {
            const writing = take(item, item.kind === 'record' ? outcomes[next++] : undefined);
            if (writing !== undefined) await writing;
          }
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
    await options.mapBatches?.close();
  } catch (error) {
    failure ??= error;
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
 * An id as a string of its own, for the set of ids written, which lives as long as the load. A mapping's
 * id is often a part of a larger string (V8 keeps a slice as a pointer into it: the MARC reader's record
 * text, a few hundred bytes), and a million such slices kept a million records' text alive
 * (docs/benchmarks.md). Through JSON and back, so that any string comes back the same.
 */
function idKeptApart(id: string): string {
  return JSON.parse(JSON.stringify(id)) as string;
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
  const mapBatches = given.mapBatches as Partial<RecordBatchMapping<unknown>> | null | undefined;
  if (mapBatches !== undefined && (typeof mapBatches !== 'object' || mapBatches === null || typeof mapBatches.map !== 'function' || typeof mapBatches.close !== 'function')) {
    throw new InvalidOptionError('mapBatches', 'give a batch mapping ({ map, close, optionally mapOneHere }), as startMappingWorkers (src/ingest/mappingPool.ts) gives');
  }
  const missing = missingWriterMethods(given.writer);
  if (missing.length > 0) throw new InvalidOptionError('writer', `give an IngestWriter (src/ports.ts); it has no ${missing.join(', ')}`);
}

/** What onRejected threw, carried out of the loop so that the records before it are written first. */
class StopRequested {
  constructor(readonly reason: unknown) {}
}
