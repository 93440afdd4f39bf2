/**
 * What the versions order needs from a Solr document, for the work index beside a core (workIndexFile.ts):
 * the time it sorts by and its `_version_`, as plain functions of the document.
 *
 * The feed orders versions newest first by `last_indexed`. An aggregator's documents carry none; for them
 * the time is the one Solr encodes in `_version_`: the shard leader's clock in milliseconds, shifted left
 * 20 bits (the low bits count updates within one millisecond), i.e. when Solr last indexed the document.
 * Left to others: work keys (the `keysOf` function the caller gives), storing (workIndexFile.ts).
 */

/** `_version_` as its exact digits (Solr's are positive 64-bit integers), or `undefined` when absent or unusable. */
export function solrVersionOf(document: Readonly<Record<string, unknown>>): bigint | undefined {
  const value = document._version_;
  if (typeof value === 'bigint') return value > 0n ? value : undefined;
  if (typeof value === 'string' && /^\d{1,19}$/.test(value)) return BigInt(value) > 0n ? BigInt(value) : undefined;
  // A parsed JSON number is rounded beyond 2^53; still right to the millisecond, which is all the order needs.
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return BigInt(value);
  return undefined;
}

/** Milliseconds since the epoch Solr's `_version_` encodes. */
export function indexedAtOfVersion(version: bigint): number {
  return Number(version >> 20n);
}

/**
 * The time the versions order sorts a document by, in milliseconds: its `last_indexed` (an ISO date, or
 * the first of a list) when it has a usable one, else the time in its `_version_`; `undefined` when neither.
 */
export function orderTimeOf(document: Readonly<Record<string, unknown>>): number | undefined {
  const raw = Array.isArray(document.last_indexed) ? document.last_indexed[0] : document.last_indexed;
  if (typeof raw === 'string') {
    const time = Date.parse(raw);
    if (Number.isFinite(time)) return time;
  }
  const version = solrVersionOf(document);
  return version === undefined ? undefined : indexedAtOfVersion(version);
}
