/**
 * Loads a JSON Lines file of record documents into an index: the work of `catalog-versions load`, apart
 * from arguments, terminal output and exit codes (catalogVersions.ts), so it can be tested in-process.
 *
 * What it does: reads the file line by line (jsonLines.ts), readies each document the way every backend
 * stores it (prepareRecordDocument: checked, work keys computed when absent, `last_indexed` set when
 * absent), and writes them in batches to a target, the embedded index or a Solr core. A bad line (not JSON,
 * not a record document, or refused by Solr) is reported with its line number and skipped; the rest loads.
 *
 * The clock for documents without `last_indexed` is the file's modification time, not the wall clock: every
 * such document of one load gets the same instant (so the feed's "newest first" order does not depend on
 * how fast a batch went), the same file loaded twice, or into two backends, gives the same values, and an
 * edited file is newer. Both targets keep the stored `last_indexed` of a record whose content did not
 * change, so re-loading an edited file moves only the records that changed.
 *
 * Left to others: validating documents and computing keys (src/core), the storage itself (embeddedIndex.ts,
 * solrWriter.ts), and how progress and problems are shown (the command).
 */
import { stat } from 'node:fs/promises';
import { prepareRecordDocument, type PreparedDocument } from '../ingest/prepareRecordDocument.js';
import type { RecordDocument } from '../record/catalogRecord.js';
import { InvalidRecordDocumentError } from '../errors.js';
import { readJsonLines } from '../ingest/readers/jsonLinesReader.js';
import { openEmbeddedIndex, type EmbeddedIndex } from '../adapters/sqlite/embeddedIndex.js';
import { createSolrWriter, type SolrWriter, type SolrWriterOptions } from '../adapters/solr/solrWriter.js';

/** Where documents go. Targets write whole batches and say which documents of a batch they refused. */
export interface LoadTarget {
  /** For messages: `embedded index catalog.sqlite`, `Solr core http://…/solr/biblio`. */
  readonly description: string;
  /**
   * Writes prepared documents (a document whose `last_indexed` came from `clock` may keep the stored one
   * when its content is unchanged). Returns the documents the engine refused, by position in `batch`.
   * Throws (IndexUnavailableError) when the engine fails: the load stops.
   */
  writeBatch(batch: readonly PreparedDocument[], clock: Date): Promise<ReadonlyArray<{ index: number; reason: string }>>;
  /** Makes everything written durable and visible (Solr: a commit). */
  finish(): Promise<void>;
  close(): Promise<void>;
}

export interface LoadProgress {
  /** Line number of the last line read. */
  readonly line: number;
  readonly read: number;
  readonly loaded: number;
  readonly rejected: number;
}

export interface RejectedLine {
  readonly line: number;
  readonly id?: string;
  readonly reason: string;
}

export interface LoadFileOptions {
  readonly file: string;
  readonly target: LoadTarget;
  /** Documents per write (default 1000). */
  readonly batchSize?: number;
  /** The clock for documents without `last_indexed` (default: the file's modification time). */
  readonly clock?: Date;
  /** Called after each written batch. */
  readonly onProgress?: (progress: LoadProgress) => void;
  /** Called for each line that was not loaded, in line order within a batch. */
  readonly onRejected?: (problem: RejectedLine) => void;
}

export interface LoadFileSummary {
  /** Non-blank lines read. */
  readonly read: number;
  readonly loaded: number;
  readonly rejected: number;
  readonly seconds: number;
}

export const DEFAULT_BATCH_SIZE = 1000;

/** A load that stopped on a fault of the file or the index; `summary` says how far it got. */
export class LoadStoppedError extends Error {
  readonly summary: LoadFileSummary;
  constructor(cause: unknown, summary: LoadFileSummary) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'LoadStoppedError';
    this.summary = summary;
  }
}

export async function loadJsonLinesFile(options: LoadFileOptions): Promise<LoadFileSummary> {
  const { file, target } = options;
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  if (!Number.isSafeInteger(batchSize) || batchSize < 1) throw new RangeError(`batchSize must be a whole number >= 1, not ${batchSize}`);
  const started = performance.now();
  let read = 0;
  let loaded = 0;
  let rejected = 0;
  let line = 0;
  const summary = (): LoadFileSummary => ({ read, loaded, rejected, seconds: (performance.now() - started) / 1000 });
  const reject = (problem: RejectedLine) => {
    rejected += 1;
    options.onRejected?.(problem);
  };

  try {
    // stat first: a missing or unreadable file is reported before anything is written, and gives the clock.
    const info = await stat(file);
    if (!info.isFile()) throw new Error(`${file} is not a file`);
    const clock = options.clock ?? info.mtime;

    let batch: PreparedDocument[] = [];
    let batchLines: number[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const refused = await target.writeBatch(batch, clock);
      const refusedAt = new Map(refused.map((problem) => [problem.index, problem.reason]));
      batch.forEach((prepared, index) => {
        const reason = refusedAt.get(index);
        if (reason === undefined) loaded += 1;
        else reject({ line: batchLines[index] ?? 0, id: prepared.document.id, reason });
      });
      batch = [];
      batchLines = [];
      options.onProgress?.({ line, read, loaded, rejected });
    };

    const lines = readJsonLines(file, (problem) => {
      read += 1;
      line = problem.line;
      reject({ line: problem.line, reason: problem.reason });
    });
    for await (const { line: number, value } of lines) {
      read += 1;
      line = number;
      let prepared: PreparedDocument;
      try {
        prepared = prepareRecordDocument(value, clock);
      } catch (error) {
        if (!(error instanceof InvalidRecordDocumentError)) throw error;
        const id = (value as { id?: unknown } | null)?.id;
        reject({ line: number, ...(typeof id === 'string' && id !== '' ? { id } : {}), reason: error.reason });
        continue;
      }
      batch.push(prepared);
      batchLines.push(number);
      if (batch.length >= batchSize) await flush();
    }
    await flush();
    await target.finish();
    options.onProgress?.({ line, read, loaded, rejected });
    return summary();
  } catch (error) {
    throw new LoadStoppedError(error, summary());
  }
}

/**
 * The embedded index as a target; the index stays open (the caller closes it, or `close()` does).
 *
 * The whole file goes through ONE `index.load()` call, fed batch by batch: a load into an empty index is a
 * bulk load (staged, then moved into place sorted) only within one call, and that is what makes a million
 * records load in under a minute. A batch counts as written once the index has taken its last document
 * (asked for the next one): by then each of its documents is loaded or reported.
 */
export function embeddedTarget(index: EmbeddedIndex, description = 'embedded index'): LoadTarget {
  interface Pending {
    readonly documents: readonly RecordDocument[];
    /** Global 0-based position of the batch's first document. */
    readonly offset: number;
    readonly done: (refused: Array<{ index: number; reason: string }>) => void;
    readonly fail: (error: unknown) => void;
  }
  const queue: Pending[] = [];
  const refusedAt = new Map<number, string>();
  let written = 0;
  let ended = false;
  let failure: { error: unknown } | undefined;
  let wake: (() => void) | undefined;
  let running: Promise<unknown> | undefined;

  async function* documents(): AsyncGenerator<RecordDocument> {
    for (;;) {
      const pending = queue[0];
      if (pending === undefined) {
        if (ended) return;
        await new Promise<void>((resolve) => { wake = resolve; });
        continue;
      }
      for (const document of pending.documents) yield document;
      queue.shift();
      const refused: Array<{ index: number; reason: string }> = [];
      pending.documents.forEach((_, i) => {
        const reason = refusedAt.get(pending.offset + i);
        if (reason !== undefined) refused.push({ index: i, reason });
        refusedAt.delete(pending.offset + i);
      });
      pending.done(refused);
    }
  }

  function start(clock: Date): Promise<unknown> {
    return index.load(documents(), {
      now: () => clock,
      onRejected: ({ position, reason }) => refusedAt.set(position - 1, reason),
    }).catch((error: unknown) => {
      failure = { error };
      for (const pending of queue.splice(0)) pending.fail(error);
    });
  }

  return {
    description,
    writeBatch(batch, clock) {
      if (failure !== undefined) return Promise.reject(failure.error);
      // A document stamped with the clock goes in without last_indexed, so that the index itself decides
      // between the clock and the stored value of unchanged content (its rule, in one place).
      const batchDocuments = batch.map(({ document, lastIndexedFromClock }) => lastIndexedFromClock ? withoutLastIndexed(document) : document);
      const written$ = new Promise<Array<{ index: number; reason: string }>>((done, fail) => {
        queue.push({ documents: batchDocuments, offset: written, done, fail });
      });
      written += batchDocuments.length;
      running ??= start(clock);
      wake?.();
      return written$;
    },
    async finish() {
      ended = true;
      wake?.();
      await running;
      if (failure !== undefined) throw failure.error;
    },
    close: () => index.close(),
  };
}

/** A Solr core as a target, through a writer that this target owns. */
export function solrTarget(writer: SolrWriter, description: string): LoadTarget {
  return {
    description,
    async writeBatch(batch) {
      // Keep last_indexed of records whose stored content is the same, as the embedded index does, so both
      // backends answer alike after an edited file is loaded again.
      const stamped = batch.filter((prepared) => prepared.lastIndexedFromClock).map((prepared) => prepared.document);
      const kept = stamped.length > 0 ? await writer.storedLastIndexedOfUnchanged(stamped) : new Map<string, string>();
      const documents = batch.map(({ document, lastIndexedFromClock }) => {
        const stored = lastIndexedFromClock ? kept.get(document.id) : undefined;
        return stored === undefined ? document : { ...document, last_indexed: stored };
      });
      const result = await writer.add(documents);
      return result.rejected.map(({ index, reason }) => ({ index, reason }));
    },
    finish: () => writer.commit(),
    close: () => writer.close(),
  };
}

export type TargetSpec = { readonly db: string } | ({ readonly solr: string } & Omit<SolrWriterOptions, 'url'>);

/** Opens the target a command line names: an embedded index file (created when missing) or a Solr core. */
export function openLoadTarget(spec: TargetSpec): LoadTarget {
  if ('db' in spec) return embeddedTarget(openEmbeddedIndex({ path: spec.db }), `embedded index ${spec.db}`);
  const { solr, ...writerOptions } = spec;
  const writer = createSolrWriter({ url: solr, ...writerOptions });
  return solrTarget(writer, `Solr core ${displayUrl(solr)}`);
}

/** A URL without its user info, for messages. */
function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.href.replace(/\/+$/, '');
  } catch {
    return url;
  }
}

function withoutLastIndexed(document: RecordDocument): RecordDocument {
  const { last_indexed: _dropped, ...rest } = document;
  return rest;
}
