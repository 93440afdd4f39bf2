/**
 * The plugin's addresses: the paths it answers and the names of the query parameters it reads and writes
 * (one place: the router, the request reader, the models and the views take them from here), and every URL
 * the feed and the page show, built from the base URL and the request's values. Query values are
 * form-encoded (space as `+`, `:` and `/` percent-encoded) in the parameter order docs/feed.md states.
 */
import { FEED_ROWS } from './paging.js';

/** The versions page's and feed's path, under the base URL or wherever the host mounts the plugin. */
export const VERSIONS_PATH = '/Search/Versions';
/** The health check a deployment's monitor asks (src/http/indexHealth.ts). */
export const HEALTH_PATH = `${VERSIONS_PATH}/health`;
/** The feed's XSLT stylesheet, named by the feed's `<?xml-stylesheet?>` (VuFind's path for it). */
export const FEED_STYLESHEET_PATH = '/themes/root/assets/xsl/rss.xsl';
/** A theme's asset as the router matches it; its URLs are `/themes/<theme>/assets/<file>` (themeAssetPath). */
export const THEME_ASSET_ROUTE = '/themes/:theme/assets/:file';

/** The path of a theme's asset (`theme.css`) as THEME_ASSET_ROUTE answers it. */
export function themeAssetPath(theme: string, file: string): string {
  return `/themes/${theme}/assets/${file}`;
}

/**
 * The query parameters of the versions path, VuFind's names: the record, `search=versions`, the view
 * (`rss` for the feed), the language, the page, the sort, the filters (`filter[]`, or `filter` without
 * brackets when there is no `filter[]`) and the feed's `limit`.
 */
export const VERSIONS_PARAMETERS = {
  id: 'id',
  search: 'search',
  view: 'view',
  language: 'lng',
  page: 'page',
  sort: 'sort',
  limit: 'limit',
  filter: 'filter[]',
  filterWithoutBrackets: 'filter',
} as const;

/** The value of `search` in every versions address (VuFind's search class). */
export const VERSIONS_SEARCH = 'versions';
/** The value of `view` that asks for the feed. */
export const FEED_VIEW = 'rss';

const { id: ID, search: SEARCH, view: VIEW, language: LNG, page: PAGE, sort: SORT, limit: LIMIT, filter: FILTER } = VERSIONS_PARAMETERS;

/** Base URL without its trailing slash, so that `${base}${VERSIONS_PATH}` never doubles one. */
export function trimBaseUrl(baseUrl: string): string {
  // Checked first: every record link of a feed or page trims the same base URL, and it rarely ends in "/".
  return baseUrl.endsWith('/') ? baseUrl.replace(/\/+$/, '') : baseUrl;
}

/** A query string of `params` in their order, exactly as URLSearchParams writes it (formEncoded). */
function query(params: ReadonlyArray<readonly [string, string]>): string {
  let text = '';
  for (let i = 0; i < params.length; i++) {
    const [name, value] = params[i] as readonly [string, string];
    text += `${i > 0 ? '&' : ''}${formEncoded(name)}=${formEncoded(value)}`;
  }
  return text;
}

// For each ASCII character, what the form-urlencoded serializer (the WHATWG URL standard, which
// URLSearchParams follows) writes for it: null for the characters it keeps (letters, digits, `*-._`), `+`
// for a space, otherwise its percent-escape with upper-case hex.
const ASCII_IN_FORM: ReadonlyArray<string | null> = Array.from({ length: 128 }, (_, code) => {
  const character = String.fromCharCode(code);
  if (/[A-Za-z0-9*\-._]/.test(character)) return null;
  return character === ' ' ? '+' : `%${code.toString(16).toUpperCase().padStart(2, '0')}`;
});

/**
 * A query's name or value as URLSearchParams writes it. The links' names and values (record ids, language
 * codes, filters) are mostly ASCII: written from the table in one pass, where a URLSearchParams made and
 * serialized for each link cost more than the rest of the link; a value beyond ASCII goes through it.
 */
function formEncoded(value: string): string {
  return escapedByAsciiTable(value, ASCII_IN_FORM, formEncodedBeyondAscii);
}

function formEncodedBeyondAscii(value: string): string {
  return new URLSearchParams([['', value]]).toString().slice(1);
}

/**
 * `value` with each ASCII character kept (null in `table`) or replaced by its escape from `table`, in one
 * pass; a value with a character beyond ASCII is given whole to `beyondAscii` instead. The one loop of
 * formEncoded and encodePathSegment, which differ only in their tables and their way beyond ASCII.
 */
function escapedByAsciiTable(value: string, table: ReadonlyArray<string | null>, beyondAscii: (value: string) => string): string {
  let encoded = '';
  let from = 0;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code >= 128) return beyondAscii(value);
    const escape = table[code];
    if (escape !== null && escape !== undefined) {
      encoded += value.slice(from, i) + escape;
      from = i + 1;
    }
  }
  return from === 0 ? value : encoded + value.slice(from);
}

const FEED_SORT = 'last_indexed desc';
// The feed's page size as its links name it: the rows of a feed page, stated once in paging.ts.
const FEED_LIMIT = String(FEED_ROWS);

export interface VersionsAddress {
  readonly id: string;
  readonly language: string;
}

/** The HTML view's address as the feed's `<link>` names it: sort, limit, id, search=versions, lng. */
export function versionsLinkUrl(baseUrl: string, { id, language }: VersionsAddress): string {
  return `${trimBaseUrl(baseUrl)}${VERSIONS_PATH}?${query([
    [SORT, FEED_SORT], [LIMIT, FEED_LIMIT], [ID, id], [SEARCH, VERSIONS_SEARCH], [LNG, language],
  ])}`;
}

/**
 * The address a host's own record page or result list links to ("Show all versions (N)"): `id` and
 * `search=versions`, as VuFind's record pages link; the language follows the patron's cookie or session.
 */
export function showVersionsUrl(baseUrl: string, id: string): string {
  return `${trimBaseUrl(baseUrl)}${VERSIONS_PATH}?${query([[ID, id], [SEARCH, VERSIONS_SEARCH]])}`;
}

/** The feed's address: sort, limit, view=rss, id, search=versions, lng, then `page` when given. */
export function versionsFeedUrl(baseUrl: string, { id, language }: VersionsAddress, page?: number): string {
  const params: Array<readonly [string, string]> = [
    [SORT, FEED_SORT], [LIMIT, FEED_LIMIT], [VIEW, FEED_VIEW], [ID, id], [SEARCH, VERSIONS_SEARCH], [LNG, language],
  ];
  if (page !== undefined) params.push([PAGE, String(page)]);
  return `${trimBaseUrl(baseUrl)}${VERSIONS_PATH}?${query(params)}`;
}

/**
 * A whole page number as URLSearchParams writes it: its digits. Every page a link names is one
 * (paging.ts); anything else goes through URLSearchParams with the rest of the query.
 */
const isPlainPageNumber = (page: number): boolean => Number.isSafeInteger(page) && page >= 0;

/**
 * versionsFeedUrl for the pages of one feed: the feed links up to five of its pages, which differ only in
 * the `page` that ends the address, so the rest is written once.
 */
export function versionsFeedUrls(baseUrl: string, address: VersionsAddress): (page?: number) => string {
  const first = versionsFeedUrl(baseUrl, address);
  return (page) => {
    if (page === undefined) return first;
    return isPlainPageNumber(page) ? `${first}&${PAGE}=${page}` : versionsFeedUrl(baseUrl, address, page);
  };
}

/** The page's own parameters after `id` and `search`: `sort` when it is not the default, then each `filter[]`. */
function pageSortParams(sort: string | undefined, filters: readonly string[] = []): Array<readonly [string, string]> {
  return [...(sort !== undefined && sort !== 'relevance' ? [[SORT, sort] as const] : []), ...filters.map((filter) => [FILTER, filter] as const)];
}

/** A link from the HTML page to another page of itself: `?id=…&search=versions[&sort=…]&page=N`, then `lng` when given. */
export function versionsPageHref(id: string, page: number, language?: string, sort?: string, filters?: readonly string[]): string {
  const params: Array<readonly [string, string]> = [[ID, id], [SEARCH, VERSIONS_SEARCH], ...pageSortParams(sort, filters), [PAGE, String(page)]];
  if (language !== undefined) params.push([LNG, language]);
  return `?${query(params)}`;
}

// `filter[]` as a query names it, written once for the facet links of every page.
const FILTER_NAME = formEncoded(FILTER);

/**
 * versionsPageHref for the links of one page (its pages, its facets' values), which share the record,
 * language and sort and differ in the page and filters: what they share is written once.
 */
export function versionsPageHrefs(id: string, language?: string, sort?: string): (page: number, filters?: readonly string[]) => string {
  const head = query([[ID, id], [SEARCH, VERSIONS_SEARCH], ...pageSortParams(sort)]);
  const tail = language !== undefined ? `&${query([[LNG, language]])}` : '';
  return (page, filters = []) => {
    if (!isPlainPageNumber(page)) return versionsPageHref(id, page, language, sort, filters);
    let filterPart = '';
    for (const filter of filters) filterPart += `&${FILTER_NAME}=${formEncoded(filter)}`;
    return `?${head}${filterPart}&${PAGE}=${page}${tail}`;
  };
}

/** The HTML page in another language, on the same page: `?id=…&search=versions[&sort=…][&page=N]&lng=…`. */
export function versionsLanguageHref(id: string, page: number, language: string, sort?: string, filters?: readonly string[]): string {
  const params: Array<readonly [string, string]> = [[ID, id], [SEARCH, VERSIONS_SEARCH], ...pageSortParams(sort, filters)];
  if (page > 1) params.push([PAGE, String(page)]);
  params.push([LNG, language]);
  return `?${query(params)}`;
}

/** versionsLanguageHref for each language of one page: everything before `lng` is the same and written once. */
export function versionsLanguageHrefs(id: string, page: number, sort?: string, filters?: readonly string[]): (language: string) => string {
  const params: Array<readonly [string, string]> = [[ID, id], [SEARCH, VERSIONS_SEARCH], ...pageSortParams(sort, filters)];
  if (page > 1) params.push([PAGE, String(page)]);
  const head = query(params);
  return (language) => `?${head}&${query([[LNG, language]])}`;
}

// RFC 3986 pchar minus the unreserved characters that encodeURIComponent already leaves alone:
// sub-delims, ":" and "@" are legal in a path segment and stay readable.
const PATH_SAFE_ESCAPES: Readonly<Record<string, string>> = {
  '%24': '$', '%26': '&', '%2B': '+', '%2C': ',', '%3B': ';', '%3D': '=', '%3A': ':', '%40': '@',
};

// A lone surrogate has no UTF-8 form (encodeURIComponent throws on it); URLSearchParams writes U+FFFD for
// it, and so does a record link.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

// Characters that come out of encodePathSegment as they went in: those encodeURIComponent leaves alone and
// those PATH_SAFE_ESCAPES restores.
const UNCHANGED_IN_PATH = /[A-Za-z0-9\-_.!~*'()$&+,;=:@]/;

// For each ASCII character, what a path segment holds for it: null for one of UNCHANGED_IN_PATH, otherwise
// its percent-escape as encodeURIComponent writes it (upper-case hex).
const ASCII_IN_PATH: ReadonlyArray<string | null> = Array.from({ length: 128 }, (_, code) => (
  UNCHANGED_IN_PATH.test(String.fromCharCode(code)) ? null : `%${code.toString(16).toUpperCase().padStart(2, '0')}`
));

/** One path segment holding `value`, with each path-unsafe character percent-encoded. */
export function encodePathSegment(value: string): string {
  // "." and ".." would be removed by URL normalisation (RFC 3986 section 5.2.4), so they are encoded too.
  if (value === '.' || value === '..') return value.replaceAll('.', '%2E');
  // Most record ids (`usp:123`, `oai:repo.example:4/5`) are ASCII: each character is kept or replaced by
  // its escape from the table, in one pass, without encodeURIComponent and the pass that undoes some of it.
  return escapedByAsciiTable(value, ASCII_IN_PATH, encodeNonAsciiPathSegment);
}

/** encodePathSegment of a value with characters beyond ASCII: their UTF-8 bytes percent-encoded. */
function encodeNonAsciiPathSegment(value: string): string {
  return encodeURIComponent(value.replace(LONE_SURROGATE, '\uFFFD')).replace(/%(24|26|2B|2C|3B|3D|3A|40)/g, (escape) => PATH_SAFE_ESCAPES[escape] ?? escape);
}

/** The host's record page: `{base_url}/Record/<id>`. */
export function recordUrl(baseUrl: string, id: string): string {
  return `${trimBaseUrl(baseUrl)}/Record/${encodePathSegment(id)}`;
}

/**
 * The catalog's home (the catalogHomeUrl option: an absolute http(s) URL or a path on this site), with
 * `lng=<language>` set when a language is given, for links that change the language on the way home.
 */
export function catalogHomeHref(home: string, language?: string): string {
  if (language === undefined) return home;
  const isPath = home.startsWith('/');
  const url = new URL(home, 'http://path.invalid');
  url.searchParams.set(LNG, language);
  return isPath ? `${url.pathname}${url.search}${url.hash}` : url.href;
}
