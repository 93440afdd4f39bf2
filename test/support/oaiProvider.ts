/**
 * A small OAI-PMH 2.0 repository for tests: a real node:http server on 127.0.0.1 (a free port) that
 * answers Identify and ListRecords (marc21 and oai_dc) from an in-memory list of records, with
 * datestamps, sets (hierarchical, `a:b` is in `a`) and deletions, pages of a chosen size joined by
 * resumption tokens, and from/until/set filtering with the protocol's errors (badArgument,
 * cannotDisseminateFormat, noSetHierarchy, noRecordsMatch, badResumptionToken, badVerb).
 *
 * Faults can be scheduled for the next matching requests: an HTTP status (503 with Retry-After, 500,
 * 404, or any body), a connection dropped before the answer or half-way through it, or an OAI-PMH
 * error. Every request is logged with what it was answered.
 *
 * It is a test double, not a repository: no ListSets, GetRecord or ListIdentifiers, no POST.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const OAI = 'http://www.openarchives.org/OAI/2.0/';
const OAI_DC = 'http://www.openarchives.org/OAI/2.0/oai_dc/';
const DC = 'http://purl.org/dc/elements/1.1/';
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
const MARC = 'http://www.loc.gov/MARC21/slim';

export type DublinCoreElement =
  | 'title' | 'creator' | 'subject' | 'description' | 'publisher' | 'contributor' | 'date' | 'type'
  | 'format' | 'identifier' | 'source' | 'language' | 'relation' | 'coverage' | 'rights';

export interface ProvidedRecord {
  /** Leave out to serve a record whose header has no identifier. */
  readonly identifier?: string;
  /** `YYYY-MM-DDThh:mm:ssZ`; a day-granularity repository shows only the day. */
  readonly datestamp: string;
  readonly sets?: readonly string[];
  readonly deleted?: boolean;
  /** Served for oai_dc. */
  readonly dublinCore?: Partial<Record<DublinCoreElement, readonly string[]>>;
  /**
   * Served for marc21, inserted as it is: a MARCXML <record> element. With namespaceDeclarations
   * 'response' it may use the `marc:` prefix without declaring it.
   */
  readonly marcXml?: string;
}

export type OaiFault =
  /** An HTTP answer other than the real one: 503 with Retry-After, 500, 404, or a 200 that is not OAI-PMH. */
  | { readonly kind: 'status'; readonly status: number; readonly retryAfter?: string; readonly body?: string }
  /** The connection is closed before any answer, or after half of the real answer was sent. */
  | { readonly kind: 'drop'; readonly when: 'before-response' | 'mid-body' }
  /** Nothing more is sent (the connection stays open): no answer at all, or only half of it. */
  | { readonly kind: 'stall'; readonly when: 'before-response' | 'mid-body' }
  | { readonly kind: 'oai-error'; readonly code: string; readonly message?: string };

export interface ScheduledFault {
  /** Which requests it hits: Identify, the first ListRecords, a resumption request, or any (default). */
  readonly on?: 'Identify' | 'ListRecords' | 'resumption' | 'any';
  /** How many matching requests it hits (default 1). */
  readonly times?: number;
  readonly fault: OaiFault;
}

export interface OaiProviderOptions {
  readonly records: readonly ProvidedRecord[];
  /** Records per ListRecords page (default 3). */
  readonly pageSize?: number;
  readonly granularity?: 'YYYY-MM-DD' | 'YYYY-MM-DDThh:mm:ssZ';
  /** Where oai_dc's namespaces (and `marc:`) are declared: on each record (default) or only on <OAI-PMH>. */
  readonly namespaceDeclarations?: 'record' | 'response';
  /** The last page's token: an empty <resumptionToken/> (default) or none at all. */
  readonly lastPage?: 'empty-token' | 'no-token';
  /** false: the repository has no sets, and a set argument is answered with noSetHierarchy. */
  readonly supportsSets?: boolean;
  /** The responseDate of each response (default: the real time). */
  readonly clock?: () => Date;
  readonly earliestDatestamp?: string;
}

export interface LoggedRequest {
  readonly url: string;
  readonly params: Readonly<Record<string, string>>;
  /** `ok`, `oai-error:<code>`, `status:<n>`, `drop:<when>` or `stall:<when>`. */
  readonly answer: string;
}

export interface OaiProvider {
  /** `http://127.0.0.1:<port>/oai` */
  readonly baseUrl: string;
  readonly requests: readonly LoggedRequest[];
  injectFault(fault: ScheduledFault): void;
  /** Forgets every resumption token issued so far (as a restarted repository would). */
  forgetTokens(): void;
  close(): Promise<void>;
}

interface ListQuery { metadataPrefix: string; set?: string; from?: string; until?: string }

export async function startOaiProvider(options: OaiProviderOptions): Promise<OaiProvider> {
  const pageSize = options.pageSize ?? 3;
  const granularity = options.granularity ?? 'YYYY-MM-DDThh:mm:ssZ';
  const declareOnResponse = options.namespaceDeclarations === 'response';
  const requests: LoggedRequest[] = [];
  const faults: Array<{ on: NonNullable<ScheduledFault['on']>; remaining: number; fault: OaiFault }> = [];
  const tokens = new Map<string, { query: ListQuery; offset: number }>();
  let tokensIssued = 0;
  let baseUrl = '';

  const responseDate = (): string => (options.clock?.() ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const shownDatestamp = (datestamp: string): string => (granularity === 'YYYY-MM-DD' ? datestamp.slice(0, 10) : datestamp);

  const envelope = (params: Record<string, string>, body: string): string => {
    const requestAttributes = Object.entries(params).map(([name, value]) => ` ${name}="${escapeXml(value)}"`).join('');
    const extra = declareOnResponse ? ` xmlns:oai_dc="${OAI_DC}" xmlns:dc="${DC}" xmlns:marc="${MARC}"` : '';
    return `<?xml version="1.0" encoding="UTF-8"?>\n<OAI-PMH xmlns="${OAI}" xmlns:xsi="${XSI}"${extra} xsi:schemaLocation="${OAI} http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd">\n`
      + `<responseDate>${responseDate()}</responseDate>\n<request${requestAttributes}>${escapeXml(baseUrl)}</request>\n${body}\n</OAI-PMH>\n`;
  };
  const oaiError = (params: Record<string, string>, code: string, message: string): { xml: string; answer: string } => ({
    xml: envelope(params, `<error code="${escapeXml(code)}">${escapeXml(message)}</error>`),
    answer: `oai-error:${code}`,
  });

  const dublinCoreXml = (fields: NonNullable<ProvidedRecord['dublinCore']>): string => {
    const declarations = declareOnResponse ? '' : ` xmlns:oai_dc="${OAI_DC}" xmlns:dc="${DC}" xmlns:xsi="${XSI}"`;
    const elements = Object.entries(fields)
      .flatMap(([name, values]) => (values ?? []).map((value) => `\n      <dc:${name}>${escapeXml(value)}</dc:${name}>`))
      .join('');
    return `<oai_dc:dc${declarations} xsi:schemaLocation="${OAI_DC} http://www.openarchives.org/OAI/2.0/oai_dc.xsd">${elements}\n    </oai_dc:dc>`;
  };

  const recordXml = (record: ProvidedRecord, metadataPrefix: string): string => {
    const header = `<header${record.deleted === true ? ' status="deleted"' : ''}>`
      + (record.identifier !== undefined ? `<identifier>${escapeXml(record.identifier)}</identifier>` : '')
      + `<datestamp>${shownDatestamp(record.datestamp)}</datestamp>`
      + (record.sets ?? []).map((set) => `<setSpec>${escapeXml(set)}</setSpec>`).join('')
      + '</header>';
    if (record.deleted === true) return `<record>${header}</record>`;
    const metadata = metadataPrefix === 'oai_dc' ? dublinCoreXml(record.dublinCore ?? {}) : record.marcXml ?? '';
    return `<record>${header}\n  <metadata>\n    ${metadata}\n  </metadata>\n</record>`;
  };

  const hasFormat = (record: ProvidedRecord, metadataPrefix: string): boolean =>
    record.deleted === true || (metadataPrefix === 'oai_dc' ? record.dublinCore !== undefined : record.marcXml !== undefined);

  const inSet = (record: ProvidedRecord, set: string): boolean =>
    (record.sets ?? []).some((spec) => spec === set || spec.startsWith(`${set}:`));

  const listRecords = (params: Record<string, string>): { xml: string; answer: string } => {
    let query: ListQuery;
    let offset: number;
    if (params.resumptionToken !== undefined) {
      if (Object.keys(params).length !== 2) return oaiError(params, 'badArgument', 'resumptionToken is an exclusive argument');
      const state = tokens.get(params.resumptionToken);
      if (state === undefined) return oaiError(params, 'badResumptionToken', `unknown resumption token ${params.resumptionToken}`);
      ({ query, offset } = state);
    } else {
      const { metadataPrefix, set, from, until } = params;
      if (metadataPrefix === undefined) return oaiError(params, 'badArgument', 'metadataPrefix is required');
      if (metadataPrefix !== 'oai_dc' && metadataPrefix !== 'marc21') {
        return oaiError(params, 'cannotDisseminateFormat', `${metadataPrefix} is not supported`);
      }
      for (const date of [from, until]) {
        if (date === undefined) continue;
        const dayOnly = /^\d{4}-\d{2}-\d{2}$/.test(date);
        if (!dayOnly && !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(date)) return oaiError(params, 'badArgument', `bad date ${date}`);
        if (!dayOnly && granularity === 'YYYY-MM-DD') return oaiError(params, 'badArgument', `this repository has day granularity: ${date}`);
      }
      if (from !== undefined && until !== undefined && from.length !== until.length) {
        return oaiError(params, 'badArgument', 'from and until have different granularities');
      }
      if (set !== undefined && options.supportsSets === false) return oaiError(params, 'noSetHierarchy', 'this repository has no sets');
      query = { metadataPrefix, ...(set !== undefined ? { set } : {}), ...(from !== undefined ? { from } : {}), ...(until !== undefined ? { until } : {}) };
      offset = 0;
    }
    const from = query.from === undefined ? undefined : query.from.length === 10 ? `${query.from}T00:00:00Z` : query.from;
    const until = query.until === undefined ? undefined : query.until.length === 10 ? `${query.until}T23:59:59Z` : query.until;
    const matching = options.records.filter((record) =>
      hasFormat(record, query.metadataPrefix)
      && (query.set === undefined || inSet(record, query.set))
      && (from === undefined || record.datestamp >= from)
      && (until === undefined || record.datestamp <= until));
    if (matching.length === 0) return oaiError(params, 'noRecordsMatch', 'no records match');
    const page = matching.slice(offset, offset + pageSize);
    const nextOffset = offset + page.length;
    let token = '';
    if (nextOffset < matching.length) {
      tokensIssued += 1;
      const issued = `token-${tokensIssued}`;
      tokens.set(issued, { query, offset: nextOffset });
      token = `<resumptionToken completeListSize="${matching.length}" cursor="${offset}">${issued}</resumptionToken>`;
    } else if (offset > 0 && options.lastPage !== 'no-token') {
      token = `<resumptionToken completeListSize="${matching.length}" cursor="${offset}"/>`;
    }
    const records = page.map((record) => recordXml(record, query.metadataPrefix)).join('\n');
    return { xml: envelope(params, `<ListRecords>\n${records}\n${token}\n</ListRecords>`), answer: 'ok' };
  };

  const identify = (params: Record<string, string>): { xml: string; answer: string } => {
    const earliest = options.earliestDatestamp
      ?? [...options.records].map((record) => record.datestamp).sort()[0]
      ?? '2000-01-01T00:00:00Z';
    return {
      xml: envelope(params, `<Identify><repositoryName>Test repository</repositoryName><baseURL>${escapeXml(baseUrl)}</baseURL>`
        + '<protocolVersion>2.0</protocolVersion><adminEmail>oai@example.org</adminEmail>'
        + `<earliestDatestamp>${shownDatestamp(earliest)}</earliestDatestamp><deletedRecord>persistent</deletedRecord>`
        + `<granularity>${granularity}</granularity></Identify>`),
      answer: 'ok',
    };
  };

  const takeFault = (params: Record<string, string>): OaiFault | undefined => {
    const kind = params.verb === 'Identify' ? 'Identify' : params.resumptionToken !== undefined ? 'resumption' : 'ListRecords';
    const scheduled = faults.find((candidate) => candidate.remaining > 0 && (candidate.on === 'any' || candidate.on === kind));
    if (scheduled === undefined) return undefined;
    scheduled.remaining -= 1;
    return scheduled.fault;
  };

  const handle = (request: IncomingMessage, response: ServerResponse): void => {
    const url = new URL(request.url ?? '/', baseUrl);
    const params: Record<string, string> = Object.fromEntries(url.searchParams);
    const log = (answer: string): void => { requests.push({ url: url.toString(), params, answer }); };
    const fault = takeFault(params);

    if (fault?.kind === 'status') {
      log(`status:${fault.status}`);
      response.writeHead(fault.status, {
        'content-type': fault.body?.startsWith('<') === true ? 'text/xml; charset=utf-8' : 'text/plain; charset=utf-8',
        ...(fault.retryAfter !== undefined ? { 'retry-after': fault.retryAfter } : {}),
      });
      response.end(fault.body ?? `HTTP ${fault.status}`);
      return;
    }
    if (fault?.kind === 'drop' && fault.when === 'before-response') {
      log('drop:before-response');
      request.socket.destroy();
      return;
    }
    if (fault?.kind === 'stall' && fault.when === 'before-response') {
      log('stall:before-response');
      return;
    }

    let answer: { xml: string; answer: string };
    if (fault?.kind === 'oai-error') answer = oaiError(params, fault.code, fault.message ?? fault.code);
    else if (params.verb === 'Identify') answer = identify(params);
    else if (params.verb === 'ListRecords') answer = listRecords(params);
    else answer = oaiError(params, 'badVerb', `unsupported verb ${params.verb ?? '(none)'}`);

    if (fault?.kind === 'drop' || fault?.kind === 'stall') {
      log(`${fault.kind}:mid-body`);
      // Chunked, so the client cannot tell from a length that the answer was cut: it sees the socket
      // close (drop) or simply nothing more (stall).
      response.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' });
      response.write(answer.xml.slice(0, Math.floor(answer.xml.length / 2)), () => {
        if (fault.kind === 'drop') setTimeout(() => response.socket?.destroy(), 20);
      });
      return;
    }
    log(answer.answer);
    response.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' });
    response.end(answer.xml);
  };

  const server = createServer(handle);
  await new Promise<void>((resolve) => { server.listen(0, '127.0.0.1', resolve); });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/oai`;

  return {
    baseUrl,
    requests,
    injectFault(scheduled) {
      faults.push({ on: scheduled.on ?? 'any', remaining: scheduled.times ?? 1, fault: scheduled.fault });
    },
    forgetTokens() {
      tokens.clear();
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve, reject) => { server.close((error) => (error ? reject(error) : resolve())); });
    },
  };
}

export function escapeXml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
