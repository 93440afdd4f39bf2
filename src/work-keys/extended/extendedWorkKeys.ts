/**
 * The `extended` work-key profile: VuFind's `UT`/`AT` keys made from what a record says about its work
 * (a WorkStatement), with the rules cataloguing practice adds (Aspen Discovery's grouping, OCLC's
 * work-set algorithm, Open Library's editions are the models) and the false links it takes away:
 *
 * - names: main entries only; added entries only when there is no main entry; cleaned (workNames.ts);
 * - titles: VuFind's title forms (245 $a$b$n as catalogued and without non-filing characters, 246, 247),
 *   and, with main entries only, shorter forms of the title statement: without the subtitle, an
 *   alternative title, a descriptive opening, a leading article, the author's name, with "&" read as a
 *   word (titleForms.ts) — never a form that is only the author's name, nor one whose subtitle names a
 *   part, a collection or another work (a selection of the title's work is that work: "Contes : choix"),
 *   nor a generic one but a collective title of one kind of writing ("Contes", "Fables") with its author;
 * - generic titles ("Poems", "Jazz") without a main entry make no key;
 * - uniform titles: the record's own, never a generic one (genericTitles.ts); with the main author as an
 *   `AT` key when the record has one, else alone as a `UT` key (never a bare music form title);
 * - translations: the original's title (765 $t) with its author (765 $a, else the main author);
 * - DOI and handle keys of their own;
 * - an adaptation (245 $c "adapted by") keyed with its added entries, as its adapter's work;
 * - a book with no main entry and no uniform title (an anonymous classic) keyed by its title alone;
 * - a record that names no language is given the one its title's short words tell (titleLanguages.ts).
 *
 * Each rule is a function here or in the files named (a title statement's forms and their keys in
 * statementTitleForms.ts); extendedWorkKeys puts them together. The key kinds and the reasons they give
 * are in ../workKeyKinds.ts; docs/work-keys.md has every rule with examples.
 *
 * Left to others: reading a source into a WorkStatement (the adapters), normalising text
 * (normaliseForWorkKey in workKeys.ts), storing keys and finding versions (the indexes).
 */
import { keyWordsOf, workKeyOf, type WorkKeyPrefix } from '../workKeyKinds.js';
import { normaliseForWorkKey } from '../workKeys.js';
import { DistinctStrings } from '../../distinctStrings.js';
import { isAuthorsCollectiveTitle, isFormTitle, isGenericTitle, isGenericTitleKeyed, saysSelections } from './genericTitles.js';
import { canonicalIdentifier } from './manifestationIdentifiers.js';
import { languageForms, shortTitles, titleProperStarts, vufindTitleForms, type MainNames, type TitleTexts } from './statementTitleForms.js';
import { titleBeforeSeparator, saysAdaptation, withoutNonFilingCharacters } from './titleForms.js';
import { languageOfTitleWords } from './titleLanguages.js';
import { cleanedName, keyedNames } from './workNames.js';
import type { StatedOriginal, StatedUniformTitle, WorkStatement } from './workStatement.js';

/** The non-empty keys, each once, in order (the names' keys a record's `AT` keys pair titles with). */
function distinctKeys(keys: readonly string[]): string[] {
  const distinct = new DistinctStrings();
  for (const key of keys) distinct.add(key);
  return distinct.values;
}

/**
 * The keys of a book catalogued under its title (no main entry, no uniform title) that names one work:
 * the title proper, also without non-filing characters, a leading article and a statement of its text's
 * completeness, each keyed alone, as a uniform title would be. An anonymous classic ("Le roman de
 * Renart", "La farce de Maître Pathelin") names only its adapters and translators in added entries, and so
 * meets its other editions, and those catalogued with the uniform title `130 Roman de Renart`, by its
 * title. None when the title says a part, a collection or another work in its subtitle, is generic, or
 * opens with a collective word ("Contes et légendes de Bretagne", "Anthologie de la poésie française"):
 * anthologies of one name are different books.
 */
export function anonymousWorkTitles(statement: WorkStatement): string[] {
  const keys = new DistinctStrings();
  for (const title of statement.titles) {
    const starts = titleProperStarts(title);
    if (starts === undefined) continue;
    for (const start of starts) {
      for (const form of languageForms(start, statement.language)) {
        const key = normaliseForWorkKey(form);
        if (key !== '' && !isGenericTitleKeyed(form, key) && !opensWithCollectiveWord(form)) keys.add(key);
      }
    }
  }
  return keys.values;
}

/** The title's first word is a collective one ("Contes et légendes", "Anthology of …", "Recueil de …"). */
function opensWithCollectiveWord(title: string): boolean {
  const first = /^[\s"'“‘«¿¡[]*([\p{L}\p{M}]+)/u.exec(title)?.[1];
  if (first === undefined) return false;
  const key = normaliseForWorkKey(first);
  return isAuthorsCollectiveTitle(key) || COLLECTIVE_WORDS.includes(key);
}
const COLLECTIVE_WORDS = [
  'anthologie', 'anthology', 'antología', 'antologia', 'recueil', 'collection', 'choix', 'histoires', 'stories',
  'légendes', 'legends', 'leyendas', 'lendas', 'sagen', 'chansons', 'songs', 'textes', 'texts', 'selected', 'best', 'great',
  'treasury', 'book', 'livre', 'oxford', 'penguin', 'norton', 'classic', 'classics', 'classiques',
].map(normaliseForWorkKey);

/** The title statement's statement of responsibility says the book is an adaptation (saysAdaptation). */
function isAdaptation(statement: WorkStatement): boolean {
  for (const title of statement.titles) if (title.responsibility !== undefined && saysAdaptation(title.responsibility)) return true;
  return false;
}

/** The keys of the titles that are not generic (isGenericTitleKeyed). */
function withoutGenericTitles(titles: TitleTexts): string[] {
  return titles.keys.filter((key, i) => !isGenericTitleKeyed(titles.forms[i] as string, key));
}

/** The record's own uniform title may make a key (its text's key given): not generic, not a selection. */
function isKeyedOwnUniformTitle(uniformTitle: StatedUniformTitle, textKey: string): boolean {
  return !isGenericTitleKeyed(uniformTitle.text, textKey)
    && !saysSelections(uniformTitle.text)
    && !uniformTitle.formAndVersion.some(saysSelections);
}

/** The keys of a uniform title as catalogued (its text's key, given) and without its non-filing characters. */
function uniformTitleKeys(uniformTitle: StatedUniformTitle, textKey: string): string[] {
  const keys = [textKey];
  const withoutNonFiling = withoutNonFilingCharacters(uniformTitle.text, uniformTitle.nonFiling);
  if (withoutNonFiling !== undefined) keys.push(normaliseForWorkKey(withoutNonFiling));
  return keys;
}

/** The forms of a translation's original title: as given, without its subtitle, in its own language's forms. */
function originalTitleForms(original: StatedOriginal): string[] {
  const forms = new DistinctStrings();
  for (const start of [original.title, titleBeforeSeparator(original.title, true)]) {
    if (start !== undefined) for (const form of languageForms(start, original.language)) forms.add(form);
  }
  return forms.values.filter((form) => !isGenericTitle(form));
}

/**
 * The statement with a language told from its title statement's words (languageOfTitleWords) when it
 * names none: a record converted without 008 or 041 still has its articles and "&" read. The statement
 * itself when it names one or none can be told.
 */
export function withTitleLanguage(statement: WorkStatement): WorkStatement {
  if (statement.language !== undefined) return statement;
  const title = statement.titles.find((candidate) => candidate.role === 'title-statement');
  const language = title === undefined ? undefined : languageOfTitleWords(title.text);
  return language === undefined ? statement : { ...statement, language };
}

/** A record's keys under the `extended` profile: `UT`, then `AT`, then the notes (`UA`, `TR`), then `DOI`/`HDL`. */
export function extendedWorkKeys(stated: WorkStatement): string[] {
  const statement = withTitleLanguage(stated);
  const uniformKeys = new DistinctStrings();
  const titleKeys = new DistinctStrings();
  const notedKeys: { key: string; note: Extract<WorkKeyPrefix, 'UA' | 'TR'> }[] = [];
  // Each name is cleaned once: for its key, its surname and the forms a title would write it in.
  const cleanedMainNames = statement.mainNames.map(cleanedName);
  const mainNames: MainNames = { cleaned: cleanedMainNames, keys: cleanedMainNames.map(normaliseForWorkKey) };
  // An adaptation is its adapter's work: keyed with the added entries, as if it had no main entry.
  const names = keyedNames(statement, statement.mainNames.length > 0 && isAdaptation(statement));
  const byMainNames = names === statement.mainNames && names.length > 0;
  const authors = distinctKeys(byMainNames ? mainNames.keys : names.map((name) => normaliseForWorkKey(cleanedName(name))));
  const mainAuthors = byMainNames ? authors : [];

  /** `AT` keys of titles already normalised, with each name. */
  const addTitleKeysOf = (titles: readonly string[], names: readonly string[]): string[] => {
    const made: string[] = [];
    for (const title of titles) {
      if (title === '') continue;
      for (const name of names) {
        const key = workKeyOf('AT', `${name} ${title}`);
        titleKeys.add(key);
        made.push(key);
      }
    }
    return made;
  };
  const addTitleKeys = (forms: readonly string[], names: readonly string[]): string[] => addTitleKeysOf(forms.map(normaliseForWorkKey), names);
  const vufindForms = vufindTitleForms(statement.titles);
  const titleForms: TitleTexts = { forms: vufindForms, keys: vufindForms.map(normaliseForWorkKey) };
  // A generic title ("Poems", "Jazz") names a work only with its main author: not alone, not with an added entry.
  addTitleKeysOf(mainAuthors.length > 0 ? titleForms.keys : withoutGenericTitles(titleForms), authors);
  // Shorter forms only with main entries: a record without one (a film, a compilation) names many
  // contributors, and "The hobbit" with its director would join the films of a series.
  if (mainAuthors.length > 0) addTitleKeysOf(shortTitles(statement, mainNames, titleForms).keys, mainAuthors);
  const titleKeyCount = titleKeys.values.length;
  if (statement.mainNames.length === 0 && statement.isBook === true && statement.addedNames.length > 0 && !statement.uniformTitles.some((title) => title.role === 'own')) {
    for (const title of anonymousWorkTitles(statement)) uniformKeys.add(workKeyOf('UT', title));
  }

  for (const uniformTitle of statement.uniformTitles) {
    if (uniformTitle.role !== 'own') continue;
    const textKey = normaliseForWorkKey(uniformTitle.text);
    if (!isKeyedOwnUniformTitle(uniformTitle, textKey)) continue;
    if (mainAuthors.length > 0) {
      const note = uniformTitle.language !== undefined ? 'TR' : 'UA';
      for (const key of addTitleKeysOf(uniformTitleKeys(uniformTitle, textKey), mainAuthors)) notedKeys.push({ key, note });
    } else if (!isFormTitle(uniformTitle.text)) {
      for (const title of uniformTitleKeys(uniformTitle, textKey)) if (title !== '') uniformKeys.add(workKeyOf('UT', title));
    }
  }
  for (const original of statement.originals) {
    const names = new DistinctStrings();
    if (original.name !== undefined) names.add(normaliseForWorkKey(cleanedName({ name: original.name, kind: 'unknown' })));
    for (const name of mainAuthors) names.add(name);
    for (const key of addTitleKeys(originalTitleForms(original), names.values)) notedKeys.push({ key, note: 'TR' });
  }

  // The kinds' keys begin differently (`UT `, `AT `, `UA `/`TR `, `DOI `/`HDL `), so no key of one kind
  // is a key of another: each list is kept distinct by itself, and the lists are put end to end.
  const laterKeys = new DistinctStrings();
  // A note only where the titles do not give the key themselves (../workKeyKinds.ts reads it so).
  for (const { key, note } of notedKeys) {
    const at = titleKeys.values.indexOf(key);
    if (at < 0 || at >= titleKeyCount) laterKeys.add(workKeyOf(note, keyWordsOf(key)));
  }
  for (const identifier of statement.identifiers) {
    const canonical = canonicalIdentifier(identifier);
    if (canonical !== undefined) laterKeys.add(workKeyOf(identifier.scheme === 'doi' ? 'DOI' : 'HDL', canonical));
  }
  const keys = uniformKeys.values.length === 0 ? titleKeys.values : uniformKeys.values.concat(titleKeys.values);
  return laterKeys.values.length === 0 ? keys : keys.concat(laterKeys.values);
}
