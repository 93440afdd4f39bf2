import test from 'ava';
import { genericKeySigns, hasGenericTitle, titleOfKey } from '../../../src/work-keys/curation/groupQuality.js';
import { normaliseForWorkKey } from '../../../src/work-keys/workKeys.js';

// Keys as the evergreen jazz and concerto files give them, and keys of single works.
const CASES: Array<{ name: string; key: string; records: number; authors: number; signs: string[] }> = [
  { name: 'a generic uniform title', key: `UT ${normaliseForWorkKey('Instrumental music')}`, records: 38, authors: 30, signs: ['generic title', 'many authors'] },
  { name: 'a generic uniform title shared by two records', key: `UT ${normaliseForWorkKey('Concertos, piano')}`, records: 2, authors: 2, signs: ['generic title'] },
  { name: 'a collective uniform title of a musical form', key: `UT ${normaliseForWorkKey('Concertos, violoncello, orchestra')}`, records: 3, authors: 3, signs: ['generic title'] },
  { name: 'a plural form word inside an author-title key is no sign', key: 'AT beethovenludwigvan concertosforpiano', records: 3, authors: 1, signs: [] },
  { name: 'a generic uniform title with Selections', key: `UT ${normaliseForWorkKey('Jazz. Selections')}`, records: 5, authors: 5, signs: ['generic title'] },
  { name: 'a work\'s selections', key: `UT ${normaliseForWorkKey('Novels. Selections')}`, records: 3, authors: 1, signs: ['generic title'] },
  { name: 'one work\'s selections', key: `UT ${normaliseForWorkKey('Leaves of grass. Selections')}`, records: 3, authors: 1, signs: ['selections'] },
  { name: 'French collected works', key: `UT ${normaliseForWorkKey('Œuvres complètes')}`, records: 4, authors: 3, signs: ['generic title'] },
  { name: 'German collected works', key: `UT ${normaliseForWorkKey('Sämtliche Werke')}`, records: 4, authors: 3, signs: ['generic title'] },
  { name: 'an author\'s "Works"', key: 'AT shakespearewilliam works', records: 9, authors: 1, signs: ['generic title'] },
  { name: 'one work with many editions', key: 'UT donquijote', records: 40, authors: 2, signs: [] },
  { name: 'one work, large, by many hands', key: 'UT bibleenglishauthorized', records: 20, authors: 3, signs: ['many authors'] },
  { name: 'twelve records is not yet large', key: 'UT bibleenglishauthorized', records: 12, authors: 5, signs: [] },
  { name: 'a library\'s own merge', key: 'GL m1', records: 60, authors: 9, signs: [] },
  { name: 'an author\'s collective title of one kind of writing is that author\'s work', key: 'AT perraultcharles contes', records: 6, authors: 1, signs: [] },
  { name: 'a collective title of writing alone, as a uniform title, still looks generic', key: `UT ${normaliseForWorkKey('Contes')}`, records: 6, authors: 4, signs: ['generic title'] },
  { name: 'a collective title of writing shared by many authors is shown by its authors', key: 'AT anonymous poems', records: 14, authors: 5, signs: ['many authors'] },
  { name: 'a title that only contains a generic word', key: 'AT passjoe thebestofjoepass', records: 3, authors: 1, signs: [] },
];

for (const { name, key, records, authors, signs } of CASES) {
  test(`generic key signs: ${name}`, (t) => {
    t.deepEqual(genericKeySigns({ key, records, authors }), signs);
  });
}

test('the title of a key, and whether it alone looks generic', (t) => {
  t.is(titleOfKey('UT concertospiano'), 'concertospiano');
  t.is(titleOfKey('AT tolkienjrr hobbit'), 'hobbit');
  t.is(titleOfKey('GL m1'), undefined);
  t.is(titleOfKey('AT onlyauthor'), undefined);
  t.true(hasGenericTitle('UT pianomusic'));
  t.false(hasGenericTitle('UT pianomusicofchopin'));
  t.true(genericKeySigns({ key: 'UT bibleenglish', records: 13, authors: 3 }, { largeKey: 12, manyAuthors: 3 }).includes('many authors'));
  t.deepEqual(genericKeySigns({ key: 'UT bibleenglish', records: 13, authors: 3 }, { largeKey: 20, manyAuthors: 3 }), []);
});
