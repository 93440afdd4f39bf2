/**
 * Benchmark child process for the MARC load, in two modes:
 *
 *   write <iso 2709 path> <records> <marcxml path> <records> <seed> <MARC-8 share>
 *       writes the generated catalogs as MARC files (marcCatalog.ts); not a measured figure, so it runs in
 *       its own process and the loading process's peak memory holds nothing of it.
 *   load <format name> <record file> <index path> <records> <seed> [mapping workers]
 *       loads the file into an empty embedded index through the real loader (loadRecordFiles with the
 *       format of src/ingest/recordFormats.ts, writer index.openWriter()), end to end: reading, MARC-8
 *       and UTF-8 decoding, VuFind mapping, work keys, the staged load and the close. It reports records
 *       per second and this process's peak memory, then (outside the timed part) checks that sampled
 *       records have as many versions as the generator planned, so that a mapping which loses the works'
 *       grouping shows up as mismatches and not as a fast load.
 *
 * The record formats module is imported when a load starts: the MARCXML reader may not be in the tree
 * yet, and then only that part fails, with a message the parent shows.
 */
import { rmSync, statSync, writeFileSync } from 'node:fs';
import { openEmbeddedIndex } from '../../src/entries/sqlite.js';
import { loadRecordFiles } from '../../src/cli/loadRecords.js';
import { planCatalog, sampleCatalog } from './catalogGenerator.js';
import { writeIso2709Catalog, writeMarcXmlCatalog, type MarcFileSummary } from './marcCatalog.js';
import { watchMachineShare, type MachineShare } from './machineShare.js';
import { memoryOf, reportToParent } from './processStats.js';

export interface MarcWriteReport {
  readonly type: 'marc-written';
  readonly iso2709: MarcFileSummary;
  readonly marcXml: MarcFileSummary;
  readonly seconds: number;
}

export interface MarcLoadReport {
  readonly type: 'marc-loaded';
  readonly format: string;
  readonly read: number;
  readonly loaded: number;
  readonly rejected: number;
  readonly rejectionExamples: readonly string[];
  readonly seconds: number;
  readonly peakRssBytes: number;
  /** This process's CPU seconds and the other processes' cores during the load (machineShare.ts). */
  readonly share: MachineShare;
  readonly fileBytes: number;
  readonly indexBytes: number;
  /** Sampled records whose version total differs from the planned work size (of `checked`). */
  readonly mismatches: number;
  readonly checked: number;
  readonly mismatchExamples: readonly string[];
}

function write(args: readonly string[]): MarcWriteReport {
  const [isoPath, isoRecords, xmlPath, xmlRecords, seedText, shareText] = args;
  if (isoPath === undefined || isoRecords === undefined || xmlPath === undefined || xmlRecords === undefined || seedText === undefined || shareText === undefined) {
    throw new Error('usage: marcLoad write <iso path> <records> <marcxml path> <records> <seed> <marc-8 share>');
  }
  const started = process.hrtime.bigint();
  const seed = Number(seedText);
  // A part asked for with 0 records gets an empty file, so the parent's reuse check still finds both.
  const none = (path: string): MarcFileSummary => {
    writeFileSync(path, '');
    return { records: 0, marc8Records: 0, bytes: 0 };
  };
  const iso2709 = Number(isoRecords) > 0
    ? writeIso2709Catalog(isoPath, planCatalog(Number(isoRecords), seed), Number(isoRecords), Number(shareText))
    : none(isoPath);
  const marcXml = Number(xmlRecords) > 0
    ? writeMarcXmlCatalog(xmlPath, planCatalog(Number(xmlRecords), seed), Number(xmlRecords))
    : none(xmlPath);
  return { type: 'marc-written', iso2709, marcXml, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

async function load(args: readonly string[]): Promise<MarcLoadReport> {
  const [formatName, file, indexPath, recordsText, seedText, workersText] = args;
  if (formatName === undefined || file === undefined || indexPath === undefined || recordsText === undefined || seedText === undefined) {
    throw new Error('usage: marcLoad load <format> <record file> <index path> <records> <seed>');
  }
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${indexPath}${suffix}`, { force: true });
  const { recordFormatNamed } = await import('../../src/ingest/recordFormats.js');
  const format = recordFormatNamed(formatName);
  if (format === undefined) throw new Error(`no record format named ${formatName}`);

  const started = process.hrtime.bigint();
  const shareSoFar = watchMachineShare();
  const index = openEmbeddedIndex({ path: indexPath, create: true });
  const rejectionExamples: string[] = [];
  let lastReport = Date.now();
  const summary = await loadRecordFiles({
    files: [{ path: file, format }],
    writer: index.openWriter(`embedded index ${indexPath}`),
    // Without the argument, the loader's default (src/cli/loadRecords.ts, defaultMappingWorkers).
    ...(workersText !== undefined ? { workers: Number(workersText) } : {}),
    onRejected: ({ position, reason }) => {
      if (rejectionExamples.length < 5) rejectionExamples.push(`record ${position.recordNumber}${position.id !== undefined ? ` (${position.id})` : ''}: ${reason}`);
    },
    onProgress: ({ read }) => {
      if (Date.now() - lastReport < 5000) return;
      lastReport = Date.now();
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      process.stderr.write(`  loading ${formatName}: ${read.toLocaleString('en')} records, ${Math.round(read / seconds).toLocaleString('en')}/s\n`);
    },
  });
  await index.close();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const share = shareSoFar();
  const peakRssBytes = memoryOf().peakRss;

  // Outside the measured part: do works have their versions, as planned?
  const plan = planCatalog(Number(recordsText), Number(seedText));
  const sample = sampleCatalog(plan, 300, 50);
  const reader = openEmbeddedIndex({ path: indexPath, readOnly: true });
  const mismatchExamples: string[] = [];
  let mismatches = 0;
  let checked = 0;
  try {
    for (const { id, workSize } of [...sample.typical, ...sample.large]) {
      const record = await reader.getRecord(id);
      const total = record === undefined || record.workKeys.length === 0
        ? 0
        : (await reader.findVersions({ workKeys: record.workKeys, order: 'relevance', offset: 0, limit: 1 })).total;
      checked++;
      if (total !== workSize) {
        mismatches++;
        if (mismatchExamples.length < 5) mismatchExamples.push(`${id}: ${record === undefined ? 'not loaded' : `${total} versions`}, planned ${workSize}`);
      }
    }
  } finally {
    await reader.close();
  }
  return {
    type: 'marc-loaded',
    format: formatName,
    read: summary.read,
    loaded: summary.loaded,
    rejected: summary.rejected,
    rejectionExamples,
    seconds,
    peakRssBytes,
    share,
    fileBytes: statSync(file).size,
    indexBytes: statSync(indexPath).size,
    mismatches,
    checked,
    mismatchExamples,
  };
}

const [mode, ...rest] = process.argv.slice(2);
(mode === 'write' ? Promise.resolve().then(() => write(rest)) : mode === 'load' ? load(rest) : Promise.reject(new Error(`unknown mode ${JSON.stringify(mode)}`)))
  .then(reportToParent)
  .then(() => process.exit(0))
  .catch((error: unknown) => {
    process.stderr.write(`marcLoad: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    process.exit(1);
  });
