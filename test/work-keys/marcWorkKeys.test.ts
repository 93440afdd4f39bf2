import test from 'ava';
import { bookRecord, dataField as df } from '../support/marcFields.js';
import type { MarcDataField, MarcField, MarcRecord } from '../../src/marc/marcRecord.js';
import { fieldSpecValues, nonFilingCharacterCount, trimAsJavaDoes } from '../../src/marc/marcFieldSpec.js';
import { marcWorkKeys } from '../../src/work-keys/marcWorkKeys.js';

// Expected keys follow VuFind 7.1.1's getWorkKeys with stock marc.properties arguments:
// uniform titles 130anp:730anp; titles 240anpmr:245abn:246abn:247abn, then 240anpmr:245abn without
// non-filing characters; authors 100ab:110ab:111ac:700ab:710ab:711ac.


const record = (...fields: MarcField[]): MarcRecord => bookRecord({ tag: '001', value: 'test' }, ...fields);

const theHobbitWithNonFilingFour = record(
  df('100', '1 ', '$aTolkien, J. R. R.$q(John Ronald Reuel),$d1892-1973,$eauthor.'),
  df('245', '14', '$aThe hobbit /$cJ.R.R. Tolkien.'),
);

test('245 ind2=4: the title as catalogued, then without "The "', (t) => {
  t.deepEqual(marcWorkKeys(theHobbitWithNonFilingFour), ['AT tolkienjrr thehobbit', 'AT tolkienjrr hobbit']);
});

const theHobbitWithNonFilingZero = record(
  df('100', '1 ', '$aTolkien, J. R. R.'),
  df('245', '10', '$aThe hobbit /'),
);

test('245 ind2=0: nothing is cut, and the same key is not written twice', (t) => {
  t.deepEqual(marcWorkKeys(theHobbitWithNonFilingZero), ['AT tolkienjrr thehobbit']);
});

const uniformTitlesWithNonFilingIndicators = record(
  df('130', '4 ', '$aThe Bible.$pOld Testament.$lEnglish.'),
  df('730', '2 ', '$aA Midsummer night\'s dream.$nAct 1.'),
  df('245', '10', '$aScriptures /'),
);

test('130/730: uniform titles are keyed with their non-filing characters (VuFind reads them without the removal)', (t) => {
  t.deepEqual(marcWorkKeys(uniformTitlesWithNonFilingIndicators), [
    'UT thebibleoldtestament',
    'UT amidsummernightsdreamact1',
  ]);
});

test('the non-filing count comes from ind1 for 130/630/730/740 and from ind2 for 222/240/242/243/245/440/830', (t) => {
  const cases: [MarcDataField, number][] = [
    [df('130', '4 ', '$aThe Bible'), 4],
    [df('730', '42', '$aThe Bible'), 4],
    [df('740', '2 ', '$aA title'), 2],
    [df('240', '14', '$aThe title'), 4],
    [df('245', '03', '$aLa canzone'), 3],
    [df('830', ' 4', '$aThe series'), 4],
    [df('246', '14', '$aThe variant'), 0],
    [df('247', '10', '$aEarlier title'), 0],
    [df('245', '1 ', '$aNo count'), 0],
    [df('245', '1x', '$aNot a digit'), 0],
  ];
  for (const [field, expected] of cases) t.is(nonFilingCharacterCount(field), expected, `${field.tag} ${field.ind1}${field.ind2}`);
});

const uniformTitleTwoFortyWithNonFiling = record(
  df('100', '1 ', '$aShakespeare, William,$d1564-1616.'),
  df('240', '14', '$aThe tempest.$lFrench$f1999'),
  df('245', '13', '$aLa tempête /'),
);

test('240 is a title (anpmr, its $l and $f left out) and loses its non-filing characters by ind2', (t) => {
  t.deepEqual(marcWorkKeys(uniformTitleTwoFortyWithNonFiling), [
    'AT shakespearewilliam thetempest',
    'AT shakespearewilliam latempete',
    'AT shakespearewilliam tempest',
    'AT shakespearewilliam tempete',
  ]);
});

const authorsInRecordOrder = record(
  df('245', '10', '$aDuets.'),
  df('700', '1 ', '$aSecond, Sam.'),
  df('100', '1 ', '$aFirst, Fay.'),
  df('710', '2 ', '$aOrchestra of the Age.$bWinds.'),
);

test('fields are read in record order, not in the order the specification names the tags', (t) => {
  t.deepEqual(marcWorkKeys(authorsInRecordOrder), [
    'AT secondsam duets',
    'AT firstfay duets',
    'AT orchestraoftheagewinds duets',
  ]);
});

const subfieldsOutOfUsualOrder = record(
  df('100', '1 ', '$bII,$aJohn Paul'),
  df('245', '10', '$nPart 2.$aSongs :$bselected'),
);

test('subfields are joined in the order they stand in the field', (t) => {
  t.deepEqual(fieldSpecValues(subfieldsOutOfUsualOrder, '245abn'), ['Part 2. Songs : selected']);
  t.deepEqual(marcWorkKeys(subfieldsOutOfUsualOrder), ['AT iijohnpaul part2songsselected']);
});

const titlesFromEveryTitleField = record(
  df('100', '1 ', '$aDa, Qiao.'),
  df('245', '10', '$aTu shuo Zhongguo jie =$bTushuo Zhongguojie /$cDa Qiao bian zhu.'),
  df('246', '30', '$aZhongguo jie.'),
  df('247', '10', '$aOld Zhongguo jie$f1990'),
);

test('246 and 247 are titles too; title keys come before the same titles without non-filing characters', (t) => {
  t.deepEqual(marcWorkKeys(titlesFromEveryTitleField), [
    'AT daqiao tushuozhongguojietushuozhongguojie',
    'AT daqiao zhongguojie',
    'AT daqiao oldzhongguojie',
  ]);
});

const alternateScriptInEightEighty = record(
  df('100', '1 ', '$6880-01$aDa, Qiao.'),
  df('245', '10', '$6880-02$aTu shuo Zhongguo jie /'),
  df('880', '1 ', '$6100-01/$1$a大乔.'),
  df('880', '10', '$6245-02/$1$a图说中国节 /'),
  df('880', '14', '$6240-03/$1$aThe 880 uniform title'),
);

test('880 fields are not read: stock VuFind names no linked (LNK) tags', (t) => {
  t.deepEqual(marcWorkKeys(alternateScriptInEightEighty), ['AT daqiao tushuozhongguojie']);
});

const titlesAndAuthorsCrossed = record(
  df('245', '14', '$aThe hobbit'),
  df('100', '1 ', '$aTolkien, J. R. R.'),
  df('700', '1 ', '$aSerkis, Andy,$enarrator.'),
);

test('every title with every author, title by title; relators play no part', (t) => {
  t.deepEqual(marcWorkKeys(titlesAndAuthorsCrossed), [
    'AT tolkienjrr thehobbit',
    'AT serkisandy thehobbit',
    'AT tolkienjrr hobbit',
    'AT serkisandy hobbit',
  ]);
});

const authorsThatNormaliseToNothing = record(
  df('245', '10', '$aEmpty names.'),
  df('100', '1 ', '$a...'),
  df('700', '1 ', '$a—$b?'),
  df('700', '1 ', '$aReal, Name.'),
);

test('authors that normalise to nothing make no key', (t) => {
  t.deepEqual(marcWorkKeys(authorsThatNormaliseToNothing), ['AT realname emptynames']);
});

const sameAuthorTwice = record(
  df('245', '10', '$aPiano concertos.'),
  df('100', '1 ', '$aGilels, Emil,$d1916-1985.'),
  df('700', '1 ', '$aGilels, Emil,$d1916-1985,$eperformer.'),
  df('700', '1 ', '$aGilels, Emil.'),
);

test('raw values and keys are de-duplicated, first occurrence kept ($d is not part of the author)', (t) => {
  t.deepEqual(marcWorkKeys(sameAuthorTwice), ['AT gilelsemil pianoconcertos']);
});

const uniformTitleWithoutAuthor = record(
  df('130', '0 ', '$aBible.$pNew Testament.$lPortuguese.'),
  df('245', '10', '$aNovo Testamento.'),
);

test('no author field: UT keys only', (t) => {
  t.deepEqual(marcWorkKeys(uniformTitleWithoutAuthor), ['UT biblenewtestament']);
});

const meetingNamesWithPlace = record(
  df('111', '2 ', '$aDaWaK 2002$d(2002 :$cAix-en-Provence, France)'),
  df('245', '10', '$aData warehousing.'),
  df('711', '2 ', '$aSymposium$bnot read$cParis'),
  df('110', '2 ', '$aSpringer.$bOnline$cnot read'),
);

test('meetings give ac, corporate bodies ab', (t) => {
  t.deepEqual(marcWorkKeys(meetingNamesWithPlace), [
    'AT dawak2002aixenprovencefrance datawarehousing',
    'AT symposiumparis datawarehousing',
    'AT springeronline datawarehousing',
  ]);
});

const nonFilingCountLongerThanTitle = record(
  df('100', '1 ', '$aAuthor, An.'),
  df('245', '19', '$aThe'),
);

test('a non-filing count longer than subfield a leaves it empty', (t) => {
  t.deepEqual(fieldSpecValues(nonFilingCountLongerThanTitle, '245abn', true), []);
  t.deepEqual(marcWorkKeys(nonFilingCountLongerThanTitle), ['AT authoran the']);
});

const accentsAndPunctuation = record(
  df('100', '1 ', '$aBaldazzi, Gianfranco.'),
  df('245', '03', '$aLa canzone :$bdal caffè-concerto all\'opera rock /'),
);

test('keys keep letters and digits only, accents dropped', (t) => {
  t.deepEqual(marcWorkKeys(accentsAndPunctuation), [
    'AT baldazzigianfranco lacanzonedalcaffeconcertoalloperarock',
    'AT baldazzigianfranco canzonedalcaffeconcertoalloperarock',
  ]);
});

test('values are trimmed as Java trims: control characters and spaces, not no-break spaces', (t) => {
  t.is(trimAsJavaDoes('\t title \u0000'), 'title');
  t.is(trimAsJavaDoes('\u00a0title\u00a0'), '\u00a0title\u00a0');
  const spaced = record(df('245', '10', '$a  Spaced  $b$bafter empty'));
  t.deepEqual(fieldSpecValues(spaced, '245ab'), ['Spaced  after empty']);
});
