/**
 * The work of `catalog-versions load`, `convert` and `harvest` apart from arguments, terminal output and
 * exit codes (catalogVersions.ts), so it can be tested in-process: opening the target a command line
 * names, and feeding files or a harvest through the ingest pipeline (src/ingest/pipeline.ts).
 *
 * The clock for documents without `last_indexed` is the file's modification time, not the wall clock:
 * every such document of one file gets the same instant (so the feed's "newest first" order does not
 * depend on how fast a batch went), the same file loaded twice, or into two backends, gives the same
 * values, and an edited file is newer. A harvest's clock is the harvest's start. Records whose content did
 * not change keep their stored `last_indexed` (the pipeline's rule), so re-loading an edited file moves
 * only the records that changed.
 *
 * Left to others: reading formats (src/ingest/recordFormats.ts), mapping, storage (the adapters).
 */
import { readFile, stat, writeFile } from 'node:fs/promises';
import { openEmbeddedIndex, type EmbeddedIndex } from '../adapters/sqlite/embeddedIndex.js';
import { createSolrWriter, solrIngestWriter, type SolrWriterOptions } from '../adapters/solr/solrWriter.js';
import { runIngest, type IngestProgress, type IngestRejection, type IngestSummary, type IngestWriter } from '../ingest/pipeline.js';
import type { RecordFileFormat } from '../ingest/recordFormats.js';
import type { RecordPosition, SourceItem } from '../ingest/sourceRecord.js';

export { DEFAULT_BATCH_SIZE, IngestStoppedError as LoadStoppedError } from '../ingest/pipeline.js';
export type { IngestProgress as LoadProgress, IngestSummary as LoadFileSummary } from '../ingest/pipeline.js';

export interface RecordFile {
  readonly path: string;
  readonly format: RecordFileFormat;
}

export interface LoadFilesOptions {
  readonly files: readonly RecordFile[];
  readonly writer: IngestWriter;
  readonly batchSize?: number;
  /** The clock for documents without `last_indexed` (default: each file's modification time). */
  readonly clock?: Date;
  readonly onProgress?: (progress: IngestProgress) => void;
  /** Told the size of each chunk of the files as it is read: bytes read, for a percentage. */
  readonly onBytesRead?: (bytes: number) => void;
  readonly onRejected?: (rejection: IngestRejection) => void;
}

/**
 * Loads files, one after another, through ONE pipeline run and so one writer: a load of several files
 * into an empty embedded index is one bulk load. The writer is closed at the end.
 */
export async function loadRecordFiles(options: LoadFilesOptions): Promise<IngestSummary> {
  // stat first: a missing file is reported before anything is written, and gives the clocks.
  const clocks: Date[] = [];
  for (const file of options.files) {
    const info = await stat(file.path);
    if (!info.isFile()) throw new Error(`${file.path} is not a file`);
    clocks.push(options.clock ?? info.mtime);
  }
  let current = 0;
  async function* items(): AsyncGenerator<SourceItem<unknown>> {
    for (const [i, file] of options.files.entries()) {
      current = i;
      yield* file.format.read(file.path, options.onBytesRead);
    }
  }
  return runIngest({
    items: items(),
    toDocument: (record: unknown, position: RecordPosition) => options.files[current]!.format.toDocument(record, position),
    writer: options.writer,
    now: () => clocks[current]!,
    ...(options.batchSize !== undefined ? { batchSize: options.batchSize } : {}),
    ...(options.onProgress !== undefined ? { onProgress: options.onProgress } : {}),
    ...(options.onRejected !== undefined ? { onRejected: options.onRejected } : {}),
  });
}

/** Where harvests remember the response date of their last successful run. */
export interface HarvestState {
  get(key: string): Promise<string | undefined>;
  set(key: string, responseDate: string): Promise<void>;
}

/** The target of a command: a writer, and where harvest state is kept. */
export interface LoadTarget {
  /** For messages: `embedded index catalog.sqlite`, `Solr core http://…/solr/biblio`. */
  readonly description: string;
  /** A writer for one load; the pipeline closes it. */
  openWriter(): IngestWriter;
  readonly harvestState: HarvestState | undefined;
  /** Closes the index or connections the target opened. */
  close(): Promise<void>;
}

export type TargetSpec =
  | { readonly db: string }
  | ({ readonly solr: string; readonly stateFile?: string } & Omit<SolrWriterOptions, 'url'>);

/** Opens the target a command line names: an embedded index file (created when missing) or a Solr core. */
export function openLoadTarget(spec: TargetSpec): LoadTarget {
  if ('db' in spec) return embeddedTarget(openEmbeddedIndex({ path: spec.db }), `embedded index ${spec.db}`);
  const { solr, stateFile, ...writerOptions } = spec;
  const description = `Solr core ${displayUrl(solr)}`;
  const writers: Array<ReturnType<typeof createSolrWriter>> = [];
  return {
    description,
    openWriter() {
      const writer = createSolrWriter({ url: solr, ...writerOptions });
      writers.push(writer);
      return solrIngestWriter(writer, description);
    },
    // A state document in the catalog's own core would show up in its searches, so Solr harvests keep
    // their state in a file of the operator's choosing.
    harvestState: stateFile === undefined ? undefined : fileHarvestState(stateFile),
    close: async () => {
      await Promise.all(writers.map((writer) => writer.close()));
    },
  };
}

/** The embedded index as a target; close() closes the index. */
export function embeddedTarget(index: EmbeddedIndex, description = 'embedded index'): LoadTarget {
  return {
    description,
    openWriter: () => index.openWriter(description),
    harvestState: { get: (key) => index.lastHarvest(key), set: (key, date) => index.recordHarvest(key, date) },
    close: () => index.close(),
  };
}

function fileHarvestState(path: string): HarvestState {
  const readAll = async (): Promise<Record<string, string>> => {
    try {
      const parsed: unknown = JSON.parse(await readFile(path, 'utf8'));
      return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, string>) : {};
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw new Error(`cannot read the harvest state file ${path}: ${(error as Error).message}`);
    }
  };
  return {
    get: async (key) => (await readAll())[key],
    async set(key, responseDate) {
      const all = await readAll();
      all[key] = responseDate;
      await writeFile(path, `${JSON.stringify(all, null, 2)}\n`);
    },
  };
}

/** A URL without its user info, for messages. */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.href.replace(/\/+$/, '');
  } catch {
    return url;
  }
}
