/**
 * The Solr adapter alone, two builds side by side in one process (issue 23, item 6): for records of the
 * benchmark's mix, one answer at a time, each build's `getRecord` then `findVersionsOf` as listVersions asks
 * them (the feed: newest first, 50; the page: relevance, 20, with facets), in blocks of 100 records that
 * alternate which build goes first. Reported: this process's CPU per answer for each build (the HTTP
 * exchanges with Solr, the work index file, documents into records), without Koa, the views or the load
 * of 50 connections that solrFreshSideBySide.ts adds.
 *
 * Needs the core and the two work index files a run of solrFreshSideBySide.ts left (its --keep files).
 * Usage: node dist/tools/bench/solrAdapterSideBySide.js --url <core URL> --a <root>:<file> --b <root>:<file>
 *          [--records 200000] [--ids 2000]
 */
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CatalogIndex } from '../../src/ports.js';
import { option } from './benchCommandLine.js';
import { DEFAULT_SEED, planCatalog, requestIds, sampleCatalog } from './catalogGenerator.js';
import { fmt } from './loadDriver.js';

const BLOCK = 100;

async function main(): Promise<void> {
  const url = option('--url');
  const records = Number(option('--records', '200000'));
  const count = Number(option('--ids', '2000'));
  const open = async (given: string): Promise<CatalogIndex> => {
    const [root, file] = given.split(':') as [string, string];
    const { createSolrIndex } = await import(join(resolve(root), 'dist/src/adapters/solr/solrIndex.js')) as typeof import('../../src/adapters/solr/solrIndex.js');
    return createSolrIndex({ url, workIndex: { path: file }, versionCheckMs: 0, timeoutMs: 60_000 });
  };
  const builds = { a: await open(option('--a')), b: await open(option('--b')) };
  const wanted = Math.min(Math.floor(records * 0.75), 150_000);
  // Another draw than solrFreshSideBySide.ts's, so its runs do not warm Solr's caches for these records.
  const ids = requestIds(sampleCatalog(planCatalog(records, DEFAULT_SEED), wanted, Math.round(wanted / 19)), DEFAULT_SEED + 11).slice(0, count);
  const spent = { a: { cpuMs: 0, answers: 0 }, b: { cpuMs: 0, answers: 0 } };
  for (let start = 0; start < ids.length; start += BLOCK) {
    for (const name of (start / BLOCK) % 2 === 0 ? ['a', 'b'] as const : ['b', 'a'] as const) {
      const index = builds[name];
      const before = process.cpuUsage();
      for (const id of ids.slice(start, start + BLOCK)) {
        for (const query of [{ order: 'last-indexed', offset: 0, limit: 50 }, { order: 'relevance', offset: 0, limit: 20, facets: true }] as const) {
          const record = await index.getRecord(id);
          if (record === undefined) continue;
          await index.findVersionsOf!(record, query);
          spent[name].answers++;
        }
      }
      const used = process.cpuUsage(before);
      spent[name].cpuMs += (used.user + used.system) / 1000;
    }
  }
  await builds.a.close();
  await builds.b.close();
  for (const name of ['a', 'b'] as const) {
    console.log(`${name}: ${fmt(spent[name].answers)} answers (feed and page), CPU per answer ${fmt(spent[name].cpuMs / Math.max(1, spent[name].answers), 3)} ms`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().then(() => process.exit(0), (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
