/**
 * Version records made of the embedded index's rows (versionRows.ts), with their work keys' texts read in
 * one statement for a page or a work, and what the read path remembers for one event-loop turn: the
 * records getRecord gave out, their keys' texts, which of them are alone in their work and which keys may
 * name another record. The records of large works' pages are kept across answers (reusedRecords.ts).
 */
import type Database from 'better-sqlite3';
import type { CatalogRecord } from '../../record/catalogRecord.js';
import { reusedRecords } from './reusedRecords.js';
import { NO_KEYS, statementsByKeyCount, versionColumns, versionOfColumns, type VersionRow } from './versionRows.js';

/** The keys of a record that may name another record, by id, with their totals (null when not known). */
export interface SharedKeys {
  readonly ids: readonly number[];
  readonly totals: ReadonlyArray<number | null>;
}

export type VersionRecords = ReturnType<typeof versionRecords>;

/** The version records of the index file `db`. */
export function versionRecords(db: Database.Database) {
  // A page's records are read by row: a work's records are neighbours there (indexTables.ts).
  // Each by whether the query wants the versions' keys (versionColumns).
  const selectVersion = [false, true].map((withKeys) => db.prepare<[number], VersionRow>(`SELECT ${versionColumns(withKeys)} FROM records AS r WHERE r.row = ?`).raw());
  const selectVersions = [false, true].map((withKeys) => db.prepare<[string], VersionRow>(`SELECT ${versionColumns(withKeys)} FROM records AS r WHERE r.row IN (SELECT value FROM json_each(?))`).raw());
  const keyTextsOf = db.prepare<[string], [number, string]>('SELECT key_id, key FROM work_keys WHERE key_id IN (SELECT value FROM json_each(?))').raw();
  const keyTextsByCount = statementsByKeyCount<[number, string]>(db, (keyIds) => `SELECT key_id, key FROM work_keys WHERE key_id IN (${keyIds})`);
  // The records of this event-loop turn, by id: a record requested is most often the only one, or one,
  // of its own versions page, and is not read twice. Cleared every turn, so never older than the turn.
  let recordsThisTurn: Map<string, CatalogRecord> | undefined;
  // The texts of the key ids read this turn: the versions of a record share most of its keys, whose texts
  // getRecord has just read. Cleared with recordsThisTurn.
  let keyTextsThisTurn: Map<number, string> | undefined;
  // The records getRecord gave out this turn that no other record shares a key with: their versions are
  // themselves. Cleared with recordsThisTurn, and by every write (a plain set: weak collections cost the
  // garbage collector more).
  let aloneThisTurn: Set<CatalogRecord> | undefined;
  // The keys that may name another record (their total not 1) of the records getRecord gave out this turn,
  // with their totals (null when not known): their versions are read through these keys only, as a key of
  // total 1 names the record alone. Cleared with aloneThisTurn (totals change with writes).
  let sharedKeysThisTurn: Map<CatalogRecord, SharedKeys> | undefined;
  const rememberThisTurn = (record: CatalogRecord, keyIds: readonly number[]): CatalogRecord => {
    if (recordsThisTurn === undefined || keyTextsThisTurn === undefined) {
      recordsThisTurn = new Map();
      keyTextsThisTurn = new Map();
      setImmediate(() => {
        recordsThisTurn = undefined;
        keyTextsThisTurn = undefined;
        aloneThisTurn = undefined;
        sharedKeysThisTurn = undefined;
      });
    }
    recordsThisTurn.set(record.id, record);
    // The texts come in the order of the ids, unless an id names no stored key (then none is remembered).
    if (keyIds.length === record.workKeys.length) for (let i = 0; i < keyIds.length; i++) keyTextsThisTurn.set(keyIds[i] as number, record.workKeys[i] as string);
    return record;
  };

  /**
   * Versions as records, their work keys' texts read in one statement for all of them (a page, or a whole
   * work read for its sort or facets): the ids of one work's keys are mostly the same few. Records are
   * plain values, complete when given out: a host may keep one after the index is closed. Without
   * `withKeys` (a query that does not want the versions' keys: the feed's), they are given without them.
   */
  const versionsOfRows = (rows: readonly VersionRow[], withKeys: boolean): CatalogRecord[] => {
    const texts = withKeys ? keyTextsOfRows(rows.filter((row) => recordsThisTurn?.has(row[0]) !== true)) : undefined;
    return rows.map((row) => recordsThisTurn?.get(row[0]) ?? versionOfRow(row, texts));
  };
  // The key ids of the rows keyTextsOfRows was last given, parsed there once for keyTextsOfRow.
  let keyIdsOfRows = new Map<VersionRow, number[]>();
  /** The texts of these rows' key ids: those read this turn, the others in one statement. */
  const keyTextsOfRows = (rows: readonly VersionRow[]): ReadonlyMap<number, string> => {
    const known = keyTextsThisTurn;
    keyIdsOfRows = new Map();
    if (rows.length === 0) return known ?? new Map();
    const unknownIds = new Set<number>();
    for (const row of rows) {
      const keyIds = JSON.parse(row[2] ?? '[]') as number[];
      keyIdsOfRows.set(row, keyIds);
      for (const keyId of keyIds) if (known?.has(keyId) !== true) unknownIds.add(keyId);
    }
    if (unknownIds.size === 0) return known ?? new Map();
    const texts = known ?? new Map<number, string>();
    const unknown = [...unknownIds];
    const bound = keyTextsByCount[unknown.length];
    for (const [keyId, text] of bound !== undefined ? bound.all(...unknown) : keyTextsOf.all(JSON.stringify(unknown))) texts.set(keyId, text);
    return texts;
  };
  /** A version's record, with its keys' texts from `texts`, or without keys (NO_KEYS) when none are given. */
  const versionOfRow = (row: VersionRow, texts: ReadonlyMap<number, string> | undefined): CatalogRecord =>
    versionOfColumns(row, texts === undefined ? NO_KEYS : keyTextsOfRow(row, texts));
  const keyTextsOfRow = (row: VersionRow, texts: ReadonlyMap<number, string>): string[] => {
    const keys: string[] = [];
    for (const keyId of keyIdsOfRows.get(row) ?? JSON.parse(row[2] ?? '[]') as number[]) {
      const text = texts.get(keyId);
      if (text !== undefined) keys.push(text);
    }
    return keys;
  };

  // Records of large works' pages kept from earlier answers, while the file is unchanged (reusedRecords.ts).
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  const reused = reusedRecords();

  /**
   * The records of a page, given their ids and rows in page order; an id whose record is missing counts
   * in the total and gives none. With `reuse` (a large work's page), records kept from earlier answers
   * are given again and those read now are kept. Without `withKeys`, the records read now are made
   * without their keys (versionsOfRows), and kept as such: only a query without keys is given them again.
   * `version`: SQLite's data_version as the caller read it for this answer (each reading is a statement).
   */
  const pageRecords = (ids: readonly string[], rows: ArrayLike<number>, reuse = false, withKeys = true, version?: number): CatalogRecord[] => {
    if (reuse) reused.useVersion(version ?? dataVersion.get() ?? 0);
    const toRead: number[] = [];
    const kept: Array<CatalogRecord | undefined> = [];
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i] as string;
      const record = recordsThisTurn?.get(id) ?? (reuse ? reused.get(rows[i] as number, id, withKeys) : undefined);
      kept.push(record);
      if (record === undefined) toRead.push(rows[i] as number);
    }
    // Several rows in one statement: less time per row than one statement each (docs/benchmarks.md).
    const found = toRead.length === 1 ? [selectVersion[Number(withKeys)]!.get(toRead[0] as number)] : toRead.length > 1 ? selectVersions[Number(withKeys)]!.all(JSON.stringify(toRead)) : [];
    const read = new Map<string, VersionRow>();
    for (const row of found) if (row !== undefined) read.set(row[0], row);
    const texts = withKeys ? keyTextsOfRows([...read.values()]) : undefined;
    const records: CatalogRecord[] = [];
    for (let i = 0; i < ids.length; i++) {
      const known = kept[i];
      const row = known === undefined ? read.get(ids[i] as string) : undefined;
      if (known !== undefined) records.push(known);
      else if (row !== undefined) records.push(reuse ? reused.keep(rows[i] as number, versionOfRow(row, texts), withKeys) : versionOfRow(row, texts));
    }
    return records;
  };

  return {
    rememberThisTurn,
    /** A record getRecord gave out this turn, by id. */
    thisTurn: (id: string): CatalogRecord | undefined => recordsThisTurn?.get(id),
    /** Remembers, for this turn, that no other record shares a key with `record`. */
    keepAlone: (record: CatalogRecord): void => {
      (aloneThisTurn ??= new Set()).add(record);
    },
    isAlone: (record: CatalogRecord): boolean => aloneThisTurn?.has(record) === true,
    /** Remembers, for this turn, the keys of `record` that may name another record. */
    keepSharedKeys: (record: CatalogRecord, shared: SharedKeys): void => {
      (sharedKeysThisTurn ??= new Map()).set(record, shared);
    },
    sharedKeysOf: (record: CatalogRecord): SharedKeys | undefined => sharedKeysThisTurn?.get(record),
    versionsOfRows,
    keyTextsOfRows,
    keyTextsOfRow,
    pageRecords,
    /** SQLite's data_version: changes when another connection commits (a statement each reading). */
    dataVersion: (): number => dataVersion.get() ?? 0,
    /** Forgets this turn's records and the records kept across answers (after a write of this connection). */
    forget(): void {
      recordsThisTurn = undefined;
      keyTextsThisTurn = undefined;
      aloneThisTurn = undefined;
      sharedKeysThisTurn = undefined;
      reused.forget();
    },
  };
}
