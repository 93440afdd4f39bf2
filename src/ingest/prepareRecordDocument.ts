/**
 * Readies a record document for an index: checks it, computes its work keys when it carries none, and
 * sets `last_indexed` when absent (docs/record-documents.md, docs/work-keys.md). Pure: the clock is an argument.
 * Both the embedded index and the loader command use it, so every backend stores the same documents.
 */
import { checkRecordDocument, normaliseInstant, type RecordDocument } from '../record/catalogRecord.js';
import { workKeysOf } from '../work-keys/workKeys.js';

/** A document as writers get it: checked, with its work keys as a list and `last_indexed` normalised. */
export type PreparedRecordDocument = RecordDocument & { work_keys_str_mv: string[]; last_indexed: string };

export interface PreparedDocument {
  readonly document: PreparedRecordDocument;
  /** True when `last_indexed` was absent and set from the clock (a re-load may keep the stored one). */
  readonly lastIndexedFromClock: boolean;
}

export function prepareRecordDocument(input: unknown, now: Date): PreparedDocument {
  checkRecordDocument(input);
  const keys = input.work_keys_str_mv;
  const lastIndexed = input.last_indexed;
  const lastIndexedFromClock = lastIndexed === undefined || lastIndexed === null;
  const document: PreparedRecordDocument = {
    ...input,
    work_keys_str_mv: keys === undefined || keys === null ? workKeysOf(input) : typeof keys === 'string' ? [keys] : keys,
    last_indexed: lastIndexedFromClock ? now.toISOString() : normaliseInstant(String(lastIndexed)),
  };
  return { document, lastIndexedFromClock };
}
