/**
 * The embedded catalog index: a SQLite database (better-sqlite3) in a file or in memory. It ships with the
 * plugin for small catalogs, the demo and the tests. The tables and how a record is stored are
 * indexTables.ts's; the read path is versionsReads.ts's, the writers tableWriters.ts's, files of earlier
 * layouts legacyLayouts.ts's. This module opens the file, brings it to the current layout, and answers
 * the port (CatalogIndex) and the embedded index's own operations with those, turning engine failures into
 * IndexUnavailableError.
 */
import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
import { recordFromDocument, type CatalogRecord } from '../../record/catalogRecord.js';
import { IndexUnavailableError, InvalidOptionError, InvalidRecordDocumentError } from '../../errors.js';
import { IngestStoppedError, runIngest, type IngestWriter } from '../../ingest/pipeline.js';
import type { SourceItem } from '../../ingest/sourceRecord.js';
import type { CatalogIndex, VersionsPage, VersionsQuery } from '../../versions/catalogIndex.js';
import { checkRecordId, checkRecordIds, checkVersionsQuery } from '../../versions/versionsQuery.js';
import { holdsRecords, RECORD_COLUMNS, recordOfRow, SCHEMA, SCHEMA_VERSION, schemaVersionOf, type RecordRow } from './indexTables.js';
import { legacyReads, migrateLegacyFile, readableAsItIs } from './legacyLayouts.js';
import { openTableWriter, type TableWriter } from './tableWriters.js';
import { currentReads, type IndexReads } from './versionsReads.js';

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
  const legacy = hasTables && version < SCHEMA_VERSION;
  if (readOnly) {
    if (legacy && !readableAsItIs(version)) {
      throw new InvalidOptionError('readOnly', `the index file has the layout of a 0.2.0 pre-release (schema ${version}), which is rebuilt, not read: open it once without readOnly`);
    }
    return !legacy;
  }
  if (legacy) {
    migrateLegacyFile(db, version);
  } else {
    db.transaction(() => {
      db.exec(SCHEMA);
      if (version !== SCHEMA_VERSION) db.pragma(`user_version = ${SCHEMA_VERSION}`);
    })();
  }
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

function embeddedIndexOn(db: Database.Database, readOnly: boolean, currentLayout: boolean): EmbeddedIndex {
  const reads: IndexReads = currentLayout ? currentReads(db) : legacyReads(db);
  const countRecords = db.prepare<[], number>('SELECT COUNT(*) FROM records').pluck();
  // The search box of a small catalog: a scan of titles and authors, matched by folded words. Good for the
  // thousands of records the embedded index is meant for; a large catalog searches its Solr.
  db.function('search_text', { deterministic: true }, (json: unknown) => searchTextOf(String(json)));
  const MATCHES = `FROM records AS r WHERE (SELECT COUNT(*) FROM json_each(?) AS w WHERE instr(search_text(r.document), w.value) > 0) = ?`;
  const searchRows = db.prepare<[string, number, number, number], RecordRow & { total: number }>(
    `SELECT ${currentLayout ? RECORD_COLUMNS : 'r.document AS document'}, COUNT(*) OVER () AS total ${MATCHES} ORDER BY r.id LIMIT ? OFFSET ?`);
  const searchTotal = db.prepare<[string, number], number>(`SELECT COUNT(*) ${MATCHES}`).pluck();
  const decodeFound = currentLayout ? recordOfRow : (row: { document: string }) => recordFromDocument(JSON.parse(row.document));
  // Files made before harvests were recorded have no table until a writable open adds it.
  const hasHarvests = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'harvests'").get() !== undefined;
  let harvestStatement: Database.Statement<[string], { response_date: string }> | undefined;
  const harvestRead = () => (hasHarvests || !readOnly
    ? (harvestStatement ??= db.prepare<[string], { response_date: string }>('SELECT response_date FROM harvests WHERE key = ?'))
    : undefined);

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
    reads.forgetRecent?.();
  };

  let open = true;
  const ensureOpen = () => {
    if (!open) throw new IndexUnavailableError('Embedded index: used after close()');
  };

  // Loads run one after another: a load into an empty index keeps its documents in staging tables (of
  // this connection, or of its worker's: tableWriters.ts) until it ends, and a second load must neither
  // see the index as empty nor share them.
  let lastLoad: Promise<unknown> = Promise.resolve();
  // The writer whose turn it is, so that closing the index can end a load still running in a worker.
  let activeWriter: TableWriter | undefined;

  return {
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
      return countRecords.get() ?? 0;
    },

    async load(documents, loadOptions = {}) {
      ensureOpen();
      if (readOnly) throw new InvalidOptionError('readOnly', 'this index was opened read-only and cannot load documents');
      return loadDocuments(this.openWriter(), documents, loadOptions);
    },

    openWriter(description = 'embedded index') {
      ensureOpen();
      if (readOnly) throw new InvalidOptionError('readOnly', 'this index was opened read-only and cannot load documents');
      // Read now, before taking a turn (which a failure here must not leave taken), not when the turn comes:
      // a load queued behind another may find the index filled by then, but only the batch size depends on it.
      let preferredBatchSize: number;
      try {
        preferredBatchSize = holdsRecords(db) ? LOAD_BATCH_SIZES.intoFilledIndex : LOAD_BATCH_SIZES.intoEmptyIndex;
      } catch (cause) {
        throw unavailable('load', cause);
      }
      // Writers take turns: this one starts when the one before it has closed.
      let closed!: () => void;
      const turn = lastLoad;
      lastLoad = new Promise<void>((resolve) => { closed = resolve; });
      let writer: Promise<TableWriter> | undefined;
      const ready = () => (writer ??= turn.then(() => {
        ensureOpen();
        activeWriter = openTableWriter(db);
        return activeWriter;
      }));
      // Every commit drops kept answers (markWritten): a put or delete commits, and close() commits a
      // staged load (a load run by a worker commits on the worker's connection: this connection's
      // data_version changes, and markWritten here drops what was kept in between).
      return {
        description,
        preferredBatchSize,
        storedContentOf: async (ids) => (await ready()).storedContentOf(ids),
        put: async (batch) => {
          await (await ready()).put(batch);
          markWritten();
          return [];
        },
        delete: async (ids) => {
          await (await ready()).delete(ids);
          markWritten();
        },
        async close() {
          let opened: TableWriter | undefined;
          try {
            if (writer !== undefined) {
              opened = await writer;
              await opened.close();
            }
          } finally {
            if (opened !== undefined && activeWriter === opened) activeWriter = undefined;
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
        return { total: rows[0]?.total ?? (offset > 0 ? searchTotal.get(JSON.stringify(words), words.length) ?? 0 : 0), records: rows.map(decodeFound) };
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
      // A load still staged is dropped, as closing the connection drops a stage of its own.
      activeWriter?.abandon();
      activeWriter = undefined;
      db.close();
    },
  };
}

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


/**
 * Documents per batch that the index's writers prefer, used when a load names none (load(), the loader
 * command). Into an empty index (the staged load) smaller batches keep fewer documents alive at once on
 * the loading thread, whose garbage collector then copies less: 1,000,000 records in 30.2/33.1 s with
 * 1,000 against 34.9/35.6 s with 5,000, alternated. Replacing records in a filled index, one transaction
 * per batch, goes the other way: 100,000 records in 10.8/11.5 s with 5,000 against 16.9/13.8 s with 1,000
 * through load(), 9.1/11.9 s against 13.9/15.8 s through the loader command.
 */
export const LOAD_BATCH_SIZES = { intoEmptyIndex: 1000, intoFilledIndex: 5000 } as const;

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
  // The id of the document read last, for the message of its rejection (the pipeline's positions carry
  // none): the pipeline rejects a document as soon as it has read it, and this index's writer refuses
  // none later. A map of every id read, kept before, was ~60 MB of a million-document load's peak.
  let lastReadNumber = 0;
  let lastReadId: string | undefined;
  let reportedLoaded = 0;
  const summary = await runIngest({
    items: items(),
    toDocument: (record, position) => {
      const id = (record as { id?: unknown } | null)?.id;
      lastReadNumber = position.recordNumber;
      lastReadId = typeof id === 'string' ? id : undefined;
      return record;
    },
    writer,
    now: loadOptions.now ?? (() => new Date()),
    ...(loadOptions.batchSize !== undefined ? { batchSize: loadOptions.batchSize } : {}),
    // Reported after each written batch only (the pipeline reports the end too).
    onProgress: (progress) => {
      if (progress.loaded === reportedLoaded) return;
      reportedLoaded = progress.loaded;
      loadOptions.onProgress?.(progress.read);
    },
    onRejected: ({ position, reason }) => {
      const id = position.recordNumber === lastReadNumber ? lastReadId : undefined;
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
