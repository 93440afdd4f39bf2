/**
 * The one operation: the versions of a record, one page of them. Looks the record up, then asks the index
 * for every record sharing one of its work keys. A record without keys lists itself alone. This module
 * talks to whichever CatalogIndex it is given and does nothing else.
 */
import type { CatalogRecord } from '../record/catalogRecord.js';
import { MissingRecordIdError, RecordNotFoundError } from '../errors.js';
import { FEED_ROWS, offsetOf, PAGE_ROWS } from './paging.js';
import type { CatalogIndex, VersionsFilter, VersionsOrder, VersionsPage } from '../ports.js';

export type VersionsView = 'rss' | 'html';

export interface VersionsRequest {
  readonly id: string | undefined;
  readonly view: VersionsView;
  readonly page: number;
  /** The page's order (the default `relevance` when absent); the feed keeps its own. */
  readonly pageOrder?: VersionsOrder;
  /** VuFind's `filter[]` (versionsFilters.ts): the page and the feed list only the versions they leave. */
  readonly filters?: readonly VersionsFilter[];
}

export interface VersionsResult {
  readonly record: CatalogRecord;
  readonly versions: VersionsPage;
}

export async function listVersions(index: CatalogIndex, request: VersionsRequest): Promise<VersionsResult> {
  const { id, view, page } = request;
  if (id === undefined || id.trim() === '') throw new MissingRecordIdError();
  const record = await index.getRecord(id);
  if (record === undefined) throw new RecordNotFoundError(id);
  const rows = view === 'rss' ? FEED_ROWS : PAGE_ROWS;
  const offset = offsetOf(page, rows);
  if (record.workKeys.length === 0) {
    return { record, versions: { total: 1, records: offset === 0 ? [record] : [] } };
  }
  const versions = await index.findVersions({
    workKeys: record.workKeys,
    order: view === 'rss' ? 'last-indexed' : request.pageOrder ?? 'relevance',
    offset,
    limit: rows,
    ...(request.filters !== undefined && request.filters.length > 0 ? { filters: request.filters } : {}),
    // The page shows the facets beside the list; the feed has no place for them.
    ...(view === 'html' ? { facets: true } : {}),
  });
  return { record, versions };
}
