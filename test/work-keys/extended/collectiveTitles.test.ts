import test from 'ava';
import { bookRecord, dataField as df } from '../../support/marcFields.js';
import type { MarcField, MarcRecord } from '../../../src/marc/marcRecord.js';
import { workStatementFromMarc } from '../../../src/work-keys/extended/marcWorkStatement.js';
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

// Anonymous classics: books with no main entry and no uniform title, naming only adapters and translators.
const anonymous: [string, MarcRecord, MarcRecord][] = [
  ['two editions of "Le roman de Renart" by different adapters',
    bookRecord(f008('fre'), df('245', '13', '$aLe roman de Renart /$cadapté par Paulin Paris.'), df('700', '1 ', '$aParis, Paulin,$eadaptateur.')),
    bookRecord(f008('fre'), df('245', '10', '$aRoman de Renart (texte intégral) /$ctraduit par Micheline de Combarieu du Grès.'), df('700', '1 ', '$aCombarieu du Grès, Micheline de,$etrad.'))],
  ['an edition without a uniform title and one with it',
    bookRecord(f008('fre'), df('245', '10', '$aLa farce de Maître Pathelin /$cprésentation par Jean Dufournet.'), df('700', '1 ', '$aDufournet, Jean.')),
    bookRecord(f008('fre'), df('130', '0 ', '$aFarce de Maître Pathelin.'), df('245', '13', '$aLa farce de Maître Pathelin :$bcomédie du XVe siècle /$ctranscription de Michel Rousse.'), df('700', '1 ', '$aRousse, Michel.'))],
];
for (const [rule, a, b] of anonymous) {
  test(`anonymous classics: ${rule} share a key`, (t) => t.not(shared(a, b).length, 0, JSON.stringify([keysOf(a), keysOf(b)])));
}

const anonymousApart: [string, MarcRecord, MarcRecord][] = [
  ['two anthologies of one title opening with a collective word',
    bookRecord(f008('fre'), df('245', '00', '$aContes et légendes de Bretagne /$cchoisis par Jean Markale.'), df('700', '1 ', '$aMarkale, Jean.')),
    bookRecord(f008('fre'), df('245', '00', '$aContes et légendes de Bretagne /$cDaniel Giraudon.'), df('700', '1 ', '$aGiraudon, Daniel.'))],
  ['an album and a book of one title',
    { ...bookRecord(f008('eng'), df('245', '00', '$aBeowulf /$cmusic by Benjamin Bagby.'), df('700', '1 ', '$aBagby, Benjamin.')), leader: '00000njm a2200000 a 4500' },
    bookRecord(f008('eng'), df('245', '00', '$aBeowulf :$ba new verse translation /$cSeamus Heaney.'), df('700', '1 ', '$aHeaney, Seamus.'))],
  ['a book with a generic title',
    bookRecord(f008('eng'), df('245', '00', '$aPoems /$cselected by Ann Thwaite.'), df('700', '1 ', '$aThwaite, Ann.')),
    bookRecord(f008('eng'), df('245', '00', '$aPoems /$cedited by Ruth Padel.'), df('700', '1 ', '$aPadel, Ruth.'))],
  ['a book with a main entry and an anonymous book of the same title',
    bookRecord(f008('eng'), df('100', '1 ', '$aLewis, C. S.'), df('245', '10', '$aThe four loves')),
    bookRecord(f008('eng'), df('245', '04', '$aThe four loves /$cedited by Ann Smith.'), df('700', '1 ', '$aSmith, Ann.'))],
];
for (const [rule, a, b] of anonymousApart) {
  test(`anonymous classics: ${rule} share no key`, (t) => t.deepEqual(shared(a, b), []));
}

const collectionSubtitles: [string, string, boolean][] = [
  ['Sherlock Holmes', 'cuatro novelas', true],
  ['Sherlock Holmes', 'las novelas', true],
  ['Sherlock Holmes', 'sus mejores casos', true],
  ['Sherlock Holmes', 'obras inmortales', true],
  ['Dubliners', 'stories', false],
  ['Three in blue', 'jazz preludes', false],
  ['Pride and prejudice', 'a novel', false],
];
for (const [proper, subtitle, collection] of collectionSubtitles) {
  test(`a subtitle naming a collection: "${proper} : ${subtitle}" ${collection ? 'is not' : 'is'} keyed by its title proper`, (t) => {
    const keys = keysOf(bookRecord(f008('spa'), df('100', '1 ', '$aDoyle, Arthur Conan'), df('245', '10', `$a${proper} :$b${subtitle}`)));
    t.is(keys.includes(`AT doylearthurconan ${normaliseForWorkKey(proper)}`), !collection, JSON.stringify(keys));
  });
}
