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
 * This module only stores and answers: walking the core, keeping the file in step and wiring it into the
 * Solr adapter are left to others (nothing here talks to Solr, and nothing here writes to the core).
 */
import * as crypto from 'node:crypto';
import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
import { InvalidOptionError } from '../../../errors.js';
import type { VersionsOrder } from '../../../ports.js';
import { FACET_FIELDS, type FacetField, type FacetTally, type VersionsFilter } from '../../../record/recordFacets.js';
import type { DocumentFacetValue } from './documentFacets.js';
import { orderTimeOf, solrVersionOf } from './documentOrder.js';
import { checkKeyProfile, type WorkKeyProfileName } from '../../../work-keys/workKeyProfiles.js';

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
  /** A document's facet values (documentFacets.ts), stored with it by put() and putFacets(); without it none are stored. */
  facetsOf?: (document: Readonly<Record<string, unknown>>) => readonly DocumentFacetValue[];
}

/** facetedVersions's answer: as pageOfWork (src/record/recordFacets.ts) gives it, with ids for records and a tally for counts. */
export interface FacetedVersions {
  /** Documents of the work that carry every filter's value. */
  total: number;
  /** Documents of the work, filters aside. */
  unfilteredTotal: number;
  /** The page's ids, in the order asked. */
  ids: string[];
  /** Every value of every facet field the filtered documents carry, with how many carry it (when asked). */
  tally?: FacetTally;
}

/**
 * A document's work as the file holds it (workOfDocument): the documents sharing any of its keys, itself
 * included, in id order (SQLite's), with their order times, and the document's own key ids, so that the
 * work's pages need no statement of their own (pageOfDocumentWork) when asked for those keys (isWorkOf).
 */
export interface DocumentWork {
  readonly ids: readonly string[];
  readonly orderedAt: readonly number[];
  /** The document's key ids (sorted), or `undefined` when the file does not hold the document. */
  readonly keyIds: readonly bigint[] | undefined;
  /** The documents' rows, for their facet tally (workTallyOf). */
  readonly rows: readonly number[];
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
  /**
   * One page of a work's documents that carry every filter's value, in an order the file sorts, and (with
   * `facets`) the tally of their facet values, from the values stored with them: only meaningful once the
   * state `facet_fields` says every document's values are stored.
   */
  facetedVersions(query: { workKeys: readonly string[]; order: EngineOrder; offset: number; limit: number; filters: readonly VersionsFilter[]; facets: boolean }): FacetedVersions;
  /** Stores (replacing) the facet values of documents the file holds, by id (a file made before they were kept); how many it held. */
  putFacets(documents: ReadonlyArray<Readonly<Record<string, unknown>>>): number;
  /** The documents sharing any key of the document `id` (itself included), when there are at most `most`; `undefined` when more. */
  workOfDocument(id: string, most: number): DocumentWork | undefined;
  /** The facet tally of a work from workOfDocument (as facetedVersions gives it without filters). */
  workTallyOf(work: DocumentWork): FacetTally;
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

/**
 * Works of at least this many documents have their orders and facet tally kept in memory while the file
 * stays the same (KeptWorks), up to KEPT_IDS ids in all.
 */
const KEPT_WORK_LEAST_DOCUMENTS = 50;
const KEPT_IDS = 400_000;

/** A key's id: the first 63 bits of its SHA-1 (n distinct keys share one with a chance of about n² / 2^64: 1 in 18 million at a million keys). */
function keyIdOf(key: string): bigint {
  return BigInt(`0x${sha1Hex(key).slice(0, 16)}`) >> 1n;
}

// crypto.hash's one call with hex out costs less than a Hash object and a Buffer per key (docs/benchmarks.md).
const sha1Hex = (text: string): string => crypto.hash('sha1', text, 'hex');

/** A JSON array of key ids, exact (JSON.stringify cannot write a bigint). */
function keyIdList(keys: Iterable<string>): string {
  return `[${[...new Set(keys)].map((key) => keyIdOf(key).toString()).join(',')}]`;
}

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
  // Versions: the distinct documents holding any of the keys (a JSON array of key ids), in the order of the view.
  const matching = `SELECT DISTINCT d.id, d.ordered_at FROM document_keys k JOIN documents d ON d.row = k.row
    WHERE k.key_id IN (SELECT value FROM json_each(?))`;
  const countMatching = db.prepare(`SELECT count(*) FROM (${matching})`).pluck();
  // The page with the total beside each id (the window counts every match before LIMIT): one pass for both,
  // and the count alone only for a page past the end.
  // (The documents whose row is IN the links' rows: no DISTINCT to sort away, so less work: docs/benchmarks.md.)
  const inWork = 'SELECT d.id, count(*) OVER () FROM documents d WHERE d.row IN (SELECT k.row FROM document_keys k WHERE k.key_id IN (SELECT value FROM json_each(?)))';
  const pageBy: Record<EngineOrder, Database.Statement> = {
    'last-indexed': db.prepare(`${inWork} ORDER BY d.ordered_at DESC, d.id LIMIT ? OFFSET ?`).raw(),
    relevance: db.prepare(`${inWork} ORDER BY d.id LIMIT ? OFFSET ?`).raw(),
  };
  const wholeBy: Record<EngineOrder, Database.Statement> = {
    'last-indexed': db.prepare(`SELECT id FROM (${matching}) ORDER BY ordered_at DESC, id`).pluck(),
    relevance: db.prepare(`SELECT id FROM (${matching}) ORDER BY id`).pluck(),
  };
  const pageOf = (keys: string, order: EngineOrder, offset: number, limit: number): { total: number; ids: string[] } => {
    const kept = keptWorks.current(keys)?.orders[order];
    const cut = (ids: string[]) => (limit < 0 ? ids.slice(offset) : ids.slice(offset, offset + limit));
    if (kept !== undefined) return { total: kept.length, ids: cut(kept) };
    const rows = limit === 0 ? [] : pageBy[order].all(keys, limit, offset) as Array<[string, number]>;
    const total = rows.length > 0 ? rows[0]![1] : countMatching.get(keys) as number;
    if (total >= KEPT_WORK_LEAST_DOCUMENTS) {
      const ids = wholeBy[order].all(keys) as string[];
      keptWorks.keep(keys, (work) => {
        work.orders[order] = ids;
        return ids.length;
      });
      return { total: ids.length, ids: cut(ids) };
    }
    return { total, ids: rows.map((row) => row[0]) };
  };
  // A document's versions: the documents sharing any of its key ids (itself included), none when it has no keys.
  // (The first `most` + 1 found, then sorted: a large work is not read whole to learn that it is large.)
  const sharing = db.prepare(`SELECT id, ordered_at, row FROM (SELECT DISTINCT d.id, d.ordered_at, d.row FROM document_keys own
    JOIN document_keys k ON k.key_id = own.key_id JOIN documents d ON d.row = k.row WHERE own.row = ? LIMIT ?) ORDER BY id`).raw();
  const ownKeys = db.prepare('SELECT key_id FROM document_keys WHERE row = ? ORDER BY key_id').pluck().safeIntegers();
  const orderedAtOf = db.prepare('SELECT ordered_at FROM documents WHERE row = ?').pluck();
  const countSharing = db.prepare(`SELECT count(DISTINCT other.row) FROM document_keys own
    JOIN document_keys other ON other.key_id = own.key_id WHERE own.row = ?`).pluck();

  // Facet values: each (field, value) once in facet_values, linked to the documents carrying it. Value ids
  // are never reused (no value is ever deleted), so a process may keep what an id names.
  const valueIdOf = db.prepare('SELECT value_id FROM facet_values WHERE field = ? AND value = ?').pluck();
  const addValue = db.prepare('INSERT INTO facet_values (field, value) VALUES (?, ?) RETURNING value_id').pluck();
  const valueOfId = db.prepare('SELECT field, value FROM facet_values WHERE value_id = ?').raw();
  const dropFacets = db.prepare('DELETE FROM document_facets WHERE row = ?');
  const addFacet = db.prepare('INSERT OR IGNORE INTO document_facets (row, value_id) VALUES (?, ?)');
  const storeFacets = (row: number, values: readonly DocumentFacetValue[], replace: boolean) => {
    if (replace) dropFacets.run(row);
    for (const [field, value] of values) addFacet.run(row, (valueIdOf.get(field, value) ?? addValue.get(field, value)) as number);
  };
  // The generation as this open last read it: once an event-loop turn (an answer asks for it several times,
  // and another process's sync shows on the next turn), read again at once after this open's own writes.
  let generationSeen: string | undefined;
  let generationRead = false;
  let forgetScheduled = false;
  const forgetGeneration = () => {
    generationRead = false;
    forgetScheduled = false;
  };
  const generation = (): string | undefined => {
    if (!generationRead) {
      generationSeen = readState.get('generation') as string | undefined;
      generationRead = true;
      if (!forgetScheduled) {
        forgetScheduled = true;
        setImmediate(forgetGeneration);
      }
    }
    return generationSeen;
  };
  // State values read under the generation they were read in: every state write bumps it.
  const stateSeen = new Map<string, string | undefined>();
  let stateGeneration: string | undefined;
  const stateThisTurn = (name: string): string | undefined => {
    const now = generation();
    if (now !== stateGeneration) {
      stateSeen.clear();
      stateGeneration = now;
    }
    if (!stateSeen.has(name)) stateSeen.set(name, readState.get(name) as string | undefined);
    return stateSeen.get(name);
  };
  const keptWorks = new KeptWorks(generation);
  const valueNames = new Map<number, readonly [FacetField, string]>();
  const valueNamed = (valueId: number): readonly [FacetField, string] => {
    let named = valueNames.get(valueId);
    if (named === undefined) {
      named = valueOfId.get(valueId) as [FacetField, string];
      valueNames.set(valueId, named);
    }
    return named;
  };
  // The work's rows, then those carrying every filter's value (a JSON array of value ids, each required).
  const workRows = 'SELECT DISTINCT k.row FROM document_keys k WHERE k.key_id IN (SELECT value FROM json_each(?))';
  const leftRows = `SELECT w.row FROM (${workRows}) w WHERE (SELECT count(*) FROM document_facets f
    WHERE f.row = w.row AND f.value_id IN (SELECT value FROM json_each(?))) = ?`;
  const countLeft = db.prepare(`SELECT count(*) FROM (${leftRows})`).pluck();
  const leftPageBy: Record<EngineOrder, Database.Statement> = {
    'last-indexed': db.prepare(`SELECT d.id FROM (${leftRows}) l JOIN documents d ON d.row = l.row ORDER BY d.ordered_at DESC, d.id LIMIT ? OFFSET ?`).pluck(),
    relevance: db.prepare(`SELECT d.id FROM (${leftRows}) l JOIN documents d ON d.row = l.row ORDER BY d.id LIMIT ? OFFSET ?`).pluck(),
  };
  const tallyWork = db.prepare(`SELECT f.value_id, count(*) FROM (${workRows}) w JOIN document_facets f ON f.row = w.row GROUP BY f.value_id`).raw();
  const tallyRows = db.prepare('SELECT value_id, count(*) FROM document_facets WHERE row IN (SELECT value FROM json_each(?)) GROUP BY value_id').raw();
  const tallyLeft = db.prepare(`SELECT f.value_id, count(*) FROM (${leftRows}) l JOIN document_facets f ON f.row = l.row GROUP BY f.value_id`).raw();
  const workTally = (keys: string, size: number): FacetTally => {
    if (size < KEPT_WORK_LEAST_DOCUMENTS) return tallyOf(tallyWork.all(keys) as Array<[number, number]>);
    const kept = keptWorks.current(keys)?.tally;
    if (kept !== undefined) return kept;
    const tally = tallyOf(tallyWork.all(keys) as Array<[number, number]>);
    keptWorks.keep(keys, (work) => {
      work.tally = tally;
      return 0;
    });
    return tally;
  };
  const tallyOf = (rows: ReadonlyArray<[number, number]>): FacetTally => {
    const tally = new Map<FacetField, Map<string, number>>(FACET_FIELDS.map((field) => [field, new Map()]));
    for (const [valueId, count] of rows) {
      const [field, value] = valueNamed(valueId);
      tally.get(field)?.set(value, count);
    }
    return tally;
  };
  // The file's generation, kept in the file so that a server reading it sees a sync run by another process.
  const bump = () => {
    writeState.run('generation', String(Number(readState.get('generation') ?? 0) + 1));
    generationRead = false;
  };

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
    findVersions({ workKeys, order, offset, limit }) {
      return pageOf(keyIdList(workKeys), order, offset, limit);
    },
    facetedVersions({ workKeys, order, offset, limit, filters, facets }) {
      const keys = keyIdList(workKeys);
      if (filters.length === 0) {
        const { total, ids } = pageOf(keys, order, Math.max(0, offset), Math.max(0, limit));
        return { total, unfilteredTotal: total, ids, ...(facets ? { tally: workTally(keys, total) } : {}) };
      }
      const unfilteredTotal = countMatching.get(keys) as number;
      const required = new Set<number>();
      for (const filter of filters) {
        const valueId = valueIdOf.get(filter.field, filter.value) as number | undefined;
        // A value no document carries: no document passes.
        if (valueId === undefined) return { total: 0, unfilteredTotal, ids: [], ...(facets ? { tally: tallyOf([]) } : {}) };
        required.add(valueId);
      }
      const wanted = `[${[...required].join(',')}]`;
      return {
        total: countLeft.get(keys, wanted, required.size) as number,
        unfilteredTotal,
        ids: limit > 0 ? leftPageBy[order].all(keys, wanted, required.size, limit, Math.max(0, offset)) as string[] : [],
        ...(facets ? { tally: tallyOf(tallyLeft.all(keys, wanted, required.size) as Array<[number, number]>) } : {}),
      };
    },
    workOfDocument(id, most) {
      const row = rowOf.get(id) as number | undefined;
      if (row === undefined) return { ids: [id], orderedAt: [0], keyIds: undefined, rows: [] };
      const found = sharing.all(row, most + 1) as Array<[string, number, number]>;
      if (found.length > most) return undefined;
      const keyIds = ownKeys.all(row) as bigint[];
      // A document without keys is its own work.
      if (found.length === 0) return { ids: [id], orderedAt: [orderedAtOf.get(row) as number], keyIds, rows: [row] };
      return { ids: found.map((f) => f[0]), orderedAt: found.map((f) => f[1]), keyIds, rows: found.map((f) => f[2]) };
    },
    workTallyOf: (work) => tallyOf(tallyRows.all(`[${work.rows.join(',')}]`) as Array<[number, number]>),
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
    transaction: <T>(work: () => T): T => {
      try {
        return db.transaction(work)();
      } finally {
        // A generation read inside work that rolled back is not the file's.
        generationRead = false;
      }
    },
    changeCount: () => Number(generation() ?? 0),
    stateThisTurn,
    close: () => db.close(),
  };
}

/** Whether a work from workOfDocument is the one the file finds for these keys: its document's keys are exactly them. */
export function isWorkOf(work: DocumentWork, workKeys: readonly string[]): boolean {
  if (work.keyIds === undefined) return false;
  const asked = [...new Set(workKeys.map(keyIdOf))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return asked.length === work.keyIds.length && asked.every((keyId, k) => keyId === work.keyIds![k]);
}

/** A page of a work from workOfDocument, as findVersions gives it for the work's keys (the same orders, ties by id). */
export function pageOfDocumentWork(work: DocumentWork, order: EngineOrder, offset: number, limit: number): { total: number; ids: string[] } {
  let ids = work.ids;
  if (order === 'last-indexed') {
    // Stable: equal times keep the id order.
    ids = work.ids.map((id, k) => k).sort((a, b) => work.orderedAt[b]! - work.orderedAt[a]!).map((k) => work.ids[k]!);
  }
  return { total: work.ids.length, ids: ids.slice(offset, offset + limit) };
}

/** What is kept of one large work: its ids in each order the file sorts, and its facet tally. */
interface KeptWork {
  orders: Partial<Record<EngineOrder, string[]>>;
  tally?: FacetTally;
  ids: number;
}

/**
 * Large works' orders and tallies (by their key-id list), kept while the file's generation stays the same:
 * every record of such a work asked for (a crawler walking the catalog asks for each) has the same page
 * order and facets, and sorting and counting the work were most of its answer. Oldest dropped first.
 */
class KeptWorks {
  private readonly works = new Map<string, KeptWork>();
  private generation: string | undefined;
  private ids = 0;

  constructor(private readonly generationNow: () => string | undefined) {}

  /** The work kept for these keys, when the file is still as it was. */
  current(keys: string): KeptWork | undefined {
    this.follow();
    return this.works.get(keys);
  }

  /** Adds to what is kept of a work; `add` says how many ids it added. */
  keep(keys: string, add: (work: KeptWork) => number): void {
    this.follow();
    const work = this.works.get(keys) ?? { orders: {}, ids: 0 };
    const added = add(work);
    work.ids += added;
    this.ids += added;
    this.works.delete(keys);
    this.works.set(keys, work);
    for (const [oldest, kept] of this.works) {
      if (this.ids <= KEPT_IDS || oldest === keys) break;
      this.works.delete(oldest);
      this.ids -= kept.ids;
    }
  }

  private follow(): void {
    const generation = this.generationNow();
    if (generation === this.generation) return;
    this.generation = generation;
    this.works.clear();
    this.ids = 0;
  }
}
