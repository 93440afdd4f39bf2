/**
 * `catalog-versions load FILE… (--db PATH | --solr CORE_URL)`: reads record files into the embedded index
 * or a Solr core (docs/loading.md). Each file's format is recognised from its content and said
 * (recordFileArguments.ts); a terminal on stderr gets the progress bar: a percentage of the bytes read, an
 * ETA, and a line for the writer's final step. Every file empty, with --allow-empty: a success with
 * nothing loaded, and no index opened or made.
 *
 * Left to others: the options it shares (ingestCommandLine.ts), the run and its summary (loadRecords.ts,
 * ingestReport.ts).
 */
import { isStockMapping, type LocalMappingSettings } from '../ingest/localMapping.js';
import { NO_INGEST_COUNTS } from '../ingest/pipeline.js';
import { RECORD_FILE_FORMATS, type RecordFileFormat } from '../ingest/recordFormats.js';
import { EXIT_FAILED, EXIT_OK, UsageError, type CliIo } from './commandLine.js';
import { mappingSettings, type CommonOptions, type IngestCommand, type MappingOptions } from './ingestCommandLine.js';
import { announcingClose, countsText, openTarget, recordReports, runReported } from './ingestReport.js';
import { loadRecordFiles, type TargetSpec } from './loadRecords.js';
import { ProgressBar } from './progressBar.js';
import { checkedRecordFiles, type SizedRecordFile } from './recordFileArguments.js';

interface LoadOptions extends CommonOptions {
  readonly files: readonly string[];
  readonly format: RecordFileFormat | undefined;
  readonly allowEmpty: boolean;
  readonly target: TargetSpec;
  readonly mapping: MappingOptions;
  readonly workers: number | undefined;
}

export const loadCommand: IngestCommand = {
  name: 'load',
  synopsis: `load ${RECORD_FILE_FORMATS.map((format) => `FILE${format.extensions[0]}`).join('|')}… (--db PATH | --solr CORE_URL) [options]`,
  description: `reads record files into the embedded index or a Solr core. Each file's format
is recognised from its content: JSON Lines record documents (VuFind "biblio"
field names), MARC 21 in ISO 2709 (UTF-8 or MARC-8) or MARCXML. MARC records
are mapped to documents as VuFind's own importer does (marc-mapping.md).
Work keys and last_indexed are computed for documents that lack them;
last_indexed comes from the file's modification time, and records whose
content did not change keep the one they have. Loading the same file again
leaves the same index. Rejected records are reported and skipped.`,
  takes: ['workers', 'allow-empty'],
  fromCommandLine(line) {
    const common = line.common();
    if (line.operands.length === 0) throw new UsageError('load needs the JSON Lines file, MARC file or MARCXML file to read');
    line.onlyFor(['prefix', 'set', 'from', 'until', 'state'], 'harvest');
    const options: LoadOptions = {
      files: line.operands, format: line.format, allowEmpty: line.allowEmpty, target: line.target(), mapping: line.mapping, workers: line.workers, ...common,
    };
    return (io) => runLoad(options, io);
  },
};

async function runLoad(options: LoadOptions, io: CliIo): Promise<number> {
  const settings = await mappingSettings(options.mapping, io);
  if (settings === undefined) return EXIT_FAILED;
  const files = await checkedRecordFiles(options.files, { format: options.format, allowEmpty: options.allowEmpty, fileOptions: true }, io.stderr);
  if (files === undefined) return EXIT_FAILED;
  if (files.length === 0) {
    // Every file empty, and --allow-empty: a success with nothing loaded, and no index opened or made.
    io.stdout.write(`Nothing to load from ${options.files.join(', ')} (--allow-empty). ${countsText(NO_INGEST_COUNTS)}.\n`);
    return EXIT_OK;
  }
  return load(options, files, settings, io);
}

async function load(options: LoadOptions, files: SizedRecordFile[], settings: LocalMappingSettings, io: CliIo): Promise<number> {
  const onlyJsonLines = files.every((file) => file.format.name === 'jsonl');
  if (onlyJsonLines && !isStockMapping(settings)) {
    io.stderr.write('catalog-versions: the local mapping applies to MARC records; JSON Lines record documents are loaded as they are\n');
  }
  const target = openTarget(options.target, io);
  if (target === undefined) return EXIT_FAILED;
  const totalBytes = files.reduce((sum, file) => sum + file.bytes, 0);
  const bar = options.progress && io.stderr.isTTY === true ? new ProgressBar(io.stderr, totalBytes, onlyJsonLines ? 'line' : 'record') : undefined;
  const what = files.length === 1 ? files[0]!.path : `${files.length} files`;
  const unit = onlyJsonLines ? 'lines' : 'records';
  return runReported(io, what, target, unit, bar, () => loadRecordFiles({
    files,
    mapping: settings,
    writer: announcingClose(target.openWriter(), bar),
    ...(options.workers !== undefined ? { workers: options.workers } : {}),
    ...(options.batchSize !== undefined ? { batchSize: options.batchSize } : {}),
    ...(bar !== undefined ? { onBytesRead: (bytes: number) => bar.advance(bytes) } : {}),
    onProgress: (progress) => bar?.update(progress.position?.line ?? progress.read, progress.read),
    ...recordReports(io, bar),
  }));
}
