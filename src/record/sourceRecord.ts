/**
 * The contract between readers and the ingest pipeline (traject's model): a reader is any (async) iterable
 * of source items, each carrying where it came from, so that every rejection can name its record.
 *
 * A reader yields the records it could read, a problem for each record it could not (a broken MARC
 * directory, a line that is not JSON), and, for harvests, deletions. It never throws for one bad record;
 * it throws only when the source itself cannot be read (missing file, a network that stays down).
 *
 * Left to others: turning a source record into a record document (the mapping step, e.g.
 * marc/vufindMarcMapping.ts), preparing and writing documents (pipeline).
 */
import { InvalidArgumentError } from '../errors.js';

/** Where one record came from. */
export interface RecordPosition {
  /** The file path, or the OAI-PMH base URL of a harvest. */
  readonly source: string;
  /** 1-based number of the record in its source (for JSON Lines, of the non-blank line). */
  readonly recordNumber: number;
  /** JSON Lines: the 1-based line number in the file. */
  readonly line?: number;
  /** The record's own identifier when the reader knows it: MARC 001, OAI identifier, document id. */
  readonly id?: string;
}

export type SourceItem<T> =
  | { readonly kind: 'record'; readonly position: RecordPosition; readonly record: T }
  | { readonly kind: 'problem'; readonly position: RecordPosition; readonly reason: string }
  /** A harvested deletion (OAI-PMH `status="deleted"`): the record with this id leaves the index. */
  | { readonly kind: 'deleted'; readonly position: RecordPosition; readonly id: string };

/**
 * Where a record came from, for messages: `catalog.mrc:record 12 (001 ocm123)` for MARC, `catalog.jsonl:3`
 * for JSON Lines, `https://repo.example/oai (oai:repo:42)` for a harvest.
 */
export function describePosition(position: RecordPosition): string {
  checkPosition('describePosition', position);
  if (position.line !== undefined) return `${position.source}:${position.line}`;
  if (/^https?:\/\//.test(position.source)) {
    return `${position.source} (${position.id ?? `record ${position.recordNumber}`})`;
  }
  return `${position.source}:record ${position.recordNumber}${position.id !== undefined ? ` (001 ${position.id})` : ''}`;
}

/**
 * A rejection as the loader reports it: `catalog.mrc:record 12 (001 ocm123): reason`, or for JSON Lines
 * `catalog.jsonl:3: reason (record "x")`, keeping the line number first as compilers and editors expect.
 */
export function describeRejection(position: RecordPosition, reason: string): string {
  checkPosition('describeRejection', position);
  if (typeof reason !== 'string') throw new InvalidArgumentError('describeRejection', 'reason', 'a string', reason);
  const jsonLinesId = position.line !== undefined && position.id !== undefined ? ` (record ${JSON.stringify(position.id)})` : '';
  return `${describePosition(position)}: ${reason}${jsonLinesId}`;
}

function checkPosition(functionName: string, position: unknown): asserts position is RecordPosition {
  const candidate = position as Partial<RecordPosition> | null | undefined;
  if (typeof candidate !== 'object' || candidate === null || typeof candidate.source !== 'string'
    || (typeof candidate.recordNumber !== 'number' && typeof candidate.line !== 'number')) {
    throw new InvalidArgumentError(functionName, 'position', 'a record position ({ source, recordNumber } or { source, line })', position);
  }
}
