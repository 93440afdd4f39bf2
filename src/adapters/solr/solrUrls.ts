/**
 * A Solr URL as the requests made over fetch use it (the syncs' reads and writes, the work collection's
 * admin requests): its form without credentials, for requests and messages, and the basic-auth header its
 * user info becomes.
 *
 * Left to others: the URL the plugin's reads go to (solrIndexOptions.ts, through the Solr client).
 */

/** `protocol//host/path` with neither user info nor a trailing slash. */
export function displayOfSolrUrl(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

/** The `authorization` header for the URL's user info; none without it. */
export function basicAuthHeaders(url: URL): Record<string, string> {
  if (url.username === '') return {};
  return { authorization: `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}` };
}
