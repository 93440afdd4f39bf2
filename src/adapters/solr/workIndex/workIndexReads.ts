/**
 * The reads of a work index file (workIndexFile.ts): a page of the documents sharing any of some keys, in
 * an order the file sorts, with or without filters and a facet tally; a document's work; version counts.
 * Large works' orders and tallies are kept while the file stays the same (keptWorks.ts).
 */
import type Database from 'better-sqlite3';
import { FACET_FIELDS, type FacetField, type FacetTally, type VersionsFilter } from '../../../record/recordFacets.js';
import { keyIdList, type DocumentWork, type EngineOrder } from './documentWork.js';
import { KEPT_WORK_LEAST_DOCUMENTS, type KeptWorks } from './keptWorks.js';

/** facetedVersions's answer: as pageOfWork (src/record/recordFacets.ts) gives it, with ids for records and a tally for counts. */
export interface FacetedVersions {
  /** Documents of the work that carry every filter's value. */
  total: number;
  /** Documents of the work, filters aside. */
  unfilteredTotal: number;
  /** The page's ids, in the order asked. */
  ids: string[];
  /** Every value of every facet field the filtered documents carry, with how many carry it (when asked). */
  tally?: FacetTally;
}

/** What the file answers: the reads the adapter's answers are made from (workIndexAnswers.ts). */
export interface WorkIndexReads {
  /** The ids of one page of the documents sharing any of the keys (a negative limit: all of them), and how many there are in all. */
  findVersions(query: { workKeys: readonly string[]; order: EngineOrder; offset: number; limit: number }): { total: number; ids: string[] };
  /**
   * One page of a work's documents that carry every filter's value, in an order the file sorts, and (with
   * `facets`) the tally of their facet values, from the values stored with them: only meaningful once the
   * state `facet_fields` says every document's values are stored.
   */
  facetedVersions(query: { workKeys: readonly string[]; order: EngineOrder; offset: number; limit: number; filters: readonly VersionsFilter[]; facets: boolean }): FacetedVersions;
  /** The documents sharing any key of the document `id` (itself included), when there are at most `most`; `undefined` when more. */
  workOfDocument(id: string, most: number): DocumentWork | undefined;
  /** The facet tally of a work from workOfDocument (as facetedVersions gives it without filters). */
  workTallyOf(work: DocumentWork): FacetTally;
  /** For each id stored: how many documents share any of its keys (itself included; 1 without keys). */
  countVersions(ids: readonly string[]): Map<string, number>;
}

/** The reads of the file `db`; `rowOf` finds a document's row by its id. */
export function workIndexReads(db: Database.Database, keptWorks: KeptWorks, rowOf: Database.Statement):
  WorkIndexReads {
  // Versions: the distinct documents holding any of the keys (a JSON array of key ids), in the order of the view.
  const matching = `SELECT DISTINCT d.id, d.ordered_at FROM document_keys k JOIN documents d ON d.row = k.row
    WHERE k.key_id IN (SELECT value FROM json_each(?))`;
  const countMatching = db.prepare(`SELECT count(*) FROM (${matching})`).pluck();
  // The page with the total beside each id (the window counts every match before LIMIT): one pass for both,
  // and the count alone only for a page past the end.
  // (The documents whose row is IN the links' rows: no DISTINCT to sort away, so less work: docs/benchmarks.md.)
  const inWork = 'SELECT d.id, count(*) OVER () FROM documents d WHERE d.row IN (SELECT k.row FROM document_keys k WHERE k.key_id IN (SELECT value FROM json_each(?)))';
  const pageBy: Record<EngineOrder, Database.Statement> = {
    'last-indexed': db.prepare(`${inWork} ORDER BY d.ordered_at DESC, d.id LIMIT ? OFFSET ?`).raw(),
    relevance: db.prepare(`${inWork} ORDER BY d.id LIMIT ? OFFSET ?`).raw(),
  };
  const wholeBy: Record<EngineOrder, Database.Statement> = {
    'last-indexed': db.prepare(`SELECT id FROM (${matching}) ORDER BY ordered_at DESC, id`).pluck(),
    relevance: db.prepare(`SELECT id FROM (${matching}) ORDER BY id`).pluck(),
  };
  const pageOf = (keys: string, order: EngineOrder, offset: number, limit: number): { total: number; ids: string[] } => {
    const kept = keptWorks.current(keys)?.orders[order];
    const cut = (ids: string[]) => (limit < 0 ? ids.slice(offset) : ids.slice(offset, offset + limit));
    if (kept !== undefined) return { total: kept.length, ids: cut(kept) };
    const rows = limit === 0 ? [] : pageBy[order].all(keys, limit, offset) as Array<[string, number]>;
    const total = rows.length > 0 ? rows[0]![1] : countMatching.get(keys) as number;
    if (total >= KEPT_WORK_LEAST_DOCUMENTS) {
      const ids = wholeBy[order].all(keys) as string[];
      keptWorks.keep(keys, (work) => {
        work.orders[order] = ids;
        return ids.length;
      });
      return { total: ids.length, ids: cut(ids) };
    }
    return { total, ids: rows.map((row) => row[0]) };
  };
  // A document's versions: the documents sharing any of its key ids (itself included), none when it has no keys.
  // (The first `most` + 1 found, then sorted: a large work is not read whole to learn that it is large.)
  const sharing = db.prepare(`SELECT id, ordered_at, row FROM (SELECT DISTINCT d.id, d.ordered_at, d.row FROM document_keys own
    JOIN document_keys k ON k.key_id = own.key_id JOIN documents d ON d.row = k.row WHERE own.row = ? LIMIT ?) ORDER BY id`).raw();
  const ownKeys = db.prepare('SELECT key_id FROM document_keys WHERE row = ? ORDER BY key_id').pluck().safeIntegers();
  const orderedAtOf = db.prepare('SELECT ordered_at FROM documents WHERE row = ?').pluck();
  const countSharing = db.prepare(`SELECT count(DISTINCT other.row) FROM document_keys own
    JOIN document_keys other ON other.key_id = own.key_id WHERE own.row = ?`).pluck();

  // Facet values by id (workIndexFile.ts stores them): value ids are never reused (no value is ever
  // deleted), so a process may keep what an id names.
  const valueIdOf = db.prepare('SELECT value_id FROM facet_values WHERE field = ? AND value = ?').pluck();
  const valueOfId = db.prepare('SELECT field, value FROM facet_values WHERE value_id = ?').raw();
  const valueNames = new Map<number, readonly [FacetField, string]>();
  const valueNamed = (valueId: number): readonly [FacetField, string] => {
    let named = valueNames.get(valueId);
    if (named === undefined) {
      named = valueOfId.get(valueId) as [FacetField, string];
      valueNames.set(valueId, named);
    }
    return named;
  };
  // The work's rows, then those carrying every filter's value (a JSON array of value ids, each required).
  const workRows = 'SELECT DISTINCT k.row FROM document_keys k WHERE k.key_id IN (SELECT value FROM json_each(?))';
  const leftRows = `SELECT w.row FROM (${workRows}) w WHERE (SELECT count(*) FROM document_facets f
    WHERE f.row = w.row AND f.value_id IN (SELECT value FROM json_each(?))) = ?`;
  const countLeft = db.prepare(`SELECT count(*) FROM (${leftRows})`).pluck();
  const leftPageBy: Record<EngineOrder, Database.Statement> = {
    'last-indexed': db.prepare(`SELECT d.id FROM (${leftRows}) l JOIN documents d ON d.row = l.row ORDER BY d.ordered_at DESC, d.id LIMIT ? OFFSET ?`).pluck(),
    relevance: db.prepare(`SELECT d.id FROM (${leftRows}) l JOIN documents d ON d.row = l.row ORDER BY d.id LIMIT ? OFFSET ?`).pluck(),
  };
  const tallyWork = db.prepare(`SELECT f.value_id, count(*) FROM (${workRows}) w JOIN document_facets f ON f.row = w.row GROUP BY f.value_id`).raw();
  const tallyRows = db.prepare('SELECT value_id, count(*) FROM document_facets WHERE row IN (SELECT value FROM json_each(?)) GROUP BY value_id').raw();
  const tallyLeft = db.prepare(`SELECT f.value_id, count(*) FROM (${leftRows}) l JOIN document_facets f ON f.row = l.row GROUP BY f.value_id`).raw();
  const workTally = (keys: string, size: number): FacetTally => {
    if (size < KEPT_WORK_LEAST_DOCUMENTS) return tallyOf(tallyWork.all(keys) as Array<[number, number]>);
    const kept = keptWorks.current(keys)?.tally;
    if (kept !== undefined) return kept;
    const tally = tallyOf(tallyWork.all(keys) as Array<[number, number]>);
    keptWorks.keep(keys, (work) => {
      work.tally = tally;
      return 0;
    });
    return tally;
  };
  const tallyOf = (rows: ReadonlyArray<[number, number]>): FacetTally => {
    const tally = new Map<FacetField, Map<string, number>>(FACET_FIELDS.map((field) => [field, new Map()]));
    for (const [valueId, count] of rows) {
      const [field, value] = valueNamed(valueId);
      tally.get(field)?.set(value, count);
    }
    return tally;
  };

  return {
    findVersions({ workKeys, order, offset, limit }) {
      return pageOf(keyIdList(workKeys), order, offset, limit);
    },
    facetedVersions({ workKeys, order, offset, limit, filters, facets }) {
      const keys = keyIdList(workKeys);
      if (filters.length === 0) {
        const { total, ids } = pageOf(keys, order, Math.max(0, offset), Math.max(0, limit));
        return { total, unfilteredTotal: total, ids, ...(facets ? { tally: workTally(keys, total) } : {}) };
      }
      const unfilteredTotal = countMatching.get(keys) as number;
      const required = new Set<number>();
      for (const filter of filters) {
        const valueId = valueIdOf.get(filter.field, filter.value) as number | undefined;
        // A value no document carries: no document passes.
        if (valueId === undefined) return { total: 0, unfilteredTotal, ids: [], ...(facets ? { tally: tallyOf([]) } : {}) };
        required.add(valueId);
      }
      const wanted = `[${[...required].join(',')}]`;
      return {
        total: countLeft.get(keys, wanted, required.size) as number,
        unfilteredTotal,
        ids: limit > 0 ? leftPageBy[order].all(keys, wanted, required.size, limit, Math.max(0, offset)) as string[] : [],
        ...(facets ? { tally: tallyOf(tallyLeft.all(keys, wanted, required.size) as Array<[number, number]>) } : {}),
      };
    },
    workOfDocument(id, most) {
      const row = rowOf.get(id) as number | undefined;
      if (row === undefined) return { ids: [id], orderedAt: [0], keyIds: undefined, rows: [] };
      const found = sharing.all(row, most + 1) as Array<[string, number, number]>;
      if (found.length > most) return undefined;
      const keyIds = ownKeys.all(row) as bigint[];
      // A document without keys is its own work.
      if (found.length === 0) return { ids: [id], orderedAt: [orderedAtOf.get(row) as number], keyIds, rows: [row] };
      return { ids: found.map((f) => f[0]), orderedAt: found.map((f) => f[1]), keyIds, rows: found.map((f) => f[2]) };
    },
    workTallyOf: (work) => tallyOf(tallyRows.all(`[${work.rows.join(',')}]`) as Array<[number, number]>),
    countVersions(ids) {
      const counts = new Map<string, number>();
      for (const id of new Set(ids)) {
        const row = rowOf.get(id) as number | undefined;
        if (row === undefined) continue;
        counts.set(id, Math.max(1, countSharing.get(row) as number));
      }
      return counts;
    },
  };
}
