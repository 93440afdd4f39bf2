/**
 * Which read the embedded index gives a work (versionsReads.ts): by its keys' totals and the page asked,
 * from its key rows (a small work), whole in one statement, or as a large work (largeWorkReads.ts); and
 * from what size its records are kept for later answers. The sizes are set where reading costs changed.
 */
import type { RecordVersionsQuery } from '../../ports.js';
import { isRecordFieldOrder } from '../../record/recordOrder.js';
import { LARGE_KEY_RECORDS } from './largeKeyMembers.js';

/**
 * Key rows read in one go before a work counts as large. A statement that groups, sorts and counts in
 * SQLite costs more in its temporary B-trees than reading the rows and cutting the page here, up to works
 * of a few hundred key rows (docs/benchmarks.md, "Figures behind choices in the code"). A larger work goes to largeWork(), at once when one of its keys is remembered as large.
 */
export const SMALL_WORK_KEY_ROWS = 256;
/**
 * A work whose largest key total is at most this many times the end of the page (offset + limit), and whose
 * keys' totals add up to at most WHOLE_WORK_KEY_ROWS, is read whole in one statement (pageOfWorkRows); a
 * larger one is cut from its key rows first. The largest total is the fewest records the work can have,
 * the sum the most: a work's keys most often name the same records, so the sum alone would send works
 * that fit in a page to their key rows (docs/benchmarks.md, "Figures behind choices in the code").
 */
export const WHOLE_WORK_PAGE_SHARE = 2;
/**
 * The most key rows (the sum of its keys' totals) of a work read whole. Beyond SMALL_WORK_KEY_ROWS the key
 * rows are not read in one go, and a work without a large key then goes to pageByStatement, which costs
 * more than reading its records whole while they are a few hundred (docs/benchmarks.md, "Figures behind choices in the code").
 */
export const WHOLE_WORK_KEY_ROWS = 4 * SMALL_WORK_KEY_ROWS;
/**
 * Pages of works of more than this many records give out records kept from earlier answers
 * (reusedRecords.ts). Smaller works are seldom asked twice before their records would be given up, and
 * keeping theirs costs the freezing and gives up the large works' records sooner (docs/benchmarks.md,
 * "Records of large works reused").
 */
export const REUSED_FROM_WORK_RECORDS = 100;

/** Whether a query asks for facets in the feed's or the page's default order, without filters: a large work's page is then cut from its remembered list. */
export function listsFacetsOnly(query: RecordVersionsQuery): boolean {
  return query.facets === true && (query.filters?.length ?? 0) === 0 && !isRecordFieldOrder(query.order);
}

/**
 * Whether keys' totals say a work goes to largeWork at once: a key of more than SMALL_WORK_KEY_ROWS, or a
 * large key (more than LARGE_KEY_RECORDS) among keys whose totals add up to more key rows than
 * smallWorkEntries reads, which would read SMALL_WORK_KEY_ROWS + 1 of them only to give up.
 */
export function namesLargeWork(totals: ReadonlyArray<number | null>): boolean {
  let large = false;
  for (const total of totals) {
    if (total !== null && total > SMALL_WORK_KEY_ROWS) return true;
    if (total !== null && total > LARGE_KEY_RECORDS) large = true;
  }
  return large && sumOfTotals(totals) > SMALL_WORK_KEY_ROWS;
}

/** Whether keys' totals say a work is read whole for a page ending at `pageEnd` (WHOLE_WORK_PAGE_SHARE). */
export function readsWhole(totals: ReadonlyArray<number | null>, pageEnd: number): boolean {
  let largest = 0;
  for (const total of totals) if (total !== null && total > largest) largest = total;
  return largest <= WHOLE_WORK_PAGE_SHARE * pageEnd && sumOfTotals(totals) <= WHOLE_WORK_KEY_ROWS;
}

/** The sum of keys' totals, Infinity when one is not known. */
function sumOfTotals(totals: ReadonlyArray<number | null>): number {
  let sum = 0;
  for (const total of totals) sum += total ?? Infinity;
  return sum;
}
