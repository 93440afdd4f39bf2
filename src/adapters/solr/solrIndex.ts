/**
 * The Solr adapter of the catalog index port (catalogIndex.ts), for a VuFind-style `biblio` core or a
 * SolrCloud collection of it.
 *
 * It turns the questions of the port into the Solr requests of docs/solr.md (and, for
 * countVersions, two requests whose counts are right on a collection of several shards; see there), sends
 * them with the `solr-client` package (GET, or a form POST to /select when the query is long), puts a
 * deadline on every request, and maps the Solr documents back through the configured field names into
 * record documents (catalogRecord.ts validates them). Every fault of the engine or of the way to it
 * becomes an IndexUnavailableError whose message is meant for the log.
 *
 * contentVersion() lets the plugin keep finished answers on Solr too. It never asks Solr itself: a
 * background probe (solrVersionWatch.ts), at most once per `versionCheckMs` and only while requests come
 * in, reads how many documents the index holds and the highest `_version_` among them, with a range
 * query rather than a sort, so it works where `_version_` has no docValues (VuFind's schemas; see
 * solrIndexVersionProbe there). Solr gives every
 * added or replaced document a new `_version_` above those before it (from the shard leader's clock), and
 * a deletion lowers the count, so the pair changes with every committed change; both are summed up over
 * all shards by an ordinary distributed query, so a collection's shards all count. (Lucene's own index
 * version, from /admin/luke or /replication, is one core's: on a collection it would name one replica of
 * one shard, and NRT replicas of a shard do not even share it.) Limits: a change shows after up to one
 * interval and the read's own time (only once Solr has committed it, of course); a shard leader whose
 * clock lags another's by more than the time between two changes can replace a document without raising
 * the highest `_version_`, and the replacement then shows with the next change; NRT replicas may lag one
 * another (solrVersionWatch.ts says how far that is covered).
 *
 * Left to others: computing work keys (workKeys.ts), deciding that a record without keys lists itself
 * (the versions service), turning IndexUnavailableError into a 503 page and logging it (the HTTP layer),
 * keeping answers (answerCache.ts), and loading documents into Solr (solrWriter.ts).
 */
import http from 'node:http';
import { versionsOfKeylessRecord, type CatalogIndex, type RecordVersionsQuery, type VersionsPage, type VersionsQuery } from '../../ports.js';
import { checkRecordId, checkRecordIds, checkVersionsQuery } from '../../portArguments.js';
import { recordFromDocument, type CatalogRecord, type RecordDocument } from '../../record/catalogRecord.js';
import { RECORD_FIELDS, SINGLE_VALUED_FIELDS, type RecordFieldName } from '../../record/recordFields.js';
import { pageOfWork, readsWholeWork } from '../../record/recordFacets.js';
import { IndexUnavailableError, InvalidOptionError, InvalidRecordDocumentError } from '../../errors.js';
import { solrResultList, type SolrResultList } from './solrAnswers.js';
import { exchangeWithSolr, openSolrClient, type SolrCallback, type SolrEndpoint } from './solrExchange.js';
import { describeNetworkError, isObject } from './solrFaults.js';
import { solrIndexVersionProbe, VersionWatch } from './solrVersionWatch.js';
import { termsQuery, WORK_KEY_SEPARATOR } from './termsQuery.js';
import { facetFieldNamesOf } from './workIndex/documentFacets.js';
import { checkSolrWorkIndexOptions, WorkIndexAnswers, type FetchedWork, type CheckedSolrWorkIndexOptions, type SolrWorkIndexOptions } from './workIndex/workIndexAnswers.js';

/** Versions read per request for an order sorted here (src/record/recordOrder.ts): one request for nearly every work. */
const WORK_ROWS_SORTED_HERE = 2000;

/** Record field (the record document's name, recordFields.ts) → Solr field name. */
export type SolrFieldMap = Record<RecordFieldName, string>;

/** The field table's Solr names (VuFind's `biblio` schema, which uses the record document's names). */
export const DEFAULT_SOLR_FIELDS: Readonly<SolrFieldMap> = Object.freeze(
  Object.fromEntries(RECORD_FIELDS.map((field) => [field.name, field.solr])) as SolrFieldMap,
);

export const DEFAULT_SOLR_TIMEOUT_MS = 5000;
export const DEFAULT_SOLR_FACET_FIELDS: readonly string[] = Object.freeze(['format']);
/** Least time between two background reads of the index's version (contentVersion); 0: none, no kept answers. */
export const DEFAULT_SOLR_VERSION_CHECK_MS = 1000;
/** Above this many bytes of form-encoded parameters the query goes as a POST body: Jetty's default
 * request-header limit is 8 KB, and proxies in front of Solr are often stricter. */
export const SOLR_POST_THRESHOLD_BYTES = 4096;
export { WORK_KEY_SEPARATOR } from './termsQuery.js';

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
  /**
   * Least time in ms between two background reads of the index's version, which let the plugin keep
   * finished answers (default 1000; 0 reads nothing and keeps no answers). A change committed in Solr
   * shows in answers within about this time plus the read's own.
   */
  versionCheckMs?: number;
  /**
   * Kept answers are used for at most this many ms after the start of the last read that confirmed the
   * version (default versionCheckMs + timeoutMs); past it, while Solr cannot be asked, every answer is
   * built afresh. More than versionCheckMs.
   */
  maxStalenessMs?: number;
  logger?: SolrIndexLogger;
  /** Versions from a work index file beside the core (docs/solr.md) instead of `work_keys_str_mv`. */
  workIndex?: SolrWorkIndexOptions;
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
  /** 0: no version reads, contentVersion() always `undefined`. */
  versionCheckMs: number;
  maxStalenessMs: number;
  logger: SolrIndexLogger | undefined;
  workIndex?: CheckedSolrWorkIndexOptions;
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

  const versionCheckMs = options.versionCheckMs === undefined
    ? DEFAULT_SOLR_VERSION_CHECK_MS
    : wholeMilliseconds('versionCheckMs', options.versionCheckMs, 0);
  const maxStalenessMs = options.maxStalenessMs === undefined
    ? Math.min(MAX_TIMEOUT_MS, versionCheckMs + timeoutMs)
    : wholeMilliseconds('maxStalenessMs', options.maxStalenessMs, 1);
  if (versionCheckMs > 0 && maxStalenessMs <= versionCheckMs) {
    throw new InvalidOptionError('maxStalenessMs', `must be more than versionCheckMs (${versionCheckMs}), or kept answers would lapse between two reads; got ${maxStalenessMs}`);
  }

  const logger = options.logger;
  if (logger !== undefined && (typeof logger !== 'object' || logger === null)) {
    throw new InvalidOptionError('logger', 'must be an object with optional debug() and warn() methods');
  }
  const workIndex = checkSolrWorkIndexOptions(options.workIndex);
  return { endpoint, timeoutMs, fields: Object.freeze(fields), facetFields, versionCheckMs, maxStalenessMs, logger, ...(workIndex ? { workIndex } : {}) };
}

function wholeMilliseconds(option: string, value: unknown, least: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < least || value > MAX_TIMEOUT_MS) {
    throw new InvalidOptionError(option, `must be a whole number of milliseconds from ${least} to ${MAX_TIMEOUT_MS}, not ${String(value)}`);
  }
  return value;
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
  private readonly versionWatch: VersionWatch | undefined;
  private readonly workIndex: WorkIndexAnswers | undefined;
  private closed = false;

  constructor(settings: SolrIndexSettings) {
    this.settings = settings;
    ({ agent: this.agent, client: this.client } = openSolrClient<SolrClient>(settings.endpoint));
    const { fields } = settings;
    if (settings.workIndex) this.findVersionsOf = (record, query) => this.versionsOfRecord(record, query);
    this.workIndex = settings.workIndex && new WorkIndexAnswers(settings.workIndex, fields.id, fields.work_keys_str_mv, fields.last_indexed, facetFieldNamesOf(fields));
    const { versionCheckMs, maxStalenessMs, endpoint, logger } = settings;
    this.versionWatch = versionCheckMs === 0 ? undefined : new VersionWatch({
      intervalMs: versionCheckMs,
      maxStalenessMs,
      probe: solrIndexVersionProbe((params, what) => this.select(params, what), endpoint.display),
      onFailure: (error) => logger?.warn?.(
        `Solr ${endpoint.display}: reading the index version failed (${error instanceof Error ? error.message : String(error)}); `
        + `kept answers are used for at most ${maxStalenessMs} ms after the last good read, then every answer is built afresh`,
      ),
      onRecovery: (failures) => logger?.debug?.(`Solr ${endpoint.display}: index version read again after ${failures} failed attempt${failures === 1 ? '' : 's'}`),
    });
  }

  /**
   * The version a background read found and a second one confirmed, or `undefined` (build afresh): see
   * solrVersionWatch.ts for when. Never a request of its own; the first call starts the reads.
   */
  contentVersion(): string | undefined {
    const core = this.versionWatch?.current();
    // With a work index, answers also change when a sync changes the file.
    return this.workIndex === undefined || core === undefined ? core : `${core}/${this.workIndex.version()}`;
  }

  async getRecord(id: string): Promise<CatalogRecord | undefined> {
    checkRecordId('getRecord', id);
    const { fields } = this.settings;
    // With a work index, a small work's documents come in the record's request, so that its versions
    // (findVersionsOf) need none of their own.
    const work = this.workIndex?.smallWorkOf(id);
    const ids = work?.ids;
    const params: Params = ids === undefined || ids.length === 1
      ? [['q', solrPhrase(fields.id, id)], ['rows', '1']]
      : [['q', termsQuery(fields.id, ids)], ['rows', String(ids.length)]];
    const what = `getRecord(${describeId(id)}${ids !== undefined && ids.length > 1 ? `, with the ${ids.length} of its work` : ''})`;
    const response = await this.select(params, what);
    const doc = ids === undefined || ids.length === 1 ? response.docs[0] : response.docs.find((found) => found[fields.id] === id);
    if (doc === undefined) return undefined;
    const record = this.toRecord(doc, what);
    if (record.id !== id) {
      // Only a tokenised id field could do this; a different record must never stand in for the one asked.
      this.settings.logger?.warn?.(`Solr ${this.settings.endpoint.display}: id:"…" query for ${describeId(id)} returned record ${describeId(record.id)}; treated as missing`);
      return undefined;
    }
    if (work !== undefined && this.workIndex) {
      const documents = new Map<string, Record<string, unknown>>();
      for (const found of response.docs) if (typeof found[fields.id] === 'string') documents.set(found[fields.id] as string, found);
      this.workIndex.keepFetched(record, { work, documents });
    }
    return record;
  }

  /**
   * With a work index: the versions of a record from getRecord, exactly as findVersions answers its keys
   * (a record without keys lists itself alone), from the documents fetched with it when they hold the page.
   */
  readonly findVersionsOf?: (record: CatalogRecord, query: RecordVersionsQuery) => Promise<VersionsPage>;

  private async versionsOfRecord(record: CatalogRecord, query: RecordVersionsQuery): Promise<VersionsPage> {
    const fetched = this.workIndex?.takeFetched(record);
    if (record.workKeys.length === 0) return versionsOfKeylessRecord(record, query.offset);
    return this.versionsByKeys({ ...query, workKeys: record.workKeys }, fetched);
  }

  findVersions(query: VersionsQuery): Promise<VersionsPage> {
    return this.versionsByKeys(query, undefined);
  }

  /** findVersions, with the documents fetched with the requested record when there are any (getRecord). */
  private async versionsByKeys(query: VersionsQuery, fetched: FetchedWork | undefined): Promise<VersionsPage> {
    const { fields, facetFields } = this.settings;
    checkVersionsQuery(query);
    const keys = queryableKeys(query.workKeys, this.settings);
    if (keys.length === 0) return { total: 0, records: [] };
    if (this.workIndex) return this.workIndex.findVersions({ ...query, workKeys: keys }, (params, what) => this.select(params, what), (doc, what) => this.toRecord(doc, what), fetched);

    // An order on record fields, filters or facets: the whole work in one request (ids in order, so a work
    // larger than one request's rows is read in id order, a page at a time), cut here by the rules every
    // adapter shares (src/record/recordFacets.ts).
    const byFields = readsWholeWork(query);
    const sort = query.order === 'last-indexed'
      ? `${fields.last_indexed} desc,${fields.id} asc`
      : `score desc,${fields.id} asc`;
    // The separator is sent as the character itself inside the quoted local param (Solr's quoted local-param
    // values take any character but `\` and the quote literally).
    const params: Array<readonly [string, string]> = [
      ['q', `{!terms f=${fields.work_keys_str_mv} separator="${WORK_KEY_SEPARATOR}"}${keys.join(WORK_KEY_SEPARATOR)}`],
      ['start', byFields ? '0' : String(query.offset)],
      ['rows', String(byFields ? WORK_ROWS_SORTED_HERE : query.limit)],
      ['sort', sort],
    ];
    if (facetFields.length > 0) {
      params.push(['facet', 'true']);
      for (const field of facetFields) params.push(['facet.field', field]);
      params.push(['facet.limit', '30'], ['facet.mincount', '1']);
    }
    const what = `findVersions(${keys.length} key${keys.length === 1 ? '' : 's'}, ${query.order}, start ${query.offset})`;
    const response = await this.select(params, what);
    let records = response.docs.map((doc) => this.toRecord(doc, what));
    if (byFields) {
      for (let start = records.length; start < response.numFound && response.docs.length > 0; start += WORK_ROWS_SORTED_HERE) {
        const more = await this.select(params.map(([name, value]) => (name === 'start' ? [name, String(start)] as const : [name, value] as const)), what);
        if (more.docs.length === 0) break;
        records = records.concat(more.docs.map((doc) => this.toRecord(doc, what)));
      }
      return pageOfWork(records, query);
    }
    return { total: response.numFound, records };
  }

  /**
   * Version counts for a result list in at most two /select requests, whatever the number of ids:
   *
   *   1. q={!terms f=id separator="␟"}<id 1>␟<id 2>…  fl=id,work_keys_str_mv  rows=<number of ids>
   *      (which of the ids name records, and their work keys);
   *   2. q=*:*  rows=0  facet=true, and per distinct key list of those records
   *      facet.query={!terms f=work_keys_str_mv separator="␟" key=vN}<key 1>␟<key 2>…
   *      (how many records carry any of those keys: the same query as findVersions, so the same total).
   *
   * A facet.query counts the documents of the main result (here every document) matching it, and on a
   * SolrCloud collection the counts of every shard are added up under their `key`, so the counts are
   * right however the records are spread over shards (the single-request `{!join}` form this replaces saw
   * only the versions on the shard of the record itself). `key` names each count in
   * facet_counts.facet_queries, so answers are matched by name, not by echoed query text. Records with
   * the same key list (versions of one work on one result page) share one facet.query. Records without
   * keys count 1, ids naming no record are absent, and when no record has keys the second request is not
   * sent. Work keys containing the separator are left out, as findVersions leaves them out; ids pick a
   * separator they do not contain.
   */
  async countVersions(ids: readonly string[]): Promise<Map<string, number>> {
    checkRecordIds('countVersions', ids);
    const { fields, logger, endpoint } = this.settings;
    const unique = [...new Set(ids)];
    const counts = new Map<string, number>();
    if (unique.length === 0) return counts;
    if (this.workIndex) return this.workIndex.countVersions(unique);
    const keyField = fields.work_keys_str_mv;
    const what = `countVersions(${unique.length} id${unique.length === 1 ? '' : 's'})`;

    const found = await this.select([
      ['q', termsQuery(fields.id, unique)],
      ['fl', `${fields.id},${keyField}`],
      ['rows', String(unique.length)],
    ], `${what} records`);
    const asked = new Set(unique);
    const keysOf = new Map<string, string[]>();
    for (const doc of found.docs) {
      const id = firstText(doc[fields.id]);
      if (id === undefined || !asked.has(id)) {
        // Only a tokenised id field could do this; a different record must never lend its count.
        logger?.warn?.(`Solr ${endpoint.display}: ${what} returned a record ${id === undefined ? 'without a usable id' : describeId(id)} that was not asked for; ignored`);
        continue;
      }
      keysOf.set(id, queryableKeys(textsOf(doc[keyField]), this.settings));
    }

    const facetKeyOf = new Map<string, string>();
    const params: Array<readonly [string, string]> = [['q', '*:*'], ['rows', '0'], ['facet', 'true']];
    for (const id of unique) {
      const keys = keysOf.get(id);
      if (keys === undefined || keys.length === 0) continue;
      const list = keys.join(WORK_KEY_SEPARATOR);
      if (facetKeyOf.has(list)) continue;
      const key = `v${facetKeyOf.size}`;
      facetKeyOf.set(list, key);
      params.push(['facet.query', `{!terms f=${keyField} separator="${WORK_KEY_SEPARATOR}" key=${key}}${list}`]);
    }
    const countOf = new Map<string, number>();
    if (facetKeyOf.size > 0) {
      const response = await this.select(params, `${what} counts`);
      const prefix = `Solr ${endpoint.display}: ${what} counts`;
      const facetCounts = response.data.facet_counts;
      const queries = isObject(facetCounts) ? facetCounts.facet_queries : undefined;
      if (!isObject(queries)) throw new IndexUnavailableError(`${prefix}: Solr answer has no facet_counts.facet_queries`);
      // Every count must be there and usable: a partial map would show patrons wrong numbers.
      for (const key of facetKeyOf.values()) {
        const value = queries[key];
        if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
          throw new IndexUnavailableError(`${prefix}: Solr answer has no usable facet_queries count "${key}" (${JSON.stringify(value)})`);
        }
        countOf.set(key, value);
      }
    }
    for (const id of unique) {
      const keys = keysOf.get(id);
      if (keys === undefined) continue;
      const facetKey = keys.length === 0 ? undefined : facetKeyOf.get(keys.join(WORK_KEY_SEPARATOR));
      // A record carries its own keys, so it counts itself (a replica lagging the first answer could say 0).
      counts.set(id, facetKey === undefined ? 1 : Math.max(1, countOf.get(facetKey) ?? 0));
    }
    return counts;
  }

  /** Whether the core holds any document: `q=*:*`, `rows=0` (the health check's question). */
  async hasRecords(): Promise<boolean> {
    return (await this.select([['q', '*:*'], ['rows', '0']], 'hasRecords')).numFound > 0;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.versionWatch?.stop();
    this.workIndex?.close();
    this.agent.destroy();
  }

  private toRecord(doc: Record<string, unknown>, what: string): CatalogRecord {
    try {
      return recordFromDocument(toRecordDocument(this.workIndex?.completeDocument(doc) ?? doc, this.settings.fields));
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
    if (outcome.kind === 'failed' && outcome.staleSocket && !this.closed && Date.now() < deadline) {
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
        return solrResultList(outcome, `Solr ${where} ${what}`);
    }
  }

}



function describeId(id: string): string {
  return JSON.stringify(id.length > 120 ? `${id.slice(0, 120)}…` : id);
}

/** The keys a versions query asks for: each once, in order, none containing the separator. */
function queryableKeys(keys: readonly string[], settings: SolrIndexSettings): string[] {
  return [...new Set(keys)].filter((key) => {
    if (!key.includes(WORK_KEY_SEPARATOR)) return true;
    // The terms parser would split such a key in two and match records sharing either half.
    settings.logger?.warn?.(`Solr ${settings.endpoint.display}: work key ${JSON.stringify(key)} contains U+001F and cannot be queried; skipped`);
    return false;
  });
}

function textsOf(value: unknown): string[] {
  const list = value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];
  return list.map(scalarText).filter((item): item is string => typeof item === 'string');
}

function firstText(value: unknown): string | undefined {
  return textsOf(value)[0];
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
