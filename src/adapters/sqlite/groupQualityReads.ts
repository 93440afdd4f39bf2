/**
 * The reads behind `works report` on the embedded index (docs/curation.md): the largest versions lists,
 * the keys that join the most records with how many different authors they join, and the keys whose
 * title looks generic. What counts as generic is src/work-keys/curation/groupQuality.ts's; this module
 * only counts.
 *
 * The largest lists are looked for among the records of the keys that join the most records: a record's
 * list holds at least every record of each of its keys, so the longest lists are found there, without
 * counting the versions of every record of the index.
 */
import type Database from 'better-sqlite3';
import { normaliseForWorkKey } from '../../work-keys/workKeys.js';
import {
  DEFAULT_GENERIC_KEY_LIMITS, genericKeySigns, hasGenericTitle,
  type GenericKeyLimits, type GenericKeySign, type KeyGroup,
} from '../../work-keys/curation/groupQuality.js';

export interface GroupQualityOptions {
  /** Rows in each part of the report (default 10). */
  readonly top?: number;
  readonly limits?: GenericKeyLimits;
}

export interface ListedRecord {
  readonly id: string;
  readonly title: string | undefined;
}

export interface VersionsListSize extends ListedRecord {
  /** Records its versions list holds, itself included. */
  readonly versions: number;
}

export interface KeyGroupReport extends KeyGroup {
  readonly signs: readonly GenericKeySign[];
  /** The first records of the key, by id. */
  readonly examples: readonly ListedRecord[];
}

export interface GroupQualityReport {
  readonly records: number;
  readonly limits: GenericKeyLimits;
  readonly largestLists: readonly VersionsListSize[];
  readonly joiningKeys: readonly KeyGroupReport[];
  /** Keys joining two records or more whose title or spread of authors looks generic, most records first. */
  readonly genericKeys: readonly KeyGroupReport[];
}

const DEFAULT_TOP = 10;
/** Keys whose records are read for the largest lists and for "many authors". */
const CANDIDATE_KEYS = 50;
/** Records of a key whose lists are counted. */
const COUNTED_MEMBERS = 20;
const EXAMPLES = 3;

export function groupQualityReport(db: Database.Database, options: GroupQualityOptions = {}): GroupQualityReport {
  const top = options.top ?? DEFAULT_TOP;
  const limits = options.limits ?? DEFAULT_GENERIC_KEY_LIMITS;
  const records = db.prepare<[], number>('SELECT COUNT(*) FROM records').pluck().get() ?? 0;
  const keyText = db.prepare<[number], string>('SELECT key FROM work_keys WHERE key_id = ?').pluck();
  const keySize = db.prepare<[number], number>('SELECT COUNT(*) FROM records_by_key WHERE key_id = ?').pluck();
  const members = db.prepare<[number], { id: string; key_ids: string; document: string }>(
    'SELECT r.id AS id, r.key_ids AS key_ids, r.document AS document FROM records_by_key AS k JOIN records AS r ON r.row = k.record_row WHERE k.key_id = ? ORDER BY k.record_id');
  const listSize = db.prepare<[string], number>('SELECT COUNT(DISTINCT record_id) FROM records_by_key WHERE key_id IN (SELECT value FROM json_each(?))').pluck();

  const groupOf = (keyId: number, size: number): KeyGroupReport & { memberRows: Array<{ id: string; key_ids: string; document: string }> } => {
    const rows = members.all(keyId);
    const authors = new Set<string>();
    for (const row of rows) {
      const author = mainAuthorOf(row.document);
      if (author !== '') authors.add(author);
    }
    const group = { key: keyText.get(keyId) ?? '', records: size, authors: authors.size };
    return {
      ...group,
      signs: genericKeySigns(group, limits),
      examples: rows.slice(0, EXAMPLES).map((row) => ({ id: row.id, title: titleOf(row.document) })),
      memberRows: rows,
    };
  };

  const biggest = db.prepare<[number], { key_id: number; records: number }>(
    'SELECT key_id, COUNT(*) AS records FROM records_by_key GROUP BY key_id HAVING COUNT(*) > 1 ORDER BY records DESC, key_id LIMIT ?').all(Math.max(top, CANDIDATE_KEYS));
  const candidates = biggest.map((row) => groupOf(row.key_id, row.records));

  const sizes = new Map<string, VersionsListSize>();
  for (const group of candidates.slice(0, top)) {
    for (const row of group.memberRows.slice(0, COUNTED_MEMBERS)) {
      if (!sizes.has(row.id)) sizes.set(row.id, { id: row.id, title: titleOf(row.document), versions: listSize.get(row.key_ids) ?? 1 });
    }
  }
  const largestLists = [...sizes.values()].sort((a, b) => b.versions - a.versions || (a.id < b.id ? -1 : 1)).slice(0, top);

  const generic = new Map<string, KeyGroupReport>();
  for (const group of candidates) if (group.signs.length > 0) generic.set(group.key, group);
  // Keys of a generic title outside the largest: every key's text is read once.
  for (const [keyId, key] of db.prepare<[], [number, string]>('SELECT key_id, key FROM work_keys').raw().iterate()) {
    if (generic.has(key) || !hasGenericTitle(key)) continue;
    const size = keySize.get(keyId) ?? 0;
    if (size > 1) generic.set(key, groupOf(keyId, size));
  }
  const strip = ({ memberRows: _rows, ...group }: KeyGroupReport & { memberRows?: unknown }): KeyGroupReport => group;
  return {
    records,
    limits,
    largestLists,
    joiningKeys: candidates.slice(0, top).map(strip),
    genericKeys: [...generic.values()].sort((a, b) => b.records - a.records || (a.key < b.key ? -1 : 1)).map(strip),
  };
}

/** A stored document's first author, else its first corporate author, normalised; '' without either. */
function mainAuthorOf(documentJson: string): string {
  const document = JSON.parse(documentJson) as Record<string, unknown>;
  for (const field of ['author', 'author_corporate']) {
    const value = document[field];
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string' && first.trim() !== '') return normaliseForWorkKey(first);
  }
  return '';
}

/** A stored document's title, when it has one as text. */
export function titleOf(documentJson: string): string | undefined {
  const title = (JSON.parse(documentJson) as Record<string, unknown>).title;
  return typeof title === 'string' ? title : undefined;
}
