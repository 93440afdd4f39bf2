/**
 * `catalog-versions delete ID… | --ids-file FILE (--db PATH | --solr CORE_URL)`: the records with these ids
 * leave the index, through the pipeline as a harvest's deletions do (so both backends, batches and counts
 * behave alike). An embedded index file that does not exist is not created.
 *
 * Left to others: the options it shares (ingestCommandLine.ts), the run and its summary
 * (src/ingest/pipeline.ts, ingestReport.ts).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { runIngest } from '../ingest/pipeline.js';
import type { SourceItem } from '../record/sourceRecord.js';
import { EXIT_FAILED, UsageError, type CliIo } from './commandLine.js';
import { MAPPING_OPTION_NAMES, type CommonOptions, type IngestCommand } from './ingestCommandLine.js';
import { openTarget, runReported } from './ingestReport.js';
import type { TargetSpec } from './loadRecords.js';

interface DeleteOptions extends CommonOptions {
  readonly ids: readonly string[];
  readonly idsFile: string | undefined;
  readonly target: TargetSpec;
}

export const deleteCommand: IngestCommand = {
  name: 'delete',
  synopsis: 'delete ID… | --ids-file FILE (--db PATH | --solr CORE_URL)',
  description: `removes the records with these ids (or the ids of FILE, one a line).
MARC records marked deleted (Leader/05 d) are deleted by load too.`,
  takes: ['ids-file'],
  fromCommandLine(line) {
    const common = line.common();
    line.onlyFor(['format', 'prefix', 'set', 'from', 'until', 'state', 'key-profile', ...MAPPING_OPTION_NAMES], 'load, convert or harvest');
    const idsFile = line.text('ids-file');
    if ((line.operands.length === 0) === (idsFile === undefined)) throw new UsageError('delete needs the ids to delete, or --ids-file FILE (not both)');
    const options: DeleteOptions = { ids: line.operands, idsFile, target: line.target(), ...common };
    return (io) => deleteRecords(options, io);
  },
};

async function deleteRecords(options: DeleteOptions, io: CliIo): Promise<number> {
  let items: Array<SourceItem<never>>;
  let what: string;
  if (options.idsFile !== undefined) {
    let text: string;
    try {
      text = await readFile(options.idsFile, 'utf8');
    } catch (error) {
      io.stderr.write(`catalog-versions: cannot read ${options.idsFile}: ${(error as Error).message}\n`);
      return EXIT_FAILED;
    }
    const source = options.idsFile;
    items = text.split(/\r?\n/).flatMap((line, i) => {
      const id = line.trim();
      return id === '' ? [] : [{ kind: 'deleted' as const, id, position: { source, recordNumber: i + 1, line: i + 1, id } }];
    });
    what = options.idsFile;
  } else {
    items = options.ids.map((id, i) => ({ kind: 'deleted' as const, id, position: { source: 'command line', recordNumber: i + 1, id } }));
    what = `${options.ids.length} id${options.ids.length === 1 ? '' : 's'}`;
  }
  if ('db' in options.target && !existsSync(options.target.db)) {
    io.stderr.write(`catalog-versions: there is no embedded index ${options.target.db} to delete from\n`);
    return EXIT_FAILED;
  }
  const target = openTarget(options.target, io);
  if (target === undefined) return EXIT_FAILED;
  return runReported(io, what, target, 'ids', undefined, () => runIngest<never>({
    items,
    toDocument: () => undefined,
    writer: target.openWriter(),
    now: () => new Date(),
    ...(options.batchSize !== undefined ? { batchSize: options.batchSize } : {}),
  }));
}
