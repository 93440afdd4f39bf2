/**
 * What a MARC mapping worker spends a record, code against code: reads the first records of an ISO 2709
 * file as bytes once, then, for each built tree given (a `dist/` of this project), maps them on this thread
 * as a mapping worker does (mappingWorkers.ts: outcomeOf, then outcomeText) and, separately, what the main
 * thread does with the worker's texts (parsing them, and the embedded index's stored JSON of each document,
 * written again or cut from the text where the tree's workers say where it lies), rounds alternating the trees, and prints CPU microseconds a record for each.
 * The first round also prints, for each tree, the sha256 of every record's answer text (the document with
 * its keys, or the error) in order: trees that map alike print the same digest.
 *
 *   node dist/tools/bench/marcMappingCost.js --file F [--records N] [--rounds R] [--key-profile vufind|extended]
 *        --tree label=/path/to/dist ...
 *
 * Not part of the package, nor of `npm run bench`: for iterating on the mapping (docs/benchmarks.md).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { costOptionsOf, type Tree } from './marcCostOptions.js';

/** The first `count` records of an ISO 2709 file, each its own bytes (the record length is its first five digits). */
function recordsOf(path: string, count: number): Uint8Array[] {
  const all = readFileSync(path);
  const records: Uint8Array[] = [];
  let at = 0;
  while (records.length < count && at + 5 <= all.length) {
    const length = Number(all.toString('latin1', at, at + 5));
    records.push(new Uint8Array(all.subarray(at, at + length)));
    at += length;
  }
  return records;
}

function cpuMicros(): number {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
}

/** A worker's answer for one record: its text and, where the tree cuts them out, its stored fields' runs. */
interface Answer {
  /** A prepared document's text (a rejection's reason or a deletion's value is not parsed by the main step). */
  readonly prepared: boolean;
  readonly text: string;
  readonly runs: Int32Array | undefined;
}

interface Step {
  readonly mapping: (records: readonly Uint8Array[]) => Answer[];
  readonly main: (answers: readonly Answer[]) => number;
}

async function stepsOf(tree: Tree, keyProfile: string): Promise<Step> {
  const from = (path: string) => import(pathToFileURL(join(tree.dist, path)).href);
  const workers = await from('src/ingest/mappingWorkers.js');
  const { documentColumnOf } = await from('src/adapters/sqlite/indexTables.js');
  const mapping = workers.bytesMappingOf('iso2709');
  const position = { source: 'bench', record: 1 };
  const now = new Date('2024-06-11T00:00:00Z');
  // A tree whose workers cut the stored fields out of the document's text (storedFieldRuns) does it here too.
  const cuts = typeof workers.storedFieldRuns === 'function';
  return {
    mapping: (records) => records.map((bytes) => {
      const outcome = workers.outcomeOf(mapping, bytes, position, undefined, keyProfile, now);
      const [, text] = workers.outcomeText(outcome) as [number, string];
      const prepared = 'prepared' in outcome;
      if (!cuts || !prepared) return { prepared, text, runs: undefined };
      const runs: number[] = [];
      return { prepared, text, runs: workers.storedFieldRuns(outcome.prepared.document, text, runs) < 0 ? undefined : Int32Array.from(runs) };
    }),
    main: (answers) => {
      let length = 0;
      for (const { prepared, text, runs } of answers) {
        if (!prepared) continue;
        const document = JSON.parse(text);
        length += (runs !== undefined ? workers.storedFieldsJsonFrom(text, runs) as string : documentColumnOf(document) as string).length;
      }
      return length;
    },
  };
}

/** The sha256 of the answers' texts in order, each ended by a newline (no text holds one: JSON escapes it). */
function digestOf(answers: readonly Answer[]): string {
  const hash = createHash('sha256');
  for (const { text } of answers) hash.update(text).update('\n');
  return hash.digest('hex');
}

async function main(): Promise<void> {
  const options = costOptionsOf(process.argv.slice(2), 30_000);
  const records = recordsOf(options.file, options.records);
  const steps = await Promise.all(options.trees.map((tree) => stepsOf(tree, options.keyProfile)));
  // One pass each to warm up.
  for (const step of steps) step.main(step.mapping(records.slice(0, 2000)));
  for (let round = 0; round < options.rounds; round++) {
    for (const [i, tree] of options.trees.entries()) {
      const step = steps[i]!;
      let started = cpuMicros();
      const answers = step.mapping(records);
      const mapping = (cpuMicros() - started) / records.length;
      started = cpuMicros();
      step.main(answers);
      const mainThread = (cpuMicros() - started) / records.length;
      const digest = round === 0 ? `, answers sha256 ${digestOf(answers)}` : '';
      process.stdout.write(`round ${round + 1} ${tree.label}: mapping ${mapping.toFixed(1)} µs a record, main thread (parse + stored JSON) ${mainThread.toFixed(1)} µs${digest}\n`);
    }
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`marcMappingCost: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
