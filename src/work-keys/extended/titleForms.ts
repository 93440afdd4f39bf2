/**
 * The title rules of the `extended` profile, each a small function of a title's text: the title without
 * its subtitle, without a leading article, with "&" read as a word, without the author's name.
 * Each gives the shorter form or undefined when the rule does not apply, so the caller can tell which
 * rule made a key. Text stays as catalogued; normalising is normaliseForWorkKey's (workKeys.ts).
 *
 * Left to others: which titles of a record these apply to and which forms become keys
 * (extendedWorkKeys.ts); languages' articles and conjunctions (titleLanguages.ts).
 */
import { isLatinBlocksText, MAX_KEY_PART_LENGTH, normaliseForWorkKey } from '../workKeys.js';
import { TITLE_LANGUAGES, titleLanguageOf } from './titleLanguages.js';

/**
 * ISBD's separators between the title proper and what follows: other title information (` : `), a
 * parallel title (` = `), the statement of responsibility (` / `). Not ` ; ` or `. `: those separate
 * titles of different works in one volume ("Hamlet ; Macbeth"), whose first work firstWorkOf tells.
 */
const ISBD_SEPARATOR = /\s+[:=/](?=\s|$)/u;
/** Text typed without ISBD (Dublin Core, a host's documents) writes "Title: subtitle". */
const LOOSE_SEPARATOR = /\s+[:=/](?=\s|$)|:(?=\s)/u;

/**
 * The text before the first ISBD separator, when there is one and something stands before it. With
 * `looseColon`, for text not written to ISBD, a colon followed by a space separates too; in a MARC title
 * proper ("Mission: impossible") it is part of the title.
 */
export function titleBeforeSeparator(text: string, looseColon = false): string | undefined {
  const match = (looseColon ? LOOSE_SEPARATOR : ISBD_SEPARATOR).exec(text);
  if (match === null) return undefined;
  const before = text.slice(0, match.index).trim();
  return before === '' ? undefined : before;
}

/** The text without its first `count` characters (a non-filing indicator's count); undefined for 0. */
export function withoutNonFilingCharacters(text: string, count: number): string | undefined {
  if (count <= 0 || count >= text.length) return undefined;
  return text.slice(count).trim();
}

/**
 * The title without one leading article of the language (English's when the language is not known, as
 * VuFind removes English ones): `Les fables` → `fables`, `L'étranger` → `étranger`, `The hobbit` →
 * `hobbit`. A whole word only ("Theory" keeps its "The"), and never the whole title ("A" stays).
 */
export function withoutLeadingArticle(text: string, language: string | undefined): string | undefined {
  // A language without a row has articles we do not know ("A" is Hungarian's): none are removed.
  const articles = language === undefined ? ENGLISH_ARTICLES : titleLanguageOf(language)?.articles ?? [];
  const trimmed = text.trimStart().replace(OPENING_QUOTES, '');
  const lower = trimmed.toLowerCase();
  for (const article of articles) {
    const elided = article.endsWith("'");
    const stem = elided ? article.slice(0, -1) : article;
    if (!lower.startsWith(stem)) continue;
    const rest = trimmed.slice(stem.length);
    const after = elided ? AFTER_ELIDED_ARTICLE.exec(rest) : AFTER_ARTICLE.exec(rest);
    if (after === null) continue;
    const shorter = rest.slice(after[0].length);
    if (normaliseForWorkKey(shorter) !== '') return shorter;
  }
  return undefined;
}
const ENGLISH_ARTICLES = TITLE_LANGUAGES.eng?.articles ?? [];
// Made once, not at each call (none has the g or y flag, so none keeps state between texts).
const OPENING_QUOTES = /^["'“‘«¿¡\[]+/u;
const AFTER_ELIDED_ARTICLE = /^['’]\s*(?=\p{L})/u;
const AFTER_ARTICLE = /^\s+(?=[\p{L}\p{N}"'“‘«])/u;

/** The title with each "&" written as the language's "and" (`Blues & roots` → `Blues and roots`); undefined without a "&" or a known language. */
export function withAmpersandRead(text: string, language: string | undefined): string | undefined {
  const and = titleLanguageOf(language)?.and;
  if (and === undefined || !text.includes('&')) return undefined;
  return text.replace(/\s*&\s*/gu, ` ${and} `);
}

/**
 * The title without its alternative title, which cataloguing keeps in the title proper but by which the
 * work is rarely known alone: "The hobbit, or, There and back again" → "The hobbit"; "Frankenstein, or,
 * The modern Prometheus" → "Frankenstein". Only where the language's "or" stands between commas (or a
 * comma and a space), so "Now or never" keeps its words; English's "or" when the language is not known.
 */
export function withoutAlternativeTitle(text: string, language: string | undefined): string | undefined {
  const or = language === undefined ? 'or' : titleLanguageOf(language)?.or;
  // The "or" stands after a comma or a semicolon: a title without either has no alternative title.
  if (or === undefined || (!text.includes(',') && !text.includes(';'))) return undefined;
  const match = alternativeTitleMark(or).exec(text);
  if (match === null || match.index === 0) return undefined;
  const before = text.slice(0, match.index).trim();
  return normaliseForWorkKey(before) === '' ? undefined : before;
}

/** ", or, " in a language, made once per word (a pattern without the g flag keeps no state between texts). */
function alternativeTitleMark(or: string): RegExp {
  let mark = ALTERNATIVE_TITLE_MARKS.get(or);
  if (mark === undefined) {
    mark = new RegExp(`\\s*[,;]\\s*${or},?\\s+(?=\\p{L})`, 'iu');
    ALTERNATIVE_TITLE_MARKS.set(or, mark);
  }
  return mark;
}
const ALTERNATIVE_TITLE_MARKS = new Map<string, RegExp>();

/**
 * Title pages of classics call the work by a description ("The tragedy of Hamlet, Prince of Denmark",
 * "The history of Tom Jones, a foundling", "The life and opinions of Tristram Shandy, gentleman") where
 * other editions print its short name. Without the description and after it what follows the first comma:
 * "Hamlet", "Tom Jones", "Tristram Shandy". English only, where uniform titles are most often missing.
 */
export function withoutDescriptiveOpening(text: string, language: string | undefined): string | undefined {
  if (language !== undefined && language !== 'eng') return undefined;
  const match = DESCRIPTIVE_OPENING.exec(text);
  if (match === null) return undefined;
  const name = (text.slice(match[0].length).split(',')[0] ?? '').trim();
  return normaliseForWorkKey(name) === '' ? undefined : name;
}
const DESCRIPTIVE_OPENING = /^\s*(?:the\s+)?(?:(?:most\s+)?(?:excellent\s+|lamentable\s+)?trag(?:edy|edie|icall\s+historie)|history|historie|life\s+and\s+(?:opinions|adventures|strange\s+surprizing\s+adventures)|famous\s+history)\s+of\s+(?=\p{L})/iu;

/**
 * The title without a statement of its text's completeness at its end, which a title page or a converted
 * record writes into the title ("Le rouge et le noir (texte intégral)", "Germinal. Version intégrale",
 * "Les misérables, édition abrégée", "Moby Dick : unabridged"): an abridged or complete text is the same
 * work. Undefined when the title has none or nothing would be left.
 */
export function withoutEditionStatement(text: string): string | undefined {
  const match = EDITION_STATEMENT.exec(text);
  if (match === null || match.index === 0) return undefined;
  const before = text.slice(0, match.index).trim();
  return normaliseForWorkKey(before) === '' ? undefined : before;
}
const EDITION_STATEMENT =
  /[\s.,:;/([-]+(?:(?:version|texte|text|texto|édition|edition|edición|edição|versión|versão|fassung|ausgabe|récit|roman)\s+(?:intégrale?|integral|integrale|íntegra|íntegro|complète|complete|completa|abrégée?|abridged|abreviada|resumida|gekürzte|ungekürzte|originale?)|(?:ungekürzte|gekürzte|vollständige)\s+(?:ausgabe|fassung)|(?:complete\s+and\s+)?unabridged|abridged|intégrale|integral|ungekürzt|gekürzt)[\s.)\]]*$/i;

/**
 * The first work of a volume that holds several, which is where catalogues file it: the title before
 * ISBD's ` ; ` between works ("La belle et la bête ; Riquet à la houppe ; La belle aux cheveux d'or" →
 * "La belle et la bête"), before "et autres nouvelles", "and other stories", "y otros cuentos", "e outros
 * contos", "und andere Erzählungen" ("La Vénus d'Ille et autres nouvelles" → "La Vénus d'Ille"), or
 * before "suivi de", "followed by" ("Candide, suivi de Micromégas"). Undefined when the title names one
 * work or nothing would be left.
 */
export function firstWorkOf(text: string): string | undefined {
  const match = OTHER_WORKS.exec(text);
  if (match === null || match.index === 0) return undefined;
  const before = text.slice(0, match.index).replace(/[\s,;:.]+$/u, '');
  return normaliseForWorkKey(before) === '' ? undefined : before;
}
// Without the u flag: its words are ASCII, and a case-insensitive pattern without it is searched fast.
const OTHER_WORKS =
  /\s;\s+(?=\S)|,?\s+(?:et\s+autres|and\s+other|y\s+otr[oa]s|e\s+outr[oa]s|und\s+andere|e\s+altr[ie]|en\s+andere|suivi\s+de|suivie\s+de|suivis\s+de|followed\s+by|seguido\s+de|seguida\s+de|gefolgt\s+von)\s+(?=[^\s\d.,;:!?'"()[\]-])/i;

/**
 * A subtitle that makes the book another work than its title proper: an adaptation, a study of it, a
 * sequel ("Pride and prejudice : the graphic novel", "Hamlet : a study guide"), which is not keyed by the
 * title proper alone.
 */
export function subtitleSaysAnotherWork(subtitle: string): boolean {
  return ANOTHER_WORK.test(subtitle);
}
const ANOTHER_WORK =
  /\b(?:graphic novel|comic|manga|adapt(?:ed|ation)|retold|a play|play in|musical|opera|libretto|screenplay|study guide|companion|criticism and interpretation|sequel|continuation|parody|spoof|adaptação|adaptación|adaptation|bande dessinée)\b/iu;

/**
 * A statement of responsibility that says the book is an adaptation ("Jane Austen ; adapted by Jessica
 * Swale", "adapté par", "adaptación de", "retold by", "bearbeitet von"): a new work of its adapter, not an
 * edition of its author's.
 */
export function saysAdaptation(responsibility: string): boolean {
  return mayNameAnAdaptation(responsibility) && ADAPTED_BY.test(responsibility);
}
const ADAPTED_BY = /(?:^|[\s;,.(])(?:adapted|adaptation|adapt[ée]e?s?|adaptado|adaptada|adaptaci[óo]n|adapta[çc][ãa]o|retold|re-told|bearbeitet|nacherz[äa]hlt|free version)(?=[\s,.;:)]|$)/iu;

/**
 * False only when ADAPTED_BY cannot match: each of its words holds one of these stems. ASCII stems under a
 * pattern without the u flag: tested without lower-casing the text.
 */
export function mayNameAnAdaptation(responsibility: string): boolean {
  return ADAPTATION_STEMS.test(responsibility);
}
const ADAPTATION_STEMS = /adapt|retold|re-told|bearbeit|nacherz|free version/i;

/** Words that join a title to its author's name: "Fables de La Fontaine", "Poems by Keats", "The Iliad of Homer", "Gedichte von Goethe". */
const NAME_CONNECTORS = new Set(['de', 'du', 'des', 'by', 'of', 'von', 'van', 'di', 'da', 'del', 'della', 'do', 'dos', 'af', 'av', 'der', 'par', 'por']);
/** Particles that stand inside a name: "Jean de La Fontaine", "Ludwig van Beethoven". */
const NAME_PARTICLES = new Set(['de', 'du', 'des', 'la', 'le', 'von', 'van', 'der', 'den', 'di', 'da', 'del', 'dos', "d'", 'd’']);
/** At most this many words (forenames, particles) between the connector and the surname. */
const MAX_WORDS_BEFORE_SURNAME = 3;

/**
 * The title without the main author's name it ends or starts with: "Fables de La Fontaine" → "Fables",
 * "Fables choisies de Jean de La Fontaine" → "Fables choisies", "Poems by John Keats" → "Poems",
 * "Shakespeare's sonnets" → "sonnets". Words are compared normalised, so "Molière" matches "Moliere";
 * undefined when the title does not carry the surname that way or nothing would be left.
 */
export function withoutAuthorName(text: string, surname: string | undefined): string | undefined {
  if (surname === undefined) return undefined;
  const surnameKey = normaliseForWorkKey(surname);
  return surnameKey === '' ? undefined : withoutKeyedAuthorName(text, undefined, surnameKey);
}

/**
 * withoutAuthorName for a surname's non-empty key, with the title's key (normaliseForWorkKey) when the
 * caller has it. A possessive needs an apostrophe; a title that ends with the surname has a key that
 * does, when the key can be read that way: most titles are ruled out here without reading their words.
 */
export function withoutKeyedAuthorName(text: string, textKey: string | undefined, surnameKey: string): string | undefined {
  if (!text.includes("'") && !text.includes('’') && !mayEndWithKey(text, textKey, surnameKey)) return undefined;
  return withoutAuthorNameByWords(text, surnameKey);
}

/**
 * False only when the title's words cannot end with the surname: for text of the Latin blocks, whose key
 * is its characters' keys end to end and whose characters between words (not letters, marks or digits)
 * have empty keys, the last words' keys end the title's key. A capped key, or other scripts (whose
 * transliteration reads characters together), say nothing.
 */
function mayEndWithKey(text: string, textKey: string | undefined, key: string): boolean {
  if (!isLatinBlocksText(text)) return true;
  const whole = textKey ?? normaliseForWorkKey(text);
  return whole.length >= MAX_KEY_PART_LENGTH || whole.endsWith(key);
}

/** withoutAuthorName by reading the title's words, for a surname's non-empty key. */
export function withoutAuthorNameByWords(text: string, surnameKey: string): string | undefined {
  const possessive = withoutPossessiveSurname(text, surnameKey);
  if (possessive !== undefined) return possessive;
  // Words with their positions; "d'" and "l'" are split off the word they are elided onto.
  const words = [...text.matchAll(/[dDlL]['’](?=\p{L})|[\p{L}\p{M}\p{N}]+/gu)];
  // Words are normalised as the rule reaches them: most titles are ruled out by their last word or two.
  const keys: (string | undefined)[] = [];
  const keyAt = (i: number): string => (keys[i] ??= normaliseForWorkKey((words[i] as RegExpExecArray)[0]));
  // The surname is the title's last words (a two-word surname is two words: "La Fontaine").
  let joined = '';
  let start = words.length;
  while (start > 0 && joined.length < surnameKey.length) joined = keyAt(--start) + joined;
  if (joined !== surnameKey) return undefined;
  // The earliest connector within reach whose words up to the surname are forenames or particles
  // ("de Jean de La Fontaine"), not title words ("Poèmes de la nuit de Hugo" keeps "de la nuit").
  for (let connector = Math.max(1, start - 1 - MAX_WORDS_BEFORE_SURNAME); connector < start; connector++) {
    const word = words[connector]?.[0] ?? '';
    if (!NAME_CONNECTORS.has(keyAt(connector)) && !/^d['’]$/iu.test(word)) continue;
    const between = words.slice(connector + 1, start).map((match) => match[0]);
    if (!between.every((w) => /^\p{Lu}/u.test(w) || NAME_PARTICLES.has(w.toLowerCase()))) continue;
    const before = text.slice(0, words[connector]?.index ?? 0).replace(/[\s,:;/.-]+$/u, '');
    return normaliseForWorkKey(before) === '' ? undefined : before;
  }
  return undefined;
}

/** "Shakespeare's sonnets" → "sonnets"; "Grimms' fairy tales" with surname Grimm → "fairy tales". */
function withoutPossessiveSurname(text: string, surnameKey: string): string | undefined {
  const match = /^\s*([\p{L}\p{M}\s.-]+?)(?:['’]s|s['’])\s+(.+)$/u.exec(text);
  if (match === null || normaliseForWorkKey(match[1] ?? '') !== surnameKey) return undefined;
  const rest = (match[2] ?? '').trim();
  return normaliseForWorkKey(rest) === '' ? undefined : rest;
}

/**
 * A subtitle that tells one part of a title from another ("vol. 2", "second series", "part one",
 * "1958"): records whose titles differ only there are different works, so such a title proper is not
 * keyed without its subtitle.
 */
export function subtitleNamesAPart(subtitle: string): boolean {
  return PART_DESIGNATION.test(subtitle) || ROMAN_NUMBER_FIRST.test(subtitle);
}
/** A Roman number opening the subtitle, in capitals only: "II", not "civil war stories". */
const ROMAN_NUMBER_FIRST = /^[\s:;=,.]*[IVXLC]+(?![\p{L}'’])/u;
const PART_DESIGNATION =
  /^[\s:;=,.]*(?:\d|(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|\d+(?:st|nd|rd|th))\b)|\b(?:vol|vols|volume|v|no|nr|num|number|part|pt|book|bk|tome|t|band|bd|teil|livro|libro|tomo|parte|partie|livre|series|série|serie|season|episode|chapter|issue)\b\.?\s*(?:\d|[IVXLC]+\b|one|two|three|four|five|six|seven|eight|nine|ten|un|deux|trois|uno|dos|tres|um|dois|eins|zwei|drei)|\b(?:first|second|third|fourth|fifth|last|final|new|further|premier|deuxième|segundo|segunda|zweite)\s+(?:series|volume|part|book|collection|série|serie|tome|livre|parte|teil|band)\b/iu;
