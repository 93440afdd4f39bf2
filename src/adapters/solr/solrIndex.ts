/**
 * The Solr adapter of the catalog index port (catalogIndex.ts), for a VuFind-style `biblio` core.
 *
 * It turns the questions of the port into the Solr requests of reference-behaviour.md section 8 (and,
 * for countVersions, one faceted join request; see there for its design and its SolrCloud limit),
 * sends them with the `solr-client` package (GET, or a form POST to /select when the query is long),
 * puts a deadline on every request, and maps the Solr documents back through the configured field names
 * into record documents (catalogRecord.ts validates them). Every fault of the engine or of the way to it
 * becomes an IndexUnavailableError whose message is meant for the log.
 *
 * It offers no contentVersion(): Solr can tell its index version only through a request of its own, one
 * more round trip per answer, so with Solr every answer is built afresh (Solr's own caches hold the
 * query results).
 *
 * Left to others: computing work keys (workKeys.ts), deciding that a record without keys lists itself
 * (the versions service), turning IndexUnavailableError into a 503 page and logging it (the HTTP layer),
 * and loading documents into Solr (not this plugin's job at all).
 */
import http from 'node:http';
import type { CatalogIndex, VersionsPage, VersionsQuery } from '../../versions/catalogIndex.js';
import { recordFromDocument, type CatalogRecord, type RecordDocument } from '../../record/catalogRecord.js';
import { RECORD_FIELD_NAMES, SINGLE_VALUED_FIELDS, type RecordFieldName } from '../../record/recordFields.js';
import { IndexUnavailableError, InvalidOptionError, InvalidRecordDocumentError } from '../../errors.js';
import { exchangeWithSolr, openSolrClient, type SolrAnswer, type SolrCallback, type SolrEndpoint } from './solrExchange.js';
import { describeNetworkError, isObject, snippet, solrErrorOf } from './solrFaults.js';

/** Record field (the record document's name, recordFields.ts) → Solr field name. */
export type SolrFieldMap = Record<RecordFieldName, string>;

/** The VuFind `biblio` schema uses the record document's names, so the default map is the identity. */
export const DEFAULT_SOLR_FIELDS: Readonly<SolrFieldMap> = Object.freeze(
  Object.fromEntries(RECORD_FIELD_NAMES.map((name) => [name, name])) as SolrFieldMap,
);

export const DEFAULT_SOLR_TIMEOUT_MS = 5000;
export const DEFAULT_SOLR_FACET_FIELDS: readonly string[] = Object.freeze(['format']);
/** Above this many bytes of form-encoded parameters the query goes as a POST body: Jetty's default
 * request-header limit is 8 KB, and proxies in front of Solr are often stricter. */
export const SOLR_POST_THRESHOLD_BYTES = 4096;
/** The separator of the `terms` query parser; work keys are normalised letters and digits, so they
 * never contain this control character (keys that do are dropped, see findVersions). */
export const WORK_KEY_SEPARATOR = '\u001f';

/** What the adapter writes to a log: one line per request at debug level, odd data at warn level. */
export interface SolrIndexLogger {
  debug?(message: string): void;
  warn?(message: string): void;
}

export interface SolrIndexOptions {
  /** URL of the core, e.g. `http://localhost:8983/solr/biblio`; user info becomes HTTP basic auth. */
  url: string;
  /** Deadline of each request in milliseconds (default 5000). */
  timeoutMs?: number;
  /** Solr field names where they differ from the VuFind `biblio` names. */
  fields?: Partial<SolrFieldMap>;
  /** Facet fields requested with every versions query (default `['format']`); `[]` requests no facets. */
  facetFields?: readonly string[];
  logger?: SolrIndexLogger;
}

// solr-client 0.9 ships no type declarations; these describe the part of it this adapter uses.
interface SolrClient {
  get(handler: string, query: string, callback: SolrCallback): http.ClientRequest;
  post(handler: string, query: string, callback: SolrCallback): http.ClientRequest;
  basicAuth(username: string, password: string): SolrClient;
}

// Solr's recommended field-name shape. Field names go unquoted into local params (`f=`), sort specs and
// `field:"value"` queries, so anything else could change the meaning of a request.
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const MAX_TIMEOUT_MS = 2_147_483_647; // setTimeout's limit

/** The options of createSolrIndex, checked, with defaults filled in. */
export interface SolrIndexSettings {
  endpoint: SolrEndpoint;
  timeoutMs: number;
  fields: Readonly<SolrFieldMap>;
  facetFields: readonly string[];
  logger: SolrIndexLogger | undefined;
}

export function createSolrIndex(options: SolrIndexOptions): CatalogIndex {
  const settings = checkSolrIndexOptions(options);
  return new SolrIndex(settings);
}

/** Checks the options (throwing InvalidOptionError naming a wrong one); the writer checks its own with it. */
export function checkSolrIndexOptions(options: SolrIndexOptions): SolrIndexSettings {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidOptionError('options', 'the Solr index needs an options object with at least "url"');
  }
  const endpoint = checkUrl(options.url);

  let timeoutMs = DEFAULT_SOLR_TIMEOUT_MS;
  if (options.timeoutMs !== undefined) {
    const value: unknown = options.timeoutMs;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_TIMEOUT_MS) {
      throw new InvalidOptionError('timeoutMs', `must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, not ${String(value)}`);
    }
    timeoutMs = value;
  }

  const fields: SolrFieldMap = { ...DEFAULT_SOLR_FIELDS };
  if (options.fields !== undefined) {
    const given: unknown = options.fields;
    if (typeof given !== 'object' || given === null || Array.isArray(given)) {
      throw new InvalidOptionError('fields', 'must be an object mapping record fields to Solr field names');
    }
    for (const [name, solrName] of Object.entries(given)) {
      if (!Object.hasOwn(DEFAULT_SOLR_FIELDS, name)) {
        throw new InvalidOptionError(`fields.${name}`, `is not a record field; known fields: ${Object.keys(DEFAULT_SOLR_FIELDS).join(', ')}`);
      }
      if (solrName === undefined) continue;
      if (typeof solrName !== 'string' || !FIELD_NAME.test(solrName)) {
        throw new InvalidOptionError(`fields.${name}`, `must be a Solr field name (letters, digits, underscore), not ${JSON.stringify(solrName)}`);
      }
      fields[name as keyof SolrFieldMap] = solrName;
    }
  }

  let facetFields = DEFAULT_SOLR_FACET_FIELDS;
  if (options.facetFields !== undefined) {
    const given: unknown = options.facetFields;
    if (!Array.isArray(given)) throw new InvalidOptionError('facetFields', 'must be an array of Solr field names');
    for (const field of given) {
      if (typeof field !== 'string' || !FIELD_NAME.test(field)) {
        throw new InvalidOptionError('facetFields', `${JSON.stringify(field)} is not a Solr field name (letters, digits, underscore)`);
      }
    }
    facetFields = Object.freeze([...new Set(given as string[])]);
  }

  const logger = options.logger;
  if (logger !== undefined && (typeof logger !== 'object' || logger === null)) {
    throw new InvalidOptionError('logger', 'must be an object with optional debug() and warn() methods');
  }
  return { endpoint, timeoutMs, fields: Object.freeze(fields), facetFields, logger };
}

function checkUrl(value: unknown): SolrEndpoint {
  if (value === undefined || value === '') {
    throw new InvalidOptionError('url', 'is required: the URL of the Solr core, e.g. http://localhost:8983/solr/biblio');
  }
  if (typeof value !== 'string') throw new InvalidOptionError('url', `must be a string, not ${typeof value}`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidOptionError('url', `is not a URL: ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidOptionError('url', `must be an http or https URL, not ${url.protocol}`);
  }
  if (url.search !== '' || url.hash !== '') {
    throw new InvalidOptionError('url', 'must be the URL of the core, without a query string or fragment');
  }
  // solr-client joins path, core and handler with "/", so the path is kept as given minus trailing slashes.
  const path = url.pathname.replace(/\/+$/, '');
  if (path === '') {
    throw new InvalidOptionError('url', 'must name the core, e.g. http://localhost:8983/solr/biblio (requests go to <url>/select)');
  }
  const secure = url.protocol === 'https:';
  return {
    secure,
    // WHATWG URL keeps the brackets of an IPv6 literal; Node's http.request wants the bare address.
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port === '' ? (secure ? 443 : 80) : Number(url.port),
    path,
    ...(url.username !== '' ? { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) } : {}),
    display: `${url.protocol}//${url.host}${path}`,
  };
}

type Params = ReadonlyArray<readonly [string, string]>;

/** Form-encodes parameters in order; repeated names (facet.field) stay repeated. */
export function encodeSolrParams(params: Params): string {
  return params.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('&');
}

/** A phrase query on one field: inside quotes only the backslash and the quote are special. */
export function solrPhrase(field: string, value: string): string {
  return `${field}:"${value.replace(/[\\"]/g, '\\$&')}"`;
}

class SolrIndex implements CatalogIndex {
  private readonly settings: SolrIndexSettings;
  private readonly agent: http.Agent;
  private readonly client: SolrClient;
  private closed = false;

  constructor(settings: SolrIndexSettings) {
    this.settings = settings;
    ({ agent: this.agent, client: this.client } = openSolrClient<SolrClient>(settings.endpoint));
  }

  async getRecord(id: string): Promise<CatalogRecord | undefined> {
    const { fields } = this.settings;
    const params: Params = [
      ['q', solrPhrase(fields.id, id)],
      ['rows', '1'],
    ];
    const response = await this.select(params, `getRecord(${describeId(id)})`);
    const doc = response.docs[0];
    if (doc === undefined) return undefined;
    const record = this.toRecord(doc, `getRecord(${describeId(id)})`);
    if (record.id !== id) {
      // Only a tokenised id field could do this; a different record must never stand in for the one asked.
      this.settings.logger?.warn?.(`Solr ${this.settings.endpoint.display}: id:"…" query for ${describeId(id)} returned record ${describeId(record.id)}; treated as missing`);
      return undefined;
    }
    return record;
  }

  async findVersions(query: VersionsQuery): Promise<VersionsPage> {
    const { fields, facetFields, logger, endpoint } = this.settings;
    checkWindow(query);
    const keys = [...new Set(query.workKeys)].filter((key) => {
      if (!key.includes(WORK_KEY_SEPARATOR)) return true;
      // The terms parser would split such a key in two and match records sharing either half.
      logger?.warn?.(`Solr ${endpoint.display}: work key ${JSON.stringify(key)} contains U+001F and cannot be queried; skipped`);
      return false;
    });
    if (keys.length === 0) return { total: 0, records: [] };

    const sort = query.order === 'last-indexed'
      ? `${fields.last_indexed} desc,${fields.id} asc`
      : `score desc,${fields.id} asc`;
    // The separator is sent as the character itself inside the quoted local param (Solr's quoted local-param
    // values take any character but `\` and the quote literally).
    const params: Array<readonly [string, string]> = [
      ['q', `{!terms f=${fields.work_keys_str_mv} separator="${WORK_KEY_SEPARATOR}"}${keys.join(WORK_KEY_SEPARATOR)}`],
      ['start', String(query.offset)],
      ['rows', String(query.limit)],
      ['sort', sort],
    ];
    if (facetFields.length > 0) {
      params.push(['facet', 'true']);
      for (const field of facetFields) params.push(['facet.field', field]);
      params.push(['facet.limit', '30'], ['facet.mincount', '1']);
    }
    const what = `findVersions(${keys.length} key${keys.length === 1 ? '' : 's'}, ${query.order}, start ${query.offset})`;
    const response = await this.select(params, what);
    return { total: response.numFound, records: response.docs.map((doc) => this.toRecord(doc, what)) };
  }

  /**
   * Version counts for a result list in ONE /select request, whatever the number of ids:
   *
   *   q=*:*  rows=0  facet=true
   *   facet.query={!join from=K to=K score=none key=vN}id:"<id N>"   (records sharing a key with record N)
   *   facet.query={!key=rN}id:"<id N>"                               (1 when record N exists, else 0)
   *
   * A facet.query counts the documents of the main result (here every document) that match it, so the
   * join facet is "how many records carry a key that record N carries", itself included when it has keys,
   * and 0 when it has none; the second facet tells a key-less record (count 1) from a missing one (absent).
   * `key` names each count in facet_counts.facet_queries, so answers are matched by position in the list,
   * not by echoing query text. `score=none` picks Solr's docValues join (Lucene's JoinUtil): its cost grows
   * with the values of the one matching record, whereas the default `index` method walks every term of the
   * key field, which in a catalog of millions of keys costs far more per facet.
   *
   * Limit: a join sees only the shard it runs on. On a SolrCloud collection with several shards, versions
   * stored on other shards are not counted (the count is a lower bound); the core must be a single shard
   * (or a standalone core), as `fromIndex` joins require too.
   */
  async countVersions(ids: readonly string[]): Promise<Map<string, number>> {
    const { fields } = this.settings;
    const unique = [...new Set(ids)];
    const counts = new Map<string, number>();
    if (unique.length === 0) return counts;
    const keyField = fields.work_keys_str_mv;
    const params: Array<readonly [string, string]> = [
      ['q', '*:*'],
      ['rows', '0'],
      ['facet', 'true'],
    ];
    unique.forEach((id, n) => {
      const record = solrPhrase(fields.id, id);
      params.push(['facet.query', `{!join from=${keyField} to=${keyField} score=none key=v${n}}${record}`]);
      params.push(['facet.query', `{!key=r${n}}${record}`]);
    });
    const what = `countVersions(${unique.length} id${unique.length === 1 ? '' : 's'})`;
    const response = await this.select(params, what);
    const prefix = `Solr ${this.settings.endpoint.display}: ${what}`;
    const facetCounts = response.data.facet_counts;
    const queries = isObject(facetCounts) ? facetCounts.facet_queries : undefined;
    if (!isObject(queries)) throw new IndexUnavailableError(`${prefix}: Solr answer has no facet_counts.facet_queries`);
    const countOf = (key: string): number => {
      const value = queries[key];
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
        throw new IndexUnavailableError(`${prefix}: Solr answer has no usable facet_queries count "${key}" (${JSON.stringify(value)})`);
      }
      return value;
    };
    unique.forEach((id, n) => {
      // A missing or odd count fails the whole call: a partial map would show patrons wrong numbers.
      const versions = countOf(`v${n}`);
      if (countOf(`r${n}`) > 0) counts.set(id, Math.max(1, versions));
    });
    return counts;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.agent.destroy();
  }

  private toRecord(doc: Record<string, unknown>, what: string): CatalogRecord {
    try {
      return recordFromDocument(toRecordDocument(doc, this.settings.fields));
    } catch (error) {
      if (!(error instanceof InvalidRecordDocumentError)) throw error;
      throw new IndexUnavailableError(
        `Solr ${this.settings.endpoint.display}: ${what} returned a document that is not a usable record (${error.reason})`,
        { cause: error },
      );
    }
  }

  private async select(params: Params, what: string): Promise<SolrResultList> {
    const { endpoint } = this.settings;
    if (this.closed) throw new IndexUnavailableError(`Solr ${endpoint.display}: ${what} after the index was closed`);
    const encoded = encodeSolrParams(params);
    const method = Buffer.byteLength(encoded) > SOLR_POST_THRESHOLD_BYTES ? 'POST' : 'GET';
    const started = Date.now();
    const deadline = started + this.settings.timeoutMs;
    const send = (callback: SolrCallback) => (method === 'GET' ? this.client.get('select', encoded, callback) : this.client.post('select', encoded, callback));
    let outcome = await exchangeWithSolr(send, deadline);
    // A keep-alive socket that Solr (or a proxy) closed while idle fails the first write; a select is
    // read-only, so asking once more on a fresh socket is safe.
    if (outcome.kind === 'failed' && outcome.staleSocket && Date.now() < deadline) {
      outcome = await exchangeWithSolr(send, deadline);
    }
    const elapsed = Date.now() - started;
    const where = `${method} ${endpoint.display}/select`;
    this.settings.logger?.debug?.(`Solr ${where} ${what}: ${outcome.kind === 'answered' ? `HTTP ${outcome.status}` : outcome.kind} in ${elapsed} ms`);

    switch (outcome.kind) {
      case 'timeout':
        throw new IndexUnavailableError(`Solr ${where} ${what}: no answer within ${this.settings.timeoutMs} ms`);
      case 'failed':
        throw new IndexUnavailableError(`Solr ${where} ${what}: ${describeNetworkError(outcome.error)}`, { cause: outcome.error });
      case 'answered':
        return readSelectResponse(outcome, `Solr ${where} ${what}`);
    }
  }

}

interface SolrResultList {
  numFound: number;
  docs: Array<Record<string, unknown>>;
  /** The whole parsed answer, for the parts beyond `response` (facet counts). */
  data: Record<string, unknown>;
}

function checkWindow(query: VersionsQuery): void {
  // A bad window is a bug in the caller, not an index fault, so it is not an IndexUnavailableError.
  if (!Number.isSafeInteger(query.offset) || query.offset < 0) throw new RangeError(`offset must be a whole number >= 0, not ${query.offset}`);
  if (!Number.isSafeInteger(query.limit) || query.limit < 0) throw new RangeError(`limit must be a whole number >= 0, not ${query.limit}`);
  if (query.order !== 'last-indexed' && query.order !== 'relevance') throw new RangeError(`unknown order ${JSON.stringify(query.order)}`);
}

function readSelectResponse(outcome: SolrAnswer, prefix: string): SolrResultList {
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
  const response = data.response;
  if (!isObject(response)) throw new IndexUnavailableError(`${prefix}: Solr answer has no "response": ${snippet(body)}`);
  const { numFound, docs } = response;
  if (typeof numFound !== 'number' || !Number.isSafeInteger(numFound) || numFound < 0) {
    throw new IndexUnavailableError(`${prefix}: Solr answer has no usable response.numFound (${JSON.stringify(numFound)})`);
  }
  if (!Array.isArray(docs) || !docs.every(isObject)) {
    throw new IndexUnavailableError(`${prefix}: Solr answer has no usable response.docs list`);
  }
  return { numFound, docs, data };
}




function describeId(id: string): string {
  return JSON.stringify(id.length > 120 ? `${id.slice(0, 120)}…` : id);
}


/**
 * A Solr document as a record document: each configured Solr field is read back under its record-field
 * name. Schemas differ in which fields are multi-valued, so single-valued record fields take the first of
 * several values, and numbers or booleans become strings; anything stranger is left for
 * recordFromDocument to refuse.
 */
export function toRecordDocument(doc: Readonly<Record<string, unknown>>, fields: Readonly<SolrFieldMap>): RecordDocument {
  const out: Record<string, unknown> = {};
  for (const [name, solrName] of Object.entries(fields) as Array<[keyof SolrFieldMap, string]>) {
    const value = doc[solrName];
    if (value === undefined || value === null) continue;
    if (SINGLE_VALUED_FIELDS.has(name)) {
      const first = Array.isArray(value) ? value[0] : value;
      if (first !== undefined && first !== null) out[name] = scalarText(first);
    } else {
      out[name] = Array.isArray(value) ? value.map(scalarText) : scalarText(value);
    }
  }
  return out as RecordDocument;
}

function scalarText(value: unknown): unknown {
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
}
