/**
 * What "unchanged content" means, for every backend: two documents of one record have the same content
 * when every record field the plugin reads (recordFields.ts) but `last_indexed` holds the same values,
 * whatever their spelling (a string or a one-element list, a field absent or empty). Fields the plugin
 * does not read do not count: a change nobody sees must not move a record to the top of its feeds.
 *
 * The ingest pipeline uses it to keep the stored `last_indexed` of a record loaded again unchanged; the
 * embedded index stores the fingerprint beside each record, the Solr writer computes it from the stored
 * document it reads back.
 */
import { RECORD_FIELDS } from './recordFields.js';
import { sha256Base64url } from '../textDigest.js';

const CONTENT_FIELDS = RECORD_FIELDS.filter((field) => field.name !== 'last_indexed');

/** A short stable hash of the document's content in the sense above. */
export function contentFingerprintOf(document: Readonly<Record<string, unknown>>): string {
  const parts: unknown[] = [];
  for (const field of CONTENT_FIELDS) {
    const value = document[field.name];
    const list = value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];
    if (list.length === 0) continue;
    parts.push(field.name, field.multiValued ? list : list[0]);
  }
  return sha256Base64url(JSON.stringify(parts));
}
