/**
 * The work index beside a Solr core (issue 20, item 1): a small SQLite file the plugin owns, holding for
 * every document of the core its id, its work keys (as 63-bit hashes), the time the versions order sorts
 * it by, and the highest `_version_` taken, so that versions can be answered without work keys in the core. Which keys a document has
 * is the caller's `keysOf(document)` (a key profile); the order time comes from documentOrder.ts.
 * Since 0.2.0 it also keeps each document's facet values (the caller's `facetsOf`, documentFacets.ts), so
 * that a work's facets are counted here (facetedVersions) and Solr is asked only for the page's records.
 * A file made before holds none: its state `facet_fields` is unset until a sync fills them in
 * (workIndexSync.ts), and until then the answers read the whole work from Solr, as before.
 *
 * This module opens the file and writes it; its reads are workIndexReads.ts, its generation (what tells a
 * change) fileGeneration.ts, key ids and a document's work documentWork.ts. A little over 300 lines:
 * the WorkIndex interface here is the file's one contract, kept whole with its schema.
 *
 * This module and those only store and answer: walking the core, keeping the file in step and wiring it into the
 * Solr adapter are left to others (nothing here talks to Solr, and nothing here writes to the core).
 */
import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
import { InvalidOptionError } from '../../../errors.js';
import type { DocumentFacetValue } from './documentFacets.js';
import { orderTimeOf, solrVersionOf } from './documentOrder.js';
import { keyIdOf } from './documentWork.js';
import { fileGeneration } from './fileGeneration.js';
import { KeptWorks } from './keptWorks.js';
import { workIndexReads, type WorkIndexReads } from './workIndexReads.js';

export type { FacetedVersions } from './workIndexReads.js';
import { checkKeyProfile, type WorkKeyProfileName } from '../../../work-keys/workKeyProfiles.js';

/**
 * A key profile: the work keys of one stored Solr document (no keys: the document lists itself), or
 * `{ keys, unkeyable }` saying why it could not be keyed at all (src/work-keys/storedDocumentKeys.ts).
 */
export type KeysOf = (document: Readonly<Record<string, unknown>>) => readonly string[] | { keys: readonly string[]; unkeyable?: string };

export interface WorkIndexOptions {
  /** The SQLite file (made when missing), or `:memory:`. */
  path: string;
  keysOf: KeysOf;
  /** A document's facet values (documentFacets.ts), stored with it by put() and putFacets(); without it none are stored. */
  facetsOf?: (document: Readonly<Record<string, unknown>>) => readonly DocumentFacetValue[];
}


/** What one put() did, so that documents that cannot be keyed or ordered are reported, not skipped silently. */
export interface WorkIndexPutSummary {
  stored: number;
  /** Stored with no work key (each lists only itself). */
  withoutKeys: number;
  /** Not stored: no usable id, or neither last_indexed nor _version_ to order them by. */
  refused: Array<{ id: string | undefined; reason: string }>;
  /** Stored without keys because they could not be keyed (no stored title, an unreadable fullrecord): count by reason. */
  unkeyable: Record<string, number>;
}

export interface WorkIndex extends WorkIndexReads {
  /**
   * Adds or replaces documents (as Solr returns them: stored fields and `_version_`), in one transaction.
   * `staged`: a first walk's documents, each new and met once: their key links are appended to a staging
   * table and reach the answers at moveStagedKeys().
   */
  put(documents: ReadonlyArray<Readonly<Record<string, unknown>>>, options?: { staged?: boolean }): WorkIndexPutSummary;
  /** Moves the staged key links into the answers' table, sorted, in one transaction (the end of a first walk). */
  moveStagedKeys(): void;
  /** Rewrites the file without its free pages (after a first walk, the staging table's) and empties its log. */
  compact(): void;
  /** Removes documents by id; how many were there. */
  remove(ids: readonly string[]): number;
  /** Stores (replacing) the facet values of documents the file holds, by id (a file made before they were kept); how many it held. */
  putFacets(documents: ReadonlyArray<Readonly<Record<string, unknown>>>): number;
  /** The highest `_version_` put so far (exact digits), where the next sync starts; `undefined` before any. */
  highestVersion(): string | undefined;
  /** How many documents the file holds. */
  count(): number;
  /** Every id held, in id order, a page at a time after `after` (for the deletion sweep). */
  idsAfter(after: string, limit: number): string[];
  /** A value of the file's own (walks, resumed cursors, the key profile); `undefined` when never set. */
  state(name: string): string | undefined;
  /** Sets values of the file's own, in one transaction with nothing else. */
  setState(values: Readonly<Record<string, string | undefined>>): void;
  /** Runs `work` in one transaction: puts, removals and state commit together or not at all. */
  transaction<T>(work: () => T): T;
  /**
   * A number, kept in the file, that grows with every change to it (documents, keys or state): the answers'
   * version. Read from the file at most once an event-loop turn (a change made through another open of the
   * file shows on the next turn), and again at once after a change made through this one.
   */
  changeCount(): number;
  /** A value of the file's own as state() gives it, read again only when changeCount() changes (every state write changes it). */
  stateThisTurn(name: string): string | undefined;
  close(): void;
}

// Small on disk: a key is kept as a 63-bit hash of its text (the text is made again from the document
// when a record is read, workIndexAnswers.ts); documents and key links are integers; the link table has
// no rowid.
const SCHEMA = `
  CREATE TABLE IF NOT EXISTS documents (
    row INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    ordered_at INTEGER NOT NULL
  );
  CREATE TABLE IF NOT EXISTS document_keys (
    key_id INTEGER NOT NULL,
    row INTEGER NOT NULL,
    PRIMARY KEY (key_id, row)
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS document_keys_by_row ON document_keys (row, key_id);
  CREATE TABLE IF NOT EXISTS state (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS staged_keys (key_id INTEGER NOT NULL, row INTEGER NOT NULL);
  CREATE TABLE IF NOT EXISTS facet_values (
    value_id INTEGER PRIMARY KEY,
    field TEXT NOT NULL,
    value TEXT NOT NULL,
    UNIQUE (field, value)
  );
  CREATE TABLE IF NOT EXISTS document_facets (
    row INTEGER NOT NULL,
    value_id INTEGER NOT NULL,
    PRIMARY KEY (row, value_id)
  ) WITHOUT ROWID;
`;

const require = createRequire(import.meta.url);
let databaseClass: typeof Database | undefined;
const betterSqlite3 = () => (databaseClass ??= require('better-sqlite3') as typeof Database);

/**
 * The profile a work index file is keyed with: the one it records (its first sync wrote `key_profile`),
 * else the one asked for, else `vufind`. Only a profile asked for that differs from the file's is refused
 * (InvalidOptionError naming `option`): keys of two profiles do not meet, so answers or a sync under
 * another profile would split every work.
 */
export function keyProfileOfWorkIndex(index: WorkIndex, path: string, option: string, asked: WorkKeyProfileName | undefined): WorkKeyProfileName {
  const made = index.state('key_profile');
  if (made === undefined) return asked === undefined ? 'vufind' : checkKeyProfile(asked, option);
  const recorded = checkKeyProfile(made, `key_profile (recorded in ${path})`);
  if (asked !== undefined && asked !== recorded) {
    throw new InvalidOptionError(option, `${path} was made with the ${recorded} profile, not ${asked}: leave ${option} out to use the file's, or sync into a new file for ${asked}`);
  }
  return recorded;
}

export function openWorkIndex(options: WorkIndexOptions): WorkIndex {
  if (typeof options !== 'object' || options === null) throw new InvalidOptionError('workIndex', 'needs an object with "path" and "keysOf"');
  if (typeof options.path !== 'string' || options.path === '') throw new InvalidOptionError('workIndex.path', 'must name the work index file');
  if (typeof options.keysOf !== 'function') throw new InvalidOptionError('workIndex.keysOf', 'must be a function from a Solr document to its work keys');
  const db = new (betterSqlite3())(options.path);
  if (options.path !== ':memory:') db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  // Key ids are hashes, so a sync's links land all over the link table: a cache the size of a large
  // file's link table keeps those writes from rereading pages.
  db.pragma('cache_size = -65536');
  db.exec(SCHEMA);
  const { keysOf, facetsOf } = options;

  const upsert = db.prepare(`INSERT INTO documents (id, ordered_at) VALUES (?, ?)
    ON CONFLICT (id) DO UPDATE SET ordered_at = excluded.ordered_at RETURNING row`).pluck();
  const dropKeys = db.prepare('DELETE FROM document_keys WHERE row = ?');
  const addKey = db.prepare('INSERT OR IGNORE INTO document_keys (key_id, row) VALUES (?, ?)');
  // A first walk appends its links here and moves them sorted at its end: inserted one by one, links
  // keyed by hash land on random pages of a table larger than the cache, and each page's transaction
  // writes most of it again.
  const stageKey = db.prepare('INSERT INTO staged_keys (key_id, row) VALUES (?, ?)');
  const anyLink = db.prepare('SELECT 1 FROM document_keys LIMIT 1').pluck();
  const rowOf = db.prepare('SELECT row FROM documents WHERE id = ?').pluck();
  const dropDocument = db.prepare('DELETE FROM documents WHERE row = ?');
  const readState = db.prepare('SELECT value FROM state WHERE name = ?').pluck();
  const writeState = db.prepare('INSERT INTO state (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value');
  const eraseState = db.prepare('DELETE FROM state WHERE name = ?');
  const countAll = db.prepare('SELECT count(*) FROM documents').pluck();
  const idsAfter = db.prepare('SELECT id FROM documents WHERE id > ? ORDER BY id LIMIT ?').pluck();
  // Facet values: each (field, value) once in facet_values, linked to the documents carrying it. Value ids
  // are never reused (no value is ever deleted), so a process may keep what an id names.
  const valueIdOf = db.prepare('SELECT value_id FROM facet_values WHERE field = ? AND value = ?').pluck();
  const addValue = db.prepare('INSERT INTO facet_values (field, value) VALUES (?, ?) RETURNING value_id').pluck();
  const dropFacets = db.prepare('DELETE FROM document_facets WHERE row = ?');
  const addFacet = db.prepare('INSERT OR IGNORE INTO document_facets (row, value_id) VALUES (?, ?)');
  const storeFacets = (row: number, values: readonly DocumentFacetValue[], replace: boolean) => {
    if (replace) dropFacets.run(row);
    for (const [field, value] of values) addFacet.run(row, (valueIdOf.get(field, value) ?? addValue.get(field, value)) as number);
  };
  const { current: generation, stateThisTurn, bump, forgetRead } = fileGeneration(readState, writeState);
  const reads = workIndexReads(db, new KeptWorks(generation), rowOf);

  const put = db.transaction((documents: ReadonlyArray<Readonly<Record<string, unknown>>>, staged: boolean): WorkIndexPutSummary => {
    const summary: WorkIndexPutSummary = { stored: 0, withoutKeys: 0, refused: [], unkeyable: {} };
    let highest = BigInt(readState.get('highest_version') as string | undefined ?? '0');
    for (const document of documents) {
      const id = typeof document.id === 'string' && document.id.trim() !== '' ? document.id : undefined;
      const orderedAt = orderTimeOf(document);
      const version = solrVersionOf(document);
      if (id === undefined || orderedAt === undefined) {
        summary.refused.push({ id, reason: id === undefined ? 'no usable id' : 'neither last_indexed nor _version_ to order it by' });
        continue;
      }
      const given = keysOf(document);
      const keyed = Array.isArray(given) ? { keys: given as readonly string[] } : given as { keys: readonly string[]; unkeyable?: string };
      if (keyed.unkeyable !== undefined) summary.unkeyable[keyed.unkeyable] = (summary.unkeyable[keyed.unkeyable] ?? 0) + 1;
      const keys = [...new Set(keyed.keys)];
      const row = upsert.get(id, orderedAt) as number;
      if (staged) {
        for (const key of keys) stageKey.run(keyIdOf(key), row);
      } else {
        dropKeys.run(row);
        for (const key of keys) addKey.run(keyIdOf(key), row);
      }
      // A first walk's documents are new (staged): nothing of theirs to replace.
      if (facetsOf !== undefined) storeFacets(row, facetsOf(document), !staged);
      if (keys.length === 0) summary.withoutKeys++;
      if (version !== undefined && version > highest) highest = version;
      summary.stored++;
    }
    if (highest > 0n) writeState.run('highest_version', String(highest));
    bump();
    return summary;
  });

  const remove = db.transaction((ids: readonly string[]): number => {
    let removed = 0;
    for (const id of new Set(ids)) {
      const row = rowOf.get(id) as number | undefined;
      if (row === undefined) continue;
      dropKeys.run(row);
      dropFacets.run(row);
      dropDocument.run(row);
      removed++;
    }
    if (removed > 0) bump();
    return removed;
  });

  const moveStagedKeys = db.transaction(() => {
    // Into an empty link table (a first walk) the row index is built once, after the sorted insert.
    const empty = anyLink.get() === undefined;
    if (empty) db.exec('DROP INDEX IF EXISTS document_keys_by_row');
    db.exec(`INSERT OR IGNORE INTO document_keys (key_id, row) SELECT key_id, row FROM staged_keys ORDER BY key_id, row;
      DELETE FROM staged_keys;
      CREATE INDEX IF NOT EXISTS document_keys_by_row ON document_keys (row, key_id);`);
    bump();
  });

  const putFacets = db.transaction((documents: ReadonlyArray<Readonly<Record<string, unknown>>>): number => {
    if (facetsOf === undefined) throw new InvalidOptionError('workIndex.facetsOf', 'is needed to store facet values');
    let held = 0;
    for (const document of documents) {
      const row = typeof document.id === 'string' ? rowOf.get(document.id) as number | undefined : undefined;
      if (row === undefined) continue;
      storeFacets(row, facetsOf(document), true);
      held++;
    }
    bump();
    return held;
  });

  return {
    put: (documents, putOptions) => put(documents, putOptions?.staged === true),
    putFacets: (documents) => putFacets(documents),
    moveStagedKeys: () => moveStagedKeys(),
    compact() {
      db.exec('VACUUM');
      db.pragma('wal_checkpoint(TRUNCATE)');
    },
    remove: (ids) => remove(ids),
    ...reads,
    highestVersion: () => readState.get('highest_version') as string | undefined,
    count: () => countAll.get() as number,
    idsAfter: (after, limit) => idsAfter.all(after, limit) as string[],
    state: (name) => readState.get(name) as string | undefined,
    setState: db.transaction((values: Readonly<Record<string, string | undefined>>) => {
      for (const [name, value] of Object.entries(values)) {
        if (value === undefined) eraseState.run(name);
        else writeState.run(name, value);
      }
      bump();
    }),
    transaction: <T>(work: () => T): T => {
      try {
        return db.transaction(work)();
      } finally {
        // A generation read inside work that rolled back is not the file's.
        forgetRead();
      }
    },
    changeCount: () => Number(generation() ?? 0),
    stateThisTurn,
    close: () => db.close(),
  };
}
