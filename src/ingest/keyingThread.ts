/**
 * A worker thread of keyingPool.ts: makes the work keys of each batch of documents' keyed fields it is
 * posted, under the batch's profile, and answers them in the documents' order (keysOfFieldsText).
 *
 * Left to others: which documents are keyed, and preparing them with their keys (keyingPool.ts).
 */
import { parentPort } from 'node:worker_threads';
import { keysOfFieldsText, type FromKeyingWorker, type ToKeyingWorker } from './keyingPool.js';

const port = parentPort!;

port.on('message', (message: ToKeyingWorker) => {
  port.postMessage({ batch: message.batch, keys: keysOfFieldsText(message) } satisfies FromKeyingWorker);
});
