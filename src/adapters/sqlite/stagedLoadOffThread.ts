/**
 * The main thread's side of a staged bulk load into an empty index file that runs in a worker thread
 * (stagedLoadWorker.ts): starts the worker, posts it each batch as flat rows (bulkLoad.ts, StagedRows),
 * waits for it when it falls behind, and at the end has it move the stage into the tables. Meanwhile this
 * thread goes on reading, checking and keying the next documents; the worker's staging runs while this
 * thread works, and only the final move is waited for (docs/benchmarks.md).
 *
 * It also turns what goes wrong in the worker into what the caller of put/close saw when the load ran
 * here: an engine error as better-sqlite3's SqliteError, too many keys of one hash as IndexUnavailableError,
 * anything else (the worker failing to start or dying) as IndexUnavailableError. The worker is ended in
 * every case: after the move, after a failure, and when the index is closed during the load (abandon).
 *
 * While it runs, the file is out of write-ahead logging when this connection is the only one open on it
 * (withoutWriteAheadLog): the move then writes each page of the new tables once, into the file, instead
 * of into the log and again into the file; a crash in the middle leaves the rollback journal, which the
 * next writable open rolls back to the empty index (docs/loading.md, "Killed halfway").
 *
 * Left to others: what staging and the move do (tableWriters.ts, stagedLoad), the worker's own loop
 * (stagedLoadWorker.ts), writer turns and dropping kept answers (writerTurns.ts, embeddedIndex.ts).
 */
import { createRequire } from 'node:module';
import type { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { IndexUnavailableError } from '../../errors.js';
import { startWorkerThread } from '../../workerThreadStart.js';
import type { BulkLoad, StagedRows } from './bulkLoad.js';

/** What the main thread posts the worker. */
export type ToStagedLoadWorker = { readonly type: 'rows'; readonly rows: StagedRows } | { readonly type: 'finish' };

/** What the worker posts back: a batch staged, a failure, and the end of the move (after any failure). */
export type FromStagedLoadWorker =
  | { readonly type: 'staged' }
  | { readonly type: 'failed'; readonly fault: WorkerFault }
  | { readonly type: 'finished' };

/** An error of the worker as it crosses to this thread (structured clone keeps no class or code). */
export interface WorkerFault {
  readonly name: string;
  readonly message: string;
  readonly code?: string;
}

export interface StagedLoadWorkerData {
  readonly path: string;
}

/**
 * Batches posted and not yet staged before put waits for the worker. A batch is megabytes as rows
 * (docs/benchmarks.md); a few in flight let this thread prepare ahead without queueing a load's
 * worth of batches in memory when the worker is the slower side.
 */
const MAX_IN_FLIGHT = 3;

/** The worker's young generation (V8's default is larger; see startWorker). */
const WORKER_YOUNG_GENERATION_MB = 16;

const require = createRequire(import.meta.url);

/** The error the caller would have got had the worker's statement run on this thread. */
function errorOfFault(fault: WorkerFault): Error {
  if (fault.name === 'IndexUnavailableError') return new IndexUnavailableError(fault.message);
  if (fault.name === 'SqliteError' && fault.code !== undefined) {
    const { SqliteError } = require('better-sqlite3') as typeof Database;
    return new SqliteError(fault.message, fault.code);
  }
  return new IndexUnavailableError(`Embedded index: load failed: ${fault.message}`);
}

function startWorker(path: string): Worker {
  return startWorkerThread(import.meta.url, 'stagedLoadWorker', {
    workerData: { path } satisfies StagedLoadWorkerData,
    // Its garbage is the batches it was posted, short-lived: with a young generation this size instead of
    // V8's default, its heap before the move of a large load is markedly smaller (docs/benchmarks.md).
    resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
  });
}

/**
 * Takes the index file out of write-ahead logging (into SQLite's rollback journal, whose file holds only
 * the pages the empty index had) when this connection is the only one open on it, and answers how to put
 * it back. A connection elsewhere, another process's reader included, keeps the file in WAL (SQLite
 * refuses the switch), and the load runs as it did there. While the move holds the file, a read on this
 * connection fails at once (an IndexUnavailableError of the read) rather than blocking this thread for the
 * busy timeout; before and after the move reads go on as before.
 */
function withoutWriteAheadLog(db: Database.Database): { moving(): void; restore(): void } {
  let switched = false;
  try {
    switched = db.pragma('journal_mode = DELETE', { simple: true }) === 'delete';
  } catch {
    // SQLITE_BUSY: another connection has the file open in WAL mode.
  }
  const busyTimeout = db.pragma('busy_timeout', { simple: true }) as number;
  return {
    moving() {
      if (switched) db.pragma('busy_timeout = 0');
    },
    restore() {
      if (!switched || !db.open) return;
      switched = false;
      db.pragma(`busy_timeout = ${busyTimeout}`);
      // A reader of another process in the middle of a statement can refuse it; the file is whole either
      // way, and the index's next open sets WAL again (embeddedIndex.ts).
      try {
        db.pragma('journal_mode = WAL');
      } catch {
        // left in rollback-journal mode until then
      }
    },
  };
}

export function stagedLoadOffThread(db: Database.Database): BulkLoad {
  const journal = withoutWriteAheadLog(db);
  const worker = startWorker(db.name);
  let inFlight = 0;
  let finished = false;
  let exited = false;
  let abandoned = false;
  // The first failure, and whether a caller has been given it (put throws it; close throws it only when
  // no put did, after moving what was staged before it, as a close after a failed put did on one thread).
  let failure: Error | undefined;
  let failureThrown = false;
  // The checks of the puts and finishes waiting for the worker, run on each of its messages.
  const waiting = new Set<() => void>();
  const wake = () => {
    for (const check of waiting) check();
  };

  worker.on('message', (message: FromStagedLoadWorker) => {
    if (message.type === 'staged') inFlight -= 1;
    else if (message.type === 'finished') finished = true;
    else failure ??= errorOfFault(message.fault);
    wake();
  });
  worker.on('error', (error) => {
    failure ??= new IndexUnavailableError(`Embedded index: the load's worker failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    wake();
  });
  worker.on('exit', () => {
    exited = true;
    if (!finished) failure ??= new IndexUnavailableError("Embedded index: the load's worker stopped before the load ended");
    wake();
  });

  // The worker holds the process open only while this thread waits for it (until): a load abandoned
  // without close() must not keep the process alive, as it did not when the load ran on this thread.
  // After the listeners: adding a 'message' listener refs the worker again.
  worker.unref();

  /** Resolves once `done()` holds or the worker has ended; the worker keeps the process alive meanwhile. */
  const until = (done: () => boolean): Promise<void> => new Promise((resolve) => {
    const check = () => {
      if (!done() && !exited) return;
      waiting.delete(check);
      if (waiting.size === 0) worker.unref();
      resolve();
    };
    waiting.add(check);
    worker.ref();
    check();
  });

  const throwFailure = () => {
    if (failure === undefined) return;
    failureThrown = true;
    throw failure;
  };

  let ending: Promise<void> | undefined;
  const end = async () => {
    try {
      if (!exited && !abandoned) {
        journal.moving();
        worker.postMessage({ type: 'finish' } satisfies ToStagedLoadWorker);
        await until(() => finished || abandoned);
      }
    } finally {
      await worker.terminate();
      if (!abandoned) journal.restore();
    }
  };

  return {
    async put(rows) {
      throwFailure();
      worker.postMessage({ type: 'rows', rows } satisfies ToStagedLoadWorker);
      inFlight += 1;
      if (inFlight > MAX_IN_FLIGHT) await until(() => inFlight <= MAX_IN_FLIGHT || failure !== undefined);
      throwFailure();
    },
    async finish() {
      // A second finish (close after a deletion finished the load, or after a failed finish) has nothing
      // left to do.
      const first = ending === undefined;
      ending ??= end();
      await ending;
      if (first && !abandoned && !failureThrown) throwFailure();
    },
    abandon() {
      if (abandoned) return;
      abandoned = true;
      failure ??= new IndexUnavailableError('Embedded index: closed during a load');
      void worker.terminate();
      wake();
    },
  };
}
