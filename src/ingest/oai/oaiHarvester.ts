/**
 * An OAI-PMH 2.0 harvest as a reader (src/record/sourceRecord.ts's contract): an async iterable of the records,
 * deletions and unreadable records of one ListRecords run over a repository, page after page.
 *
 * What it does: asks Identify once at the start, as VuFind's harvester does, for two things: the
 * repository's date granularity (day-only repositories get day dates: a finer `from`/`until` is cut to
 * the day, which can only widen the harvest) and the responseDate that the next incremental harvest
 * uses as its `from` (taken before any record is read, so nothing changed during this run is missed).
 * Then ListRecords with metadataPrefix, set, from and until, and after that the resumption token alone
 * until a page comes back with an empty or absent token. Each page is parsed as it streams in
 * (oaiResponseParser.ts) and its records are handed out as they are read.
 *
 * Failures: HTTP 503 (and 429) are retried after the Retry-After they name (seconds or an HTTP date);
 * network errors, a connection dropped mid-page, silence longer than idleTimeoutMs and other 5xx are
 * retried with exponential backoff; every request has a bounded number of attempts and a bounded total
 * time. Other 4xx fail at once. A page that breaks after some of its records were handed out is asked
 * for again and its first records are skipped (checked by identifier), so nothing is given out twice.
 * OAI-PMH errors throw OaiError, except noRecordsMatch, which is an empty harvest.
 *
 * Left to others: keeping harvest state (the last responseDate per base URL, prefix and set), mapping
 * metadata to record documents (dublinCoreMapping.ts, the MARC mapping), writing and deleting in the
 * index.
 */
import { InvalidCallError, MalformedOaiResponseError, OaiError, OaiRequestError } from '../../errors.js';
import type { RecordPosition, SourceItem } from '../../record/sourceRecord.js';
import { OaiResponseParser, type OaiResponseSummary, type ParsedOaiRecord } from './oaiResponseParser.js';
import { answerOfFailedStatus, AttemptWithIdleTimeout, RetryBudget, TransientFailure, type OaiRetryPolicy } from './oaiRequestAttempts.js';
import { checkOptions, datesToSend, type HarvestSettings, type OaiGranularity, type OaiHarvestOptions } from './oaiHarvestSettings.js';

/** One harvested (not deleted) record. */
export interface HarvestedRecord {
  /** The OAI identifier from the record's header. */
  readonly identifier: string;
  /** The header's datestamp, as the repository wrote it. */
  readonly datestamp: string;
  readonly setSpecs: readonly string[];
  /** The one element inside <metadata>, with the namespace declarations it needs to be read alone. */
  readonly metadataXml: string;
}

/** What a finished harvest reports. */
export interface OaiHarvestSummary {
  /** The responseDate of the first response (Identify's): the `from` of the next incremental harvest. */
  readonly responseDate: string;
  readonly granularity: OaiGranularity;
  /** Identify's earliestDatestamp, when the repository gave one. */
  readonly earliestDatestamp?: string;
  /** Records handed out (kind 'record'). */
  readonly records: number;
  readonly deleted: number;
  readonly problems: number;
  /** ListRecords responses read. */
  readonly pages: number;
}

export { OaiError, OaiRequestError };
export type { OaiGranularity, OaiHarvestOptions, OaiRetryPolicy };

export interface OaiHarvest extends AsyncIterable<SourceItem<HarvestedRecord>> {
  /** The harvest's summary; throws unless the iteration has ended without an error. */
  summary(): OaiHarvestSummary;
}


/** Repositories' access logs (and rate limiters) can tell a harvester from a browser or a bot. */
const REQUEST_HEADERS = { accept: 'text/xml, application/xml', 'user-agent': 'koa-catalog-versions OAI-PMH harvester' } as const;

/**
 * Starts nothing yet: the requests begin when the harvest is iterated. Throws InvalidOptionError at
 * once for options no repository could accept (a malformed date, from after until, a base URL that is
 * not http(s)).
 */
export function harvestOai(options: OaiHarvestOptions): OaiHarvest {
  const settings = checkOptions(options);
  let summary: OaiHarvestSummary | undefined;
  let iterated = false;
  return {
    [Symbol.asyncIterator]() {
      if (iterated) throw new InvalidCallError('This OAI-PMH harvest has already been iterated: call harvestOai again for a new run');
      iterated = true;
      return harvest(settings, (finished) => { summary = finished; })[Symbol.asyncIterator]();
    },
    summary() {
      if (summary === undefined) throw new InvalidCallError('The OAI-PMH harvest has not finished successfully, so it has no summary');
      return summary;
    },
  };
}

function requestUrl(baseUrl: URL, parameters: Record<string, string | undefined>): string {
  const url = new URL(baseUrl);
  for (const [name, value] of Object.entries(parameters)) if (value !== undefined) url.searchParams.set(name, value);
  return url.toString();
}

interface HarvestCounts { records: number; deleted: number; problems: number; pages: number; recordNumber: number }

async function* harvest(
  settings: HarvestSettings,
  onFinished: (summary: OaiHarvestSummary) => void,
): AsyncGenerator<SourceItem<HarvestedRecord>, void, undefined> {
  const counts: HarvestCounts = { records: 0, deleted: 0, problems: 0, pages: 0, recordNumber: 0 };

  const identifyUrl = requestUrl(settings.baseUrl, { verb: 'Identify' });
  const identify = yield* exchange(settings, identifyUrl, counts);
  throwOaiErrors(identify, identifyUrl);
  if (identify.responseDate === undefined || identify.responseDate === '') {
    throw new OaiRequestError(`The Identify response from ${identifyUrl} has no responseDate`, { url: identifyUrl, attempts: 1 });
  }
  // Granularity is mandatory in Identify; without a recognisable one, day dates are the safe choice,
  // since every repository accepts them.
  const granularity: OaiGranularity = identify.identify.get('granularity') === 'YYYY-MM-DDThh:mm:ssZ' ? 'YYYY-MM-DDThh:mm:ssZ' : 'YYYY-MM-DD';
  const earliestDatestamp = identify.identify.get('earliestDatestamp');

  let url = requestUrl(settings.baseUrl, {
    verb: 'ListRecords', metadataPrefix: settings.metadataPrefix, set: settings.set, ...datesToSend(settings, granularity),
  });
  let previousToken: string | undefined;
  for (;;) {
    const page = yield* exchange(settings, url, counts);
    counts.pages += 1;
    if (page.errors.some((error) => error.code === 'noRecordsMatch')) break;
    throwOaiErrors(page, url);
    if (page.verbElement !== 'ListRecords') {
      throw new OaiRequestError(`The answer to ${url} has neither ListRecords nor an error`, { url, attempts: 1 });
    }
    const token = page.resumptionToken;
    if (token === undefined || token === '') break;
    if (token === previousToken) {
      throw new OaiRequestError(
        `The repository answered resumption token ${JSON.stringify(token)} with the same token again; stopping rather than asking forever`,
        { url, attempts: 1 },
      );
    }
    previousToken = token;
    url = requestUrl(settings.baseUrl, { verb: 'ListRecords', resumptionToken: token });
  }

  onFinished({
    responseDate: identify.responseDate,
    granularity,
    ...(earliestDatestamp !== undefined && earliestDatestamp !== '' ? { earliestDatestamp } : {}),
    records: counts.records,
    deleted: counts.deleted,
    problems: counts.problems,
    pages: counts.pages,
  });
}

function throwOaiErrors(response: OaiResponseSummary, url: string): void {
  const first = response.errors[0];
  if (first === undefined) return;
  const others = response.errors.slice(1).map((error) => `${error.code}${error.message === '' ? '' : `: ${error.message}`}`);
  throw new OaiError(first.code, [first.message, ...others].filter((part) => part !== '').join('; '), url);
}

/**
 * One request, with its retries, read as it streams: yields the page's records as source items and
 * returns the rest of the response. After a failure part-way through, the retried answer's first
 * records, already handed out, are skipped.
 */
async function* exchange(
  settings: HarvestSettings,
  url: string,
  counts: HarvestCounts,
): AsyncGenerator<SourceItem<HarvestedRecord>, OaiResponseSummary, undefined> {
  const handedOut: Array<string | undefined> = [];
  const budget = new RetryBudget(settings, url);
  for (;;) {
    budget.startAttempt();
    const attempt = new AttemptWithIdleTimeout(settings.idleTimeoutMs);
    try {
      settings.onRequest?.(url);
      const response = await attempt.guard(() => settings.fetch(url, { signal: attempt.signal, headers: REQUEST_HEADERS }), url);
      if (!response.ok) return await answerOfFailedStatus(response, url, budget.attempts, attempt);
      if (response.body === null) throw new OaiRequestError(`The answer to ${url} has no body`, { url, status: response.status, attempts: budget.attempts });

      const parser = new OaiResponseParser();
      let index = 0;
      const reader = response.body.getReader();
      const decoder = new TextDecoder('utf-8');
      try {
        for (;;) {
          const chunk = await attempt.guard(() => reader.read(), url);
          const text = chunk.done ? decoder.decode() : decoder.decode(chunk.value, { stream: true });
          parseOrExplain(() => parser.write(text), url, budget.attempts);
          const summary = chunk.done ? parseOrExplain(() => parser.finish(), url, budget.attempts) : undefined;
          for (const parsed of parser.takeRecords()) {
            if (index < handedOut.length) {
              if (handedOut[index] !== parsed.identifier) {
                throw new OaiRequestError(
                  `The repository answered ${url} differently when asked again after a failure (record ${index + 1} is now ${parsed.identifier ?? 'without identifier'}, was ${handedOut[index] ?? 'without identifier'}): run the harvest again`,
                  { url, attempts: budget.attempts },
                );
              }
              index += 1;
              continue;
            }
            handedOut.push(parsed.identifier);
            index += 1;
            yield sourceItemOf(parsed, settings.source, counts);
          }
          if (summary !== undefined) return summary;
        }
      } finally {
        // Ends the download when the consumer stops early or the page failed; harmless after the end.
        reader.cancel().catch(() => undefined);
      }
    } catch (error) {
      if (!(error instanceof TransientFailure)) throw error;
      await budget.waitBeforeRetrying(error);
    } finally {
      attempt.end();
    }
  }
}

function parseOrExplain<T>(step: () => T, url: string, attempts: number): T {
  try {
    return step();
  } catch (error) {
    if (!(error instanceof MalformedOaiResponseError)) throw error;
    throw new OaiRequestError(`The answer to ${url} is not a usable OAI-PMH response: ${error.message}`, { url, attempts, cause: error });
  }
}

function sourceItemOf(parsed: ParsedOaiRecord, source: string, counts: HarvestCounts): SourceItem<HarvestedRecord> {
  counts.recordNumber += 1;
  const position: RecordPosition = {
    source,
    recordNumber: counts.recordNumber,
    ...(parsed.identifier !== undefined ? { id: parsed.identifier } : {}),
  };
  const problem = (reason: string): SourceItem<HarvestedRecord> => {
    counts.problems += 1;
    return { kind: 'problem', position, reason };
  };
  if (parsed.identifier === undefined) {
    return problem(`the record's header has no identifier, so it can be neither stored nor deleted${parsed.datestamp === '' ? '' : ` (datestamp ${parsed.datestamp})`}`);
  }
  if (parsed.deleted) {
    counts.deleted += 1;
    return { kind: 'deleted', position, id: parsed.identifier };
  }
  if (parsed.metadataXml === undefined) return problem('the record has no metadata element');
  if (parsed.metadataElementCount > 1) {
    return problem(`the record's <metadata> holds ${parsed.metadataElementCount} elements; OAI-PMH allows exactly one`);
  }
  counts.records += 1;
  return {
    kind: 'record',
    position,
    record: { identifier: parsed.identifier, datestamp: parsed.datestamp, setSpecs: parsed.setSpecs, metadataXml: parsed.metadataXml },
  };
}
