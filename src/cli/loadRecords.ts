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
import { readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { openSqliteIndex, type SqliteIndex } from '../adapters/sqlite/embeddedIndex.js';
import { createSolrWriter, solrIngestWriter, type SolrWriterOptions } from '../adapters/solr/solrWriter.js';
import { harvestStateFile } from '../ingest/harvestState.js';
import { InvalidOptionError } from '../errors.js';
import { defaultMappingWorkers } from '../ingest/batchWorkerPool.js';
import { startKeyingWorkers } from '../ingest/keyingPool.js';
import { startMappingWorkers } from '../ingest/mappingPool.js';
import { runIngest, type RecordBatchMapping, type IngestDuplicate, type IngestProgress, type IngestRejection, type IngestSummary } from '../ingest/pipeline.js';
import type { LocalMappingSettings } from '../ingest/localMapping.js';
import type { HarvestState, IngestWriter } from '../ports.js';
import type { RecordFileFormat } from '../ingest/recordFormats.js';
import { writerWithDecisions } from '../writerWithDecisions.js';

import { decisionsFromCurationFile } from '../work-keys/curation/curationFile.js';
import { DEFAULT_WORK_KEY_PROFILE, type WorkKeyProfileName } from '../work-keys/workKeyProfiles.js';
import type { RecordPosition, SourceItem } from '../record/sourceRecord.js';

export { defaultMappingWorkers };

export { DEFAULT_BATCH_SIZE, IngestStoppedError as LoadStoppedError } from '../ingest/pipeline.js';
export type { IngestProgress as LoadProgress, IngestSummary as LoadFileSummary } from '../ingest/pipeline.js';

export interface RecordFile {
  readonly path: string;
  readonly format: RecordFileFormat;
}

export interface LoadFilesOptions {
  readonly files: readonly RecordFile[];
  readonly writer: IngestWriter;
  /** The local mapping for MARC files (default: the stock mapping). */
  readonly mapping?: LocalMappingSettings;
  readonly batchSize?: number;
  /** The clock for documents without `last_indexed` (default: each file's modification time). */
  readonly clock?: Date;
  readonly onProgress?: (progress: IngestProgress) => void;
  /** Told the size of each chunk of the files as it is read: bytes read, for a percentage. */
  readonly onBytesRead?: (bytes: number) => void;
  readonly onRejected?: (rejection: IngestRejection) => void;
  readonly onDuplicate?: (duplicate: IngestDuplicate) => void;
  /**
   * Worker threads mapping records beside this thread (default: defaultMappingWorkers()); 0 maps every
   * record on this thread. Workers are used only when every file is of one format that
   * can be mapped from its records' bytes (ISO 2709), or whose records are documents as they are, which
   * the workers key (JSON Lines: keyingPool.ts), and the files hold MAPPING_WORKERS_MIN_BYTES or more:
   * below that, starting them costs more than they save (docs/benchmarks.md).
   */
  readonly workers?: number;
}

/** The smallest load (bytes of its files) mapped in worker threads. */
export const MAPPING_WORKERS_MIN_BYTES = 4 << 20;

/**
 * Loads files, one after another, through ONE pipeline run and so one writer: a load of several files
 * into an empty embedded index is one bulk load. The writer is closed at the end.
 */
export async function loadRecordFiles(options: LoadFilesOptions): Promise<IngestSummary> {
  // stat first: a missing file is reported before anything is written, and gives the clocks.
  // Positions name their file, so a record's clock is found by its file (the pipeline may read ahead of
  // the record it stamps when the mapping runs in workers).
  const clocks = new Map<string, Date>();
  let bytes = 0;
  for (const file of options.files) {
    const info = await stat(file.path);
    if (!info.isFile()) throw new Error(`${file.path} is not a file`);
    clocks.set(file.path, options.clock ?? info.mtime);
    bytes += info.size;
  }
  const workers = options.workers ?? defaultMappingWorkers();
  if (!Number.isSafeInteger(workers) || workers < 0) throw new InvalidOptionError('workers', `give a whole number >= 0, not ${String(workers)}`);
  const format = options.files[0]?.format;
  const workersPay = workers > 0 && bytes >= MAPPING_WORKERS_MIN_BYTES && format !== undefined && options.files.every((file) => file.format.name === format.name);
  const inWorkers = workersPay && format.asBytes !== undefined;
  const keyedInWorkers = workersPay && format.documentsAsRead === true;
  let current = 0;
  async function* items(): AsyncGenerator<SourceItem<unknown>> {
    for (const [i, file] of options.files.entries()) {
      current = i;
      yield* inWorkers ? file.format.asBytes!.read(file.path, options.onBytesRead) : file.format.read(file.path, options.onBytesRead);
    }
  }
  return runIngest({
    items: items(),
    toDocument: inWorkers
      ? (record: unknown, position: RecordPosition, keyProfile) => format!.asBytes!.toDocument(record as Uint8Array, position, options.mapping, keyProfile)
      : (record: unknown, position: RecordPosition, keyProfile) => options.files[current]!.format.toDocument(record, position, options.mapping, keyProfile),
    ...(inWorkers ? { mapBatches: startMappingWorkers({ format: format!.name, workers, ...(options.mapping !== undefined ? { settings: options.mapping } : {}) }) as RecordBatchMapping<unknown> } : {}),
    ...(keyedInWorkers ? { mapBatches: startKeyingWorkers({ workers }) } : {}),
    writer: options.writer,
    now: (position) => clocks.get(position.source) ?? clocks.get(options.files[current]!.path)!,
    ...(options.batchSize !== undefined ? { batchSize: options.batchSize } : {}),
    ...(options.onProgress !== undefined ? { onProgress: options.onProgress } : {}),
    ...(options.onRejected !== undefined ? { onRejected: options.onRejected } : {}),
    ...(options.onDuplicate !== undefined ? { onDuplicate: options.onDuplicate } : {}),
  });
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

/**
 * `keyProfile`: the work-key profile asked for; without it the embedded index keeps the one it was
 * keyed with (`extended` for a new one) and a Solr core is keyed as VuFind's importer keys (`vufind`).
 */
export type TargetSpec = ({ readonly keyProfile?: WorkKeyProfileName }) & (
  | { readonly db: string }
  | ({ readonly solr: string; readonly stateFile?: string; readonly groupingFile?: string } & Omit<SolrWriterOptions, 'url'>));

/** Opens the target a command line names: an embedded index file (created when missing) or a Solr core. */
export function openLoadTarget(spec: TargetSpec): LoadTarget {
  if ('db' in spec) {
    return embeddedTarget(openSqliteIndex({ path: spec.db, create: true, ...(spec.keyProfile !== undefined ? { keyProfile: spec.keyProfile } : {}) }), `embedded index ${spec.db}`);
  }
  const { solr, stateFile, groupingFile, keyProfile = DEFAULT_WORK_KEY_PROFILE, ...writerOptions } = spec;
  const description = `Solr core ${displayUrl(solr)}`;
  // A core keeps no grouping decisions: a load is given them from a file `works export` wrote (docs/curation.md).
  const decisions = groupingFile === undefined ? [] : decisionsFromCurationFile(readFileSync(groupingFile, 'utf8'), groupingFile);
  const writers: Array<ReturnType<typeof createSolrWriter>> = [];
  return {
    description,
    openWriter() {
      const writer = createSolrWriter({ url: solr, ...writerOptions });
      writers.push(writer);
      return writerWithDecisions(solrIngestWriter(writer, description, keyProfile), decisions);
    },
    // Solr harvests keep their state in a file of the operator's choosing (src/ingest/harvestState.ts).
    harvestState: stateFile === undefined ? undefined : harvestStateFile(stateFile),
    close: async () => {
      await Promise.all(writers.map((writer) => writer.close()));
    },
  };
}

/** The embedded index as a target; close() closes the index. */
export function embeddedTarget(index: SqliteIndex, description = 'embedded index'): LoadTarget {
  return {
    description,
    openWriter: () => index.openWriter(description),
    harvestState: index.harvestState,
    close: () => index.close(),
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
