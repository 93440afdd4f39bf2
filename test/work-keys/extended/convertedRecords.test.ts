import test from 'ava';
import { bookRecord, dataField as df } from '../../support/marcFields.js';
import type { MarcRecord } from '../../../src/marc/marcRecord.js';
import { workStatementFromMarc } from '../../../src/work-keys/extended/marcWorkStatement.js';
import { extendedWorkKeys } from '../../../src/work-keys/extended/extendedWorkKeys.js';
import { languageOfTitleWords } from '../../../src/work-keys/extended/titleLanguages.js';

// Records converted from UNIMARC or older systems, as public catalogues hold them: no 008, a 245 second
// indicator 0 before an article, a relator $4 before the name, a 100 with a second $a.
const keysOf = (marc: MarcRecord): string[] => extendedWorkKeys(workStatementFromMarc(marc));

const headings: [string, MarcRecord, string][] = [
  ['a part designation in a second $a', bookRecord(df('100', '1 ', '$4aut$aDaudet, Alphonse$aextraits'), df('245', '10', '$aLettres de mon moulin')), 'AT daudetalphonse lettresdemonmoulin'],
  ['the name in the second $a', bookRecord(df('100', '1 ', '$aChoix$aMaupassant, Guy de$d1850-1893'), df('245', '10', '$aContes du jour et de la nuit')), 'AT maupassantguyde contesdujouretdelanuit'],
  ['a stray subtitle in a second $a', bookRecord(df('100', '1 ', '$aHugo, Victor$aroman$d1802-1885'), df('245', '10', '$aQuatrevingt-treize')), 'AT hugovictor quatrevingttreize'],
  ['one $a, as before', bookRecord(df('100', '1 ', '$4aut$aZola, Émile,$d1840-1902'), df('245', '10', '$aGerminal')), 'AT zolaemile germinal'],
];
for (const [rule, marc, key] of headings) {
  test(`a main entry of a converted record: ${rule}`, (t) => {
    const keys = keysOf(marc);
    t.true(keys.includes(key), `${key} is missing from ${JSON.stringify(keys)}`);
    t.false(keys.some((candidate) => /extraits|choix|roman /u.test(candidate.split(' ')[1] ?? '')), JSON.stringify(keys));
  });
}

const articles: [string, MarcRecord, string][] = [
  ['the 041 gives the language where there is no 008', bookRecord(df('041', '0 ', '$afre'), df('100', '1 ', '$aStendhal'), df('245', '10', '$aLe rouge et le noir')), 'AT stendhal rougeetlenoir'],
  ['the title\'s own words give it where there is no 041', bookRecord(df('100', '1 ', '$aDaudet, Alphonse'), df('245', '10', '$aLes lettres de mon moulin')), 'AT daudetalphonse lettresdemonmoulin'],
  ['Spanish told from its words', bookRecord(df('100', '1 ', '$aCervantes Saavedra, Miguel de'), df('245', '10', '$aEl ingenioso hidalgo don Quijote de la Mancha')), 'AT cervantessaavedramiguelde ingeniosohidalgodonquijotedelamancha'],
  ['"&" read in the language told', bookRecord(df('100', '1 ', '$aMusset, Alfred de'), df('245', '10', '$aLes caprices de Marianne & autres pièces')), 'AT mussetalfredde capricesdemarianneetautrespieces'],
];
for (const [rule, marc, key] of articles) {
  test(`a leading article without a stated language: ${rule}`, (t) => {
    const keys = keysOf(marc);
    t.true(keys.includes(key), `${key} is missing from ${JSON.stringify(keys)}`);
  });
}

test('a stated language is not overruled by the title\'s words', (t) => {
  // An English record of a French title: the French article stays (English has no "les").
  const keys = keysOf(bookRecord({ tag: '008', value: '970701s1997    xx            000 1 eng d' }, df('100', '1 ', '$aHugo, Victor'), df('245', '10', '$aLes misérables de mon enfance')));
  t.false(keys.includes('AT hugovictor miserablesdemonenfance'), JSON.stringify(keys));
});

const languages: [string, string | undefined][] = [
  ['Le rouge et le noir', 'fre'],
  ['Les fables de La Fontaine', 'fre'],
  ["L'étranger et autres récits", 'fre'],
  ['The adventures of Tom Sawyer', 'eng'],
  ['Cien años de soledad y otros cuentos', 'spa'],
  ['O primo Basílio e outros contos', 'por'],
  ['Die Leiden des jungen Werther', 'ger'],
  ['I promessi sposi della Lombardia', 'ita'],
  // Too few words to be sure, or as many for two languages.
  ['Hamlet', undefined],
  ['Le Horla', undefined],
  ['La farce de Maître Pathelin', undefined],
];
for (const [title, expected] of languages) {
  test(`languageOfTitleWords: "${title}" is ${expected ?? 'not told'}`, (t) => t.is(languageOfTitleWords(title), expected));
}

test('a main entry of an older system naming the author and the reader keeps the author', (t) => {
  const audiobook: MarcRecord = { ...bookRecord(df('100', '1 ', '$aLovecraft, H. P./ Herrmann, Edward (NRT)'), df('245', '10', '$aAt the Mountains of Madness$h[sound recording].')), leader: '00918nim a22002535  4500' };
  t.true(keysOf(audiobook).includes('AT lovecrafthp atthemountainsofmadness'), JSON.stringify(keysOf(audiobook)));
});

test("a film's name-title entry is the work it is based on, not its own", (t) => {
  const film: MarcRecord = {
    ...bookRecord(df('245', '00', '$aKandukondain kandukondain$h[videorecording] =$bI have found it /$cproduced by Kalaippuli S. Thanu.'), df('500', '  ', '$aBased on the novel "Sense and sensibility" by Jane Austen.'), df('700', '1 ', '$aMenon, Rajiv.'), df('700', '1 ', '$aAusten, Jane,$d1775-1817.$tSense and sensibility.')),
    leader: '03625cgm a2200721Ia 4500',
  };
  t.false(keysOf(film).some((key) => key.startsWith('AT austenjane')), JSON.stringify(keysOf(film)));
  // An audiobook's lone name-title entry still names its own work.
  const audiobook: MarcRecord = { ...bookRecord(df('245', '04', '$aThe hobbit /$cJ.R.R. Tolkien.'), df('700', '1 ', '$aTolkien, J. R. R.,$d1892-1973.$tHobbit.')), leader: '01000nim a2200000 a 4500' };
  t.true(keysOf(audiobook).includes('AT tolkienjrr hobbit'));
});

const adaptations: [string, MarcRecord, string[], string[]][] = [
  ['a stage adaptation is its adapter\'s work',
    bookRecord(df('100', '1 ', '$aAusten, Jane,$eauthor.'), df('245', '10', '$aSense and sensibility /$cJane Austen ; adapted by Jessica Swale.'), df('700', '1 ', '$aSwale, Jessica,$eeditor.')),
    ['AT swalejessica senseandsensibility'], ['AT austenjane senseandsensibility']],
  ['"adapté par" in French',
    bookRecord(df('100', '1 ', '$aHugo, Victor'), df('245', '13', '$aLes misérables /$cVictor Hugo ; adapté par Anne-Marie Bonnet.'), df('700', '1 ', '$aBonnet, Anne-Marie')),
    ['AT bonnetannemarie miserables'], ['AT hugovictor miserables', 'AT hugovictor lesmiserables']],
  ['an edition "with an introduction" is no adaptation',
    bookRecord(df('100', '1 ', '$aAusten, Jane.'), df('245', '10', '$aSense and sensibility /$cJane Austen ; with an introduction by Tony Tanner.')),
    ['AT austenjane senseandsensibility'], []],
];
for (const [rule, marc, includes, excludes] of adaptations) {
  test(`adaptations: ${rule}`, (t) => {
    const keys = keysOf(marc);
    for (const key of includes) t.true(keys.includes(key), `${key} is missing from ${JSON.stringify(keys)}`);
    for (const key of excludes) t.false(keys.includes(key), `${key} is in ${JSON.stringify(keys)}`);
  });
}
