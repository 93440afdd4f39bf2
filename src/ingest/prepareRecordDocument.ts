/**
 * Readies a record document for an index: checks it, computes its work keys when it carries none (under
 * the index's work-key profile, src/work-keys/workKeyProfiles.ts; keys a document carries are kept under
 * either), and
 * sets `last_indexed` when absent (docs/record-documents.md, docs/work-keys.md). Pure: the clock is an argument.
 * Both the embedded index and the loader command use it, so every backend stores the same documents.
 */
import { checkRecordDocument, normaliseInstant, type RecordDocument } from '../record/catalogRecord.js';
import { WORK_KEY_PROFILES, type WorkKeyProfileName } from '../work-keys/workKeyProfiles.js';

/** A document as writers get it: checked, with its work keys as a list and `last_indexed` normalised. */
export type PreparedRecordDocument = RecordDocument & { work_keys_str_mv: string[]; last_indexed: string };

export interface PreparedDocument {
  readonly document: PreparedRecordDocument;
  /** True when `last_indexed` was absent and set from the clock (a re-load may keep the stored one). */
  readonly lastIndexedFromClock: boolean;
}

export function prepareRecordDocument(input: unknown, now: Date, keyProfile: WorkKeyProfileName = 'vufind'): PreparedDocument {
  checkRecordDocument(input);
  const keys = input.work_keys_str_mv;
  const lastIndexed = input.last_indexed;
  const lastIndexedFromClock = lastIndexed === undefined || lastIndexed === null;
  const document: PreparedRecordDocument = {
    ...input,
    work_keys_str_mv: keys === undefined || keys === null ? WORK_KEY_PROFILES[keyProfile].keysOfDocument(input) : typeof keys === 'string' ? [keys] : keys,
    last_indexed: lastIndexedFromClock ? now.toISOString() : normaliseInstant(String(lastIndexed)),
  };
  return { document, lastIndexedFromClock };
}
