/**
 * The work index beside a Solr core (issue 20, item 1): a small SQLite file the plugin owns, holding for
 * every document of the core its id, its work keys (as 63-bit hashes), the time the versions order sorts
 * it by, and the highest `_version_` taken, so that versions can be answered without work keys in the core. Which keys a document has
 * is the caller's `keysOf(document)` (a key profile); the order time comes from documentOrder.ts.
 *
 * This module only stores and answers: walking the core, keeping the file in step and wiring it into the
 * Solr adapter are left to others (nothing here talks to Solr, and nothing here writes to the core).
 */
import * as crypto from 'node:crypto';
import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
import { InvalidOptionError } from '../../../errors.js';
import type { VersionsOrder } from '../../../ports.js';
import { orderTimeOf, solrVersionOf } from './documentOrder.js';

/** The orders the work index sorts itself; the orders on record fields are sorted from the records (src/record/recordOrder.ts). */
type EngineOrder = Extract<VersionsOrder, 'last-indexed' | 'relevance'>;

/**
 * A key profile: the work keys of one stored Solr document (no keys: the document lists itself), or
 * `{ keys, unkeyable }` saying why it could not be keyed at all (src/work-keys/storedDocumentKeys.ts).
 */
export type KeysOf = (document: Readonly<Record<string, unknown>>) => readonly string[] | { keys: readonly string[]; unkeyable?: string };

export interface WorkIndexOptions {
  /** The SQLite file (made when missing), or `:memory:`. */
  path: string;
  keysOf: KeysOf;
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

export interface WorkIndex {
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
  /** The ids of one page of the documents sharing any of the keys (a negative limit: all of them), and how many there are in all. */
  findVersions(query: { workKeys: readonly string[]; order: EngineOrder; offset: number; limit: number }): { total: number; ids: string[] };
  /** For each id stored: how many documents share any of its keys (itself included; 1 without keys). */
  countVersions(ids: readonly string[]): Map<string, number>;
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
  /** A number, kept in the file, that grows with every change to it (documents, keys or state): the answers' version. */
  changeCount(): number;
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
`;

/** A key's id: the first 63 bits of its SHA-1 (n distinct keys share one with a chance of about n² / 2^64: 1 in 18 million at a million keys). */
function keyIdOf(key: string): bigint {
  return BigInt(`0x${sha1Hex(key).slice(0, 16)}`) >> 1n;
}

// crypto.hash's one call with hex out costs less than a Hash object and a Buffer per key
// (docs/benchmarks.md); it came in Node 20.12, and the package runs on 20.8, where the Hash object is used.
const sha1Hex: (text: string) => string = typeof crypto.hash === 'function'
  ? (text) => crypto.hash('sha1', text, 'hex')
  : (text) => crypto.createHash('sha1').update(text).digest('hex');

/** A JSON array of key ids, exact (JSON.stringify cannot write a bigint). */
function keyIdList(keys: Iterable<string>): string {
  return `[${[...new Set(keys)].map((key) => keyIdOf(key).toString()).join(',')}]`;
}

const require = createRequire(import.meta.url);
let databaseClass: typeof Database | undefined;
const betterSqlite3 = () => (databaseClass ??= require('better-sqlite3') as typeof Database);

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
  const { keysOf } = options;

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
  // Versions: the distinct documents holding any of the keys (a JSON array of key ids), in the order of the view.
  const matching = `SELECT DISTINCT d.id, d.ordered_at FROM document_keys k JOIN documents d ON d.row = k.row
    WHERE k.key_id IN (SELECT value FROM json_each(?))`;
  const countMatching = db.prepare(`SELECT count(*) FROM (${matching})`).pluck();
  const pageBy: Record<EngineOrder, Database.Statement> = {
    'last-indexed': db.prepare(`SELECT id FROM (${matching}) ORDER BY ordered_at DESC, id LIMIT ? OFFSET ?`).pluck(),
    relevance: db.prepare(`SELECT id FROM (${matching}) ORDER BY id LIMIT ? OFFSET ?`).pluck(),
  };
  // A document's versions: the documents sharing any of its key ids (itself included), none when it has no keys.
  const countSharing = db.prepare(`SELECT count(DISTINCT other.row) FROM document_keys own
    JOIN document_keys other ON other.key_id = own.key_id WHERE own.row = ?`).pluck();
  // The file's generation, kept in the file so that a server reading it sees a sync run by another process.
  const bump = () => writeState.run('generation', String(Number(readState.get('generation') ?? 0) + 1));

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

  return {
    put: (documents, putOptions) => put(documents, putOptions?.staged === true),
    moveStagedKeys: () => moveStagedKeys(),
    compact() {
      db.exec('VACUUM');
      db.pragma('wal_checkpoint(TRUNCATE)');
    },
    remove: (ids) => remove(ids),
    findVersions({ workKeys, order, offset, limit }) {
      const keys = keyIdList(workKeys);
      return { total: countMatching.get(keys) as number, ids: pageBy[order].all(keys, limit, offset) as string[] };
    },
    countVersions(ids) {
      const counts = new Map<string, number>();
      for (const id of new Set(ids)) {
        const row = rowOf.get(id) as number | undefined;
        if (row === undefined) continue;
        counts.set(id, Math.max(1, countSharing.get(row) as number));
      }
      return counts;
    },
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
    transaction: <T>(work: () => T): T => db.transaction(work)(),
    changeCount: () => Number(readState.get('generation') ?? 0),
    close: () => db.close(),
  };
}
