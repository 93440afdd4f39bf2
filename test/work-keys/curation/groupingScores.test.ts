/**
 * The grouping scores of `works evaluate` (src/work-keys/curation/groupingScores.ts): a hand-worked
 * example, the edge cases the docs promise, and a second, independent scorer written here pair by pair
 * (O(n²), straight from the definitions) compared with the module's on random samples of a fixed seed.
 */
import test from 'ava';
import fc from 'fast-check';
import { evaluateGrouping, scoreText, type ScoredRecord } from '../../../src/work-keys/curation/groupingScores.js';

const labelsOf = (entries: Record<string, string>) => new Map(Object.entries(entries));

test('a hand-worked sample of five records and two works', (t) => {
  // a and b are Hamlet, joined by k1; c and d are Macbeth, joined by k3; a two-in-one volume's key k2
  // joins a (Hamlet) with c (Macbeth); e is Hamlet without keys.
  //   versions lists (not transitive): a {a,b,c}  b {a,b}  c {a,c,d}  d {c,d}  e {e}
  //   linked pairs a-b, a-c, c-d = 3, right a-b, c-d = 2; pairs in the labels: Hamlet {a,b,e} 3 + Macbeth 1 = 4
  //   pairwise precision 2/3 = 0.667, recall 2/4 = 0.500, F1 2·(2/3)(1/2)/(2/3+1/2) = 4/7 = 0.571
  //   B-cubed |L∩G|/|L|: a 2/3, b 2/2, c 2/3, d 2/2, e 1/1 → (13/3)/5 = 13/15 = 0.867
  //           |L∩G|/|G|: a 2/3, b 2/3, c 2/2, d 2/2, e 1/3 → (11/3)/5 = 11/15 = 0.733
  //           F1 2·(13/15)(11/15)/(24/15) = 286/360 = 0.794
  const records: ScoredRecord[] = [
    { id: 'a', keys: ['k1', 'k2'], title: 'Hamlet ; Macbeth' },
    { id: 'b', keys: ['k1'], title: 'Hamlet' },
    { id: 'c', keys: ['k2', 'k3'], title: 'Macbeth' },
    { id: 'd', keys: ['k3'], title: 'Macbeth' },
    { id: 'e', keys: [], title: 'Hamlet, prince of Denmark' },
  ];
  const evaluation = evaluateGrouping(records, labelsOf({ a: 'hamlet', b: 'hamlet', e: 'hamlet', c: 'macbeth', d: 'macbeth' }));
  t.like(evaluation.pairwise, { linkedPairs: 3, rightPairs: 2, labelPairs: 4 });
  t.deepEqual(
    [evaluation.pairwise.precision, evaluation.pairwise.recall, evaluation.pairwise.f1, evaluation.bCubed.precision, evaluation.bCubed.recall, evaluation.bCubed.f1].map(scoreText),
    ['0.667', '0.500', '0.571', '0.867', '0.733', '0.794'],
  );
  t.like(evaluation, { scoredRecords: 5, works: 2, unlabelledRecords: 0, labelsWithoutRecord: [] });
  // a's and c's lists each hold one record of the other work, joined by k2: one row shows that key, a's (first by id).
  t.deepEqual(evaluation.wrongGroups.map((group) => [group.record.id, group.listed, group.others.map((o) => `${o.id} ${o.work} ${o.joinedBy.join(',')}`)]), [
    ['a', 3, ['c macbeth k2']],
  ]);
  // Hamlet misses a-e and b-e; Macbeth misses nothing.
  t.deepEqual(evaluation.splitWorks.map((work) => [work.work, work.missedPairs, work.records.map((r) => `${r.id}:${r.notListed}`)]), [
    ['hamlet', 2, ['e:2', 'a:1', 'b:1']],
  ]);
  t.deepEqual(evaluation.splitWorks[0]!.records[1]!.keys, ['k1', 'k2']);
});

test('edge cases: what is left out, counted, undefined or kept', (t) => {
  const cases: Array<{ name: string; records: ScoredRecord[]; labels: Record<string, string>; expect: { pairwise: string; bCubed: string; [count: string]: unknown } }> = [
    {
      name: 'no linked pair: precision and F1 are n/a, recall 0 over the pairs in the labels',
      records: [{ id: 'hobbit-1937', keys: ['AT tolkienjrr thehobbit'] }, { id: 'hobbit-2012', keys: ['AT tolkienjohnronaldreuel thehobbit'] }],
      labels: { 'hobbit-1937': 'hobbit', 'hobbit-2012': 'hobbit' },
      expect: { pairwise: 'n/a 0.000 n/a 0 0 1', bCubed: '1.000 0.500 0.667' },
    },
    {
      name: 'every work of one record and no key shared: pairwise all n/a, B-cubed perfect',
      records: [{ id: 'emma', keys: ['AT austenjane emma'] }, { id: 'ulysses', keys: ['AT joycejames ulysses'] }],
      labels: { emma: 'emma', ulysses: 'ulysses' },
      expect: { pairwise: 'n/a n/a n/a 0 0 0', bCubed: '1.000 1.000 1.000' },
    },
    {
      name: 'a pair sharing two keys is one linked pair',
      records: [{ id: 'dune-1965', keys: ['UT dune', 'AT herbertfrank dune'] }, { id: 'dune-2005', keys: ['AT herbertfrank dune', 'UT dune'] }],
      labels: { 'dune-1965': 'dune', 'dune-2005': 'dune' },
      expect: { pairwise: '1.000 1.000 1.000 1 1 1', bCubed: '1.000 1.000 1.000' },
    },
    {
      name: 'records without a label are left out and counted; so are labels naming no record',
      records: [{ id: 'concertos-chopin', keys: ['UT concertospiano'] }, { id: 'concertos-beethoven', keys: ['UT concertospiano'] }, { id: 'atlas', keys: ['UT concertospiano'] }],
      labels: { 'concertos-chopin': 'chopin', 'concertos-beethoven': 'beethoven', 'withdrawn-1': 'chopin', 'withdrawn-2': 'x' },
      expect: { pairwise: '0.000 n/a n/a 1 0 0', bCubed: '0.500 1.000 0.667', unlabelledRecords: 1, labelsWithoutRecord: ['withdrawn-1', 'withdrawn-2'], scoredRecords: 2, works: 2 },
    },
    {
      name: 'an id given twice keeps the last record, as a load does',
      records: [{ id: 'pride', keys: ['AT tolkienjrr thehobbit'] }, { id: 'hobbit', keys: ['AT tolkienjrr thehobbit'] }, { id: 'pride', keys: ['AT austenjane prideandprejudice'] }],
      labels: { pride: 'pride', hobbit: 'hobbit' },
      expect: { pairwise: 'n/a n/a n/a 0 0 0', bCubed: '1.000 1.000 1.000', scoredRecords: 2 },
    },
    {
      name: 'no labelled record at all: every figure n/a',
      records: [{ id: 'atlas', keys: ['AT randmcnally worldatlas'] }],
      labels: { elsewhere: 'x' },
      expect: { pairwise: 'n/a n/a n/a 0 0 0', bCubed: 'n/a n/a n/a', unlabelledRecords: 1, scoredRecords: 0 },
    },
  ];
  for (const { name, records, labels, expect } of cases) {
    const evaluation = evaluateGrouping(records, labelsOf(labels));
    const { pairwise: p, bCubed: b } = evaluation;
    const { pairwise, bCubed, ...counts } = expect;
    t.is([p.precision, p.recall, p.f1].map(scoreText).concat([p.linkedPairs, p.rightPairs, p.labelPairs].map(String)).join(' '), pairwise, name);
    t.is([b.precision, b.recall, b.f1].map(scoreText).join(' '), bCubed, name);
    if (Object.keys(counts).length > 0) t.like(evaluation, counts, name);
  }
});

test('each wrong group shows another key at fault, and --top cuts both lists', (t) => {
  // Four works under one generic uniform title, and two of them joined again by a second wrong key: every
  // record lists the four, but a record of the second key shows it; Chopin's and Liszt's lists show nothing new.
  const records = ['bach', 'chopin', 'liszt', 'mozart'].map((composer) => ({ id: `${composer}-concertos`, keys: ['UT concertospiano', `AT ${composer} concertos`] }));
  records.push({ id: 'mozart-requiem', keys: ['UT requiem', 'AT mozart requiem'] }, { id: 'verdi-requiem', keys: ['UT requiem', 'AT verdi requiem'] });
  const labels = new Map(records.map((record) => [record.id, record.id]));
  const evaluation = evaluateGrouping(records, labels);
  t.deepEqual(evaluation.wrongGroups.map((group) => [group.record.id, group.others.map((o) => `${o.id} ${o.joinedBy.join(',')}`)]), [
    ['bach-concertos', ['chopin-concertos UT concertospiano', 'liszt-concertos UT concertospiano', 'mozart-concertos UT concertospiano']],
    ['mozart-requiem', ['verdi-requiem UT requiem']],
  ]);
  const split = [{ id: 'a1', keys: ['x'] }, { id: 'a2', keys: ['y'] }, { id: 'b1', keys: ['z'] }, { id: 'b2', keys: ['w'] }, { id: 'b3', keys: ['v'] }];
  const cut = evaluateGrouping(split, labelsOf({ a1: 'a', a2: 'a', b1: 'b', b2: 'b', b3: 'b' }), { top: 1 });
  t.deepEqual(cut.splitWorks.map((work) => [work.work, work.missedPairs]), [['b', 3]], 'the work missing most pairs first');
});

test('scores print to three decimals, a tie to the even digit as printf does', (t) => {
  t.deepEqual([0.8125, 0.0625, 0.1875, 0.9375, 2 / 3, 0.5, 1, 0, 0.99949, 0.9995001, undefined].map(scoreText),
    ['0.812', '0.062', '0.188', '0.938', '0.667', '0.500', '1.000', '0.000', '0.999', '1.000', 'n/a']);
});

/** The definitions, pair by pair: an implementation sharing nothing with the module's. */
function bruteForce(records: readonly ScoredRecord[], labels: ReadonlyMap<string, string>) {
  const last = new Map<string, ScoredRecord>();
  for (const record of records) last.set(record.id, record);
  const scored = [...last.values()].filter((record) => labels.has(record.id));
  const shares = (a: ScoredRecord, b: ScoredRecord) => a.keys.some((key) => b.keys.includes(key));
  let linked = 0;
  let right = 0;
  let inLabels = 0;
  for (let i = 0; i < scored.length; i++) {
    for (let j = i + 1; j < scored.length; j++) {
      const same = labels.get(scored[i]!.id) === labels.get(scored[j]!.id);
      const link = shares(scored[i]!, scored[j]!);
      if (link) linked++;
      if (same) inLabels++;
      if (link && same) right++;
    }
  }
  let precision = 0;
  let recall = 0;
  const missed = new Map<string, number>();
  for (const r of scored) {
    const L = scored.filter((s) => s === r || shares(r, s));
    const G = scored.filter((s) => labels.get(s.id) === labels.get(r.id));
    const both = L.filter((s) => G.includes(s)).length;
    precision += both / L.length;
    recall += both / G.length;
    const work = labels.get(r.id)!;
    missed.set(work, (missed.get(work) ?? 0) + (G.length - both) / 2);
  }
  return { linked, right, inLabels, precision: precision / scored.length, recall: recall / scored.length, missed };
}

test('the module agrees with a pair-by-pair scorer on random samples (seeded)', (t) => {
  const key = fc.integer({ min: 0, max: 40 }).map((n) => `AT k${n}`);
  const record = fc.record({ id: fc.integer({ min: 0, max: 90 }).map((n) => `r${n}`), keys: fc.uniqueArray(key, { maxLength: 3 }) });
  const sample = fc.record({
    records: fc.array(record, { minLength: 1, maxLength: 120 }),
    // Labels for most of the ids r0…r99 (some never read), from a few works.
    labels: fc.array(fc.tuple(fc.integer({ min: 0, max: 99 }).map((n) => `r${n}`), fc.integer({ min: 0, max: 12 }).map((n) => `w${n}`)), { maxLength: 100 }),
  });
  let compared = 0;
  fc.assert(fc.property(sample, ({ records, labels: pairs }) => {
    const labels = new Map(pairs);
    const ours = evaluateGrouping(records, labels, { top: 1000 });
    const theirs = bruteForce(records, labels);
    const close = (a: number | undefined, b: number) => a !== undefined && Math.abs(a - b) < 1e-12;
    if (ours.pairwise.linkedPairs !== theirs.linked || ours.pairwise.rightPairs !== theirs.right || ours.pairwise.labelPairs !== theirs.inLabels) return false;
    if (ours.scoredRecords > 0 && !(close(ours.bCubed.precision, theirs.precision) && close(ours.bCubed.recall, theirs.recall))) return false;
    const missed = [...theirs.missed].filter(([, pairs]) => pairs > 0).sort(([a], [b]) => (a < b ? -1 : 1));
    const oursMissed = ours.splitWorks.map((work) => [work.work, work.missedPairs] as [string, number]).sort(([a], [b]) => (a < b ? -1 : 1));
    compared++;
    return JSON.stringify(oursMissed) === JSON.stringify(missed);
  }), { seed: 20261207, numRuns: 300 });
  t.is(compared, 300);
});
