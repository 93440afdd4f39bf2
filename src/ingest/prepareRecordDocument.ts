/**
 * Readies a record document for an index: checks it, computes its work keys when it carries none (under
 * the index's work-key profile, src/work-keys/workKeyProfiles.ts; keys a document carries are kept under
 * either), and
 * sets `last_indexed` when absent (docs/record-documents.md, docs/work-keys.md). Pure: the clock is an argument.
 * Both the embedded index and the loader command use it, so every backend stores the same documents.
 */
import { checkRecordDocument, normaliseInstant, type RecordDocument } from '../record/catalogRecord.js';
import { DEFAULT_WORK_KEY_PROFILE, WORK_KEY_PROFILES, type WorkKeyProfileName } from '../work-keys/workKeyProfiles.js';
import type { PreparedRecordDocument } from '../ports.js';

export type { PreparedRecordDocument };

export interface PreparedDocument {
  readonly document: PreparedRecordDocument;
  /** True when `last_indexed` was absent and set from the clock (a re-load may keep the stored one). */
  readonly lastIndexedFromClock: boolean;
}

export function prepareRecordDocument(input: unknown, now: Date, keyProfile: WorkKeyProfileName = DEFAULT_WORK_KEY_PROFILE): PreparedDocument {
  checkRecordDocument(input);
  return preparedWithKeys(input, carriedWorkKeys(input) ?? WORK_KEY_PROFILES[keyProfile].keysOfDocument(input), now);
}

/** The work keys a checked document carries, as a list; undefined when it carries none (they are to be made). */
export function carriedWorkKeys(document: RecordDocument): string[] | undefined {
  const keys = document.work_keys_str_mv;
  return keys === undefined || keys === null ? undefined : typeof keys === 'string' ? [keys] : keys;
}

/** A checked document prepared with its keys (carriedWorkKeys, else made under the profile): prepareRecordDocument's second half. */
export function preparedWithKeys(input: RecordDocument, keys: string[], now: Date): PreparedDocument {
  return preparedAs({ ...input }, keys, now);
}

/**
 * A freshly mapped document that nothing else holds (a mapping's answer, in a mapping worker), checked and
 * prepared as prepareRecordDocument would, in place: the same properties in the same order, without the copy.
 */
export function prepareMappedDocument(mapped: unknown, now: Date, keyProfile: WorkKeyProfileName): PreparedDocument {
  checkRecordDocument(mapped);
  return preparedAs(mapped, carriedWorkKeys(mapped) ?? WORK_KEY_PROFILES[keyProfile].keysOfDocument(mapped), now);
}

/** `document` (a copy, or a document nothing else holds) given its keys and last_indexed. */
function preparedAs(document: RecordDocument, keys: string[], now: Date): PreparedDocument {
  const lastIndexed = document.last_indexed;
  const lastIndexedFromClock = lastIndexed === undefined || lastIndexed === null;
  const prepared = document as PreparedRecordDocument;
  prepared.work_keys_str_mv = keys;
  prepared.last_indexed = lastIndexedFromClock ? instantOf(now) : normaliseInstant(String(lastIndexed));
  return { document: prepared, lastIndexedFromClock };
}

// The clock's last instant as text: a load's documents mostly share one clock.
let lastClockMillis = Number.NaN;
let lastClockText = '';

/** `now.toISOString()`, written once per instant. */
function instantOf(now: Date): string {
  const millis = now.getTime();
  if (millis !== lastClockMillis) {
    lastClockText = now.toISOString();
    lastClockMillis = millis;
  }
  return lastClockText;
}
