/**
 * A harvest's options (OaiHarvestOptions) checked into its settings before any request (checkOptions):
 * defaults filled in, a malformed or impossible date, from after until, a base URL that is not http(s)
 * refused at once; and the from and until dates to send once the repository's granularity is known
 * (datesToSend: a day-only repository gets day dates, which can only widen the harvest).
 *
 * Left to others: the requests (oaiHarvester.ts) and their attempts (oaiRequestAttempts.ts).
 */
import { describeValue, InvalidArgumentError, InvalidOptionError } from '../../errors.js';
import type { OaiRetryPolicy, RetrySettings } from './oaiRequestAttempts.js';

export interface OaiHarvestOptions {
  /** The repository's OAI-PMH base URL (http or https). */
  readonly baseUrl: string;
  readonly metadataPrefix: string;
  readonly set?: string;
  /** `YYYY-MM-DD` or `YYYY-MM-DDThh:mm:ssZ`: records changed on or after. */
  readonly from?: string;
  /** `YYYY-MM-DD` or `YYYY-MM-DDThh:mm:ssZ`: records changed on or before. */
  readonly until?: string;
  readonly fetch?: typeof fetch;
  readonly retry?: OaiRetryPolicy;
  /** How the harvester waits between attempts (tests pass one that returns at once). */
  readonly sleep?: (ms: number) => Promise<void>;
  /** Called with the URL of every HTTP request, retries included (for logs). */
  readonly onRequest?: (url: string) => void;
  /** An attempt fails (and may be retried) when no byte arrives for this long (default 120 000 ms). */
  readonly idleTimeoutMs?: number;
}

export type OaiGranularity = 'YYYY-MM-DD' | 'YYYY-MM-DDThh:mm:ssZ';

const DEFAULT_RETRY = { maxAttempts: 6, initialDelayMs: 1_000, maxDelayMs: 60_000, maxTotalMs: 300_000 } as const;
const DEFAULT_IDLE_TIMEOUT_MS = 120_000;

const DAY_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const SECOND_DATE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/;

export interface HarvestSettings extends RetrySettings {
  readonly baseUrl: URL;
  readonly source: string;
  readonly metadataPrefix: string;
  readonly set: string | undefined;
  readonly from: string | undefined;
  readonly until: string | undefined;
  readonly fetch: typeof fetch;
  readonly onRequest: ((url: string) => void) | undefined;
  readonly idleTimeoutMs: number;
}

export function checkOptions(options: OaiHarvestOptions): HarvestSettings {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidArgumentError('harvestOai', 'options', 'an object ({ baseUrl, metadataPrefix, … })', options);
  }
  if (typeof options.metadataPrefix !== 'string') {
    throw new InvalidOptionError('metadataPrefix', `${describeValue(options.metadataPrefix)} is not a metadata prefix (e.g. marc21 or oai_dc)`);
  }
  let baseUrl: URL;
  try {
    baseUrl = new URL(options.baseUrl);
  } catch {
    throw new InvalidOptionError('baseUrl', `${JSON.stringify(options.baseUrl)} is not a URL`);
  }
  if (baseUrl.protocol !== 'http:' && baseUrl.protocol !== 'https:') {
    throw new InvalidOptionError('baseUrl', `${JSON.stringify(options.baseUrl)} is not an http or https URL`);
  }
  if (options.metadataPrefix.trim() === '') throw new InvalidOptionError('metadataPrefix', 'it is empty');
  if (options.set !== undefined && typeof options.set !== 'string') {
    throw new InvalidOptionError('set', `${describeValue(options.set)} is not a set spec`);
  }
  if (options.set !== undefined && options.set.trim() === '') {
    throw new InvalidOptionError('set', 'it is empty (leave it out to harvest every set)');
  }
  for (const option of ['from', 'until'] as const) {
    if (options[option] !== undefined && typeof options[option] !== 'string') {
      throw new InvalidOptionError(option, `${describeValue(options[option])} is neither YYYY-MM-DD nor YYYY-MM-DDThh:mm:ssZ`);
    }
  }
  if (options.from !== undefined) checkOaiDate('from', options.from);
  if (options.until !== undefined) checkOaiDate('until', options.until);
  if (options.from !== undefined && options.until !== undefined
    && startOf(options.from) > endOf(options.until)) {
    throw new InvalidOptionError('until', `${options.until} is before from (${options.from})`);
  }
  const retry = { ...DEFAULT_RETRY, ...definedFields(options.retry ?? {}) };
  for (const [name, value] of Object.entries(retry)) {
    if (!Number.isFinite(value) || value < 0 || (name === 'maxAttempts' && (value < 1 || !Number.isInteger(value)))) {
      throw new InvalidOptionError(`retry.${name}`, `${value} is not ${name === 'maxAttempts' ? 'a whole number of at least 1' : 'a number of milliseconds'}`);
    }
  }
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  if (!Number.isFinite(idleTimeoutMs) || idleTimeoutMs <= 0) {
    throw new InvalidOptionError('idleTimeoutMs', `${idleTimeoutMs} is not a positive number of milliseconds`);
  }
  return {
    baseUrl,
    source: options.baseUrl,
    metadataPrefix: options.metadataPrefix,
    set: options.set,
    from: options.from,
    until: options.until,
    fetch: options.fetch ?? globalThis.fetch,
    retry,
    sleep: options.sleep ?? ((ms) => new Promise((resolve) => { setTimeout(resolve, ms); })),
    onRequest: options.onRequest,
    idleTimeoutMs,
  };
}

function definedFields(policy: OaiRetryPolicy): OaiRetryPolicy {
  return Object.fromEntries(Object.entries(policy).filter(([, value]) => value !== undefined));
}

/** Checks an OAI-PMH UTCdatetime: a real calendar date (and time), in one of the two granularities. */
function checkOaiDate(option: string, value: string): void {
  const match = SECOND_DATE.exec(value) ?? DAY_DATE.exec(value);
  if (match === null) {
    throw new InvalidOptionError(option, `${JSON.stringify(value)} is neither YYYY-MM-DD nor YYYY-MM-DDThh:mm:ssZ`);
  }
  const [year, month, day, hour = 0, minute = 0, second = 0] = match.slice(1).map(Number);
  const date = new Date(Date.UTC(year!, month! - 1, day!, hour, minute, second));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month! - 1 || date.getUTCDate() !== day
    || date.getUTCHours() !== hour || date.getUTCMinutes() !== minute || date.getUTCSeconds() !== second) {
    throw new InvalidOptionError(option, `${JSON.stringify(value)} is not a real date and time`);
  }
}

/** The first second a date stands for (a day date means its first second). */
function startOf(date: string): string {
  return date.length === 10 ? `${date}T00:00:00Z` : date;
}

/** The last second a date stands for (a day date means its last second). */
function endOf(date: string): string {
  return date.length === 10 ? `${date}T23:59:59Z` : date;
}

/**
 * The from and until to send: day dates for a day-only repository; for a repository with seconds, a
 * day date beside a date with seconds is widened to its first or last second, since OAI-PMH requires
 * both arguments in one granularity.
 */
export function datesToSend(settings: HarvestSettings, granularity: OaiGranularity): { from?: string; until?: string } {
  const { from, until } = settings;
  if (granularity === 'YYYY-MM-DD') {
    return { ...(from !== undefined ? { from: from.slice(0, 10) } : {}), ...(until !== undefined ? { until: until.slice(0, 10) } : {}) };
  }
  if (from !== undefined && until !== undefined && from.length !== until.length) return { from: startOf(from), until: endOf(until) };
  return { ...(from !== undefined ? { from } : {}), ...(until !== undefined ? { until } : {}) };
}
