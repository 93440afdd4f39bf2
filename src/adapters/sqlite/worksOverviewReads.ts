/**
 * How an embedded index's records fall into works: how many works, the largest of them and a few records
 * alone in theirs, for a page that describes an index and suggests where to start (the demo's home page on
 * a library's own index; docs/curation.md, "The works of an index").
 *
 * A work here is the records joined by shared work keys, directly or through other records (the groups a
 * librarian merges and splits); a record that shares no key, or has none, is a work of its own. The reads
 * go once over the key table and once over the records' rows, joining rows in arrays indexed by record
 * row, and over the records by id only until enough records alone are found: no record document is
 * parsed but those listed.
 *
 * Left to others: the report of groups to correct (groupQualityReads.ts), the tables (indexTables.ts).
 */
import type Database from 'better-sqlite3';
import { titleOf, type ListedRecord } from './groupQualityReads.js';

export interface WorksOverviewOptions {
  /** Works listed in `largestWorks` and records in `recordsAlone` (default 10 each). */
  readonly top?: number;
}

export interface WorkSize {
  /** Records of the work. */
  readonly records: number;
  /** Its record of the smallest id. */
  readonly example: ListedRecord;
}

export interface WorksOverview {
  readonly records: number;
  /** Works the records make (a record alone counts one). */
  readonly works: number;
  /** Works of two records or more. */
  readonly worksOfSeveral: number;
  /**
   * The largest works, most records first, equal sizes by their example's id (which of several works of
   * the size of the last one listed make the list is the index's choice).
   */
  readonly largestWorks: readonly WorkSize[];
  /** The first records, by id, alone in their work. */
  readonly recordsAlone: readonly ListedRecord[];
}

const DEFAULT_TOP = 10;

/** Numbers written by group_concat, one after another. */
function* rowsIn(list: string): Generator<number> {
  let start = 0;
  for (let comma = list.indexOf(','); comma >= 0; comma = list.indexOf(',', start)) {
    yield Number(list.slice(start, comma));
    start = comma + 1;
  }
  if (list !== '') yield Number(list.slice(start));
}

export function worksOverview(db: Database.Database, options: WorksOverviewOptions = {}): WorksOverview {
  const top = options.top ?? DEFAULT_TOP;
  // The records' rows in one text, and the rows of each key shared by two records or more in one text a
  // key: far fewer rows handed to JavaScript, one by one, than the key table has.
  const allRows = db.prepare<[], string | null>('SELECT group_concat(row) FROM records').pluck().get() ?? null;
  if (allRows === null) return { records: 0, works: 0, worksOfSeveral: 0, largestWorks: [], recordsAlone: [] };
  const rows = Int32Array.from(rowsIn(allRows));
  const lastRow = rows.reduce((last, row) => Math.max(last, row), 0);

  // Union-find over record rows, each work's root its smallest row: the rows of one key are joined.
  const parent = new Int32Array(lastRow + 1);
  for (let row = 0; row <= lastRow; row++) parent[row] = row;
  const rootOf = (row: number): number => {
    let root = row;
    while (parent[root] !== root) root = parent[root]!;
    while (parent[row] !== root) {
      const next = parent[row]!;
      parent[row] = root;
      row = next;
    }
    return root;
  };
  for (const list of db.prepare<[], string>('SELECT group_concat(record_row) FROM records_by_key GROUP BY key_id HAVING COUNT(*) > 1').pluck().iterate()) {
    let first = -1;
    for (const row of rowsIn(list)) {
      if (row > lastRow) continue;
      if (first === -1) {
        first = rootOf(row);
        continue;
      }
      const a = rootOf(first);
      const b = rootOf(row);
      if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
    }
  }

  const size = new Int32Array(lastRow + 1);
  for (const row of rows) {
    const root = rootOf(row);
    size[root] = size[root]! + 1;
  }
  let works = 0;
  const several: number[] = [];
  for (let root = 0; root <= lastRow; root++) {
    if (size[root] === 0) continue;
    works += 1;
    if (size[root]! > 1) several.push(root);
  }
  const largest = several.sort((a, b) => size[b]! - size[a]! || a - b).slice(0, top);
  const members = new Map<number, number[]>(largest.map((root) => [root, []]));
  for (const row of rows) members.get(rootOf(row))?.push(row);

  // Records alone, by id: read in id order only until enough are found.
  const aloneRows: number[] = [];
  if (top > 0 && works > several.length) {
    for (const row of db.prepare<[], number>('SELECT row FROM records ORDER BY id').pluck().iterate()) {
      if (size[rootOf(row)] !== 1) continue;
      aloneRows.push(row);
      if (aloneRows.length >= top) break;
    }
  }

  const listed = db.prepare<[number], { id: string; document: string }>('SELECT id, document FROM records WHERE row = ?');
  const listedRecord = (row: number): ListedRecord => {
    const found = listed.get(row)!;
    return { id: found.id, title: titleOf(found.document) };
  };
  const firstById = db.prepare<[string], number>('SELECT row FROM records WHERE row IN (SELECT value FROM json_each(?)) ORDER BY id LIMIT 1').pluck();
  const largestWorks = largest
    .map((root) => ({ records: size[root]!, example: listedRecord(firstById.get(JSON.stringify(members.get(root)))!) }))
    .sort((a, b) => b.records - a.records || (a.example.id < b.example.id ? -1 : 1));
  return {
    records: rows.length,
    works,
    worksOfSeveral: several.length,
    largestWorks,
    recordsAlone: aloneRows.map(listedRecord),
  };
}
