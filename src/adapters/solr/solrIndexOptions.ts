/**
 * The options of the Solr adapter (createSolrIndex): their types, their defaults, and the one check that
 * turns them into settings (checkSolrIndexOptions), which the writer (solrWriter.ts) uses too.
 */
import { InvalidOptionError } from '../../errors.js';
import { RECORD_FIELDS, type RecordFieldName } from '../../record/recordFields.js';
import type { SolrEndpoint } from './solrExchange.js';
import { checkSolrWorkIndexOptions, type CheckedSolrWorkIndexOptions, type SolrWorkIndexOptions } from './workIndex/workIndexAnswers.js';

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
  /**
   * Versions from a work collection in the host's SolrCloud (docs/solr.md, "The work collection"), kept by
   * `catalog-versions sync --work-collection`, instead of `work_keys_str_mv` or a work index file: its URL,
   * e.g. `http://solr1:8983/solr/catalog-versions-works` (user info becomes HTTP basic auth). Its requests
   * have the same deadline (timeoutMs).
   */
  workCollection?: { url: string };
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
  /** The work collection's endpoint, when versions come from one. */
  workCollection?: SolrEndpoint;
}

/** Checks the options (throwing InvalidOptionError naming a wrong one); the writer checks its own with it. */
export function checkSolrIndexOptions(options: SolrIndexOptions): SolrIndexSettings {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidOptionError('options', 'the Solr index needs an options object with at least "url"');
  }
  const endpoint = checkUrl(options.url, 'url');

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
  const workCollection = checkWorkCollection(options.workCollection, endpoint);
  if (workIndex !== undefined && workCollection !== undefined) {
    throw new InvalidOptionError('workCollection', 'and workIndex both say where the work keys are: give one (docs/solr.md, "Choosing where the keys live")');
  }
  return {
    endpoint, timeoutMs, fields: Object.freeze(fields), facetFields, versionCheckMs, maxStalenessMs, logger,
    ...(workIndex ? { workIndex } : {}), ...(workCollection ? { workCollection } : {}),
  };
}

function wholeMilliseconds(option: string, value: unknown, least: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < least || value > MAX_TIMEOUT_MS) {
    throw new InvalidOptionError(option, `must be a whole number of milliseconds from ${least} to ${MAX_TIMEOUT_MS}, not ${String(value)}`);
  }
  return value;
}

/** `workCollection: { url }`, checked: the collection's endpoint, never the core's own. */
function checkWorkCollection(value: unknown, core: SolrEndpoint): SolrEndpoint | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InvalidOptionError('workCollection', 'must be an object { url } naming the work collection');
  for (const name of Object.keys(value)) {
    if (name !== 'url') throw new InvalidOptionError(`workCollection.${name}`, 'is not an option of the work collection (url; its requests have the index\'s timeoutMs)');
  }
  const endpoint = checkUrl((value as { url?: unknown }).url, 'workCollection.url', 'the work collection, e.g. http://localhost:8983/solr/catalog-versions-works');
  if (endpoint.display === core.display) {
    throw new InvalidOptionError('workCollection.url', 'names the catalogue\'s core: the work collection is one of its own (catalog-versions work-collection create)');
  }
  return endpoint;
}

function checkUrl(value: unknown, option: string, example = 'the Solr core, e.g. http://localhost:8983/solr/biblio'): SolrEndpoint {
  if (value === undefined || value === '') {
    throw new InvalidOptionError(option, `is required: the URL of ${example}`);
  }
  if (typeof value !== 'string') throw new InvalidOptionError(option, `must be a string, not ${typeof value}`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidOptionError(option, `is not a URL: ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidOptionError(option, `must be an http or https URL, not ${url.protocol}`);
  }
  if (url.search !== '' || url.hash !== '') {
    throw new InvalidOptionError(option, 'must be the URL of the core, without a query string or fragment');
  }
  // solr-client joins path, core and handler with "/", so the path is kept as given minus trailing slashes.
  const path = url.pathname.replace(/\/+$/, '');
  if (path === '') {
    throw new InvalidOptionError(option, `must name the core or collection: the URL of ${example} (requests go to <url>/select)`);
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
