/**
 * How a sync (workIndexSync.ts, ../workCollection/workCollectionSync.ts) reads the core: a read-only /select over fetch, the pages of a
 * cursorMark walk with the next one asked for ahead, and `_version_` values as the exact digits of the
 * answer's text (JSON.parse would round them).
 */
import { IndexUnavailableError } from '../../../errors.js';
import type { SolrResultList } from '../solrAnswers.js';
import { isObject } from '../solrFaults.js';
import { basicAuthHeaders, displayOfSolrUrl } from '../solrUrls.js';
import type { SolrSelect } from '../solrVersionWatch.js';

/** A read-only /select over fetch (form POST: cursor marks and range queries stay out of URLs and logs). */
export function selectOn(options: { url: URL; display: string; timeoutMs: number }): SolrSelect {
  const { url, display, timeoutMs } = options;
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', ...basicAuthHeaders(url) };
  const endpoint = `${displayOfSolrUrl(url)}/select`;
  return async (params, what) => {
    const body = new URLSearchParams([...params, ['wt', 'json']] as Array<[string, string]>).toString();
    let response: Response;
    let text: string;
    try {
      response = await fetch(endpoint, { method: 'POST', headers, body, signal: AbortSignal.timeout(timeoutMs) });
      text = await response.text();
    } catch (error) {
      throw new IndexUnavailableError(`Solr ${display}: ${what}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      throw new IndexUnavailableError(`Solr ${display}: ${what}: HTTP ${response.status} with an answer that is not JSON: ${text.slice(0, 200)}`);
    }
    const answer = isObject(data) ? data.response : undefined;
    if (!response.ok || !isObject(data) || !isObject(answer) || typeof answer.numFound !== 'number' || !Array.isArray(answer.docs)) {
      const error = isObject(data) && isObject(data.error) ? String(data.error.msg) : text.slice(0, 200);
      throw new IndexUnavailableError(`Solr ${display}: ${what}: HTTP ${response.status}: ${error}`);
    }
    return { numFound: answer.numFound, docs: answer.docs as Array<Record<string, unknown>>, data, body: text };
  };
}

/**
 * The pages of a cursorMark walk from `cursor`, each with the cursor after it; the next page is asked for
 * as soon as its cursor is known, so Solr finds it while the caller keys and stores this one.
 */
export async function* cursorPages(
  select: SolrSelect, display: string, cursor: string, what: string, params: (cursor: string) => ReadonlyArray<readonly [string, string]>,
): AsyncGenerator<{ page: SolrResultList; next: string }> {
  let pending = select(params(cursor), what);
  for (;;) {
    const page = await pending;
    const next = nextCursor(page, display);
    const last = next === cursor;
    if (!last) {
      pending = select(params(next), what);
      // A caller that stops at this page leaves the request asked ahead unread: its failure is no one's.
      pending.catch(() => undefined);
    }
    yield { page, next };
    if (last) return;
    cursor = next;
  }
}

function nextCursor(page: SolrResultList, display: string): string {
  const next = page.data.nextCursorMark;
  if (typeof next !== 'string') throw new IndexUnavailableError(`Solr ${display}: the answer has no nextCursorMark (does the core sort on id?)`);
  return next;
}

/** The page's documents with `_version_` as the exact digits of the answer's text, in document order. */
export function withExactVersions(page: SolrResultList): Array<Record<string, unknown>> {
  // Inside a JSON string a quote is escaped, so this matches only the field itself.
  const digits = [...page.body.matchAll(/"_version_":(\d+)/g)].map((match) => match[1]!);
  if (digits.length !== page.docs.length) return page.docs;
  return page.docs.map((doc, k) => ({ ...doc, _version_: digits[k] }));
}
