import test from 'ava';
import { bookRecord, dataField as df } from '../support/marcFields.js';
import { InvalidRecordDocumentError } from '../../src/errors.js';
import type { MarcDataField, MarcField, MarcRecord } from '../../src/marc/marcRecord.js';
import { authorsFilteredByRelator, AUTHOR_FILTER, normaliseRelator, vufindAuthorFields } from '../../src/ingest/marc/vufindAuthors.js';
import { recordDocumentFromMarc } from '../../src/ingest/marc/vufindMarcMapping.js';
import { cleanDateAsSolrMarc, vufindPublishDates } from '../../src/ingest/marc/vufindPublishDates.js';
import { trimTrailingIsbdPunctuation } from '../../src/ingest/marc/isbdPunctuation.js';

// Expected values are what VuFind 7.1.1 (stock marc.properties, CreatorTools, getDates) indexes, with the
// mapping's deliberate difference: trailing ISBD punctuation trimmed from titles, names and dates.


const record = bookRecord;

const id = (value: string): MarcField => ({ tag: '001', value });
const CURRENT_YEAR = 2024;
const map = (input: MarcRecord) => recordDocumentFromMarc(input, { currentYear: CURRENT_YEAR });

// ---------------------------------------------------------------------------------------------------------
// id

const recordWithoutControlNumber = record(df('245', '10', '$aNo id.'), df('901', '  ', '$c42'));

test('a record without 001 is refused, with a reason; 901$c is not used', (t) => {
  const error = t.throws(() => map(recordWithoutControlNumber), { instanceOf: InvalidRecordDocumentError });
  t.regex(error?.reason ?? '', /no 001/);
});

const recordWithBlankControlNumber = record(id('   '), df('245', '10', '$aBlank id.'));

test('a record whose 001 is blank is refused', (t) => {
  const error = t.throws(() => map(recordWithBlankControlNumber), { instanceOf: InvalidRecordDocumentError });
  t.regex(error?.reason ?? '', /empty/);
});

const recordWithPaddedControlNumber = record(id(' ocm12345 \t'), df('245', '10', '$aPadded.'));
const recordWithTwoControlNumbers = record(id('first'), id('second'), df('245', '10', '$aTwice.'));

test('the id is the 001, trimmed; of two 001s the last counts, as in SolrMarc', (t) => {
  t.is(map(recordWithPaddedControlNumber).id, 'ocm12345');
  t.is(map(recordWithTwoControlNumbers).id, 'second');
});

// ---------------------------------------------------------------------------------------------------------
// titles

const titleWithSubtitleAndResponsibility = record(
  id('t1'),
  df('245', '03', '$aLa canzone italiana :$bda Piedigrotta a Sanremo /$cGianfranco Baldazzi.$h[sound recording]'),
  df('245', '10', '$aA second 245 is not read.'),
);

test('title is 245ab and title_short 245a, from the first 245, ISBD punctuation trimmed', (t) => {
  const document = map(titleWithSubtitleAndResponsibility);
  t.is(document.title, 'La canzone italiana : da Piedigrotta a Sanremo');
  t.is(document.title_short, 'La canzone italiana');
});

const titleWithoutSubtitle = record(id('t2'), df('245', '10', '$aLe concerto /$cGuy Ferchault.'));

test('"Le concerto /" → "Le concerto"; no uniform-title field is made', (t) => {
  const document = map(titleWithoutSubtitle);
  t.is(document.title, 'Le concerto');
  t.is(document.title_short, 'Le concerto');
  t.false('title_uniform' in document);
});

const recordWithoutTitle = record(id('t3'), df('100', '1 ', '$aNobody.'));

test('a record without 245 has no title fields and no keys, but the keys field is there', (t) => {
  const document = map(recordWithoutTitle);
  t.false('title' in document);
  t.false('title_short' in document);
  t.deepEqual(document.work_keys_str_mv, []);
});

// ---------------------------------------------------------------------------------------------------------
// authors and relators

const mainAuthorWithoutRelator = record(
  id('a1'),
  df('100', '1 ', '$aTolkien, J. R. R.$q(John Ronald Reuel),$d1892-1973.'),
  df('245', '14', '$aThe hobbit.'),
);

test('100 without relator is the author, role ""; $q is not part of the name', (t) => {
  const document = map(mainAuthorWithoutRelator);
  t.deepEqual(document.author, ['Tolkien, J. R. R. 1892-1973']);
  t.deepEqual(document.author_role, ['']);
  t.false('author2' in document);
});

const illustratorAndAuthorCode = record(
  id('a2'),
  df('245', '10', '$aStardust.'),
  df('700', '1 ', '$aVess, Charles,$eillustrator.'),
  df('700', '1 ', '$aGaiman, Neil,$4aut'),
  df('700', '1 ', '$aMcKean, Dave,$eIll.'),
);

test('700 $e illustrator is a secondary author (ill); 700 $4 aut is an author', (t) => {
  const document = map(illustratorAndAuthorCode);
  t.deepEqual(document.author, ['Gaiman, Neil']);
  t.deepEqual(document.author_role, ['aut']);
  t.deepEqual(document.author2, ['Vess, Charles', 'McKean, Dave']);
  t.deepEqual(document.author2_role, ['ill', 'ill']);
});

const relatorsKnownButNotPermitted = record(
  id('a3'),
  df('245', '10', '$aThe film.'),
  df('700', '1 ', '$aSuzuki, Toshio,$efilm producer.'),
  df('700', '1 ', '$aGrant, Richard E.,$evoice actor.'),
  df('710', '2 ', '$aStudio Ghibli,$eproduction company.'),
  df('710', '2 ', '$aShout! Factory,$epublisher.'),
);

test('relators VuFind knows but does not list for a field leave the name out', (t) => {
  const document = map(relatorsKnownButNotPermitted);
  t.false('author' in document);
  t.false('author2' in document);
  t.false('author_corporate' in document);
});

const unknownRelators = record(
  id('a4'),
  df('245', '10', '$aThe film.'),
  df('700', '1 ', '$aHirasawa, Kokoro,$evoice actor,$eon-screen participant.'),
  df('710', '2 ', '$aSony Pictures Home Entertainment,$evideo distributor.'),
  df('700', '1 ', '$aMoorcock, Michael,$eintrod.'),
);

test('unknown relators are accepted as written (trimmed) for the tags that need no relator', (t) => {
  const document = map(unknownRelators);
  t.deepEqual(document.author2, ['Hirasawa, Kokoro', 'Moorcock, Michael']);
  t.deepEqual(document.author2_role, ['on-screen participant.', 'introd.']);
  t.deepEqual(document.author_corporate, ['Sony Pictures Home Entertainment']);
  t.deepEqual(document.author_corporate_role, ['video distributor.']);
});

const mainEntryWithSecondaryRole = record(
  id('a5'),
  df('100', '1 ', '$aLarsen, Robert L.,$d1934-$eeditor,$ecompiler.'),
  df('245', '10', '$aArias.'),
);

test('a 100 whose relators are secondary roles is a secondary author, once per role', (t) => {
  const document = map(mainEntryWithSecondaryRole);
  t.false('author' in document);
  t.deepEqual(document.author2, ['Larsen, Robert L., 1934-', 'Larsen, Robert L., 1934-']);
  t.deepEqual(document.author2_role, ['edt', 'com']);
});

const relatorCodeAndTermAgree = record(
  id('a6'),
  df('100', '1 ', '$aBrahms, Johannes,$d1833-1897,$ecomposer.$4cmp'),
  df('245', '10', '$aSymphonies.'),
  df('700', '1 ', '$aHeino, Laura.$4prf.$0(CONS)14'),
);

test('$e and $4 naming the same role count once; codes with punctuation are normalised', (t) => {
  const document = map(relatorCodeAndTermAgree);
  t.deepEqual(document.author, ['Brahms, Johannes, 1833-1897']);
  t.deepEqual(document.author_role, ['cmp']);
  t.deepEqual(document.author2, ['Heino, Laura']);
  t.deepEqual(document.author2_role, ['prf']);
});

const corporateAndMeetingNames = record(
  id('a7'),
  df('110', '2 ', '$aPolskie Radio.$bWielka Orkiestra Symfoniczna (Warsaw, Poland)'),
  df('111', '2 ', '$aDaWaK 2002$d(2002 :$cAix-en-Provence, France)'),
  df('245', '10', '$aProceedings.'),
  df('710', '2 ', '$aRecorded Books, LLC.'),
  df('711', '2 ', '$aSymposium$cParis$eissuing body.'),
);

test('corporate names: 110ab, 111abc, 710ab, 711ab, subfields joined with a space', (t) => {
  const document = map(corporateAndMeetingNames);
  t.deepEqual(document.author_corporate, [
    'Polskie Radio. Wielka Orkiestra Symfoniczna (Warsaw, Poland)',
    'DaWaK 2002 Aix-en-Provence, France',
    'Recorded Books, LLC',
  ]);
  t.deepEqual(document.author_corporate_role, ['', '', '']);
});

const nameWithPaddedSubfields = record(id('a8'), df('700', '1 ', '$aSly & The Family Stone, $d 1966- '));

test('name subfields are trimmed before joining (VuFind\'s raw value keeps no padding)', (t) => {
  t.deepEqual(authorsFilteredByRelator(nameWithPaddedSubfields, { ...AUTHOR_FILTER, acceptWithoutRelator: ['700'] }).names, [
    'Sly & The Family Stone, 1966-',
  ]);
  t.deepEqual(vufindAuthorFields(nameWithPaddedSubfields).author2.names, ['Sly & The Family Stone, 1966-']);
});

const alternateScriptName = record(
  id('a9'),
  df('100', '1 ', '$6880-01$aDa, Qiao.'),
  df('245', '10', '$aTu shuo.'),
  df('880', '1 ', '$6100-01/$1$a大乔.'),
);

test('880 names are not indexed', (t) => {
  t.deepEqual(map(alternateScriptName).author, ['Da, Qiao']);
});

test('relators are normalised: trimmed, lower case, ASCII punctuation gone', (t) => {
  t.is(normaliseRelator(' Author of afterword, colophon, etc. '), 'author of afterword colophon etc');
  t.is(normaliseRelator('On-screen participant.'), 'onscreen participant');
  t.is(normaliseRelator('prf.'), 'prf');
});

// ---------------------------------------------------------------------------------------------------------
// publishDate

const publicationAndCopyright = record(
  id('d1'),
  df('264', ' 4', '$c©2013'),
  df('264', ' 1', '$aNew York :$bPenguin,$c[2014]'),
  df('260', '  ', '$c1999.'),
);

test('publishDate: 260$c first, then 264 ind2=1 (copyright 264 ind2=4 ignored when there is one)', (t) => {
  t.deepEqual(map(publicationAndCopyright).publishDate, ['1999', '2014']);
});

const copyrightOnly = record(id('d2'), df('264', ' 1', '$aLondon'), df('264', ' 4', '$c℗2012'), df('264', ' 2', '$c2011'));

test('publishDate: 264 ind2=4 when no 264 ind2=1 has a date; other 264s never', (t) => {
  t.deepEqual(map(copyrightOnly).publishDate, ['2012']);
});

const onlyFixedFieldDate: MarcRecord = {
  leader: '00000nam a2200000 a 4500',
  fields: [id('d3'), { tag: '008', value: '970701s2015    nyu           000 0 eng d' }, df('245', '10', '$aUndated.')],
};

test('publishDate: no 008 fallback (stock VuFind has none)', (t) => {
  t.false('publishDate' in map(onlyFixedFieldDate));
});

test('publishDate without a current year given: the clock\'s year decides, record after record', (t) => {
  // Years around the clock's own, so the test holds in any year it runs.
  const clockYear = new Date().getFullYear();
  const datedRecord = (year: number) => record(id(`y${year}`), df('260', '  ', `$c${year}.`));
  for (let round = 0; round < 2; round++) {
    t.deepEqual(recordDocumentFromMarc(datedRecord(clockYear + 1)).publishDate, [String(clockYear + 1)]);
    t.false('publishDate' in recordDocumentFromMarc(datedRecord(clockYear + 2)));
  }
});

const repeatedDates = record(id('d4'), df('260', '  ', '$c1989.$c1989'), df('260', '  ', '$c[1990?]'));

test('publishDate: each year once, in record order', (t) => {
  t.deepEqual(vufindPublishDates(repeatedDates, CURRENT_YEAR), ['1989', '1990']);
});

test('dates are cleaned to a year as SolrMarc does', (t) => {
  const cases: [string, string | undefined][] = [
    ['1989.', '1989'],
    ['c1998', '1998'],
    ['[2012]', '2012'],
    ['[1990?]', '1990'],
    ['1985 [i.e. 1986]', '1986'],
    ['[2015-]', '2015'],
    ['1923-1930', '1923'],
    ['199-', '1990'],
    ['19--', undefined],
    ['18??', undefined],
    ['[19]85', '1985'],
    ['l985', '1985'],
    ['300 B.C.', undefined],
    ['n.d.', undefined],
    ['&#xfffd;2018.', '2018'],
    [`${CURRENT_YEAR + 1}`, `${CURRENT_YEAR + 1}`],
    [`${CURRENT_YEAR + 2}`, undefined],
    ['1450', undefined],
    ['1420, c1989.', '1989'],
    ['300 b.c., 1950', undefined],
  ];
  for (const [date, expected] of cases) t.is(cleanDateAsSolrMarc(date, CURRENT_YEAR), expected, date);
});

// ---------------------------------------------------------------------------------------------------------
// url, format, keys

const linksRepeated = record(
  id('u1'),
  df('856', '40', '$uhttp://example.com/a$uhttp://example.com/b'),
  df('856', '41', '$uhttp://example.com/a$zSame link again'),
  df('555', '8 ', '$uhttp://example.com/finding-aid'),
);

test('url: every 856$u then 555$u, each once', (t) => {
  t.deepEqual(map(linksRepeated).url, ['http://example.com/a', 'http://example.com/b', 'http://example.com/finding-aid']);
});

const soundRecordingWithKeys: MarcRecord = {
  leader: '00000cjm a2200000 a 4500',
  fields: [
    id('k1'),
    { tag: '007', value: 'sd fsngnnmmned' },
    df('100', '1 ', '$aKabalevsky, Dmitry Borisovich,$d1904-1987'),
    df('240', '10', '$aConcertos,$mpiano, orchestra,$nno. 2'),
    df('245', '10', '$aPiano concertos nos. 2, 3 & 4'),
    df('260', '  ', '$c1992.'),
  ],
};

test('a whole document: format, keys and the rest', (t) => {
  t.deepEqual(map(soundRecordingWithKeys), {
    id: 'k1',
    title: 'Piano concertos nos. 2, 3 & 4',
    title_short: 'Piano concertos nos. 2, 3 & 4',
    author: ['Kabalevsky, Dmitry Borisovich, 1904-1987'],
    author_role: [''],
    format: ['CD', 'Audio'],
    publishDate: ['1992'],
    work_keys_str_mv: [
      'AT kabalevskydmitryborisovich concertospianoorchestrano2',
      'AT kabalevskydmitryborisovich pianoconcertosnos234',
    ],
  });
});

// ---------------------------------------------------------------------------------------------------------
// the display trim

test('trailing ISBD punctuation is trimmed, initials, abbreviations and open dates kept', (t) => {
  const cases: [string, string][] = [
    ['Le concerto /', 'Le concerto'],
    ['La canzone italiana del Novecento :', 'La canzone italiana del Novecento'],
    ['Tu shuo Zhongguo jie =', 'Tu shuo Zhongguo jie'],
    ['Quest\'Italia ;', 'Quest\'Italia'],
    ['Baldazzi, Gianfranco.', 'Baldazzi, Gianfranco'],
    ['Toop, Sarah,', 'Toop, Sarah'],
    ['Gilels, Emil, 1916-1985.', 'Gilels, Emil, 1916-1985'],
    ['Maley, Desmond, 1954-', 'Maley, Desmond, 1954-'],
    ['Tolkien, J. R. R.', 'Tolkien, J. R. R.'],
    ['King, B.B.', 'King, B.B.'],
    ['Smith, John, Mrs.', 'Smith, John, Mrs.'],
    ['Songs, etc.', 'Songs, etc.'],
    ['And then...', 'And then...'],
    ['Sony Pictures Home Entertainment (Firm),', 'Sony Pictures Home Entertainment (Firm)'],
    ['DaWaK 2002 Aix-en-Provence, France)', 'DaWaK 2002 Aix-en-Provence, France'],
    ['[Sound recording] :', '[Sound recording]'],
    ['Title. /', 'Title'],
    ['Smith, John. -', 'Smith, John'],
    ['1989', '1989'],
    [' / ', ''],
    // Letters past ASCII before the period, and Unicode spaces before a separator.
    ['Dvořák, Antonín.', 'Dvořák, Antonín'],
    ['Šmíd, Ž.', 'Šmíd, Ž.'],
    ['Title. -.', 'Title'],
    ['Paris\u00a0:', 'Paris'],
    ['東京\u3000:', '東京'],
  ];
  for (const [value, expected] of cases) t.is(trimTrailingIsbdPunctuation(value), expected, value);
});

// ---------------------------------------------------------------------------------------------------------
// what tells versions apart: language, edition, publisher, place, physical description

const portugueseTranslationWithDetails: MarcRecord = {
  leader: '00000cam a2200000 a 4500',
  fields: [
    id('pp-lisboa-2011'),
    { tag: '008', value: '110302s2011    po            000 1 por d' },
    df('041', '1 ', '$apor$heng'),
    df('041', '1 ', '$dspa$a   '),
    df('245', '10', '$aOrgulho e preconceito /$cJane Austen.'),
    df('250', '  ', '$a2.a ed. revista.'),
    df('264', ' 1', '$aLisboa :$bRelógio d\'Água,$c2011.'),
    df('260', '  ', '$aRio de Janeiro :$bZahar,$c2012.'),
    df('300', '  ', '$a423 p. ;$c21 cm.'),
    df('530', '  ', '$aAlso available online.'),
  ],
};

test('language: 008/35-37 then 041$a and $d, each once, in English words as VuFind\'s language_map', (t) => {
  t.deepEqual(map(portugueseTranslationWithDetails).language, ['Portuguese', 'Spanish']);
});

test('language: an undetermined 008 (und), fill characters and no 041 give no language field', (t) => {
  const undetermined = record(id('und'), { tag: '008', value: '110302s2011    po            000 1 und d' }, df('245', '10', '$aX.'));
  const filled = record(id('fill'), { tag: '008', value: '110302s2011    po            000 1 ||| d' }, df('245', '10', '$aX.'));
  t.false('language' in map(undetermined));
  t.false('language' in map(filled));
});

test('edition 250a, publisher 260b:264b, place 260a:264a, physical 300abcefg:530abcd, ISBD punctuation trimmed', (t) => {
  const document = map(portugueseTranslationWithDetails);
  t.is(document.edition, '2.a ed. revista');
  t.deepEqual(document.publisher, ['Zahar', 'Relógio d\'Água']);
  t.deepEqual(document.publishPlace, ['Rio de Janeiro', 'Lisboa']);
  t.deepEqual(document.physical, ['423 p. ; 21 cm', 'Also available online']);
});
