import test from 'ava';
import { cleanedName, keyedNames, surnameOf } from '../../../src/work-keys/extended/workNames.js';
import { EMPTY_WORK_STATEMENT, type StatedName } from '../../../src/work-keys/extended/workStatement.js';

const person = (name: string, surnameFirst?: boolean): StatedName => ({ name, kind: 'person', ...(surnameFirst !== undefined ? { surnameFirst } : {}) });
const body = (name: string): StatedName => ({ name, kind: 'body' });

const cleaning: [string, StatedName, string][] = [
  ['closed dates', person('Austen, Jane, 1775-1817'), 'Austen, Jane'],
  ['open dates', person('Lovano, Joe, 1952-'), 'Lovano, Joe'],
  ['dates with a final period', person('Montgomery, Wes, 1923-1968.'), 'Montgomery, Wes'],
  ['dates written "b."', person('Smith, Zadie, b. 1975'), 'Smith, Zadie'],
  ['an approximate range', person('Chaucer, Geoffrey, ca. 1343-1400'), 'Chaucer, Geoffrey'],
  ['a century', person('Homer, 8th cent.'), 'Homer'],
  ['a parenthesised fuller form', person('Nimmons, Phil (Philip Rista), 1923-'), 'Nimmons, Phil'],
  ['a parenthesised qualifier of a body', body('Return to Forever (Musical group)'), 'Return to Forever'],
  ['relator "ed."', person('Gates, Henry Louis, ed.'), 'Gates, Henry Louis'],
  ['relator "tr."', person('Pevear, Richard, tr.'), 'Pevear, Richard'],
  ['relator "ill."', person('Zelinsky, Paul O., ill.'), 'Zelinsky, Paul O'],
  ['relator "trad." after dates', person('Borges, Jorge Luis, 1899-1986, trad.'), 'Borges, Jorge Luis'],
  ['a Japanese author statement', person('夏目漱石:著'), '夏目漱石'],
  ['initials keep their letters', person('Tolkien, J. R. R.,'), 'Tolkien, J. R. R'],
  ['a body keeps its number', body('Sum 41'), 'Sum 41'],
  ['a regnal number stays', person('John Paul II, Pope, 1920-2005'), 'John Paul II, Pope'],
];
for (const [name, input, expected] of cleaning) {
  test(`cleanedName: ${name}`, (t) => t.is(cleanedName(input), expected));
}

const surnames: [string, StatedName, string | undefined][] = [
  ['an inverted name', person('La Fontaine, Jean de, 1621-1695', true), 'La Fontaine'],
  ['a forename-only name', person('Molière, 1622-1673', false), 'Molière'],
  ['a name written forename first', person('Jean de La Fontaine', false), undefined],
  ['a body has none', body('Pat Metheny Group'), undefined],
];
for (const [name, input, expected] of surnames) {
  test(`surnameOf: ${name}`, (t) => t.is(surnameOf(input), expected));
}

test('keyedNames: added entries only when there is no main entry', (t) => {
  const illustrator = person('Zelinsky, Paul O.');
  const author = person('Jones, Diana Wynne.');
  t.deepEqual(keyedNames({ ...EMPTY_WORK_STATEMENT, mainNames: [author], addedNames: [illustrator] }), [author]);
  t.deepEqual(keyedNames({ ...EMPTY_WORK_STATEMENT, addedNames: [illustrator] }), [illustrator]);
});
