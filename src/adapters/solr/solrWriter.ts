/**
 * Writes record documents to a Solr core: the write side that the read-only Solr adapter (solrIndex.ts)
 * leaves out, for the loader command and for tests that fill a disposable core.
 *
 * What it does: maps prepared record documents to Solr documents through the same field map as the
 * adapter, sends them with `solr-client` as Solr's JSON update format (a list of documents to
 * `<core>/update?commitWithin=…`), commits explicitly when asked, and puts a deadline on every request.
 * When Solr refuses a batch as a bad request (HTTP 400/413: one document has a field the schema does not
 * know, a term too long, …) it splits the batch until the refused documents are alone, so each refused
 * document is reported with Solr's reason and the others are still written. Every other fault (refused
 * connection, timeout, HTTP 5xx, an answer that is not Solr's) becomes an IndexUnavailableError whose
 * message names the core and the cause.
 *
 * It also answers "which of these documents are stored already with the same content?", so a loader can
 * keep `last_indexed` of unchanged records as the embedded index does.
 *
 * Left to others: checking documents and computing work keys (prepareRecordDocument.ts), reading JSON Lines
 * and reporting line numbers (the loader, src/cli/loadRecords.ts), validating the shared options
 * (checkSolrIndexOptions in solrIndexOptions.ts, reused here), and reading records back (solrIndex.ts).
 */
import http from 'node:http';
import { recordFromDocument, type RecordDocument } from '../../record/catalogRecord.js';
import type { IngestWriter, StoredContent } from '../../ports.js';
import { IndexUnavailableError, InvalidArgumentError, InvalidOptionError, InvalidRecordDocumentError } from '../../errors.js';
import { contentFingerprintOf } from '../../record/recordContent.js';
import { checkRecordIds } from '../../portArguments.js';
import { checkKeyProfile, DEFAULT_WORK_KEY_PROFILE, type WorkKeyProfileName } from '../../work-keys/workKeyProfiles.js';
import { checkSolrIndexOptions, type SolrFieldMap, type SolrIndexLogger } from './solrIndexOptions.js';
import { encodeSolrParams } from './solrParams.js';
import { toSolrDocument } from './solrDocuments.js';
import { toRecordDocument } from './solrDocuments.js';
import { solrAnswerData, solrResultList } from './solrAnswers.js';
import { termsQuery } from './termsQuery.js';
import { exchangeWithSolr, openSolrClient, type SolrAnswer, type SolrCallback, type SolrEndpoint } from './solrExchange.js';
import { describeNetworkError, snippet, solrErrorOf } from './solrFaults.js';

export interface SolrWriterOptions {
  /** URL of the core, e.g. `http://localhost:8983/solr/biblio`; user info becomes HTTP basic auth. */
  url: string;
  /** Deadline of each request in milliseconds (default 30000: a bulk update is slower than a query). */
  timeoutMs?: number;
  /** Solr field names where they differ from the VuFind `biblio` names (as for createSolrIndex). */
  fields?: Partial<SolrFieldMap>;
  /** `commitWithin` sent with every add, so a long load becomes visible as it goes (default 10000; 0: none). */
  commitWithinMs?: number;
  logger?: SolrIndexLogger;
}

export interface RejectedSolrDocument {
  /** Position of the document in the list given to add(), from 0. */
  readonly index: number;
  readonly id: string;
  /** Solr's own message, e.g. `ERROR: [doc=x] unknown field 'foo'`. */
  readonly reason: string;
}

export interface SolrAddResult {
  readonly added: number;
  readonly rejected: readonly RejectedSolrDocument[];
}

export interface SolrWriter {
  /** Adds (or replaces, by id) documents; documents Solr refuses are reported, the rest are written. */
  add(documents: readonly RecordDocument[]): Promise<SolrAddResult>;
  /** For the ids the core holds (committed documents only): the stored content's fingerprint and `last_indexed`. */
  storedContentOf(ids: readonly string[]): Promise<Map<string, StoredContent>>;
  /** Deletes these records by id (visible within commitWithin, or at the next commit). */
  deleteByIds(ids: readonly string[]): Promise<void>;
  /** A hard commit that waits for the new searcher: afterwards every added document can be found. */
  commit(): Promise<void>;
  /** Deletes every document of the core (not committed). Destructive: for disposable test cores. */
  deleteAll(): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_SOLR_WRITE_TIMEOUT_MS = 30_000;
export const DEFAULT_SOLR_COMMIT_WITHIN_MS = 10_000;
/**
 * After this many documents refused one by one without any document accepted in between, the load stops:
 * a schema that refuses everything (wrong core, missing field) would otherwise cost two requests per record.
 */
export const MAX_CONSECUTIVE_REJECTIONS = 100;

// solr-client 0.9 ships no type declarations; this is the part the writer uses.
interface SolrClient {
  add(docs: unknown[], options: Record<string, string | number>, callback: SolrCallback): http.ClientRequest;
  commit(options: Record<string, unknown>, callback: SolrCallback): http.ClientRequest;
  deleteByQuery(query: string, options: Record<string, unknown>, callback: SolrCallback): http.ClientRequest;
  update(data: unknown, options: Record<string, unknown>, callback: SolrCallback): http.ClientRequest;
  post(handler: string, query: string, callback: SolrCallback): http.ClientRequest;
  basicAuth(username: string, password: string): SolrClient;
}

/** Solr reserves names with a leading and trailing underscore; `_version_` would even turn an add into an
 * optimistic-concurrency check that fails. */
const MAX_TIMEOUT_MS = 2_147_483_647;

export function createSolrWriter(options: SolrWriterOptions): SolrWriter {
  // The url, timeoutMs, fields and logger options mean the same as for the adapter: one set of rules and
  // messages checks them (the writer's own default timeout applies when none is given).
  const settings = checkSolrIndexOptions({
    url: options?.url,
    ...(options?.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options?.fields !== undefined ? { fields: options.fields } : {}),
    ...(options?.logger !== undefined ? { logger: options.logger } : {}),
  });
  let commitWithinMs = DEFAULT_SOLR_COMMIT_WITHIN_MS;
  if (options.commitWithinMs !== undefined) {
    const value: unknown = options.commitWithinMs;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_TIMEOUT_MS) {
      throw new InvalidOptionError('commitWithinMs', `must be a whole number of milliseconds (0 for none), not ${String(value)}`);
    }
    commitWithinMs = value;
  }
  const timeoutMs = options.timeoutMs === undefined ? DEFAULT_SOLR_WRITE_TIMEOUT_MS : settings.timeoutMs;
  return new Writer(settings.endpoint, timeoutMs, settings.fields, commitWithinMs, settings.logger);
}

type Answer = SolrAnswer;

/** What one update request came to: done, refused as a bad request (the documents' fault), or a fault. */
type UpdateOutcome = { ok: true } | { ok: false; refused: string };

class Writer implements SolrWriter {
  private readonly agent: http.Agent;
  private readonly client: SolrClient;
  private closed = false;
  private consecutiveRejections = 0;

  constructor(
    private readonly endpoint: SolrEndpoint,
    private readonly timeoutMs: number,
    private readonly fields: Readonly<SolrFieldMap>,
    private readonly commitWithinMs: number,
    private readonly logger: SolrIndexLogger | undefined,
  ) {
    // Batches reuse the agent's connections. Below 4.0 solr-client posts JSON to /update/json; every Solr
    // since 4.0 reads JSON at /update.
    ({ agent: this.agent, client: this.client } = openSolrClient<SolrClient>(endpoint, { solrVersion: '5.1' }));
  }

  async add(documents: readonly RecordDocument[]): Promise<SolrAddResult> {
    if (!Array.isArray(documents)) throw new InvalidArgumentError('add', 'documents', 'a list of record documents', documents);
    const solrDocuments = documents.map((document) => toSolrDocument(document, this.fields));
    const rejected: RejectedSolrDocument[] = [];
    // Solr applies a batch document by document and stops at the first refused one, so the halves of a
    // refused batch are sent again; an add of an id that is there already just replaces it.
    const send = async (from: number, to: number): Promise<void> => {
      if (from >= to) return;
      const outcome = await this.update(`add of ${to - from} document${to - from === 1 ? '' : 's'}`,
        (callback) => this.client.add(solrDocuments.slice(from, to), this.commitWithinMs > 0 ? { commitWithin: this.commitWithinMs } : {}, callback));
      if (outcome.ok) {
        this.consecutiveRejections = 0;
        return;
      }
      if (to - from === 1) {
        const id = documents[from]?.id ?? '';
        rejected.push({ index: from, id, reason: outcome.refused });
        this.consecutiveRejections += 1;
        if (this.consecutiveRejections >= MAX_CONSECUTIVE_REJECTIONS) {
          throw new IndexUnavailableError(
            `Solr ${this.endpoint.display}: refused the last ${this.consecutiveRejections} documents one by one (last: ${outcome.refused}); ` +
            'is this a core made for record documents (see src/adapters/solr/configset)?',
          );
        }
        return;
      }
      const middle = from + Math.ceil((to - from) / 2);
      await send(from, middle);
      await send(middle, to);
    };
    await send(0, solrDocuments.length);
    rejected.sort((a, b) => a.index - b.index);
    return { added: documents.length - rejected.length, rejected };
  }

  async storedContentOf(ids: readonly string[]): Promise<Map<string, StoredContent>> {
    checkRecordIds('storedContentOf', ids);
    const held = new Map<string, StoredContent>();
    const asked = [...new Set(ids)];
    if (asked.length === 0) return held;
    const params = encodeSolrParams([
      // The separator is one that none of the ids contains (termsQuery.ts), so any id can be asked for.
      ['q', termsQuery(this.fields.id, asked)],
      ['rows', String(asked.length)],
      ['fl', [...new Set(Object.values(this.fields))].join(',')],
    ]);
    // Always a form POST: a batch of ids is far longer than a URL should be.
    const what = `lookup of ${asked.length} stored document${asked.length === 1 ? '' : 's'}`;
    const outcome = await this.send('select', what, (callback) => this.client.post('select', params, callback));
    for (const doc of solrResultList(outcome, this.describe('select', what)).docs) {
      try {
        // Read back as the adapter reads it, so the fingerprint is of the same fields and spellings.
        const record = recordFromDocument(toRecordDocument(doc, this.fields));
        held.set(record.id, { fingerprint: contentFingerprintOf(toRecordDocument(doc, this.fields)), lastIndexed: record.lastIndexed });
      } catch (error) {
        // A stored document the adapter could not read counts as changed: the new one replaces it.
        if (!(error instanceof InvalidRecordDocumentError)) throw error;
      }
    }
    return held;
  }

  async deleteByIds(ids: readonly string[]): Promise<void> {
    checkRecordIds('deleteByIds', ids);
    if (ids.length === 0) return;
    const what = `delete of ${ids.length} document${ids.length === 1 ? '' : 's'}`;
    const outcome = await this.update(what, // Solr's JSON update format deletes several ids with `{"delete": [id, …]}`.
      (callback) => this.client.update({ delete: [...ids] }, this.commitWithinMs > 0 ? { commitWithin: this.commitWithinMs } : {}, callback));
    if (!outcome.ok) throw new IndexUnavailableError(`Solr ${this.endpoint.display}: delete refused: ${outcome.refused}`);
  }

  async commit(): Promise<void> {
    const outcome = await this.update('commit', (callback) => this.client.commit({}, callback));
    if (!outcome.ok) throw new IndexUnavailableError(`Solr ${this.endpoint.display}: commit refused: ${outcome.refused}`);
  }

  async deleteAll(): Promise<void> {
    const outcome = await this.update('delete of all documents', (callback) => this.client.deleteByQuery('*:*', {}, callback));
    if (!outcome.ok) throw new IndexUnavailableError(`Solr ${this.endpoint.display}: delete refused: ${outcome.refused}`);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.agent.destroy();
  }

  /** One request to /update: a 400/413 answer is the documents' fault; anything else but success is a fault. */
  private async update(what: string, start: (callback: SolrCallback) => http.ClientRequest): Promise<UpdateOutcome> {
    const outcome = await this.send('update', what, start);
    if (outcome.status === 400 || outcome.status === 413) {
      return { ok: false, refused: solrErrorOf(outcome.body) ?? `HTTP ${outcome.status}: ${snippet(outcome.body)}` };
    }
    solrAnswerData(outcome, this.describe('update', what));
    return { ok: true };
  }

  /** Sends once, and once more when a kept-alive socket turned out to be closed (every request here is
   * idempotent: adds replace by id, commits and deletes can repeat). */
  private async send(handler: 'update' | 'select', what: string, start: (callback: SolrCallback) => http.ClientRequest): Promise<Answer> {
    const prefix = this.describe(handler, what);
    if (this.closed) throw new IndexUnavailableError(`${prefix}: the writer was closed`);
    const started = Date.now();
    const deadline = started + this.timeoutMs;
    let outcome = await exchangeWithSolr(start, deadline);
    if (outcome.kind === 'failed' && outcome.staleSocket && !this.closed && Date.now() < deadline) outcome = await exchangeWithSolr(start, deadline);
    this.logger?.debug?.(`${prefix}: ${outcome.kind === 'answered' ? `HTTP ${outcome.status}` : outcome.kind} in ${Date.now() - started} ms`);
    if (outcome.kind === 'timeout') throw new IndexUnavailableError(`${prefix}: no answer within ${this.timeoutMs} ms`);
    if (outcome.kind === 'failed') throw new IndexUnavailableError(`${prefix}: ${describeNetworkError(outcome.error)}`, { cause: outcome.error });
    return outcome;
  }

  /** `Solr POST http://host:8983/solr/biblio/update add of 1000 documents`: the start of every message. */
  private describe(handler: 'update' | 'select', what: string): string {
    return `Solr POST ${this.endpoint.display}/${handler} ${what}`;
  }

}

/**
 * The writer as the ingest pipeline's writer: documents refused by Solr come back as refusals, and
 * closing commits (so the load is visible when the command ends) and drops the connections. Documents
 * without work keys are keyed under `keyProfile` (default `vufind`: VuFind's importer writes the same
 * field in the same core).
 */
export function solrIngestWriter(writer: SolrWriter, description: string, keyProfile: WorkKeyProfileName = DEFAULT_WORK_KEY_PROFILE): IngestWriter {
  checkKeyProfile(keyProfile);
  const methods = ['add', 'storedContentOf', 'deleteByIds', 'commit', 'close'] as const;
  if (typeof writer !== 'object' || writer === null || methods.some((method) => typeof writer[method] !== 'function')) {
    throw new InvalidArgumentError('solrIngestWriter', 'writer', `a SolrWriter from createSolrWriter (with ${methods.join(', ')})`, writer);
  }
  if (typeof description !== 'string') {
    throw new InvalidArgumentError('solrIngestWriter', 'description', 'a string naming the core for messages', description);
  }
  return {
    description,
    keyProfile,
    storedContentOf: (ids) => writer.storedContentOf(ids),
    put: async (batch) => (await writer.add(batch)).rejected.map(({ index, reason }) => ({ index, reason })),
    delete: (ids) => writer.deleteByIds(ids),
    async close() {
      try {
        await writer.commit();
      } finally {
        await writer.close();
      }
    },
  };
}
