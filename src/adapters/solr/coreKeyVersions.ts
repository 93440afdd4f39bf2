/**
 * Versions from the work keys stored in the core's own documents (`work_keys_str_mv`), the Solr
 * adapter's answers without a work index (the other place keys can live: workIndex/workIndexAnswers.ts).
 * The requests are those of docs/solr.md; solrIndex.ts sends them and makes records of the documents.
 */
import type { VersionsPage, VersionsQuery } from '../../ports.js';
import type { CatalogRecord } from '../../record/catalogRecord.js';
import { pageOfWork, readsWholeWork } from '../../record/recordFacets.js';
import { IndexUnavailableError } from '../../errors.js';
import { describeId, firstText, textsOf } from './solrDocuments.js';
import { isObject } from './solrFaults.js';
import type { SolrIndexSettings } from './solrIndexOptions.js';
import { queryableKeys } from './solrParams.js';
import type { SolrSelect } from './solrVersionWatch.js';
import { termsQuery, WORK_KEY_SEPARATOR } from './termsQuery.js';

/** Versions read per request for an order sorted here (src/record/recordOrder.ts): one request for nearly every work. */
const WORK_ROWS_SORTED_HERE = 2000;

export class CoreKeyVersions {
  constructor(
    private readonly settings: SolrIndexSettings,
    private readonly select: SolrSelect,
    private readonly toRecord: (doc: Record<string, unknown>, what: string) => CatalogRecord,
  ) {}

  /** findVersions for `keys`, the query's keys that a terms query can carry (queryableKeys), at least one. */
  async findVersions(query: VersionsQuery, keys: readonly string[]): Promise<VersionsPage> {
    const { fields, facetFields } = this.settings;

    // An order on record fields, filters or facets: the whole work in one request (ids in order, so a work
    // larger than one request's rows is read in id order, a page at a time), cut here by the rules every
    // adapter shares (src/record/recordFacets.ts).
    const byFields = readsWholeWork(query);
    const sort = query.order === 'last-indexed'
      ? `${fields.last_indexed} desc,${fields.id} asc`
      : `score desc,${fields.id} asc`;
    // The separator is sent as the character itself inside the quoted local param (Solr's quoted local-param
    // values take any character but `\` and the quote literally).
    const params: Array<readonly [string, string]> = [
      ['q', `{!terms f=${fields.work_keys_str_mv} separator="${WORK_KEY_SEPARATOR}"}${keys.join(WORK_KEY_SEPARATOR)}`],
      ['start', byFields ? '0' : String(query.offset)],
      ['rows', String(byFields ? WORK_ROWS_SORTED_HERE : query.limit)],
      ['sort', sort],
    ];
    if (facetFields.length > 0) {
      params.push(['facet', 'true']);
      for (const field of facetFields) params.push(['facet.field', field]);
      params.push(['facet.limit', '30'], ['facet.mincount', '1']);
    }
    const what = `findVersions(${keys.length} key${keys.length === 1 ? '' : 's'}, ${query.order}, start ${query.offset})`;
    const response = await this.select(params, what);
    let records = response.docs.map((doc) => this.toRecord(doc, what));
    if (byFields) {
      for (let start = records.length; start < response.numFound && response.docs.length > 0; start += WORK_ROWS_SORTED_HERE) {
        const more = await this.select(params.map(([name, value]) => (name === 'start' ? [name, String(start)] as const : [name, value] as const)), what);
        if (more.docs.length === 0) break;
        records = records.concat(more.docs.map((doc) => this.toRecord(doc, what)));
      }
      return pageOfWork(records, query);
    }
    return { total: response.numFound, records };
  }

  /**
   * Version counts for a result list in at most two /select requests, whatever the number of ids:
   *
   *   1. q={!terms f=id separator="␟"}<id 1>␟<id 2>…  fl=id,work_keys_str_mv  rows=<number of ids>
   *      (which of the ids name records, and their work keys);
   *   2. q=*:*  rows=0  facet=true, and per distinct key list of those records
   *      facet.query={!terms f=work_keys_str_mv separator="␟" key=vN}<key 1>␟<key 2>…
   *      (how many records carry any of those keys: the same query as findVersions, so the same total).
   *
   * A facet.query counts the documents of the main result (here every document) matching it, and on a
   * SolrCloud collection the counts of every shard are added up under their `key`, so the counts are
   * right however the records are spread over shards (the single-request `{!join}` form this replaces saw
   * only the versions on the shard of the record itself). `key` names each count in
   * facet_counts.facet_queries, so answers are matched by name, not by echoed query text. Records with
   * the same key list (versions of one work on one result page) share one facet.query. Records without
   * keys count 1, ids naming no record are absent, and when no record has keys the second request is not
   * sent. Work keys containing the separator are left out, as findVersions leaves them out; ids pick a
   * separator they do not contain.
   */
  async countVersions(unique: readonly string[]): Promise<Map<string, number>> {
    const { fields, logger, endpoint } = this.settings;
    const counts = new Map<string, number>();
    const keyField = fields.work_keys_str_mv;
    const what = `countVersions(${unique.length} id${unique.length === 1 ? '' : 's'})`;

    const found = await this.select([
      ['q', termsQuery(fields.id, unique)],
      ['fl', `${fields.id},${keyField}`],
      ['rows', String(unique.length)],
    ], `${what} records`);
    const asked = new Set(unique);
    const keysOf = new Map<string, string[]>();
    for (const doc of found.docs) {
      const id = firstText(doc[fields.id]);
      if (id === undefined || !asked.has(id)) {
        // Only a tokenised id field could do this; a different record must never lend its count.
        logger?.warn?.(`Solr ${endpoint.display}: ${what} returned a record ${id === undefined ? 'without a usable id' : describeId(id)} that was not asked for; ignored`);
        continue;
      }
      keysOf.set(id, queryableKeys(textsOf(doc[keyField]), this.settings));
    }

    const facetKeyOf = new Map<string, string>();
    const params: Array<readonly [string, string]> = [['q', '*:*'], ['rows', '0'], ['facet', 'true']];
    for (const id of unique) {
      const keys = keysOf.get(id);
      if (keys === undefined || keys.length === 0) continue;
      const list = keys.join(WORK_KEY_SEPARATOR);
      if (facetKeyOf.has(list)) continue;
      const key = `v${facetKeyOf.size}`;
      facetKeyOf.set(list, key);
      params.push(['facet.query', `{!terms f=${keyField} separator="${WORK_KEY_SEPARATOR}" key=${key}}${list}`]);
    }
    const countOf = new Map<string, number>();
    if (facetKeyOf.size > 0) {
      const response = await this.select(params, `${what} counts`);
      const prefix = `Solr ${endpoint.display}: ${what} counts`;
      const facetCounts = response.data.facet_counts;
      const queries = isObject(facetCounts) ? facetCounts.facet_queries : undefined;
      if (!isObject(queries)) throw new IndexUnavailableError(`${prefix}: Solr answer has no facet_counts.facet_queries`);
      // Every count must be there and usable: a partial map would show patrons wrong numbers.
      for (const key of facetKeyOf.values()) {
        const value = queries[key];
        if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
          throw new IndexUnavailableError(`${prefix}: Solr answer has no usable facet_queries count "${key}" (${JSON.stringify(value)})`);
        }
        countOf.set(key, value);
      }
    }
    for (const id of unique) {
      const keys = keysOf.get(id);
      if (keys === undefined) continue;
      const facetKey = keys.length === 0 ? undefined : facetKeyOf.get(keys.join(WORK_KEY_SEPARATOR));
      // A record carries its own keys, so it counts itself (a replica lagging the first answer could say 0).
      counts.set(id, facetKey === undefined ? 1 : Math.max(1, countOf.get(facetKey) ?? 0));
    }
    return counts;
  }
}
