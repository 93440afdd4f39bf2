/**
 * Readies a record document for an index: checks it, computes its work keys when it carries none, and
 * sets `last_indexed` when absent (docs/record-documents.md, docs/work-keys.md). Pure: the clock is an argument.
 * Both the embedded index and the loader command use it, so every backend stores the same documents.
 */
import { checkRecordDocument, normaliseInstant, type RecordDocument } from '../record/catalogRecord.js';
import { workKeysOf } from '../work-keys/workKeys.js';

export interface PreparedDocument {
  readonly document: RecordDocument;
  /** True when `last_indexed` was absent and set from the clock (a re-load may keep the stored one). */
  readonly lastIndexedFromClock: boolean;
}

export function prepareRecordDocument(input: unknown, now: Date): PreparedDocument {
  checkRecordDocument(input);
  const document: RecordDocument = { ...input };
  if (document.work_keys_str_mv === undefined || document.work_keys_str_mv === null) {
    document.work_keys_str_mv = workKeysOf(input);
  } else if (typeof document.work_keys_str_mv === 'string') {
    document.work_keys_str_mv = [document.work_keys_str_mv];
  }
  const lastIndexedFromClock = document.last_indexed === undefined || document.last_indexed === null;
  document.last_indexed = lastIndexedFromClock ? now.toISOString() : normaliseInstant(String(document.last_indexed));
  return { document, lastIndexedFromClock };
}
