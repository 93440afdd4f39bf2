/**
 * Pairwise precision, recall and F1 of both key profiles on a labelled fixture, with the pairs each gets
 * wrong:
 *
 *   npx tsx tools/grouping/measureLabelled.ts [test/fixtures/grouping/labelled-works.jsonl]
 *
 * Left to others: reading the fixture (labelledRecords.ts), the scores (versionLists.ts).
 */
import { readLabelledRecords } from './labelledRecords.js';
import { pairwiseScores, type KeyedRecord } from './versionLists.js';

const path = process.argv[2] ?? 'test/fixtures/grouping/labelled-works.jsonl';
const { workOf, vufind, extended } = readLabelledRecords(path);
console.log(`${path}: ${vufind.length} records, ${new Set(workOf.values()).size} works`);
for (const [name, records] of [['vufind', vufind], ['extended', extended]] as [string, KeyedRecord[]][]) {
  const scores = pairwiseScores(records, workOf);
  console.log(`  ${name}: precision ${scores.precision.toFixed(3)} recall ${scores.recall.toFixed(3)} F1 ${scores.f1.toFixed(3)} (${scores.correctPairs} of ${scores.predictedPairs} predicted pairs right; ${scores.truePairs} true pairs)`);
  for (let i = 0; i < records.length; i++) {
    for (let j = i + 1; j < records.length; j++) {
      const a = records[i]!;
      const b = records[j]!;
      const shared = a.keys.filter((key) => b.keys.includes(key));
      const same = workOf.get(a.id) === workOf.get(b.id);
      if (shared.length > 0 && !same) console.log(`    false pair ${a.id} + ${b.id} through ${shared.join(', ')}`);
      if (shared.length === 0 && same) console.log(`    missed pair ${a.id} + ${b.id}`);
    }
  }
}
