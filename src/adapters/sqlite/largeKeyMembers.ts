/**
 * The records of large work keys, remembered in memory by the embedded index's read path (versionsReads.ts).
 *
 * A work of thousands of records has two or three keys that name all of them (its uniform title, its main
 * author and title) and, for each record, a few keys that name only it (its other authors): in the
 * benchmark catalog the records of one large work have many different key sets. Grouping and sorting the
 * key rows of such a set cost more than the rest of the answer, once per record asked for. So a key of more than
 * LARGE_KEY_RECORDS records has its records kept here in both orders after the first time it is read, keys
 * with the same records share one list, and a page is cut from that list with the few records the small
 * keys add (most often none: they name records already in it).
 *
 * A list is held in a few values rather than one string object per record: its ids one after another in
 * one string, and rows, last_indexed and the feed's order in typed arrays; a page's ids are cut from the
 * string when the page is cut (about 24 bytes per record and the ids' characters).
 *
 * Kept while the file is unchanged: every use checks SQLite's data_version (another connection's commit
 * changes it), and a write of the same connection forgets everything (forget()). At most REMEMBERED_BYTES
 * of lists in all, a list shared by several keys counted once, the least recently used key given up first.
 */
import type Database from 'better-sqlite3';
import type { RecordVersionsQuery } from '../../ports.js';
import { compareAsSqlite, versionOrder, type VersionEntry } from './versionOrder.js';

/** Keys naming more records than this are remembered. */
export const LARGE_KEY_RECORDS = 100;
/**
 * The lists remembered at most, in bytes as listBytes() counts them: enough for every large key of the
 * benchmark's catalog, with room to spare (docs/benchmarks.md, "Figures behind choices in the code").
 */
export const REMEMBERED_BYTES = 8 * 1024 * 1024;

/** A key's records as read (readList or readRows), in id order, before their feed order is made: KeyMembers' first fields, and each record's last_indexed in id order. */
type ReadKey = Pick<KeyMembers, 'size' | 'idText' | 'idEnds' | 'byIdRows'> & { readonly lastIndexed: Float64Array };

export interface KeyMembers {
  /** data_version when read. */
  readonly version: number;
  /** How many records. */
  readonly size: number;
  /** The records' ids one after another in SQLite's order of TEXT (the page's order); idAt() cuts one out. */
  readonly idText: string;
  /** Where each id of idText ends. */
  readonly idEnds: Int32Array;
  /** The row of each record, in id order. */
  readonly byIdRows: Float64Array;
  /** The feed's order (newest last_indexed first, equal ones in id order), as positions in the id order. */
  readonly newestOrder: Int32Array;
  /** The last_indexed of each record in the feed's order. */
  readonly newestLastIndexed: Float64Array;
}

/** The id of the record at this position of the id order. */
export function idAt(members: KeyMembers, position: number): string {
  return members.idText.slice(position === 0 ? 0 : members.idEnds[position - 1], members.idEnds[position]);
}

/** Whether a remembered list holds a record: a binary search of its id order. */
export function holds(members: KeyMembers, id: string): boolean {
  let low = 0;
  let high = members.size - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const order = compareAsSqlite(idAt(members, middle), id);
    if (order === 0) return true;
    if (order < 0) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

/** What a list takes in memory, about: its ids' characters (two bytes each beyond Latin-1), 24 bytes a record, and the objects. */
export function listBytes(members: KeyMembers): number {
  const bytesPerCharacter = /[\u0100-\uffff]/.test(members.idText) ? 2 : 1;
  return members.idText.length * bytesPerCharacter + 24 * members.size + 400;
}

export interface LargeKeys {
  /**
   * The remembered records of a key, read now if the key is large and not remembered under this
   * version; `undefined` for a key of LARGE_KEY_RECORDS records or fewer (or whose ids do not survive the
   * trip into JavaScript: lone surrogates). `likelyLarge`: the caller knows the key names more than
   * LARGE_KEY_RECORDS records or did (its stored total, never fewer than the records holding it), so its
   * list is read without counting its records first, and given up if they are fewer after all.
   */
  membersOf(keyId: number, version: number, likelyLarge?: boolean): KeyMembers | undefined;
  /** Whether a key's records are remembered (of whatever version): no SQL, for choosing the path. */
  remembers(keyId: number): boolean;
  forget(): void;
}

export function largeKeys(db: Database.Database, limitBytes = REMEMBERED_BYTES): LargeKeys {
  const countOf = db.prepare<[number, number], number>('SELECT COUNT(*) FROM (SELECT 1 FROM records_by_key WHERE key_id = ? LIMIT ?)').pluck();
  const rowsOf = db.prepare<[number], VersionEntry>('SELECT record_id, last_indexed, record_row FROM records_by_key WHERE key_id = ? ORDER BY record_id').raw();
  // Use order: the first keys are the ones given up when the memory is full.
  const remembered = new Map<number, KeyMembers>();
  // Each list remembered, with how many keys hold it: a list is counted (and given up) once.
  const holders = new Map<KeyMembers, number>();
  let rememberedBytes = 0;

  const hold = (keyId: number, members: KeyMembers) => {
    remembered.set(keyId, members);
    const count = holders.get(members) ?? 0;
    holders.set(members, count + 1);
    if (count === 0) rememberedBytes += listBytes(members);
  };
  const drop = (keyId: number, members: KeyMembers) => {
    remembered.delete(keyId);
    const count = holders.get(members)! - 1;
    if (count > 0) holders.set(members, count);
    else {
      holders.delete(members);
      rememberedBytes -= listBytes(members);
    }
  };

  // A key's records as one row of lists (their ids one after another, the ids' lengths, last_indexed and
  // rows as decimal lists), in the order of the key rows' primary key: one row handed to JavaScript rather
  // than one a record, which costs more than the rows' bytes (docs/benchmarks.md, "Figures behind choices in the code").
  const listOf = db.prepare<[number], readonly [size: number, idText: string | null, idLengths: string | null, lastIndexed: string | null, rows: string | null]>(
    `SELECT COUNT(*), group_concat(record_id, ''), group_concat(length(record_id)), group_concat(last_indexed), group_concat(record_row)
       FROM (SELECT record_id, last_indexed, record_row FROM records_by_key WHERE key_id = ? ORDER BY record_id)`).raw();

  /**
   * A key's records from its one row of lists; undefined when the lists cannot be read back as they are:
   * an id beyond the Basic Multilingual Plane (SQLite counts it one character, JavaScript two) or a number
   * not written as plain digits. Those keys are read row by row (readRows).
   */
  function readList(keyId: number): ReadKey | undefined {
    const [size, idText, idLengths, lastIndexedList, rowList] = listOf.get(keyId)!;
    if (size === 0 || idText === null || idLengths === null || lastIndexedList === null || rowList === null) return undefined;
    const idEnds = new Int32Array(size);
    const byIdRows = new Float64Array(size);
    const lastIndexed = new Float64Array(size);
    if (!integersOfList(idLengths, idEnds) || !integersOfList(lastIndexedList, lastIndexed) || !integersOfList(rowList, byIdRows)) return undefined;
    for (let i = 1; i < size; i++) idEnds[i] = (idEnds[i] as number) + (idEnds[i - 1] as number);
    if (idEnds[size - 1] !== idText.length) return undefined;
    return { size, idText, idEnds, byIdRows, lastIndexed };
  }

  /** A key's records read row by row, for the keys readList leaves. */
  function readRows(keyId: number): ReadKey {
    const rows = rowsOf.all(keyId);
    const size = rows.length;
    const ids: string[] = new Array<string>(size);
    const idEnds = new Int32Array(size);
    const byIdRows = new Float64Array(size);
    const lastIndexed = new Float64Array(size);
    let end = 0;
    for (let i = 0; i < size; i++) {
      const [id, indexed, row] = rows[i] as VersionEntry;
      ids[i] = id;
      end += id.length;
      idEnds[i] = end;
      byIdRows[i] = row;
      lastIndexed[i] = indexed;
    }
    return { size, idText: ids.join(''), idEnds, byIdRows, lastIndexed };
  }

  function read(keyId: number, version: number): KeyMembers | undefined {
    const { size, idText, idEnds, byIdRows, lastIndexed } = readList(keyId) ?? readRows(keyId);
    // An id stored with a lone surrogate comes back with U+FFFD and then names no record (versionsReads.ts).
    if (idText.includes('\uFFFD')) return undefined;
    // Keys naming the same records share one list: found by comparing with the lists of the same length.
    for (const other of holders.keys()) {
      if (other.version === version && other.size === size && other.idText === idText && other.idEnds.every((otherEnd, i) => otherEnd === idEnds[i])) return other;
    }
    // Equal last_indexed in id order: the positions are the id order.
    const newestOrder = new Int32Array(size);
    for (let i = 0; i < size; i++) newestOrder[i] = i;
    newestOrder.sort((a, b) => (lastIndexed[b] as number) - (lastIndexed[a] as number) || a - b);
    const newestLastIndexed = new Float64Array(size);
    for (let i = 0; i < size; i++) newestLastIndexed[i] = lastIndexed[newestOrder[i] as number] as number;
    return { version, size, idText, idEnds, byIdRows, newestOrder, newestLastIndexed };
  }

  return {
    membersOf(keyId, version, likelyLarge = false) {
      let members = remembered.get(keyId);
      if (members !== undefined) {
        drop(keyId, members);
        if (members.version !== version) members = undefined;
      }
      if (members === undefined) {
        // A statement less for a key whose total says it is large: the list's own count tells.
        if (!likelyLarge && countOf.get(keyId, LARGE_KEY_RECORDS + 1)! <= LARGE_KEY_RECORDS) return undefined;
        members = read(keyId, version);
        if (members === undefined || members.size <= LARGE_KEY_RECORDS) return undefined;
      }
      // Most recently used last.
      hold(keyId, members);
      for (const [oldest, work] of remembered) {
        if (rememberedBytes <= limitBytes) break;
        drop(oldest, work);
      }
      return members;
    },
    remembers: (keyId) => remembered.has(keyId),
    forget() {
      remembered.clear();
      holders.clear();
      rememberedBytes = 0;
    },
  };
}

/**
 * Reads a comma-separated list of decimal integers (as SQLite's group_concat writes them) into `into`;
 * false unless it holds exactly into.length integers of plain digits, each exact in a double.
 */
export function integersOfList(text: string, into: Int32Array | Float64Array): boolean {
  let count = 0;
  let value = 0;
  let digits = 0;
  let negative = false;
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 44;
    if (code >= 48 && code <= 57) {
      value = value * 10 + (code - 48);
      digits++;
    } else if (code === 45 && digits === 0 && !negative) {
      negative = true;
    } else if (code === 44 && digits > 0 && count < into.length && value <= Number.MAX_SAFE_INTEGER) {
      into[count++] = negative ? -value : value;
      value = 0;
      digits = 0;
      negative = false;
    } else {
      return false;
    }
  }
  return count === into.length;
}

/**
 * A page of the union of one remembered list and records not in it (`extras`, by id): the page's ids and
 * rows and the total, in the order of the query, as the page statement would give them.
 */
export function pageOfUnion(members: KeyMembers, extras: ReadonlyMap<string, VersionEntry>, query: RecordVersionsQuery): { total: number; ids: string[]; rows: number[] } {
  const total = members.size + extras.size;
  const offset = Math.max(0, query.offset);
  if (query.limit <= 0) return { total, ids: [], rows: [] };
  const newest = query.order === 'last-indexed';
  // The position in the id order of the i-th record of the query's order.
  const positionOf = (i: number): number => (newest ? members.newestOrder[i] as number : i);
  const ids: string[] = [];
  const rows: number[] = [];
  if (extras.size === 0) {
    for (let i = offset, end = Math.min(offset + query.limit, members.size); i < end; i++) {
      ids.push(idAt(members, positionOf(i)));
      rows.push(members.byIdRows[positionOf(i)] as number);
    }
    return { total, ids, rows };
  }
  // Merge the few extras into the list, up to the end of the page. The id order needs no last_indexed.
  const before = versionOrder(query.order);
  const entryAt = (i: number): VersionEntry => [idAt(members, positionOf(i)), newest ? members.newestLastIndexed[i] as number : 0, members.byIdRows[positionOf(i)] as number];
  const added = [...extras.values()].sort(before);
  let i = 0;
  let j = 0;
  while (ids.length < offset + query.limit && (i < members.size || j < added.length)) {
    const entry = j >= added.length || (i < members.size && before(entryAt(i), added[j] as VersionEntry) < 0) ? entryAt(i++) : added[j++] as VersionEntry;
    ids.push(entry[0]);
    rows.push(entry[2]);
  }
  return { total, ids: ids.slice(offset), rows: rows.slice(offset) };
}
