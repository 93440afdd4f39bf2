/**
 * The title texts the `extended` profile keys a work by (extendedWorkKeys.ts puts the rules together):
 * VuFind's title forms, each title's forms with its language's rules applied, the title proper without a
 * subtitle that names a part, a collection or another work, and the shorter forms of a title statement
 * (without an alternative title, a descriptive opening, an article or the author's name), each with its
 * key. The rules on a title's text itself are in titleForms.ts and genericTitles.ts.
 */
import { keyOfLatinBlocksPart, normaliseForWorkKey } from '../workKeys.js';
import { DistinctStrings } from '../../distinctStrings.js';
import { isAuthorsCollectiveTitle, isGenericTitleKeyed, isSelectionStatement, subtitleSaysCollection } from './genericTitles.js';
import {
  subtitleNamesAPart, subtitleSaysAnotherWork, titleBeforeSeparator, withAmpersandRead, withoutAlternativeTitle,
  firstWorkOf, withoutDescriptiveOpening, withoutEditionStatement, withoutKeyedAuthorName, withoutLeadingArticle, withoutNonFilingCharacters,
} from './titleForms.js';
import { surnameKeyOfCleaned, writtenNameKeys } from './workNames.js';
import type { StatedTitle, WorkStatement } from './workStatement.js';


/** A record's main names, each cleaned (workNames.ts) and normalised once for every rule that reads them. */
export interface MainNames {
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
export function keyOfPart(text: string, textKey: string, part: string): string | undefined {
  if (text.endsWith(part)) return keyOfLatinBlocksPart(text, textKey, text.length - part.length);
  return text.startsWith(part) ? keyOfLatinBlocksPart(text, textKey, 0, part.length) : undefined;
}

/**
 * A title's title proper (titleProperOf), also without its non-filing characters, and each without a
 * statement of its text's completeness: the texts the shorter forms start from. Undefined without one.
 */
export function titleProperStarts(title: StatedTitle): string[] | undefined {
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
export interface TitleTexts {
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
export function shortTitles(statement: WorkStatement, mainNames: MainNames, known: TitleTexts): TitleTexts {
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
export function nameForms(mainNames: MainNames): string[] {
  // A list, not a Set: a record has a name or two (three forms each), and a Set would hash every key
  // and every form's key it is asked about, each a string made for this record.
  const forms = mainNames.keys.slice();
  for (let i = 0; i < mainNames.cleaned.length; i++) {
    for (const key of writtenNameKeys(mainNames.cleaned[i] as string, mainNames.keys[i] as string)) forms.push(key);
  }
  return forms;
}
