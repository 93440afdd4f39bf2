/**
 * The one operation: the versions of a record, one page of them. Looks the record up, then asks the index
 * for every record sharing one of its work keys (or asks both at once, when the index offers
 * recordWithVersions). A record without keys lists itself alone. This module
 * talks to whichever CatalogIndex it is given and does nothing else.
 */
import { MissingRecordIdError, RecordNotFoundError } from '../errors.js';
import { FEED_ROWS, offsetOf, PAGE_ROWS } from './paging.js';
import { versionsOfKeylessRecord, type CatalogIndex, type RecordVersionsQuery, type RecordWithVersions, type VersionsFilter, type VersionsOrder } from '../ports.js';

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

/** The record asked for and one page of its versions (the port's RecordWithVersions). */
export type VersionsResult = RecordWithVersions;

export async function listVersions(index: CatalogIndex, request: VersionsRequest): Promise<VersionsResult> {
  const { id, view } = request;
  if (id === undefined || id.trim() === '') throw new MissingRecordIdError();
  const query = versionsQueryOf(request);
  if (index.recordWithVersions !== undefined) {
    const found = await index.recordWithVersions(id, query);
    if (found === undefined) throw new RecordNotFoundError(id);
    return found;
  }
  const record = await index.getRecord(id);
  if (record === undefined) throw new RecordNotFoundError(id);
  // The common request (the view's default order, no filters) goes the index's way from the record to its
  // page when it has one; sorts and filters are asked by keys.
  if (index.findVersionsOf !== undefined && query.order === defaultOrderOf(view) && query.filters === undefined) {
    return { record, versions: await index.findVersionsOf(record, query) };
  }
  if (record.workKeys.length === 0) {
    return { record, versions: versionsOfKeylessRecord(record, query.offset) };
  }
  return { record, versions: await index.findVersions({ workKeys: record.workKeys, ...query }) };
}

/**
 * What listVersions asks the index for a request: the view's page of versions in its order, the filters
 * when there are any, and what the view shows beside them (the benchmark's tools ask the same).
 */
export function versionsQueryOf(request: Pick<VersionsRequest, 'view' | 'page' | 'pageOrder' | 'filters'>): RecordVersionsQuery {
  const { view } = request;
  const rows = view === 'rss' ? FEED_ROWS : PAGE_ROWS;
  const filtered = request.filters !== undefined && request.filters.length > 0;
  return {
    order: view === 'rss' ? defaultOrderOf(view) : request.pageOrder ?? defaultOrderOf(view),
    offset: offsetOf(request.page, rows),
    limit: rows,
    ...(filtered ? { filters: request.filters } : {}),
    // The page shows the facets beside the list, and why each version is one (its keys); the feed has no
    // place for either.
    ...(view === 'html' ? { facets: true } : { versionKeys: false }),
  };
}

function defaultOrderOf(view: VersionsView): VersionsOrder {
  return view === 'rss' ? 'last-indexed' : 'relevance';
}
