/**
 * The Solr adapter's answers from the work index beside the core (createSolrIndex's `workIndex` option,
 * docs/solr.md): versions pages and counts from the SQLite file (workIndexFile.ts, workIndexReads.ts), the
 * page's records from Solr in one request by id, and a record's keys (made again from its document by the profile, as
 * the sync made them) and order time filled in, since the core holds none. Facets and filters are
 * answered from the facet values the file keeps per document (documentFacets.ts), counted by the rule
 * every adapter shares (src/record/recordFacets.ts facetCountsOfTally), so Solr is asked only for the
 * page's records. Sorts on record fields, and every query on a file that keeps no facet values yet (made
 * before 0.2.0 and not synced since, or from other facet fields than the adapter's), read the whole work's
 * records in that same one request and cut the page by the shared rule (pageOfWork). It only reads the
 * core; syncing the file is workIndexSync.ts's.
 *
 * Left to others: the requests themselves and turning documents into records (solrIndex.ts).
 */
import { InvalidOptionError } from '../../../errors.js';
import type { VersionsPage, VersionsQuery } from '../../../ports.js';
import type { CatalogRecord } from '../../../record/catalogRecord.js';
import type { WorkKeyProfileName } from '../../../work-keys/workKeyProfiles.js';
import type { SolrResultList } from '../solrAnswers.js';
import { checkStoredKeyFields, keysOf, type StoredKeyFields } from '../../../work-keys/storedDocumentKeys.js';
import { checkKeyProfile } from '../../../work-keys/workKeyProfiles.js';
import { facetCountsOfTally, pageOfWork, readsWholeWork } from '../../../record/recordFacets.js';
import { engineOrderOf, isRecordFieldOrder } from '../../../record/recordOrder.js';
import { describeFacetFieldNames, type FacetFieldNames } from './documentFacets.js';
import { termsQuery } from '../termsQuery.js';
import { orderTimeOf } from './documentOrder.js';
import { keyProfileOfWorkIndex, openWorkIndex, type WorkIndex } from './workIndexFile.js';
import { isWorkOf, pageOfDocumentWork, type DocumentWork } from './documentWork.js';

/** createSolrIndex's `workIndex` option. */
export interface SolrWorkIndexOptions {
  /** The work index file that `catalog-versions sync` (or keepWorkIndexInStep) keeps. */
  path: string;
  /**
   * The profile the file was made with; by default the one it records (`vufind` for a file never synced).
   * A profile given that differs from the file's is refused.
   */
  keyProfile?: WorkKeyProfileName;
  /** The stored fields keyed for non-MARC documents (src/work-keys/storedDocumentKeys.ts STORED_KEY_FIELDS). */
  storedFields?: Partial<StoredKeyFields>;
}

export interface CheckedSolrWorkIndexOptions {
  readonly path: string;
  /** As asked: undefined takes the file's (keyProfileOfWorkIndex). */
  readonly keyProfile: WorkKeyProfileName | undefined;
  readonly storedFields: StoredKeyFields;
}

export function checkSolrWorkIndexOptions(value: unknown): CheckedSolrWorkIndexOptions | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InvalidOptionError('workIndex', 'must be an object { path, keyProfile?, storedFields? }');
  const given = value as Record<string, unknown>;
  for (const name of Object.keys(given)) {
    if (!['path', 'keyProfile', 'storedFields'].includes(name)) throw new InvalidOptionError(`workIndex.${name}`, 'is not an option of the work index (path, keyProfile, storedFields)');
  }
  if (typeof given.path !== 'string' || given.path.trim() === '') throw new InvalidOptionError('workIndex.path', 'must name the work index file (made by `catalog-versions sync`)');
  return Object.freeze({
    path: given.path,
    keyProfile: given.keyProfile === undefined ? undefined : checkKeyProfile(given.keyProfile, 'workIndex.keyProfile'),
    storedFields: checkStoredKeyFields('workIndex.storedFields', given.storedFields),
  });
}

/** Solr documents by id, fetched with a requested record (getRecord). */
export type FetchedDocuments = ReadonlyMap<string, Record<string, unknown>>;

/** A requested record's small work as the file holds it (smallWorkOf) and its documents as Solr gave them. */
export interface FetchedWork {
  readonly work: DocumentWork;
  readonly documents: FetchedDocuments;
}

/**
 * Works this small come whole with their requested record: every first page of both views is in them, as
 * long as this is at least the larger of their page sizes (src/versions/paging.ts, which an adapter does
 * not import; test/adapters/solr/solrWorkIndexFacets.test.ts holds the two together).
 */
export const SMALL_WORK = 50;

type Select = (params: ReadonlyArray<readonly [string, string]>, what: string) => Promise<SolrResultList>;

export class WorkIndexAnswers {
  private readonly index: WorkIndex;
  /** The profile the file's keys were made with, which records read from the core are keyed with too. */
  private readonly keyProfile: WorkKeyProfileName;
  /** The facet fields' Solr names as the file records them once it keeps their values. */
  private readonly facetFields: string;

  constructor(
    private readonly options: CheckedSolrWorkIndexOptions,
    private readonly idField: string,
    private readonly keyField: string,
    private readonly lastIndexedField: string,
    facetNames: FacetFieldNames,
  ) {
    this.facetFields = describeFacetFieldNames(facetNames);
    try {
      this.index = openWorkIndex({ path: options.path, keysOf: (document) => keysOf(document, this.keyProfile, options.storedFields) });
    } catch (error) {
      throw new InvalidOptionError('workIndex.path', `cannot open ${options.path} (${error instanceof Error ? error.message : String(error)})`);
    }
    try {
      this.keyProfile = keyProfileOfWorkIndex(this.index, options.path, 'workIndex.keyProfile', options.keyProfile);
    } catch (error) {
      this.index.close();
      throw error;
    }
  }

  /**
   * The file's generation: changes with every sync that changed it. The file reads it once an event-loop
   * turn (workIndexFile.ts changeCount, fileGeneration.ts), as the embedded index reads its own version: a kept answer asks
   * for it on every request.
   */
  version(): string {
    return `w${this.index.changeCount()}`;
  }

  /** A Solr document with the keys and order time the file holds for it (the core holds none). */
  completeDocument(doc: Record<string, unknown>): Record<string, unknown> {
    // The file keeps hashes of keys, not their text: the same keysOf the sync used makes them again.
    const out = { ...doc, [this.keyField]: keysOf(doc, this.keyProfile, this.options.storedFields).keys };
    if (out[this.lastIndexedField] === undefined) {
      const time = orderTimeOf(doc);
      if (time !== undefined) out[this.lastIndexedField] = new Date(time).toISOString();
    }
    return out;
  }

  /**
   * One page: ids and total from the file, then the records from Solr in one request by id, in the file's
   * order. Filters and facets in the file's orders come from the file too (its facet values), with the
   * counts pageOfWork would give. An order on record fields (or filters and facets on a file without facet
   * values) takes every id of the work from the file and its records in that one request, and cuts the page
   * by the rule every adapter shares (src/record/recordFacets.ts pageOfWork), so the answer is the embedded
   * index's: one Solr request either way, sent as a POST once the ids pass SOLR_POST_THRESHOLD_BYTES
   * (docs/solr.md, "The work index beside the core").
   */
  async findVersions(query: VersionsQuery, select: Select, toRecord: (doc: Record<string, unknown>, what: string) => CatalogRecord, fetchedWork?: FetchedWork): Promise<VersionsPage> {
    const fetched = fetchedWork?.documents;
    const withFacetValues = () => this.index.stateThisTurn('facet_fields') === this.facetFields;
    // The requested record's small work, read from the file with it: its pages (and, from the facet values,
    // its tally) need no statement by keys, when the record's keys are still the ones the file holds for it.
    if (fetchedWork !== undefined && !isRecordFieldOrder(query.order) && (query.filters ?? []).length === 0 && (query.facets !== true || withFacetValues())
      && isWorkOf(fetchedWork.work, query.workKeys)) {
      const { work } = fetchedWork;
      const { total, ids } = pageOfDocumentWork(work, engineOrderOf(query.order), Math.max(0, query.offset), Math.max(0, query.limit));
      const records = await this.recordsOf(ids, select, toRecord, `findVersions(work index, ${ids.length} id${ids.length === 1 ? '' : 's'}, the record's work)`, fetched);
      if (query.facets !== true) return { total, records };
      return { total, records, unfilteredTotal: total, facets: facetCountsOfTally(this.index.workTallyOf(work)) };
    }
    if (readsWholeWork(query) && !isRecordFieldOrder(query.order) && withFacetValues()) {
      const found = this.index.facetedVersions({
        workKeys: query.workKeys, order: engineOrderOf(query.order), offset: query.offset, limit: query.limit,
        filters: query.filters ?? [], facets: query.facets === true,
      });
      // A work the file holds nothing of is answered as the whole-work read answers it.
      if (found.unfilteredTotal === 0) return { total: 0, records: [] };
      const records = await this.recordsOf(found.ids, select, toRecord, `findVersions(work index, ${found.ids.length} id${found.ids.length === 1 ? '' : 's'}, facets from the file)`, fetched);
      return { total: found.total, records, unfilteredTotal: found.unfilteredTotal, ...(found.tally !== undefined ? { facets: facetCountsOfTally(found.tally) } : {}) };
    }
    const whole = readsWholeWork(query);
    // The file sorts by its own two orders; a whole work is read in id order (SQLite's LIMIT -1: no limit).
    const { total, ids } = whole
      ? this.index.findVersions({ workKeys: query.workKeys, order: 'relevance', offset: 0, limit: -1 })
      : this.index.findVersions({ workKeys: query.workKeys, order: engineOrderOf(query.order), offset: query.offset, limit: query.limit });
    if (ids.length === 0) return { total, records: [] };
    const what = `findVersions(work index, ${ids.length} id${ids.length === 1 ? '' : 's'}${whole ? `, ${query.order}, whole work` : ''})`;
    const records = await this.recordsOf(ids, select, toRecord, what, fetched);
    return whole ? pageOfWork(records, query) : { total, records };
  }

  /**
   * The records of these ids, in their order, from Solr in one request; a document deleted in the core
   * since the last sync is left out (the totals are the file's, except for a whole work, which counts
   * the records Solr still has).
   */
  private async recordsOf(ids: readonly string[], select: Select, toRecord: (doc: Record<string, unknown>, what: string) => CatalogRecord, what: string, fetched?: FetchedDocuments): Promise<CatalogRecord[]> {
    if (ids.length === 0) return [];
    // Every document already fetched with the requested record (getRecord, smallWorkOf): no request.
    if (fetched !== undefined && ids.every((id) => fetched.has(id))) return ids.map((id) => toRecord(fetched.get(id)!, what));
    const response = await select([
      ['q', termsQuery(this.idField, ids)],
      ['rows', String(ids.length)],
    ], what);
    const byId = new Map<string, Record<string, unknown>>();
    for (const doc of response.docs) {
      const id = doc[this.idField];
      if (typeof id === 'string') byId.set(id, doc);
    }
    return ids.flatMap((id) => {
      const doc = byId.get(id);
      return doc === undefined ? [] : [toRecord(doc, what)];
    });
  }

  /**
   * The ids to fetch with the record `id` so that its versions need no request of their own: its whole
   * work when no larger than a page of either view (the first pages of both views are in it, whatever
   * the order); `undefined` for a larger work, fetched by the page.
   */
  smallWorkOf(id: string): DocumentWork | undefined {
    return this.index.workOfDocument(id, SMALL_WORK);
  }

  /** Keeps a record's small work and the documents fetched with it (smallWorkOf) for its versions (takeFetched), as long as the record lives. */
  keepFetched(record: CatalogRecord, fetched: FetchedWork): void {
    this.fetched.set(record, fetched);
  }

  takeFetched(record: CatalogRecord): FetchedWork | undefined {
    const fetched = this.fetched.get(record);
    this.fetched.delete(record);
    return fetched;
  }

  private readonly fetched = new WeakMap<CatalogRecord, FetchedWork>();

  countVersions(ids: readonly string[]): Map<string, number> {
    return this.index.countVersions(ids);
  }

  close(): void {
    this.index.close();
  }
}
