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
 * Each rule is a function here or in the files named; extendedWorkKeys puts them together. The key
 * kinds and the reasons they give are in ../workKeyKinds.ts; docs/work-keys.md has every rule with examples.
 *
 * Left to others: reading a source into a WorkStatement (the adapters), normalising text
 * (normaliseForWorkKey in workKeys.ts), storing keys and finding versions (the indexes).
 */
import { keyWordsOf, workKeyOf, type WorkKeyPrefix } from '../workKeyKinds.js';
import { keyOfLatinBlocksPart, normaliseForWorkKey } from '../workKeys.js';
import { DistinctStrings } from '../../distinctStrings.js';
import {
  isAuthorsCollectiveTitle, isFormTitle, isGenericTitle, isGenericTitleKeyed, isSelectionStatement, saysSelections, subtitleSaysCollection,
} from './genericTitles.js';
import { canonicalIdentifier } from './manifestationIdentifiers.js';
import {
  subtitleNamesAPart, subtitleSaysAnotherWork, titleBeforeSeparator, withAmpersandRead, withoutAlternativeTitle,
  firstWorkOf, saysAdaptation, withoutDescriptiveOpening, withoutEditionStatement, withoutKeyedAuthorName, withoutLeadingArticle, withoutNonFilingCharacters,
} from './titleForms.js';
import { languageOfTitleWords } from './titleLanguages.js';
import { cleanedName, keyedNames, surnameKeyOfCleaned, writtenNameKeys } from './workNames.js';
import type { StatedOriginal, StatedTitle, StatedUniformTitle, WorkStatement } from './workStatement.js';

/** The non-empty keys, each once, in order (the names' keys a record's `AT` keys pair titles with). */
function distinctKeys(keys: readonly string[]): string[] {
  const distinct = new DistinctStrings();
  for (const key of keys) distinct.add(key);
  return distinct.values;
}

/** A record's main names, each cleaned (workNames.ts) and normalised once for every rule that reads them. */
interface MainNames {
  readonly cleaned: readonly string[];
  readonly keys: readonly string[];
}

/** VuFind's title forms: each title as catalogued, and the title statement without its non-filing characters. */
export function vufindTitleForms(titles: readonly StatedTitle[]): string[] {
  const forms = new DistinctStrings();
  for (const title of titles) forms.add(title.text);
  for (const title of titles) {
    if (title.role === 'title-statement') forms.add(withoutNonFilingCharacters(title.text, title.nonFiling) ?? title.text);
  }
  return forms.values;
}

/**
 * A title's forms with the language rules applied: as given, without a leading article, with "&" read,
 * and both (`The blues & roots` → `blues and roots`).
 */
export function languageForms(text: string, language: string | undefined): string[] {
  const forms = new DistinctStrings();
  forms.add(text);
  const withoutArticle = withoutLeadingArticle(text, language);
  if (withoutArticle !== undefined) forms.add(withoutArticle);
  // The forms so far, not those "&" read adds.
  for (let i = 0, before = forms.values.length; i < before; i++) {
    const read = withAmpersandRead(forms.values[i] as string, language);
    if (read !== undefined) forms.add(read);
  }
  return forms.values;
}

/**
 * The title statement's title proper, without its subtitle (245 $a$n$p, or the text before ` : `, ` = `,
 * ` / `); undefined when the subtitle names a part ("vol. 2"), says the book is a collection ("the
 * complete novels and stories") or another work ("the graphic novel", "a study guide").
 */
export function titleProperOf(title: StatedTitle): string | undefined {
  if (title.role !== 'title-statement') return undefined;
  const base = title.titleProper ?? title.text;
  // A source that separates the title proper (MARC's 245 $a$n$p) is ISBD; one that does not may write "Title: subtitle".
  const proper = titleBeforeSeparator(base, title.titleProper === undefined) ?? base;
  const subtitle = title.subtitle ?? title.text.slice(proper.length);
  const rest = base.slice(proper.length);
  // Often the two are one text, or the second is empty: each is read once.
  if (subtitleKeepsTitle(subtitle) || (rest !== subtitle && subtitleKeepsTitle(rest))) return undefined;
  return proper;
}

/**
 * The subtitle names a part, says the book is a collection or another work; never so of an empty text,
 * nor of one that only says the book is a selection of the title's work ("Contes : choix").
 */
export function subtitleKeepsTitle(subtitle: string): boolean {
  return subtitle !== '' && (subtitleNamesAPart(subtitle) || (subtitleSaysCollection(subtitle) && !isSelectionStatement(subtitle)) || subtitleSaysAnotherWork(subtitle));
}

/**
 * The key of `part`, a text that begins or ends `text`, read off `text`'s key (keyOfLatinBlocksPart);
 * undefined when it is neither or the key cannot be read so.
 */
function keyOfPart(text: string, textKey: string, part: string): string | undefined {
  if (text.endsWith(part)) return keyOfLatinBlocksPart(text, textKey, text.length - part.length);
  return text.startsWith(part) ? keyOfLatinBlocksPart(text, textKey, 0, part.length) : undefined;
}

/**
 * A title's title proper (titleProperOf), also without its non-filing characters, and each without a
 * statement of its text's completeness: the texts the shorter forms start from. Undefined without one.
 */
function titleProperStarts(title: StatedTitle): string[] | undefined {
  const proper = titleProperOf(title);
  if (proper === undefined) return undefined;
  const starts = [proper];
  const nonFiling = withoutNonFilingCharacters(proper, title.nonFiling);
  if (nonFiling !== undefined) starts.push(nonFiling);
  for (let i = 0, before = starts.length; i < before; i++) {
    const complete = withoutEditionStatement(starts[i] as string);
    if (complete !== undefined) starts.push(complete);
  }
  return starts;
}

/** Title texts and their keys (normaliseForWorkKey), side by side. */
interface TitleTexts {
  readonly forms: string[];
  readonly keys: string[];
}

/**
 * The shorter forms of a record's title statements, with their keys side by side: the title proper, also
 * without non-filing characters, an alternative title, a descriptive opening or an article, with "&"
 * read, and each without the main author's name; none that is generic ("Poems", "Selections"), empty, or
 * only the author's name. `known` holds texts keyed already (VuFind's title forms): a title without a
 * subtitle is its own title proper, whose key is not worked out again.
 */
function shortTitles(statement: WorkStatement, mainNames: MainNames, known: TitleTexts): TitleTexts {
  const knownKey = (form: string): string | undefined => {
    const at = known.forms.indexOf(form);
    return at < 0 ? undefined : known.keys[at];
  };
  const surnameKeys: string[] = [];
  statement.mainNames.forEach((name, i) => {
    const key = surnameKeyOfCleaned(name, mainNames.cleaned[i] as string, mainNames.keys[i] as string);
    if (key !== '') surnameKeys.push(key);
  });
  const forms = new DistinctStrings();
  // The key of each form in forms.values, where it was worked out already.
  const formKeys: (string | undefined)[] = [];
  const addForm = (form: string, key: string | undefined): void => {
    const before = forms.values.length;
    forms.add(form);
    if (forms.values.length > before) formKeys.push(key);
  };
  for (const title of statement.titles) {
    const starts = titleProperStarts(title);
    if (starts === undefined) continue;
    // Each rule to the starts so far, not to those it adds.
    for (let i = 0, before = starts.length; i < before; i++) {
      const first = firstWorkOf(starts[i] as string);
      if (first !== undefined) starts.push(first);
    }
    for (let i = 0, before = starts.length; i < before; i++) {
      const withoutAlternative = withoutAlternativeTitle(starts[i] as string, statement.language);
      if (withoutAlternative !== undefined) starts.push(withoutAlternative);
    }
    for (let i = 0, before = starts.length; i < before; i++) {
      const name = withoutDescriptiveOpening(starts[i] as string, statement.language);
      if (name !== undefined) starts.push(name);
    }
    // Each start is most often a part of the title as catalogued or of a start before it (without the
    // subtitle, the non-filing characters, the alternative title), whose key holds its key.
    const keyed: TitleTexts = { forms: [title.text], keys: [knownKey(title.text) ?? normaliseForWorkKey(title.text)] };
    for (const start of starts) {
      let startKey = knownKey(start);
      for (let k = 0; startKey === undefined && k < keyed.forms.length; k++) startKey = keyOfPart(keyed.forms[k] as string, keyed.keys[k] as string, start);
      startKey ??= normaliseForWorkKey(start);
      keyed.forms.push(start);
      keyed.keys.push(startKey);
      for (const form of languageForms(start, statement.language)) {
        // A form without the article is the end of its start: its key is the end of the start's key.
        const formKey = form === start ? startKey : knownKey(form) ?? keyOfPart(start, startKey, form) ?? normaliseForWorkKey(form);
        addForm(form, formKey);
        for (const surnameKey of surnameKeys) {
          const withoutName = withoutKeyedAuthorName(form, formKey, surnameKey);
          if (withoutName !== undefined) for (const shorter of languageForms(withoutName, statement.language)) addForm(shorter, undefined);
        }
      }
    }
  }
  const kept: TitleTexts = { forms: [], keys: [] };
  if (forms.values.length === 0) return kept;
  const names = nameForms(mainNames);
  for (let i = 0; i < forms.values.length; i++) {
    const form = forms.values[i] as string;
    const key = formKeys[i] ?? normaliseForWorkKey(form);
    if ((isGenericTitleKeyed(form, key) && !isAuthorsCollectiveTitle(key)) || names.includes(key)) continue;
    kept.forms.push(form);
    kept.keys.push(key);
  }
  return kept;
}

/**
 * The main authors' names as a title would write them ("Evans, Bill" → `evansbill`, `billevans`, `evans`):
 * a title proper that is only its author's name ("Bill Evans : the second trio") leaves the subtitle to
 * tell the work, so it is no short form.
 */
function nameForms(mainNames: MainNames): string[] {
  // A list, not a Set: a record has a name or two (three forms each), and a Set would hash every key
  // and every form's key it is asked about, each a string made for this record.
  const forms = mainNames.keys.slice();
  for (let i = 0; i < mainNames.cleaned.length; i++) {
    for (const key of writtenNameKeys(mainNames.cleaned[i] as string, mainNames.keys[i] as string)) forms.push(key);
  }
  return forms;
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
