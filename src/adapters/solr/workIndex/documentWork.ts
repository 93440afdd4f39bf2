/**
 * The work index's key ids (a 63-bit hash of each key's text) and a document's work as the file gives it
 * (DocumentWork), with what is worked out from one without the file: whether it is the work of given
 * keys (isWorkOf) and its pages (pageOfDocumentWork).
 */
import * as crypto from 'node:crypto';
import type { EngineOrder } from '../../../record/recordOrder.js';

// The work index sorts the engines' own orders; the orders on record fields are sorted from the records.
export type { EngineOrder };

/**
 * A document's work as the file holds it (workOfDocument): the documents sharing any of its keys, itself
 * included, in id order (SQLite's), with their order times, and the document's own key ids, so that the
 * work's pages need no statement of their own (pageOfDocumentWork) when asked for those keys (isWorkOf).
 */
export interface DocumentWork {
  readonly ids: readonly string[];
  readonly orderedAt: readonly number[];
  /** The document's key ids (sorted), or `undefined` when the file does not hold the document. */
  readonly keyIds: readonly bigint[] | undefined;
  /** The documents' rows, for their facet tally (workTallyOf). */
  readonly rows: readonly number[];
}

/** A key's id: the first 63 bits of its SHA-1 (n distinct keys share one with a chance of about n² / 2^64: 1 in 18 million at a million keys). */
export function keyIdOf(key: string): bigint {
  return BigInt(`0x${sha1Hex(key).slice(0, 16)}`) >> 1n;
}

// crypto.hash's one call with hex out costs less than a Hash object and a Buffer per key (docs/benchmarks.md).
const sha1Hex = (text: string): string => crypto.hash('sha1', text, 'hex');

/** A JSON array of key ids, exact (JSON.stringify cannot write a bigint). */
export function keyIdList(keys: Iterable<string>): string {
  return `[${[...new Set(keys)].map((key) => keyIdOf(key).toString()).join(',')}]`;
}

/** Whether a work from workOfDocument is the one the file finds for these keys: its document's keys are exactly them. */
export function isWorkOf(work: DocumentWork, workKeys: readonly string[]): boolean {
  if (work.keyIds === undefined) return false;
  const asked = [...new Set(workKeys.map(keyIdOf))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return asked.length === work.keyIds.length && asked.every((keyId, k) => keyId === work.keyIds![k]);
}

/** A page of a work from workOfDocument, as findVersions gives it for the work's keys (the same orders, ties by id). */
export function pageOfDocumentWork(work: DocumentWork, order: EngineOrder, offset: number, limit: number): { total: number; ids: string[] } {
  let ids = work.ids;
  if (order === 'last-indexed') {
    // Stable: equal times keep the id order.
    ids = work.ids.map((id, k) => k).sort((a, b) => work.orderedAt[b]! - work.orderedAt[a]!).map((k) => work.ids[k]!);
  }
  return { total: work.ids.length, ids: ids.slice(offset, offset + limit) };
}
