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
import { IngestStoppedError, runIngest } from './pipeline.js';
import type { SourceItem } from './sourceRecord.js';

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
  async function* items(): AsyncGenerator<SourceItem<unknown>> {
    let recordNumber = 0;
    for await (const record of documents as AsyncIterable<unknown>) {
      recordNumber += 1;
      yield { kind: 'record', position: { source: 'load()', recordNumber }, record };
    }
  }
  const onRejected = loadOptions.onRejected;
  // The id of the document read last, for the message of its rejection (the pipeline's positions carry
  // none): the pipeline rejects a document as soon as it has read it, and the embedded index's writer
  // refuses none later. A map of every id read, kept before, was a large share of a big load's peak memory.
  let lastReadNumber = 0;
  let lastReadId: string | undefined;
  let reportedLoaded = 0;
  const summary = await runIngest({
    items: items(),
    toDocument: (record, position) => {
      const id = (record as { id?: unknown } | null)?.id;
      lastReadNumber = position.recordNumber;
      lastReadId = typeof id === 'string' ? id : undefined;
      return record;
    },
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
      const id = position.recordNumber === lastReadNumber ? lastReadId : undefined;
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
