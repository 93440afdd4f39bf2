/**
 * The plugin's named errors. Each has a stable `code`; the HTTP adapter maps codes to statuses and the
 * localised error page in one place (src/http/errorResponses.ts). Messages are for logs and developers only:
 * nothing here is ever shown to a client.
 */

export type VersionsErrorCode =
  | 'RECORD_NOT_FOUND'
  | 'MISSING_RECORD_ID'
  | 'INDEX_UNAVAILABLE'
  | 'INVALID_OPTION'
  | 'INVALID_RECORD_DOCUMENT'
  | CurationErrorCode;

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

// Curated merges and splits of work groups (src/work-keys/curation/, docs/curation.md).

export type CurationErrorCode = 'CURATION_UNKNOWN_RECORD' | 'CURATION_UNKNOWN_DECISION' | 'CURATION_FILE_INVALID';

/** A merge or split names records the index does not hold (a typo, or a record not loaded yet). */
export class UnknownCuratedRecordError extends VersionsError {
  readonly recordIds: readonly string[];
  constructor(recordIds: readonly string[]) {
    super('CURATION_UNKNOWN_RECORD', `The index holds no record ${recordIds.map((id) => JSON.stringify(id)).join(', ')}: merge and split name records it holds`);
    this.recordIds = recordIds;
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
