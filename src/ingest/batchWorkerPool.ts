/**
 * Worker threads that take batches in turn, for the pipeline's batch mappings (mappingPool.ts maps
 * records from their bytes, keyingPool.ts keys documents a program holds): each batch goes to the
 * least busy worker as the message its mapping makes of it, at most BATCHES_PER_WORKER batches to a
 * worker, the rest waiting here; when the pipeline would wait, it has this thread run a waiting batch
 * instead (runOneHere), so no thread idles while records wait. A worker is started only when those
 * already there hold all they take and a batch waits, so a mapping that keeps few batches in flight
 * does not pay for V8 instances it would not use.
 *
 * Left to others: what a batch is, the messages and what a worker does with them (the mappings and their
 * worker modules).
 */
import { availableParallelism } from 'node:os';
import type { Transferable, Worker } from 'node:worker_threads';
import { startWorkerThread } from '../workerThreadStart.js';

/** Batches a worker holds at once (one it maps, one waiting in its port), so that it never waits for this thread. */
const BATCHES_PER_WORKER = 2;

/** The workers' young generation (V8's default is larger). */
const WORKER_YOUNG_GENERATION_MB = 16;

/**
 * The default number of mapping threads: as many as the cores on one or two (on 2 cores two workers were
 * faster than one, docs/benchmarks.md: this thread maps only when it would wait), else the cores but one.
 */
export function defaultMappingWorkers(): number {
  const cores = availableParallelism();
  return cores <= 2 ? cores : cores - 1;
}

export interface BatchWorkerPoolOptions<Batch, Result> {
  /** `import.meta.url` of the module beside which the worker module lies, and its name without extension. */
  readonly callerUrl: string;
  readonly stem: string;
  readonly workerData: unknown;
  readonly workers: number;
  /** The message posted for a batch (the pool adds its number as `batch`) and what it transfers. */
  readonly messageOf: (batch: Batch) => { readonly message: object; readonly transfer: readonly Transferable[] };
  /** A worker's answer (a message carrying `batch`) as the batch's result. */
  readonly resultOf: (answer: { readonly batch: number }, batch: Batch) => Result;
  /** The batch's result made on this thread. */
  readonly here: (batch: Batch) => Result;
}

export interface BatchWorkerPool<Batch, Result> {
  run(batch: Batch): Promise<Result>;
  /** Runs the newest waiting batch on this thread; false when none waits. */
  runOneHere(): boolean;
  close(): Promise<void>;
}

interface Queued<Batch, Result> {
  readonly batch: Batch;
  resolve(result: Result): void;
  reject(error: Error): void;
}

/** Starts the workers at the first batch; they end at close, or fail every batch if one dies. */
export function startBatchWorkerPool<Batch, Result>(options: BatchWorkerPoolOptions<Batch, Result>): BatchWorkerPool<Batch, Result> {
  /** Batches no worker has taken yet, oldest first: the next free worker takes them, or this thread. */
  const queue: Queued<Batch, Result>[] = [];
  const posted = new Map<number, Queued<Batch, Result>>();
  const held = new Map<Worker, number>();
  let failure: Error | undefined;
  let closed = false;
  let nextBatch = 0;
  const fail = (error: Error) => {
    failure ??= error;
    for (const queued of [...posted.values(), ...queue.splice(0)]) queued.reject(failure);
    posted.clear();
  };
  const workers: Worker[] = [];
  /** Posts waiting batches to workers holding fewer than BATCHES_PER_WORKER; refs a worker while it holds any. */
  const pump = () => {
    // A worker more only when the ones there are hold all they take and a batch still waits: a mapping
    // that keeps fewer batches in flight than one worker holds (keyingPool.ts) starts one.
    if (queue.length > 0 && workers.length < options.workers && workers.every((worker) => held.get(worker)! >= BATCHES_PER_WORKER)) startOne();
    for (const worker of workers) {
      while (queue.length > 0 && held.get(worker)! < BATCHES_PER_WORKER) {
        const queued = queue.shift()!;
        const batch = nextBatch++;
        posted.set(batch, queued);
        held.set(worker, held.get(worker)! + 1);
        worker.ref();
        const { message, transfer } = options.messageOf(queued.batch);
        worker.postMessage({ ...message, batch }, transfer);
      }
    }
  };
  // Started as batches come (pump): a load that stops before its first (refused options, an empty file) starts none.
  const startOne = () => {
    // Its garbage is short-lived (a batch's records and documents): a small young generation, as the
    // staged load's worker has (src/adapters/sqlite/stagedLoadOffThread.ts), keeps its heap small.
    const worker = startWorkerThread(options.callerUrl, options.stem, { workerData: options.workerData, resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB } });
    held.set(worker, 0);
    worker.on('message', (answer: { readonly batch: number }) => {
      const queued = posted.get(answer.batch);
      if (queued === undefined) return;
      posted.delete(answer.batch);
      held.set(worker, held.get(worker)! - 1);
      // Like the staged load's worker (src/adapters/sqlite/stagedLoadOffThread.ts): it holds the
      // process open only while it holds a batch, so a load abandoned without close does not keep it alive.
      if (held.get(worker) === 0) worker.unref();
      try {
        queued.resolve(options.resultOf(answer, queued.batch));
      } catch (error) {
        queued.reject(error instanceof Error ? error : new Error(String(error)));
      }
      pump();
    });
    worker.on('error', (error) => fail(new Error(`a mapping worker failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error })));
    worker.on('exit', () => {
      if (!closed) fail(new Error('a mapping worker stopped before the load ended'));
    });
    worker.unref();
    workers.push(worker);
  };
  return {
    run(batch) {
      if (failure !== undefined) return Promise.reject(failure);
      if (closed) return Promise.reject(new Error('the mapping workers are closed'));
      return new Promise<Result>((resolve, reject) => {
        queue.push({ batch, resolve, reject });
        pump();
      });
    },
    runOneHere() {
      // The newest batch: the workers take the oldest next, and the pipeline waits for the oldest first.
      const queued = queue.pop();
      if (queued === undefined) return false;
      try {
        queued.resolve(options.here(queued.batch));
      } catch (error) {
        queued.reject(error instanceof Error ? error : new Error(String(error)));
      }
      return true;
    },
    async close() {
      if (closed) return;
      closed = true;
      fail(new Error('the mapping workers are closed'));
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}
