/**
 * The order of versions as the index's statements give them, for the pages the read path cuts in
 * JavaScript (versionsReads.ts, largeKeyMembers.ts): ids in SQLite's order of TEXT, and for the feed the
 * newest last_indexed first, equal ones in id order.
 */
import type { VersionsOrder } from '../../ports.js';
import { compareByCodePoints } from '../../record/recordOrder.js';

/** A version as its key rows name it: record id, last_indexed in milliseconds, the record's row. */
export type VersionEntry = readonly [id: string, lastIndexed: number, row: number];

/** SQLite's order of TEXT (BINARY: UTF-8 bytes, i.e. code points), as the record orders compare ids. */
export const compareAsSqlite = compareByCodePoints;

/** What an order reads of a version: any row that starts with its id and last_indexed (a VersionEntry, a record's row). */
type Ordered = readonly [id: string, lastIndexed: number, ...rest: unknown[]];

const newestFirst = ([idA, a]: Ordered, [idB, b]: Ordered): number => b - a || compareAsSqlite(idA, idB);
const byId = ([idA]: Ordered, [idB]: Ordered): number => compareAsSqlite(idA, idB);

/** The comparator of an order, as `ORDER BY last_indexed DESC, record_id` or `ORDER BY record_id` sorts. */
export function versionOrder(order: VersionsOrder): (a: Ordered, b: Ordered) => number {
  return order === 'last-indexed' ? newestFirst : byId;
}
