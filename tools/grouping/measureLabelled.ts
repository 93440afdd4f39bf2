/**
 * Pairwise and B-cubed precision, recall and F1 of both key profiles on a labelled fixture, with the
 * groups each gets wrong and the works it splits:
 *
 *   npx tsx tools/grouping/measureLabelled.ts [test/fixtures/grouping/labelled-works.jsonl]
 *
 * The same figures and lists as `catalog-versions works evaluate` prints for a library's own sample.
 *
 * Left to others: reading the fixture (labelledRecords.ts), the scores (src/work-keys/curation/groupingScores.ts).
 */
import { evaluationText } from '../../src/cli/worksEvaluate.js';
import { evaluateGrouping } from '../../src/work-keys/curation/groupingScores.js';
import { readLabelledRecords } from '../../test/support/labelledRecords.js';

const path = process.argv[2] ?? 'test/fixtures/grouping/labelled-works.jsonl';
const { workOf, vufind, extended } = readLabelledRecords(path);
console.log(`${path}: ${vufind.length} records, ${new Set(workOf.values()).size} works\n`);
for (const [name, records] of [['vufind', vufind], ['extended', extended]] as const) {
  const evaluation = evaluateGrouping(records, workOf, { top: 100 });
  console.log(evaluationText(`${name} profile`, evaluation, evaluation.unlabelledRecords));
}
