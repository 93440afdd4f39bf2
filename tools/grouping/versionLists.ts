/**
 * Versions lists and pairwise grouping quality, for measuring key profiles (tools/grouping/ only; not part
 * of the package). A record's versions are the records sharing any key with it, itself included (not
 * the transitive closure, as the indexes list them). Pairwise scores count unordered pairs of records:
 * a pair is predicted when the two share a key, true when they belong to one labelled work.
 *
 * Left to others: making keys (src/work-keys/), reading records (the readers, labelledRecords.ts).
 */

export interface KeyedRecord {
  readonly id: string;
  readonly title: string;
  readonly keys: readonly string[];
}

export interface VersionsList {
  readonly record: KeyedRecord;
  /** Ids of the records listed, the record included. */
  readonly versions: readonly string[];
  /** The keys that bring in the most other records, with how many each brings. */
  readonly joiningKeys: readonly { key: string; records: number }[];
}

/** Every record's versions list, largest first (ties in input order). */
export function versionsLists(records: readonly KeyedRecord[]): VersionsList[] {
  const byKey = new Map<string, KeyedRecord[]>();
  for (const record of records) {
    for (const key of new Set(record.keys)) {
      const holders = byKey.get(key);
      if (holders === undefined) byKey.set(key, [record]);
      else holders.push(record);
    }
  }
  const lists = records.map((record) => {
    const versions = new Set<string>([record.id]);
    const joiningKeys: { key: string; records: number }[] = [];
    for (const key of new Set(record.keys)) {
      const holders = byKey.get(key) ?? [];
      for (const holder of holders) versions.add(holder.id);
      if (holders.length > 1) joiningKeys.push({ key, records: holders.length - 1 });
    }
    joiningKeys.sort((a, b) => b.records - a.records);
    return { record, versions: [...versions], joiningKeys };
  });
  return lists.sort((a, b) => b.versions.length - a.versions.length);
}

export interface PairwiseScores {
  readonly truePairs: number;
  readonly predictedPairs: number;
  readonly correctPairs: number;
  readonly precision: number;
  readonly recall: number;
  readonly f1: number;
}

/** Pairwise precision, recall and F1 of key sharing against work labels (record id → work). */
export function pairwiseScores(records: readonly KeyedRecord[], workOf: ReadonlyMap<string, string>): PairwiseScores {
  let truePairs = 0;
  let predictedPairs = 0;
  let correctPairs = 0;
  const keySets = records.map((record) => new Set(record.keys));
  for (let i = 0; i < records.length; i++) {
    for (let j = i + 1; j < records.length; j++) {
      const same = workOf.get(records[i]!.id) === workOf.get(records[j]!.id);
      let shared = false;
      for (const key of keySets[j]!) if (keySets[i]!.has(key)) { shared = true; break; }
      if (same) truePairs++;
      if (shared) predictedPairs++;
      if (same && shared) correctPairs++;
    }
  }
  const precision = predictedPairs === 0 ? 1 : correctPairs / predictedPairs;
  const recall = truePairs === 0 ? 1 : correctPairs / truePairs;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { truePairs, predictedPairs, correctPairs, precision, recall, f1 };
}
