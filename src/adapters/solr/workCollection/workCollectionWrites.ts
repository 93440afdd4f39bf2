/**
 * How the work collection's sync (workCollectionSync.ts) talks to the collection: its endpoint (URL, basic
 * auth, deadline), one JSON exchange with a handler (real-time get of the state document, /update), and the
 * page writer that keeps a bounded number of update requests out while the next pages are read,
 * confirming them in the order sent so that a resumed run never skips a page.
 */
import { IndexUnavailableError, InvalidOptionError } from '../../../errors.js';
import { solrErrorOf, snippet } from '../solrFaults.js';
import { basicAuthHeaders, displayOfSolrUrl } from '../solrUrls.js';

/** Update requests out at a time: one being indexed while the next is sent; more only queue in Solr. */
const WRITES_IN_FLIGHT = 2;

export type Send = (body: Array<Record<string, unknown>>, confirmed: () => void) => Promise<void>;

/**
 * Writes pages while the next ones are read: at most WRITES_IN_FLIGHT update requests out at a time, each
 * confirmed (its callback called) only when it and every one sent before it succeeded, in the order sent.
 * `run(body, stopped)`: when body throws (a failed request, a failed read, a caller's stop), the writes
 * still out are waited for and confirmed up to the first that failed, `stopped` is called, and the error
 * is thrown again; when it returns, every write is confirmed before run returns.
 */
export function pageWriter(update: (body: unknown, what: string) => Promise<void>) {
  return {
    async run(body: (send: Send) => Promise<void>, stopped?: () => Promise<void>): Promise<void> {
      const out: Array<{ written: Promise<void>; confirmed: () => void }> = [];
      const confirmOldest = async () => {
        const oldest = out[0]!;
        await oldest.written;
        out.shift();
        oldest.confirmed();
      };
      const send: Send = async (documents, confirmed) => {
        while (out.length >= WRITES_IN_FLIGHT) await confirmOldest();
        // Nothing to write (a page of refused documents) is confirmed in its turn all the same.
        const written = documents.length > 0 ? update(documents, 'documents') : Promise.resolve();
        // Its failure is met in confirmOldest, or waited for after a stop.
        written.catch(() => undefined);
        out.push({ written, confirmed });
      };
      try {
        await body(send);
        while (out.length > 0) await confirmOldest();
      } catch (error) {
        try {
          while (out.length > 0) await confirmOldest();
        } catch {
          // A write failed: the ones after it are not confirmed, but none is left running.
          await Promise.allSettled(out.map((write) => write.written));
        }
        await stopped?.();
        throw error;
      }
    },
  };
}

export interface Endpoint { url: URL; display: string; timeoutMs: number; headers: Record<string, string> }

export function endpointOf(option: string, text: unknown, timeoutMs: number): Endpoint {
  let url: URL;
  try {
    url = new URL(String(text));
  } catch {
    throw new InvalidOptionError(option, `is not a URL: ${JSON.stringify(text)}`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname.replace(/\/+$/, '') === '') throw new InvalidOptionError(option, 'must be the http(s) URL of a core or collection, e.g. http://localhost:8983/solr/biblio');
  return { url, display: displayOfSolrUrl(url), timeoutMs, headers: basicAuthHeaders(url) };
}

/** JSON posts to the collection's /update (documents, deletions or a commit). */
export function updateOn(collection: Endpoint): (body: unknown, what: string) => Promise<void> {
  return async (body, what) => {
    await exchange(collection, 'update?wt=json', JSON.stringify(body), what);
  };
}

export async function exchange(collection: Endpoint, path: string, body: string | undefined, what: string): Promise<unknown> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(`${collection.display}/${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? collection.headers : { ...collection.headers, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body }),
      signal: AbortSignal.timeout(collection.timeoutMs),
    });
    text = await response.text();
  } catch (error) {
    throw new IndexUnavailableError(`Solr ${collection.display}: work collection ${what}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  if (!response.ok) throw new IndexUnavailableError(`Solr ${collection.display}: work collection ${what}: HTTP ${response.status}: ${solrErrorOf(text) ?? snippet(text)}`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new IndexUnavailableError(`Solr ${collection.display}: work collection ${what}: an answer that is not JSON: ${snippet(text)}`);
  }
}
