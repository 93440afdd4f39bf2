import test from 'ava';
import {
  firstWorkOf, subtitleNamesAPart, subtitleSaysAnotherWork, titleBeforeSeparator, withAmpersandRead, withoutAlternativeTitle,
  withoutAuthorName, withoutDescriptiveOpening, withoutEditionStatement, withoutLeadingArticle,
} from '../../../src/work-keys/extended/titleForms.js';

const separators: [string, string, boolean, string | undefined][] = [
  ['other title information', 'Pride and prejudice : a novel', false, 'Pride and prejudice'],
  ['a parallel title', 'Kammerkonzert (1969-1970) = Chamber concerto', false, 'Kammerkonzert (1969-1970)'],
  ['a statement of responsibility', 'Friendly fire / Joe Lovano and Greg Osby', false, 'Friendly fire'],
  ['never at " ; " (two works in one volume)', 'Hamlet ; Macbeth', false, undefined],
  ['never at ". " (a part)', 'The lord of the rings. The two towers', false, undefined],
  ['a colon inside an ISBD title proper stays', 'Mission: impossible', false, undefined],
  ['a colon in text not written to ISBD separates', 'O ensino de ciências: práticas e desafios', true, 'O ensino de ciências'],
];
for (const [name, text, loose, expected] of separators) {
  test(`titleBeforeSeparator: ${name}`, (t) => t.is(titleBeforeSeparator(text, loose), expected));
}

const articles: [string, string, string | undefined, string | undefined][] = [
  ['English', 'The hobbit', 'eng', 'hobbit'],
  ['French plural', 'Les fables', 'fre', 'fables'],
  ['French elided', "L'étranger", 'fre', 'étranger'],
  ['German', 'Der Prozess', 'ger', 'Prozess'],
  ['Spanish', 'El amor en los tiempos del cólera', 'spa', 'amor en los tiempos del cólera'],
  ['Portuguese', 'O alienista', 'por', 'alienista'],
  ['Italian', 'I promessi sposi', 'ita', 'promessi sposi'],
  ['Dutch', 'De avonden', 'dut', 'avonden'],
  ['Swedish', 'Det sjunde inseglet', 'swe', 'sjunde inseglet'],
  ['an unknown language takes English articles', 'A Christmas carol', undefined, 'Christmas carol'],
  ['a known language without a row takes none', 'A Pál utcai fiúk', 'hun', undefined],
  ['only a whole word', 'Theory of everything', 'eng', undefined],
  ['never the whole title', 'A', 'eng', undefined],
  ["another language's article stays", 'Die hard', 'eng', undefined],
];
for (const [name, text, language, expected] of articles) {
  test(`withoutLeadingArticle: ${name}`, (t) => t.is(withoutLeadingArticle(text, language), expected));
}

const ampersands: [string, string, string | undefined, string | undefined][] = [
  ['English', 'Blues & roots', 'eng', 'Blues and roots'],
  ['French', 'Bouvard & Pécuchet', 'fre', 'Bouvard et Pécuchet'],
  ['German', 'Kabale & Liebe', 'ger', 'Kabale und Liebe'],
  ['Spanish', 'Crimen & castigo', 'spa', 'Crimen y castigo'],
  ['Swedish', 'Ronja & Birk', 'swe', 'Ronja och Birk'],
  ['Finnish', 'Rikos & rangaistus', 'fin', 'Rikos ja rangaistus'],
  ['Catalan', 'Mirall & trencat', 'cat', 'Mirall i trencat'],
  ['Norwegian', 'Fortellinger & eventyr', 'nor', 'Fortellinger og eventyr'],
  ['an unknown language is not read', 'Blues & roots', undefined, undefined],
  ['no "&"', 'Blues and roots', 'eng', undefined],
];
for (const [name, text, language, expected] of ampersands) {
  test(`withAmpersandRead: ${name}`, (t) => t.is(withAmpersandRead(text, language), expected));
}

const authorNames: [string, string, string, string | undefined][] = [
  ['"de" and a two-word surname', 'Fables de La Fontaine', 'La Fontaine', 'Fables'],
  ['forenames between', 'Fables choisies de Jean de La Fontaine', 'La Fontaine', 'Fables choisies'],
  ['"d\'"', "Contes d'Andersen", 'Andersen', 'Contes'],
  ['"by"', 'Poems by John Keats', 'Keats', 'Poems'],
  ['"der" and a word of the name', 'Kinder- und Hausmärchen der Brüder Grimm', 'Grimm', 'Kinder- und Hausmärchen'],
  ['"par" and a forename', 'Contes par Charles Perrault', 'Perrault', 'Contes'],
  ['"von"', 'Gedichte von Goethe', 'Goethe', 'Gedichte'],
  ['accents compared normalised', 'Théâtre de Moliere', 'Molière', 'Théâtre'],
  ['"of"', 'The Iliad of Homer', 'Homer', 'The Iliad'],
  ['a possessive', "Shakespeare's sonnets", 'Shakespeare', 'sonnets'],
  ['a plural possessive', "Grimms' fairy tales", 'Grimm', 'fairy tales'],
  ['another name stays', 'Le comte de Monte-Cristo', 'Dumas', undefined],
  ['title words between stay', 'Poèmes de la nuit de Hugo', 'Hugo', 'Poèmes de la nuit'],
  ['the name not at the end stays', 'Les aventures de Tintin au Tibet', 'Tintin', undefined],
  ['nothing would be left', 'De La Fontaine', 'La Fontaine', undefined],
];
for (const [name, text, surname, expected] of authorNames) {
  test(`withoutAuthorName: ${name}`, (t) => t.is(withoutAuthorName(text, surname), expected));
}

const parts: [string, boolean][] = [
  [': vol. 2', true], ['second series', true], ['part one', true], ['1958', true], ['book 3', true], ['tome II', true],
  ['a novel', false], ['an authoritative text, backgrounds and sources, criticism', false], ['jazz preludes', false],
  ['the second trio', false], ['civil war stories', false], ['II', true],
];
for (const [subtitle, expected] of parts) {
  test(`subtitleNamesAPart: "${subtitle}"`, (t) => t.is(subtitleNamesAPart(subtitle), expected));
}

const alternatives: [string, string | undefined, string | undefined][] = [
  ['The hobbit, or, There and back again', 'eng', 'The hobbit'],
  ['Frankenstein, or, The modern Prometheus', undefined, 'Frankenstein'],
  ['Candide, ou, L\'optimisme', 'fre', 'Candide'],
  ['Now or never', 'eng', undefined],
  ['Emil, oder, Über die Erziehung', 'eng', undefined],
];
for (const [text, language, expected] of alternatives) {
  test(`withoutAlternativeTitle: "${text}" (${language ?? 'language not known'})`, (t) => t.is(withoutAlternativeTitle(text, language), expected));
}

const openings: [string, string | undefined, string | undefined][] = [
  ['The tragedy of Hamlet, Prince of Denmark', 'eng', 'Hamlet'],
  ['The history of Tom Jones, a foundling', 'eng', 'Tom Jones'],
  ['The life and opinions of Tristram Shandy, gentleman', undefined, 'Tristram Shandy'],
  ['The comedy of errors', 'eng', undefined],
  ['Hamlet', 'eng', undefined],
  ['The history of Tom Jones', 'fre', undefined],
];
for (const [text, language, expected] of openings) {
  test(`withoutDescriptiveOpening: "${text}"`, (t) => t.is(withoutDescriptiveOpening(text, language), expected));
}

const anotherWork: [string, boolean][] = [
  ['the graphic novel', true], ['a study guide', true], ['adapted for young readers', true], ['a sequel', true],
  ['a novel', false], ['an authoritative text, backgrounds and sources, criticism', false],
  ['text, criticism, and notes', false],
];
for (const [subtitle, expected] of anotherWork) {
  test(`subtitleSaysAnotherWork: "${subtitle}"`, (t) => t.is(subtitleSaysAnotherWork(subtitle), expected));
}

// Titles of public libraries' classics, as title pages and converted records write them.
const editionStatements: [string, string | undefined][] = [
  ['Le rouge et le noir (texte intégral)', 'Le rouge et le noir'],
  ['Germinal. Version intégrale', 'Germinal'],
  ['Les misérables, édition abrégée', 'Les misérables'],
  ['Moby Dick : complete and unabridged', 'Moby Dick'],
  ['Don Quijote de la Mancha. Versión íntegra', 'Don Quijote de la Mancha'],
  ['Die Verwandlung. Ungekürzte Ausgabe', 'Die Verwandlung'],
  ['Texte intégral', undefined],
  ['Le texte intégral de la loi', undefined],
  ['Calcul intégral', undefined],
];
for (const [text, expected] of editionStatements) {
  test(`withoutEditionStatement: "${text}"`, (t) => t.is(withoutEditionStatement(text), expected));
}

const firstWorks: [string, string | undefined][] = [
  ["La belle et la bête ; Riquet à la houppe ; La belle aux cheveux d'or", 'La belle et la bête'],
  ['Hamlet ; Macbeth', 'Hamlet'],
  ["La Vénus d'Ille et autres nouvelles", "La Vénus d'Ille"],
  ['The legend of Sleepy Hollow and other stories', 'The legend of Sleepy Hollow'],
  ['Candide, suivi de Micromégas', 'Candide'],
  ['El Aleph y otros cuentos', 'El Aleph'],
  ['Pride and prejudice', undefined],
  ['Bouvard et Pécuchet', undefined],
  ['The other Boleyn girl', undefined],
];
for (const [text, expected] of firstWorks) {
  test(`firstWorkOf: "${text}"`, (t) => t.is(firstWorkOf(text), expected));
}
