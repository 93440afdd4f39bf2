/**
 * A worker thread of the mapping step (started by mappingWorkers.ts): maps each batch of records it is
 * posted, as bytes, with its format's mapping of bytes (recordFormats.ts, `asBytes.toDocument`) and the
 * load's local mapping settings, and answers the outcomes in the records' order as one JSON text
 * (mappingWorkers.ts, FromMappingWorker, says how they are written).
 *
 * Left to others: batching, ordering and turning outcomes back into documents and errors (mappingWorkers.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { InvalidRecordDocumentError } from '../errors.js';
import { recordFormatNamed } from './recordFormats.js';
import type { FromMappingWorker, MappingWorkerData, ToMappingWorker } from './mappingWorkers.js';

const port = parentPort!;
const { format: formatName, settings } = workerData as MappingWorkerData;
const mapping = recordFormatNamed(formatName)?.asBytes;
if (mapping === undefined) throw new Error(`the record format ${JSON.stringify(formatName)} has no mapping of bytes`);

port.on('message', ({ batch, bytes, ends, positions, keyProfile }: ToMappingWorker) => {
  const all = new Uint8Array(bytes);
  const flat: unknown[] = [];
  let start = 0;
  for (let i = 0; i < ends.length; i++) {
    const end = ends[i]!;
    try {
      flat.push(0, mapping.toDocument(all.subarray(start, end), positions[i]!, settings, keyProfile));
    } catch (error) {
      if (error instanceof InvalidRecordDocumentError) flat.push(1, error.reason);
      else flat.push(2, error instanceof Error ? [error.name, error.message] : ['Error', String(error)]);
    }
    start = end;
  }
  port.postMessage({ batch, outcomes: JSON.stringify(flat) } satisfies FromMappingWorker);
});
