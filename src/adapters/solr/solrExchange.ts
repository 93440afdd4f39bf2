/**
 * The connection to a Solr core through solr-client, as the adapter (solrIndex.ts) and the writer
 * (solrWriter.ts) both use it: the client with a keep-alive agent of its own, and one HTTP exchange
 * settled by solr-client's callback, an error of the response, or the deadline, whichever comes first,
 * with the start of the body kept for error messages. What the answer means is the caller's business.
 */
import http from 'node:http';
import https from 'node:https';
import { createRequire } from 'node:module';

/** The parts of a checked core URL (solrIndex.ts checkUrl) that solr-client wants. */
export interface SolrEndpoint {
  secure: boolean;
  host: string;
  port: number;
  path: string;
  username?: string;
  password?: string;
  /** The core URL without credentials, for log messages. */
  display: string;
}

// solr-client 0.9 ships no type declarations; each caller describes the methods it uses.
// Loaded on first use, so that a host importing the package without using Solr never loads solr-client.
const require = createRequire(import.meta.url);
let solr: { createClient(options: Record<string, unknown>): unknown } | undefined;
const solrClientPackage = () => (solr ??= require('solr-client') as { createClient(options: Record<string, unknown>): unknown });

/**
 * A solr-client for the core, on a keep-alive agent of its own, so that close() can drop its sockets
 * without touching the process-wide agent. `extra` adds client options (the writer's `solrVersion`).
 */
export function openSolrClient<Client extends { basicAuth(username: string, password: string): unknown }>(
  endpoint: SolrEndpoint,
  extra: Record<string, unknown> = {},
): { agent: http.Agent; client: Client } {
  const agent = endpoint.secure ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
  const client = solrClientPackage().createClient({
    host: endpoint.host,
    port: endpoint.port,
    path: endpoint.path,
    core: '',
    secure: endpoint.secure,
    agent,
    // solr-client pins the address family to IPv4 by default; leaving it unset lets "localhost" and
    // IPv6-only hosts resolve as Node would resolve them.
    request: { family: undefined },
    ...extra,
  }) as Client;
  if (endpoint.username !== undefined) client.basicAuth(endpoint.username, endpoint.password ?? '');
  return { agent, client };
}

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
