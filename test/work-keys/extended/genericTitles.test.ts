import test from 'ava';
import { isFormTitle, isGenericTitle, saysSelections, subtitleSaysCollection } from '../../../src/work-keys/extended/genericTitles.js';

// Uniform titles found in the jazz and Concerto files, and the collective titles of other languages.
const generic: [string, boolean][] = [
  ['Instrumental music. Selections.', true],
  ['Jazz.', true],
  ['Piano music', true],
  ['Piano music, 4 hands', true],
  ['Big band music', true],
  ['Saxophone music.', true],
  ['Concertos, piano', true],
  ['Concertos, violoncello, orchestra', true],
  ['Préludes, piano.', true],
  ['Works. Selections', true],
  ['Novels', true],
  ['Poems', true],
  ['Letters', true],
  ['Plays', true],
  ['Œuvres', true],
  ['Oeuvres complètes', true],
  ['Werke', true],
  ['Sämtliche Werke', true],
  ['Obras completas', true],
  ['Opere', true],
  ['Songs', true],
  ['Water music', false],
  ['The sound of music', false],
  ['Music for Perla', false],
  ['Concertos, piano, no. 1, op. 23, B flat minor', false],
  ['Symphonies, no. 5, op. 67, C minor', false],
  ['Cien años de soledad', false],
  ['Hamlet', false],
  ['Jazz styles', false],
];
for (const [title, expected] of generic) {
  test(`isGenericTitle: "${title}" ${expected ? 'is' : 'is not'} generic`, (t) => t.is(isGenericTitle(title), expected));
}

const formTitles: [string, boolean][] = [
  ['Concertos, piano, no. 1, op. 23, B flat minor', true],
  ['Concertos, violin, op. 61, D major', true],
  ['Sonatas, piano, no. 23, op. 57, F minor', true],
  ['Concertos, piano', false],
  ['Hamlet', false],
  ['Kammerkonzert, piano, violin, winds.', false],
];
for (const [title, expected] of formTitles) {
  test(`isFormTitle: "${title}"`, (t) => t.is(isFormTitle(title), expected));
}

const selections: [string, boolean][] = [
  ['Selections', true], ['Selections ; arr.', true], ['Auswahl', true], ['Selección', true], ['Choix', true],
  ['Seleções', true], ['Selected essays on jazz', false], ['Selma', false],
];
for (const [text, expected] of selections) {
  test(`saysSelections: "${text}"`, (t) => t.is(saysSelections(text), expected));
}

const collectingSubtitles: [string, boolean][] = [
  ['the complete novels and stories', true], ['selected stories', true], ['an omnibus', true], ['a novel', false],
  ['stories', false], ['text, criticism, and notes', false],
];
for (const [subtitle, expected] of collectingSubtitles) {
  test(`subtitleSaysCollection: "${subtitle}"`, (t) => t.is(subtitleSaysCollection(subtitle), expected));
}
