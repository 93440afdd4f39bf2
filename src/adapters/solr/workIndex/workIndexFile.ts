/**
 * The work index beside a Solr core (issue 20, item 1): a small SQLite file the plugin owns, holding for
 * every document of the core its id, its work keys, the time the versions order sorts it by and its
 * `_version_`, so that versions can be answered without work keys in the core. Which keys a document has
 * is the caller's `keysOf(document)` (a key profile); the order time comes from documentOrder.ts.
 *
 * This module only stores and answers: walking the core, keeping the file in step and wiring it into the
 * Solr adapter are left to others (nothing here talks to Solr, and nothing here writes to the core).
 */
import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
import { InvalidOptionError } from '../../../errors.js';
import type { VersionsOrder } from '../../../ports.js';
import { orderTimeOf, solrVersionOf } from './documentOrder.js';

/** The orders the work index sorts itself; the orders on record fields are sorted from the records (src/record/recordOrder.ts). */
type EngineOrder = Extract<VersionsOrder, 'last-indexed' | 'relevance'>;

/** A key profile: the work keys of one stored Solr document (no keys: the document lists itself). */
export type KeysOf = (document: Readonly<Record<string, unknown>>) => readonly string[];

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
}

export interface WorkIndex {
  /** Adds or replaces documents (as Solr returns them: stored fields and `_version_`), in one transaction. */
  put(documents: ReadonlyArray<Readonly<Record<string, unknown>>>): WorkIndexPutSummary;
  /** Removes documents by id; how many were there. */
  remove(ids: readonly string[]): number;
  /** The ids of one page of the documents sharing any of the keys, and how many there are in all. */
  findVersions(query: { workKeys: readonly string[]; order: EngineOrder; offset: number; limit: number }): { total: number; ids: string[] };
  /** For each id stored: how many documents share any of its keys (itself included; 1 without keys). */
  countVersions(ids: readonly string[]): Map<string, number>;
  /** The work keys stored for a document, or `undefined` when it is not in the file. */
  keysOf(id: string): string[] | undefined;
  /** The highest `_version_` put so far (exact digits), where the next sync starts; `undefined` before any. */
  highestVersion(): string | undefined;
  /** How many documents the file holds. */
  count(): number;
  close(): void;
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS documents (
    row INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    ordered_at INTEGER NOT NULL,
    version TEXT NOT NULL
  );
  CREATE TABLE IF NOT EXISTS document_keys (
    key TEXT NOT NULL,
    row INTEGER NOT NULL,
    PRIMARY KEY (key, row)
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS document_keys_by_row ON document_keys (row);
  CREATE TABLE IF NOT EXISTS state (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
`;

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
  db.exec(SCHEMA);
  const { keysOf } = options;

  const upsert = db.prepare(`INSERT INTO documents (id, ordered_at, version) VALUES (?, ?, ?)
    ON CONFLICT (id) DO UPDATE SET ordered_at = excluded.ordered_at, version = excluded.version RETURNING row`).pluck();
  const dropKeys = db.prepare('DELETE FROM document_keys WHERE row = ?');
  const addKey = db.prepare('INSERT OR IGNORE INTO document_keys (key, row) VALUES (?, ?)');
  const rowOf = db.prepare('SELECT row FROM documents WHERE id = ?').pluck();
  const dropDocument = db.prepare('DELETE FROM documents WHERE row = ?');
  const keysOfRow = db.prepare('SELECT key FROM document_keys WHERE row = ? ORDER BY key').pluck();
  const readState = db.prepare('SELECT value FROM state WHERE name = ?').pluck();
  const writeState = db.prepare('INSERT INTO state (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value');
  const countAll = db.prepare('SELECT count(*) FROM documents').pluck();
  // Versions: the distinct documents holding any of the keys (a JSON array), in the order of the view.
  const matching = `SELECT DISTINCT d.id, d.ordered_at FROM document_keys k JOIN documents d ON d.row = k.row
    WHERE k.key IN (SELECT value FROM json_each(?))`;
  const countMatching = db.prepare(`SELECT count(*) FROM (${matching})`).pluck();
  const pageBy: Record<EngineOrder, Database.Statement> = {
    'last-indexed': db.prepare(`SELECT id FROM (${matching}) ORDER BY ordered_at DESC, id LIMIT ? OFFSET ?`).pluck(),
    relevance: db.prepare(`SELECT id FROM (${matching}) ORDER BY id LIMIT ? OFFSET ?`).pluck(),
  };

  const put = db.transaction((documents: ReadonlyArray<Readonly<Record<string, unknown>>>): WorkIndexPutSummary => {
    const summary: WorkIndexPutSummary = { stored: 0, withoutKeys: 0, refused: [] };
    let highest = BigInt(readState.get('highest_version') as string | undefined ?? '0');
    for (const document of documents) {
      const id = typeof document.id === 'string' && document.id.trim() !== '' ? document.id : undefined;
      const orderedAt = orderTimeOf(document);
      const version = solrVersionOf(document);
      if (id === undefined || orderedAt === undefined) {
        summary.refused.push({ id, reason: id === undefined ? 'no usable id' : 'neither last_indexed nor _version_ to order it by' });
        continue;
      }
      const keys = [...new Set(keysOf(document))];
      const row = upsert.get(id, orderedAt, String(version ?? 0n)) as number;
      dropKeys.run(row);
      for (const key of keys) addKey.run(key, row);
      if (keys.length === 0) summary.withoutKeys++;
      if (version !== undefined && version > highest) highest = version;
      summary.stored++;
    }
    if (highest > 0n) writeState.run('highest_version', String(highest));
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
    return removed;
  });

  return {
    put: (documents) => put(documents),
    remove: (ids) => remove(ids),
    findVersions({ workKeys, order, offset, limit }) {
      const keys = JSON.stringify([...new Set(workKeys)]);
      return { total: countMatching.get(keys) as number, ids: pageBy[order].all(keys, limit, offset) as string[] };
    },
    countVersions(ids) {
      const counts = new Map<string, number>();
      for (const id of new Set(ids)) {
        const row = rowOf.get(id) as number | undefined;
        if (row === undefined) continue;
        const keys = keysOfRow.all(row) as string[];
        counts.set(id, keys.length === 0 ? 1 : countMatching.get(JSON.stringify(keys)) as number);
      }
      return counts;
    },
    keysOf(id) {
      const row = rowOf.get(id) as number | undefined;
      return row === undefined ? undefined : keysOfRow.all(row) as string[];
    },
    highestVersion: () => readState.get('highest_version') as string | undefined,
    count: () => countAll.get() as number,
    close: () => db.close(),
  };
}
