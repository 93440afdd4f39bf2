/**
 * The embedded catalog index: a SQLite database (better-sqlite3) in a file or in memory. It ships with the
 * plugin for small catalogs, the demo and the tests. This module opens the file, brings it to the current
 * layout, answers the read port (CatalogIndex, src/ports.ts) turning engine failures into
 * IndexUnavailableError, and keeps the content version that tells when kept answers went stale. The rest
 * is in modules of one job each: the tables and how a record is stored (indexTables.ts), the read path
 * (versionsReads.ts), writers and their turns (writerTurns.ts, tableWriters.ts), 0.1.0 files
 * (legacyLayouts.ts), the demo's search (recordSearch.ts), harvest state (harvestTable.ts). Loading
 * documents is the ingest pipeline's (src/ingest/), through the writers this index opens.
 */
import { createRequire } from 'node:module';
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type Database from 'better-sqlite3';
import { IndexFileMissingError, IndexUnavailableError, InvalidArgumentError, InvalidOptionError } from '../../errors.js';
import { versionsOfKeylessRecord, type CatalogIndex, type HarvestState, type IngestWriter, type RecordVersionsQuery, type VersionsPage, type VersionsQuery } from '../../ports.js';
import type { CatalogRecord } from '../../record/catalogRecord.js';
import { checkRecord, checkRecordId, checkRecordIds, checkVersionsQuery } from '../../portArguments.js';
import { holdsRecords, LAST_LEGACY_SCHEMA_VERSION, SCHEMA, SCHEMA_VERSION, SCHEMA_WITHOUT_KEY_TOTALS, schemaVersionOf } from './indexTables.js';
import { harvestTableOf } from './harvestTable.js';
import { addKeyTotals, legacyReads, migrateLegacyFile } from './legacyLayouts.js';
import { recordSearchOn, type RecordSearchOptions, type RecordSearchResult } from './recordSearch.js';
import { currentReads, type IndexReads } from './versionsReads.js';
import { workCurationOn, type WorkCuration } from './curationTable.js';
import { writerTurnsOn } from './writerTurns.js';
import { keyProfileRecordOn, type KeyProfileRecord } from './keyProfileRecord.js';
import { checkKeyProfile, type WorkKeyProfileName } from '../../work-keys/workKeyProfiles.js';

export { LOAD_BATCH_SIZES } from './writerTurns.js';
export type { RecordSearchResult } from './recordSearch.js';

export interface EmbeddedIndexOptions {
  /** A file path, or `':memory:'` for an index that lives as long as the process. */
  readonly path: string;
  /**
   * Open an existing file for reading only: a server that never loads. Any number of processes may hold
   * such opens of one file (one per core, docs/deployment.md) while one other process loads into it; each
   * sees a committed load from its next event-loop turn on (contentVersion below).
   */
  readonly readOnly?: boolean;
  /**
   * Create the file when it does not exist, as `catalog-versions load` does. Without it a missing file is
   * refused (IndexFileMissingError, naming the path): a server given a wrong path would otherwise create
   * an empty index there and answer every versions request with a 404. Not with `readOnly`.
   */
  readonly create?: boolean;
  /**
   * The work-key profile loads key records with (src/work-keys/workKeyProfiles.ts): `extended` or
   * `vufind`. A new file records the profile of its first load (default `extended`); a file keyed with
   * another profile than the one asked for is refused (KeyProfileMismatchError; keyProfileRecord.ts).
   */
  readonly keyProfile?: WorkKeyProfileName;
}

/**
 * The embedded index as the ports and the CLI use it. Hosts get it from `koa-catalog-versions/sqlite`
 * (src/entries/sqlite.ts) as `EmbeddedIndex`, which adds the deprecated `load` method.
 */
export interface SqliteIndex extends CatalogIndex {
  /** The versions of a record this index gave out, from the key ids stored with it (the port's optional method, always offered here). */
  findVersionsOf(record: CatalogRecord, query: RecordVersionsQuery): Promise<VersionsPage>;
  /**
   * A writer for the ingest pipeline (`runIngest`, `loadDocuments`). Writers take turns: one opened while
   * another is writing waits for it to close. Into an empty index the writer stages everything and builds
   * the tables when closed.
   */
  openWriter(description?: string): IngestWriter;
  /** How many records the index holds. */
  count(): Promise<number>;
  /** Whether it holds any record (the port's optional method, always offered here; cheaper than count). */
  hasRecords(): Promise<boolean>;
  /**
   * Records whose title or author contain every word of `text` (case- and accent-insensitive), by id:
   * a small catalog's search box (the demo's). Not part of the port: a host on Solr searches Solr.
   */
  searchRecords(text: string, options?: RecordSearchOptions): Promise<RecordSearchResult>;
  /** Where harvests into this index remember how far they got (kept in the index file). */
  readonly harvestState: HarvestState;
  /** The work-key profile this index is keyed with (its writers' `keyProfile`). */
  readonly keyProfile: WorkKeyProfileName;
  /** The library's merges and splits of groups, applied to every load (curationTable.ts, docs/curation.md). */
  readonly curation: WorkCuration;
}

/**
 * SQLite's page cache of a read-only open, in KiB (better-sqlite3's default is 16,000). A server's reads
 * of records never asked before land on pages spread over the whole file, which a cache of any size a
 * server can hold seldom has: what a larger cache keeps beyond the tables' inner pages, read by every
 * lookup, is mostly pages not read again, held in the process's own memory while the operating system
 * keeps the file's pages for all processes (docs/benchmarks.md, "Figures behind choices in the code"). Writable opens
 * keep the default, for loads.
 */
const READ_ONLY_PAGE_CACHE_KIB = 4000;

// Loaded on first open, so that a host importing the package without the embedded index never loads the
// native module.
const require = createRequire(import.meta.url);
let databaseClass: typeof Database | undefined;
const betterSqlite3 = () => (databaseClass ??= require('better-sqlite3') as typeof Database);

function unavailable(action: string, cause: unknown): IndexUnavailableError {
  return new IndexUnavailableError(`Embedded index: ${action} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
}

/**
 * Brings a writable file to the current layout (creating it, or rebuilding a file of an earlier one); a
 * read-only file is read as it is. Answers whether the file has the current layout.
 */
function prepareSchema(db: Database.Database, readOnly: boolean): boolean {
  const { version, hasTables } = schemaVersionOf(db);
  const legacy = hasTables && version <= LAST_LEGACY_SCHEMA_VERSION;
  if (readOnly) return !legacy;
  if (legacy) {
    migrateLegacyFile(db);
  } else {
    db.transaction(() => {
      if (hasTables && version === SCHEMA_WITHOUT_KEY_TOTALS) addKeyTotals(db);
      db.exec(SCHEMA);
      if (version !== SCHEMA_VERSION) db.pragma(`user_version = ${SCHEMA_VERSION}`);
    })();
  }
  return true;
}

/**
 * The options' checker: refuses wrong options and a path that cannot be opened, naming it, before
 * better-sqlite3 is asked (which would create a missing file).
 */
function checkOptions(options: unknown): asserts options is EmbeddedIndexOptions {
  if (options === null || typeof options !== 'object' || typeof (options as { path?: unknown }).path !== 'string' || (options as { path: string }).path === '') {
    throw new InvalidOptionError('path', "give a file path or ':memory:'");
  }
  const { path, readOnly, create, keyProfile } = options as EmbeddedIndexOptions;
  if (keyProfile !== undefined) checkKeyProfile(keyProfile);
  if (create !== undefined && typeof create !== 'boolean') throw new InvalidOptionError('create', `give true or false, not ${JSON.stringify(create)}`);
  if (create === true && readOnly === true) throw new InvalidOptionError('create', 'a read-only open cannot create the index file: leave out one of create and readOnly');
  if (path === ':memory:') return;
  const folder = dirname(resolve(path));
  if (!existsSync(folder)) throw new InvalidOptionError('path', `the folder ${folder} of the index file ${path} does not exist`);
  if (existsSync(path) && statSync(path).isDirectory()) throw new InvalidOptionError('path', `${path} is a folder, not an index file`);
  if (create !== true && !existsSync(path)) throw new IndexFileMissingError(path, resolve(path), readOnly === true);
}

export function openSqliteIndex(options: EmbeddedIndexOptions): SqliteIndex {
  checkOptions(options);
  const readOnly = options.readOnly === true;
  let db: Database.Database;
  try {
    db = new (betterSqlite3())(options.path, readOnly ? { readonly: true, fileMustExist: true } : {});
  } catch (cause) {
    throw unavailable(`opening ${options.path}`, cause);
  }
  try {
    if (!readOnly) {
      if (options.path !== ':memory:') db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
    } else {
      db.pragma(`cache_size = -${READ_ONLY_PAGE_CACHE_KIB}`);
    }
    const currentLayout = prepareSchema(db, readOnly);
    const profile = keyProfileRecordOn(db, options.path === ':memory:' ? 'the embedded index' : `the index file ${options.path}`, options.keyProfile, readOnly);
    return embeddedIndexOn(db, readOnly, currentLayout, profile);
  } catch (error) {
    db.close();
    // A first load killed in its final move leaves its rollback journal (stagedLoadOffThread.ts), which
    // only a writable open can roll back; SQLite refuses to read the file until then.
    if (readOnly && existsSync(`${options.path}-journal`)) {
      throw new IndexUnavailableError(`Embedded index: ${options.path} holds a load that was interrupted (its journal ${options.path}-journal is there); open it once without readOnly (a server that loads, or any load) to roll it back to the index before that load`, { cause: error });
    }
    throw error;
  }
}

function embeddedIndexOn(db: Database.Database, readOnly: boolean, currentLayout: boolean, profile: KeyProfileRecord): SqliteIndex {
  const reads: IndexReads = currentLayout ? currentReads(db) : legacyReads(db);
  const countRecords = db.prepare<[], number>('SELECT COUNT(*) FROM records').pluck();
  const search = recordSearchOn(db, currentLayout);

  // PRAGMA data_version changes when another connection (a loader in another process) commits; this
  // connection's own loads count in ownWrites. Together they tell when answers built earlier went stale.
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  let ownWrites = 0;
  // Reading data_version takes a read transaction (shared-memory locks, a tenth of a kept answer's time
  // under load), so the requests handled in one event-loop turn share one reading: another process's
  // commit is seen from the next turn on, as if those requests had come a moment earlier. This
  // connection's own loads are seen at once.
  let versionThisTurn: string | undefined;
  const markWritten = () => {
    ownWrites += 1;
    versionThisTurn = undefined;
    reads.forgetRecent?.();
  };

  let open = true;
  const ensureOpen = () => {
    if (!open) throw new IndexUnavailableError('Embedded index: used after close()');
  };
  const writers = writerTurnsOn(db, { readOnly, ensureOpen, markWritten, keyProfile: profile.profile });
  const harvestState = harvestTableOf(db, { readOnly, ensureOpen, markWritten });

  const curation = workCurationOn(db, readOnly, markWritten);

  return {
    curation,
    keyProfile: profile.profile,

    async getRecord(id) {
      checkRecordId('getRecord', id);
      ensureOpen();
      try {
        return reads.getRecord(id);
      } catch (cause) {
        throw unavailable('record lookup', cause);
      }
    },

    async findVersions(query: VersionsQuery): Promise<VersionsPage> {
      checkVersionsQuery(query);
      ensureOpen();
      try {
        return reads.findVersions(query);
      } catch (cause) {
        throw unavailable('versions query', cause);
      }
    },

    async findVersionsOf(record: CatalogRecord, query: RecordVersionsQuery): Promise<VersionsPage> {
      checkRecord('findVersionsOf', record);
      checkVersionsQuery({ ...query, workKeys: [] }, 'findVersionsOf');
      ensureOpen();
      try {
        if (reads.findVersionsOf !== undefined) return reads.findVersionsOf(record, query);
        return record.workKeys.length === 0 ? versionsOfKeylessRecord(record, query.offset) : reads.findVersions({ ...query, workKeys: record.workKeys });
      } catch (cause) {
        throw unavailable('versions query', cause);
      }
    },

    async countVersions(ids) {
      checkRecordIds('countVersions', ids);
      ensureOpen();
      try {
        return new Map(reads.countVersions(ids).map((row) => [row.id, Math.max(1, row.versions)]));
      } catch (cause) {
        throw unavailable('version counts', cause);
      }
    },

    contentVersion() {
      ensureOpen();
      if (versionThisTurn !== undefined) return versionThisTurn;
      try {
        versionThisTurn = `${ownWrites}.${dataVersion.get() ?? 0}`;
      } catch (cause) {
        throw unavailable('content version', cause);
      }
      setImmediate(() => {
        versionThisTurn = undefined;
      });
      return versionThisTurn;
    },

    async count() {
      ensureOpen();
      try {
        return countRecords.get() ?? 0;
      } catch (cause) {
        throw unavailable('count', cause);
      }
    },

    async hasRecords() {
      ensureOpen();
      try {
        return holdsRecords(db);
      } catch (cause) {
        throw unavailable('record check', cause);
      }
    },

    openWriter(description = 'embedded index') {
      if (typeof description !== 'string') throw new InvalidArgumentError('openWriter', 'description', 'a string naming the writer for messages, or nothing', description);
      const writer = curation.curating(writers.open(description));
      profile.record();
      return writer;
    },

    async searchRecords(text, searchOptions) {
      ensureOpen();
      return search(text, searchOptions);
    },

    harvestState,

    async close() {
      if (!open) return;
      open = false;
      writers.abandonActive();
      db.close();
    },
  };
}
