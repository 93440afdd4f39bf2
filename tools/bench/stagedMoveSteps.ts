/**
 * Benchmark aid (run by hand): the staged bulk load's final move (tableWriters.ts, stagedLoad) timed statement
 * by statement. Stages generated documents (prepared and keyed as the pipeline prepares them) into an empty
 * index file on one connection, then moves them, reporting each statement's wall and process CPU time, so
 * that where the move's time goes is measured, not guessed. The file's journal mode is the first load's
 * (stagedLoadOffThread.ts: out of the write-ahead log).
 *
 * Usage: node stagedMoveSteps.js <file path> <records> [<pragma>=<value> ...]  (pragmas set before the move)
 */
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
import { openEmbeddedIndex } from '../../src/adapters/sqlite/index.js';
import { stagedLoad, stagedRowsOf } from '../../src/adapters/sqlite/tableWriters.js';
import { prepareRecordDocument } from '../../src/ingest/prepareRecordDocument.js';
import type { PreparedRecordDocument } from '../../src/ports.js';
import { DEFAULT_SEED, generateRecords, planCatalog } from './catalogGenerator.js';

const require = createRequire(import.meta.url);

interface Step { readonly sql: string; readonly ms: number; readonly cpuMs: number }

/** The connection with exec and prepared statements' run/all timed while `timing` is on. */
function timedConnection(db: Database.Database, steps: Step[], timing: () => boolean): Database.Database {
  const timed = <T>(sql: string, run: () => T): T => {
    if (!timing()) return run();
    const cpu = process.cpuUsage();
    const started = process.hrtime.bigint();
    const result = run();
    const used = process.cpuUsage(cpu);
    steps.push({ sql: sql.replace(/\s+/g, ' ').trim().slice(0, 90), ms: Number(process.hrtime.bigint() - started) / 1e6, cpuMs: (used.user + used.system) / 1000 });
    return result;
  };
  return new Proxy(db, {
    get(target, name) {
      if (name === 'exec') return (sql: string) => timed(sql, () => target.exec(sql));
      if (name === 'prepare') {
        return (sql: string) => {
          const statement = target.prepare(sql);
          const wrap = (s: Database.Statement): Database.Statement => new Proxy(s, {
            get(st, member) {
              if (member === 'run' || member === 'all') return (...args: unknown[]) => timed(sql, () => (st[member] as (...a: unknown[]) => unknown)(...args));
              if (member === 'pluck' || member === 'raw') return (...args: unknown[]) => wrap((st[member] as (...a: unknown[]) => Database.Statement)(...args));
              const value = Reflect.get(st, member) as unknown;
              return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(st) : value;
            },
          });
          return wrap(statement);
        };
      }
      const value = Reflect.get(target, name) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

async function main(): Promise<void> {
  const [path, recordsText, ...pragmas] = process.argv.slice(2);
  if (path === undefined || recordsText === undefined) throw new Error('usage: stagedMoveSteps <file path> <records> [pragma=value ...]');
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${path}${suffix}`, { force: true });
  await openEmbeddedIndex({ path, create: true }).close();
  const BetterSqlite3 = require('better-sqlite3') as typeof Database;
  const raw = new BetterSqlite3(path);
  raw.pragma('journal_mode = DELETE');
  raw.pragma('synchronous = NORMAL');
  const steps: Step[] = [];
  let timing = false;
  const load = stagedLoad(timedConnection(raw, steps, () => timing));
  const now = new Date('2025-07-01T00:00:00Z');
  let batch: PreparedRecordDocument[] = [];
  const stageStarted = process.hrtime.bigint();
  for (const generated of generateRecords(planCatalog(Number(recordsText), DEFAULT_SEED))) {
    batch.push(prepareRecordDocument(generated, now).document);
    if (batch.length === 1000) {
      load.writeRows(stagedRowsOf(batch));
      batch = [];
    }
  }
  if (batch.length > 0) load.writeRows(stagedRowsOf(batch));
  const staged = Number(process.hrtime.bigint() - stageStarted) / 1e9;
  for (const pragma of pragmas) raw.pragma(pragma);
  timing = true;
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  load.finish();
  const used = process.cpuUsage(cpu);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  raw.close();
  for (const step of steps) if (step.ms >= 20) process.stdout.write(`${step.ms.toFixed(0).padStart(7)} ms ${step.cpuMs.toFixed(0).padStart(7)} cpu  ${step.sql}\n`);
  process.stdout.write(`staged (generate, prepare, stage) ${staged.toFixed(1)} s; move ${(ms / 1000).toFixed(2)} s wall, ${((used.user + used.system) / 1e6).toFixed(2)} s CPU; pragmas ${pragmas.join(' ') || 'none'}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`stagedMoveSteps: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
