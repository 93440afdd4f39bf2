/**
 * One OAI-PMH request's attempts (oaiHarvester.ts makes the requests): the retry budget (attempts, backoff,
 * Retry-After, total time), the idle timeout of each wait for the network, and what a status other than
 * 2xx means: retried (503, 429, other 5xx but 501), an OAI-PMH error response sent with a 4xx status, or a
 * failure at once.
 *
 * Left to others: the requests and reading the pages (oaiHarvester.ts, oaiResponseParser.ts).
 */
import { OaiRequestError } from '../../errors.js';
import { OaiResponseParser, type OaiResponseSummary } from './oaiResponseParser.js';

export interface OaiRetryPolicy {
  /** Attempts per request, the first included (default 6). */
  readonly maxAttempts?: number;
  /** Wait before the second attempt; each later wait doubles (default 1 000 ms). */
  readonly initialDelayMs?: number;
  /** Longest backoff wait (default 60 000 ms). A Retry-After from the repository may be longer. */
  readonly maxDelayMs?: number;
  /** Time one request may take over all its attempts and waits (default 300 000 ms). */
  readonly maxTotalMs?: number;
}

/** What the retries follow: the harvest's policy, and how it waits (tests pass one that returns at once). */
export interface RetrySettings {
  readonly retry: Required<OaiRetryPolicy>;
  readonly sleep: (ms: number) => Promise<void>;
}

/** Enough of an error page to find an OAI-PMH <error> in it or to quote it. */
const MAX_ERROR_BODY_CHARS = 1_000_000;

/** An attempt failed in a way that another attempt may not: the network, a 5xx, a 503 or 429. */
export class TransientFailure extends Error {
  readonly retryAfterMs: number | undefined;
  readonly status: number | undefined;
  constructor(message: string, details: { retryAfterMs?: number; status?: number; cause?: unknown } = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.retryAfterMs = details.retryAfterMs;
    this.status = details.status;
  }
}

/**
 * A status other than 2xx: 503 and 429 are retried after their Retry-After, other 5xx with backoff
 * (except 501, which will not change); other statuses fail at once, unless the body is an OAI-PMH
 * error response, which some repositories send with a 4xx status and which is then read as one.
 */
export async function answerOfFailedStatus(
  response: Response,
  url: string,
  attempts: number,
  attempt: AttemptWithIdleTimeout,
): Promise<OaiResponseSummary> {
  const { status } = response;
  if (status === 503 || status === 429) {
    response.body?.cancel().catch(() => undefined);
    const retryAfterMs = retryAfterOf(response.headers.get('retry-after'));
    throw new TransientFailure(`HTTP ${status}${retryAfterMs === undefined ? '' : ` (Retry-After ${response.headers.get('retry-after')})`}`, {
      status, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    });
  }
  if (status >= 500 && status !== 501) {
    response.body?.cancel().catch(() => undefined);
    throw new TransientFailure(`HTTP ${status}`, { status });
  }
  const body = await attempt.guard(() => response.text(), url);
  const excerpt = body.slice(0, MAX_ERROR_BODY_CHARS);
  const parser = new OaiResponseParser();
  try {
    parser.write(excerpt);
    const summary = parser.finish();
    if (summary.errors.length > 0) return summary;
  } catch {
    // Not an OAI-PMH error response: report the status.
  }
  const quoted = body.replace(/\s+/g, ' ').trim().slice(0, 200);
  throw new OaiRequestError(`HTTP ${status} from ${url}${quoted === '' ? '' : `: ${quoted}`}`, { url, status, attempts });
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
function retryAfterOf(header: string | null): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Attempts and time spent on one request; decides whether and how long to wait before the next. */
export class RetryBudget {
  attempts = 0;
  /** Time spent on attempts (measured) and waits (as asked of sleep, which tests make instant). */
  private spentMs = 0;
  private attemptStartedAt = 0;

  constructor(private readonly settings: RetrySettings, private readonly url: string) {}

  startAttempt(): void {
    this.attempts += 1;
    this.attemptStartedAt = performance.now();
  }

  async waitBeforeRetrying(failure: TransientFailure): Promise<void> {
    this.spentMs += performance.now() - this.attemptStartedAt;
    const { maxAttempts, initialDelayMs, maxDelayMs, maxTotalMs } = this.settings.retry;
    const details = { url: this.url, attempts: this.attempts, cause: failure, ...(failure.status !== undefined ? { status: failure.status } : {}) };
    if (this.attempts >= maxAttempts) {
      throw new OaiRequestError(`Gave up on ${this.url} after ${this.attempts} attempts; the last failed with ${failure.message}`, details);
    }
    const delayMs = failure.retryAfterMs ?? Math.min(maxDelayMs, initialDelayMs * 2 ** (this.attempts - 1));
    if (this.spentMs + delayMs > maxTotalMs) {
      throw new OaiRequestError(
        `Gave up on ${this.url} after ${this.attempts} attempts: waiting ${Math.ceil(delayMs / 1000)} s more would exceed the retry budget of ${Math.round(maxTotalMs / 1000)} s; the last failed with ${failure.message}`,
        details,
      );
    }
    await this.settings.sleep(delayMs);
    this.spentMs += delayMs;
  }
}

/**
 * One attempt's abort signal, fired when a wait for the network (the response head, the next piece of
 * the body) lasts longer than the idle timeout. Only those waits are timed: a consumer that takes long
 * over a record does not count against the repository.
 */
export class AttemptWithIdleTimeout {
  private readonly controller = new AbortController();
  private timedOut = false;

  constructor(private readonly idleTimeoutMs: number) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Runs one network wait; turns network failures (and the idle timeout) into TransientFailure. */
  async guard<T>(wait: () => Promise<T>, url: string): Promise<T> {
    const timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort();
    }, this.idleTimeoutMs);
    try {
      return await wait();
    } catch (error) {
      if (this.timedOut) throw new TransientFailure(`no data from ${url} for ${Math.round(this.idleTimeoutMs / 1000)} s`, { cause: error });
      if (error instanceof TransientFailure || error instanceof OaiRequestError) throw error;
      throw new TransientFailure(`a network error (${describeNetworkError(error)})`, { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }

  end(): void {
    this.controller.abort();
  }
}

function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause;
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return `${error.message}: ${typeof code === 'string' ? `${code} ` : ''}${cause.message}`;
  }
  return error.message;
}
