/**
 * The embedded index's grouping decisions (src/work-keys/curation/curationDecisions.ts; docs/curation.md):
 * kept in the index file beside the records, applied to the keys of every record a load writes, and
 * applied at once to the records the index holds when a decision is taken, undone or imported.
 *
 * Two tables, made with the first decision (an index without decisions has the layout of indexTables.ts
 * alone):
 * - `grouping_decisions`: one row per decision (id, action, its records as a JSON list, who, when, why);
 * - `curated_record_keys`: for each record a decision names, its keys before the decisions rewrote them
 *   (as its document gave them, or as computed). A split takes keys away, so they could not be found
 *   again from the stored record; with them an undo gives the record back its own keys, and a later
 *   decision starts from them. A load refreshes them from the documents it writes.
 *
 * Left to others: what decisions do to keys (pure: curationDecisions.ts), the report's reads
 * (groupQualityReads.ts), the works overview's (worksOverviewReads.ts), writing records (tableWriters.ts), the writer's turn (embeddedIndex.ts).
 */
import type Database from 'better-sqlite3';
import { missingWriterMethods, type IngestWriter, type PreparedRecordDocument } from '../../ports.js';
import { withMember, writerWithDecisions } from '../../writerWithDecisions.js';
import { InvalidArgumentError, InvalidOptionError, UnknownCuratedRecordError, UnknownCurationDecisionError } from '../../errors.js';
import {
  checkCurationDecisions, curationRulesOf, inDecisionOrder, newMerge, newSplit,
  type CurationAction, type CurationDecision, type CurationRules, type DecisionAuthor,
} from '../../work-keys/curation/curationDecisions.js';
import { documentFromRow, holdsRecords, RECORD_COLUMNS, type RecordRow } from './indexTables.js';
import { groupQualityReport, type GroupQualityOptions, type GroupQualityReport } from './groupQualityReads.js';
import { openTableWriter } from './tableWriters.js';
import { worksOverview, type WorksOverview, type WorksOverviewOptions } from './worksOverviewReads.js';

const CURATION_SCHEMA = `
  CREATE TABLE IF NOT EXISTS grouping_decisions (
    id TEXT PRIMARY KEY NOT NULL,
    action TEXT NOT NULL,
    records TEXT NOT NULL,
    decided_by TEXT NOT NULL,
    decided_at TEXT NOT NULL,
    note TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS curated_record_keys (
    record_id TEXT PRIMARY KEY NOT NULL,
    keys TEXT NOT NULL
  ) WITHOUT ROWID;
`;

/** What a decision, an undo or an import did to the index. */
export interface CurationChange {
  readonly decision?: CurationDecision;
  /** Records of the index whose keys were rewritten. */
  readonly recordsRewritten: number;
}

/** An index's grouping decisions and the operations on them. */
export interface WorkCuration {
  /** Every decision, in the order taken. */
  decisions(): CurationDecision[];
  /** Merges records the index holds (UnknownCuratedRecordError names those it does not). */
  merge(recordIds: readonly string[], author: DecisionAuthor): Promise<CurationChange>;
  /** Splits a record the index holds from its group. */
  split(recordId: string, author: DecisionAuthor): Promise<CurationChange>;
  /** Takes a decision back (UnknownCurationDecisionError for an id not kept). */
  undo(decisionId: string): Promise<CurationChange>;
  /** Replaces every decision with these (an import); records they name need not be in the index yet. */
  replaceAll(decisions: readonly CurationDecision[]): Promise<CurationChange>;
  /** What the index's groups look like (`works report`). */
  report(options?: GroupQualityOptions): GroupQualityReport;
  /** How the index's records fall into works: how many, the largest, a few records alone (worksOverviewReads.ts). */
  overview(options?: WorksOverviewOptions): WorksOverview;
  /**
   * The writer with the decisions applied to the keys of the documents it is given: read once, now.
   * The ingest pipeline calls its `curateWorkKeys` for each document before writing it.
   */
  curating(writer: IngestWriter): IngestWriter;
}

interface DecisionRow {
  id: string; action: string; records: string; decided_by: string; decided_at: string; note: string;
}

/**
 * The decisions of an index's connection. `written` is called after records were rewritten (so kept
 * answers are dropped). Rewriting records here does not wait for a load of this connection to end: the
 * command runs in a process of its own.
 */
export function workCurationOn(db: Database.Database, readOnly: boolean, written: () => void): WorkCuration {
  const hasTables = () => db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'grouping_decisions'").get() !== undefined;
  /** Before a change: refuses a read-only index, makes the tables. */
  const readyToChange = () => {
    if (readOnly) throw new InvalidOptionError('readOnly', 'this index was opened read-only: grouping decisions cannot be changed');
    db.exec(CURATION_SCHEMA);
  };

  const decisions = (): CurationDecision[] => {
    if (!hasTables()) return [];
    const rows = db.prepare<[], DecisionRow>('SELECT id, action, records, decided_by, decided_at, note FROM grouping_decisions').all();
    return inDecisionOrder(rows.map((row) => ({
      id: row.id, action: row.action as CurationAction, records: JSON.parse(row.records) as string[], by: row.decided_by, at: row.decided_at, note: row.note,
    })));
  };

  const saveDecision = (decision: CurationDecision) => {
    db.prepare('INSERT INTO grouping_decisions (id, action, records, decided_by, decided_at, note) VALUES (?, ?, ?, ?, ?, ?)')
      .run(decision.id, decision.action, JSON.stringify(decision.records), decision.by, decision.at, decision.note);
  };

  const saveOriginals = (originals: ReadonlyMap<string, readonly string[]>) => {
    const save = db.prepare<[string, string]>('INSERT OR REPLACE INTO curated_record_keys (record_id, keys) VALUES (?, ?)');
    db.transaction(() => {
      for (const [id, keys] of originals) save.run(id, JSON.stringify(keys));
    })();
  };

  const heldIds = (ids: readonly string[]): Set<string> =>
    new Set(db.prepare<[string], string>('SELECT id FROM records WHERE id IN (SELECT value FROM json_each(?))').pluck().all(JSON.stringify(ids)));

  const requireHeld = (ids: readonly string[]) => {
    const held = heldIds(ids);
    const missing = ids.filter((id) => !held.has(id));
    if (missing.length > 0) throw new UnknownCuratedRecordError(missing);
  };

  /**
   * Gives these records of the index the keys the decisions now say, from their own keys: those kept
   * in curated_record_keys, else (never named before) the keys they have.
   */
  const rewriteRecords = async (recordIds: Iterable<string>, rules: CurationRules): Promise<number> => {
    const ids = [...new Set(recordIds)];
    if (ids.length === 0 || !holdsRecords(db)) return 0;
    const rows = db.prepare<[string], RecordRow>(`SELECT ${RECORD_COLUMNS} FROM records AS r WHERE r.id IN (SELECT value FROM json_each(?))`).all(JSON.stringify(ids));
    const kept = new Map(db.prepare<[string], { record_id: string; keys: string }>(
      'SELECT record_id, keys FROM curated_record_keys WHERE record_id IN (SELECT value FROM json_each(?))').all(JSON.stringify(ids))
      .map((row) => [row.record_id, JSON.parse(row.keys) as string[]]));
    const originals = new Map<string, string[]>();
    const released: string[] = [];
    const documents: PreparedRecordDocument[] = rows.map((row) => {
      const document = documentFromRow(row);
      const own = kept.get(row.id) ?? document.work_keys_str_mv;
      if (rules.names(row.id)) originals.set(row.id, own);
      else released.push(row.id);
      return { ...document, work_keys_str_mv: rules.curatedKeysOf(row.id, own) };
    });
    const writer = openTableWriter(db);
    try {
      await writer.put(documents);
    } finally {
      await writer.close();
      written();
    }
    saveOriginals(originals);
    const forget = db.prepare<[string]>('DELETE FROM curated_record_keys WHERE record_id = ?');
    db.transaction(() => {
      for (const id of released) forget.run(id);
    })();
    return documents.length;
  };

  const decide = async (decision: CurationDecision, all: readonly CurationDecision[]): Promise<CurationChange> => {
    saveDecision(decision);
    const recordsRewritten = await rewriteRecords(decision.records, curationRulesOf([...all, decision]));
    return { decision, recordsRewritten };
  };

  return {
    decisions,

    async merge(recordIds, author) {
      if (!Array.isArray(recordIds) || !recordIds.every((id) => typeof id === 'string') || new Set(recordIds).size < 2) {
        throw new InvalidArgumentError('curation.merge', 'recordIds', 'a list of at least two different record ids (strings)', recordIds);
      }
      checkAuthor('curation.merge', author);
      readyToChange();
      const all = decisions();
      const decision = newMerge(recordIds, author, all);
      requireHeld(decision.records);
      return decide(decision, all);
    },

    async split(recordId, author) {
      if (typeof recordId !== 'string' || recordId === '') throw new InvalidArgumentError('curation.split', 'recordId', 'a record id (a non-empty string)', recordId);
      checkAuthor('curation.split', author);
      readyToChange();
      const all = decisions();
      const decision = newSplit(recordId, author, all);
      requireHeld(decision.records);
      return decide(decision, all);
    },

    async undo(decisionId) {
      if (typeof decisionId !== 'string') throw new InvalidArgumentError('curation.undo', 'decisionId', 'a decision id such as m1 or s2 (a string)', decisionId);
      readyToChange();
      const all = decisions();
      const decision = all.find((d) => d.id === decisionId);
      if (decision === undefined) throw new UnknownCurationDecisionError(decisionId);
      db.prepare('DELETE FROM grouping_decisions WHERE id = ?').run(decisionId);
      const recordsRewritten = await rewriteRecords(decision.records, curationRulesOf(all.filter((d) => d !== decision)));
      return { decision, recordsRewritten };
    },

    async replaceAll(imported) {
      checkCurationDecisions(imported, 'curation.replaceAll');
      readyToChange();
      const before = decisions();
      db.transaction(() => {
        db.exec('DELETE FROM grouping_decisions');
        for (const decision of imported) saveDecision(decision);
      })();
      const rules = curationRulesOf(imported);
      const touched = [...curationRulesOf(before).namedRecords, ...rules.namedRecords];
      return { recordsRewritten: await rewriteRecords(touched, rules) };
    },

    report(options) {
      checkReportOptions(options);
      return groupQualityReport(db, options);
    },

    overview(options) {
      const top = (options as Partial<WorksOverviewOptions> | undefined)?.top;
      if (options !== undefined && (typeof options !== 'object' || options === null || (top !== undefined && (!Number.isSafeInteger(top) || top < 0)))) {
        throw new InvalidArgumentError('curation.overview', 'options', 'an object ({ top: a whole number >= 0 })', options);
      }
      return worksOverview(db, options);
    },

    curating(writer) {
      const missing = missingWriterMethods(writer);
      if (missing.length > 0) throw new InvalidArgumentError('curation.curating', 'writer', `an IngestWriter (it has no ${missing.join(', ')})`, writer);
      if (readOnly) return writer;
      const originals = new Map<string, readonly string[]>();
      const curated = writerWithDecisions(writer, decisions(), (id, own) => originals.set(id, own));
      if (curated === writer) return writer;
      return withMember(curated, 'close', async () => {
        try {
          await writer.close();
        } finally {
          // Kept even after a failed load: a record written with rewritten keys must find its own again.
          if (originals.size > 0) saveOriginals(originals);
        }
      });
    },
  };
}

/** Who, when and why, as every new decision carries them: refused, naming the operation, when not. */
function checkAuthor(functionName: string, author: unknown): asserts author is DecisionAuthor {
  const given = author as Partial<DecisionAuthor> | null | undefined;
  if (typeof given !== 'object' || given === null || typeof given.by !== 'string' || !(given.at instanceof Date) || Number.isNaN(given.at.getTime())
    || typeof given.note !== 'string' || given.note.trim() === '') {
    throw new InvalidArgumentError(functionName, 'author', 'who, when and why ({ by, at: a Date, note: a non-empty string })', author);
  }
}

function checkReportOptions(options: unknown): asserts options is GroupQualityOptions | undefined {
  if (options === undefined) return;
  const given = options as Partial<GroupQualityOptions> | null;
  const limits = given?.limits as Partial<Record<string, unknown>> | undefined;
  if (typeof given !== 'object' || given === null || Buffer.isBuffer(given) || Array.isArray(given)
    || (given.top !== undefined && (!Number.isSafeInteger(given.top) || given.top < 0))
    || (limits !== undefined && (typeof limits !== 'object' || limits === null || !Number.isFinite(limits.largeKey) || !Number.isFinite(limits.manyAuthors)))) {
    throw new InvalidArgumentError('curation.report', 'options', 'an object ({ top: a whole number >= 0, limits: { largeKey, manyAuthors } })', options);
  }
}
