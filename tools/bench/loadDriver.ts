/**
 * Driving a server on 127.0.0.1 with autocannon for the benchmark's HTTP cases, and reading the figures:
 * one timed run of a set of paths, its good answers' latencies kept per response so that rounds merge
 * exactly. runBench.ts (the plugin on the embedded index, the ceiling) and solrPhaseDriving.ts (the plugin
 * on a real Solr) drive their cases through it.
 */
import autocannon from 'autocannon';
import { percentile, sortedCopy } from './processStats.js';

export interface DrivenCase {
  readonly connections: number;
  readonly paths: readonly string[];
  readonly headers: Readonly<Record<string, string>>;
  /** Per-path extra headers (same order as `paths`), e.g. a feed reader's If-None-Match. */
  readonly pathHeaders?: ReadonlyArray<Readonly<Record<string, string>>>;
  /** The status a good answer has; default any 2xx. */
  readonly expectedStatus?: number;
  /**
   * Walk the paths in order across rounds, each once (records never asked for before: no kept answer
   * can serve them); otherwise each run starts at a random place and the paths repeat.
   */
  readonly eachPathOnce?: boolean;
}

export interface CaseResult {
  responses: number;
  failures: number;
  seconds: number;
  latenciesMs: number[];
  /** Requests sent so far (eachPathOnce cases continue from here). */
  sent: number;
  /** Bytes of the good responses (headers included): how much the server had to build and keep. */
  bytes: number;
}

export function newCaseResult(): CaseResult {
  return { responses: 0, failures: 0, seconds: 0, latenciesMs: [], sent: 0, bytes: 0 };
}

/** One timed autocannon run; latencies are taken per response so rounds can be merged exactly. */
export function runLoad(port: number, loadCase: DrivenCase, seconds: number, into?: CaseResult): Promise<void> {
  return new Promise((resolve, reject) => {
    // Each run starts at a different place of the shuffled list, so rounds do not repeat one sequence;
    // an eachPathOnce case goes on where its last run stopped.
    let cursor = loadCase.eachPathOnce === true ? into?.sent ?? 0 : Math.floor(Math.random() * loadCase.paths.length);
    const paths = loadCase.paths;
    const instance = autocannon({
      url: `http://127.0.0.1:${port}`,
      connections: loadCase.connections,
      duration: seconds,
      pipelining: 1,
      timeout: 10,
      headers: { ...loadCase.headers },
      requests: [{
        method: 'GET',
        setupRequest: (request) => {
          const at = cursor++ % paths.length;
          if (into !== undefined) into.sent++;
          const extra = loadCase.pathHeaders?.[at];
          return { ...request, path: paths[at] as string, ...(extra ? { headers: { ...request.headers, ...extra } } : {}) };
        },
      }],
    }, (error: unknown, result) => {
      if (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      if (into !== undefined) {
        into.seconds += result.duration;
        into.failures += result.errors + result.timeouts;
      }
      resolve();
    });
    if (into !== undefined) {
      instance.on('response', (_client, status, bytes, responseTime) => {
        if (loadCase.expectedStatus !== undefined ? status === loadCase.expectedStatus : status >= 200 && status < 300) {
          into.responses++;
          into.bytes += bytes;
          into.latenciesMs.push(responseTime);
        } else {
          into.failures++;
        }
      });
    }
  });
}

export interface HttpFigures {
  readonly rps: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly failures: number;
}

export function figuresOf(result: CaseResult): HttpFigures {
  const sorted = sortedCopy(result.latenciesMs);
  return {
    rps: result.seconds > 0 ? result.responses / result.seconds : 0,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    failures: result.failures,
  };
}

/** A figure for the report's tables: thousands separated, `n/a` for a value that is not a number. */
export function fmt(value: number, digits = 0): string {
  if (!Number.isFinite(value)) return 'n/a';
  return value.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}
