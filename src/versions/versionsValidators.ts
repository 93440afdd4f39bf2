/**
 * HTTP validators for a versions answer, computed from the data and not from the body: the feed's
 * `pubDate` carries the time of day of each request, so a hash of the body would never match twice and
 * feed readers' conditional requests would never get a 304. What can change the answer goes into the
 * ETag: the listed records and their last_indexed, the total, the page, the view, the language, the theme
 * and the plugin's own settings.
 */
import type { CatalogRecord } from '../record/catalogRecord.js';
import type { VersionsPage } from '../ports.js';
import { sha256Base64url } from '../textDigest.js';

export interface ValidatorInput {
  /** Everything about the plugin and request that shapes the answer besides the data (settings, view, language, theme, page, base URL). */
  readonly variant: readonly string[];
  readonly requestedRecord: CatalogRecord;
  readonly versions: VersionsPage;
}

export interface Validators {
  /** Weak: two answers with the same ETag differ only in the pubDate time of day. */
  readonly etag: string;
  /** The newest last_indexed among the requested record and the listed versions. */
  readonly lastModified: Date;
}

export function versionsValidators({ variant, requestedRecord, versions }: ValidatorInput): Validators {
  // The values, each followed by a NUL, hashed as one text: the same bytes as one update per value, without
  // a call into the hash for each of them (four per listed record).
  let hashed = '';
  for (const part of variant) hashed += `${part}\u0000`;
  hashed += `${requestedRecord.id}\u0000${requestedRecord.lastIndexed}\u0000${versions.total}\u0000`;
  let newest = requestedRecord.lastIndexed;
  for (const record of versions.records) {
    hashed += `${record.id}\u0000${record.lastIndexed}\u0000`;
    if (record.lastIndexed > newest) newest = record.lastIndexed;
  }
  const hash = sha256Base64url(hashed);
  return { etag: `W/"${hash.slice(0, 27)}"`, lastModified: new Date(newest) };
}
