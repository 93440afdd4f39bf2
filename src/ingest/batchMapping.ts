/**
 * The mapping step run on batches of records elsewhere (worker threads: mappingPool.ts), as the ingest
 * pipeline (pipeline.ts) sees it: what it answers for each record (MappingOutcome), what a batch mapping
 * offers (RecordBatchMapping), and the source read ahead in batches handed to it, so that the mapping runs
 * while the pipeline reads and writes (mappedAhead).
 *
 * Left to others: running the mapping (mappingPool.ts, keyingPool.ts), what is done with each outcome (pipeline.ts).
 */
import { InvalidRecordDocumentError } from '../errors.js';
import type { PreparedDocument } from './prepareRecordDocument.js';
import type { RecordPosition, SourceItem } from '../record/sourceRecord.js';
import type { WorkKeyProfileName } from '../work-keys/workKeyProfiles.js';

/** What the mapping step answered for one record, carried back from where it ran. */
export type MappingOutcome =
  /** The mapping's value: a record document, or a deletion (recordDeletion.ts). */
  | { readonly value: unknown }
  /**
   * The mapping's record document already prepared where it was mapped (prepareRecordDocument, under the
   * profile and with the clock the pipeline handed over), so that checking and keying it run there too.
   */
  | { readonly prepared: PreparedDocument }
  /** It threw InvalidRecordDocumentError with this reason: the record is rejected. */
  | { readonly rejected: string }
  /** It threw anything else: the load stops with this error. */
  | { readonly failed: Error };

/** The mapping step run on batches (mappingPool.ts); answers each batch's outcomes in the records' order. */
export interface RecordBatchMapping<T> {
  /**
   * `clocks`: for each record, the pipeline's `now` for its position, which a document without
   * `last_indexed` is stamped with when the mapping prepares it (a `prepared` outcome).
   */
  map(records: readonly T[], positions: readonly RecordPosition[], keyProfile: WorkKeyProfileName, clocks: readonly Date[]): Promise<MappingOutcome[]>;
  /**
   * Maps one batch handed to `map` and not yet taken elsewhere on the calling thread, settling its promise;
   * false when there is none. The pipeline calls it instead of waiting for a batch.
   */
  mapOneHere?(): boolean;
  /** Ends it (also when the load stops early); the pipeline calls it once. */
  close(): Promise<void>;
  /**
   * Batches handed over before the oldest is waited for (default MAPPING_BATCHES_AHEAD). Records held
   * longer outlive V8's young generation; a quick mapping needs fewer ahead.
   */
  readonly batchesAhead?: number;
}

/** Source items per batch handed to a batch mapping, and batches in flight before the oldest is waited for. */
const MAPPING_BATCH_ITEMS = 1000;
const MAPPING_BATCHES_AHEAD = 3;

/** The value a mapping outcome stands for, or the error it stands for thrown. */
export function mappedValueOf(outcome: MappingOutcome): unknown {
  if ('value' in outcome) return outcome.value;
  if ('prepared' in outcome) return outcome.prepared.document;
  if ('rejected' in outcome) throw new InvalidRecordDocumentError(outcome.rejected);
  throw outcome.failed;
}

interface MappedBatch<T> {
  readonly items: SourceItem<T>[];
  /** The outcomes of the batch's records, in order. */
  readonly outcomes: MappingOutcome[];
}

/**
 * The source items in batches, each with its records' mapping outcomes, read and handed to the batch
 * mapping MAPPING_BATCHES_AHEAD batches ahead of the one given out, so that the mapping runs while this
 * thread reads and writes. Batches come out in the source's order.
 */
export async function* mappedAhead<T>(
  source: AsyncIterable<SourceItem<T>> | Iterable<SourceItem<T>>, mapping: RecordBatchMapping<T>, keyProfile: WorkKeyProfileName,
  now: (position: RecordPosition) => Date,
): AsyncGenerator<MappedBatch<T>> {
  const batchesAhead = mapping.batchesAhead ?? MAPPING_BATCHES_AHEAD;
  const inFlight: Array<{ readonly items: SourceItem<T>[]; readonly outcomes: Promise<MappingOutcome[]>; readonly settled: { done: boolean } }> = [];
  let items: SourceItem<T>[] = [];
  const send = () => {
    const records: T[] = [];
    const positions: RecordPosition[] = [];
    const clocks: Date[] = [];
    for (const item of items) {
      if (item.kind !== 'record') continue;
      records.push(item.record);
      positions.push(item.position);
      clocks.push(now(item.position));
    }
    const outcomes = records.length === 0 ? Promise.resolve([]) : mapping.map(records, positions, keyProfile, clocks);
    // Waited for in order below; a failure of one not yet waited for is not "unhandled" meanwhile.
    const settled = { done: false };
    outcomes.then(() => { settled.done = true; }, () => { settled.done = true; });
    inFlight.push({ items, outcomes, settled });
    items = [];
  };
  const oldest = async (): Promise<MappedBatch<T>> => {
    const { items: batchItems, outcomes, settled } = inFlight.shift()!;
    // Rather than wait, this thread maps batches not yet taken elsewhere (newest first).
    while (!settled.done && mapping.mapOneHere?.() === true) await Promise.resolve();
    return { items: batchItems, outcomes: await outcomes };
  };
  // A source that fails still has the records read before its failure taken, as they are without a batch
  // mapping (which takes each record as it is read): the committed batches are the same either way.
  const iterator = Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source[Symbol.iterator]();
  let failed = false;
  let failure: unknown;
  let ended = false;
  try {
    for (;;) {
      let next: IteratorResult<SourceItem<T>>;
      try {
        next = await iterator.next();
      } catch (error) {
        failed = true;
        failure = error;
        break;
      }
      if (next.done === true) break;
      items.push(next.value);
      if (items.length < MAPPING_BATCH_ITEMS) continue;
      send();
      if (inFlight.length > batchesAhead) yield await oldest();
    }
    ended = true;
  } finally {
    // Stopped early (the pipeline stops on a rejection or a fault): the source is closed, as for-await closes it.
    if (!ended) await iterator.return?.();
  }
  if (items.length > 0) send();
  while (inFlight.length > 0) yield await oldest();
  if (failed) throw failure;
}
