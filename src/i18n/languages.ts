/**
 * The languages the plugin ships: the one table of them. Each row is a language whose labels are
 * `i18n/<code>.json`; the order is the default `languages` option's (the language switch's order), and
 * the first row is the default `defaultLanguage`. What each language calls itself is its label
 * `language.name`, in its file.
 *
 * Read by the options (src/http/pluginOptions.ts). plugin.json, docs/languages.md, the README, the label
 * files and the demo's languages are held to it by test/i18n/languageTable.test.ts. Choosing a request's
 * language is resolveLanguage.ts's business, loading the label files labelCatalogs.ts's.
 */

export interface ShippedLanguage {
  /** Lower-case language tag: the `lng` value, `<html lang>` and the label file's name. */
  readonly code: string;
  /** The language's name in English, as plugin.json's description and docs/languages.md say it. */
  readonly englishName: string;
}

export const LANGUAGE_TABLE = [
  { code: 'en', englishName: 'English' },
  { code: 'pt-br', englishName: 'Brazilian Portuguese' },
  { code: 'es', englishName: 'Spanish' },
] as const satisfies readonly ShippedLanguage[];

export type ShippedLanguageCode = (typeof LANGUAGE_TABLE)[number]['code'];

/** The shipped codes, in the table's order: the default `languages` option. */
export const SHIPPED_LANGUAGES: readonly ShippedLanguageCode[] = LANGUAGE_TABLE.map(({ code }) => code);

/** The default `defaultLanguage` option: the table's first language. */
export const DEFAULT_LANGUAGE: ShippedLanguageCode = LANGUAGE_TABLE[0].code;
