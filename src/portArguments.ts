/**
 * The checks of what the ports are handed: one check of a `findVersions` query (src/ports.ts), which every index adapter makes
 * before it asks its engine: a bad query is a bug in the caller, not an index fault, so every adapter
 * answers it with the same InvalidArgumentError (never an IndexUnavailableError, which would read as a 503,
 * nor a RangeError from inside).
 *
 * Left to others: what the query finds (the adapters).
 */
import { InvalidArgumentError } from './errors.js';
import type { VersionsQuery } from './ports.js';
import type { CatalogRecord } from './record/catalogRecord.js';
import { ENGINE_ORDERS, isVersionsOrder, RECORD_FIELD_ORDERS } from './record/recordOrder.js';
import { FACET_FIELDS, isFacetField } from './record/recordFacets.js';

export function checkVersionsQuery(query: unknown, functionName = 'findVersions'): asserts query is VersionsQuery {
  if (typeof query !== 'object' || query === null) {
    throw new InvalidArgumentError(functionName, 'query', 'an object ({ workKeys, order, offset, limit })', query);
  }
  const { workKeys, order, offset, limit } = query as Partial<Record<keyof VersionsQuery, unknown>>;
  if (!Array.isArray(workKeys) || !workKeys.every((key) => typeof key === 'string')) {
    throw new InvalidArgumentError(functionName, 'query.workKeys', 'a list of work keys (strings)', workKeys);
  }
  if (!isVersionsOrder(order)) {
    const quoted = (names: readonly string[]) => names.map((name) => `"${name}"`).join(', ');
    throw new InvalidArgumentError(functionName, 'query.order', `${quoted(ENGINE_ORDERS)} or one of ${quoted(RECORD_FIELD_ORDERS)}`, order);
  }
  if (!Number.isSafeInteger(offset) || (offset as number) < 0) {
    throw new InvalidArgumentError(functionName, 'query.offset', 'a whole number >= 0', offset);
  }
  if (!Number.isSafeInteger(limit) || (limit as number) < 0) {
    throw new InvalidArgumentError(functionName, 'query.limit', 'a whole number >= 0', limit);
  }
  const { filters, facets, versionKeys } = query as { filters?: unknown; facets?: unknown; versionKeys?: unknown };
  if (filters !== undefined && !(Array.isArray(filters) && filters.every((filter: unknown) => typeof filter === 'object' && filter !== null
    && typeof (filter as { field?: unknown }).field === 'string' && isFacetField((filter as { field: string }).field)
    && typeof (filter as { value?: unknown }).value === 'string'))) {
    throw new InvalidArgumentError(functionName, 'query.filters', `a list of { field, value } with field one of ${FACET_FIELDS.join(', ')}`, filters);
  }
  if (facets !== undefined && typeof facets !== 'boolean') {
    throw new InvalidArgumentError(functionName, 'query.facets', 'true or false', facets);
  }
  if (versionKeys !== undefined && typeof versionKeys !== 'boolean') {
    throw new InvalidArgumentError(functionName, 'query.versionKeys', 'true or false', versionKeys);
  }
}

/**
 * A record as `findVersionsOf` takes it: an object with an id and work keys (one getRecord gave out). The
 * keys are not read: an adapter may read them only when asked for.
 */
export function checkRecord(functionName: string, record: unknown): asserts record is CatalogRecord {
  if (typeof record !== 'object' || record === null || typeof (record as { id?: unknown }).id !== 'string' || !('workKeys' in record)) {
    throw new InvalidArgumentError(functionName, 'record', 'a record the index gave out (getRecord)', record);
  }
}

/** A record id as `getRecord` takes it: a string (an empty one names no record, and finds none). */
export function checkRecordId(functionName: string, id: unknown): asserts id is string {
  if (typeof id !== 'string') throw new InvalidArgumentError(functionName, 'id', 'a record id (a string)', id);
}

/** Record ids as `countVersions` (and the writers' lookups by id) take them: a list of strings. */
export function checkRecordIds(functionName: string, ids: unknown): asserts ids is readonly string[] {
  if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string')) {
    throw new InvalidArgumentError(functionName, 'ids', 'a list of record ids (strings)', ids);
  }
}
