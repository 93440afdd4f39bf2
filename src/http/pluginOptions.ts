/**
 * The plugin's options, parsed once when the plugin is created: defaults filled in, every value checked,
 * and a bad one rejected with an InvalidOptionError that names it. The rest of the plugin reads the typed
 * PluginConfig and never re-checks.
 */
import { existsSync, statSync } from 'node:fs';
import { InvalidOptionError } from '../errors.js';
import type { ServerTimeZone } from '../feed/rfc822Date.js';
import type { CatalogIndex } from '../ports.js';
import { DEFAULT_LANGUAGE, SHIPPED_LANGUAGES } from '../i18n/languages.js';
import { checkedTimeZone, isCatalogIndex, parseBaseUrl, parseCatalogHomeUrl, nonEmptyText } from './optionValueChecks.js';

export interface PluginLogger {
  error(message: string, details?: Record<string, unknown>): void;
  warn(message: string, details?: Record<string, unknown>): void;
}

/**
 * The options createVersionsPlugin takes (their defaults, types as documented and checks: PLUGIN_OPTIONS
 * below, which docs/options.md shows).
 */
export interface VersionsPluginOptions {
  /** The catalog index: openEmbeddedIndex(…), createSolrIndex(…) or any CatalogIndex. */
  index: CatalogIndex;
  /** Public address of the catalog, e.g. `https://catalog.example.edu`. */
  baseUrl?: string;
  /** Site title in page titles (not translated). */
  siteTitle?: string;
  /** Who the error page tells patrons to contact. */
  contact?: string;
  /**
   * The catalog's home page, linked from the site name on every page and from the error page: an absolute
   * http(s) URL or a path on this site (`/vufind/`).
   */
  catalogHomeUrl?: string;
  /** Offered interface languages, in order (the shipped ones: src/i18n/languages.ts). */
  languages?: string[];
  /** Language when nothing else decides. */
  defaultLanguage?: string;
  /** `ui` cookie value → theme name. */
  themes?: Record<string, string>;
  /** The `ui` value used when the cookie is missing or unknown. */
  defaultUi?: string;
  /** Extra folders holding themes (one sub-folder per theme), searched before the shipped themes. */
  themeDirectories?: string[];
  /** Key of the language in the host's `ctx.session`. */
  sessionLanguageKey?: string;
  /** Where causes of errors go. */
  logger?: PluginLogger;
  /** Cache compiled templates (turn off while editing templates). */
  cacheTemplates?: boolean;
  /**
   * Memory for finished answers (feeds and pages) reused until the index's content changes, in megabytes;
   * 0 turns the reuse off. Used with indexes that report a content version (the embedded one).
   */
  answerCacheMegabytes?: number;
  /** The clock (tests pass a fixed one). */
  now?: () => Date;
  /**
   * The server's time zone for feed dates: an IANA zone name (`America/Sao_Paulo`, `Europe/Lisbon`) or a
   * ServerTimeZone object.
   */
  timeZone?: ServerTimeZone | string;
  /**
   * The embedded index's file, for the health check (`GET /Search/Versions/health`): it then also reports
   * `missing` when the file is gone or was replaced since the plugin started.
   */
  indexFile?: string;
}

export interface PluginConfig {
  readonly index: CatalogIndex;
  readonly baseUrl: string | undefined;
  readonly siteTitle: string;
  readonly contact: string;
  readonly catalogHomeUrl: string;
  readonly languages: readonly string[];
  readonly defaultLanguage: string;
  readonly themes: Readonly<Record<string, string>>;
  readonly defaultUi: string;
  readonly themeDirectories: readonly string[];
  readonly sessionLanguageKey: string;
  readonly logger: PluginLogger;
  readonly cacheTemplates: boolean;
  /** 0: answers are built for every request. */
  readonly answerCacheBytes: number;
  readonly now: () => Date;
  readonly timeZone: ServerTimeZone;
  readonly indexFile: string | undefined;
}

const consoleLogger: PluginLogger = {
  error: (message, details) => console.error(`[koa-catalog-versions] ${message}`, details ?? ''),
  warn: (message, details) => console.warn(`[koa-catalog-versions] ${message}`, details ?? ''),
};

/** What docs/options.md, the README and plugin.json show as an option's default. */
export type OptionDefault =
  | { readonly required: true }
  /**
   * A value, written as it is into plugin.json and as code (`64`, `['en', 'pt-br', 'es']`) into the docs;
   * taken when the option is absent (undefined), or also null when `nullIsAbsent`.
   */
  | { readonly value: unknown; readonly nullIsAbsent?: true }
  /** A default that depends on the request or the other options, in words. */
  | { readonly described: string };

/** What parsing gives the later options' checks: the languages and themes, which their defaults must be among. */
interface ParsedEarlier {
  languages?: readonly string[];
  themes?: Readonly<Record<string, string>>;
}

/** One option of createVersionsPlugin: how plugin.json and the docs describe it, and its check. */
export interface PluginOptionDefinition {
  /** The type as plugin.json states it. */
  readonly type: string;
  readonly default: OptionDefault;
  /** One line: what it is for (plugin.json's description, the README's meaning). */
  readonly meaning: string;
  /**
   * Checks the value given (a `value` default in its place when none was: `given` says which) and gives
   * what PluginConfig holds; throws InvalidOptionError naming the option.
   */
  readonly parse: (value: unknown, earlier: ParsedEarlier, given: boolean) => unknown;
}

const DEFAULT_THEMES: Readonly<Record<string, string>> = { standard: 'standard', mobile: 'mobile' };
const THEME_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Every option of createVersionsPlugin, in the order the docs list them and the checks run: the one table
 * the checker, PLUGIN_OPTION_NAMES and the types' names come from; tests hold plugin.json, docs/options.md
 * and the README's table to it (test/http/pluginOptionDefinitions.test.ts).
 */
export const PLUGIN_OPTIONS = {
  index: {
    type: 'CatalogIndex', default: { required: true }, meaning: '`openEmbeddedIndex(…)`, `createSolrIndex(…)` or any `CatalogIndex`',
    parse: (value) => {
      if (!isCatalogIndex(value)) throw new InvalidOptionError('index', 'must be a catalog index with getRecord() and findVersions() (openEmbeddedIndex or createSolrIndex)');
      return value;
    },
  },
  baseUrl: {
    type: 'string (absolute http(s) URL)', default: { described: 'the request\'s origin and path prefix' },
    meaning: 'public address of the catalog, with its path prefix (`https://library.example.edu/vufind`); every link starts with it (set it in production)',
    parse: parseBaseUrl,
  },
  siteTitle: {
    type: 'string', default: { value: 'Library Catalog' }, meaning: 'end of every page title, not translated',
    parse: (value) => nonEmptyText('siteTitle', value),
  },
  contact: {
    type: 'string', default: { value: 'Library Reference Department' }, meaning: 'whom the error page tells patrons to contact',
    parse: (value) => nonEmptyText('contact', value),
  },
  catalogHomeUrl: {
    type: 'string (absolute http(s) URL, or a path starting with /)', default: { value: '/' },
    meaning: 'the catalog\'s home page, linked from the site name on every page and from the error page',
    parse: parseCatalogHomeUrl,
  },
  languages: {
    type: 'string[]', default: { value: SHIPPED_LANGUAGES, nullIsAbsent: true }, meaning: 'offered languages, in switch order',
    parse: (value) => {
      if (!Array.isArray(value) || value.length === 0) throw new InvalidOptionError('languages', 'must be a non-empty array of language codes');
      return value.map((code: unknown) => {
        const lower = typeof code === 'string' ? code.toLowerCase() : code;
        if (!(SHIPPED_LANGUAGES as readonly unknown[]).includes(lower)) {
          throw new InvalidOptionError('languages', `unknown language ${JSON.stringify(code)}; available: ${SHIPPED_LANGUAGES.join(', ')}`);
        }
        return lower as string;
      });
    },
  },
  defaultLanguage: {
    type: 'string', default: { value: DEFAULT_LANGUAGE }, meaning: 'the language when nothing else decides',
    parse: (value, { languages = [] }) => {
      const defaultLanguage = nonEmptyText('defaultLanguage', value).toLowerCase();
      if (!languages.includes(defaultLanguage)) {
        throw new InvalidOptionError('defaultLanguage', `${JSON.stringify(defaultLanguage)} is not one of languages (${languages.join(', ')})`);
      }
      return defaultLanguage;
    },
  },
  themes: {
    type: 'Record<string, string>', default: { value: DEFAULT_THEMES, nullIsAbsent: true }, meaning: '`ui` cookie value → theme',
    parse: (value) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value) || Object.keys(value).length === 0) {
        throw new InvalidOptionError('themes', 'must map ui cookie values to theme names, e.g. { standard: "standard" }');
      }
      for (const [ui, theme] of Object.entries(value)) {
        if (!THEME_NAME.test(ui)) throw new InvalidOptionError('themes', `ui value ${JSON.stringify(ui)} must be 1-64 letters, digits, '-' or '_'`);
        if (typeof theme !== 'string' || !THEME_NAME.test(theme)) throw new InvalidOptionError('themes', `theme name for ui ${JSON.stringify(ui)} must be 1-64 letters, digits, '-' or '_'`);
      }
      return { ...(value as Record<string, string>) };
    },
  },
  defaultUi: {
    type: 'string', default: { value: 'standard' }, meaning: '`ui` value for a missing or unknown cookie (the first key of `themes` when `standard` is not one)',
    parse: (value, { themes = DEFAULT_THEMES }, given) => {
      const defaultUi = !given && !Object.hasOwn(themes, 'standard') ? Object.keys(themes)[0] ?? 'standard' : nonEmptyText('defaultUi', value);
      if (!Object.hasOwn(themes, defaultUi)) throw new InvalidOptionError('defaultUi', `${JSON.stringify(defaultUi)} is not a key of themes`);
      return defaultUi;
    },
  },
  themeDirectories: {
    type: 'string[]', default: { value: [], nullIsAbsent: true }, meaning: 'folders with more themes, searched first',
    parse: (value) => {
      if (!Array.isArray(value)) throw new InvalidOptionError('themeDirectories', 'must be an array of folder paths');
      for (const folder of value) {
        if (typeof folder !== 'string' || !existsSync(folder) || !statSync(folder).isDirectory()) {
          throw new InvalidOptionError('themeDirectories', `${JSON.stringify(folder)} is not a folder`);
        }
      }
      return [...(value as string[])];
    },
  },
  sessionLanguageKey: {
    type: 'string', default: { value: 'language' }, meaning: 'key of the language in the host\'s `ctx.session`',
    parse: (value) => nonEmptyText('sessionLanguageKey', value),
  },
  logger: {
    type: '{ error(message, details), warn(message, details) }', default: { described: 'console' }, meaning: '`{ error, warn }`: where causes of errors go',
    parse: (value) => {
      const logger = (value ?? consoleLogger) as Partial<PluginLogger>;
      if (typeof logger.error !== 'function' || typeof logger.warn !== 'function') throw new InvalidOptionError('logger', 'must have error() and warn() methods');
      return logger as PluginLogger;
    },
  },
  cacheTemplates: {
    type: 'boolean', default: { value: true }, meaning: 'keep compiled templates (turn off while editing them)',
    parse: (value) => {
      if (typeof value !== 'boolean') throw new InvalidOptionError('cacheTemplates', 'must be true or false');
      return value;
    },
  },
  answerCacheMegabytes: {
    type: 'number (0 to 65536; 0 turns it off)', default: { value: 64, nullIsAbsent: true },
    meaning: 'memory for finished answers kept until the index changes; `0` turns it off',
    parse: (value) => {
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 65_536) {
        throw new InvalidOptionError('answerCacheMegabytes', `must be a number of megabytes from 0 (off) to 65536, got ${JSON.stringify(value)}`);
      }
      return value;
    },
  },
  now: {
    type: '() => Date', default: { described: 'the system clock' }, meaning: 'the clock for feed dates',
    parse: (value) => {
      if (value !== undefined && typeof value !== 'function') throw new InvalidOptionError('now', 'must be a function returning a Date');
      return (value ?? (() => new Date())) as () => Date;
    },
  },
  timeZone: {
    type: 'ServerTimeZone', default: { described: 'the process\'s time zone' }, meaning: 'the zone of the feed\'s `pubDate` offsets',
    parse: checkedTimeZone,
  },
  indexFile: {
    type: 'string (a file path)', default: { described: 'none' },
    meaning: 'the embedded index\'s file: the health check also says when it is gone or was replaced',
    parse: (value) => (value === undefined ? undefined : nonEmptyText('indexFile', value)),
  },
} as const satisfies { readonly [Name in keyof Required<VersionsPluginOptions>]: PluginOptionDefinition };

type PluginOptionName = keyof typeof PLUGIN_OPTIONS;

/** The names createVersionsPlugin accepts, from PLUGIN_OPTIONS. */
export const PLUGIN_OPTION_NAMES: ReadonlySet<string> = new Set(Object.keys(PLUGIN_OPTIONS));

/** Each option as its check gives it. */
type ParsedOptions = { -readonly [Name in PluginOptionName]: ReturnType<(typeof PLUGIN_OPTIONS)[Name]['parse']> };

export function parsePluginOptions(options: VersionsPluginOptions): PluginConfig {
  if (options === null || typeof options !== 'object') throw new InvalidOptionError('options', 'give an options object with at least `index`');
  for (const name of Object.keys(options)) {
    if (!PLUGIN_OPTION_NAMES.has(name)) throw new InvalidOptionError(name, `is not an option of createVersionsPlugin (known: ${[...PLUGIN_OPTION_NAMES].join(', ')})`);
  }
  const given = options as unknown as Readonly<Record<PluginOptionName, unknown>>;
  const parsed: Partial<Record<PluginOptionName, unknown>> = {};
  for (const name of Object.keys(PLUGIN_OPTIONS) as PluginOptionName[]) {
    const definition: PluginOptionDefinition = PLUGIN_OPTIONS[name];
    const { default: byDefault } = definition;
    const absent = given[name] === undefined || (given[name] === null && 'nullIsAbsent' in byDefault);
    parsed[name] = definition.parse(absent && 'value' in byDefault ? byDefault.value : given[name], parsed as ParsedEarlier, !absent);
  }
  const { answerCacheMegabytes, ...config } = parsed as ParsedOptions;
  return { ...config, answerCacheBytes: Math.floor(answerCacheMegabytes * 1024 * 1024) };
}
