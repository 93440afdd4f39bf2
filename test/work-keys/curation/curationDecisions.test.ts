import test from 'ava';
import {
  curationRulesOf, mergeKeyOf, newMerge, newSplit, nextDecisionId, type CurationDecision,
} from '../../../src/work-keys/curation/curationDecisions.js';

const BY = { by: 'anna', at: new Date('2026-11-25T15:00:00Z'), note: 'checked against the items' };

function decision(id: string, action: 'merge' | 'split', records: string[]): CurationDecision {
  return { id, action, records, by: 'anna', at: '2026-11-25T15:00:00.000Z', note: 'a note' };
}

// Real-looking keys: Beethoven's and Chopin's concertos share only the generic uniform title.
const BEETHOVEN = ['UT concertospiano', 'AT beethovenludwigvan thefivepianoconcertos', 'AT beethovenludwigvan fivepianoconcertos'];
const CHOPIN = ['UT concertospiano', 'AT chopinfrederic pianoconcertos'];

const REWRITES: Array<{ name: string; decisions: CurationDecision[]; id: string; keys: string[]; expected: string[] }> = [
  { name: 'a record no decision names keeps its keys', decisions: [decision('m1', 'merge', ['a', 'b'])], id: 'beethoven', keys: BEETHOVEN, expected: BEETHOVEN },
  { name: 'a merge adds its key after the record\'s own', decisions: [decision('m1', 'merge', ['beethoven', 'x'])], id: 'beethoven', keys: BEETHOVEN, expected: [...BEETHOVEN, 'GL m1'] },
  { name: 'two merges add a key each, in decision order', decisions: [decision('m3', 'merge', ['chopin', 'y']), decision('m1', 'merge', ['chopin', 'x'])], id: 'chopin', keys: CHOPIN, expected: [...CHOPIN, 'GL m3', 'GL m1'] },
  { name: 'a split takes every key away', decisions: [decision('s1', 'split', ['chopin'])], id: 'chopin', keys: CHOPIN, expected: [] },
  { name: 'a split record keeps only its merges, whichever came first', decisions: [decision('m2', 'merge', ['chopin', 'chopin-live']), decision('s1', 'split', ['chopin'])], id: 'chopin', keys: CHOPIN, expected: ['GL m2'] },
  { name: 'a record without keys gets its merge key', decisions: [decision('m1', 'merge', ['dom-casmurro', 'dom-casmurro-en'])], id: 'dom-casmurro', keys: [], expected: ['GL m1'] },
  { name: 'a key the document already carries is not repeated', decisions: [decision('m1', 'merge', ['a', 'b'])], id: 'a', keys: ['GL m1', 'UT x'], expected: ['GL m1', 'UT x'] },
];

for (const { name, decisions, id, keys, expected } of REWRITES) {
  test(`curated keys: ${name}`, (t) => {
    t.deepEqual(curationRulesOf(decisions).curatedKeysOf(id, keys), expected);
  });
}

/** The ids a record's versions list holds: every record sharing a key with it, itself included. */
function versionsOf(id: string, keysById: Map<string, string[]>): string[] {
  const own = new Set(keysById.get(id));
  return [...keysById].filter(([other, keys]) => other === id || keys.some((key) => own.has(key))).map(([other]) => other).sort();
}

test('records list each other after a merge, and a split record leaves its group', (t) => {
  const computed = new Map([
    ['beethoven', BEETHOVEN],
    ['chopin', CHOPIN],
    ['hobbit-1937', ['AT tolkienjrr thehobbit', 'AT tolkienjrr hobbit']],
    ['hobbit-2012', ['AT tolkienjohnronaldreuel hobbit']],
  ]);
  const rules = curationRulesOf([decision('m1', 'merge', ['hobbit-1937', 'hobbit-2012']), decision('s2', 'split', ['chopin'])]);
  const curated = new Map([...computed].map(([id, keys]) => [id, rules.curatedKeysOf(id, keys)]));
  t.deepEqual(versionsOf('beethoven', computed), ['beethoven', 'chopin'], 'before: a generic uniform title joins them');
  t.deepEqual(versionsOf('beethoven', curated), ['beethoven']);
  t.deepEqual(versionsOf('chopin', curated), ['chopin']);
  t.deepEqual(versionsOf('hobbit-1937', computed), ['hobbit-1937']);
  t.deepEqual(versionsOf('hobbit-2012', curated), ['hobbit-1937', 'hobbit-2012']);
  t.deepEqual([...rules.namedRecords].sort(), ['chopin', 'hobbit-1937', 'hobbit-2012']);
});

test('decision ids count every decision, merges m, splits s', (t) => {
  t.is(nextDecisionId('merge', []), 'm1');
  t.is(nextDecisionId('split', [decision('m1', 'merge', ['a', 'b']), decision('s7', 'split', ['c'])]), 's8');
  t.is(mergeKeyOf('m12'), 'GL m12');
});

test('a new decision carries who, when (from the clock given) and why; a merge names distinct records', (t) => {
  t.deepEqual(newMerge(['b', 'a', 'b'], BY, [decision('s1', 'split', ['x'])]), {
    id: 'm2', action: 'merge', records: ['b', 'a'], by: 'anna', at: '2026-11-25T15:00:00.000Z', note: 'checked against the items',
  });
  t.is(newSplit('x', { ...BY, note: '  a generic title  ' }, []).note, 'a generic title');
  t.throws(() => newMerge(['a', 'a'], BY, []), { instanceOf: RangeError });
  t.throws(() => newSplit('a', { ...BY, note: ' ' }, []), { instanceOf: RangeError });
});
