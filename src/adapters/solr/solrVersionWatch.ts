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
 */

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
