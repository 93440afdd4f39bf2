/**
 * The query parameters the versions route reads, with the values Koa's `ctx.query` gives them (the
 * WHATWG form-urlencoded rules of URLSearchParams: `+` is a space, %-escapes decoded as UTF-8, a
 * repeated name a list), read in one pass over the query string without building the whole object that
 * `ctx.query` builds for every parameter. Their names are VERSIONS_PARAMETERS' (src/versions/versionsUrls.ts);
 * what the values mean is left to src/versions/ and versionsRoute.ts; a host reading `ctx.query` itself
 * still gets Koa's object, and once a host has read it (and may have changed it), the route reads that
 * object instead (parametersOfParsedQuery).
 */
import { VERSIONS_PARAMETERS } from '../versions/versionsUrls.js';

const { id: ID, view: VIEW, language: LNG, page: PAGE, sort: SORT, filter: FILTER, filterWithoutBrackets: FILTER_WITHOUT_BRACKETS } = VERSIONS_PARAMETERS;

/** The versions route's parameters as a request gives them (strings, unchecked): what they ask is decided in src/versions/. */
export interface VersionsRequestParameters {
  /** The first value of each parameter, as `firstValue(ctx.query.name)` reads it; `lng` is the language. */
  readonly id: string | undefined;
  readonly view: string | undefined;
  readonly lng: string | undefined;
  readonly page: string | undefined;
  readonly sort: string | undefined;
  /** Every value of `filter[]`, or when there is none, of `filter` (VuFind writes both). */
  readonly filters: readonly string[];
}

/** A parameter's name or value as URLSearchParams decodes it. */
function decoded(text: string): string {
  if (text.indexOf('%') < 0 && text.indexOf('+') < 0) return text;
  const spaced = text.indexOf('+') < 0 ? text : text.replace(/\+/g, ' ');
  try {
    // Identical to URLSearchParams for text whose escapes are well-formed UTF-8; it throws otherwise.
    return decodeURIComponent(spaced);
  } catch {
    // Broken escapes: URLSearchParams keeps a lone `%` as it is and decodes bad UTF-8 to U+FFFD.
    return new URLSearchParams(`a=${text}`).get('a') ?? '';
  }
}

/** The parameters of a query string (without its `?`), as `ctx.query` would give them. */
export function parametersOfQuerystring(querystring: string): VersionsRequestParameters {
  let id: string | undefined;
  let view: string | undefined;
  let lng: string | undefined;
  let page: string | undefined;
  let sort: string | undefined;
  let filterList: string[] | undefined;
  let bracketList: string[] | undefined;
  // URLSearchParams drops one leading `?` (a request for `/Search/Versions??id=…`).
  let start = querystring.startsWith('?') ? 1 : 0;
  while (start <= querystring.length) {
    let end = querystring.indexOf('&', start);
    if (end < 0) end = querystring.length;
    if (end > start) {
      const equals = querystring.indexOf('=', start);
      const nameEnd = equals >= 0 && equals < end ? equals : end;
      const name = decoded(querystring.slice(start, nameEnd));
      const value = () => (nameEnd === end ? '' : decoded(querystring.slice(nameEnd + 1, end)));
      switch (name) {
        case ID: if (id === undefined) id = value(); break;
        case VIEW: if (view === undefined) view = value(); break;
        case LNG: if (lng === undefined) lng = value(); break;
        case PAGE: if (page === undefined) page = value(); break;
        case SORT: if (sort === undefined) sort = value(); break;
        case FILTER: (bracketList ??= []).push(value()); break;
        case FILTER_WITHOUT_BRACKETS: (filterList ??= []).push(value()); break;
        default: break;
      }
    }
    start = end + 1;
  }
  return { id, view, lng, page, sort, filters: bracketList ?? filterList ?? [] };
}

type ParsedQuery = Readonly<Record<string, string | string[] | undefined>>;

/** The first value of a query parameter that may be repeated (`?id=a&id=b` names record `a`). */
export function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The same parameters from Koa's parsed `ctx.query`. */
export function parametersOfParsedQuery(query: ParsedQuery): VersionsRequestParameters {
  const filters = query[FILTER] ?? query[FILTER_WITHOUT_BRACKETS];
  return {
    id: firstValue(query[ID]), view: firstValue(query[VIEW]), lng: firstValue(query[LNG]), page: firstValue(query[PAGE]), sort: firstValue(query[SORT]),
    filters: filters === undefined ? [] : Array.isArray(filters) ? filters : [filters],
  };
}
