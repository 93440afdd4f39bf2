/**
 * The embedded index's storage of harvest state (the HarvestState port, src/ports.ts): the `harvests`
 * table of its file (indexTables.ts), one row per harvest key. What harvest state is for, and the JSON
 * file a Solr target keeps it in, are src/ingest/harvestState.ts's.
 */
import type Database from 'better-sqlite3';
import { IndexUnavailableError, InvalidArgumentError, InvalidOptionError } from '../../errors.js';
import type { HarvestState } from '../../ports.js';

export interface HarvestTableContext {
  readonly readOnly: boolean;
  /** Throws when the index has been closed. */
  readonly ensureOpen: () => void;
  /** Called after each write, so answers kept from before are dropped. */
  readonly markWritten: () => void;
}

export function harvestTableOf(db: Database.Database, context: HarvestTableContext): HarvestState {
  // Files made before harvests were recorded have no table until a writable open adds it.
  const hasHarvests = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'harvests'").get() !== undefined;
  let read: Database.Statement<[string], { response_date: string }> | undefined;
  const readStatement = () => (hasHarvests || !context.readOnly
    ? (read ??= db.prepare<[string], { response_date: string }>('SELECT response_date FROM harvests WHERE key = ?'))
    : undefined);
  return {
    async get(key) {
      if (typeof key !== 'string') throw new InvalidArgumentError('harvestState.get', 'key', 'a harvest key (a string)', key);
      context.ensureOpen();
      try {
        return readStatement()?.get(key)?.response_date;
      } catch (cause) {
        throw new IndexUnavailableError(`Embedded index: harvest state failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
      }
    },
    async set(key, responseDate) {
      if (typeof key !== 'string') throw new InvalidArgumentError('harvestState.set', 'key', 'a harvest key (a string)', key);
      if (typeof responseDate !== 'string') throw new InvalidArgumentError('harvestState.set', 'responseDate', 'the response date of the harvest (a string)', responseDate);
      context.ensureOpen();
      if (context.readOnly) throw new InvalidOptionError('readOnly', 'this index was opened read-only');
      db.prepare('INSERT OR REPLACE INTO harvests (key, response_date) VALUES (?, ?)').run(key, responseDate);
      context.markWritten();
    },
  };
}
