/**
 * What the writer of a bulk load (tableWriters.ts) and the places its SQLite side runs (tableWriters.ts's
 * stagedLoad on the index's connection, stagedLoadOffThread.ts in a worker thread) pass each other: the
 * staged rows of a batch and the load's three steps. Its own module so that neither side imports the other.
 */

/**
 * A batch as the staging inserts take it: for each document its id, its last_indexed in milliseconds, the
 * number of its work keys, the keys, and its document column, one after another in one flat array. It is
 * what a worker is posted (stagedLoadOffThread.ts), written on the thread that prepared the documents.
 * Cloning this array costs less than an array of one object per document or one joined string, and
 * posting the documents themselves loaded no faster and took more CPU time (docs/benchmarks.md).
 */
export type StagedRows = (string | number)[];

/**
 * A staged load as the writer drives it, wherever its SQLite side runs: on the index's connection
 * (stagedLoad) or in a worker thread (stagedLoadOffThread.ts).
 */
export interface BulkLoad {
  put(rows: StagedRows): void | Promise<void>;
  /** Moves what was staged into the tables (all readers see it from then on) and drops the stage. */
  finish(): void | Promise<void>;
  abandon(): void;
}
