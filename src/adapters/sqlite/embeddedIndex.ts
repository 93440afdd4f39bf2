/**
 * The embedded catalog index: a SQLite database (better-sqlite3) in a file or in memory. It ships with the
 * plugin for small catalogs, the demo and the tests. Records are stored as their prepared documents;
 * work keys go to their own table with a (key, record) primary key, so "every record sharing any of these
 * keys" is an index range scan. Each key row also carries its record's last_indexed, so a page of versions
 * is chosen from the key rows alone (for a small work, in JavaScript from its few key rows; for a larger
 * one, in one statement) and only that page's documents are read. A load into an empty index
 * stages the documents in unindexed tables and builds the real ones in key order at its end. SQL and table
 * names stay in this file.
 */
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
import { recordFromDocument, type CatalogRecord, type RecordDocument } from '../../record/catalogRecord.js';
import { contentFingerprintOf } from '../../record/recordContent.js';
import { RECORD_FIELD_NAMES } from '../../record/recordFields.js';
import { IndexUnavailableError, InvalidOptionError, InvalidRecordDocumentError } from '../../errors.js';
import { IngestStoppedError, runIngest, type IngestWriter, type StoredContent } from '../../ingest/pipeline.js';
import type { SourceItem } from '../../ingest/sourceRecord.js';
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

export interface RecordSearchResult {
  readonly total: number;
  readonly records: readonly CatalogRecord[];
}

export interface EmbeddedIndex extends CatalogIndex {
  /**
   * Loads record documents in bulk through the ingest pipeline (src/ingest/pipeline.ts); a document whose
   * id is indexed already replaces it.
   */
  load(documents: Iterable<unknown> | AsyncIterable<unknown>, options?: LoadOptions): Promise<LoadSummary>;
  /**
   * A writer for the ingest pipeline. Writers take turns: one opened while another is writing waits for
   * it to close. Into an empty index the writer stages everything and builds the tables when closed.
   */
  openWriter(description?: string): IngestWriter;
  /** How many records the index holds. */
  count(): Promise<number>;
  /**
   * Records whose title or author contain every word of `text` (case- and accent-insensitive), by id:
   * a small catalog's search box (the demo's). Not part of the port: a host on Solr searches Solr.
   */
  searchRecords(text: string, options?: { readonly limit?: number; readonly offset?: number }): Promise<RecordSearchResult>;
  /** The response date of the last successful harvest for this key (base URL, prefix, set), if any. */
  lastHarvest(key: string): Promise<string | undefined>;
  /** Remembers a successful harvest's response date for this key. */
  recordHarvest(key: string, responseDate: string): Promise<void>;
}

/**
 * Kept in `PRAGMA user_version`. 0 is a file made before versions were recorded: work_keys without
 * last_indexed, and an index records_by_last_indexed that no query uses. A writable open migrates it.
 */
const SCHEMA_VERSION = 1;

// work_keys.last_indexed is a copy of the record's, written with it: a versions page is sorted and cut from
// the key rows, and only its documents are read from records. A record's own keys are found through its
// stored document (work_keys_str_mv), not through an index of the key table by record: that index was a
// fifth of the file's bytes and a third sort at the end of every bulk load, for the rare replacement or
// deletion of a record. Files of earlier versions lose it at their first writable open.
const SCHEMA = `
  CREATE TABLE IF NOT EXISTS records (
    id TEXT PRIMARY KEY NOT NULL,
    last_indexed TEXT NOT NULL,
    content_hash TEXT NOT NULL, -- unused since 0.2.0 (written empty); kept so that older files open as they are
    document TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS work_keys (
    key TEXT NOT NULL,
    record_id TEXT NOT NULL,
    last_indexed TEXT NOT NULL,
    PRIMARY KEY (key, record_id)
  ) WITHOUT ROWID;
  DROP INDEX IF EXISTS work_keys_by_record;
  CREATE TABLE IF NOT EXISTS harvests (
    key TEXT PRIMARY KEY NOT NULL,
    response_date TEXT NOT NULL
  ) WITHOUT ROWID;
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

/**
 * The stored JSON of a document: the record fields the plugin reads (recordFields.ts), in the table's order,
 * with `last_indexed` as the last member (the order the files of earlier versions have).
 * Other fields (a MARC record's `author_role`, a host's own) are not stored: the embedded index answers
 * with CatalogRecords, which never carry them, so they would be bytes read for nothing.
 */
function serialise(document: RecordDocument): string {
  // An array replacer keeps just these members (JSON.stringify's own filter, in table order).
  const contentJson = JSON.stringify(document, STORED_FIELDS);
  const lastIndexed = document.last_indexed;
  return lastIndexed === undefined ? contentJson : `${contentJson.slice(0, -1)}${contentJson === '{}' ? '' : ','}"last_indexed":${JSON.stringify(lastIndexed)}}`;
}
const STORED_FIELDS: string[] = RECORD_FIELD_NAMES.filter((name) => name !== 'last_indexed');

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
 * Key rows read in one go before a work counts as large. A CPU profile of the server answering
 * never-asked records (100k-record catalog, 50 connections) had the page statement on top, ~28% of its
 * CPU time; tools/bench/coldLookups.ts measures this path against that statement side by side. Kept low:
 * for a larger work the rows read here are wasted before the page statement runs.
 */
const SMALL_WORK_KEY_ROWS = 16;
/** Up to this many keys are bound one by one (IN (?, ?)): SQLite seeks them without a temporary list. */
const BOUND_KEYS = 8;

/**
 * SQLite's order of TEXT (BINARY: UTF-8 bytes, i.e. code points). JavaScript compares UTF-16 units, which
 * orders differently only where a surrogate (a character above U+FFFF) meets a unit in E000–FFFF.
 */
function compareAsSqlite(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      const xSurrogate = x <= 0xdfff;
      if (xSurrogate !== y <= 0xdfff) return xSurrogate ? 1 : -1;
    }
    return x - y;
  }
  return a.length - b.length;
}

type KeyRowsStatement = Database.Statement<unknown[], [string, string]>;

/**
 * Most works are small (78% of them one record), and for them the page statement's fixed cost dominates:
 * it builds temporary B-trees (the key list, the materialised versions, the grouping, the sort), ~90 us
 * for a one-record work whose key rows take ~15 us to read. So the key rows are read first, at most
 * SMALL_WORK_KEY_ROWS + 1 of them: when that is all there is, grouping (latest last_indexed per record,
 * as MAX() does), sorting (as SQLite orders TEXT), counting and cutting the page happen here, and only the
 * page's documents are read, by id; a larger work goes to the page statement (`large`), which does all of
 * it in SQLite without turning every key row into JavaScript strings. Same pages, same totals either way;
 * a key row whose record is missing counts in the total and gives no document, as the statement's join does.
 */
function smallWorksFromKeyRows(db: Database.Database, selectRecord: Database.Statement<[string], { document: string }>, large: VersionsRows): VersionsRows {
  const byKeyCount: KeyRowsStatement[] = [];
  for (let count = 1; count <= BOUND_KEYS; count++) {
    byKeyCount[count] = db.prepare<unknown[], [string, string]>(
      `SELECT record_id, last_indexed FROM work_keys WHERE key IN (${new Array(count).fill('?').join(', ')}) LIMIT ?`).raw();
  }
  const byKeyList = db.prepare<unknown[], [string, string]>(`SELECT record_id, last_indexed ${KEYED} LIMIT ?`).raw();
  return (keys, query) => {
    const keyList = JSON.parse(keys) as string[];
    const bound = byKeyCount[keyList.length];
    const rows = bound !== undefined ? bound.all(...keyList, SMALL_WORK_KEY_ROWS + 1) : byKeyList.all(keys, SMALL_WORK_KEY_ROWS + 1);
    if (rows.length > SMALL_WORK_KEY_ROWS) return large(keys, query);
    // An id stored with a lone surrogate comes back with U+FFFD in place of bytes that are not UTF-8, and
    // then names no record when asked for again: such a work is left to the statement, which never
    // turns ids into JavaScript strings and back.
    if (rows.some(([id]) => id.includes('\uFFFD'))) return large(keys, query);
    const latest = new Map<string, string>();
    for (const [id, lastIndexed] of rows) {
      const seen = latest.get(id);
      if (seen === undefined || compareAsSqlite(lastIndexed, seen) > 0) latest.set(id, lastIndexed);
    }
    const versions = [...latest];
    versions.sort(query.order === 'last-indexed'
      ? ([idA, a], [idB, b]) => compareAsSqlite(b, a) || compareAsSqlite(idA, idB)
      : ([idA], [idB]) => compareAsSqlite(idA, idB));
    // As LIMIT and OFFSET: no rows for a limit of 0 (see pagesWithTotals), a negative offset counts as 0.
    const offset = Math.max(0, query.offset);
    const page = query.limit > 0 ? versions.slice(offset, offset + query.limit) : [];
    const documents: Array<{ document: string }> = [];
    for (const [id] of page) {
      const row = selectRecord.get(id);
      if (row !== undefined) documents.push(row);
    }
    return { total: versions.length, documents };
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
  const versionsRows = keysCarryLastIndexed
    ? smallWorksFromKeyRows(db, selectRecord, pagesWithTotals(db, countVersions))
    : schema0Pages(db, countVersions);
  const countRecords = db.prepare<[], { total: number }>('SELECT COUNT(*) AS total FROM records');
  // The search box of a small catalog: a scan of titles and authors, matched by folded words. Good for the
  // thousands of records the embedded index is meant for; a large catalog searches its Solr.
  db.function('search_text', { deterministic: true }, (json: unknown) => searchTextOf(String(json)));
  const MATCHES = `FROM records WHERE (SELECT COUNT(*) FROM json_each(?) AS w WHERE instr(search_text(document), w.value) > 0) = ?`;
  const searchRows = db.prepare<[string, number, number, number], { document: string; total: number }>(
    `SELECT document, COUNT(*) OVER () AS total ${MATCHES} ORDER BY id LIMIT ? OFFSET ?`);
  const searchTotal = db.prepare<[string, number], { total: number }>(`SELECT COUNT(*) AS total ${MATCHES}`);
  // Files made before harvests were recorded have no table until a writable open adds it.
  const hasHarvests = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'harvests'").get() !== undefined;
  let harvestStatement: Database.Statement<[string], { response_date: string }> | undefined;
  const harvestRead = () => (hasHarvests || !readOnly
    ? (harvestStatement ??= db.prepare<[string], { response_date: string }>('SELECT response_date FROM harvests WHERE key = ?'))
    : undefined);
  // For each listed record: the distinct records sharing any of its keys (0 when it has none).
  const versionCounts = db.prepare<[string], { id: string; versions: number }>(`
    SELECT r.id AS id,
           (SELECT COUNT(DISTINCT other.record_id)
              FROM json_each(r.document, '$.work_keys_str_mv') AS own JOIN work_keys other ON other.key = own.value) AS versions
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
      return loadDocuments(this.openWriter(), documents, loadOptions);
    },

    openWriter(description = 'embedded index') {
      ensureOpen();
      if (readOnly) throw new InvalidOptionError('readOnly', 'this index was opened read-only and cannot load documents');
      // Writers take turns: this one starts when the one before it has closed.
      let closed!: () => void;
      const turn = lastLoad;
      lastLoad = new Promise<void>((resolve) => { closed = resolve; });
      let writer: Promise<TableWriter> | undefined;
      const ready = () => (writer ??= turn.then(() => {
        ensureOpen();
        return openTableWriter(db, markWritten);
      }));
      return {
        description,
        storedContentOf: async (ids) => (await ready()).storedContentOf(ids),
        put: async (batch) => (await ready()).put(batch),
        delete: async (ids) => (await ready()).delete(ids),
        async close() {
          try {
            if (writer !== undefined) (await writer).close();
          } finally {
            markWritten();
            closed();
          }
        },
      };
    },

    async searchRecords(text, searchOptions = {}) {
      ensureOpen();
      const limit = searchOptions.limit ?? 20;
      const offset = searchOptions.offset ?? 0;
      if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError(`limit must be a whole number >= 0, not ${limit}`);
      if (!Number.isSafeInteger(offset) || offset < 0) throw new RangeError(`offset must be a whole number >= 0, not ${offset}`);
      const words = searchWordsOf(typeof text === 'string' ? text : '');
      if (words.length === 0) return { total: 0, records: [] };
      try {
        const rows = searchRows.all(JSON.stringify(words), words.length, limit, offset);
        return { total: rows[0]?.total ?? (offset > 0 ? searchTotal.get(JSON.stringify(words), words.length)?.total ?? 0 : 0), records: rows.map(decode) };
      } catch (cause) {
        throw unavailable('record search', cause);
      }
    },

    async lastHarvest(key) {
      ensureOpen();
      try {
        return harvestRead()?.get(key)?.response_date;
      } catch (cause) {
        throw unavailable('harvest state', cause);
      }
    },

    async recordHarvest(key, responseDate) {
      ensureOpen();
      if (readOnly) throw new InvalidOptionError('readOnly', 'this index was opened read-only');
      db.prepare('INSERT OR REPLACE INTO harvests (key, response_date) VALUES (?, ?)').run(key, responseDate);
      markWritten();
    },

    async close() {
      if (!open) return;
      open = false;
      db.close();
    },
  };
}

type BatchWriter = (batch: readonly RecordDocument[]) => void;

/** Lower case, accents dropped, letters and digits only: how titles, authors and search words compare. */
function foldForSearch(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

function searchWordsOf(text: string): string[] {
  return [...new Set(foldForSearch(text).split(/[^\p{L}\p{N}]+/u).filter((word) => word !== ''))].slice(0, 16);
}

const SEARCHED_FIELDS = ['title', 'title_short', 'author', 'author2', 'author_corporate'] as const;

/** The folded titles and authors of a stored document, one string to look words up in. */
function searchTextOf(documentJson: string): string {
  const document = JSON.parse(documentJson) as Record<string, unknown>;
  const parts: string[] = [];
  for (const field of SEARCHED_FIELDS) {
    const value = document[field];
    for (const item of Array.isArray(value) ? value : [value]) if (typeof item === 'string') parts.push(item);
  }
  return foldForSearch(parts.join(' '));
}

/** What a writer of the embedded index does once its turn has come. */
interface TableWriter {
  storedContentOf(ids: readonly string[]): Map<string, StoredContent>;
  put(batch: readonly RecordDocument[]): [];
  delete(ids: readonly string[]): void;
  close(): void;
}

/**
 * Into an empty index the writer stages (stagedLoad); into one holding records it replaces by id, one
 * transaction per batch. `markWritten` is called after every commit, so kept answers are dropped.
 */
function openTableWriter(db: Database.Database, markWritten: () => void): TableWriter {
  let bulk = db.prepare('SELECT 1 FROM records LIMIT 1').get() === undefined ? stagedLoad(db) : undefined;
  let writeBatch = bulk?.writeBatch ?? upsertingWriter(db);
  const stored = db.prepare<[string], { document: string }>(
    'SELECT document FROM records WHERE id IN (SELECT value FROM json_each(?))',
  );
  const dropRecords = db.transaction((ids: readonly string[]) => {
    const dropRecord = db.prepare('DELETE FROM records WHERE id = ?');
    const dropKeys = keysOfStoredRecordDropper(db);
    for (const id of ids) {
      dropKeys.run(id);
      dropRecord.run(id);
    }
  });
  return {
    storedContentOf(ids) {
      const held = new Map<string, StoredContent>();
      // An empty index being filled holds nothing to compare with.
      if (bulk !== undefined) return held;
      for (const { document } of stored.all(JSON.stringify(ids))) {
        const parsed = JSON.parse(document) as RecordDocument;
        if (typeof parsed.last_indexed === 'string') held.set(parsed.id, { fingerprint: contentFingerprintOf(parsed), lastIndexed: parsed.last_indexed });
      }
      return held;
    },
    put(batch) {
      writeBatch(batch);
      markWritten();
      return [];
    },
    delete(ids) {
      // Staged documents are not in the tables yet: a deletion must apply after them, so the staged part
      // of the load is moved into place first and the rest of the load replaces record by record.
      if (bulk !== undefined) {
        bulk.finish();
        bulk = undefined;
        writeBatch = upsertingWriter(db);
      }
      dropRecords(ids);
      markWritten();
    },
    close() {
      bulk?.finish();
    },
  };
}

/**
 * EmbeddedIndex.load(): the documents go through the ingest pipeline as they are (no mapping step), with
 * the index's own writer. Without onRejected the first bad document stops the load, as an
 * InvalidRecordDocumentError naming its position; the documents before it are written.
 */
async function loadDocuments(writer: IngestWriter, documents: Iterable<unknown> | AsyncIterable<unknown>, loadOptions: LoadOptions): Promise<LoadSummary> {
  async function* items(): AsyncGenerator<SourceItem<unknown>> {
    let recordNumber = 0;
    for await (const record of documents as AsyncIterable<unknown>) {
      recordNumber += 1;
      yield { kind: 'record', position: { source: 'load()', recordNumber }, record };
    }
  }
  const onRejected = loadOptions.onRejected;
  // The ids of the documents read, by position, for rejection messages (the pipeline's positions carry none).
  const ids = new Map<number, string>();
  let reportedLoaded = 0;
  const summary = await runIngest({
    items: items(),
    toDocument: (record, position) => {
      const id = (record as { id?: unknown } | null)?.id;
      if (typeof id === 'string') ids.set(position.recordNumber, id);
      return record;
    },
    writer,
    now: loadOptions.now ?? (() => new Date()),
    batchSize: loadOptions.batchSize ?? 5000,
    // Reported after each written batch only (the pipeline reports the end too).
    onProgress: (progress) => {
      if (progress.loaded === reportedLoaded) return;
      reportedLoaded = progress.loaded;
      loadOptions.onProgress?.(progress.read);
    },
    onRejected: ({ position, reason }) => {
      const id = ids.get(position.recordNumber);
      if (onRejected === undefined) {
        throw new InvalidRecordDocumentError(`document ${position.recordNumber}${id !== undefined ? ` (id ${JSON.stringify(id)})` : ''}: ${reason}`);
      }
      onRejected({ position: position.recordNumber, ...(id !== undefined ? { id } : {}), reason });
    },
  }).catch((error: unknown) => {
    // A failing source or engine reaches the caller as itself, as before the pipeline.
    throw error instanceof IngestStoppedError ? error.cause : error;
  });
  return { read: summary.read, loaded: summary.loaded, rejected: summary.rejected };
}

/**
 * Deletes the key rows of a stored record (before the record itself is replaced or deleted): its keys are
 * those of its stored document, each row found by the key table's primary key.
 */
function keysOfStoredRecordDropper(db: Database.Database): { run(id: string): unknown } {
  const statement = db.prepare<[{ id: string }]>(`
    DELETE FROM work_keys
     WHERE record_id = @id
       AND key IN (SELECT value FROM json_each((SELECT document FROM records WHERE id = @id), '$.work_keys_str_mv'))`);
  return { run: (id) => statement.run({ id }) };
}

/** Into an index holding records: each document replaces its record and that record's keys. */
function upsertingWriter(db: Database.Database): BatchWriter {
  const upsert = db.prepare('INSERT OR REPLACE INTO records (id, last_indexed, content_hash, document) VALUES (?, ?, ?, ?)');
  const dropKeys = keysOfStoredRecordDropper(db);
  const addKey = db.prepare('INSERT OR IGNORE INTO work_keys (key, record_id, last_indexed) VALUES (?, ?, ?)');
  return db.transaction((batch: readonly RecordDocument[]) => {
    for (const document of batch) {
      const id = document.id;
      // The old record's keys first, while its document is still there to name them.
      dropKeys.run(id);
      upsert.run(id, document.last_indexed, '', serialise(document));
      for (const key of document.work_keys_str_mv ?? []) addKey.run(key, id, document.last_indexed);
    }
  });
}

/**
 * Into an empty index. Inserting records and keys as they come puts each row at a random place of the
 * B-trees, which for 1M records was 83% of a 190–250 s load. So batches are appended to unindexed staging
 * tables (temporary ones: they never reach the index file or its log), and finish() moves them in one
 * transaction with sorted inserts, which append to each B-tree: ~45 s for 1M records. Readers see no record
 * until then, and then all of them.
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
      const { lastInsertRowid } = stageRecord.run(id, document.last_indexed, '', serialise(document));
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
      // SQLite's sorter may use helper threads: the move's sorts took ~13 s for 1M records on one thread
      // (when a third built the key table's record index), ~9 s with two CPUs.
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
