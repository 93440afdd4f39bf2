/**
 * The catalog index port: what the plugin needs from a search index, in domain terms. Adapters
 * (embeddedIndex.ts, solrIndex.ts) implement it; only they know engine field names and query syntax.
 * A failing engine surfaces as IndexUnavailableError; a missing record is `undefined`, not an error.
 * Both adapters offer contentVersion(): the embedded one from SQLite, the Solr one from a background read
 * (their module comments say how, and how fresh).
 */
import type { CatalogRecord } from '../record/catalogRecord.js';

/** `last-indexed`: last_indexed descending, then id ascending (the feed). `relevance`: score descending,
 * then id ascending (the page); a key filter scores every match alike, so this is id order. */
export type VersionsOrder = 'last-indexed' | 'relevance';

export interface VersionsQuery {
  /** Records sharing at least one of these keys (exact match) are versions. Never empty. */
  readonly workKeys: readonly string[];
  readonly order: VersionsOrder;
  readonly offset: number;
  readonly limit: number;
}

export interface VersionsPage {
  /** How many records share a key, over all pages. */
  readonly total: number;
  readonly records: readonly CatalogRecord[];
}

export interface CatalogIndex {
  getRecord(id: string): Promise<CatalogRecord | undefined>;
  findVersions(query: VersionsQuery): Promise<VersionsPage>;
  /**
   * How many versions each of these records has (itself included; a record without work keys has 1), for
   * a whole result list at once: one round trip to the engine, not one query per record. Ids that name no
   * record are absent from the answer.
   */
  countVersions(ids: readonly string[]): Promise<Map<string, number>>;
  /**
   * A value that changes whenever the index's content may have changed (compared with `===`), read
   * without a round trip to the engine. The plugin reuses finished answers while it stays the same. An
   * adapter that cannot tell cheaply leaves it out, and then every request is answered afresh. A change
   * made elsewhere may show from the next event-loop turn on (the embedded index reads it once a turn), or
   * after the adapter's documented bound (the Solr adapter's `versionCheckMs`).
   *
   * `undefined` means "no version to vouch for right now" (not yet known, changing, or known too long ago
   * because the engine could not be asked): the plugin then builds that answer afresh and keeps nothing,
   * and answers kept earlier serve again only if a later call returns the value they were kept under.
   */
  contentVersion?(): string | undefined;
  close(): Promise<void>;
}
