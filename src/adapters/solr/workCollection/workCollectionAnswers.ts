/**
 * The Solr adapter's answers from a work collection (createSolrIndex's `workCollection` option, docs/solr.md
 * "The work collection"): the catalogue's core holds the records, the collection their work keys, order
 * times and facet values, as `catalog-versions sync --work-collection` wrote them (workCollectionSync.ts).
 *
 * A record with one page of its versions (recordWithVersions), built afresh, is three requests:
 *   1. real-time get of the record's id on the collection: its keys (stored, in the order its profile made
 *      them) and order time; real-time get needs no commit and goes to the shard that holds the id;
 *   2. one /select on the collection: a terms query on those keys, one `fq` per filter, the order's sort
 *      (`ordered_at desc,id asc` for last-indexed, `id asc` for relevance: the embedded index's orders)
 *      with start and rows, and with facets a facet.field per facet field (every value) and, with filters,
 *      a facet.query that leaves the filters out for the unfiltered total; an order on record fields reads
 *      the whole work's ids instead (more requests for a work past WORK_ROWS_PER_REQUEST);
 *   3. one /select on the core by the ids: the record and the page's records.
 * The records come back with the collection's keys and the core's own fields, so the page and the feed show
 * what the embedded index shows. A record the sync has not taken yet has no keys and lists itself alone; a
 * member the core no longer holds is left out of the page (the totals are the collection's until the next
 * sync). Nothing is kept here: every answer asks the collection, so every app server on the same options
 * gives the same answers.
 *
 * Left to others: sending requests and their deadline, and making records of documents (solrIndex.ts);
 * version counts (coreKeyVersions.ts, asked with the collection's field names); the collection's fields
 * (workCollectionSchema.ts).
 */
import { versionsOfKeylessRecord, type RecordVersionsQuery, type RecordWithVersions, type VersionsPage, type VersionsQuery } from '../../../ports.js';
import type { CatalogRecord } from '../../../record/catalogRecord.js';
import { FACET_FIELDS, facetCountsOfTally, isFacetField, pageOfWork, type FacetField, type FacetTally } from '../../../record/recordFacets.js';
import { isRecordFieldOrder } from '../../../record/recordOrder.js';
import { IndexUnavailableError } from '../../../errors.js';
import type { SolrResultList } from '../solrAnswers.js';
import { textsOf } from '../solrDocuments.js';
import { isObject } from '../solrFaults.js';
import type { Params } from '../solrParams.js';
import { termsQuery, WORK_KEY_SEPARATOR } from '../termsQuery.js';
import { orderTimeOf } from '../workIndex/documentOrder.js';
import { WORK_COLLECTION_ID_FIELD, WORK_COLLECTION_KEYS_FIELD, WORK_COLLECTION_ORDER_FIELD } from './workCollectionSchema.js';

/** Ids read per request when the whole work is read (an order on record fields). */
export const WORK_ROWS_PER_REQUEST = 2000;

const ID = WORK_COLLECTION_ID_FIELD;
const KEYS = WORK_COLLECTION_KEYS_FIELD;
const ORDERED_AT = WORK_COLLECTION_ORDER_FIELD;

type Select = (params: Params, what: string) => Promise<SolrResultList>;

/** What the collection says of one document: its keys, in their order, and its order time. */
interface CollectionEntry {
  readonly keys: readonly string[];
  readonly orderedAt: number | undefined;
}

/** The requests this needs, each with the adapter's deadline: the core's /select, the collection's /select and /get. */
export interface WorkCollectionRequests {
  readonly selectCore: Select;
  readonly selectCollection: Select;
  /** Real-time get of one id on the collection: the document, or `undefined` when it holds none. */
  readonly getFromCollection: (id: string, fl: string, what: string) => Promise<Record<string, unknown> | undefined>;
}

export class WorkCollectionAnswers {
  constructor(
    private readonly requests: WorkCollectionRequests,
    /** The core's id field and the record fields the collection fills in (createSolrIndex's `fields`). */
    private readonly coreFields: { readonly id: string; readonly workKeys: string; readonly lastIndexed: string },
    private readonly toRecord: (doc: Record<string, unknown>, what: string) => CatalogRecord,
  ) {}

  /** A record with its keys: the core's document and the collection's entry, asked at once. */
  async getRecord(id: string): Promise<CatalogRecord | undefined> {
    const what = `getRecord(${JSON.stringify(id)}, work collection)`;
    const [entry, docs] = await Promise.all([this.entryOf(id, what), this.coreDocuments([id], what)]);
    const doc = docs.get(id);
    return doc === undefined ? undefined : this.recordOf(doc, entry, what);
  }

  /** The record and one page of its versions: the three requests of the header. */
  async recordWithVersions(id: string, query: RecordVersionsQuery): Promise<RecordWithVersions | undefined> {
    const what = `versions of ${JSON.stringify(id)} (work collection, ${query.order}, start ${query.offset})`;
    const entry = await this.entryOf(id, what);
    // A key the terms query would split (it holds the separator) is not asked, as findVersions leaves it out.
    const keys = entry?.keys.filter((key) => !key.includes(WORK_KEY_SEPARATOR)) ?? [];
    if (entry === undefined || keys.length === 0) {
      const docs = await this.coreDocuments([id], what);
      const doc = docs.get(id);
      if (doc === undefined) return undefined;
      const record = this.recordOf(doc, entry, what);
      return { record, versions: versionsOfKeylessRecord(record, query.offset) };
    }
    const members = await this.members({ ...query, workKeys: keys }, what);
    const docs = await this.coreDocuments([id, ...members.ids], what);
    const doc = docs.get(id);
    if (doc === undefined) return undefined;
    const record = this.recordOf(doc, entry, what);
    return { record, versions: this.pageOf(members, docs, { ...query, workKeys: keys }, what, record) };
  }

  /** findVersions by keys: the collection's members (request 2), then their records from the core (request 3). */
  async findVersions(query: VersionsQuery): Promise<VersionsPage> {
    const what = `findVersions(work collection, ${query.workKeys.length} key${query.workKeys.length === 1 ? '' : 's'}, ${query.order}, start ${query.offset})`;
    const members = await this.members(query, what);
    const docs = await this.coreDocuments(members.ids, what);
    return this.pageOf(members, docs, query, what);
  }

  /**
   * The members of a work that the answer needs, from one /select on the collection (more only for a whole
   * work past WORK_ROWS_PER_REQUEST): the page's ids in order with the totals and facet tally, or for an
   * order on record fields every id of the work.
   */
  private async members(query: VersionsQuery, what: string): Promise<Members> {
    const whole = isRecordFieldOrder(query.order);
    const filters = query.filters ?? [];
    const params: Array<readonly [string, string]> = [
      ['q', `{!terms f=${KEYS} separator="${WORK_KEY_SEPARATOR}"}${query.workKeys.join(WORK_KEY_SEPARATOR)}`],
      ['fl', query.versionKeys === false ? ID : `${ID},${KEYS}`],
      // The few fields asked come with the ids from each shard: no second pass to fetch them.
      ['distrib.singlePass', 'true'],
    ];
    if (whole) {
      params.push(['sort', `${ID} asc`], ['start', '0'], ['rows', String(WORK_ROWS_PER_REQUEST)]);
    } else {
      for (const filter of filters) params.push(['fq', `{!term f=${filter.field} tag=versionsFilter}${filter.value}`]);
      params.push(
        ['sort', query.order === 'last-indexed' ? `${ORDERED_AT} desc,${ID} asc` : `${ID} asc`],
        ['start', String(Math.max(0, query.offset))],
        ['rows', String(Math.max(0, query.limit))],
      );
      if (query.facets === true || filters.length > 0) {
        params.push(['facet', 'true'], ['facet.mincount', '1'], ['facet.limit', '-1']);
        if (query.facets === true) for (const field of FACET_FIELDS) params.push(['facet.field', field]);
        if (filters.length > 0) params.push(['facet.query', '{!ex=versionsFilter key=unfiltered}*:*']);
      }
    }
    const response = await this.requests.selectCollection(params, `${what}: members`);
    let docs = response.docs;
    if (whole) {
      for (let start = docs.length; start < response.numFound && docs.length === start; start += WORK_ROWS_PER_REQUEST) {
        const more = await this.requests.selectCollection(params.map(([name, value]) => (name === 'start' ? [name, String(start)] as const : [name, value] as const)), `${what}: members from ${start}`);
        docs = docs.concat(more.docs);
      }
    }
    const entries = new Map<string, CollectionEntry>();
    for (const doc of docs) {
      const id = doc[ID];
      if (typeof id === 'string') entries.set(id, entryOfDocument(doc));
    }
    if (whole) return { whole: true, ids: [...entries.keys()], entries, total: response.numFound };
    return {
      whole: false,
      ids: [...entries.keys()],
      entries,
      total: response.numFound,
      ...(filters.length > 0 ? { unfilteredTotal: unfilteredTotalOf(response, what) } : {}),
      ...(query.facets === true ? { tally: facetTallyOf(response, what) } : {}),
    };
  }

  /** The answer's page: the members' records in the collection's order, or the whole work cut by the shared rule. */
  private pageOf(members: Members, docs: ReadonlyMap<string, Record<string, unknown>>, query: VersionsQuery, what: string, own?: CatalogRecord): VersionsPage {
    // The feed shows no keys and asks without them (the port's versionKeys): versions then carry none, but
    // the record asked for is listed as given, keys and all, as the embedded index lists it.
    const withKeys = query.versionKeys !== false;
    const records = members.ids.flatMap((id) => {
      if (id === own?.id) return [own];
      const doc = docs.get(id);
      return doc === undefined ? [] : [this.recordOf(doc, withKeys ? members.entries.get(id) : NO_KEYS, what)];
    });
    if (members.whole) return pageOfWork(records, query);
    const narrowed = (query.filters ?? []).length > 0 || query.facets === true;
    return {
      total: members.total,
      records,
      ...(narrowed ? { unfilteredTotal: members.unfilteredTotal ?? members.total } : {}),
      ...(members.tally !== undefined ? { facets: facetCountsOfTally(members.tally) } : {}),
    };
  }

  /** The collection's entry for one id, by real-time get (request 1); `undefined` when it holds none. */
  private async entryOf(id: string, what: string): Promise<CollectionEntry | undefined> {
    const doc = await this.requests.getFromCollection(id, `${ID},${KEYS},${ORDERED_AT}`, `${what}: keys`);
    return doc === undefined ? undefined : entryOfDocument(doc);
  }

  /** The core's documents of these ids (request 3), by id. */
  private async coreDocuments(ids: readonly string[], what: string): Promise<Map<string, Record<string, unknown>>> {
    const byId = new Map<string, Record<string, unknown>>();
    const unique = [...new Set(ids)];
    if (unique.length === 0) return byId;
    // Each shard holds only its own of the ids, so it sends them whole in one pass (distrib.singlePass): no
    // second round over the shards for their fields. A standalone core ignores the parameter.
    const response = await this.requests.selectCore([
      ['q', termsQuery(this.coreFields.id, unique)],
      ['rows', String(unique.length)],
      ['distrib.singlePass', 'true'],
    ], `${what}: records`);
    for (const doc of response.docs) {
      const id = doc[this.coreFields.id];
      if (typeof id === 'string') byId.set(id, doc);
    }
    return byId;
  }

  /** A record of a core document with the collection's keys (none when the collection has no entry for it). */
  private recordOf(doc: Record<string, unknown>, entry: CollectionEntry | undefined, what: string): CatalogRecord {
    const { workKeys, lastIndexed } = this.coreFields;
    const completed: Record<string, unknown> = { ...doc, [workKeys]: [...(entry?.keys ?? [])] };
    if (completed[lastIndexed] === undefined) {
      // The order time the sync stored comes from the same document (documentOrder.ts): its last_indexed,
      // else the time in its `_version_`.
      const time = orderTimeOf(doc) ?? entry?.orderedAt;
      if (time !== undefined) completed[lastIndexed] = new Date(time).toISOString();
    }
    return this.toRecord(completed, what);
  }
}

/** What the collection answered for an answer's members (members()). */
interface Members {
  readonly whole: boolean;
  readonly ids: readonly string[];
  readonly entries: ReadonlyMap<string, CollectionEntry>;
  readonly total: number;
  readonly unfilteredTotal?: number;
  readonly tally?: FacetTally;
}

const NO_KEYS: CollectionEntry = { keys: [], orderedAt: undefined };

function entryOfDocument(doc: Record<string, unknown>): CollectionEntry {
  const orderedAt = Number(Array.isArray(doc[ORDERED_AT]) ? doc[ORDERED_AT][0] : doc[ORDERED_AT]);
  return { keys: [...new Set(textsOf(doc[KEYS]))], orderedAt: Number.isFinite(orderedAt) ? orderedAt : undefined };
}

/** The facet tally of a members answer: Solr's facet_fields, `[value, count, value, count, …]` per field. */
function facetTallyOf(response: SolrResultList, what: string): FacetTally {
  const counts = response.data.facet_counts;
  const fields = isObject(counts) ? counts.facet_fields : undefined;
  if (!isObject(fields)) throw new IndexUnavailableError(`work collection ${what}: the answer has no facet_counts.facet_fields`);
  const tally = new Map<FacetField, Map<string, number>>();
  for (const [field, list] of Object.entries(fields)) {
    if (!isFacetField(field) || !Array.isArray(list)) continue;
    const values = new Map<string, number>();
    for (let k = 0; k + 1 < list.length; k += 2) {
      const count = list[k + 1];
      if (typeof list[k] === 'string' && typeof count === 'number' && count > 0) values.set(list[k] as string, count);
    }
    tally.set(field, values);
  }
  return tally;
}

/** The total of a filtered members answer with its filters left out (the facet.query `unfiltered`). */
function unfilteredTotalOf(response: SolrResultList, what: string): number {
  const counts = response.data.facet_counts;
  const queries = isObject(counts) ? counts.facet_queries : undefined;
  const value = isObject(queries) ? queries.unfiltered : undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new IndexUnavailableError(`work collection ${what}: the answer has no usable facet_queries count "unfiltered" (${JSON.stringify(value)})`);
  }
  return value;
}
