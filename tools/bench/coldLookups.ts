/**
 * Side by side, in one process and one run: findVersions of the embedded index as it is, against one page
 * statement for every work (the statement versionsReads.ts keeps for large works, kept below with the
 * same decoding), for records never asked before. The read path of versions answers built from the index
 * is what limits the "never asked before" HTTP cases; this tool shows what the small-work path and the
 * remembered large works change, by size of work, and checks that both give the same totals and the same
 * records in the same order for every sampled record.
 *
 * CPU time (process.cpuUsage) rather than wall time, because the machines this runs on are shared; the two
 * variants alternate in blocks of ids, each block run by one variant first and by the other second, so the
 * SQLite page cache warmed by the first run of a block helps both alike.
 *
 * Usage: node dist/tools/bench/coldLookups.js <index path> <records> [seed] [sampled records]
 *        (an index built by runBench; 20,000 sampled records by default, plus 5% from the largest works)
 */
import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
import { openEmbeddedIndex } from '../../src/adapters/sqlite/index.js';
import type { CatalogRecord } from '../../src/record/catalogRecord.js';
import { RECORD_COLUMNS, recordOfRow, type RecordRow } from '../../src/adapters/sqlite/indexTables.js';
import type { VersionsOrder } from '../../src/ports.js';
import { DEFAULT_SEED, planCatalog, sampleCatalog } from './catalogGenerator.js';

const require = createRequire(import.meta.url);

/** One statement for a page with its total, whatever the size of the work. */
const KEYED = 'FROM records_by_key WHERE key_id IN (SELECT value FROM json_each(?))';
const ONE_STATEMENT = (order: string, columns: string) => `
    WITH versions AS MATERIALIZED (SELECT ${columns} ${KEYED} GROUP BY record_id),
         page AS (SELECT * FROM versions ORDER BY ${order} LIMIT ? OFFSET ?)
    SELECT ${RECORD_COLUMNS}, (SELECT COUNT(*) FROM versions) AS total
      FROM page JOIN records AS r ON r.id = page.record_id
     ORDER BY ${order.replace(/(last_indexed|record_id)/g, 'page.$1')}`;
const EARLIER_NEWEST_FIRST = ONE_STATEMENT('last_indexed DESC, record_id', 'record_id, MAX(last_indexed) AS last_indexed');
const EARLIER_BY_ID = ONE_STATEMENT('record_id', 'record_id');
type PageRow = RecordRow & { total: number };

interface Page { total: number; records: readonly CatalogRecord[] }

async function main(): Promise<void> {
  const [path, recordsText, seedText, sampledText] = process.argv.slice(2);
  if (path === undefined || recordsText === undefined) throw new Error('usage: coldLookups <index path> <records> [seed] [sampled records]');
  const plan = planCatalog(Number(recordsText), seedText === undefined ? DEFAULT_SEED : Number(seedText));
  const sampled = sampledText === undefined ? 20_000 : Number(sampledText);
  const sample = sampleCatalog(plan, sampled, Math.max(20, Math.round(sampled / 20)));
  const ids = [...sample.typical, ...sample.large];

  const index = openEmbeddedIndex({ path, readOnly: true });
  const BetterSqlite3 = require('better-sqlite3') as typeof Database;
  const db = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
  const count = db.prepare<[string], number>(`SELECT COUNT(*) FROM (SELECT DISTINCT record_id ${KEYED})`).pluck();
  const keyIdsOf = db.prepare<[string], string>('SELECT key_ids FROM records WHERE id = ?').pluck();
  const earlierStatements = {
    'last-indexed': db.prepare<[string, number, number], PageRow>(EARLIER_NEWEST_FIRST),
    relevance: db.prepare<[string, number, number], PageRow>(EARLIER_BY_ID),
  };
  const earlier = (keyIds: string, order: 'last-indexed' | 'relevance', limit: number): Page => {
    const rows = earlierStatements[order].all(keyIds, limit, 0);
    return { total: rows[0]?.total ?? count.get(keyIds) ?? 0, records: rows.map(recordOfRow) };
  };
  const now = async (workKeys: readonly string[], order: 'last-indexed' | 'relevance', limit: number): Promise<Page> =>
    index.findVersions({ workKeys, order, offset: 0, limit });

  // The keys of each sampled record, read once up front (getRecord is the same in both variants).
  const items: Array<{ keys: readonly string[]; keyIds: string; size: number }> = [];
  for (const { id, workSize } of ids) {
    const record = await index.getRecord(id);
    if (record !== undefined && record.workKeys.length > 0) items.push({ keys: record.workKeys, keyIds: keyIdsOf.get(id) ?? '[]', size: workSize });
  }
  const buckets: ReadonlyArray<readonly [number, number]> = [[1, 1], [2, 7], [8, 20], [21, 100], [101, 1_000], [1_001, Number.MAX_SAFE_INTEGER]];
  const spent = buckets.map(() => ({ n: 0, earlierUs: 0, nowUs: 0 }));
  let differences = 0;
  const BLOCK = 50;
  for (const order of ['last-indexed', 'relevance'] as const) {
    const limit = order === 'last-indexed' ? 50 : 20;
    for (let start = 0; start < items.length; start += BLOCK) {
      const block = items.slice(start, start + BLOCK);
      const runEarlier = () => block.map((item) => {
        const before = process.cpuUsage();
        const page = earlier(item.keyIds, order, limit);
        const used = process.cpuUsage(before);
        spent[buckets.findIndex(([lo, hi]) => item.size >= lo && item.size <= hi)]!.earlierUs += used.user + used.system;
        return page;
      });
      const runNow = async () => {
        const pages: Page[] = [];
        for (const item of block) {
          const before = process.cpuUsage();
          pages.push(await now(item.keys, order, limit));
          const used = process.cpuUsage(before);
          const bucket = spent[buckets.findIndex(([lo, hi]) => item.size >= lo && item.size <= hi)]!;
          bucket.nowUs += used.user + used.system;
          bucket.n++;
        }
        return pages;
      };
      let a: Page[];
      let b: Page[];
      if ((start / BLOCK) % 2 === 0) {
        a = runEarlier();
        b = await runNow();
      } else {
        b = await runNow();
        a = runEarlier();
      }
      a.forEach((page, i) => {
        if (JSON.stringify(page) !== JSON.stringify(b[i])) differences++;
      });
    }
  }
  await index.close();
  db.close();

  const rows = buckets.map(([lo, hi], k) => {
    const s = spent[k]!;
    return s.n === 0 ? undefined : `  work size ${lo}${hi === lo ? '' : hi === Number.MAX_SAFE_INTEGER ? '+' : `-${hi}`}: ${s.n} lookups, before ${(s.earlierUs / s.n).toFixed(1)} us, after ${(s.nowUs / s.n).toFixed(1)} us CPU each`;
  }).filter((row) => row !== undefined);
  const total = spent.reduce((sum, s) => ({ n: sum.n + s.n, earlierUs: sum.earlierUs + s.earlierUs, nowUs: sum.nowUs + s.nowUs }), { n: 0, earlierUs: 0, nowUs: 0 });
  process.stdout.write([
    `findVersions for records never asked before, ${items.length} sampled records x 2 orders (feed 50, page 20), CPU time; before: one statement for every work; after: as the index reads:`,
    ...rows,
    `  all: before ${(total.earlierUs / total.n).toFixed(1)} us, after ${(total.nowUs / total.n).toFixed(1)} us (${((1 - total.nowUs / total.earlierUs) * 100).toFixed(1)}% less)`,
    `  answers that differ (total, records, order): ${differences}`,
  ].join('\n') + '\n');
  if (differences > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`coldLookups: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
