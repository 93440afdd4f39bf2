import test from 'ava';
import { WORK_KEY_KINDS, keyKindOf, keyWordsOf, reasonForSharedKeys, workKeyOf, type VersionReason, type WorkKeyPrefix } from '../../../src/work-keys/workKeyKinds.js';

test('every kind has its own prefix, and a note notes a kind that exists', (t) => {
  const prefixes = WORK_KEY_KINDS.map((kind) => kind.prefix);
  t.is(new Set(prefixes).size, prefixes.length);
  for (const kind of WORK_KEY_KINDS) if (kind.notes !== undefined) t.true(prefixes.includes(kind.notes), kind.prefix);
});

test('keyKindOf and keyWordsOf split a known prefix and leave an unknown key whole', (t) => {
  t.like({ kind: keyKindOf('AT tolkienjrr hobbit'), words: keyWordsOf('AT tolkienjrr hobbit') }, { words: 'tolkienjrr hobbit', kind: { prefix: 'AT' } });
  t.deepEqual({ kind: keyKindOf('SHARED x'), words: keyWordsOf('SHARED x') }, { kind: undefined, words: 'SHARED x' });
});

test('workKeyOf writes each kind so that keyKindOf and keyWordsOf read it back', (t) => {
  for (const { prefix } of WORK_KEY_KINDS) {
    const key = workKeyOf(prefix as WorkKeyPrefix, 'tolkienjrr hobbit');
    t.is(key, `${prefix} tolkienjrr hobbit`);
    t.is(keyKindOf(key)?.prefix, prefix);
    t.is(keyWordsOf(key), 'tolkienjrr hobbit');
  }
  // A prefix is a whole first word: `ATLAS x` and `AT` alone are of no kind.
  t.is(keyKindOf('ATLAS x'), undefined);
  t.is(keyKindOf('AT'), undefined);
  t.is(keyWordsOf('AT'), 'AT');
});

const reasons: [string, string[], string[], VersionReason | undefined][] = [
  ['same author and title', ['AT tolkienjrr hobbit'], ['AT tolkienjrr hobbit', 'AT tolkienjrr thehobbit'], 'same-author-title'],
  ['a uniform title alone', ['UT bibleportuguese1990'], ['UT bibleportuguese1990'], 'same-uniform-title'],
  [
    'an AT key one record made from its uniform title',
    ['AT garciamarquezgabriel cemanosdesolidao', 'AT garciamarquezgabriel cienanosdesoledad', 'UA garciamarquezgabriel cienanosdesoledad'],
    ['AT garciamarquezgabriel cienanosdesoledad'],
    'same-uniform-title',
  ],
  [
    "an AT key made from a translation's original",
    ['AT garciamarquezgabriel cienanosdesoledad'],
    ['AT garciamarquezgabriel onehundredyearsofsolitude', 'AT garciamarquezgabriel cienanosdesoledad', 'TR garciamarquezgabriel cienanosdesoledad'],
    'translation',
  ],
  [
    'titles that agree say more than a translation note on another key',
    ['AT a x', 'AT a y', 'TR a y'],
    ['AT a x', 'AT a y'],
    'same-author-title',
  ],
  ['a DOI says most', ['AT a x', 'DOI 10.1000/182'], ['AT a x', 'DOI 10.1000/182'], 'same-identifier'],
  ['a handle', ['HDL 1884/34520'], ['HDL 1884/34520'], 'same-identifier'],
  ["a librarian's merge (curationDecisions.ts's GL keys)", ['GL 17'], ['GL 17'], 'grouped-by-library'],
  ["a host's own key", ['SHARED x', 'ONLY a'], ['SHARED x', 'ONLY b'], 'same-key'],
  ['notes alone join nothing', ['UA a x'], ['UA a x'], undefined],
  ['nothing shared', ['AT a x'], ['AT a y'], undefined],
];
for (const [name, requested, version, expected] of reasons) {
  test(`reasonForSharedKeys: ${name}`, (t) => t.is(reasonForSharedKeys(requested, version), expected));
}
