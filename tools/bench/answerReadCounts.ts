/**
 * What the embedded index reads for an answer built afresh, counted by the size of the record's work: the
 * statements it runs (by their SQL, shortened), the rows they give, and the documents it parses with
 * their fields (JSON.parse of an object text, counted while the index answers). One build, the bench's mix
 * of records never asked before (freshRequestMix.ts), getRecord then findVersionsOf as listVersions asks
 * them for the feed or the page. Counts, not times: they are the same on a busy machine.
 *
 * Usage: node dist/tools/bench/answerReadCounts.js --records N --index <file> --root <package root>
 *          [--requests N] [--view rss|html] [--statements]
 * With --statements, each class's statements are listed by their SQL too.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { DEFAULT_SEED } from './catalogGenerator.js';
import { freshRequestMix } from './freshRequestMix.js';
import { SIZE_CLASSES, sizeClassOf } from './workSizeClasses.js';
import type { EmbeddedIndex } from '../../src/adapters/sqlite/embeddedIndex.js';
import { flag, option } from './benchCommandLine.js';
import { versionsQueryOf } from '../../src/versions/listVersions.js';

interface Counts {
  answers: number;
  statements: number;
  rows: number;
  documents: number;
  fields: number;
  bySql: Map<string, { runs: number; rows: number }>;
}

async function main(): Promise<void> {
  const root = option('--root');
  const view = option('--view', 'rss');
  if (view !== 'rss' && view !== 'html') throw new Error(`--view rss or --view html, not ${view}`);
  // The build's own better-sqlite3, its statements' methods wrapped to count runs and rows.
  const Database = createRequire(join(root, 'package.json'))('better-sqlite3') as { prototype: object };
  const statementPrototype = Object.getPrototypeOf((new (Database as unknown as new (path: string) => { prepare(sql: string): object })(':memory:')).prepare('SELECT 1')) as Record<string, unknown>;
  let current: Counts | undefined;
  const counted = (name: 'all' | 'get') => {
    const run = statementPrototype[name] as (...args: unknown[]) => unknown;
    statementPrototype[name] = function (this: { source: string }, ...args: unknown[]) {
      const result = run.apply(this, args);
      if (current !== undefined) {
        const rows = name === 'all' ? (result as unknown[]).length : result === undefined ? 0 : 1;
        current.statements += 1;
        current.rows += rows;
        const text = this.source.replace(/\s+/g, " ");
        const sql = text.length > 110 ? `${text.slice(0, 50)} … ${text.slice(-55)}` : text;
        const bySql = current.bySql.get(sql) ?? { runs: 0, rows: 0 };
        bySql.runs += 1;
        bySql.rows += rows;
        current.bySql.set(sql, bySql);
      }
      return result;
    };
  };
  counted('all');
  counted('get');
  const parse = JSON.parse;
  JSON.parse = function (text: string, reviver?: Parameters<typeof JSON.parse>[1]) {
    const value = parse(text, reviver) as unknown;
    if (current !== undefined && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      current.documents += 1;
      current.fields += Object.keys(value).length;
    }
    return value;
  };

  const module = await import(join(root, 'dist/src/adapters/sqlite/index.js')) as { openEmbeddedIndex(options: { path: string; readOnly: boolean }): EmbeddedIndex };
  const index = module.openEmbeddedIndex({ path: option('--index'), readOnly: true });
  const query = versionsQueryOf({ view, page: 1 });
  const byClass = new Map<string, Counts>();
  for (const { id, workSize } of freshRequestMix(Number(option('--records')), Number(option('--requests', '6000')), DEFAULT_SEED)) {
    const name = sizeClassOf(workSize);
    current = byClass.get(name) ?? { answers: 0, statements: 0, rows: 0, documents: 0, fields: 0, bySql: new Map() };
    byClass.set(name, current);
    current.answers += 1;
    const record = await index.getRecord(id);
    if (record === undefined) throw new Error(`sample record ${id} is not in the index`);
    await index.findVersionsOf(record, query);
    current = undefined;
    // As between requests: what the index keeps for one event-loop turn is let go.
    await new Promise((resolve) => setImmediate(resolve));
  }
  await index.close();

  const per = (value: number, counts: Counts) => (value / counts.answers).toFixed(1).padStart(6);
  const lines = [`${view}, per answer (getRecord + findVersionsOf), ${root}`];
  for (const [, name] of SIZE_CLASSES) {
    const counts = byClass.get(name);
    if (counts === undefined) continue;
    lines.push(`  work of ${name.padEnd(7)} ${String(counts.answers).padStart(5)} answers: statements ${per(counts.statements, counts)}, rows ${per(counts.rows, counts)}, documents parsed ${per(counts.documents, counts)}, their fields ${per(counts.fields, counts)}`);
    if (flag('--statements')) {
      for (const [sql, { runs, rows }] of [...counts.bySql].sort((x, y) => y[1].runs - x[1].runs)) {
        lines.push(`      ${per(runs, counts)} runs, ${per(rows, counts)} rows: ${sql}`);
      }
    }
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
