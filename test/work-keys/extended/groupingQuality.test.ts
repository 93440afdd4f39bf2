import test from 'ava';
import { fileURLToPath } from 'node:url';
import { readLabelledRecords } from '../../support/labelledRecords.js';
import { versionsLists } from '../../support/versionLists.js';
import { evaluateGrouping } from '../../../src/work-keys/curation/groupingScores.js';

const fixture = fileURLToPath(new URL('../../fixtures/grouping/labelled-works.jsonl', import.meta.url));

test('labelled works: extended keeps precision at 0.98 or more and beats vufind on F1', (t) => {
  const { workOf, vufind, extended } = readLabelledRecords(fixture);
  const extendedScores = evaluateGrouping(extended, workOf).pairwise;
  const vufindScores = evaluateGrouping(vufind, workOf).pairwise;
  t.true(extendedScores.precision! >= 0.98, `extended precision ${extendedScores.precision}`);
  t.true(extendedScores.f1! > vufindScores.f1!, `extended F1 ${extendedScores.f1}, vufind F1 ${vufindScores.f1}`);
});

test('pairwise scores count unordered pairs; versions lists are not transitive', (t) => {
  // b is a two-in-one volume sharing a key with a and with c; a and c are different works.
  const records = [
    { id: 'a', title: 'a', keys: ['AT x hamlet'] },
    { id: 'b', title: 'b', keys: ['AT x hamlet', 'AT x macbeth'] },
    { id: 'c', title: 'c', keys: ['AT x macbeth'] },
  ];
  const scores = evaluateGrouping(records, new Map([['a', 'hamlet'], ['b', 'hamlet'], ['c', 'macbeth']])).pairwise;
  t.like(scores, { labelPairs: 1, linkedPairs: 2, rightPairs: 1, precision: 0.5, recall: 1 });
  const lists = versionsLists(records);
  t.deepEqual(lists.map((list) => [list.record.id, list.versions.length]), [['b', 3], ['a', 2], ['c', 2]]);
});
