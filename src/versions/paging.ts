/**
 * Paging arithmetic shared by the feed and the page: which page a request asks for, which rows that is,
 * and which page numbers the HTML navigation shows.
 */

/** Rows per feed page (docs/feed.md). */
export const FEED_ROWS = 50;
/** Rows per HTML page (docs/page.md). */
export const PAGE_ROWS = 20;
/**
 * The highest page number honoured. Larger requests are served as this page (past the end of any real
 * catalog, so: an empty list with correct totals) and keep offsets well inside Solr's 32-bit `start`.
 */
export const MAX_PAGE = 1_000_000;

/** The page a `page` query value asks for: a whole number ≥ 1; anything else (absent, below 1, not a number) is 1. */
export function pageNumberFrom(value: string | undefined): number {
  if (value === undefined || !/^\s*\+?\d{1,16}\s*$/.test(value)) return 1;
  const page = Number.parseInt(value, 10);
  if (page < 1) return 1;
  return Math.min(page, MAX_PAGE);
}

export function offsetOf(page: number, rows: number): number {
  return (page - 1) * rows;
}

/** The last page number: max(1, ceil(total / rows)). */
export function lastPageOf(total: number, rows: number): number {
  return Math.max(1, Math.ceil(total / rows));
}

/**
 * The page numbers to show in the navigation: the first, the last, and a window around the current one.
 * A work with thousands of versions gets a short list, not hundreds of links.
 */
export function visiblePageNumbers(current: number, last: number, radius = 2): number[] {
  const shown = new Set<number>([1, last]);
  for (let page = current - radius; page <= current + radius; page += 1) {
    if (page >= 1 && page <= last) shown.add(page);
  }
  return [...shown].sort((a, b) => a - b);
}
