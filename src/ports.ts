/**
 * The ports: what the plugin and the loaders need from an index, side by side. Adapters
 * (src/adapters/sqlite/, src/adapters/solr/) implement them and import only what sits below them
 * (test/package/importGraph.test.ts): never the pipeline, the HTTP layer or the CLI; only they know engine
 * field names and query syntax.
 *
 * - `CatalogIndex`, the read port: what listing versions (src/versions/listVersions.ts) asks of an index,
 *   in domain terms. A failing engine surfaces as IndexUnavailableError; a missing record is `undefined`,
 *   not an error. Both adapters offer contentVersion(): the embedded one from SQLite, the Solr one from a
 *   background read (their module comments say how, and how fresh).
 * - `IngestWriter`, the write port: where the ingest pipeline (src/ingest/pipeline.ts) puts prepared
 *   documents.
 * - `HarvestState`, where a harvest (src/ingest/harvestState.ts) remembers how far it got.
 *
 * Beside the write port, the one check of its shape (missingWriterMethods) that what takes a writer uses.
 */
import type { CatalogRecord, RecordDocument } from './record/catalogRecord.js';
import type { EngineOrder, RecordFieldOrder } from './record/recordOrder.js';
import type { FacetCounts, VersionsFilter } from './record/recordFacets.js';

export type { FacetCounts, VersionsFilter };
import type { WorkKeyProfileName } from './work-keys/workKeyProfiles.js';

/**
 * A document as writers get it (the write port's unit): checked, with its work keys as a list and
 * `last_indexed` normalised. The ingest pipeline makes it (src/ingest/prepareRecordDocument.ts).
 */
export type PreparedRecordDocument = RecordDocument & { work_keys_str_mv: string[]; last_indexed: string };

/** The engines' own orders (`last-indexed`: the feed's; `relevance`: the page's default, id order for a key
 * filter) and the page's other sorts (`year-desc`, `year-asc`, `title`, `author`), by one comparator on the
 * records' fields for every adapter: both lists are in src/record/recordOrder.ts. */
export type VersionsOrder = EngineOrder | RecordFieldOrder;

export interface VersionsQuery {
  /** Records sharing at least one of these keys (exact match) are versions. Never empty. */
  readonly workKeys: readonly string[];
  readonly order: VersionsOrder;
  readonly offset: number;
  readonly limit: number;
  /** Only the versions carrying every one of these values (VuFind's `filter[]`); none: every version. */
  readonly filters?: readonly VersionsFilter[];
  /** Count the facet values of the versions the filters leave (src/record/recordFacets.ts). */
  readonly facets?: boolean;
  /**
   * Whether the versions given need their work keys (when absent: they do). The feed shows none of them
   * and asks without: an index may then give versions whose `workKeys` is an empty list, and save reading
   * their keys' texts (the embedded index does, for the records it reads for this page). The record
   * getRecord gives has its keys whatever a later query asks.
   */
  readonly versionKeys?: boolean;
}

/** A versions query of one record (`findVersionsOf`): the record's own work keys, the rest as in VersionsQuery. */
export type RecordVersionsQuery = Omit<VersionsQuery, 'workKeys'>;

/** A record and one page of its versions (`recordWithVersions`). */
export interface RecordWithVersions {
  readonly record: CatalogRecord;
  readonly versions: VersionsPage;
}

export interface VersionsPage {
  /** How many records share a key and pass the filters, over all pages. */
  readonly total: number;
  readonly records: readonly CatalogRecord[];
  /** With filters or facets asked for: how many records share a key, filters aside. */
  readonly unfilteredTotal?: number;
  /** When asked for: the facet values of the versions the filters leave, with their counts. */
  readonly facets?: FacetCounts;
}

export interface CatalogIndex {
  getRecord(id: string): Promise<CatalogRecord | undefined>;
  findVersions(query: VersionsQuery): Promise<VersionsPage>;
  /**
   * Optional: the versions of a record this index gave out (getRecord), exactly as
   * `findVersions({ workKeys: record.workKeys, ...query })` answers them (a record without work keys: itself
   * alone), for an index that can go from the record to its page more directly than from its keys' texts
   * (the embedded index: by the key ids stored with the record). listVersions asks it for the common
   * request, the default order without filters; an index without it is asked findVersions.
   */
  findVersionsOf?(record: CatalogRecord, query: RecordVersionsQuery): Promise<VersionsPage>;
  /**
   * Optional: a record and one page of its versions in one step, exactly as getRecord and then
   * `findVersions({ workKeys: record.workKeys, ...query })` answer them (a record without work keys: itself
   * alone); `undefined` when no record has the id. For an index whose record and versions live in two
   * places (the Solr adapter on a work collection: the record's keys, the work's members and the page's
   * records, one request each). listVersions asks it for every request when an index has it.
   */
  recordWithVersions?(id: string, query: RecordVersionsQuery): Promise<RecordWithVersions | undefined>;
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
  /**
   * Optional: whether the index holds any record, answered cheaply (without counting them). The health
   * check reports an index without records as `empty`, not ok: every versions page of it is a 404, which a
   * server opened on the wrong file or before the first load would otherwise serve as healthy.
   */
  hasRecords?(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * The versions of a record without work keys: itself alone, on the first page (whatever the order, filters
 * or facets: listVersions has always answered so, and findVersionsOf answers the same).
 */
export function versionsOfKeylessRecord(record: CatalogRecord, offset: number): VersionsPage {
  return { total: 1, records: offset === 0 ? [record] : [] };
}

/** What a writer holds for a record: the fingerprint of its content and its `last_indexed`. */
export interface StoredContent {
  readonly fingerprint: string;
  readonly lastIndexed: string;
}

/** A document of a batch the engine refused, by its place in the batch. */
export interface WriteRefusal {
  readonly index: number;
  readonly reason: string;
}

/** Where documents go: the embedded index, a Solr core. */
export interface IngestWriter {
  /** For messages: `embedded index catalog.sqlite`, `Solr core http://…/solr/biblio`. */
  readonly description: string;
  /**
   * The work-key profile the index is keyed with: documents without work keys are keyed under it
   * (src/work-keys/workKeyProfiles.ts); `vufind` when not given.
   */
  readonly keyProfile?: WorkKeyProfileName;
  /** Documents per `put` this writer takes best, used when the load names no batch size. */
  readonly preferredBatchSize?: number;
  /** For the ids it holds: the stored content's fingerprint and `last_indexed`. */
  storedContentOf(ids: readonly string[]): Promise<ReadonlyMap<string, StoredContent>>;
  /** Adds or replaces (by id) prepared documents; answers the ones the engine refused. */
  put(batch: readonly PreparedRecordDocument[]): Promise<readonly WriteRefusal[]>;
  /** Removes these records (a harvested deletion); an id the index does not hold is no error. */
  delete(ids: readonly string[]): Promise<void>;
  /**
   * Rewrites a prepared document's work keys by the library's grouping decisions
   * (src/work-keys/curation/curationDecisions.ts), before it is compared with what is stored and written.
   */
  curateWorkKeys?(document: PreparedRecordDocument): PreparedRecordDocument;
  /** Makes everything written durable and visible. Called once, also after a failure. */
  close(): Promise<void>;
}

const WRITER_METHODS = ['storedContentOf', 'put', 'delete', 'close'] as const;

/** The methods of an IngestWriter that a value lacks (all of them for what is not an object): for the argument checks of what takes a writer. */
export function missingWriterMethods(writer: unknown): string[] {
  if (typeof writer !== 'object' || writer === null) return [...WRITER_METHODS];
  return WRITER_METHODS.filter((method) => typeof (writer as Record<string, unknown>)[method] !== 'function');
}

/** Where harvests remember the response date of their last successful run, by harvest (base URL, prefix, set). */
export interface HarvestState {
  get(key: string): Promise<string | undefined>;
  set(key: string, responseDate: string): Promise<void>;
}
