/**
 * The parameters of a Solr request: their form encoding, a phrase query on one field, and which work keys
 * a terms query can carry (the separator must not split one).
 */
import { WORK_KEY_SEPARATOR } from './termsQuery.js';
import type { SolrIndexSettings } from './solrIndexOptions.js';

export type Params = ReadonlyArray<readonly [string, string]>;

/** Form-encodes parameters in order; repeated names (facet.field) stay repeated. */
export function encodeSolrParams(params: Params): string {
  return params.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('&');
}

/** A phrase query on one field: inside quotes only the backslash and the quote are special. */
export function solrPhrase(field: string, value: string): string {
  return `${field}:"${value.replace(/[\\"]/g, '\\$&')}"`;
}

/** The keys a versions query asks for: each once, in order, none containing the separator. */
export function queryableKeys(keys: readonly string[], settings: SolrIndexSettings): string[] {
  return [...new Set(keys)].filter((key) => {
    if (!key.includes(WORK_KEY_SEPARATOR)) return true;
    // The terms parser would split such a key in two and match records sharing either half.
    settings.logger?.warn?.(`Solr ${settings.endpoint.display}: work key ${JSON.stringify(key)} contains U+001F and cannot be queried; skipped`);
    return false;
  });
}
