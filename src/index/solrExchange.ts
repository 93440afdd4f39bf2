/**
 * One HTTP exchange with Solr through solr-client, as the adapter (solrIndex.ts) and the writer
 * (solrWriter.ts) both make it: settled by solr-client's callback, an error of the response, or the
 * deadline, whichever comes first, with the start of the body kept for error messages. What the answer
 * means is the caller's business.
 */
import type http from 'node:http';

/** solr-client's callback (it ships no type declarations). */
export type SolrCallback = (err: Error | null, data: unknown) => void;

export type SolrAnswer = { kind: 'answered'; status: number; contentType: string; body: string; data: unknown; parsed: boolean };
export type SolrExchange = { kind: 'timeout' } | { kind: 'failed'; error: Error; staleSocket: boolean } | SolrAnswer;

/** How much of a body is kept for error messages. */
const ERROR_BODY_KEEP = 16_384;

/**
 * Starts a request with `start` (a solr-client call given the callback) and settles it by `deadline`
 * (epoch ms). `staleSocket` says a kept-alive socket was found closed, where asking again is safe.
 */
export function exchangeWithSolr(start: (callback: SolrCallback) => http.ClientRequest, deadline: number): Promise<SolrExchange> {
  return new Promise<SolrExchange>((resolve) => {
    let settled = false;
    let status: number | undefined;
    let contentType = '';
    let body = '';
    const settle = (outcome: SolrExchange): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const request = start((err, data) => {
      if (status === undefined) {
        const error = err ?? new Error('no HTTP response');
        const code = (error as NodeJS.ErrnoException).code;
        settle({ kind: 'failed', error, staleSocket: request.reusedSocket && (code === 'ECONNRESET' || code === 'EPIPE') });
        return;
      }
      // solr-client reports a non-2xx status and an unparsable 2xx body as errors without the body; the
      // answer is judged from the status and the body kept below.
      settle({ kind: 'answered', status, contentType, body, data: err === null ? data : undefined, parsed: err === null });
    });
    // solr-client builds its HTTP error from `request.headers || request._headers`; `_headers` warns on
    // Node 20 (DEP0066) and is gone in Node 24, where the constructor would throw inside a socket event and
    // crash the process. Giving it `headers` avoids both.
    (request as http.ClientRequest & { headers?: unknown }).headers = request.getHeaders();
    request.on('response', (response: http.IncomingMessage) => {
      status = response.statusCode ?? 0;
      contentType = String(response.headers['content-type'] ?? '');
      // solr-client has set utf-8 decoding, so chunks are strings; keep the start for error messages.
      response.on('data', (chunk: string | Buffer) => {
        if (body.length < ERROR_BODY_KEEP) body += String(chunk);
      });
      // Without this listener a connection cut mid-body would leave solr-client waiting until the deadline.
      response.on('error', (error: Error) => settle({ kind: 'failed', error, staleSocket: false }));
    });
    const timer = setTimeout(() => {
      settle({ kind: 'timeout' });
      // solr-client's error handlers stay attached, so destroying the request cannot raise an unhandled error.
      request.destroy();
    }, Math.max(0, deadline - Date.now()));
  });
}
