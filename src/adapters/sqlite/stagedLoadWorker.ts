/**
 * The worker thread of a staged bulk load into an empty index file (started by stagedLoadOffThread.ts):
 * it opens its own connection to the file and runs tableWriters.ts's stagedLoad on it, staging each batch
 * of rows it is posted and, when told to finish, moving the stage into the tables in one transaction.
 * That commit is what readers on the index's own connection see, all at once (their data_version changes).
 *
 * It answers each batch (so the main thread can wait when too many are queued), reports a failure once,
 * as name, message and code (a class does not survive postMessage), and after a failed batch stages no
 * more, but still moves what was staged before it when told to finish, as the load did on one thread.
 * Turning faults back into errors, and ending this thread, is stagedLoadOffThread.ts's job.
 */
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { stagedLoad } from './stagedLoad.js';
import type { FromStagedLoadWorker, StagedLoadWorkerData, ToStagedLoadWorker, WorkerFault } from './stagedLoadOffThread.js';

const port = parentPort!;
const post = (message: FromStagedLoadWorker) => port.postMessage(message);

function faultOf(error: unknown): WorkerFault {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const code = (error as { code?: unknown }).code;
  return { name: error.name, message: error.message, ...(typeof code === 'string' ? { code } : {}) };
}

let db: Database.Database | undefined;
let load: ReturnType<typeof stagedLoad> | undefined;
try {
  const BetterSqlite3 = createRequire(import.meta.url)('better-sqlite3') as typeof Database;
  db = new BetterSqlite3((workerData as StagedLoadWorkerData).path, { fileMustExist: true });
  // As the index's connection sets it. In WAL mode, or in rollback-journal mode for a file only this load
  // has open (stagedLoadOffThread.ts): the journal is synced before the file is written, so a crash leaves
  // the journal that restores the empty index.
  db.pragma('synchronous = NORMAL');
  load = stagedLoad(db);
} catch (error) {
  db?.close();
  db = undefined;
  post({ type: 'failed', fault: faultOf(error) });
}

// After a failed batch nothing more is staged; what was staged before it is still moved on finish.
let staging = load !== undefined;

port.on('message', (message: ToStagedLoadWorker) => {
  if (message.type === 'rows') {
    try {
      if (staging) load?.writeRows(message.rows);
    } catch (error) {
      staging = false;
      post({ type: 'failed', fault: faultOf(error) });
    }
    post({ type: 'staged' });
    return;
  }
  try {
    load?.finish();
  } catch (error) {
    post({ type: 'failed', fault: faultOf(error) });
  } finally {
    db?.close();
    db = undefined;
    load = undefined;
    post({ type: 'finished' });
  }
});
