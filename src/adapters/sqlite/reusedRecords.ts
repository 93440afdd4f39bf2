/**
 * Version records decoded by the embedded index's read path (versionRecords.ts), kept to be given out again
 * by later answers: the records of one large work are asked for record after record (a crawler walking a
 * work, a feed reader per record), and each answer lists mostly the same page of versions, whose rows would
 * otherwise be read, keyed and decoded again every time.
 *
 * Kept by record row while the file is unchanged: the read path hands in SQLite's data_version before each
 * use (another connection's commit changes it) and everything is dropped when it moved, or when this
 * connection writes (forget(), from the index's forgetRecent). At most REUSED_RECORDS records, the least
 * recently used given up first (docs/caching-and-security.md says what that costs in memory).
 *
 * A record given out twice is one object shared by both answers, and a host may keep or change what it was
 * given: so a kept record is frozen, its lists with it, and a host's change cannot reach a later answer
 * (it throws in strict code, as any change of a frozen value). A record made without its work keys (for
 * a query that wants none: the feed's) is kept as such and given only to such queries again. Which pages
 * reuse records, and reading the rows that are not kept, is the read path's.
 */
import type { CatalogRecord } from '../../record/catalogRecord.js';

/**
 * Records kept at most, over all works: the pages of the large works asked for again soonest, within the
 * server's memory budget (what it takes and gives: docs/caching-and-security.md, docs/benchmarks.md).
 */
export const REUSED_RECORDS = 4_000;

export interface ReusedRecords {
  /** Drops every record unless they were kept under this data_version; later ones are kept under it. */
  useVersion(version: number): void;
  /**
   * The record kept for this row and id (the least recently used are given up first); with `withKeys`,
   * only one kept with its work keys.
   */
  get(row: number, id: string, withKeys?: boolean): CatalogRecord | undefined;
  /**
   * Keeps a record just decoded from this row, frozen; answers it. `withKeys` false: it was made without
   * its work keys (for a query that wants none), and is given only to such queries again.
   */
  keep(row: number, record: CatalogRecord, withKeys?: boolean): CatalogRecord;
  /** Drops every record: this connection wrote. */
  forget(): void;
  /** How many records are kept. */
  readonly size: number;
}

/** One frozen empty list for every empty list of a kept record: most lists of a record are empty. */
const NO_VALUES: readonly string[] = Object.freeze([]);

/**
 * A record frozen with its lists (the properties of a record are strings or lists of strings); an empty
 * list is replaced by one shared frozen empty list, which costs less than freezing each.
 */
export function frozenRecord(record: CatalogRecord): CatalogRecord {
  const properties = record as unknown as Record<string, unknown>;
  for (const name in properties) {
    const value = properties[name];
    if (typeof value !== 'object' || value === null) continue;
    if ((value as readonly unknown[]).length === 0) properties[name] = NO_VALUES;
    else Object.freeze(value);
  }
  return Object.freeze(record);
}

export function reusedRecords(limit = REUSED_RECORDS): ReusedRecords {
  // Map order is use order: a record found is moved to the end, the first ones are given up.
  const kept = new Map<number, CatalogRecord>();
  // The rows of the records kept without their work keys.
  const withoutKeys = new Set<number>();
  let keptVersion: number | undefined;
  return {
    useVersion(version) {
      if (version !== keptVersion) {
        kept.clear();
        withoutKeys.clear();
        keptVersion = version;
      }
    },
    get(row, id, withKeys = true) {
      const record = kept.get(row);
      if (record === undefined || record.id !== id || (withKeys && withoutKeys.has(row))) return undefined;
      kept.delete(row);
      kept.set(row, record);
      return record;
    },
    keep(row, record, withKeys = true) {
      const frozen = frozenRecord(record);
      kept.delete(row);
      kept.set(row, frozen);
      if (withKeys) withoutKeys.delete(row);
      else withoutKeys.add(row);
      if (kept.size > limit) for (const oldest of kept.keys()) {
        kept.delete(oldest);
        withoutKeys.delete(oldest);
        if (kept.size <= limit) break;
      }
      return frozen;
    },
    forget() {
      kept.clear();
      withoutKeys.clear();
      keptVersion = undefined;
    },
    get size() {
      return kept.size;
    },
  };
}
