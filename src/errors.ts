/**
 * The package's named errors. Each has a stable `code`; the HTTP adapter maps codes to statuses and the
 * localised error page in one place (src/http/errorResponses.ts). Messages are for logs and developers only:
 * nothing here is ever shown to a client. docs/errors.md lists every code (a test holds the two together).
 *
 * Left to others: `IngestStoppedError` (src/ingest/pipeline.ts) is of this family too, with the code
 * INGEST_STOPPED; it lives beside the load summary it carries.
 */

export type VersionsErrorCode =
  | 'RECORD_NOT_FOUND'
  | 'MISSING_RECORD_ID'
  | 'INDEX_UNAVAILABLE'
  | 'INDEX_FILE_MISSING'
  | 'INVALID_OPTION'
  | 'INVALID_RECORD_DOCUMENT'
  | 'INVALID_ARGUMENT'
  | 'INVALID_CALL'
  | 'MALFORMED_MARC'
  | 'UNRECOGNISED_RECORD_FILE'
  | 'INGEST_STOPPED'
  | 'OAI_ERROR'
  | 'OAI_REQUEST_FAILED'
  | 'MALFORMED_OAI_RESPONSE'
  | 'KEY_PROFILE_MISMATCH'
  | 'CURATION_UNKNOWN_RECORD'
  | 'CURATION_UNKNOWN_DECISION'
  | 'CURATION_FILE_INVALID'
  | 'WORK_LABELS_INVALID'
  | 'WORK_COLLECTION_REFUSED';

export class VersionsError extends Error {
  readonly code: VersionsErrorCode;
  constructor(code: VersionsErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }
}

/** The index answered the lookup, but without a record. */
export class RecordNotFoundError extends VersionsError {
  readonly recordId: string;
  constructor(recordId: string) {
    super('RECORD_NOT_FOUND', `Record ${JSON.stringify(recordId)} does not exist`);
    this.recordId = recordId;
  }
}

/** The request named no record (`id` missing or empty). */
export class MissingRecordIdError extends VersionsError {
  constructor() {
    super('MISSING_RECORD_ID', 'The request has no record id (query parameter "id")');
  }
}

/** The index could not be asked or did not answer usably (unreachable, timed out, failing, garbage). */
export class IndexUnavailableError extends VersionsError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('INDEX_UNAVAILABLE', message, options);
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
    super('INDEX_FILE_MISSING', `The index file ${path}${absolutePath === path ? '' : ` (${absolutePath})`} does not exist: check the path, or load records into it first `
      + `(catalog-versions load FILE --db ${path})${readOnly ? '' : '; to start an empty index there, open it with create: true'}`);
    this.path = path;
  }
}

/** A plugin or adapter option is wrong; thrown when the plugin or adapter is created. */
export class InvalidOptionError extends VersionsError {
  readonly option: string;
  constructor(option: string, problem: string) {
    super('INVALID_OPTION', `Invalid option "${option}": ${problem}`);
    this.option = option;
  }
}

/** A record document cannot be loaded; `reason` says why in words a cataloguer understands. */
export class InvalidRecordDocumentError extends VersionsError {
  readonly reason: string;
  constructor(reason: string) {
    super('INVALID_RECORD_DOCUMENT', `Invalid record document: ${reason}`);
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
    super('INVALID_ARGUMENT', `${functionName}: ${argument} must be ${expected}, got ${describeValue(got)}`);
    this.argument = argument;
  }
}

/** A call made at a time it cannot be answered (a harvest iterated twice, a summary before the end). */
export class InvalidCallError extends VersionsError {
  constructor(message: string) {
    super('INVALID_CALL', message);
  }
}

/** MARCXML or ISO 2709 text that cannot be read as MARC records (parseMarcXml). */
export class MalformedMarcError extends VersionsError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('MALFORMED_MARC', message, options);
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
    super('UNRECOGNISED_RECORD_FILE', `${path} holds no ${format} records (found ${found})`);
    this.path = path;
    this.found = found;
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
    super('OAI_ERROR', `${adviceForOaiError(oaiCode)} (OAI-PMH error ${oaiCode}${repositoryMessage === '' ? '' : `: ${repositoryMessage}`}; request ${url})`);
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
    super('OAI_REQUEST_FAILED', message, details?.cause === undefined ? undefined : { cause: details.cause });
    this.url = details?.url ?? '';
    this.status = details?.status;
    this.attempts = details?.attempts ?? 0;
  }
}

/** A response that is not well-formed XML, or not an OAI-PMH response. */
export class MalformedOaiResponseError extends VersionsError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('MALFORMED_OAI_RESPONSE', message, options);
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
    super(
      'KEY_PROFILE_MISMATCH',
      `${index} is keyed with the ${indexProfile} work-key profile, not ${requestedProfile}: load with --key-profile ${indexProfile} (keyProfile: '${indexProfile}'), `
        + `or rebuild: load every file into a new index file with --key-profile ${requestedProfile} and serve that one`,
    );
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
    // Constructed from anything (a host may build one to test its handling): what is not a list of ids is described.
    const named = Array.isArray(recordIds) ? recordIds.map((id) => JSON.stringify(id)).join(', ') : describeValue(recordIds);
    super('CURATION_UNKNOWN_RECORD', `The index holds no record ${named}: merge and split name records it holds`);
    this.recordIds = Array.isArray(recordIds) ? recordIds : [];
  }
}

/** An undo names a decision the index does not keep. */
export class UnknownCurationDecisionError extends VersionsError {
  readonly decisionId: string;
  constructor(decisionId: string) {
    super('CURATION_UNKNOWN_DECISION', `No grouping decision ${JSON.stringify(decisionId)} (\`works list\` shows them)`);
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
    super('CURATION_FILE_INVALID', `${file}${line !== undefined ? `:${line}` : ''}${entry !== undefined ? `: decision ${entry + 1}` : ''}: ${problem}`);
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
    super('WORK_LABELS_INVALID', `${file}${line !== undefined ? `:${line}` : ''}: ${problem}`);
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
    super('WORK_COLLECTION_REFUSED', `Work collection ${JSON.stringify(collection)}: ${problem}`, options);
    this.collection = collection;
  }
}
