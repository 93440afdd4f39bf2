/**
 * The embedded index's writers (the IngestWriter port, src/ports.ts) and their turns: writers opened on
 * one index write one after another, since a load into an empty index keeps its documents in staging
 * tables (of the index's connection, or of its worker's: tableWriters.ts) until it ends, and a second load
 * must neither see the index as empty nor share them. Each writer names the batch size it takes best.
 *
 * Left to others: what a writer does once its turn has come (tableWriters.ts), what a load is
 * (src/ingest/), the index's lifetime and its kept answers (embeddedIndex.ts calls back on each commit).
 */
import type { WorkKeyProfileName } from '../../work-keys/workKeyProfiles.js';
import type Database from 'better-sqlite3';
import { IndexUnavailableError, InvalidOptionError } from '../../errors.js';
import type { IngestWriter } from '../../ports.js';
import { holdsRecords } from './indexTables.js';
import { openTableWriter, type TableWriter } from './tableWriters.js';

/**
 * Documents per batch that the index's writers prefer, used when a load names none (loadDocuments, the
 * loader command). Into an empty index (the staged load) smaller batches keep fewer documents alive at
 * once on the loading thread, whose garbage collector then copies less; replacing records in a filled
 * index, one transaction per batch, goes the other way (docs/benchmarks.md has the measurements).
 */
export const LOAD_BATCH_SIZES = { intoEmptyIndex: 1000, intoFilledIndex: 5000 } as const;

export interface WriterTurnsContext {
  readonly readOnly: boolean;
  /** Throws when the index has been closed. */
  readonly ensureOpen: () => void;
  /** Called after every commit, so answers kept from before are dropped. */
  readonly markWritten: () => void;
  /** The work-key profile the index is keyed with, told to every writer (keyProfileRecord.ts). */
  readonly keyProfile?: WorkKeyProfileName;
}

export interface WriterTurns {
  /** A writer that waits for the one opened before it to close. */
  open(description: string): IngestWriter;
  /** The index is closing: a load still staged is dropped. */
  abandonActive(): void;
}

export function writerTurnsOn(db: Database.Database, context: WriterTurnsContext): WriterTurns {
  let lastLoad: Promise<unknown> = Promise.resolve();
  // The writer whose turn it is, so that closing the index can end a load still running in a worker.
  let activeWriter: TableWriter | undefined;
  const { ensureOpen, markWritten } = context;
  return {
    open(description) {
      ensureOpen();
      if (context.readOnly) throw new InvalidOptionError('readOnly', 'this index was opened read-only and cannot load documents');
      // Read now, before taking a turn (which a failure here must not leave taken), not when the turn comes:
      // a load queued behind another may find the index filled by then, but only the batch size depends on it.
      let preferredBatchSize: number;
      try {
        preferredBatchSize = holdsRecords(db) ? LOAD_BATCH_SIZES.intoFilledIndex : LOAD_BATCH_SIZES.intoEmptyIndex;
      } catch (cause) {
        throw new IndexUnavailableError(`Embedded index: load failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
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
        ...(context.keyProfile !== undefined ? { keyProfile: context.keyProfile } : {}),
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
    abandonActive() {
      // A load still staged is dropped, as closing the connection drops a stage of its own.
      activeWriter?.abandon();
      activeWriter = undefined;
    },
  };
}
