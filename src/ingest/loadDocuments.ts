/**
 * Loading record documents a program already holds (an array, a generator, a stream of parsed objects)
 * into any index's writer, through the one pipeline (pipeline.ts) with no mapping step: what
 * `EmbeddedIndex.load()` did inside the embedded index, and now does from here for every writer.
 *
 * Without onRejected the first bad document stops the load, as an InvalidRecordDocumentError naming its
 * position (and its id when it has one); the documents before it are written. A failing source or engine
 * reaches the caller as itself, as it did before the pipeline existed.
 *
 * Left to others: preparing and writing (pipeline.ts), the writer (the adapters), reading files (readers/,
 * marc/, oai/).
 */
import { describeValue, InvalidArgumentError, InvalidOptionError, InvalidRecordDocumentError } from '../errors.js';
import { missingWriterMethods, type IngestWriter } from '../ports.js';
import { defaultMappingWorkers } from './batchWorkerPool.js';
import { startKeyingWorkers } from './keyingPool.js';
import { IngestStoppedError, runIngest } from './pipeline.js';
import type { SourceItem } from '../record/sourceRecord.js';

export interface RejectedDocument {
  /** 1-based position of the document in the loaded sequence. */
  readonly position: number;
  readonly id?: string;
  readonly reason: string;
}

export interface LoadOptions {
  /** Called for each document that cannot be loaded; without it the first such document stops the load. */
  readonly onRejected?: (rejected: RejectedDocument) => void;
  /** Called after each committed batch with the number of documents read so far. */
  readonly onProgress?: (read: number) => void;
  /** The clock for `last_indexed` of documents that carry none. */
  readonly now?: () => Date;
  /** Documents per transaction (default: the writer's preferred batch size). */
  readonly batchSize?: number;
  /**
   * Worker threads making the documents' work keys (keyingPool.ts; default defaultMappingWorkers(),
   * batchWorkerPool.ts);
   * 0 keys every document on this thread. A load keys its first KEYED_HERE_FIRST documents here, and
   * starts the workers only when it goes on.
   */
  readonly workers?: number;
}

export interface LoadSummary {
  readonly read: number;
  readonly loaded: number;
  readonly rejected: number;
}

/** Whether a value can be walked with `for await`: an iterable or an async iterable (not a string). */
function isDocumentSequence(value: unknown): value is Iterable<unknown> | AsyncIterable<unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const sequence = value as Partial<Record<typeof Symbol.iterator | typeof Symbol.asyncIterator, unknown>>;
  return typeof sequence[Symbol.iterator] === 'function' || typeof sequence[Symbol.asyncIterator] === 'function';
}

/** Refuses what is not a sequence of documents and load options, naming what is wrong. */
function checkLoadArguments(documents: unknown, options: unknown): asserts options is LoadOptions {
  if (!isDocumentSequence(documents) || Buffer.isBuffer(documents)) {
    throw new InvalidOptionError('documents', `give an iterable or async iterable of record documents (an array, a generator), not ${describeValue(documents)}`);
  }
  if (typeof options !== 'object' || options === null) throw new InvalidOptionError('options', `give an object, not ${describeValue(options)}`);
  const given = options as Record<string, unknown>;
  for (const name of ['onRejected', 'onProgress', 'now'] as const) {
    if (given[name] !== undefined && typeof given[name] !== 'function') throw new InvalidOptionError(name, `give a function, not a ${typeof given[name]}`);
  }
  const workers = given.workers;
  if (workers !== undefined && (typeof workers !== 'number' || !Number.isSafeInteger(workers) || workers < 0)) throw new InvalidOptionError('workers', `give a whole number >= 0, not ${describeValue(workers)}`);
}

/**
 * Loads documents through `writer`, which is closed at the end, also when the other arguments are refused
 * (InvalidOptionError) or the load fails. What is not a writer is refused (InvalidArgumentError) untouched.
 */
export async function loadDocuments(writer: IngestWriter, documents: Iterable<unknown> | AsyncIterable<unknown>, loadOptions: LoadOptions = {}): Promise<LoadSummary> {
  const missing = missingWriterMethods(writer);
  if (missing.length > 0) {
    throw new InvalidArgumentError('loadDocuments', 'writer', `an IngestWriter such as index.openWriter() gives (it has no ${missing.join(', ')})`, writer);
  }
  try {
    checkLoadArguments(documents, loadOptions);
  } catch (error) {
    await writer.close();
    throw error;
  }
  // The ids of the documents read last, for the message of a rejection (the pipeline's positions carry
  // none): the pipeline rejects a document when it takes it, at most the batches it reads ahead of that
  // (batchMapping.ts, mappedAhead) after it was read. A map of every id read, kept before, was a large share
  // of a big load's peak memory; a slot that another document took since gives no id.
  const recentIds = new RecentIds();
  async function* items(): AsyncGenerator<SourceItem<unknown>> {
    let recordNumber = 0;
    for await (const record of documents as AsyncIterable<unknown>) {
      recordNumber += 1;
      const id = (record as { id?: unknown } | null)?.id;
      recentIds.note(recordNumber, typeof id === 'string' ? id : undefined);
      yield { kind: 'record', position: { source: 'load()', recordNumber }, record };
    }
  }
  const onRejected = loadOptions.onRejected;
  const workers = loadOptions.workers ?? defaultMappingWorkers();
  let reportedLoaded = 0;
  const summary = await runIngest({
    items: items(),
    toDocument: (record) => record,
    ...(workers > 0 ? { mapBatches: startKeyingWorkers({ workers }) } : {}),
    writer,
    now: loadOptions.now ?? (() => new Date()),
    ...(loadOptions.batchSize !== undefined ? { batchSize: loadOptions.batchSize } : {}),
    // Reported after each written batch only (the pipeline reports the end too).
    onProgress: (progress) => {
      if (progress.loaded === reportedLoaded) return;
      reportedLoaded = progress.loaded;
      loadOptions.onProgress?.(progress.read);
    },
    onRejected: ({ position, reason }) => {
      const id = recentIds.idOf(position.recordNumber);
      if (onRejected === undefined) {
        throw new InvalidRecordDocumentError(`document ${position.recordNumber}${id !== undefined ? ` (id ${JSON.stringify(id)})` : ''}: ${reason}`);
      }
      onRejected({ position: position.recordNumber, ...(id !== undefined ? { id } : {}), reason });
    },
  }).catch((error: unknown) => {
    // A failing source or engine reaches the caller as itself, as before the pipeline.
    throw error instanceof IngestStoppedError ? error.cause : error;
  });
  return { read: summary.read, loaded: summary.loaded, rejected: summary.rejected };
}

/** The ids of the last RecentIds.SLOTS documents read, by their numbers. */
class RecentIds {
  static readonly SLOTS = 1 << 14;
  private readonly numbers = new Float64Array(RecentIds.SLOTS);
  private readonly ids: Array<string | undefined> = new Array(RecentIds.SLOTS);

  note(recordNumber: number, id: string | undefined): void {
    const slot = recordNumber % RecentIds.SLOTS;
    this.numbers[slot] = recordNumber;
    this.ids[slot] = id;
  }

  idOf(recordNumber: number): string | undefined {
    const slot = recordNumber % RecentIds.SLOTS;
    return this.numbers[slot] === recordNumber ? this.ids[slot] : undefined;
  }
}

/** What `load` adds to an index that opens writers (the embedded index's 0.1.0 method). */
export interface DocumentLoading {
  /**
   * Loads record documents through the ingest pipeline; a document whose id is indexed already replaces it.
   * @deprecated Call `loadDocuments(index.openWriter(), documents, options)` from `koa-catalog-versions/ingest`.
   */
  load(documents: Iterable<unknown> | AsyncIterable<unknown>, options?: LoadOptions): Promise<LoadSummary>;
}

/** The index with the deprecated `load` method (the `koa-catalog-versions/sqlite` entry adds it). */
export function withDocumentLoading<Index extends { openWriter(): IngestWriter }>(index: Index): Index & DocumentLoading {
  return Object.assign(index, {
    async load(documents: Iterable<unknown> | AsyncIterable<unknown>, options?: LoadOptions): Promise<LoadSummary> {
      // Refused before a writer takes its turn, so a bad call never waits behind a running load.
      checkLoadArguments(documents, options ?? {});
      return loadDocuments(index.openWriter(), documents, options);
    },
  });
}
