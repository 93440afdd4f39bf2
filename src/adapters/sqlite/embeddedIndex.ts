/**
 * The embedded catalog index: a SQLite database (better-sqlite3) in a file or in memory. It ships with the
 * plugin for small catalogs, the demo and the tests. Records are stored as their prepared documents;
 * work keys go to their own table with a (key, record) primary key, so "every record sharing any of these
 * keys" is an index range scan. Each key row also carries its record's last_indexed, so a page of versions
 * is chosen from the key rows alone and only that page's documents are read. A load into an empty index
 * stages the documents in unindexed tables and builds the real ones in key order at its end. SQL and table
 * names stay in this file.
 */
import crypto from 'node:crypto';
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
import { recordFromDocument, type CatalogRecord, type RecordDocument } from '../../record/catalogRecord.js';
import { IndexUnavailableError, InvalidOptionError, InvalidRecordDocumentError } from '../../errors.js';
import { prepareRecordDocument } from '../../ingest/prepareRecordDocument.js';
import type { CatalogIndex, VersionsPage, VersionsQuery } from '../../versions/catalogIndex.js';

export interface EmbeddedIndexOptions {
  /** A file path, or `':memory:'` for an index that lives as long as the process. */
  readonly path: string;
  /** Open an existing file for reading only (a server that never loads). */
  readonly readOnly?: boolean;
}

export interface RejectedDocument {
  /** 1-based position of the document in the loaded sequence. */
  readonly position: number;
  readonly id?: string;
  readonly reason: string;
}

export interface LoadOptions {
  /** Called for each document that cannot be loaded; without it the first such document stops the load. */
  readonly onRejected?: (rejected: RejectedDocument) => void;
  /** Called after each committed batch with the number of documents read so far. */
  readonly onProgress?: (read: number) => void;
  /** The clock for `last_indexed` of documents that carry none. */
  readonly now?: () => Date;
  /** Documents per transaction. */
  readonly batchSize?: number;
}

export interface LoadSummary {
  readonly read: number;
  readonly loaded: number;
  readonly rejected: number;
}

export interface EmbeddedIndex extends CatalogIndex {
  /** Loads record documents in bulk; a document whose id is indexed already replaces it. */
  load(documents: Iterable<unknown> | AsyncIterable<unknown>, options?: LoadOptions): Promise<LoadSummary>;
  /** How many records the index holds. */
  count(): Promise<number>;
}

/**
 * Kept in `PRAGMA user_version`. 0 is a file made before versions were recorded: work_keys without
 * last_indexed, and an index records_by_last_indexed that no query uses. A writable open migrates it.
 */
const SCHEMA_VERSION = 1;

// work_keys.last_indexed is a copy of the record's, written with it: a versions page is sorted and cut from
// the key rows, and only its documents are read from records.
const SCHEMA = `
  CREATE TABLE IF NOT EXISTS records (
    id TEXT PRIMARY KEY NOT NULL,
    last_indexed TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    document TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS work_keys (
    key TEXT NOT NULL,
    record_id TEXT NOT NULL,
    last_indexed TEXT NOT NULL,
    PRIMARY KEY (key, record_id)
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS work_keys_by_record ON work_keys (record_id);
`;

// Schema 0 to 1. The new key table is filled in key order from a walk of the old one in record order (its
// record index), so both the lookups of last_indexed and the inserts go through their B-trees in order:
// ~11 s for 1M records and 2.2M keys, where ALTER TABLE ADD COLUMN and an UPDATE from records took 30 s.
const MIGRATE_FROM_SCHEMA_0 = `
  CREATE INDEX IF NOT EXISTS work_keys_by_record ON work_keys (record_id);
  CREATE TABLE work_keys_schema_1 (
    key TEXT NOT NULL,
    record_id TEXT NOT NULL,
    last_indexed TEXT NOT NULL,
    PRIMARY KEY (key, record_id)
  ) WITHOUT ROWID;
  INSERT INTO work_keys_schema_1 (key, record_id, last_indexed)
    SELECT k.key, k.record_id, r.last_indexed
      FROM work_keys AS k INDEXED BY work_keys_by_record CROSS JOIN records AS r ON r.id = k.record_id
     ORDER BY k.key, k.record_id;
  DROP TABLE work_keys;
  ALTER TABLE work_keys_schema_1 RENAME TO work_keys;
  DROP INDEX IF EXISTS records_by_last_indexed;
`;

// crypto.hash (Node 20.12) hashes a string without a Hash object; older Node 20 releases lack it.
const sha256: (text: string) => string = typeof crypto.hash === 'function'
  ? (text) => crypto.hash('sha256', text, 'base64url')
  : (text) => crypto.createHash('sha256').update(text).digest('base64url');

/**
 * The stored JSON of a document, and the hash of its content apart from `last_indexed` (so a re-load of
 * unchanged content is recognised), from one serialisation: the content's JSON with last_indexed appended.
 */
function serialise(document: RecordDocument): { json: string; contentHash: string } {
  const { last_indexed: lastIndexed, ...content } = document;
  const contentJson = JSON.stringify(content);
  const json = lastIndexed === undefined ? contentJson : `${contentJson.slice(0, -1)}${contentJson === '{}' ? '' : ','}"last_indexed":${JSON.stringify(lastIndexed)}}`;
  return { json, contentHash: sha256(contentJson) };
}

// Loaded on first open, so that a host importing the package without the embedded index never loads the
// native module.
const require = createRequire(import.meta.url);
let databaseClass: typeof Database | undefined;
const betterSqlite3 = () => (databaseClass ??= require('better-sqlite3') as typeof Database);

function unavailable(action: string, cause: unknown): IndexUnavailableError {
  return new IndexUnavailableError(`Embedded index: ${action} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
}

/**
 * Brings a writable file to the current schema (creating it, or migrating schema 0); for a read-only one
 * only reads the schema. Answers whether the key rows carry last_indexed: a read-only file of schema 0
 * keeps being served by the queries of that schema, slower for large works, until a writable open
 * migrates it.
 */
function prepareSchema(db: Database.Database, readOnly: boolean): boolean {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION) {
    throw new InvalidOptionError('path', `the index file has schema version ${version}; this version of the plugin knows versions up to ${SCHEMA_VERSION}`);
  }
  const keyColumns = db.prepare<[], { name: string }>("SELECT name FROM pragma_table_info('work_keys')").all();
  const schema0 = keyColumns.length > 0 && !keyColumns.some((column) => column.name === 'last_indexed');
  if (readOnly) return !schema0;
  db.transaction(() => {
    if (schema0) db.exec(MIGRATE_FROM_SCHEMA_0);
    db.exec(SCHEMA);
    if (version !== SCHEMA_VERSION) db.pragma(`user_version = ${SCHEMA_VERSION}`);
  })();
  return true;
}

export function openEmbeddedIndex(options: EmbeddedIndexOptions): EmbeddedIndex {
  if (options === null || typeof options !== 'object' || typeof options.path !== 'string' || options.path === '') {
    throw new InvalidOptionError('path', "give a file path or ':memory:'");
  }
  const readOnly = options.readOnly === true;
  const db = new (betterSqlite3())(options.path, readOnly ? { readonly: true, fileMustExist: true } : {});
  try {
    if (!readOnly) {
      if (options.path !== ':memory:') db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
    }
    return embeddedIndexOn(db, readOnly, prepareSchema(db, readOnly));
  } catch (error) {
    db.close();
    throw error;
  }
}

// Keys travel as one JSON array parameter: any number of keys, no SQL variable limit.
const KEYED = 'FROM work_keys WHERE key IN (SELECT value FROM json_each(?))';

/** A page of versions (documents as stored) and the total over all pages, for keys as a JSON array. */
type VersionsRows = (keys: string, query: VersionsQuery) => { total: number; documents: Array<{ document: string }> };

/**
 * A page with its total in one statement: the distinct records sharing a key are collected from the key
 * rows once, counted, and cut to the page, and only the page's documents are read. For a work of 5000
 * records that is ~3 ms, where reading and sorting every document of the work took ~35 ms; a
 * COUNT(*) OVER () of the collected rows measured ~30% slower than counting the materialised ones. An
 * empty page (offset past the end, limit 0) has no row to carry the total, so then the count runs alone.
 */
function pagesWithTotals(db: Database.Database, countVersions: Database.Statement<[string], { total: number }>): VersionsRows {
  type Page = Database.Statement<[string, number, number], { document: string; total: number }>;
  const newestFirst: Page = db.prepare(`
    WITH versions AS MATERIALIZED (SELECT record_id, MAX(last_indexed) AS last_indexed ${KEYED} GROUP BY record_id),
         page AS (SELECT record_id, last_indexed FROM versions ORDER BY last_indexed DESC, record_id LIMIT ? OFFSET ?)
    SELECT r.document AS document, (SELECT COUNT(*) FROM versions) AS total
      FROM page JOIN records AS r ON r.id = page.record_id
     ORDER BY page.last_indexed DESC, page.record_id`);
  const byId: Page = db.prepare(`
    WITH versions AS MATERIALIZED (SELECT record_id ${KEYED} GROUP BY record_id),
         page AS (SELECT record_id FROM versions ORDER BY record_id LIMIT ? OFFSET ?)
    SELECT r.document AS document, (SELECT COUNT(*) FROM versions) AS total
      FROM page JOIN records AS r ON r.id = page.record_id
     ORDER BY page.record_id`);
  return (keys, query) => {
    const statement = query.order === 'last-indexed' ? newestFirst : byId;
    const documents = query.limit > 0 ? statement.all(keys, query.limit, query.offset) : [];
    return { total: documents[0]?.total ?? countVersions.get(keys)?.total ?? 0, documents };
  };
}

/**
 * Schema 0 (a read-only file not migrated yet): the order comes from the records, so every document of the
 * work is read and sorted, and the total is counted first.
 */
function schema0Pages(db: Database.Database, countVersions: Database.Statement<[string], { total: number }>): VersionsRows {
  type Page = Database.Statement<[string, number, number], { document: string }>;
  const page = (order: string): Page =>
    db.prepare(`SELECT document FROM records WHERE id IN (SELECT DISTINCT record_id ${KEYED}) ORDER BY ${order} LIMIT ? OFFSET ?`);
  const newestFirst = page('last_indexed DESC, id ASC');
  const byId = page('id ASC');
  return (keys, query) => {
    const total = countVersions.get(keys)?.total ?? 0;
    const statement = query.order === 'last-indexed' ? newestFirst : byId;
    return { total, documents: query.limit > 0 && query.offset < total ? statement.all(keys, query.limit, query.offset) : [] };
  };
}

function embeddedIndexOn(db: Database.Database, readOnly: boolean, keysCarryLastIndexed: boolean): EmbeddedIndex {
  const selectRecord = db.prepare<[string], { document: string }>('SELECT document FROM records WHERE id = ?');
  const countVersions = db.prepare<[string], { total: number }>(`SELECT COUNT(*) AS total FROM (SELECT DISTINCT record_id ${KEYED})`);
  const versionsRows = (keysCarryLastIndexed ? pagesWithTotals : schema0Pages)(db, countVersions);
  const countRecords = db.prepare<[], { total: number }>('SELECT COUNT(*) AS total FROM records');
  // For each listed record: the distinct records sharing any of its keys (0 when it has none).
  const versionCounts = db.prepare<[string], { id: string; versions: number }>(`
    SELECT r.id AS id,
           (SELECT COUNT(DISTINCT other.record_id)
              FROM work_keys own JOIN work_keys other ON other.key = own.key
             WHERE own.record_id = r.id) AS versions
      FROM records r
     WHERE r.id IN (SELECT value FROM json_each(?))`);

  // PRAGMA data_version changes when another connection (a loader in another process) commits; this
  // connection's own loads count in ownWrites. Together they tell when answers built earlier went stale.
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  let ownWrites = 0;
  // Reading data_version takes a read transaction (shared-memory locks: ~5 us per request under load,
  // a tenth of a kept answer's time), so the requests handled in one event-loop turn share one reading:
  // another process's commit is seen from the next turn on, as if those requests had come a moment
  // earlier. This connection's own loads are seen at once.
  let versionThisTurn: string | undefined;
  const markWritten = () => {
    ownWrites += 1;
    versionThisTurn = undefined;
  };

  let open = true;
  const ensureOpen = () => {
    if (!open) throw new IndexUnavailableError('Embedded index: used after close()');
  };
  const decode = (row: { document: string }): CatalogRecord => recordFromDocument(JSON.parse(row.document));

  // Loads run one after another: a load into an empty index keeps its documents in staging tables of this
  // connection until it ends, and a second load must neither see the index as empty nor share them.
  let lastLoad: Promise<unknown> = Promise.resolve();

  return {
    async getRecord(id) {
      ensureOpen();
      let row: { document: string } | undefined;
      try {
        row = selectRecord.get(id);
      } catch (cause) {
        throw unavailable('record lookup', cause);
      }
      return row === undefined ? undefined : decode(row);
    },

    async findVersions(query: VersionsQuery): Promise<VersionsPage> {
      ensureOpen();
      try {
        const { total, documents } = versionsRows(JSON.stringify(query.workKeys), query);
        return { total, records: documents.map(decode) };
      } catch (cause) {
        throw unavailable('versions query', cause);
      }
    },

    async countVersions(ids) {
      ensureOpen();
      try {
        const rows = versionCounts.all(JSON.stringify(ids));
        return new Map(rows.map((row) => [row.id, Math.max(1, row.versions)]));
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
      return countRecords.get()?.total ?? 0;
    },

    async load(documents, loadOptions = {}) {
      ensureOpen();
      if (readOnly) throw new InvalidOptionError('readOnly', 'this index was opened read-only and cannot load documents');
      const earlier = lastLoad;
      const loading = earlier.then(() => {
        ensureOpen();
        return loadDocuments(db, documents, loadOptions, markWritten);
      });
      lastLoad = loading.catch(() => undefined);
      return loading;
    },

    async close() {
      if (!open) return;
      open = false;
      db.close();
    },
  };
}

type BatchWriter = (batch: readonly RecordDocument[]) => void;

/** `markWritten` is called after every commit the load makes, and once more when it ends however it ends. */
async function loadDocuments(
  db: Database.Database, documents: Iterable<unknown> | AsyncIterable<unknown>, loadOptions: LoadOptions, markWritten: () => void,
): Promise<LoadSummary> {
  const now = loadOptions.now ?? (() => new Date());
  const batchSize = loadOptions.batchSize ?? 5000;
  const bulk = db.prepare('SELECT 1 FROM records LIMIT 1').get() === undefined ? stagedLoad(db) : undefined;
  const writeBatch = bulk?.writeBatch ?? upsertingWriter(db);
  const stored = db.prepare<[string], { last_indexed: string; content_hash: string }>(
    'SELECT last_indexed, content_hash FROM records WHERE id = ?',
  );

  let read = 0;
  let loaded = 0;
  let rejected = 0;
  let batch: RecordDocument[] = [];
  const flush = () => {
    if (batch.length === 0) return;
    writeBatch(batch);
    markWritten();
    loaded += batch.length;
    batch = [];
    loadOptions.onProgress?.(read);
  };
  try {
    for await (const input of documents as AsyncIterable<unknown>) {
      read += 1;
      let document: RecordDocument;
      try {
        const prepared = prepareRecordDocument(input, now());
        document = prepared.document;
        // An empty index has no stored content to compare with.
        if (prepared.lastIndexedFromClock && bulk === undefined) {
          // Loading unchanged content again keeps its last_indexed: loading a file twice leaves the same index.
          const previous = stored.get(document.id);
          if (previous !== undefined && previous.content_hash === serialise(document).contentHash) document.last_indexed = previous.last_indexed;
        }
      } catch (error) {
        if (!(error instanceof InvalidRecordDocumentError)) throw error;
        const id = typeof (input as { id?: unknown } | null)?.id === 'string' ? (input as { id: string }).id : undefined;
        const problem: RejectedDocument = { position: read, ...(id !== undefined ? { id } : {}), reason: error.reason };
        if (loadOptions.onRejected === undefined) {
          flush();
          throw new InvalidRecordDocumentError(`document ${read}${id !== undefined ? ` (id ${JSON.stringify(id)})` : ''}: ${error.reason}`);
        }
        rejected += 1;
        loadOptions.onRejected(problem);
        continue;
      }
      batch.push(document);
      if (batch.length >= batchSize) flush();
    }
    flush();
  } finally {
    // Also when the load stops early: the documents of committed batches stay loaded, as with upserts.
    try {
      bulk?.finish();
    } finally {
      markWritten();
    }
  }
  return { read, loaded, rejected };
}

/** Into an index holding records: each document replaces its record and that record's keys. */
function upsertingWriter(db: Database.Database): BatchWriter {
  const upsert = db.prepare('INSERT OR REPLACE INTO records (id, last_indexed, content_hash, document) VALUES (?, ?, ?, ?)');
  const dropKeys = db.prepare('DELETE FROM work_keys WHERE record_id = ?');
  const addKey = db.prepare('INSERT OR IGNORE INTO work_keys (key, record_id, last_indexed) VALUES (?, ?, ?)');
  return db.transaction((batch: readonly RecordDocument[]) => {
    for (const document of batch) {
      const id = document.id;
      const { json, contentHash } = serialise(document);
      upsert.run(id, document.last_indexed, contentHash, json);
      dropKeys.run(id);
      for (const key of document.work_keys_str_mv ?? []) addKey.run(key, id, document.last_indexed);
    }
  });
}

/**
 * Into an empty index. Inserting records and keys as they come puts each row at a random place of the
 * B-trees, which for 1M records was 83% of a 190–250 s load. So batches are appended to unindexed staging
 * tables (temporary ones: they never reach the index file or its log), and finish() moves them in one
 * transaction with sorted inserts, which append to each B-tree, and builds the secondary index once at the
 * end: ~45 s for 1M records. Readers see no record until then, and then all of them.
 */
function stagedLoad(db: Database.Database): { writeBatch: BatchWriter; finish: () => void } {
  // stage_keys has one row per staged document (its keys as a JSON array), with the rowid of its
  // stage_records row: the last copy of an id is then found without reading the documents again.
  db.exec(`
    DROP TABLE IF EXISTS temp.stage_records;
    DROP TABLE IF EXISTS temp.stage_keys;
    CREATE TEMP TABLE stage_records (id TEXT NOT NULL, last_indexed TEXT NOT NULL, content_hash TEXT NOT NULL, document TEXT NOT NULL);
    CREATE TEMP TABLE stage_keys (stage_rowid INTEGER PRIMARY KEY, record_id TEXT NOT NULL, last_indexed TEXT NOT NULL, keys TEXT NOT NULL);`);
  const stageRecord = db.prepare('INSERT INTO temp.stage_records (id, last_indexed, content_hash, document) VALUES (?, ?, ?, ?)');
  const stageKeys = db.prepare('INSERT INTO temp.stage_keys (stage_rowid, record_id, last_indexed, keys) VALUES (?, ?, ?, ?)');
  let staged = 0;
  const writeBatch = db.transaction((batch: readonly RecordDocument[]) => {
    for (const document of batch) {
      const id = document.id;
      const { json, contentHash } = serialise(document);
      const { lastInsertRowid } = stageRecord.run(id, document.last_indexed, contentHash, json);
      stageKeys.run(lastInsertRowid, id, document.last_indexed, JSON.stringify(document.work_keys_str_mv ?? []));
    }
    staged += batch.length;
  });

  const move = db.transaction(() => {
    db.exec('DROP INDEX IF EXISTS work_keys_by_record');
    // Each id's last copy comes first in its run and the earlier copies are ignored: a later document
    // replaces an earlier one, as it would have replaced it in the index. Fewer records than staged
    // documents means there were such copies, and then only the keys of each id's last copy go in.
    const records = db.prepare(`
      INSERT OR IGNORE INTO records (id, last_indexed, content_hash, document)
        SELECT id, last_indexed, content_hash, document FROM temp.stage_records ORDER BY id, rowid DESC`).run().changes;
    const lastCopiesOnly = records < staged ? 'WHERE k.stage_rowid IN (SELECT MAX(stage_rowid) FROM temp.stage_keys GROUP BY record_id)' : '';
    db.prepare(`
      INSERT OR IGNORE INTO work_keys (key, record_id, last_indexed)
        SELECT j.value, k.record_id, k.last_indexed FROM temp.stage_keys AS k, json_each(k.keys) AS j
        ${lastCopiesOnly} ORDER BY 1, 2`).run();
    db.exec(SCHEMA);
  });

  return {
    writeBatch,
    finish() {
      // A connection closed during the load has lost its staging tables already.
      if (!db.open) return;
      // SQLite's sorter may use helper threads: the move's three sorts took ~13 s for 1M records on one
      // thread, ~9 s with two CPUs.
      const threads = db.pragma('threads', { simple: true }) as number;
      try {
        db.pragma(`threads = ${availableParallelism()}`);
        if (staged > 0) move();
      } finally {
        db.pragma(`threads = ${threads}`);
        db.exec('DROP TABLE IF EXISTS temp.stage_records; DROP TABLE IF EXISTS temp.stage_keys;');
      }
    },
  };
}
