/**
 * The plugin's options, parsed once when the plugin is created: defaults filled in, every value checked,
 * and a bad one rejected with an InvalidOptionError that names it. The rest of the plugin reads the typed
 * PluginConfig and never re-checks.
 */
import { existsSync, statSync } from 'node:fs';
import { describeValue, InvalidOptionError } from '../errors.js';
import type { ServerTimeZone } from '../feed/rfc822Date.js';
import { ianaTimeZone, processTimeZone } from '../feed/rfc822Date.js';
import type { CatalogIndex } from '../ports.js';
import { DEFAULT_LANGUAGE, SHIPPED_LANGUAGES } from '../i18n/languages.js';

export interface PluginLogger {
  error(message: string, details?: Record<string, unknown>): void;
  warn(message: string, details?: Record<string, unknown>): void;
}

export interface VersionsPluginOptions {
  /** The catalog index: openEmbeddedIndex(…), createSolrIndex(…) or any CatalogIndex. */
  index: CatalogIndex;
  /** Public address of the catalog, e.g. `https://catalog.example.edu`; default: the request's own origin. */
  baseUrl?: string;
  /** Site title in page titles (not translated). Default `Library Catalog`. */
  siteTitle?: string;
  /** Who the error page tells patrons to contact. Default `Library Reference Department`. */
  contact?: string;
  /**
   * The catalog's home page, linked from the site name on every page and from the error page: an absolute
   * http(s) URL or a path on this site (`/vufind/`). Default `/`.
   */
  catalogHomeUrl?: string;
  /** Offered interface languages, in order. Default: every shipped language (src/i18n/languages.ts), `['en', 'pt-br', 'es']`. */
  languages?: string[];
  /** Language when nothing else decides. Default: the first shipped language, `en`. */
  defaultLanguage?: string;
  /** `ui` cookie value → theme name. Default `{ standard: 'standard', mobile: 'mobile' }`. */
  themes?: Record<string, string>;
  /** The `ui` value used when the cookie is missing or unknown. Default `standard`. */
  defaultUi?: string;
  /** Extra folders holding themes (one sub-folder per theme), searched before the shipped themes. */
  themeDirectories?: string[];
  /** Key of the language in the host's `ctx.session`. Default `language`. */
  sessionLanguageKey?: string;
  /** Where causes of errors go. Default: console. */
  logger?: PluginLogger;
  /** Cache compiled templates (turn off while editing templates). Default true. */
  cacheTemplates?: boolean;
  /**
   * Memory for finished answers (feeds and pages) reused until the index's content changes, in megabytes;
   * 0 turns the reuse off. Used with indexes that report a content version (the embedded one). Default 64.
   */
  answerCacheMegabytes?: number;
  /** The clock (tests pass a fixed one). Default: the system clock. */
  now?: () => Date;
  /**
   * The server's time zone for feed dates: an IANA zone name (`America/Sao_Paulo`, `Europe/Lisbon`) or a
   * ServerTimeZone object. Default: the process's.
   */
  timeZone?: ServerTimeZone | string;
  /**
   * The embedded index's file, for the health check (`GET /Search/Versions/health`): it then also reports
   * `missing` when the file is gone or was replaced since the plugin started. Default: none.
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

/** The names createVersionsPlugin accepts (plugin.json and the README list the same). */
export const PLUGIN_OPTION_NAMES: ReadonlySet<string> = new Set([
  'index', 'baseUrl', 'siteTitle', 'contact', 'catalogHomeUrl', 'languages', 'defaultLanguage', 'themes', 'defaultUi',
  'themeDirectories', 'sessionLanguageKey', 'logger', 'cacheTemplates', 'answerCacheMegabytes', 'now', 'timeZone', 'indexFile',
]);

function text(name: string, value: unknown, fallback: string): string {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || value.trim() === '') throw new InvalidOptionError(name, `must be a non-empty string, got ${JSON.stringify(value)}`);
  return value;
}

function parseBaseUrl(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new InvalidOptionError('baseUrl', `must be a string URL, got ${typeof value}`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidOptionError('baseUrl', `must be an absolute http(s) URL, got ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidOptionError('baseUrl', `must use http or https, got ${url.protocol}`);
  if (url.search !== '' || url.hash !== '') throw new InvalidOptionError('baseUrl', 'must not carry a query or a fragment');
  return url.href.replace(/\/+$/, '');
}

/**
 * The home link: an absolute http(s) URL, or a path on this site. A path must start with one `/`
 * (`//host` would leave the site), and neither may hold spaces or control characters, which browsers
 * strip or mangle.
 */
function parseCatalogHomeUrl(value: unknown): string {
  if (value === undefined) return '/';
  const problem = 'must be an absolute http(s) URL or a path starting with "/"';
  if (typeof value !== 'string' || value === '' || /[\s\u0000-\u001f\u007f\\]/.test(value)) {
    throw new InvalidOptionError('catalogHomeUrl', `${problem}, got ${JSON.stringify(value)}`);
  }
  if (value.startsWith('/')) {
    if (value.startsWith('//')) throw new InvalidOptionError('catalogHomeUrl', `${problem}; "//" leaves the site, got ${JSON.stringify(value)}`);
    return value;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidOptionError('catalogHomeUrl', `${problem}, got ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidOptionError('catalogHomeUrl', `must use http or https, got ${url.protocol}`);
  return url.href;
}

function isCatalogIndex(value: unknown): value is CatalogIndex {
  const index = value as Partial<CatalogIndex> | null;
  return typeof index === 'object' && index !== null && typeof index.getRecord === 'function' && typeof index.findVersions === 'function';
}

export function parsePluginOptions(options: VersionsPluginOptions): PluginConfig {
  if (options === null || typeof options !== 'object') throw new InvalidOptionError('options', 'give an options object with at least `index`');
  for (const name of Object.keys(options)) {
    if (!PLUGIN_OPTION_NAMES.has(name)) throw new InvalidOptionError(name, `is not an option of createVersionsPlugin (known: ${[...PLUGIN_OPTION_NAMES].join(', ')})`);
  }
  if (!isCatalogIndex(options.index)) throw new InvalidOptionError('index', 'must be a catalog index with getRecord() and findVersions() (openEmbeddedIndex or createSolrIndex)');

  const languages = options.languages ?? [...SHIPPED_LANGUAGES];
  if (!Array.isArray(languages) || languages.length === 0) throw new InvalidOptionError('languages', 'must be a non-empty array of language codes');
  const normalisedLanguages = languages.map((code) => {
    const lower = typeof code === 'string' ? code.toLowerCase() : code;
    if (!(SHIPPED_LANGUAGES as readonly unknown[]).includes(lower)) {
      throw new InvalidOptionError('languages', `unknown language ${JSON.stringify(code)}; available: ${SHIPPED_LANGUAGES.join(', ')}`);
    }
    return lower as string;
  });
  const defaultLanguage = text('defaultLanguage', options.defaultLanguage, DEFAULT_LANGUAGE).toLowerCase();
  if (!normalisedLanguages.includes(defaultLanguage)) {
    throw new InvalidOptionError('defaultLanguage', `${JSON.stringify(defaultLanguage)} is not one of languages (${normalisedLanguages.join(', ')})`);
  }

  const themes = options.themes ?? { standard: 'standard', mobile: 'mobile' };
  if (typeof themes !== 'object' || themes === null || Array.isArray(themes) || Object.keys(themes).length === 0) {
    throw new InvalidOptionError('themes', 'must map ui cookie values to theme names, e.g. { standard: "standard" }');
  }
  for (const [ui, theme] of Object.entries(themes)) {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(ui)) throw new InvalidOptionError('themes', `ui value ${JSON.stringify(ui)} must be 1-64 letters, digits, '-' or '_'`);
    if (typeof theme !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(theme)) throw new InvalidOptionError('themes', `theme name for ui ${JSON.stringify(ui)} must be 1-64 letters, digits, '-' or '_'`);
  }
  const defaultUi = text('defaultUi', options.defaultUi, Object.hasOwn(themes, 'standard') ? 'standard' : Object.keys(themes)[0] ?? 'standard');
  if (!Object.hasOwn(themes, defaultUi)) throw new InvalidOptionError('defaultUi', `${JSON.stringify(defaultUi)} is not a key of themes`);

  const themeDirectories = options.themeDirectories ?? [];
  if (!Array.isArray(themeDirectories)) throw new InvalidOptionError('themeDirectories', 'must be an array of folder paths');
  for (const folder of themeDirectories) {
    if (typeof folder !== 'string' || !existsSync(folder) || !statSync(folder).isDirectory()) {
      throw new InvalidOptionError('themeDirectories', `${JSON.stringify(folder)} is not a folder`);
    }
  }

  const logger = options.logger ?? consoleLogger;
  if (typeof logger.error !== 'function' || typeof logger.warn !== 'function') throw new InvalidOptionError('logger', 'must have error() and warn() methods');
  if (options.now !== undefined && typeof options.now !== 'function') throw new InvalidOptionError('now', 'must be a function returning a Date');
  if (options.cacheTemplates !== undefined && typeof options.cacheTemplates !== 'boolean') throw new InvalidOptionError('cacheTemplates', 'must be true or false');
  const answerCacheMegabytes = options.answerCacheMegabytes ?? 64;
  if (typeof answerCacheMegabytes !== 'number' || !Number.isFinite(answerCacheMegabytes) || answerCacheMegabytes < 0 || answerCacheMegabytes > 65_536) {
    throw new InvalidOptionError('answerCacheMegabytes', `must be a number of megabytes from 0 (off) to 65536, got ${JSON.stringify(options.answerCacheMegabytes)}`);
  }

  return {
    index: options.index,
    baseUrl: parseBaseUrl(options.baseUrl),
    siteTitle: text('siteTitle', options.siteTitle, 'Library Catalog'),
    contact: text('contact', options.contact, 'Library Reference Department'),
    catalogHomeUrl: parseCatalogHomeUrl(options.catalogHomeUrl),
    languages: normalisedLanguages,
    defaultLanguage,
    themes: { ...themes },
    defaultUi,
    themeDirectories: [...themeDirectories],
    sessionLanguageKey: text('sessionLanguageKey', options.sessionLanguageKey, 'language'),
    logger,
    cacheTemplates: options.cacheTemplates ?? true,
    answerCacheBytes: Math.floor(answerCacheMegabytes * 1024 * 1024),
    now: options.now ?? (() => new Date()),
    timeZone: checkedTimeZone(options.timeZone),
    indexFile: options.indexFile === undefined ? undefined : text('indexFile', options.indexFile, ''),
  };
}

/** The `timeZone` option: an IANA zone name Node knows, or an object with both ServerTimeZone methods. */
function checkedTimeZone(value: unknown): ServerTimeZone {
  if (value === undefined) return processTimeZone;
  if (typeof value === 'string') {
    try {
      return ianaTimeZone(value);
    } catch {
      throw new InvalidOptionError('timeZone', `${JSON.stringify(value)} is not an IANA time zone name (e.g. America/Sao_Paulo, Europe/Lisbon, UTC)`);
    }
  }
  const zone = value as Partial<ServerTimeZone> | null;
  if (typeof zone === 'object' && zone !== null && typeof zone.timeOfDay === 'function' && typeof zone.offsetMinutesOnNewYear === 'function') {
    return zone as ServerTimeZone;
  }
  throw new InvalidOptionError('timeZone', `must be an IANA time zone name (e.g. America/Sao_Paulo) or an object with timeOfDay() and offsetMinutesOnNewYear(), got ${describeValue(value)}`);
}
