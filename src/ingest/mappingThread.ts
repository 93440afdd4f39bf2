/**
 * A worker thread of the mapping step (started by mappingPool.ts): maps each batch of records it is
 * posted, as bytes, with its format's mapping of bytes (recordFormats.ts, `asBytes.toDocument`) and the
 * load's local mapping settings, prepares each document (checked, keyed, stamped with the clock posted
 * with it: mappingPool.ts, outcomeOf), and answers the outcomes in the records' order, each as a short
 * text with, for a document, where its stored fields lie in it (mappingOutcomeTexts.ts, FromMappingWorker,
 * outcomeText and storedFieldRuns, say how they are written).
 *
 * Left to others: batching, ordering and turning outcomes back into documents and errors (mappingPool.ts,
 * mappingOutcomeTexts.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { bytesMappingOf, outcomeOf, unpackedPosition, type MappingWorkerData, type ToMappingWorker } from './mappingPool.js';
import { outcomeText, OutcomeTexts, storedFieldRuns, type FromMappingWorker } from './mappingOutcomeTexts.js';

const port = parentPort!;
const { format, settings } = workerData as MappingWorkerData;
const mapping = bytesMappingOf(format);

const texts = new OutcomeTexts();

// The clock of the records before: a batch's records mostly share one.
let clockText = '';
let clock = new Date(0);

port.on('message', ({ batch, bytes, ends, positions, keyProfile, clocks }: ToMappingWorker) => {
  const all = new Uint8Array(bytes);
  const kinds = new Uint8Array(ends.length);
  const textEnds = new Int32Array(ends.length);
  const runCounts = new Int32Array(ends.length);
  const runs: number[] = [];
  let start = 0;
  for (let i = 0; i < ends.length; i++) {
    const end = ends[i]!;
    const instant = clocks.instants[clocks.indexes[i]!]!;
    if (instant !== clockText) {
      clockText = instant;
      clock = new Date(clockText);
    }
    const outcome = outcomeOf(mapping, all.subarray(start, end), unpackedPosition(positions, i), settings, keyProfile, clock);
    const [kind, text] = outcomeText(outcome);
    runCounts[i] = 'prepared' in outcome ? storedFieldRuns(outcome.prepared.document, text, runs) : -1;
    kinds[i] = kind;
    textEnds[i] = texts.add(text);
    start = end;
  }
  const written = texts.take();
  const runsAt = Int32Array.from(runs);
  port.postMessage(
    { batch, kinds, texts: written, ends: textEnds, runCounts, runs: runsAt } satisfies FromMappingWorker,
    [kinds.buffer, written.buffer as ArrayBuffer, textEnds.buffer, runCounts.buffer, runsAt.buffer],
  );
});
