/**
 * The language facts the `extended` title rules need, one row per language: its leading articles, its
 * word for "and" and the word that introduces an alternative title. A record's language comes as a MARC code (008/35-37), an ISO 639-1 code, a locale
 * (`pt-BR`) or an English name (`French`, as VuFind's `language` field holds it); languageCodeOf reads
 * them all to the MARC code.
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
}

/** MARC language code → articles and conjunction. Only languages whose articles we are sure of. */
export const TITLE_LANGUAGES: Readonly<Record<string, TitleLanguage>> = {
  eng: { articles: ['the', 'a', 'an'], and: 'and', or: 'or' },
  fre: { articles: ['le', 'la', 'les', "l'", 'un', 'une'], and: 'et', or: 'ou' },
  ger: { articles: ['der', 'die', 'das', 'ein', 'eine'], and: 'und', or: 'oder' },
  spa: { articles: ['el', 'la', 'los', 'las', 'un', 'una'], and: 'y', or: 'o' },
  por: { articles: ['o', 'a', 'os', 'as', 'um', 'uma'], and: 'e', or: 'ou' },
  ita: { articles: ['il', 'lo', 'la', 'i', 'gli', 'le', "l'", 'un', 'uno', 'una', "un'"], and: 'e', or: 'ossia' },
  dut: { articles: ['de', 'het', 'een', "'t"], and: 'en', or: 'of' },
  swe: { articles: ['en', 'ett', 'den', 'det'], and: 'och', or: 'eller' },
  dan: { articles: ['en', 'et', 'den', 'det'], and: 'og', or: 'eller' },
  nor: { articles: ['en', 'et', 'ei', 'den', 'det'], and: 'og', or: 'eller' },
  fin: { articles: [], and: 'ja', or: 'eli' },
  cat: { articles: ['el', 'la', 'els', 'les', "l'", 'un', 'una'], and: 'i', or: 'o' },
};

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
