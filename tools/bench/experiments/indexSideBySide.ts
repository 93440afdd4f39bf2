/**
 * The embedded index's part of answers built afresh, for two builds side by side in one process: each
 * build's index opened read-only on the same file, the bench's mix of records never asked before (as
 * freshAnswers.ts draws it) asked of both in alternating blocks, getRecord then findVersionsOf as
 * listVersions asks them for the feed or the page, and the CPU time of each answer (process.cpuUsage,
 * one thread) summed by the size of the record's work. It also checks that both give the same record and
 * page for every request. Without HTTP, Koa and the views, the index's share is measured more closely
 * than the whole server's CPU per answer can show it on a shared machine.
 *
 * Usage: node dist/tools/bench/experiments/indexSideBySide.js --records N --index <file> --a <package root> --b <package root>
 *          [--requests N] [--block N] [--view rss|html] [--walk] [--index-b <file>]
 * With --index-b, build b reads its own file of the same catalog (a layout build a does not write).
 * With --walk, works of more than 20 records are asked as a crawler walks them: record after record of one work.
 * A package root is a checkout with its dist/ built.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEFAULT_SEED } from '../catalogGenerator.js';
import { cpuBySize, freshRequestMix } from './freshRequestMix.js';
import { sizeClassOf } from './workSizeClasses.js';
import type { EmbeddedIndex } from '../../../src/entries/sqlite.js';
import { option } from './benchCommandLine.js';
import { versionsQueryOf } from '../../../src/versions/listVersions.js';

async function openIndex(root: string, path: string): Promise<EmbeddedIndex> {
  const module = await import(pathToFileURL(resolve(root, 'dist/src/adapters/sqlite/index.js')).href) as { openEmbeddedIndex(options: { path: string; readOnly: boolean }): EmbeddedIndex };
  return module.openEmbeddedIndex({ path, readOnly: true });
}

const cpuMicros = (): number => {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
};

async function main(): Promise<void> {
  const records = Number(option('--records'));
  const wanted = Number(option('--requests', '12000'));
  const block = Number(option('--block', '250'));
  const view = option('--view', 'rss');
  if (view !== 'rss' && view !== 'html') throw new Error(`--view rss or --view html, not ${view}`);
  const path = option('--index');
  const sides = [
    { name: 'a', root: option('--a'), index: await openIndex(option('--a'), path) },
    { name: 'b', root: option('--b'), index: await openIndex(option('--b'), option('--index-b', path)) },
  ];
  // What listVersions asks for the view's first page in its default order.
  const query = versionsQueryOf({ view, page: 1 });

  // The bench's mix of never-asked records (freshRequestMix.ts).
  const asked = freshRequestMix(records, wanted, DEFAULT_SEED);
  if (process.argv.includes('--walk')) {
    // A crawler walking works: for works of more than 20 records met in the mix, up to 40 of their records
    // one after another (the record's versions in id order), at most 30 works of each class.
    const walked: typeof asked = [];
    const works = new Map<string, number>();
    // Listed on an index of its own: what the listing leaves remembered must not help either side.
    const listing = await openIndex(sides[0]!.root, path);
    for (const { id, workSize } of asked) {
      const size = sizeClassOf(workSize);
      if (workSize <= 20 || (works.get(size) ?? 0) >= 30) continue;
      works.set(size, (works.get(size) ?? 0) + 1);
      const record = (await listing.getRecord(id))!;
      const page = await listing.findVersionsOf(record, { order: 'relevance', offset: 0, limit: 40 });
      for (const version of page.records) walked.push({ id: version.id, workSize });
    }
    await listing.close();
    asked.splice(0, asked.length, ...walked);
  }

  const totals = cpuBySize();
  let differing = 0;
  for (let from = 0, turn = 0; from < asked.length; from += block, turn++) {
    const part = asked.slice(from, from + block);
    const answers = new Map<string, string[]>();
    for (const side of turn % 2 === 0 ? sides : [...sides].reverse()) {
      const texts: string[] = [];
      for (const { id, workSize } of part) {
        const started = cpuMicros();
        const record = await side.index.getRecord(id);
        if (record === undefined) throw new Error(`sample record ${id} is not in the index`);
        const page = await side.index.findVersionsOf(record, query);
        const micros = cpuMicros() - started;
        // The first block warms both builds up and is not counted.
        if (turn > 0) totals.add(side.name, workSize, micros);
        // The versions' keys compared only when asked for (a build before versionKeys gives them anyway).
        texts.push(JSON.stringify([record, query.versionKeys === false ? { ...page, records: page.records.map(({ workKeys, ...rest }) => rest) } : page]));
        // As between requests: what the index keeps for one event-loop turn is let go.
        await new Promise((resolve) => setImmediate(resolve));
      }
      answers.set(side.name, texts);
    }
    const [a, b] = [answers.get('a')!, answers.get('b')!];
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) differing += 1;
  }
  await Promise.all(sides.map((side) => side.index.close()));

  const lines = [`${view}, index CPU per answer (getRecord + findVersionsOf), a = ${sides[0]!.root}, b = ${sides[1]!.root}`];
  lines.push(...totals.lines());
  lines.push(`answers with a different record or page: ${differing}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
