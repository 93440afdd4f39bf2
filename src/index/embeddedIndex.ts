/**
 * The embedded catalog index: a SQLite database (better-sqlite3) in a file or in memory. It ships with the
 * plugin for small catalogs, the demo and the tests. Records are stored as their prepared documents;
 * work keys go to their own table with a (key, record) primary key, so "every record sharing any of these
 * keys" is an index range scan. SQL and table names stay in this file.
 */
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { recordFromDocument, type CatalogRecord, type RecordDocument } from '../core/catalogRecord.js';
import { IndexUnavailableError, InvalidOptionError, InvalidRecordDocumentError } from '../core/errors.js';
import { prepareRecordDocument } from '../core/prepareRecordDocument.js';
import type { CatalogIndex, VersionsPage, VersionsQuery } from './catalogIndex.js';

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
    PRIMARY KEY (key, record_id)
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS work_keys_by_record ON work_keys (record_id);
  CREATE INDEX IF NOT EXISTS records_by_last_indexed ON records (last_indexed DESC, id);
`;

/** The content of a document apart from `last_indexed`, so a re-load of unchanged content is recognised. */
function contentHashOf(document: RecordDocument): string {
  const { last_indexed: _ignored, ...content } = document;
  return createHash('sha256').update(JSON.stringify(content)).digest('base64url');
}

function unavailable(action: string, cause: unknown): IndexUnavailableError {
  return new IndexUnavailableError(`Embedded index: ${action} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
}

export function openEmbeddedIndex(options: EmbeddedIndexOptions): EmbeddedIndex {
  if (options === null || typeof options !== 'object' || typeof options.path !== 'string' || options.path === '') {
    throw new InvalidOptionError('path', "give a file path or ':memory:'");
  }
  const readOnly = options.readOnly === true;
  const db = new Database(options.path, readOnly ? { readonly: true, fileMustExist: true } : {});
  if (!readOnly) {
    if (options.path !== ':memory:') db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec(SCHEMA);
  }

  const selectRecord = db.prepare<[string], { document: string }>('SELECT document FROM records WHERE id = ?');
  // Keys travel as one JSON array parameter: any number of keys, no SQL variable limit.
  const keyedIds = `SELECT DISTINCT record_id FROM work_keys WHERE key IN (SELECT value FROM json_each(?))`;
  const countVersions = db.prepare<[string], { total: number }>(`SELECT COUNT(*) AS total FROM (${keyedIds})`);
  const versionsByLastIndexed = db.prepare<[string, number, number], { document: string }>(
    `SELECT document FROM records WHERE id IN (${keyedIds}) ORDER BY last_indexed DESC, id ASC LIMIT ? OFFSET ?`,
  );
  const versionsById = db.prepare<[string, number, number], { document: string }>(
    `SELECT document FROM records WHERE id IN (${keyedIds}) ORDER BY id ASC LIMIT ? OFFSET ?`,
  );
  const countRecords = db.prepare<[], { total: number }>('SELECT COUNT(*) AS total FROM records');
  // For each listed record: the distinct records sharing any of its keys (0 when it has none).
  const versionCounts = db.prepare<[string], { id: string; versions: number }>(`
    SELECT r.id AS id,
           (SELECT COUNT(DISTINCT other.record_id)
              FROM work_keys own JOIN work_keys other ON other.key = own.key
             WHERE own.record_id = r.id) AS versions
      FROM records r
     WHERE r.id IN (SELECT value FROM json_each(?))`);

  let open = true;
  const ensureOpen = () => {
    if (!open) throw new IndexUnavailableError('Embedded index: used after close()');
  };

  return {
    async getRecord(id) {
      ensureOpen();
      let row: { document: string } | undefined;
      try {
        row = selectRecord.get(id);
      } catch (cause) {
        throw unavailable('record lookup', cause);
      }
      return row === undefined ? undefined : recordFromDocument(JSON.parse(row.document));
    },

    async findVersions(query: VersionsQuery): Promise<VersionsPage> {
      ensureOpen();
      const keys = JSON.stringify(query.workKeys);
      const statement = query.order === 'last-indexed' ? versionsByLastIndexed : versionsById;
      try {
        const total = countVersions.get(keys)?.total ?? 0;
        const rows = query.limit > 0 && query.offset < total ? statement.all(keys, query.limit, query.offset) : [];
        return { total, records: rows.map((row): CatalogRecord => recordFromDocument(JSON.parse(row.document))) };
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

    async count() {
      ensureOpen();
      return countRecords.get()?.total ?? 0;
    },

    async load(documents, loadOptions = {}) {
      ensureOpen();
      if (readOnly) throw new InvalidOptionError('readOnly', 'this index was opened read-only and cannot load documents');
      const now = loadOptions.now ?? (() => new Date());
      const batchSize = loadOptions.batchSize ?? 5000;
      const stored = db.prepare<[string], { last_indexed: string; content_hash: string }>(
        'SELECT last_indexed, content_hash FROM records WHERE id = ?',
      );
      const upsert = db.prepare('INSERT OR REPLACE INTO records (id, last_indexed, content_hash, document) VALUES (?, ?, ?, ?)');
      const dropKeys = db.prepare('DELETE FROM work_keys WHERE record_id = ?');
      const addKey = db.prepare('INSERT OR IGNORE INTO work_keys (key, record_id) VALUES (?, ?)');
      const writeBatch = db.transaction((batch: RecordDocument[]) => {
        for (const document of batch) {
          const id = document.id;
          upsert.run(id, document.last_indexed, contentHashOf(document), JSON.stringify(document));
          dropKeys.run(id);
          for (const key of document.work_keys_str_mv ?? []) addKey.run(key, id);
        }
      });

      let read = 0;
      let loaded = 0;
      let rejected = 0;
      let batch: RecordDocument[] = [];
      const flush = () => {
        if (batch.length === 0) return;
        writeBatch(batch);
        loaded += batch.length;
        batch = [];
        loadOptions.onProgress?.(read);
      };
      for await (const input of documents as AsyncIterable<unknown>) {
        read += 1;
        let document: RecordDocument;
        try {
          const prepared = prepareRecordDocument(input, now());
          document = prepared.document;
          if (prepared.lastIndexedFromClock) {
            // Loading unchanged content again keeps its last_indexed: loading a file twice leaves the same index.
            const previous = stored.get(document.id);
            if (previous !== undefined && previous.content_hash === contentHashOf(document)) document.last_indexed = previous.last_indexed;
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
      return { read, loaded, rejected };
    },

    async close() {
      if (!open) return;
      open = false;
      db.close();
    },
  };
}
