/**
 * The embedded index's tables (schema 4) and how a record is written to and read from them. SQL table
 * and column names live here and in the modules of this folder only.
 *
 * Each fact is stored once, in the form the read path wants it:
 * - `records`: one row per record, under an integer `row`, found by id through `records_by_id`: its
 *   last_indexed as milliseconds, the ids of its work keys (a JSON array), and its other fields as a JSON
 *   object (`document`) holding only the fields the plugin reads; the keys and last_indexed are not
 *   repeated in it.
 * - `work_keys`: each distinct work key's text once, under an integer id, with how many records hold it
 *   (`records`, kept by the writers: never fewer than hold it, NULL when not known), so that a record
 *   whose keys each name one record is known alone in its work when it is read (versionsReads.ts).
 * - `records_by_key`: (key id, record id, last_indexed, the record's row), in key order: the versions of a
 *   key are one range of it, and a page is sorted and cut from these rows before any record row is read.
 *
 * A bulk load numbers the rows in the order of each record's first work key (clusterOf), then id: the
 * records of a work are neighbours in the file, and a page of 50 versions is read from a few pages of it
 * instead of 50 places (docs/benchmarks.md, "Figures behind choices in the code"). Records written
 * later into a filled index take the next rows.
 *
 * A key's id is its 32-bit hash times 256 plus a number telling apart the keys of one hash (almost always
 * 0): a key is found from its text by a range read of at most 256 ids, without an index of the key texts,
 * which would store every key a second time.
 */
import type Database from 'better-sqlite3';
import { instantOfMillis, recordOfCheckedFields, type CatalogRecord} from '../../record/catalogRecord.js';
import { DOCUMENT_COLUMN_FIELD_NAMES } from '../../record/recordFields.js';
import type { PreparedRecordDocument } from '../../ports.js';
import { InvalidOptionError } from '../../errors.js';

/**
 * Kept in `PRAGMA user_version`. 1 is the layout of 0.1.0, 0 that of the older files it still opened
 * (legacyLayouts.ts reads and rebuilds both); 2 was 0.2.0's before its release, never released, and is
 * refused (schemaVersionOf); 3 is this layout without the keys' totals, read as it is and given the
 * column by a writable open (legacyLayouts.ts, addKeyTotals).
 */
export const SCHEMA_VERSION = 4;
/** The layout before the keys' totals (work_keys.records), read and migrated in place. */
export const SCHEMA_WITHOUT_KEY_TOTALS = 3;

export const SCHEMA = `
  CREATE TABLE IF NOT EXISTS records (
    row INTEGER PRIMARY KEY,
    id TEXT NOT NULL,
    last_indexed INTEGER NOT NULL,
    key_ids TEXT NOT NULL,
    document TEXT NOT NULL
  );
  CREATE UNIQUE INDEX IF NOT EXISTS records_by_id ON records (id);
  CREATE TABLE IF NOT EXISTS work_keys (
    key_id INTEGER PRIMARY KEY,
    key TEXT NOT NULL,
    records INTEGER
  );
  CREATE TABLE IF NOT EXISTS records_by_key (
    key_id INTEGER NOT NULL,
    record_id TEXT NOT NULL,
    last_indexed INTEGER NOT NULL,
    record_row INTEGER NOT NULL,
    PRIMARY KEY (key_id, record_id)
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS harvests (
    key TEXT PRIMARY KEY NOT NULL,
    response_date TEXT NOT NULL
  ) WITHOUT ROWID;
`;

/** `?, ?, ?`: the parameters of a statement's list of `count` values. */
export function parameterList(count: number): string {
  return new Array<string>(count).fill('?').join(', ');
}

/** Numbers given to keys of one hash: a key's id is hash * KEYS_PER_HASH + its number. */
export const KEYS_PER_HASH = 256;

/**
 * FNV-1a over the UTF-16 code units of a key, 32 bits. Not a secret and not collision-proof: it only
 * narrows where a key's text is looked for; the text is always compared.
 */
export function workKeyHash(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * Where a bulk load puts a record: the hash of its first work key (0 without keys). The first key is a
 * work's uniform title when it has one, else its main author and title (workKeys.ts), which the
 * record's other versions most often share.
 */
export function clusterOf(keys: readonly string[]): number {
  return keys.length === 0 ? 0 : workKeyHash(keys[0] as string);
}

/** The first id a key can have: the id it has unless another key of the same hash came first. */
export function firstKeyIdOf(key: string): number {
  return workKeyHash(key) * KEYS_PER_HASH;
}

/**
 * The rows of a record's work keys in the record's order, from an SQL expression giving its `key_ids`:
 * json_each walks the array in order, and CROSS JOIN keeps it the outer loop (SQLite does not reorder
 * the tables of a CROSS JOIN), each id finding at most one key by its integer key. The aggregates over
 * these rows take them in that order without an `ORDER BY`, which would sort them in a temporary B-tree
 * for every record read.
 */
const KEYS_IN_RECORD_ORDER = (keyIds: string) => `FROM json_each(${keyIds}) AS j CROSS JOIN work_keys AS w ON w.key_id = j.value`;

/**
 * SQL for the texts of a record's work keys, as a JSON array in the record's order, from an SQL expression
 * giving its `key_ids` (a column, or a parameter).
 */
export function keyTextsSqlOf(keyIds: string): string {
  return `(SELECT json_group_array(w.key) ${KEYS_IN_RECORD_ORDER(keyIds)})`;
}

/**
 * SQL for `[sharedIds, sharedTotals, keys]` (a JSON text) from an SQL expression giving a record's
 * `key_ids`: its work keys' texts as keyTextsSqlOf gives them, and the ids of those of its keys that may name
 * another record (their total not 1, or not known) with their totals (null when not known), read in the
 * same pass over its keys' rows. A key whose total is 1 names the record alone: its versions are found
 * through its other keys (versionsReads.ts), and with none left it is alone in its work. Without the
 * totals (a schema 3 file read as it is) every key may name another record. Written by concatenation:
 * `json_array` would parse the arrays' texts again.
 */
export function workKeysAndSharedOf(keyIds: string, withTotals: boolean): string {
  const shared = withTotals ? ' FILTER (WHERE w.records IS NOT 1)' : '';
  const totals = withTotals ? 'w.records' : 'NULL';
  return `(SELECT '[' || json_group_array(w.key_id)${shared} || ',' || json_group_array(${totals})${shared} || ',' || json_group_array(w.key) || ']'
     ${KEYS_IN_RECORD_ORDER(keyIds)})`;
}

/** `"name":` of each record field kept in `document` (the field table's `stored` column), in table order. */
const DOCUMENT_FIELD_PREFIXES = DOCUMENT_COLUMN_FIELD_NAMES.map((name) => [name, `${JSON.stringify(name)}:`] as const);

/**
 * The `document` column of a prepared record document: its fields stored there, in table order, as
 * `JSON.stringify(document, DOCUMENT_COLUMN_FIELD_NAMES)` writes them (a prepared document's fields hold strings,
 * lists of strings or null), written field by field, which is faster than the filter (docs/benchmarks.md).
 */
export function documentColumnOf(document: PreparedRecordDocument): string {
  let json = '';
  for (const [name, prefix] of DOCUMENT_FIELD_PREFIXES) {
    const value = document[name];
    if (value !== undefined) json += `${json === '' ? '{' : ','}${prefix}${JSON.stringify(value)}`;
  }
  return json === '' ? '{}' : `${json}}`;
}

/** last_indexed as stored: milliseconds since 1970 (the normalised ISO form has milliseconds). */
export function storedInstantOf(document: PreparedRecordDocument): number {
  return Date.parse(document.last_indexed);
}

/** Whether the file's work_keys has the keys' totals (a schema 3 file opened read-only has not). */
export function holdsKeyTotals(db: Database.Database): boolean {
  return db.prepare("SELECT 1 FROM pragma_table_info('work_keys') WHERE name = 'records'").get() !== undefined;
}

/** Whether the index holds any record: an empty one is filled by a bulk load (tableWriters.ts). */
export function holdsRecords(db: Database.Database): boolean {
  return db.prepare('SELECT 1 FROM records LIMIT 1').get() !== undefined;
}

/** A `records` row as the read statements select it (RECORD_COLUMNS of a row `r`). */
export interface RecordRow {
  readonly id: string;
  readonly last_indexed: number;
  /** Its work keys' texts, a JSON array (keyTextsSqlOf). */
  readonly keys: string;
  /** Its work keys' ids, a JSON array, as stored. */
  readonly key_ids: string;
  readonly document: string;
}

export const RECORD_COLUMNS = `r.id AS id, r.last_indexed AS last_indexed, ${keyTextsSqlOf('r.key_ids')} AS keys, r.key_ids AS key_ids, r.document AS document`;

/**
 * The record a stored row describes, with these work keys, read by the one reader of record fields
 * (catalogRecord.ts). Rows are written only from documents that passed validation, so they are read
 * without checking every field again: the cost of that check was a tenth of an answer built afresh.
 */
export function recordFromRow(row: Pick<RecordRow, 'id' | 'last_indexed' | 'document'>, workKeys: readonly string[]): CatalogRecord {
  return recordOfColumns(row.id, row.last_indexed, row.document, workKeys);
}

/** recordFromRow for a row read as an array (a raw statement), its columns given one by one. */
export function recordOfColumns(id: string, lastIndexed: number, document: string, workKeys: readonly string[]): CatalogRecord {
  return recordOfParsedColumns(id, lastIndexed, JSON.parse(document) as Record<string, unknown>, workKeys);
}

/** recordOfColumns with its `document` parsed already (freshly: its lists are taken as they are). */
export function recordOfParsedColumns(id: string, lastIndexed: number, document: Readonly<Record<string, unknown>>, workKeys: readonly string[]): CatalogRecord {
  return recordOfCheckedFields(document, id, instantOfMillis(lastIndexed), workKeys);
}

/** The record of a row selected with RECORD_COLUMNS, its work keys included. */
export function recordOfRow(row: RecordRow): CatalogRecord {
  return recordFromRow(row, JSON.parse(row.keys) as string[]);
}

/** A row selected with RECORD_COLUMNS as the document it was written from (for "is this content unchanged?"). */
export function documentFromRow(row: RecordRow): PreparedRecordDocument {
  return {
    id: row.id, ...(JSON.parse(row.document) as object),
    work_keys_str_mv: JSON.parse(row.keys) as string[], last_indexed: new Date(row.last_indexed).toISOString(),
  };
}

/** The last schema version of a released layout before this one (0.1.0's), read by legacyLayouts.ts. */
export const LAST_LEGACY_SCHEMA_VERSION = 1;

/**
 * Reads the schema version, refusing a file of a newer one or of an unreleased one. Answers the version
 * found (0 for a new, empty file as for a file older than 0.1.0's layout: `hasTables` tells them apart).
 */
export function schemaVersionOf(db: Database.Database): { version: number; hasTables: boolean } {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION) {
    throw new InvalidOptionError('path', `the index file ${db.name} has schema version ${version}; this version of the plugin knows versions up to ${SCHEMA_VERSION}`);
  }
  if (version > LAST_LEGACY_SCHEMA_VERSION && version < SCHEMA_WITHOUT_KEY_TOTALS) {
    throw new InvalidOptionError('path', `the index file ${db.name} has the layout of an unreleased 0.2.0 build (schema ${version}), which is not read: load the catalog again into a new file`);
  }
  const hasTables = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'records'").get() !== undefined;
  return { version, hasTables };
}
