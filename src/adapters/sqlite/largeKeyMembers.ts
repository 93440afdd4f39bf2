/**
 * The records of large work keys, remembered in memory by the embedded index's read path (versionsReads.ts).
 *
 * A work of thousands of records has two or three keys that name all of them (its uniform title, its main
 * author and title) and, for each record, a few keys that name only it (its other authors): in the
 * benchmark catalog the records of one large work have over a thousand different key sets. Grouping and
 * sorting the key rows of such a set took milliseconds, once per record asked for. So a key of more than
 * LARGE_KEY_RECORDS records has its records kept here in both orders after the first time it is read, keys
 * with the same records share one list, and a page is cut from that list with the few records the small
 * keys add (most often none: they name records already in it).
 *
 * Kept while the file is unchanged: every use checks SQLite's data_version (another connection's commit
 * changes it), and a write of the same connection forgets everything (forget()). At most REMEMBERED_IDS
 * record ids in all (~80 bytes each), the least recently used key given up first.
 */
import type Database from 'better-sqlite3';
import type { RecordVersionsQuery } from '../../ports.js';
import { compareAsSqlite, versionOrder, type VersionEntry } from './versionOrder.js';

/** Keys naming more records than this are remembered. */
export const LARGE_KEY_RECORDS = 100;
const REMEMBERED_IDS = 150_000;

export interface KeyMembers {
  /** data_version when read. */
  readonly version: number;
  /** Record ids in SQLite's order of TEXT (the page's order). */
  readonly byId: readonly string[];
  /** The row of each of byId. */
  readonly byIdRows: Float64Array;
  /** Record ids newest last_indexed first, equal ones in id order (the feed's order). */
  readonly newestFirst: readonly string[];
  /** The last_indexed of each of newestFirst. */
  readonly newestLastIndexed: Float64Array;
  /** The row of each of newestFirst. */
  readonly newestRows: Float64Array;
}

/** Whether a remembered list holds a record: a binary search of its id order. */
export function holds(members: KeyMembers, id: string): boolean {
  let low = 0;
  let high = members.byId.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const order = compareAsSqlite(members.byId[middle] as string, id);
    if (order === 0) return true;
    if (order < 0) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

export interface LargeKeys {
  /**
   * The remembered records of a key, read now if the key is large and not remembered under this
   * version; `undefined` for a key of LARGE_KEY_RECORDS records or fewer (or whose ids do not survive the
   * trip into JavaScript: lone surrogates).
   */
  membersOf(keyId: number, version: number): KeyMembers | undefined;
  /** Whether a key's records are remembered (of whatever version): no SQL, for choosing the path. */
  remembers(keyId: number): boolean;
  forget(): void;
}

export function largeKeys(db: Database.Database): LargeKeys {
  const countOf = db.prepare<[number, number], number>('SELECT COUNT(*) FROM (SELECT 1 FROM records_by_key WHERE key_id = ? LIMIT ?)').pluck();
  const rowsOf = db.prepare<[number], VersionEntry>('SELECT record_id, last_indexed, record_row FROM records_by_key WHERE key_id = ? ORDER BY record_id').raw();
  const remembered = new Map<number, KeyMembers>();
  let rememberedIds = 0;

  const drop = (keyId: number, members: KeyMembers) => {
    remembered.delete(keyId);
    rememberedIds -= members.byId.length;
  };

  function read(keyId: number, version: number): KeyMembers | undefined {
    const rows = rowsOf.all(keyId);
    if (rows.some(([id]) => id.includes('\uFFFD'))) return undefined;
    const byId = rows.map(([id]) => id);
    // Keys naming the same records share one list: found by comparing with the lists of the same length.
    for (const other of remembered.values()) {
      if (other.version === version && other.byId.length === byId.length && other.byId.every((id, i) => id === byId[i])) return other;
    }
    const newest = rows.slice().sort(versionOrder('last-indexed'));
    return {
      version, byId, byIdRows: Float64Array.from(rows, ([, , row]) => row),
      newestFirst: newest.map(([id]) => id), newestLastIndexed: Float64Array.from(newest, ([, lastIndexed]) => lastIndexed), newestRows: Float64Array.from(newest, ([, , row]) => row),
    };
  }

  return {
    membersOf(keyId, version) {
      let members = remembered.get(keyId);
      if (members !== undefined) {
        drop(keyId, members);
        if (members.version !== version) members = undefined;
      }
      if (members === undefined) {
        if (countOf.get(keyId, LARGE_KEY_RECORDS + 1)! <= LARGE_KEY_RECORDS) return undefined;
        members = read(keyId, version);
        if (members === undefined) return undefined;
      }
      // Most recently used last: the first entries are the ones given up when the memory is full.
      remembered.set(keyId, members);
      rememberedIds += members.byId.length;
      for (const [oldest, work] of remembered) {
        if (rememberedIds <= REMEMBERED_IDS) break;
        drop(oldest, work);
      }
      return members;
    },
    remembers: (keyId) => remembered.has(keyId),
    forget() {
      remembered.clear();
      rememberedIds = 0;
    },
  };
}

/**
 * A page of the union of one remembered list and records not in it (`extras`, by id): the page's ids and
 * rows and the total, in the order of the query, as the page statement would give them.
 */
export function pageOfUnion(members: KeyMembers, extras: ReadonlyMap<string, VersionEntry>, query: RecordVersionsQuery): { total: number; ids: string[]; rows: number[] } {
  const total = members.byId.length + extras.size;
  const offset = Math.max(0, query.offset);
  if (query.limit <= 0) return { total, ids: [], rows: [] };
  const newest = query.order === 'last-indexed';
  const list = newest ? members.newestFirst : members.byId;
  const listRows = newest ? members.newestRows : members.byIdRows;
  if (extras.size === 0) {
    const end = offset + query.limit;
    return { total, ids: list.slice(offset, end), rows: Array.from(listRows.subarray(Math.min(offset, listRows.length), Math.min(end, listRows.length))) };
  }
  // Merge the few extras into the list, up to the end of the page. The id order needs no last_indexed.
  const before = versionOrder(query.order);
  const entryAt = (i: number): VersionEntry => [list[i] as string, newest ? members.newestLastIndexed[i] as number : 0, listRows[i] as number];
  const added = [...extras.values()].sort(before);
  const ids: string[] = [];
  const rows: number[] = [];
  let i = 0;
  let j = 0;
  while (ids.length < offset + query.limit && (i < list.length || j < added.length)) {
    const entry = j >= added.length || (i < list.length && before(entryAt(i), added[j] as VersionEntry) < 0) ? entryAt(i++) : added[j++] as VersionEntry;
    ids.push(entry[0]);
    rows.push(entry[2]);
  }
  return { total, ids: ids.slice(offset), rows: rows.slice(offset) };
}
