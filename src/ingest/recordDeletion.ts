/**
 * What a mapping step answers for a source record that says it is withdrawn (a MARC record whose
 * Leader/05 is `d`): not a document but the id to delete, which the pipeline removes from the index as it
 * removes a harvested deletion. The id is the one the record would have been stored under, so the same
 * local mapping (id fields, id prefix) decides both.
 *
 * Left to others: deciding that a record is withdrawn (the mapping, e.g. localMapping.ts), deleting
 * (the pipeline and the writers).
 */
import { InvalidArgumentError } from '../errors.js';

/** A withdrawn record, by the id it is stored under. */
export interface RecordDeletion {
  readonly deletedRecordId: string;
}

export function recordDeletion(id: string): RecordDeletion {
  if (typeof id !== 'string' || id === '') throw new InvalidArgumentError('recordDeletion', 'id', 'the id of the withdrawn record (a non-empty string)', id);
  return { deletedRecordId: id };
}

/** Whether a mapping step answered a deletion; false for anything else (a document, undefined, a number, a Buffer). */
export function isRecordDeletion(value: unknown): value is RecordDeletion {
  return typeof value === 'object' && value !== null && typeof (value as { deletedRecordId?: unknown }).deletedRecordId === 'string'
    && Object.keys(value).length === 1;
}
