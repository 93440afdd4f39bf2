/**
 * `catalog-versions convert FILE…`: prints the record documents `load` would write (prepared: checked,
 * keyed, stamped with last_indexed), one JSON object a line on stdout; rejected records, duplicate ids,
 * withdrawn records (Leader/05 d, which load deletes) and the counts go to stderr.
 *
 * Left to others: the options it shares (ingestCommandLine.ts), the reading and mapping (loadRecords.ts).
 */
import { DEFAULT_EMBEDDED_KEY_PROFILE } from '../adapters/sqlite/keyProfileRecord.js';
import type { IngestWriter } from '../ingest/pipeline.js';
import type { RecordFileFormat } from '../ingest/recordFormats.js';
import type { WorkKeyProfileName } from '../work-keys/workKeyProfiles.js';
import { EXIT_FAILED, EXIT_OK, EXIT_REJECTED_LINES, UsageError, type CliIo } from './commandLine.js';
import { FILE_FORMAT_CHOICES, mappingSettings, type IngestCommand, type MappingOptions } from './ingestCommandLine.js';
import { recordReports } from './ingestReport.js';
import { loadRecordFiles } from './loadRecords.js';
import { checkedRecordFiles } from './recordFileArguments.js';

/** `convert`'s profile when none is asked for: the CLI's default, that of a new embedded index. */
const CLI_KEY_PROFILE: WorkKeyProfileName = DEFAULT_EMBEDDED_KEY_PROFILE;

interface ConvertOptions {
  readonly files: readonly string[];
  readonly format: RecordFileFormat | undefined;
  readonly allowEmpty: boolean;
  readonly mapping: MappingOptions;
  readonly keyProfile: WorkKeyProfileName | undefined;
  readonly workers: number | undefined;
}

export const convertCommand: IngestCommand = {
  name: 'convert',
  synopsis: `convert FILE… [--format ${FILE_FORMAT_CHOICES}]`,
  description: `prints the record documents load would write, one JSON object per line on
standard output; rejected records go to standard error.`,
  takes: ['workers', 'allow-empty'],
  fromCommandLine(line) {
    if (line.operands.length === 0) throw new UsageError('convert needs a file to read');
    line.onlyFor(['db', 'solr', 'prefix', 'set', 'from', 'until', 'state', 'batch-size', 'timeout-ms', 'grouping'], 'load or harvest');
    const options: ConvertOptions = {
      files: line.operands, format: line.format, allowEmpty: line.allowEmpty, mapping: line.mapping, keyProfile: line.keyProfile, workers: line.workers,
    };
    return (io) => runConvert(options, io);
  },
};

async function runConvert(options: ConvertOptions, io: CliIo): Promise<number> {
  const settings = await mappingSettings(options.mapping, io);
  if (settings === undefined) return EXIT_FAILED;
  const files = await checkedRecordFiles(options.files, { format: options.format, allowEmpty: options.allowEmpty, fileOptions: true }, io.stderr);
  if (files === undefined) return EXIT_FAILED;
  const keyProfile = options.keyProfile ?? CLI_KEY_PROFILE;
  const printer: IngestWriter = {
    description: 'standard output',
    keyProfile,
    storedContentOf: async () => new Map(),
    async put(batch) {
      io.stdout.write(batch.map((document) => `${JSON.stringify(document)}\n`).join(''));
      return [];
    },
    delete: async () => undefined,
    close: async () => undefined,
  };
  try {
    const deletions: string[] = [];
    const summary = await loadRecordFiles({
      files,
      mapping: settings,
      writer: { ...printer, delete: async (ids) => { deletions.push(...ids); } },
      ...(options.workers !== undefined ? { workers: options.workers } : {}),
      ...recordReports(io),
    });
    // A withdrawn record (Leader/05 d) would be deleted by load: said, with its id, on stderr.
    for (const id of deletions) io.stderr.write(`withdrawn (load deletes it): ${JSON.stringify(id)}\n`);
    const deleted = summary.deletionsNotHeld > 0 ? `, ${summary.deletionsNotHeld} withdrawn` : '';
    io.stderr.write(`${summary.read} read, ${summary.loaded} converted, ${summary.rejected} rejected${deleted}\n`);
    return summary.rejected > 0 ? EXIT_REJECTED_LINES : EXIT_OK;
  } catch (error) {
    io.stderr.write(`catalog-versions: convert stopped: ${(error as Error).message}\n`);
    return EXIT_FAILED;
  }
}
