/**
 * The language facts the `extended` title rules need, one row per language: its leading articles, its
 * word for "and" and the word that introduces an alternative title. A record's language comes as a MARC code (008/35-37), an ISO 639-1 code, a locale
 * (`pt-BR`) or an English name (`French`, as VuFind's `language` field holds it); languageCodeOf reads
 * them all to the MARC code. A title whose record names no language is given one from its own short
 * words (languageOfTitleWords).
 *
 * Left to others: which title a rule applies these to (titleForms.ts).
 */

export interface TitleLanguage {
  /** Leading articles, lower case; one ending in an apostrophe is elided onto the next word (`l'`). */
  readonly articles: readonly string[];
  /** What "&" reads as. */
  readonly and: string;
  /** The word that introduces an alternative title ("The hobbit, or, There and back again"). */
  readonly or: string;
  /**
   * Other short words titles are made of (prepositions, possessives, "other"), lower case: with the
   * articles, "and" and "or" they are the words languageOfTitleWords counts.
   */
  readonly words: readonly string[];
}

/** MARC language code → articles and conjunction. Only languages whose articles we are sure of. */
export const TITLE_LANGUAGES: Readonly<Record<string, TitleLanguage>> = {
  eng: { articles: ['the', 'a', 'an'], and: 'and', or: 'or', words: ['of', 'in', 'to', 'with', 'for', 'on', 'from', 'by', 'at', 'his', 'her', 'my', 'other'] },
  fre: { articles: ['le', 'la', 'les', "l'", 'un', 'une'], and: 'et', or: 'ou', words: ['de', 'des', 'du', "d'", 'et', 'au', 'aux', 'en', 'dans', 'sur', 'pour', 'par', 'avec', 'mon', 'ma', 'mes', 'son', 'sa', 'ses', 'autres', 'qui'] },
  ger: { articles: ['der', 'die', 'das', 'ein', 'eine'], and: 'und', or: 'oder', words: ['des', 'dem', 'den', 'von', 'vom', 'zu', 'zum', 'zur', 'im', 'mit', 'auf', 'aus', 'für', 'über', 'andere'] },
  spa: { articles: ['el', 'la', 'los', 'las', 'un', 'una'], and: 'y', or: 'o', words: ['de', 'del', 'en', 'con', 'por', 'para', 'al', 'su', 'sus', 'mi', 'otros', 'otras'] },
  por: { articles: ['o', 'a', 'os', 'as', 'um', 'uma'], and: 'e', or: 'ou', words: ['de', 'do', 'da', 'dos', 'das', 'em', 'no', 'na', 'nos', 'nas', 'com', 'por', 'para', 'ao', 'seu', 'sua', 'meu', 'outros', 'outras'] },
  ita: { articles: ['il', 'lo', 'la', 'i', 'gli', 'le', "l'", 'un', 'uno', 'una', "un'"], and: 'e', or: 'ossia', words: ['di', 'del', 'della', 'dei', 'delle', 'in', 'con', 'per', 'al', 'alla', 'nel', 'nella', 'altri', 'altre'] },
  dut: { articles: ['de', 'het', 'een', "'t"], and: 'en', or: 'of', words: ['van', 'in', 'met', 'op', 'voor', 'andere'] },
  swe: { articles: ['en', 'ett', 'den', 'det'], and: 'och', or: 'eller', words: ['av', 'på', 'med', 'för', 'till', 'om', 'andra'] },
  dan: { articles: ['en', 'et', 'den', 'det'], and: 'og', or: 'eller', words: ['af', 'på', 'med', 'for', 'til', 'om', 'andre'] },
  nor: { articles: ['en', 'et', 'ei', 'den', 'det'], and: 'og', or: 'eller', words: ['av', 'på', 'med', 'for', 'til', 'om', 'andre'] },
  fin: { articles: [], and: 'ja', or: 'eli', words: [] },
  cat: { articles: ['el', 'la', 'els', 'les', "l'", 'un', 'una'], and: 'i', or: 'o', words: ['de', 'del', 'amb', 'per', 'al', 'altres'] },
};

/**
 * The languages languageOfTitleWords votes over. Not Catalan, whose short words are French's and
 * Spanish's ("les", "de", "la"), nor the Scandinavian languages, which share theirs ("en", "den", "det")
 * with each other: a tie among them would leave most titles without a language.
 */
const VOTING_LANGUAGES = ['eng', 'fre', 'ger', 'spa', 'por', 'ita', 'dut'];
/** Each word languageOfTitleWords counts, with the languages it belongs to (made once from the rows). */
const LANGUAGES_OF_WORD: ReadonlyMap<string, readonly string[]> = (() => {
  const languagesOf = new Map<string, string[]>();
  for (const code of VOTING_LANGUAGES) {
    const row = TITLE_LANGUAGES[code] as TitleLanguage;
    for (const word of new Set([...row.articles, row.and, row.or, ...row.words])) {
      const languages = languagesOf.get(word);
      if (languages === undefined) languagesOf.set(word, [code]);
      else languages.push(code);
    }
  }
  return languagesOf;
})();
/** Words, with "l'" and "d'" (and the like) split off the word they are elided onto. */
const TITLE_WORDS = /\p{L}['’](?=\p{L})|\p{L}+/gu;
/** A language must have at least this many of a title's words to be the title's. */
export const MIN_LANGUAGE_WORDS = 2;

/**
 * The language a title is written in, told from its short words (articles, "and", prepositions) when the
 * record does not say it (no 008, no 041): each word votes for every language it belongs to, and the
 * language with the most votes wins when it has at least MIN_LANGUAGE_WORDS of them and no other has as
 * many. "Le rouge et le noir" is French (le, et, le: three; Italian's le, le: two); "La farce de Maître
 * Pathelin" is told from none (French and Spanish have two each); "Hamlet" from none.
 */
export function languageOfTitleWords(text: string): string | undefined {
  const votes = new Map<string, number>();
  for (const match of text.toLowerCase().matchAll(TITLE_WORDS)) {
    const languages = LANGUAGES_OF_WORD.get(match[0].replace('’', "'"));
    if (languages !== undefined) for (const code of languages) votes.set(code, (votes.get(code) ?? 0) + 1);
  }
  let best: string | undefined;
  let most = 0;
  let tied = false;
  for (const [code, count] of votes) {
    if (count > most) {
      best = code;
      most = count;
      tied = false;
    } else if (count === most) {
      tied = true;
    }
  }
  return most >= MIN_LANGUAGE_WORDS && !tied ? best : undefined;
}

/** Other ways of naming the languages above. */
const LANGUAGE_ALIASES: Readonly<Record<string, string>> = {
  en: 'eng', english: 'eng',
  fr: 'fre', fra: 'fre', french: 'fre',
  de: 'ger', deu: 'ger', german: 'ger',
  es: 'spa', spanish: 'spa',
  pt: 'por', portuguese: 'por',
  it: 'ita', italian: 'ita',
  nl: 'dut', nld: 'dut', dutch: 'dut',
  sv: 'swe', swedish: 'swe',
  da: 'dan', danish: 'dan',
  no: 'nor', nb: 'nor', nn: 'nor', nob: 'nor', nno: 'nor', norwegian: 'nor',
  fi: 'fin', finnish: 'fin',
  ca: 'cat', catalan: 'cat',
};

/**
 * The MARC code of a language written as a MARC or ISO code, a locale or an English name; undefined for
 * what is not one of TITLE_LANGUAGES (`und`, `mul`, `zxx`, a language without a row, blanks).
 */
export function languageCodeOf(language: string | undefined): string | undefined {
  if (language === undefined) return undefined;
  const written = language.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  if (Object.hasOwn(TITLE_LANGUAGES, written)) return written;
  return Object.hasOwn(LANGUAGE_ALIASES, written) ? LANGUAGE_ALIASES[written] : undefined;
}

/** The row of a language code, if it has one. */
export function titleLanguageOf(code: string | undefined): TitleLanguage | undefined {
  return code !== undefined && Object.hasOwn(TITLE_LANGUAGES, code) ? TITLE_LANGUAGES[code] : undefined;
}
