/**
 * Benchmark phase: what keying a record document costs under each work-key profile (issue 23: the loads
 * fell when `extended` became the embedded index's default). The same generated documents are keyed by
 * `vufind` and by `extended` (WORK_KEY_PROFILES' keysOfDocument), alternating in rounds in one process so
 * that machine noise falls on both alike; the figure is each profile's fastest round, in µs a document,
 * and the ratio extended / vufind.
 *
 * Alone, it can also key with another build's profiles beside these (`--before <dist folder>`, e.g. a
 * checkout of the code before a change, built), alternated in the same rounds: a before/after in one run.
 *
 * Usage: measureKeyCost() from runBench.ts, or alone:
 *   node dist/tools/bench/keyCost.js [documents] [rounds] [--before <other checkout>/dist]
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import { WORK_KEY_PROFILES, type WorkKeyProfile } from '../../src/work-keys/workKeyProfiles.js';
import { DEFAULT_SEED, generateRecords, planCatalog } from './catalogGenerator.js';
import { fmt } from './loadDriver.js';

export interface KeyCostReport {
  readonly documents: number;
  readonly rounds: number;
  /** µs a document, fastest round, by the keyer's name (`vufind`, `extended`, and `… (before)` alone). */
  readonly usPerDocument: Readonly<Record<string, number>>;
  /** Keys made per document under each keyer (the same documents, so a check that both did the work). */
  readonly keysPerDocument: Readonly<Record<string, number>>;
  readonly ratio: number;
}

type Keyer = (document: unknown) => string[];

/** keysOfDocument per document for each keyer, over the same documents, alternated in rounds. */
export function measureKeyCost(documentCount = 100_000, rounds = 5, keyers: Readonly<Record<string, Keyer>> = profileKeyers(WORK_KEY_PROFILES)): KeyCostReport {
  const documents = [...generateRecords(planCatalog(documentCount, DEFAULT_SEED))];
  const names = Object.keys(keyers);
  const best: Record<string, number> = {};
  const keysPerDocument: Record<string, number> = {};
  for (let round = 0; round < rounds; round++) {
    // Each round starts with the next keyer, so none is always the first after a pause.
    for (let k = 0; k < names.length; k++) {
      const name = names[(round + k) % names.length] as string;
      const keyer = keyers[name] as Keyer;
      let keys = 0;
      const started = process.hrtime.bigint();
      for (let i = 0; i < documents.length; i++) keys += keyer(documents[i]).length;
      const us = Number(process.hrtime.bigint() - started) / 1000 / documents.length;
      best[name] = Math.min(best[name] ?? Infinity, us);
      keysPerDocument[name] = keys / documents.length;
    }
  }
  return { documents: documentCount, rounds, usPerDocument: best, keysPerDocument, ratio: (best.extended ?? NaN) / (best.vufind ?? NaN) };
}

function profileKeyers(profiles: Readonly<Record<string, WorkKeyProfile>>, suffix = ''): Record<string, Keyer> {
  return Object.fromEntries(Object.values(profiles).map((profile) => [`${profile.name}${suffix}`, profile.keysOfDocument]));
}

/** The phase's result line. */
export function keyCostLine(report: KeyCostReport): string {
  const each = Object.entries(report.usPerDocument).map(([name, us]) => `${name} ${us.toFixed(2)} µs`).join(', ');
  return `work keys per document (${fmt(report.documents)} generated documents, fastest of ${report.rounds} alternated rounds): ${each}; extended / vufind ${report.ratio.toFixed(2)}×`;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const beforeAt = args.indexOf('--before');
  const before = beforeAt >= 0 ? args.splice(beforeAt, 2)[1] : undefined;
  const [documents = '100000', rounds = '5'] = args;
  const keyers = profileKeyers(WORK_KEY_PROFILES);
  if (before !== undefined) {
    const other = (await import(pathToFileURL(`${before}/src/work-keys/workKeyProfiles.js`).href)) as { WORK_KEY_PROFILES: Record<string, WorkKeyProfile> };
    Object.assign(keyers, profileKeyers(other.WORK_KEY_PROFILES, ' (before)'));
  }
  const report = measureKeyCost(Number(documents), Number(rounds), keyers);
  process.stdout.write(`${keyCostLine(report)}\n`);
  const b = report.usPerDocument;
  if (before !== undefined) process.stdout.write(`extended now / extended before: ${((b.extended ?? NaN) / (b['extended (before)'] ?? NaN)).toFixed(3)}; vufind now / before: ${((b.vufind ?? NaN) / (b['vufind (before)'] ?? NaN)).toFixed(3)}\n`);
  process.stdout.write(`keys per document: ${Object.entries(report.keysPerDocument).map(([name, n]) => `${name} ${n.toFixed(3)}`).join(', ')}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    process.stderr.write(`keyCost: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    process.exit(1);
  });
}
