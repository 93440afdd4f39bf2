/**
 * How the Solr adapter and the Solr writer read an answer from Solr: one set of checks (status, JSON,
 * Solr's error object, responseHeader.status, the result list) and one wording of what went wrong, as an
 * IndexUnavailableError whose message names the request (`prefix`). Nothing here reaches a client.
 *
 * Left to others: sending the request and its deadline (solrExchange.ts), reading failures' details
 * (solrFaults.ts), what the answer means (solrIndex.ts, solrWriter.ts).
 */
import { IndexUnavailableError } from '../../errors.js';
import type { SolrAnswer } from './solrExchange.js';
import { isObject, snippet, solrErrorOf } from './solrFaults.js';

/** A select answer's result list. */
export interface SolrResultList {
  numFound: number;
  docs: Array<Record<string, unknown>>;
  /** The whole parsed answer, for the parts beyond `response` (facet counts). */
  data: Record<string, unknown>;
  /** The answer's text as received (its first 16 KB or more), for numbers JSON.parse would round. */
  body: string;
}

/** The parsed answer, when it is a successful Solr JSON answer; else IndexUnavailableError saying why. */
export function solrAnswerData(outcome: SolrAnswer, prefix: string): Record<string, unknown> {
  const { status, contentType, body } = outcome;
  if (status < 200 || status > 299) {
    const solrError = solrErrorOf(body);
    if (solrError !== undefined) throw new IndexUnavailableError(`${prefix}: HTTP ${status}, Solr error: ${solrError}`);
    throw new IndexUnavailableError(`${prefix}: HTTP ${status} (${contentType || 'no content type'}), not a Solr answer: ${snippet(body)}`);
  }
  if (!outcome.parsed) {
    throw new IndexUnavailableError(`${prefix}: HTTP ${status} with a body that is not JSON (${contentType || 'no content type'}): ${snippet(body)}`);
  }
  const data = outcome.data;
  if (!isObject(data)) throw new IndexUnavailableError(`${prefix}: HTTP ${status} with JSON that is not a Solr answer: ${snippet(body)}`);
  const solrError = solrErrorOf(data);
  if (solrError !== undefined) throw new IndexUnavailableError(`${prefix}: Solr error: ${solrError}`);
  const header = data.responseHeader;
  if (isObject(header) && typeof header.status === 'number' && header.status !== 0) {
    throw new IndexUnavailableError(`${prefix}: Solr responseHeader.status ${header.status}`);
  }
  return data;
}

/** The result list of a successful select answer; else IndexUnavailableError saying why. */
export function solrResultList(outcome: SolrAnswer, prefix: string): SolrResultList {
  const data = solrAnswerData(outcome, prefix);
  const response = data.response;
  if (!isObject(response)) throw new IndexUnavailableError(`${prefix}: Solr answer has no "response": ${snippet(outcome.body)}`);
  const { numFound, docs } = response;
  if (typeof numFound !== 'number' || !Number.isSafeInteger(numFound) || numFound < 0) {
    throw new IndexUnavailableError(`${prefix}: Solr answer has no usable response.numFound (${JSON.stringify(numFound)})`);
  }
  if (!Array.isArray(docs) || !docs.every(isObject)) {
    throw new IndexUnavailableError(`${prefix}: Solr answer has no usable response.docs list`);
  }
  return { numFound, docs, data, body: outcome.body };
}
