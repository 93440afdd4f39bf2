import test from 'ava';
import { bookRecord, dataField as df } from '../../support/marcFields.js';
import type { MarcField, MarcRecord } from '../../../src/ingest/marc/marcRecord.js';
import { workStatementFromMarc } from '../../../src/ingest/marc/marcWorkStatement.js';
import { extendedWorkKeys } from '../../../src/work-keys/extended/extendedWorkKeys.js';
import { isAuthorsCollectiveTitle, isSelectionStatement } from '../../../src/work-keys/extended/genericTitles.js';
import { normaliseForWorkKey } from '../../../src/work-keys/workKeys.js';

// Collective titles of public libraries' classics: with the main entry's author they are that author's
// work, and a selection of them is filed with them; alone or with an added entry they name nothing.
const f008 = (language: string): MarcField => ({ tag: '008', value: `970701s1997    fr            000 1 ${language} d` });
const keysOf = (marc: MarcRecord): string[] => extendedWorkKeys(workStatementFromMarc(marc));
/** The keys two records share. */
const shared = (a: MarcRecord, b: MarcRecord): string[] => {
  const keys = keysOf(b);
  return keysOf(a).filter((key) => keys.includes(key));
};

const together: [string, MarcRecord, MarcRecord][] = [
  ['"Contes" and "Contes : choix" by their author',
    bookRecord(f008('fre'), df('100', '1 ', '$aPerrault, Charles,$d1628-1703.'), df('245', '10', '$aContes /$cCharles Perrault ; préface de Marc Soriano.')),
    bookRecord(f008('fre'), df('100', '1 ', '$aPerrault, Charles,$d1628-1703.'), df('245', '10', '$aContes :$bchoix /$cPerrault ; illustrations de Gustave Doré.'))],
  ['"Contes de Charles Perrault" and "Contes"',
    bookRecord(f008('fre'), df('100', '1 ', '$aPerrault, Charles,$d1628-1703.'), df('245', '10', '$aContes de Charles Perrault /$cédition de Gilbert Rouger.')),
    bookRecord(f008('fre'), df('100', '1 ', '$aPerrault, Charles'), df('245', '10', '$aContes'))],
  ['"Les fables de La Fontaine" and "Fables", without a language',
    bookRecord(df('100', '1 ', '$aLa Fontaine, Jean de,$d1621-1695'), df('245', '10', '$aLes fables de La Fontaine')),
    bookRecord(f008('fre'), df('100', '1 ', '$aLa Fontaine, Jean de,$d1621-1695.'), df('245', '10', '$aFables /$cLa Fontaine ; édition présentée par Jean-Charles Darmon.'))],
  ['"Grimms\' fairy tales" and "Fairy tales"',
    bookRecord(f008('eng'), df('100', '1 ', '$aGrimm, Jacob,$d1785-1863.'), df('245', '10', "$aGrimms' fairy tales /$cillustrated by Arthur Rackham.")),
    bookRecord(f008('eng'), df('100', '1 ', '$aGrimm, Jacob,$d1785-1863.'), df('245', '10', '$aFairy tales /$cthe Brothers Grimm ; translated by Lucy Crane.'))],
  ['a work and its extracts',
    bookRecord(f008('fre'), df('100', '1 ', '$aDaudet, Alphonse,$d1840-1897.'), df('245', '10', '$aLettres de mon moulin /$cAlphonse Daudet.')),
    bookRecord(f008('fre'), df('100', '1 ', '$aDaudet, Alphonse,$d1840-1897.'), df('245', '10', '$aLettres de mon moulin :$bextraits /$cAlphonse Daudet.'))],
  ['a work and a selection of it',
    bookRecord(f008('fre'), df('100', '1 ', '$aBaudelaire, Charles,$d1821-1867.'), df('245', '13', '$aLes fleurs du mal /$cCharles Baudelaire.')),
    bookRecord(f008('fre'), df('100', '1 ', '$aBaudelaire, Charles,$d1821-1867.'), df('245', '13', '$aLes fleurs du mal :$bchoix de poèmes /$cBaudelaire.'))],
];
for (const [rule, a, b] of together) {
  test(`collective titles: ${rule} share a key`, (t) => t.not(shared(a, b).length, 0, JSON.stringify([keysOf(a), keysOf(b)])));
}

const apart: [string, MarcRecord, MarcRecord][] = [
  ['"Contes" of two authors',
    bookRecord(f008('fre'), df('100', '1 ', '$aPerrault, Charles.'), df('245', '10', '$aContes')),
    bookRecord(f008('fre'), df('100', '1 ', '$aAndersen, H. C.'), df('245', '10', '$aContes'))],
  ['"Poems" edited by one editor, and another anthology of hers',
    bookRecord(f008('eng'), df('245', '00', '$aPoems /$cselected by Ann Thwaite.'), df('700', '1 ', '$aThwaite, Ann.')),
    bookRecord(f008('eng'), df('245', '00', '$aPoems :$bfor the young /$cselected by Ann Thwaite.'), df('700', '1 ', '$aThwaite, Ann.'))],
  ['a performer\'s two compilations of instrumental music',
    bookRecord(f008('eng'), df('100', '1 ', '$aPass, Joe,$d1929-1994.'), df('245', '14', '$aThe best of Joe Pass'), df('240', '10', '$aInstrumental music.$kSelections')),
    bookRecord(f008('eng'), df('100', '1 ', '$aPass, Joe,$d1929-1994.'), df('245', '10', '$aPure genius'), df('240', '10', '$aInstrumental music.$kSelections'))],
  ['"Sherlock Holmes : selected stories" and "… the complete novels and stories"',
    bookRecord(f008('eng'), df('100', '1 ', '$aDoyle, Arthur Conan.'), df('245', '10', '$aSherlock Holmes :$bselected stories')),
    bookRecord(f008('eng'), df('100', '1 ', '$aDoyle, Arthur Conan.'), df('245', '10', '$aSherlock Holmes :$bthe complete novels and stories'))],
];
for (const [rule, a, b] of apart) {
  test(`collective titles: ${rule} share no key`, (t) => t.deepEqual(shared(a, b), []));
}

test('a generic title with an added entry only makes no key', (t) => {
  t.deepEqual(keysOf(bookRecord(f008('eng'), df('245', '00', '$aJazz'), df('710', '2 ', '$aModern Jazz Quartet.'))), []);
});

const collective: [string, boolean][] = [
  ['Contes', true], ['Fables', true], ['Poèmes', true], ['Lettres', true], ['Poems', true], ['Cuentos', true],
  ['Gedichte', true], ['Works', false], ['Selections', false], ['Songs', false], ['Instrumental music', false], ['Jazz', false],
];
for (const [title, expected] of collective) {
  test(`isAuthorsCollectiveTitle: "${title}"`, (t) => t.is(isAuthorsCollectiveTitle(normaliseForWorkKey(title)), expected));
}

const statements: [string, boolean][] = [
  ['choix', true], ['extraits', true], ['Selections', true], ['morceaux choisis', true], ['Auswahl', true],
  ['selected stories', false], ['the complete novels and stories', false], ['choix de poèmes', true], ['a novel', false],
];
for (const [text, expected] of statements) {
  test(`isSelectionStatement: "${text}"`, (t) => t.is(isSelectionStatement(text), expected));
}
