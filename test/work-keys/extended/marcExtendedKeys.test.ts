import test from 'ava';
import { bookRecord, dataField as df } from '../../support/marcFields.js';
import type { MarcField, MarcRecord } from '../../../src/marc/marcRecord.js';
import { originalTitleInNote, workStatementFromMarc } from '../../../src/work-keys/extended/marcWorkStatement.js';
import { extendedWorkKeys } from '../../../src/work-keys/extended/extendedWorkKeys.js';

/** 008 with the language at 35-37. */
const f008 = (language: string): MarcField => ({ tag: '008', value: `970701s1997    mau           000 1 ${language} d` });
const record = (...fields: MarcField[]): MarcRecord => bookRecord({ tag: '001', value: 'x' }, ...fields);
const keysOf = (marc: MarcRecord): string[] => extendedWorkKeys(workStatementFromMarc(marc));

interface Row {
  readonly rule: string;
  readonly record: MarcRecord;
  readonly includes?: readonly string[];
  readonly excludes?: readonly string[];
  readonly exactly?: readonly string[];
}

const rows: Row[] = [
  {
    rule: "VuFind's title forms stay, with the main author",
    record: record(f008('eng'), df('100', '1 ', '$aTolkien, J. R. R.,$d1892-1973.'), df('245', '14', '$aThe hobbit, or, There and back again /$cJ.R.R. Tolkien.')),
    includes: ['AT tolkienjrr thehobbitorthereandbackagain', 'AT tolkienjrr hobbitorthereandbackagain'],
  },
  {
    rule: 'added entries are not keyed beside a main entry',
    record: record(f008('eng'), df('100', '1 ', '$aJones, Diana Wynne.'), df('245', '10', '$aEarwig and the witch /'), df('700', '1 ', '$aZelinsky, Paul O.,$eillustrator.')),
    exactly: ['AT jonesdianawynne earwigandthewitch'],
  },
  {
    rule: 'added entries are keyed when there is no main entry',
    // An album (leader/06 j): a book catalogued under its title is also keyed by the title alone (anonymousWorkTitles).
    record: { ...record(f008('eng'), df('245', '00', '$aLatin quarter /'), df('700', '1 ', '$aSamuels, Dave'), df('710', '2 ', '$aCaribbean Jazz Project')), leader: '00000njm a2200000 a 4500' },
    exactly: ['AT samuelsdave latinquarter', 'AT caribbeanjazzproject latinquarter'],
  },
  {
    rule: 'a lone name-title entry of a record without main entry is its author and work',
    record: record(f008('eng'), df('245', '04', '$aThe hobbit /$cJ.R.R. Tolkien.'), df('700', '1 ', '$aTolkien, J. R. R.$q(John Ronald Reuel),$d1892-1973.$tHobbit.'), df('710', '2 ', '$aRecorded Books, LLC.')),
    includes: ['AT tolkienjrr thehobbit', 'AT tolkienjrr hobbit'],
    excludes: ['AT recordedbooksllc thehobbit'],
  },
  {
    rule: 'the title without its subtitle',
    record: record(f008('eng'), df('100', '1 ', '$aAusten, Jane,$d1775-1817.'), df('245', '10', '$aPride and prejudice :$ban authoritative text, backgrounds and sources, criticism /$cedited by Donald Gray.')),
    includes: ['AT austenjane prideandprejudiceanauthoritativetextbackgroundsandsourcescriticism', 'AT austenjane prideandprejudice'],
  },
  {
    rule: 'no title without its subtitle when the subtitle names a part',
    record: record(f008('eng'), df('100', '1 ', '$aBlakey, Art,$d1919-1990'), df('245', '00', '$aHoliday for skins :$bvol. 2')),
    exactly: ['AT blakeyart holidayforskinsvol2'],
  },
  {
    rule: 'no title without its subtitle when the subtitle says the book is a collection',
    record: record(f008('eng'), df('100', '1 ', '$aDoyle, Arthur Conan,$d1859-1930.'), df('245', '10', '$aSherlock Holmes :$bthe complete novels and stories /')),
    exactly: ['AT doylearthurconan sherlockholmesthecompletenovelsandstories'],
  },
  {
    rule: 'no short form that is only the author\'s name',
    record: record(f008('eng'), df('100', '1 ', '$aEvans, Bill,$d1929-1980'), df('245', '00', '$aBill Evans :$bthe second trio')),
    exactly: ['AT evansbill billevansthesecondtrio'],
  },
  {
    rule: 'parts ($n $p) are kept in the title',
    record: record(f008('eng'), df('100', '1 ', '$aTolkien, J. R. R.'), df('245', '14', '$aThe lord of the rings.$pThe two towers :$ba novel')),
    includes: ['AT tolkienjrr lordoftheringsthetwotowers'],
    excludes: ['AT tolkienjrr lordoftherings'],
  },
  {
    rule: 'a French leading article and the author in the title',
    record: record(f008('fre'), df('100', '1 ', '$aLa Fontaine, Jean de,$d1621-1695.'), df('245', '10', '$aLes fables de La Fontaine /$cillustrées par Gustave Doré.')),
    includes: ['AT lafontainejeande fables', 'AT lafontainejeande lesfables'],
  },
  {
    rule: '"&" read as the language\'s "and"',
    record: record(f008('eng'), df('100', '1 ', '$aMingus, Charles,$d1922-1979'), df('245', '00', '$aBlues & roots')),
    includes: ['AT minguscharles bluesroots', 'AT minguscharles bluesandroots'],
  },
  {
    rule: 'a collective uniform title makes no key',
    record: record(f008('eng'), df('100', '1 ', '$aMonk, Thelonious,$d1917-1982.'), df('245', '00', "$aMonk's greatest hits"), df('730', '0 ', '$aPiano music.$kSelections.')),
    excludes: ['UT pianomusic', 'AT monkthelonious pianomusic'],
  },
  {
    rule: 'a uniform title whose $k says Selections makes no key',
    record: record(f008('eng'), df('100', '1 ', '$aAusten, Jane.'), df('240', '10', '$aNovels.$kSelections'), df('245', '10', '$aThree novels')),
    exactly: ['AT austenjane threenovels'],
  },
  {
    rule: "the record's own uniform title goes with the main author, noted",
    record: record(f008('eng'), df('100', '1 ', '$aGarcía Márquez, Gabriel,$d1927-2014.'), df('240', '10', '$aCien años de soledad.$lEnglish'), df('245', '10', '$aOne hundred years of solitude /')),
    includes: ['AT garciamarquezgabriel cienanosdesoledad', 'TR garciamarquezgabriel cienanosdesoledad'],
  },
  {
    rule: '130 alone, without a main entry',
    record: record(f008('por'), df('130', '0 ', '$aBible.$lPortuguese.$f1990.'), df('245', '10', '$aBíblia sagrada.')),
    exactly: ['UT bible'],
  },
  {
    rule: 'a 730 of a compilation (several works) makes no key',
    record: record(f008('eng'), df('245', '00', '$aSonic mappings'), df('730', '0 ', '$aSpeaker swinging'), df('730', ' ', '$aLe sacre du printemps')),
    exactly: [],
  },
  {
    rule: 'a music form title with a number needs its composer',
    record: record(f008('eng'), df('245', '00', '$aViolin concerto'), df('730', '0 ', '$aConcertos, violin, op. 61, D major')),
    exactly: [],
  },
  {
    rule: 'a translation keyed by its original with the original\'s author',
    record: record(f008('eng'), df('041', '1 ', '$aeng$hspa'), df('100', '1 ', '$aGarcía Márquez, Gabriel.'), df('245', '10', '$aOne hundred years of solitude /'), df('765', '0 ', '$aGarcía Márquez, Gabriel.$tCien años de soledad.')),
    includes: ['AT garciamarquezgabriel cienanosdesoledad', 'TR garciamarquezgabriel cienanosdesoledad'],
  },
  {
    rule: "a translation's original title without the original's article",
    record: record(f008('eng'), df('041', '1 ', '$aeng$hfre'), df('100', '1 ', '$aCamus, Albert,$d1913-1960.'), df('245', '14', '$aThe stranger /'), df('765', '0 ', "$tL'étranger")),
    includes: ['AT camusalbert etranger', 'TR camusalbert etranger'],
  },
  {
    rule: 'a DOI in 024 is a key of its own',
    record: record(f008('por'), df('024', '7 ', '$a10.11606/T.48.2019.tde-0412$2doi'), df('100', '1 ', '$aPereira, Ana Clara.'), df('245', '10', '$aO ensino de ciências na educação básica')),
    includes: ['DOI 10.11606/t.48.2019.tde-0412'],
  },
  {
    rule: 'a record without names has no title key',
    record: record(f008('eng'), df('245', '00', '$aTangerine')),
    exactly: [],
  },
];

for (const row of rows) {
  test(`extended MARC keys: ${row.rule}`, (t) => {
    const keys = keysOf(row.record);
    if (row.exactly !== undefined) t.deepEqual(keys, [...row.exactly]);
    for (const key of row.includes ?? []) t.true(keys.includes(key), `${key} is missing from ${JSON.stringify(keys)}`);
    for (const key of row.excludes ?? []) t.false(keys.includes(key), `${key} is in ${JSON.stringify(keys)}`);
  });
}

const notes: [string, string | undefined][] = [
  ['Translation of: Cien años de soledad.', 'Cien años de soledad'],
  ['Traduction de : The old man and the sea.', 'The old man and the sea'],
  ['Tradução de: Le petit prince. Paris : Gallimard, 1946.', 'Le petit prince'],
  ['Título original: Der Prozess', 'Der Prozess'],
  ['Includes bibliographical references.', undefined],
];
for (const [note, expected] of notes) {
  test(`originalTitleInNote: "${note}"`, (t) => t.is(originalTitleInNote(note), expected));
}

test('a 500 translation note keys the original title with the main author', (t) => {
  const keys = keysOf(record(f008('eng'), df('041', '1 ', '$aeng$hfre'), df('100', '1 ', '$aHugo, Victor,$d1802-1885.'), df('245', '10', '$aLes misérables /$ctranslated by Charles E. Wilbour.'), df('500', '  ', '$aTranslation of: Les misérables.')));
  // The French article goes in the original's language (041 $h), not in the English record's.
  t.true(keys.includes('AT hugovictor miserables'));
  t.true(keys.includes('TR hugovictor miserables'));
  t.false(keys.includes('TR hugovictor lesmiserables'), 'no note where the titles give the key themselves');
});
