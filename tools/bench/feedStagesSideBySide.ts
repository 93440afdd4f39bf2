/**
 * The RSS answer's stages beyond the index, one by one, for two builds side by side in one process: the
 * feed's model (feedModel.ts), its writer (renderVersionsFeed.ts), its bytes (versionsAnswers.ts,
 * slottedFeed) and its validators (versionsValidators.ts), on the pages of the bench's fresh mix, read
 * from the index file once beforehand. The builds alternate block by block, which goes first alternating;
 * the wall time of each stage is summed (process.hrtime), without the answer's promise, cache and body
 * copy around them that answerSideBySide.ts measures too. With --heap (node --expose-gc, and a young
 * generation large enough for no collection inside a step: --max-semi-space-size=512), the bytes each
 * stage allocates on V8's heap per answer instead, for the first 300 pages.
 *
 * Usage: node [--expose-gc --max-semi-space-size=512] dist/tools/bench/feedStagesSideBySide.js --records N --index <file>
 *          --a <package root> --b <package root> [--requests N] [--rounds N] [--min-items N] [--heap]
 * --min-items N keeps only the pages of at least N items (a feed of 40–50 items: --min-items 40).
 * A package root is a checkout with its dist/ built.
 */
import { resolve } from 'node:path';
import { DEFAULT_SEED } from './catalogGenerator.js';
import { freshRequestMix } from './freshRequestMix.js';
import { flag, option } from './benchCommandLine.js';
import { versionsQueryOf } from '../../src/versions/listVersions.js';
import type { EmbeddedIndex } from '../../src/adapters/sqlite/embeddedIndex.js';
import type { VersionsPage } from '../../src/ports.js';
import type { CatalogRecord } from '../../src/record/catalogRecord.js';
import type { VersionsFeedInput } from '../../src/feed/feedModel.js';
import type { VersionsFeedModel } from '../../src/feed/feedViewModel.js';
import type { CompiledFeed } from '../../src/feed/renderVersionsFeed.js';
import type { SlottedFeed } from '../../src/http/versionsAnswers.js';
import type { ValidatorInput, Validators } from '../../src/versions/versionsValidators.js';
import type { LabelCatalogs } from '../../src/i18n/labelCatalogs.js';
import type { ServerTimeZone } from '../../src/feed/rfc822Date.js';

const STAGES = ['model', 'writer', 'bytes', 'validators'] as const;
type Stage = typeof STAGES[number];

interface Read { readonly record: CatalogRecord; readonly page: VersionsPage }

/** One build's stages, each a function of the one before. */
interface Build {
  readonly root: string;
  model(read: Read): VersionsFeedModel;
  writer(model: VersionsFeedModel): CompiledFeed;
  bytes(compiled: CompiledFeed): SlottedFeed;
  validators(read: Read): Validators;
}

async function buildOf(root: string): Promise<Build> {
  const load = (path: string) => import(resolve(root, 'dist/src', path));
  const { buildVersionsFeedModel } = await load('feed/feedModel.js') as { buildVersionsFeedModel(input: VersionsFeedInput): VersionsFeedModel };
  const { compileVersionsFeed } = await load('feed/renderVersionsFeed.js') as { compileVersionsFeed(feed: VersionsFeedModel): CompiledFeed };
  const { slottedFeed } = await load('http/versionsAnswers.js') as { slottedFeed(compiled: CompiledFeed, pubDateOf: (year: number) => Buffer): SlottedFeed };
  const { versionsValidators } = await load('versions/versionsValidators.js') as { versionsValidators(input: ValidatorInput): Validators };
  const { newYearPubDatesAt, processTimeZone } = await load('feed/rfc822Date.js') as {
    newYearPubDatesAt(now: Date, zone: ServerTimeZone, as: (text: string) => Buffer): (year: number) => Buffer; processTimeZone: ServerTimeZone;
  };
  const { openLabelCatalogs } = await load('i18n/labelCatalogs.js') as { openLabelCatalogs(directory: string, languages: readonly string[], fallback: string): LabelCatalogs };
  const { LABELS_DIRECTORY } = await load('packageFiles.js') as { LABELS_DIRECTORY: string };
  const translate = openLabelCatalogs(LABELS_DIRECTORY, ['en'], 'en').translatorFor('en');
  const pubDateOf = newYearPubDatesAt(new Date(), processTimeZone, (text) => Buffer.from(text));
  return {
    root,
    model: ({ record, page }) => buildVersionsFeedModel({
      requestedId: record.id, versions: page, page: 1, language: 'en', baseUrl: 'https://catalog.example.org', translate, generator: 'bench',
    }),
    writer: compileVersionsFeed,
    bytes: (compiled) => slottedFeed(compiled, pubDateOf),
    validators: ({ record, page }) => versionsValidators({ variant: ['bench', 'rss\u0000en\u0000\u0000\u0000\u0000'], requestedRecord: record, versions: page }),
  };
}

/** Every stage at 0 ns: what a build's totals start from. */
function noTime(): Record<Stage, number> {
  return Object.fromEntries(STAGES.map((stage) => [stage, 0])) as Record<Stage, number>;
}

/** Runs one page through a build's stages, adding each stage's nanoseconds to `into`. */
function timed(build: Build, read: Read, into: Record<Stage, number>): void {
  let started = process.hrtime.bigint();
  const lap = (stage: Stage) => {
    const now = process.hrtime.bigint();
    into[stage] += Number(now - started);
    started = now;
  };
  const model = build.model(read);
  lap('model');
  const compiled = build.writer(model);
  lap('writer');
  build.bytes(compiled);
  lap('bytes');
  build.validators(read);
  lap('validators');
}

/** The heap bytes each stage allocates per page, `gc()` before each stage. */
function heapBytes(build: Build, reads: readonly Read[], gc: () => void): Record<Stage, number> {
  const used = () => process.memoryUsage().heapUsed;
  const step = <T>(make: () => T[]): { bytes: number; made: T[] } => {
    gc();
    const before = used();
    const made = make();
    return { bytes: (used() - before) / reads.length, made };
  };
  const models = step(() => reads.map((read) => build.model(read)));
  const compiled = step(() => models.made.map((model) => build.writer(model)));
  const bytes = step(() => compiled.made.map((feed) => build.bytes(feed)));
  const validators = step(() => reads.map((read) => build.validators(read)));
  return { model: models.bytes, writer: compiled.bytes, bytes: bytes.bytes, validators: validators.bytes };
}

async function main(): Promise<void> {
  const records = Number(option('--records'));
  const wanted = Number(option('--requests', '1500'));
  const rounds = Number(option('--rounds', '12'));
  const minItems = Number(option('--min-items', '0'));
  const builds = [await buildOf(option('--a')), await buildOf(option('--b'))];
  const index = (await import(resolve(option('--a'), 'dist/src/adapters/sqlite/index.js')) as { openEmbeddedIndex(options: { path: string; readOnly: boolean }): EmbeddedIndex })
    .openEmbeddedIndex({ path: option('--index'), readOnly: true });
  const query = versionsQueryOf({ view: 'rss', page: 1 });
  const reads: Read[] = [];
  for (const { id } of freshRequestMix(records, wanted, DEFAULT_SEED)) {
    const record = await index.getRecord(id);
    if (record === undefined) throw new Error(`sample record ${id} is not in the index`);
    const page = await index.findVersionsOf(record, query);
    if (page.records.length >= minItems) reads.push({ record, page });
  }
  await index.close();
  const lines = [`rss, the feed's stages beyond the index, ${reads.length} pages, a = ${builds[0]!.root}, b = ${builds[1]!.root}`];

  if (flag('--heap')) {
    const gc = (globalThis as { gc?: () => void }).gc;
    if (gc === undefined) throw new Error('--heap needs node --expose-gc');
    const sample = reads.slice(0, 300);
    // The first two rounds warm both builds up; the last one is reported.
    let last: Array<Record<Stage, number>> = [];
    for (let round = 0; round < 3; round++) last = builds.map((build) => heapBytes(build, sample, gc));
    for (const stage of STAGES) lines.push(`  ${stage.padEnd(10)} heap per answer: a ${(last[0]![stage] / 1024).toFixed(1)} KB, b ${(last[1]![stage] / 1024).toFixed(1)} KB`);
  } else {
    const totals = builds.map(noTime);
    // The first two rounds warm both builds up; their times go to a sink that is not reported.
    const warmUp = noTime();
    const block = 50;
    for (let round = 0; round < rounds; round++) {
      for (let from = 0; from < reads.length; from += block) {
        const order = (round + from / block) % 2 === 0 ? [0, 1] : [1, 0];
        for (const i of order) for (const read of reads.slice(from, from + block)) timed(builds[i]!, read, round >= 2 ? totals[i]! : warmUp);
      }
    }
    const answers = reads.length * Math.max(1, rounds - 2);
    const sum = (total: Record<Stage, number>) => STAGES.reduce((all, stage) => all + total[stage], 0);
    const line = (name: string, a: number, b: number) => `  ${name.padEnd(10)} a ${(a / answers / 1000).toFixed(1).padStart(6)} µs, b ${(b / answers / 1000).toFixed(1).padStart(6)} µs, b/a ${(b / a).toFixed(3)}`;
    for (const stage of STAGES) lines.push(line(stage, totals[0]![stage], totals[1]![stage]));
    lines.push(line('all', sum(totals[0]!), sum(totals[1]!)));
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
