/**
 * The shortcuts the `extended` profile takes to make its keys cheaply give the keys of the rules read
 * plainly: a title ruled out for its author's name without reading its words (titleForms.ts), an empty
 * subtitle not searched, a title without a comma not searched for an alternative title, a name's other
 * forms read off its key (workNames.ts), and records whose names and titles are normalised once
 * (extendedWorkKeys.ts); a part of a text keyed off the text's key (keyOfLatinBlocksPart, workKeys.ts:
 * a surname, a title without its article, a title's first element).
 */
import test from 'ava';
import { extendedWorkKeys } from '../../../src/work-keys/extended/extendedWorkKeys.js';
import { subtitleKeepsTitle } from '../../../src/work-keys/extended/statementTitleForms.js';
import { isGenericTitleKeyed, saysSelections, subtitleSaysCollection } from '../../../src/work-keys/extended/genericTitles.js';
import {
  subtitleNamesAPart, subtitleSaysAnotherWork, withoutAlternativeTitle, withoutAuthorName, withoutAuthorNameByWords,
} from '../../../src/work-keys/extended/titleForms.js';
import { cleanedName, surnameKeyOfCleaned, surnameOfCleaned, writtenNameKeys, writtenNameKeysByParts } from '../../../src/work-keys/extended/workNames.js';
import type { WorkStatement } from '../../../src/work-keys/extended/workStatement.js';
import { EMPTY_WORK_STATEMENT } from '../../../src/work-keys/extended/workStatement.js';
import { WORK_KEY_PROFILES } from '../../../src/work-keys/workKeyProfiles.js';
import { isLatinBlocksText, keyOfLatinBlocksPart, normaliseForWorkKey } from '../../../src/work-keys/workKeys.js';

// The shortcut's premise: a Latin-script title's key is its words' keys end to end, since every
// character between words (not a letter, mark or number) has an empty key.
test('every character of the Latin blocks that is not a letter, mark or number has an empty key', (t) => {
  const keyed: string[] = [];
  for (let code = 0; code < 0x250; code++) {
    const character = String.fromCharCode(code);
    if (!/[\p{L}\p{M}\p{N}]/u.test(character) && normaliseForWorkKey(character) !== '') keyed.push(`U+${code.toString(16)}`);
  }
  t.deepEqual(keyed, []);
  t.true(isLatinBlocksText('Poèmes de la nuit de Hugo'));
  t.false(isLatinBlocksText('Война и мир'));
});

const LONG_TITLE = `${'Relatório anual de atividades da biblioteca central, '.repeat(6)}de Almeida`;

/** Titles and surnames the author-name rule meets: [case, title, surname]. */
const authorNameTitles: [string, string, string][] = [
  ['the surname after "de"', 'Fables de La Fontaine', 'La Fontaine'],
  ['forenames and particles between', 'Fables choisies de Jean de La Fontaine', 'La Fontaine'],
  ['"by" and a forename', 'Poems by John Keats', 'Keats'],
  ['"of" after an article', 'The Iliad of Homer', 'Homer'],
  ['title words between stay', 'Poèmes de la nuit de Hugo', 'Hugo'],
  ['diacritics in the surname', 'Le malade imaginaire de Molière', 'Molière'],
  ['diacritics written without them', 'Le misanthrope de Moliere', 'Molière'],
  ['a possessive', "Shakespeare's sonnets", 'Shakespeare'],
  ['a plural possessive with a typographic apostrophe', 'Grimms’ fairy tales', 'Grimm'],
  ['an elided connector', "Contes d'Andersen", 'Andersen'],
  ['the surname ends the title without a connector', 'Bill Evans', 'Evans'],
  ['the surname only inside a word', 'Dom Casmurro', 'Casmurro'],
  ['a title that does not end with the surname', 'O ensino de ciências: práticas e desafios', 'Pereira'],
  ['a surname that ends a longer word', 'Estudos sobre Vasconcelos', 'Celos'],
  ['punctuation after the surname', 'Cartas de Vieira.', 'Vieira'],
  ['Cyrillic', 'Рассказы Толстого', 'Толстой'],
  ['Cyrillic after a connector-like word', 'Война и мир Толстой', 'Толстой'],
  ['Greek', 'Ἰλιὰς Ὁμήρου', 'Ὅμηρος'],
  ['a Japanese title with the name', '源氏物語 紫式部', '紫式部'],
  ['a key longer than the cap', LONG_TITLE, 'Almeida'],
  ['nothing left before the connector', 'de La Fontaine', 'La Fontaine'],
];
for (const [name, title, surname] of authorNameTitles) {
  test(`withoutAuthorName's shortcut gives what reading the words gives: ${name}`, (t) => {
    t.is(withoutAuthorName(title, surname), withoutAuthorNameByWords(title, normaliseForWorkKey(surname)));
  });
}

test('withoutAuthorName still drops the names it dropped', (t) => {
  t.is(withoutAuthorName('Fables de La Fontaine', 'La Fontaine'), 'Fables');
  t.is(withoutAuthorName('Poèmes de la nuit de Hugo', 'Hugo'), 'Poèmes de la nuit');
  t.is(withoutAuthorName("Shakespeare's sonnets", 'Shakespeare'), 'sonnets');
  t.is(withoutAuthorName('Le misanthrope de Moliere', 'Molière'), 'Le misanthrope');
  t.is(withoutAuthorName('O ensino de ciências: práticas e desafios', 'Pereira'), undefined);
});

test('an empty subtitle names no part, no collection and no other work, so it is not searched', (t) => {
  t.false(subtitleNamesAPart(''));
  t.false(subtitleSaysCollection(''));
  t.false(subtitleSaysAnotherWork(''));
  t.false(subtitleKeepsTitle(''));
  t.true(subtitleKeepsTitle(' : vol. 2'));
  t.true(subtitleKeepsTitle('the complete novels and stories'));
  t.true(subtitleKeepsTitle('the graphic novel'));
  t.false(subtitleKeepsTitle('an authoritative text'));
});

test('an alternative title needs a comma or a semicolon before its "or"', (t) => {
  t.is(withoutAlternativeTitle('The hobbit, or, There and back again', undefined), 'The hobbit');
  t.is(withoutAlternativeTitle('Emílio; ou, Da educação', 'por'), 'Emílio');
  t.is(withoutAlternativeTitle('Now or never', 'eng'), undefined);
  t.is(withoutAlternativeTitle('Candide ou l’optimisme', 'fre'), undefined);
});

const person = (name: string) => ({ name, kind: 'person' as const, surnameFirst: true });
const titleStatement = (text: string, more: Partial<{ titleProper: string; subtitle: string; nonFiling: number }> = {}) => ({ text, nonFiling: 0, role: 'title-statement' as const, ...more });

/** Records whose keys go through every shortcut, with the keys the rules give them, written out. */
const records: [string, WorkStatement, string[]][] = [
  ['a title without a subtitle keyed once as catalogued and as its title proper',
    { ...EMPTY_WORK_STATEMENT, mainNames: [person('Assis, Machado de, 1839-1908.')], titles: [titleStatement('Dom Casmurro')], language: 'por' },
    ['AT assismachadode domcasmurro']],
  ['an author-name title with diacritics',
    { ...EMPTY_WORK_STATEMENT, mainNames: [person('La Fontaine, Jean de, 1621-1695.')], titles: [titleStatement('Fables choisies de Jean de La Fontaine', { nonFiling: 0 })], language: 'fre' },
    ['AT lafontainejeande fableschoisiesdejeandelafontaine', 'AT lafontainejeande fableschoisies']],
  ['a possessive title',
    { ...EMPTY_WORK_STATEMENT, mainNames: [person('Shakespeare, William, 1564-1616.')], titles: [titleStatement("Shakespeare's sonnets")], language: 'eng' },
    ['AT shakespearewilliam shakespearessonnets', 'AT shakespearewilliam sonnets']],
  ['a generic short form and a selection as uniform title',
    { ...EMPTY_WORK_STATEMENT, mainNames: [person('Keats, John, 1795-1821.')], titles: [titleStatement('Poems : second series', { titleProper: 'Poems', subtitle: 'second series' })], uniformTitles: [{ text: 'Poems. Selections', nonFiling: 0, role: 'own', formAndVersion: [] }], language: 'eng' },
    ['AT keatsjohn poemssecondseries']],
  ['a title proper that is only the author\'s name',
    { ...EMPTY_WORK_STATEMENT, mainNames: [person('Evans, Bill.')], titles: [titleStatement('Bill Evans : the second trio', { titleProper: 'Bill Evans', subtitle: 'the second trio' })], language: 'eng' },
    ['AT evansbill billevansthesecondtrio']],
  ['Cyrillic title and name, uniform title with non-filing characters',
    { ...EMPTY_WORK_STATEMENT, mainNames: [person('Толстой, Лев, 1828-1910.')], titles: [titleStatement('Война и мир : роман')], uniformTitles: [{ text: 'The War and peace', nonFiling: 4, role: 'own', formAndVersion: [], language: 'eng' }] },
    ['AT tolstojlev vojnaimirroman', 'AT tolstojlev vojnaimir', 'AT tolstojlev thewarandpeace', 'AT tolstojlev warandpeace', 'TR tolstojlev thewarandpeace', 'TR tolstojlev warandpeace']],
  ['no main entry: added entries with the full title only, a uniform title alone',
    { ...EMPTY_WORK_STATEMENT, addedNames: [person('Jackson, Peter, 1961-')], titles: [titleStatement('The hobbit : an unexpected journey', { titleProper: 'The hobbit', subtitle: 'an unexpected journey' })], uniformTitles: [{ text: 'Hobbit, an unexpected journey (Motion picture)', nonFiling: 0, role: 'own', formAndVersion: [] }] },
    ['UT hobbitanunexpectedjourneymotionpicture', 'AT jacksonpeter thehobbitanunexpectedjourney']],
];
for (const [name, statement, expected] of records) {
  test(`extendedWorkKeys: ${name}`, (t) => t.deepEqual(extendedWorkKeys(statement), expected));
}

test('a record document keys as before under extended: title proper from title_short, author-name title, DOI', (t) => {
  const document = {
    id: 'ufsc-1', title: 'Memórias póstumas de Brás Cubas: edição crítica', title_short: 'Memórias póstumas de Brás Cubas',
    author: 'Cubas, Brás', language: 'Portuguese', url: 'https://doi.org/10.1590/ABC.2020.1',
  };
  t.deepEqual(WORK_KEY_PROFILES.extended.keysOfDocument(document), [
    'AT cubasbras memoriaspostumasdebrascubasedicaocritica', 'AT cubasbras memoriaspostumasdebrascubas', 'AT cubasbras memoriaspostumas', 'DOI 10.1590/abc.2020.1',
  ]);
});

/** Names as catalogued, cleaned: [case, name]. */
const writtenNames: [string, string][] = [
  ['surname, forename', 'Evans, Bill'],
  ['a particle after the forenames', 'La Fontaine, Jean de'],
  ['diacritics', 'Müller-Lüdenscheidt, Jürgen'],
  ['a letter that keys as two', 'Ĳssel, Jan'],
  ['ß', 'Straße, Hans'],
  ['a space before the comma', 'Gómez , Ana Clara'],
  ['no space after the comma', 'Pereira,Ana'],
  ['an apostrophe', "O'Brien, Flann"],
  ['a comma first', ', Ana'],
  ['two commas', 'King, Martin Luther, Jr'],
  ['no comma', 'Sum 41'],
  ['Cyrillic', 'Толстой, Лев'],
  ['Japanese', '村上, 春樹'],
  ['a key longer than the cap', `${'Almeida'.repeat(30)}, ${'Ana'.repeat(20)}`],
];
for (const [name, cleaned] of writtenNames) {
  test(`writtenNameKeys read off the name's key equal the forms' own keys: ${name}`, (t) => {
    t.deepEqual(writtenNameKeys(cleaned, normaliseForWorkKey(cleaned)), writtenNameKeysByParts(cleaned));
  });
}

/**
 * Names near cleanedName's shortcut (a name that ends in a letter no relator term ends with, holding no
 * digit and no parenthesis, is kept as written): [case, name, kind, cleaned].
 */
const namesNearTheShortcut: [string, string, 'person' | 'body', string][] = [
  ['kept as written', 'Miller, Martín Maria', 'person', 'Miller, Martín Maria'],
  ['a date range ending in "ca"', 'Rossi, Maria, 1500-ca', 'person', 'Rossi, Maria'],
  ['a body keeps its date', 'Rossi, Maria, 1500-ca', 'body', 'Rossi, Maria, 1500-ca'],
  ['a century', 'Homer, 8th cent', 'person', 'Homer'],
  ['a relator term in capitals', 'Smith, John, ED', 'body', 'Smith, John'],
  ['a relator term without its period', 'Santos, Ana trad', 'person', 'Santos, Ana'],
  ['a qualifier before a last word', 'Nimmons, Phil (Philip Rista) Jr', 'person', 'Nimmons, Phil  Jr'],
  ['a space before the name', ' Evans, Bill', 'person', 'Evans, Bill'],
  ['a number at the end of a personal name', 'Sum 41', 'person', 'Sum'],
];
for (const [name, text, kind, cleaned] of namesNearTheShortcut) {
  test(`cleanedName near its shortcut: ${name}`, (t) => t.is(cleanedName({ name: text, kind }), cleaned));
}

// saysSelections rules most texts out by their lower case before running its pattern (genericTitles.ts).
test('saysSelections: a selection in capitals, with a long s, in other languages; "selected" is none', (t) => {
  for (const text of ['Piano music. SELECTIONS', 'ſelections', 'Morceaux CHOISIS', 'Poems. Udvalg', 'Obras (Selección)', 'Gedichte. Auswahl']) {
    t.true(saysSelections(text), text);
  }
  for (const text of ['Selected works', 'The hobbit', 'Preselections', 'Choir music']) t.false(saysSelections(text), text);
});

test('writtenNameKeys: the surname and the name written forename first', (t) => {
  t.deepEqual(writtenNameKeys('Evans, Bill', 'evansbill'), ['evans', 'billevans']);
  t.deepEqual(writtenNameKeys('Ĳssel, Jan', normaliseForWorkKey('Ĳssel, Jan')), ['ijssel', 'janijssel']);
});

/** Texts whose parts are keyed off the whole text's key: [case, text, start, end]. */
const textParts: [string, string, number, number | undefined][] = [
  ['an English article', 'The hobbit', 4, undefined],
  ['a Portuguese article with accents after it', 'Os sertões: campanha de Canudos', 3, undefined],
  ['an elided article', "L'étranger", 2, undefined],
  ['a title proper before its subtitle', 'Una literatura para niñez ambiental: agua sobre la arquitectura', 0, 35],
  ['a title without its alternative title', 'Emílio; ou, Da educação', 0, 6],
  ['a surname before the comma', 'Straße, Jürgen', 0, 6],
  ['letters that key as two (ß, Æ, ĳ)', 'Æsop ĳssel Straße', 5, 11],
  ['a part in the middle, spaces around it', '  Émile ou de l’éducation ', 2, 8],
  ['Cyrillic: read by normalising', 'Толстой, Лев', 0, 7],
  ['a capped key: read by normalising', LONG_TITLE, 10, undefined],
];
for (const [name, text, start, end] of textParts) {
  test(`keyOfLatinBlocksPart gives the part's own key or nothing: ${name}`, (t) => {
    const part = keyOfLatinBlocksPart(text, normaliseForWorkKey(text), start, end);
    if (isLatinBlocksText(text) && normaliseForWorkKey(text).length < 255) t.is(part, normaliseForWorkKey(text.slice(start, end)));
    else t.is(part, undefined);
  });
}

/** Names whose surname's key is read off the name's key: [case, name, kind]. */
const surnameNames: [string, string, 'person' | 'unknown' | 'body'][] = [
  ['an inverted name', 'Evans, Bill, 1929-1980.', 'person'],
  ['a two-word surname with accents', 'La Fontaine, Jean de, 1621-1695.', 'person'],
  ['spaces before the comma', 'Mendes  , Ana', 'unknown'],
  ['a one-word name', 'Molière', 'person'],
  ['a Cyrillic name', 'Толстой, Лев, 1828-1910.', 'person'],
  ['a Greek one-word name', 'Ὅμηρος', 'person'],
  ['a body: no surname', 'Universidade de São Paulo', 'body'],
  ['a forename-first name: no surname', 'Jean de La Fontaine', 'person'],
];
for (const [name, text, kind] of surnameNames) {
  test(`surnameKeyOfCleaned gives the surname's key: ${name}`, (t) => {
    const stated = { name: text, kind, surnameFirst: true };
    const cleaned = cleanedName(stated);
    const surname = surnameOfCleaned(stated, cleaned);
    t.is(surnameKeyOfCleaned(stated, cleaned, normaliseForWorkKey(cleaned)), surname === undefined ? '' : normaliseForWorkKey(surname));
  });
}

test('a generic title of several elements is told from its key as from its words', (t) => {
  for (const text of ['  Poems. Selections', 'Concertos, piano', 'Sinfonías, no. 5', 'Poèmes, choix', 'Стихи, избранное', 'Hamlet, Prince of Denmark']) {
    t.is(isGenericTitleKeyed(text, normaliseForWorkKey(text)), isGenericTitleKeyed(text.trim(), normaliseForWorkKey(text.trim())), text);
  }
  t.true(isGenericTitleKeyed('  Poems. Selections', normaliseForWorkKey('  Poems. Selections')));
  t.true(isGenericTitleKeyed('Concertos, piano', normaliseForWorkKey('Concertos, piano')));
  t.false(isGenericTitleKeyed('Hamlet, Prince of Denmark', normaliseForWorkKey('Hamlet, Prince of Denmark')));
});
