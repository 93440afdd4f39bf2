/**
 * A worker thread of the mapping step (started by mappingWorkers.ts): maps each batch of records it is
 * posted, as bytes, with its format's mapping of bytes (recordFormats.ts, `asBytes.toDocument`) and the
 * load's local mapping settings, and answers the outcomes in the records' order as one JSON text
 * (mappingWorkers.ts, FromMappingWorker, says how they are written).
 *
 * Left to others: batching, ordering and turning outcomes back into documents and errors (mappingWorkers.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { bytesMappingOf, outcomeOf, type FromMappingWorker, type MappingWorkerData, type ToMappingWorker } from './mappingWorkers.js';

const port = parentPort!;
const { format, settings } = workerData as MappingWorkerData;
const mapping = bytesMappingOf(format);

port.on('message', ({ batch, bytes, ends, positions, keyProfile }: ToMappingWorker) => {
  const all = new Uint8Array(bytes);
  const flat: unknown[] = [];
  let start = 0;
  for (let i = 0; i < ends.length; i++) {
    const end = ends[i]!;
    const outcome = outcomeOf(mapping, all.subarray(start, end), positions[i]!, settings, keyProfile);
    if ('value' in outcome) flat.push(0, outcome.value);
    else if ('rejected' in outcome) flat.push(1, outcome.rejected);
    else flat.push(2, [outcome.failed.name, outcome.failed.message]);
    start = end;
  }
  port.postMessage({ batch, outcomes: JSON.stringify(flat) } satisfies FromMappingWorker);
});
