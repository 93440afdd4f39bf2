/**
 * The Solr adapter's content version (CatalogIndex.contentVersion), learnt in the background: asking Solr
 * on every request would add a round trip to each answer, the very cost kept answers are there to save.
 *
 * A watch runs a probe (solrIndex.ts: one /select request summing up the index) at most once per
 * interval, and only while someone asks: current() starts it, and a tick that finds nobody asked since
 * the previous probe stops it, so an unused core is not polled and a host or test process can exit
 * (the timer is unref'd as well). stop() ends it for good.
 *
 * What current() returns:
 * - a value only once two successive probes agreed on it. On a SolrCloud collection each query goes to
 *   one replica per shard, and replicas open new searchers at their own moments; a value seen once may
 *   come from a replica ahead of the others, and an answer kept under it could come from one behind and
 *   stay kept. Agreement of two probes one interval apart narrows that window without closing it (two
 *   probes may both meet the replica ahead). On a standalone core it only delays keeping by one interval.
 * - `undefined` when no agreed value is fresh: before the probes agree, after a probe saw another value
 *   (the content is changing), after one that answered but could not vouch (partial results), and when
 *   the last agreeing probe started more than `maxStalenessMs` ago (Solr cannot be asked, or nobody has
 *   asked for a while). The plugin then builds that answer afresh and keeps nothing, so a Solr that cannot
 *   be asked turns into fresh requests (and, if it is really down, 503 pages), never into old answers
 *   served for ever.
 * A failed probe changes nothing but the clock: the agreed value ages out after `maxStalenessMs`.
 *
 * The probe itself (solrIndexVersionProbe below) reads the number of documents and the highest
 * `_version_` without sorting on `_version_`: see there.
 */
import { IndexUnavailableError } from '../../errors.js';
import type { SolrResultList } from './solrAnswers.js';
import { isObject } from './solrFaults.js';

export interface VersionWatchSettings {
  /** Least time between the starts of two probes, in ms (> 0). */
  readonly intervalMs: number;
  /** How long after the start of the probe that last confirmed it a value may still be returned, in ms. */
  readonly maxStalenessMs: number;
  /** Reads the engine's version: a string to compare, `undefined` for "answered but cannot vouch"; throws on failure. */
  readonly probe: () => Promise<string | undefined>;
  /** Told of the first failure of a streak (later ones of the same streak are not reported). */
  readonly onFailure?: (error: unknown) => void;
  /** Told when a probe succeeds after a streak of `failures` failed ones. */
  readonly onRecovery?: (failures: number) => void;
  /** Monotonic clock in ms; performance.now by default. */
  readonly now?: () => number;
}

export class VersionWatch {
  private readonly settings: VersionWatchSettings;
  private readonly now: () => number;
  private confirmed: string | undefined;
  private confirmedAt = Number.NEGATIVE_INFINITY;
  /** The value of the last successful probe (`undefined` also for one that could not vouch). */
  private lastSeen: string | undefined;
  private asked = false;
  private timer: NodeJS.Timeout | undefined;
  private probing = false;
  private lastProbeStart = Number.NEGATIVE_INFINITY;
  private failures = 0;
  private stopped = false;

  constructor(settings: VersionWatchSettings) {
    this.settings = settings;
    this.now = settings.now ?? (() => performance.now());
  }

  /** The agreed version if it is fresh enough, else `undefined`; starts the probes when they are idle. */
  current(): string | undefined {
    if (this.stopped) return undefined;
    const now = this.now();
    this.asked = true;
    if (this.timer === undefined && !this.probing) this.schedule(this.lastProbeStart + this.settings.intervalMs - now);
    return this.confirmed !== undefined && now - this.confirmedAt <= this.settings.maxStalenessMs ? this.confirmed : undefined;
  }

  /** No more probes; current() returns `undefined` from now on. */
  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.confirmed = undefined;
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.tick();
    }, Math.max(0, delayMs));
    // A host that has nothing else to do must be able to exit while the adapter is still open.
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    // Nobody asked since the last probe started: stay quiet until current() is called again.
    if (this.stopped || !this.asked) return;
    this.asked = false;
    this.probing = true;
    const started = this.now();
    this.lastProbeStart = started;
    let seen: { value: string | undefined } | undefined;
    try {
      seen = { value: await this.settings.probe() };
    } catch (error) {
      if (this.failures++ === 0 && !this.stopped) this.settings.onFailure?.(error);
    }
    this.probing = false;
    if (this.stopped) return;
    if (seen !== undefined) {
      if (this.failures > 0) this.settings.onRecovery?.(this.failures);
      this.failures = 0;
      if (seen.value !== undefined && seen.value === this.lastSeen) {
        this.confirmed = seen.value;
        this.confirmedAt = started;
      } else {
        // Another value (or none to trust): the content is changing; keep nothing until probes agree again.
        this.confirmed = undefined;
        this.lastSeen = seen.value;
      }
    }
    this.schedule(started + this.settings.intervalMs - this.now());
  }
}

/** Solr's own field, the same name in every schema that has an update log (SolrCloud requires one). */
export const SOLR_VERSION_FIELD = '_version_';
/** At most this many documents' `_version_` are fetched at once (a few KB of answer). */
export const VERSION_FETCH_ROWS = 100;
/** Thresholds counted in one narrowing request (each a facet.query). */
const NARROWING_STEPS = 64;
/** Narrowing requests in one read at most (a 64-bit range needs about 11; more only while documents change). */
const MAX_NARROWING_ROUNDS = 20;
/** The highest value of a Solr long: a threshold above it would be a query Solr cannot parse. */
const LONG_MAX = (1n << 63n) - 1n;

/** Sends one /select with these parameters (solrIndex.ts select: deadline, faults, result list). */
export type SolrSelect = (params: ReadonlyArray<readonly [string, string]>, what: string) => Promise<SolrResultList>;

/**
 * The Solr adapter's probe: `<numFound>/<highest _version_ seen>`, or `undefined` when Solr answered with
 * partial results (a shard missing) and cannot vouch for the whole index.
 *
 * It never sorts on `_version_` or computes over its values (stats, functions, JSON facets). VuFind's `biblio` schemas (7.1.1 to 11)
 * declare `_version_` a LongPointField without docValues: sorting on it needs Solr to uninvert the field
 * into its heap (and fails where it cannot), and stats or JSON facets on it need docValues; a sort on
 * `_docid_` fails on a collection. What works on any schema with an update log, on a core and on a
 * collection alike, is counting range queries (points are indexed) and reading the stored value:
 *
 *   1. `q=*:*`, `rows=0`, `facet=true`, `facet.query={!key=newer}_version_:{W TO *]`: the number of
 *      documents, and how many carry a `_version_` above W, the highest seen so far (the first read has
 *      no W and counts every document as newer). Both are summed over every shard. A steady core costs
 *      this one request per read.
 *   2. while more than 100 are newer: one request of 64 facet.queries `_version_:{T TO *]` at thresholds
 *      T above W (first powers of two, then even steps between the last two thresholds that still had
 *      documents above them), which narrows where the highest value lies, and W rises to the highest
 *      threshold with documents above it. At most about a dozen such requests find it in a 64-bit range;
 *      a core that changed little since the last read needs none.
 *   3. `q=_version_:{W TO *]`, `fl=_version_`, `rows=100`: the few newer values themselves; W becomes the
 *      highest.
 *
 * Every added or replaced document gets a `_version_` above all before it (the shard leader's clock),
 * so a change raises W or, for a deletion, lowers the count. Values are 64-bit: they are read as digits
 * from the answer's text, since JSON.parse rounds them, and compared as BigInt.
 */
export function solrIndexVersionProbe(select: SolrSelect, display: string): () => Promise<string | undefined> {
  let highest: bigint | undefined;
  const above = (value: bigint) => `${SOLR_VERSION_FIELD}:{${String(value)} TO *]`;
  return async () => {
    const counted = await select(highest === undefined
      ? [['q', '*:*'], ['rows', '0']]
      : [['q', '*:*'], ['rows', '0'], ['facet', 'true'], ['facet.query', `{!key=newer}${above(highest)}`]], 'indexVersion');
    if (isPartial(counted)) return undefined;
    let newer = highest === undefined ? counted.numFound : facetCount(counted, 'newer', display);
    // The lowest value any document's _version_ can have is 1 (Solr's are positive), so 0 bounds the first read.
    let low = highest ?? 0n;
    let high: bigint | undefined;
    for (let round = 0; newer > VERSION_FETCH_ROWS && round < MAX_NARROWING_ROUNDS; round++) {
      const thresholds = high === undefined
        ? Array.from({ length: NARROWING_STEPS }, (_, k) => low + (1n << BigInt(k)) - 1n).filter((value) => value < LONG_MAX)
        : evenSteps(low, high);
      const narrowed = await select([
        ['q', '*:*'], ['rows', '0'], ['facet', 'true'],
        ...thresholds.map((value, k) => ['facet.query', `{!key=t${k}}${above(value)}`] as const),
      ], 'indexVersion narrowing');
      if (isPartial(narrowed)) return undefined;
      const counts = thresholds.map((_, k) => facetCount(narrowed, `t${k}`, display));
      const last = counts.findLastIndex((count) => count > 0);
      if (last < 0) break; // all gone since the count: fetch what is above `low`, if anything
      // The highest value lies above thresholds[last] and at most at the next threshold (or the old bound).
      high = thresholds[last + 1] ?? high ?? LONG_MAX;
      low = thresholds[last]!;
      newer = counts[last]!;
    }
    if (newer > 0) {
      const fetched = await select([
        ['q', highest === undefined && low === 0n ? '*:*' : above(low)],
        ['fl', SOLR_VERSION_FIELD],
        ['rows', String(VERSION_FETCH_ROWS)],
      ], 'indexVersion newer');
      if (isPartial(fetched)) return undefined;
      const values = versionsOf(fetched);
      if (values.length === 0 && fetched.docs.length > 0) {
        throw new IndexUnavailableError(`Solr ${display}: indexVersion: the documents carry no ${SOLR_VERSION_FIELD}; the core needs an update log and that field (stored or with docValues) for answers to be kept`);
      }
      if (low > 0n && (highest === undefined || low > highest)) highest = low;
      for (const value of values) if (highest === undefined || value > highest) highest = value;
    }
    return `${counted.numFound}/${highest === undefined ? '' : String(highest)}`;
  };
}

/** NARROWING_STEPS thresholds from `low` up to below `high`, evenly spaced (at least 1 apart). */
function evenSteps(low: bigint, high: bigint): bigint[] {
  const step = (high - low) / BigInt(NARROWING_STEPS) || 1n;
  const steps: bigint[] = [];
  for (let value = low; value < high && steps.length < NARROWING_STEPS; value += step) steps.push(value);
  return steps;
}

function isPartial(list: SolrResultList): boolean {
  const header = list.data.responseHeader;
  return isObject(header) && header.partialResults === true;
}

function facetCount(list: SolrResultList, key: string, display: string): number {
  const counts = list.data.facet_counts;
  const queries = isObject(counts) ? counts.facet_queries : undefined;
  const value = isObject(queries) ? queries[key] : undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new IndexUnavailableError(`Solr ${display}: indexVersion: Solr answer has no usable facet_queries count "${key}" (${JSON.stringify(value)})`);
  }
  return value;
}

/**
 * The `_version_` values of the returned documents, exactly: the digits in the answer's text after
 * `"docs"` (the echoed parameters come before it) when there is one per document, each checked against
 * the parsed number; else the parsed numbers lowered by one unit of their precision (256 at this size),
 * so that W never passes a value it did not see exactly: such a document is fetched again by the next
 * read rather than a later one within the same 256 missed.
 */
function versionsOf(list: SolrResultList): bigint[] {
  const parsed = list.docs.map((doc) => doc[SOLR_VERSION_FIELD]).filter((v): v is number => typeof v === 'number' && Number.isInteger(v));
  const docsAt = list.body.indexOf('"docs"');
  const digits = docsAt < 0 ? [] : [...list.body.slice(docsAt).matchAll(/"_version_"\s*:\s*(-?\d+)/g)].map((m) => m[1] ?? '');
  if (digits.length === parsed.length && digits.every((d, i) => Number(d) === parsed[i])) return digits.map((d) => BigInt(d));
  return parsed.map((v) => BigInt(v) - 256n);
}
