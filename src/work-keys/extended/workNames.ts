/**
 * Names as the `extended` profile keys them: which names count (main entries; added entries only when a
 * record has no main entry) and each name cleaned of what varies between catalogues for one person:
 * dates (`, 1923-1968`, `1936-`), parenthesised qualifiers (`(Philip Rista)`, `(Musical group)`) and
 * relator terms (`ed.`, `tr.`, `ill.`, `trad.`, `:著`). The cleaned name is then normalised by
 * normaliseForWorkKey (workKeys.ts); writtenNameKeys gives the keys of the other forms a title writes it in.
 *
 * Left to others: reading names from a source (the adapters), pairing names with titles
 * (extendedWorkKeys.ts).
 */
import { keyOfLatinBlocksPart, normaliseForWorkKey } from '../workKeys.js';
import type { StatedName, WorkStatement } from './workStatement.js';

/** Relator terms catalogues write after a name (English, French, Spanish, Portuguese, German abbreviations). */
const RELATOR_TERMS = [
  'ed', 'eds', 'editor', 'editors', 'edited', 'comp', 'compiler', 'tr', 'trans', 'translator', 'ill', 'illus',
  'illustrator', 'author', 'joint author', 'arr', 'arranger', 'trad', 'traductor', 'traducteur', 'tradutor', 'éd',
  'dir', 'org', 'organizador', 'hrsg', 'herausgeber', 'übers', 'composer', 'performer', 'narrator', 'writer',
];
const RELATOR_AT_END = new RegExp(`[,\\s]+(?:${RELATOR_TERMS.join('|')})\\.?\\s*$`, 'iu');
/** CJK statements of responsibility after a name: 著 (author), 編 (editor), 訳/譯 (translator), 作, 絵/画 (pictures). */
const CJK_ROLE_AT_END = /[\s:：]*(?:著|編著|編|訳|譯|作|絵|画|撰)\s*$/u;
const PARENTHESISED = /\s*[(（][^()（）]*[)）]/gu;
/**
 * Dates after a name: `1923-1968`, `1936-`, `b. 1950`, `d. 1800`, `fl. 1200`, `ca. 1450-ca. 1500`,
 * `1775-1817.`, `19th cent.`; only after a comma or at the end of a personal name, so `Sum 41` (a body) and
 * `John Paul II` keep their words.
 */
const DATES_AT_END =
  /,?\s*(?:(?:b|d|fl|ca|born|died|active|approximately)\.?\s*)?\d{1,4}(?:th|st|nd|rd)?\??(?:\s*cent(?:ury)?\.?)?(?:\s*-\s*(?:(?:ca|d)\.?\s*)?(?:\d{1,4}\??)?)?\.?\s*$/iu;

/**
 * A name without dates, parenthesised qualifiers or relator terms, and without the trailing punctuation
 * those leave: `Montgomery, Wes, 1923-1968` → `Montgomery, Wes`; `Nimmons, Phil (Philip Rista), 1923-` →
 * `Nimmons, Phil`; `Borges, Jorge Luis, 1899-1986, trad.` → `Borges, Jorge Luis`.
 */
export function cleanedName(name: StatedName): string {
  if (isCleanAsWritten(name.name)) return name.name;
  let current = name.name.replace(PARENTHESISED, ' ');
  for (;;) {
    let next = current.replace(RELATOR_AT_END, '').replace(CJK_ROLE_AT_END, '');
    if (name.kind === 'person' || name.kind === 'unknown') next = next.replace(DATES_AT_END, '');
    next = next.replace(/[\s,;:/.]+$/u, '').trim();
    if (next === current) return next;
    current = next;
  }
}

/**
 * A name none of cleanedName's steps would change, told in one pass over it: no parenthesis, no digit
 * (every date has one), no white space at the start (trim), and a last character that ends none of the
 * patterns: an ASCII letter that ends no relator term (d, g, l, p, r, s) in either case (an ASCII
 * letter matches only itself in the other case under the patterns' `iu` flags), so no punctuation,
 * white space or CJK role. Most names are so (`Miller, Martín Maria`).
 */
function isCleanAsWritten(name: string): boolean {
  const first = name.charCodeAt(0);
  const last = name.charCodeAt(name.length - 1) | 0x20;
  if (!(first > 0x20 && first < 0x7f && last >= 0x61 && last <= 0x7a) || RELATOR_TERM_ENDS.includes(last)) return false;
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    if ((code >= 0x30 && code <= 0x39) || code === 0x28 || code === 0xff08) return false;
  }
  return true;
}
/** The last letters of the relator terms (RELATOR_TERMS), as char codes. */
const RELATOR_TERM_ENDS = [...new Set(RELATOR_TERMS.map((term) => term.charCodeAt(term.length - 1)))];

/**
 * The names a record's keys pair with titles: its main entries, or when it has none its added entries.
 * An illustrator or translator in a 700 of a record with a 100 names no work of its own here. An
 * adaptation (`adaptation`: its 245 $c says "adapted by") is its adapters' work: its added entries.
 */
export function keyedNames(statement: WorkStatement, adaptation = false): readonly StatedName[] {
  return statement.mainNames.length > 0 && !adaptation ? statement.mainNames : statement.addedNames;
}

/**
 * The surname of a person's name, when it can be told: the part before the comma of an inverted name
 * (`La Fontaine, Jean de` → `La Fontaine`), or a forename-only name as a whole (`Molière`, `Homer`).
 * Undefined for bodies, meetings and names written forename first (`Jean de La Fontaine`), where the
 * surname cannot be told from the words.
 */
export function surnameOf(name: StatedName): string | undefined {
  return surnameOfCleaned(name, cleanedName(name));
}

/** surnameOf for a name whose cleanedName the caller has already. */
export function surnameOfCleaned(name: StatedName, cleaned: string): string | undefined {
  if (name.kind !== 'person' && name.kind !== 'unknown') return undefined;
  const comma = cleaned.indexOf(',');
  if (comma > 0) return name.surnameFirst === false ? undefined : cleaned.slice(0, comma).trim();
  // One word: a forename-only name (Homer, Molière) or a surname standing alone.
  return /^\p{L}[\p{L}\p{M}'’-]*$/u.test(cleaned) ? cleaned : undefined;
}

/**
 * The keys of the other forms a title writes a cleaned name in (`Evans, Bill` → `evans`, `billevans`):
 * its part before the first comma, and the part after it followed by that part. `cleanedKey` is the
 * name's own key (normaliseForWorkKey). A Latin-script name with one comma and an uncapped key keys as
 * its parts' keys end to end (the comma and spaces key as nothing), so the second form is read off the
 * name's key rather than worked out again.
 */
export function writtenNameKeys(cleaned: string, cleanedKey: string): string[] {
  const comma = cleaned.indexOf(',');
  // The part before the comma keys as the start of the name's key: no text is normalised here.
  const surnameKey = comma >= 0 && cleaned.indexOf(',', comma + 1) < 0 ? keyOfLatinBlocksPart(cleaned, cleanedKey, 0, comma) : undefined;
  if (surnameKey !== undefined) return [surnameKey, cleanedKey.slice(surnameKey.length) + surnameKey];
  return writtenNameKeysByParts(cleaned);
}

/**
 * The key of a person's surname (surnameOfCleaned) given the name's cleaned form and its key: the key
 * itself for a one-word name, the start of the key for an inverted Latin-script name (keyOfLatinBlocksPart),
 * else the surname normalised. Empty when the surname cannot be told.
 */
export function surnameKeyOfCleaned(name: StatedName, cleaned: string, cleanedKey: string): string {
  const surname = surnameOfCleaned(name, cleaned);
  if (surname === undefined) return '';
  if (surname === cleaned) return cleanedKey;
  // surnameOfCleaned's inverted name: the text before the comma, trimmed (spaces key as nothing).
  const comma = cleaned.indexOf(',');
  return keyOfLatinBlocksPart(cleaned, cleanedKey, 0, comma) ?? normaliseForWorkKey(surname);
}

/** writtenNameKeys by normalising each form. */
export function writtenNameKeysByParts(cleaned: string): string[] {
  const [surname, forenames] = cleaned.split(/,\s*/u);
  const keys: string[] = [];
  if (surname !== undefined) keys.push(normaliseForWorkKey(surname));
  if (surname !== undefined && forenames !== undefined) keys.push(normaliseForWorkKey(`${forenames} ${surname}`));
  return keys;
}
