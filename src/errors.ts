/**
 * The package's named errors, and the one table of their codes. Each code has one definition there, as
 * Fastify keeps its errors: the HTTP status it gets if it reaches a request, the error page's problem and
 * label keys when a patron can act on it, and the maker of its message; the classes below take their
 * message from it. The HTTP adapter's statuses and problems (src/http/errorResponses.ts) and the error
 * page's labels (src/page/errorModel.ts) are read from the table. Messages are for logs and developers
 * only: nothing here is ever shown to a client. docs/errors.md lists every code with its status, and the
 * i18n files hold every label key the table names (test/http/errors.test.ts holds both to the table).
 *
 * This module imports nothing: every layer may throw these errors. That is why the summary a stopped
 * load carries (IngestSummary) is declared here, beside IngestStoppedError, and not in the pipeline.
 * It stays longer than 300 lines on purpose: the table and the classes that read it are read together.
 */

/** What each row of the table holds. */
interface ErrorDefinitionShape {
  /** The HTTP status if an error of this code reaches a request (only the first three are meant to). */
  readonly status: number;
  /**
   * For a failure the patron can act on: the page's problem, and the label keys (i18n/*.json) of its
   * subheading (what happened) and advice (what to do). Absent: the page's three lines alone.
   */
  readonly page?: { readonly problem: string; readonly subject: `error.${string}`; readonly advice: `error.${string}` };
  /** The message, from the arguments the class is given. */
  readonly message: (...args: never[]) => string;
}

/** A message the thrower words itself (it knows the engine, the file or the call at fault). */
const asGiven = (message: string) => message;

/** Where a file and a 1-based line (when one is at fault) are: `file` or `file:line`. */
const fileAndLine = (file: string, line: number | undefined) => `${file}${line !== undefined ? `:${line}` : ''}`;

/** Every code, in the order docs/errors.md lists them. */
export const ERROR_DEFINITIONS = {
  RECORD_NOT_FOUND: {
    status: 404,
    page: { problem: 'recordMissing', subject: 'error.recordMissing', advice: 'error.recordMissingAdvice' },
    message: (recordId: string) => `Record ${JSON.stringify(recordId)} does not exist`,
  },
  MISSING_RECORD_ID: {
    status: 400,
    page: { problem: 'badRequest', subject: 'error.badRequest', advice: 'error.badRequestAdvice' },
    message: () => 'The request has no record id (query parameter "id")',
  },
  INDEX_UNAVAILABLE: {
    status: 503,
    page: { problem: 'unavailable', subject: 'error.unavailable', advice: 'error.unavailableAdvice' },
    message: asGiven,
  },
  INDEX_FILE_MISSING: {
    status: 500,
    message: (path: string, absolutePath: string, readOnly: boolean) =>
      `The index file ${path}${absolutePath === path ? '' : ` (${absolutePath})`} does not exist: check the path, or load records into it first `
        + `(catalog-versions load FILE --db ${path})${readOnly ? '' : '; to start an empty index there, open it with create: true'}`,
  },
  INVALID_OPTION: { status: 500, message: (option: string, problem: string) => `Invalid option "${option}": ${problem}` },
  INVALID_RECORD_DOCUMENT: { status: 500, message: (reason: string) => `Invalid record document: ${reason}` },
  INVALID_ARGUMENT: {
    status: 500,
    message: (functionName: string, argument: string, expected: string, got: unknown) => `${functionName}: ${argument} must be ${expected}, got ${describeValue(got)}`,
  },
  INVALID_CALL: { status: 500, message: asGiven },
  MALFORMED_MARC: { status: 500, message: asGiven },
  UNRECOGNISED_RECORD_FILE: { status: 500, message: (path: string, format: string, found: string) => `${path} holds no ${format} records (found ${found})` },
  INGEST_STOPPED: { status: 500, message: (cause: unknown) => (cause instanceof Error ? cause.message : String(cause)) },
  OAI_ERROR: {
    status: 500,
    message: (oaiCode: string, repositoryMessage: string, url: string) =>
      `${adviceForOaiError(oaiCode)} (OAI-PMH error ${oaiCode}${repositoryMessage === '' ? '' : `: ${repositoryMessage}`}; request ${url})`,
  },
  OAI_REQUEST_FAILED: { status: 500, message: asGiven },
  MALFORMED_OAI_RESPONSE: { status: 500, message: asGiven },
  KEY_PROFILE_MISMATCH: {
    status: 500,
    message: (index: string, indexProfile: string, requestedProfile: string) =>
      `${index} is keyed with the ${indexProfile} work-key profile, not ${requestedProfile}: load with --key-profile ${indexProfile} (keyProfile: '${indexProfile}'), `
        + `or rebuild: load every file into a new index file with --key-profile ${requestedProfile} and serve that one`,
  },
  CURATION_UNKNOWN_RECORD: {
    status: 500,
    // Constructed from anything (a host may build one to test its handling): what is not a list of ids is described.
    message: (recordIds: readonly string[]) =>
      `The index holds no record ${Array.isArray(recordIds) ? recordIds.map((id) => JSON.stringify(id)).join(', ') : describeValue(recordIds)}: merge and split name records it holds`,
  },
  CURATION_UNKNOWN_DECISION: { status: 500, message: (decisionId: string) => `No grouping decision ${JSON.stringify(decisionId)} (\`works list\` shows them)` },
  CURATION_FILE_INVALID: {
    status: 500,
    message: (file: string, entry: number | undefined, problem: string, line?: number) =>
      `${fileAndLine(file, line)}${entry !== undefined ? `: decision ${entry + 1}` : ''}: ${problem}`,
  },
  WORK_LABELS_INVALID: { status: 500, message: (file: string, line: number | undefined, problem: string) => `${fileAndLine(file, line)}: ${problem}` },
  WORK_COLLECTION_REFUSED: { status: 500, message: (collection: string, problem: string) => `Work collection ${JSON.stringify(collection)}: ${problem}` },
} as const satisfies Record<string, ErrorDefinitionShape>;

export type VersionsErrorCode = keyof typeof ERROR_DEFINITIONS;

/** One row of the table, as its code's readers see it. */
export type ErrorDefinition = (typeof ERROR_DEFINITIONS)[VersionsErrorCode];

/** What the error page explains for a code: its problem and label keys (the rows that have a `page`). */
export type ErrorPage = ErrorDefinition extends infer Row ? (Row extends { readonly page: infer Page } ? Page : never) : never;

/** The row of a code; undefined for a code the table does not hold (a host may make a VersionsError of its own). */
export function errorDefinitionOf(code: string): ErrorDefinition | undefined {
  return Object.hasOwn(ERROR_DEFINITIONS, code) ? ERROR_DEFINITIONS[code as VersionsErrorCode] : undefined;
}

/**
 * The mark of the family, the same in every copy of this module (a registered symbol). A process may hold
 * two copies of the package: a host that bundles it beside the installed one, or a loader that runs a
 * module `require`d from an ES module as a copy of its own (tsx does; the root's deprecated adapter names,
 * src/deprecatedExports.ts, load theirs so). `instanceof` still answers for an error of the other copy.
 */
const VERSIONS_ERROR_MARK = Symbol.for('koa-catalog-versions.VersionsError');

export class VersionsError extends Error {
  readonly code: VersionsErrorCode;
  constructor(code: VersionsErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }

  /**
   * `error instanceof C` for C this class or one that extends it: as always for an error of this copy;
   * for an error of another copy, when it bears the family's mark and its class, or a class it extends,
   * is a class of the family with C's name.
   */
  static override [Symbol.hasInstance](candidate: unknown): boolean {
    if (Function.prototype[Symbol.hasInstance].call(this, candidate)) return true;
    if (typeof candidate !== 'object' || candidate === null || !(VERSIONS_ERROR_MARK in candidate)) return false;
    for (let prototype: unknown = Object.getPrototypeOf(candidate); typeof prototype === 'object' && prototype !== null; prototype = Object.getPrototypeOf(prototype)) {
      const made = Object.hasOwn(prototype, 'constructor') ? (prototype as { constructor: unknown }).constructor : undefined;
      if (VERSIONS_ERROR_MARK in prototype && typeof made === 'function' && made.name === this.name) return true;
    }
    return false;
  }
}
Object.defineProperty(VersionsError.prototype, VERSIONS_ERROR_MARK, { value: true });

/** The index answered the lookup, but without a record. */
export class RecordNotFoundError extends VersionsError {
  readonly recordId: string;
  constructor(recordId: string) {
    super('RECORD_NOT_FOUND', ERROR_DEFINITIONS.RECORD_NOT_FOUND.message(recordId));
    this.recordId = recordId;
  }
}

/** The request named no record (`id` missing or empty). */
export class MissingRecordIdError extends VersionsError {
  constructor() {
    super('MISSING_RECORD_ID', ERROR_DEFINITIONS.MISSING_RECORD_ID.message());
  }
}

/** The index could not be asked or did not answer usably (unreachable, timed out, failing, garbage). */
export class IndexUnavailableError extends VersionsError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('INDEX_UNAVAILABLE', ERROR_DEFINITIONS.INDEX_UNAVAILABLE.message(message), options);
  }
}

/**
 * The embedded index was asked to open a file that does not exist, without `create: true`: most often a
 * server started with a wrong path or before the first load. `path` is the path as given; the message
 * also names it from the root, since a relative path is read from the process's working folder.
 */
export class IndexFileMissingError extends VersionsError {
  readonly path: string;
  constructor(path: string, absolutePath: string, readOnly: boolean) {
    super('INDEX_FILE_MISSING', ERROR_DEFINITIONS.INDEX_FILE_MISSING.message(path, absolutePath, readOnly));
    this.path = path;
  }
}

/** A plugin or adapter option is wrong; thrown when the plugin or adapter is created. */
export class InvalidOptionError extends VersionsError {
  readonly option: string;
  constructor(option: string, problem: string) {
    super('INVALID_OPTION', ERROR_DEFINITIONS.INVALID_OPTION.message(option, problem));
    this.option = option;
  }
}

/** A record document cannot be loaded; `reason` says why in words a cataloguer understands. */
export class InvalidRecordDocumentError extends VersionsError {
  readonly reason: string;
  constructor(reason: string) {
    super('INVALID_RECORD_DOCUMENT', ERROR_DEFINITIONS.INVALID_RECORD_DOCUMENT.message(reason));
    this.reason = reason;
  }
}

/**
 * A function of the public API was handed a value it cannot take (`undefined`, a number, a Buffer or a
 * plain object where it needs something else). `argument` names the parameter, `expected` what it takes.
 */
export class InvalidArgumentError extends VersionsError {
  readonly argument: string;
  constructor(functionName: string, argument: string, expected: string, got: unknown) {
    super('INVALID_ARGUMENT', ERROR_DEFINITIONS.INVALID_ARGUMENT.message(functionName, argument, expected, got));
    this.argument = argument;
  }
}

/** A call made at a time it cannot be answered (a harvest iterated twice, a summary before the end). */
export class InvalidCallError extends VersionsError {
  constructor(message: string) {
    super('INVALID_CALL', ERROR_DEFINITIONS.INVALID_CALL.message(message));
  }
}

/** MARCXML or ISO 2709 text that cannot be read as MARC records (parseMarcXml). */
export class MalformedMarcError extends VersionsError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('MALFORMED_MARC', ERROR_DEFINITIONS.MALFORMED_MARC.message(message), options);
  }
}

/**
 * A record file holds no record of the format it looks like (an RSS feed or a MODS file taken for
 * MARCXML). `path` is the file, `found` what was found instead (e.g. `the root element <rss>`).
 */
export class UnrecognisedRecordFileError extends VersionsError {
  readonly path: string;
  readonly found: string;
  constructor(path: string, format: string, found: string) {
    super('UNRECOGNISED_RECORD_FILE', ERROR_DEFINITIONS.UNRECOGNISED_RECORD_FILE.message(path, format, found));
    this.path = path;
    this.found = found;
  }
}

// A load stopped (src/ingest/pipeline.ts), with what it did so far.

/** What a load did so far; `loaded` = added + changed + unchanged + notCompared + duplicates (documents written). */
export interface IngestCounts {
  /** Source items taken from the reader so far (records, problems, deletions). */
  readonly read: number;
  /** Documents written (the engine accepted them). */
  readonly loaded: number;
  /** Of those: ids the index did not hold. */
  readonly added: number;
  /** Ids the index held, with other content. */
  readonly changed: number;
  /** Ids the index held, with the same content (their stored last_indexed is kept). */
  readonly unchanged: number;
  /**
   * Documents that carry their own last_indexed: written as they are, without asking the index what it
   * holds for them (so neither new, changed nor unchanged).
   */
  readonly notCompared: number;
  /** Records whose id an earlier record of this run had (written over it: the last one wins). */
  readonly duplicates: number;
  readonly rejected: number;
  /** Deletions of records the index held (or this run had written). */
  readonly deleted: number;
  /** Deletions of ids the index did not hold (nothing to remove). */
  readonly deletionsNotHeld: number;
}

/** What a load did, and how long it took (seconds). */
export interface IngestSummary extends IngestCounts {
  readonly seconds: number;
}

/** A load that stopped on a fault of the source or the index; `summary` says how far it got. */
export class IngestStoppedError extends VersionsError {
  readonly summary: IngestSummary;
  constructor(cause: unknown, summary: IngestSummary) {
    super('INGEST_STOPPED', ERROR_DEFINITIONS.INGEST_STOPPED.message(cause), { cause });
    this.summary = summary;
  }
}

/**
 * The OAI-PMH repository answered with an OAI-PMH error (other than noRecordsMatch). `oaiCode` is the
 * protocol's code: badArgument, badResumptionToken, cannotDisseminateFormat, ...
 */
export class OaiError extends VersionsError {
  readonly oaiCode: string;
  /** The repository's own explanation (may be empty). */
  readonly repositoryMessage: string;
  readonly url: string;
  constructor(oaiCode: string, repositoryMessage: string, url: string) {
    super('OAI_ERROR', ERROR_DEFINITIONS.OAI_ERROR.message(oaiCode, repositoryMessage, url));
    this.oaiCode = oaiCode;
    this.repositoryMessage = repositoryMessage;
    this.url = url;
  }
}

/** No usable answer from an OAI-PMH repository: HTTP errors, a network that stays down, a response that is not OAI-PMH. */
export class OaiRequestError extends VersionsError {
  readonly url: string;
  /** The last HTTP status, when there was a response. */
  readonly status: number | undefined;
  readonly attempts: number;
  constructor(message: string, details?: { url: string; status?: number; attempts: number; cause?: unknown }) {
    super('OAI_REQUEST_FAILED', ERROR_DEFINITIONS.OAI_REQUEST_FAILED.message(message), details?.cause === undefined ? undefined : { cause: details.cause });
    this.url = details?.url ?? '';
    this.status = details?.status;
    this.attempts = details?.attempts ?? 0;
  }
}

/** A response that is not well-formed XML, or not an OAI-PMH response. */
export class MalformedOaiResponseError extends VersionsError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('MALFORMED_OAI_RESPONSE', ERROR_DEFINITIONS.MALFORMED_OAI_RESPONSE.message(message), options);
  }
}

function adviceForOaiError(code: string): string {
  switch (code) {
    case 'badResumptionToken':
      return 'The repository no longer knows the resumption token (tokens expire, and some repositories forget them on restart): run the harvest again with the same from date';
    case 'badArgument':
      return 'The repository rejected the request\'s arguments: check set, from, until and metadataPrefix';
    case 'cannotDisseminateFormat':
      return 'The repository does not offer this metadataPrefix: use one its ListMetadataFormats lists (e.g. oai_dc)';
    case 'noSetHierarchy':
      return 'The repository has no sets: harvest without a set';
    case 'badVerb':
      return 'The repository does not understand the request: check that baseUrl is the repository\'s OAI-PMH endpoint';
    default:
      return `The repository answered with OAI-PMH error ${JSON.stringify(code)}`;
  }
}

/** A short description of any value for an error message: its type, and its text when short. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (Buffer.isBuffer(value)) return `a Buffer of ${value.length} bytes`;
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'string') return value.length <= 60 ? JSON.stringify(value) : `a string of ${value.length} characters`;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return `the ${typeof value} ${String(value)}`;
  if (typeof value === 'function') return 'a function';
  const keys = Object.keys(value as object);
  return keys.length === 0 ? 'an empty object' : `an object with ${keys.slice(0, 4).join(', ')}${keys.length > 4 ? ', …' : ''}`;
}

// Curated merges and splits of work groups (src/work-keys/curation/, docs/curation.md).

/**
 * A load asked for one work-key profile into an index keyed with another: the two profiles' keys do not
 * meet, so mixing them would split every work. The message says how to rebuild under the other profile.
 */
export class KeyProfileMismatchError extends VersionsError {
  readonly index: string;
  readonly indexProfile: string;
  readonly requestedProfile: string;
  constructor(index: string, indexProfile: string, requestedProfile: string) {
    super('KEY_PROFILE_MISMATCH', ERROR_DEFINITIONS.KEY_PROFILE_MISMATCH.message(index, indexProfile, requestedProfile));
    this.index = index;
    this.indexProfile = indexProfile;
    this.requestedProfile = requestedProfile;
  }
}

export type CurationErrorCode = Extract<VersionsErrorCode, `CURATION_${string}`>;

/** A merge or split names records the index does not hold (a typo, or a record not loaded yet). */
export class UnknownCuratedRecordError extends VersionsError {
  readonly recordIds: readonly string[];
  constructor(recordIds: readonly string[]) {
    super('CURATION_UNKNOWN_RECORD', ERROR_DEFINITIONS.CURATION_UNKNOWN_RECORD.message(recordIds));
    // Constructed from anything (a host may build one to test its handling): what is not a list keeps no ids.
    this.recordIds = Array.isArray(recordIds) ? recordIds : [];
  }
}

/** An undo names a decision the index does not keep. */
export class UnknownCurationDecisionError extends VersionsError {
  readonly decisionId: string;
  constructor(decisionId: string) {
    super('CURATION_UNKNOWN_DECISION', ERROR_DEFINITIONS.CURATION_UNKNOWN_DECISION.message(decisionId));
    this.decisionId = decisionId;
  }
}

/**
 * A decisions file cannot be imported; `file`, and `entry` (0-based) and `line` (1-based, where it
 * starts) of the decision at fault when there is one, say where.
 */
export class InvalidCurationFileError extends VersionsError {
  readonly file: string;
  readonly entry: number | undefined;
  readonly line: number | undefined;
  constructor(file: string, entry: number | undefined, problem: string, line?: number) {
    super('CURATION_FILE_INVALID', ERROR_DEFINITIONS.CURATION_FILE_INVALID.message(file, entry, problem, line));
    this.file = file;
    this.entry = entry;
    this.line = line;
  }
}

/**
 * A file of work labels (`works evaluate --gold`: which records are one work) cannot be read; `file` and
 * `line` (1-based, when one line is at fault) say where.
 */
export class InvalidWorkLabelsError extends VersionsError {
  readonly file: string;
  readonly line: number | undefined;
  constructor(file: string, line: number | undefined, problem: string) {
    super('WORK_LABELS_INVALID', ERROR_DEFINITIONS.WORK_LABELS_INVALID.message(file, line, problem));
    this.file = file;
    this.line = line;
  }
}

/**
 * A work collection command (create, delete: src/adapters/solr/workCollection/workCollectionAdmin.ts) that
 * Solr refused or that was not carried out: a collection of that name exists already, the collection named
 * is not a work collection (delete touches no other), or the Configsets or Collections API answered an
 * error (its message is quoted). `collection` is the collection's name.
 */
export class WorkCollectionError extends VersionsError {
  readonly collection: string;
  constructor(collection: string, problem: string, options?: { cause?: unknown }) {
    super('WORK_COLLECTION_REFUSED', ERROR_DEFINITIONS.WORK_COLLECTION_REFUSED.message(collection, problem), options);
    this.collection = collection;
  }
}
