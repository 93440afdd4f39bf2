/**
 * The Solr adapter of the catalog index port (CatalogIndex, src/ports.ts), for a VuFind-style `biblio` core
 * or a SolrCloud collection of it.
 *
 * It turns the questions of the port into the Solr requests of docs/solr.md (and, for
 * countVersions, two requests whose counts are right on a collection of several shards; see there), sends
 * them with the `solr-client` package (GET, or a form POST to /select when the query is long), puts a
 * deadline on every request, and maps the Solr documents back through the configured field names into
 * record documents (catalogRecord.ts validates them). Every fault of the engine or of the way to it
 * becomes an IndexUnavailableError whose message is meant for the log.
 *
 * contentVersion() lets the plugin keep finished answers on Solr too. It never asks Solr itself: a
 * background probe (solrVersionWatch.ts), at most once per `versionCheckMs` and only while requests come
 * in, reads how many documents the index holds and the highest `_version_` among them, with a range
 * query rather than a sort, so it works where `_version_` has no docValues (VuFind's schemas; see
 * solrIndexVersionProbe there). Solr gives every
 * added or replaced document a new `_version_` above those before it (from the shard leader's clock), and
 * a deletion lowers the count, so the pair changes with every committed change; both are summed up over
 * all shards by an ordinary distributed query, so a collection's shards all count. (Lucene's own index
 * version, from /admin/luke or /replication, is one core's: on a collection it would name one replica of
 * one shard, and NRT replicas of a shard do not even share it.) Limits: a change shows after up to one
 * interval and the read's own time (only once Solr has committed it, of course); a shard leader whose
 * clock lags another's by more than the time between two changes can replace a document without raising
 * the highest `_version_`, and the replacement then shows with the next change; NRT replicas may lag one
 * another (solrVersionWatch.ts says how far that is covered).
 *
 * Left to others: computing work keys (workKeys.ts), deciding that a record without keys lists itself
 * (the versions service), turning IndexUnavailableError into a 503 page and logging it (the HTTP layer),
 * keeping answers (answerCache.ts), and loading documents into Solr (solrWriter.ts).
 *
 * Here: the adapter's requests and lifecycle. Beside it: its options (solrIndexOptions.ts), request
 * parameters (solrParams.ts), documents read back as records (solrDocuments.ts), and the places a work's
 * keys can live, one file each: the core's own documents (coreKeyVersions.ts), a work index file
 * (workIndex/workIndexAnswers.ts) or a work collection (workCollection/workCollectionAnswers.ts), whose
 * version is read in the background beside the core's.
 */
import http from 'node:http';
import { versionsOfKeylessRecord, type CatalogIndex, type RecordVersionsQuery, type RecordWithVersions, type VersionsPage, type VersionsQuery } from '../../ports.js';
import { checkRecordId, checkRecordIds, checkVersionsQuery } from '../../portArguments.js';
import { recordFromDocument, type CatalogRecord } from '../../record/catalogRecord.js';
import { IndexUnavailableError, InvalidRecordDocumentError } from '../../errors.js';
import { CoreKeyVersions } from './coreKeyVersions.js';
import { solrAnswerData, solrResultList, type SolrResultList } from './solrAnswers.js';
import { describeId, toRecordDocument } from './solrDocuments.js';
import { exchangeWithSolr, openSolrClient, type SolrAnswer, type SolrCallback, type SolrEndpoint } from './solrExchange.js';
import { describeNetworkError, isObject } from './solrFaults.js';
import { checkSolrIndexOptions, SOLR_POST_THRESHOLD_BYTES, type SolrIndexOptions, type SolrIndexSettings } from './solrIndexOptions.js';
import { encodeSolrParams, queryableKeys, solrPhrase, type Params } from './solrParams.js';
import { solrIndexVersionProbe, VersionWatch } from './solrVersionWatch.js';
import { termsQuery } from './termsQuery.js';
import { facetFieldNamesOf } from './workIndex/documentFacets.js';
import { WorkIndexAnswers, type FetchedWork } from './workIndex/workIndexAnswers.js';
import { WorkCollectionAnswers } from './workCollection/workCollectionAnswers.js';
import { WORK_COLLECTION_ID_FIELD, WORK_COLLECTION_KEYS_FIELD } from './workCollection/workCollectionSchema.js';

// solr-client 0.9 ships no type declarations; these describe the part of it this adapter uses.
interface SolrClient {
  get(handler: string, query: string, callback: SolrCallback): http.ClientRequest;
  post(handler: string, query: string, callback: SolrCallback): http.ClientRequest;
  basicAuth(username: string, password: string): SolrClient;
}

export function createSolrIndex(options: SolrIndexOptions): CatalogIndex {
  const settings = checkSolrIndexOptions(options);
  return new SolrIndex(settings);
}


/** Where a request goes: the core, or the work collection. */
interface SolrTarget {
  readonly endpoint: SolrEndpoint;
  readonly agent: http.Agent;
  readonly client: SolrClient;
}

class SolrIndex implements CatalogIndex {
  private readonly settings: SolrIndexSettings;
  private readonly core: SolrTarget;
  private readonly versionWatch: VersionWatch | undefined;
  private readonly workIndex: WorkIndexAnswers | undefined;
  /** With a work collection: the collection, its answers and its version. */
  private readonly collection: { target: SolrTarget; answers: WorkCollectionAnswers; versionWatch: VersionWatch | undefined } | undefined;
  /** Without a work index: versions from the keys in the core's documents (or, for counts, in the work collection's). */
  private readonly coreKeys: CoreKeyVersions | undefined;
  private closed = false;

  constructor(settings: SolrIndexSettings) {
    this.settings = settings;
    this.core = targetOf(settings.endpoint);
    const { fields } = settings;
    const select = (params: Params, what: string) => this.select(this.core, params, what);
    const toRecord = (doc: Record<string, unknown>, what: string) => this.toRecord(doc, what);
    if (settings.workIndex) this.findVersionsOf = (record, query) => this.versionsOfRecord(record, query);
    this.workIndex = settings.workIndex && new WorkIndexAnswers(settings.workIndex, fields.id, fields.work_keys_str_mv, fields.last_indexed, facetFieldNamesOf(fields));
    if (settings.workCollection !== undefined) {
      const target = targetOf(settings.workCollection);
      const selectCollection = (params: Params, what: string) => this.select(target, params, what);
      const answers = new WorkCollectionAnswers({
        selectCore: select,
        selectCollection,
        getFromCollection: (id, fl, what) => this.realTimeGet(target, id, fl, what),
      }, { id: fields.id, workKeys: fields.work_keys_str_mv, lastIndexed: fields.last_indexed }, toRecord);
      this.collection = { target, answers, versionWatch: this.versionWatchOf(selectCollection, target.endpoint) };
      this.recordWithVersions = async (id, query) => {
        checkRecordId('recordWithVersions', id);
        checkVersionsQuery({ ...query, workKeys: [] }, 'recordWithVersions');
        return answers.recordWithVersions(id, query);
      };
      // Counts as on a core with keys (coreKeyVersions.ts), asked of the collection by its field names.
      this.coreKeys = new CoreKeyVersions({ ...settings, endpoint: target.endpoint, fields: { ...fields, id: WORK_COLLECTION_ID_FIELD, work_keys_str_mv: WORK_COLLECTION_KEYS_FIELD } }, selectCollection, toRecord);
    } else {
      this.coreKeys = settings.workIndex ? undefined : new CoreKeyVersions(settings, select, toRecord);
    }
    this.versionWatch = this.versionWatchOf(select, settings.endpoint);
  }

  private versionWatchOf(select: (params: Params, what: string) => Promise<SolrResultList>, endpoint: SolrEndpoint): VersionWatch | undefined {
    const { versionCheckMs, maxStalenessMs, logger } = this.settings;
    return versionCheckMs === 0 ? undefined : new VersionWatch({
      intervalMs: versionCheckMs,
      maxStalenessMs,
      probe: solrIndexVersionProbe(select, endpoint.display),
      onFailure: (error) => logger?.warn?.(
        `Solr ${endpoint.display}: reading the index version failed (${error instanceof Error ? error.message : String(error)}); `
        + `kept answers are used for at most ${maxStalenessMs} ms after the last good read, then every answer is built afresh`,
      ),
      onRecovery: (failures) => logger?.debug?.(`Solr ${endpoint.display}: index version read again after ${failures} failed attempt${failures === 1 ? '' : 's'}`),
    });
  }

  /**
   * The version a background read found and a second one confirmed, or `undefined` (build afresh): see
   * solrVersionWatch.ts for when. Never a request of its own; the first call starts the reads.
   */
  contentVersion(): string | undefined {
    const core = this.versionWatch?.current();
    if (core === undefined) return undefined;
    // With a work collection, answers also change when a sync changes the collection: both are read.
    if (this.collection !== undefined) {
      const collection = this.collection.versionWatch?.current();
      return collection === undefined ? undefined : `${core}/c${collection}`;
    }
    // With a work index, answers also change when a sync changes the file.
    return this.workIndex === undefined ? core : `${core}/${this.workIndex.version()}`;
  }

  /** With a work collection: the record and a page of its versions in three requests (workCollectionAnswers.ts). */
  readonly recordWithVersions?: (id: string, query: RecordVersionsQuery) => Promise<RecordWithVersions | undefined>;

  async getRecord(id: string): Promise<CatalogRecord | undefined> {
    checkRecordId('getRecord', id);
    if (this.collection !== undefined) return this.collection.answers.getRecord(id);
    const { fields } = this.settings;
    // With a work index, a small work's documents come in the record's request, so that its versions
    // (findVersionsOf) need none of their own.
    const work = this.workIndex?.smallWorkOf(id);
    const ids = work?.ids;
    const params: Params = ids === undefined || ids.length === 1
      ? [['q', solrPhrase(fields.id, id)], ['rows', '1']]
      : [['q', termsQuery(fields.id, ids)], ['rows', String(ids.length)]];
    const what = `getRecord(${describeId(id)}${ids !== undefined && ids.length > 1 ? `, with the ${ids.length} of its work` : ''})`;
    const response = await this.select(this.core, params, what);
    const doc = ids === undefined || ids.length === 1 ? response.docs[0] : response.docs.find((found) => found[fields.id] === id);
    if (doc === undefined) return undefined;
    const record = this.toRecord(doc, what);
    if (record.id !== id) {
      // Only a tokenised id field could do this; a different record must never stand in for the one asked.
      this.settings.logger?.warn?.(`Solr ${this.settings.endpoint.display}: id:"…" query for ${describeId(id)} returned record ${describeId(record.id)}; treated as missing`);
      return undefined;
    }
    if (work !== undefined && this.workIndex) {
      const documents = new Map<string, Record<string, unknown>>();
      for (const found of response.docs) if (typeof found[fields.id] === 'string') documents.set(found[fields.id] as string, found);
      this.workIndex.keepFetched(record, { work, documents });
    }
    return record;
  }

  /**
   * With a work index: the versions of a record from getRecord, exactly as findVersions answers its keys
   * (a record without keys lists itself alone), from the documents fetched with it when they hold the page.
   */
  readonly findVersionsOf?: (record: CatalogRecord, query: RecordVersionsQuery) => Promise<VersionsPage>;

  private async versionsOfRecord(record: CatalogRecord, query: RecordVersionsQuery): Promise<VersionsPage> {
    const fetched = this.workIndex?.takeFetched(record);
    if (record.workKeys.length === 0) return versionsOfKeylessRecord(record, query.offset);
    return this.versionsByKeys({ ...query, workKeys: record.workKeys }, fetched);
  }

  findVersions(query: VersionsQuery): Promise<VersionsPage> {
    return this.versionsByKeys(query, undefined);
  }

  /** findVersions, with the documents fetched with the requested record when there are any (getRecord). */
  private async versionsByKeys(query: VersionsQuery, fetched: FetchedWork | undefined): Promise<VersionsPage> {
    checkVersionsQuery(query);
    const keys = queryableKeys(query.workKeys, this.settings);
    if (keys.length === 0) return { total: 0, records: [] };
    if (this.workIndex) return this.workIndex.findVersions({ ...query, workKeys: keys }, (params, what) => this.select(this.core, params, what), (doc, what) => this.toRecord(doc, what), fetched);
    if (this.collection) return this.collection.answers.findVersions({ ...query, workKeys: keys });
    return this.coreKeys!.findVersions(query, keys);
  }

  /** Version counts for a result list: each id once, from where the keys live (coreKeyVersions.ts says how in the core). */
  async countVersions(ids: readonly string[]): Promise<Map<string, number>> {
    checkRecordIds('countVersions', ids);
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map<string, number>();
    if (this.workIndex) return this.workIndex.countVersions(unique);
    return this.coreKeys!.countVersions(unique);
  }

  /**
   * Whether the core holds any document: `q=*:*`, `rows=0` (the health check's question). With a work
   * collection, the collection is asked the same at once: one never synced (or unreachable) makes every
   * record list itself alone (or every answer a 503), which the health check should show.
   */
  async hasRecords(): Promise<boolean> {
    const ask = (target: SolrTarget) => this.select(target, [['q', '*:*'], ['rows', '0']], 'hasRecords');
    const [core, collection] = await Promise.all([ask(this.core), this.collection && ask(this.collection.target)]);
    return core.numFound > 0 && (collection === undefined || collection.numFound > 0);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.versionWatch?.stop();
    this.collection?.versionWatch?.stop();
    this.workIndex?.close();
    this.core.agent.destroy();
    this.collection?.target.agent.destroy();
  }

  private toRecord(doc: Record<string, unknown>, what: string): CatalogRecord {
    try {
      return recordFromDocument(toRecordDocument(this.workIndex?.completeDocument(doc) ?? doc, this.settings.fields));
    } catch (error) {
      if (!(error instanceof InvalidRecordDocumentError)) throw error;
      throw new IndexUnavailableError(
        `Solr ${this.settings.endpoint.display}: ${what} returned a document that is not a usable record (${error.reason})`,
        { cause: error },
      );
    }
  }

  private async select(target: SolrTarget, params: Params, what: string): Promise<SolrResultList> {
    const { outcome, where } = await this.exchange(target, 'select', params, what);
    return solrResultList(outcome, `Solr ${where} ${what}`);
  }

  /** Real-time get of one id (the `id` parameter takes it whole, commas and all): its document, or `undefined`. */
  private async realTimeGet(target: SolrTarget, id: string, fl: string, what: string): Promise<Record<string, unknown> | undefined> {
    const { outcome, where } = await this.exchange(target, 'get', [['id', id], ['fl', fl]], what);
    const data = solrAnswerData(outcome, `Solr ${where} ${what}`);
    if (data.doc === null || data.doc === undefined) return undefined;
    if (!isObject(data.doc)) throw new IndexUnavailableError(`Solr ${where} ${what}: the answer's "doc" is not a document`);
    return data.doc;
  }

  /** One request to a handler of the core or the collection, with the adapter's deadline; a fault becomes IndexUnavailableError. */
  private async exchange(target: SolrTarget, handler: 'select' | 'get', params: Params, what: string): Promise<{ outcome: SolrAnswer; where: string }> {
    const { endpoint, client } = target;
    if (this.closed) throw new IndexUnavailableError(`Solr ${endpoint.display}: ${what} after the index was closed`);
    const encoded = encodeSolrParams(params);
    const method = Buffer.byteLength(encoded) > SOLR_POST_THRESHOLD_BYTES ? 'POST' : 'GET';
    const started = Date.now();
    const deadline = started + this.settings.timeoutMs;
    const send = (callback: SolrCallback) => (method === 'GET' ? client.get(handler, encoded, callback) : client.post(handler, encoded, callback));
    let outcome = await exchangeWithSolr(send, deadline);
    // A keep-alive socket that Solr (or a proxy) closed while idle fails the first write; a select is
    // read-only, so asking once more on a fresh socket is safe.
    if (outcome.kind === 'failed' && outcome.staleSocket && !this.closed && Date.now() < deadline) {
      outcome = await exchangeWithSolr(send, deadline);
    }
    const elapsed = Date.now() - started;
    const where = `${method} ${endpoint.display}/${handler}`;
    this.settings.logger?.debug?.(`Solr ${where} ${what}: ${outcome.kind === 'answered' ? `HTTP ${outcome.status}` : outcome.kind} in ${elapsed} ms`);

    switch (outcome.kind) {
      case 'timeout':
        throw new IndexUnavailableError(`Solr ${where} ${what}: no answer within ${this.settings.timeoutMs} ms`);
      case 'failed':
        throw new IndexUnavailableError(`Solr ${where} ${what}: ${describeNetworkError(outcome.error)}`, { cause: outcome.error });
      case 'answered':
        return { outcome, where };
    }
  }

}

function targetOf(endpoint: SolrEndpoint): SolrTarget {
  const { agent, client } = openSolrClient<SolrClient>(endpoint);
  return { endpoint, agent, client };
}
