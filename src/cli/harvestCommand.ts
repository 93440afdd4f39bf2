/**
 * `catalog-versions harvest BASE_URL --prefix PREFIX (--db PATH | --solr CORE_URL)`: harvests an OAI-PMH 2.0
 * repository into an index, its deleted records deleted (docs/loading.md). Without --from it continues
 * from the last harvest that went to the end for the same base URL, prefix and set, kept in the index
 * (with --solr, in the --state file), as is which OAI identifier each record came from, so that a
 * deleted header deletes the right record.
 *
 * Left to others: the options it shares (ingestCommandLine.ts), the harvest (src/ingest/oai/), the run
 * and its summary (src/ingest/pipeline.ts, ingestReport.ts).
 */
import type { LocalMappingSettings } from '../ingest/localMapping.js';
import { harvestedRecordToDocument, HARVEST_PREFIXES } from '../ingest/oai/harvestedRecords.js';
import { HarvestedIdentifiers, harvestedIdentifiersKey } from '../ingest/oai/harvestedIdentifiers.js';
import { harvestOai, type HarvestedRecord } from '../ingest/oai/oaiHarvester.js';
import { runIngest } from '../ingest/pipeline.js';
import { isRecordDeletion } from '../ingest/recordDeletion.js';
import type { SourceItem } from '../record/sourceRecord.js';
import { EXIT_FAILED, UsageError, type CliIo } from './commandLine.js';
import { mappingSettings, type CommonOptions, type IngestCommand, type MappingOptions } from './ingestCommandLine.js';
import { announcingClose, openTarget, recordReports, runReported } from './ingestReport.js';
import type { TargetSpec } from './loadRecords.js';
import { ProgressBar } from './progressBar.js';

interface HarvestOptions extends CommonOptions {
  readonly baseUrl: string;
  readonly prefix: string;
  readonly set?: string;
  readonly from?: string;
  readonly until?: string;
  readonly target: TargetSpec;
  readonly mapping: MappingOptions;
}

export const harvestCommand: IngestCommand = {
  name: 'harvest',
  synopsis: `harvest BASE_URL --prefix ${HARVEST_PREFIXES.join('|')} (--db PATH | --solr CORE_URL) [options]`,
  description: `harvests an OAI-PMH 2.0 repository (ListRecords, following resumption
tokens), loads its records and removes its deleted ones. Without --from it
continues from the last successful harvest of the same base URL, prefix
and set (kept in the index; with --solr, in the --state file).`,
  takes: [],
  fromCommandLine(line) {
    const common = line.common();
    if (line.format !== undefined) throw new UsageError('--format applies to load and convert only');
    if (line.operands.length !== 1) throw new UsageError('harvest needs exactly one OAI-PMH base URL');
    const baseUrl = line.operands[0] as string;
    if (!/^https?:\/\//.test(baseUrl)) throw new UsageError(`harvest needs an http(s) base URL, not ${JSON.stringify(baseUrl)}`);
    const prefix = line.text('prefix');
    if (prefix === undefined || !HARVEST_PREFIXES.includes(prefix)) throw new UsageError(`harvest needs --prefix ${HARVEST_PREFIXES.join(' or ')}`);
    for (const name of ['from', 'until']) {
      const value = line.text(name);
      if (value !== undefined && !/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}Z)?$/.test(value)) {
        throw new UsageError(`--${name} needs a date as YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ, not ${JSON.stringify(value)}`);
      }
    }
    const target = line.target();
    if ('db' in target && line.text('state') !== undefined) throw new UsageError('--state applies to --solr only (the embedded index keeps its own)');
    const optional = (name: string) => (line.text(name) !== undefined ? { [name]: line.text(name) } : {});
    const options: HarvestOptions = { baseUrl, prefix, ...optional('set'), ...optional('from'), ...optional('until'), target, mapping: line.mapping, ...common };
    return async (io) => {
      const settings = await mappingSettings(options.mapping, io);
      return settings === undefined ? EXIT_FAILED : harvest(options, settings, io);
    };
  },
};

async function harvest(options: HarvestOptions, settings: LocalMappingSettings, io: CliIo): Promise<number> {
  const target = openTarget(options.target, io);
  if (target === undefined) return EXIT_FAILED;
  const stateKey = JSON.stringify([options.baseUrl, options.prefix, options.set ?? null]);
  let from = options.from;
  // Which record id each OAI identifier was stored under, so a deleted header deletes the right record.
  const identifiersKey = harvestedIdentifiersKey(options.baseUrl, options.prefix);
  let identifiers: HarvestedIdentifiers;
  try {
    if (from === undefined && target.harvestState !== undefined) from = await target.harvestState.get(stateKey);
    identifiers = await HarvestedIdentifiers.load(target.harvestState, identifiersKey, settings.idPrefix);
  } catch (error) {
    io.stderr.write(`catalog-versions: ${(error as Error).message}\n`);
    await target.close().catch(() => undefined);
    return EXIT_FAILED;
  }
  if (from !== undefined && options.from === undefined) io.stderr.write(`Continuing from the last harvest: --from ${from}\n`);
  const oai = harvestOai({
    baseUrl: options.baseUrl,
    metadataPrefix: options.prefix,
    ...(options.set !== undefined ? { set: options.set } : {}),
    ...(from !== undefined ? { from } : {}),
    ...(options.until !== undefined ? { until: options.until } : {}),
  });
  const clock = new Date();
  const bar = options.progress && io.stderr.isTTY === true ? new ProgressBar(io.stderr, undefined, 'record') : undefined;
  const mapping = { prefix: options.prefix, local: settings };
  return runReported(io, options.baseUrl, target, 'records', bar, () => runIngest<HarvestedRecord>({
    items: identifiers.translateDeletions(oai as AsyncIterable<SourceItem<HarvestedRecord>>),
    toDocument: (record, _position, keyProfile) => {
      const mapped = harvestedRecordToDocument(record, { ...mapping, keyProfile });
      if (isRecordDeletion(mapped)) identifiers.forget(record.identifier);
      else if (typeof (mapped as { id?: unknown }).id === 'string') identifiers.remember(record.identifier, (mapped as { id: string }).id);
      return mapped;
    },
    writer: announcingClose(target.openWriter(), bar),
    now: () => clock,
    ...(options.batchSize !== undefined ? { batchSize: options.batchSize } : {}),
    onProgress: (progress) => bar?.update(progress.read, progress.read),
    ...recordReports(io, bar),
  }), async () => {
    const { responseDate } = oai.summary();
    // Only a harvest that went to the end moves the starting point of the next one.
    if (target.harvestState !== undefined) {
      await identifiers.save(target.harvestState, identifiersKey);
      await target.harvestState.set(stateKey, responseDate);
      return ` Next harvest continues from ${responseDate}.`;
    }
    return ` Harvest date ${responseDate} (give --state FILE to keep it, and which OAI identifier each record came from, for the next run).`;
  });
}
