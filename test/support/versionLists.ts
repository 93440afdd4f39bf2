/**
 * Versions lists, for measuring key profiles (tools/grouping/, test/work-keys/extended/groupingQuality.test.ts).
 * A record's versions are the records sharing any key with it, itself included (not the transitive
 * closure, as the indexes list them).
 *
 * Left to others: making keys (src/work-keys/), reading records (the readers, labelledRecords.ts), the
 * grouping scores against labels (src/work-keys/curation/groupingScores.ts, as `works evaluate` gives them).
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
