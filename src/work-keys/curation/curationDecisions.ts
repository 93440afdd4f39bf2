/**
 * A library's corrections of work grouping, as Aspen Discovery's "merged grouped works" and "records not
 * to group" are: decisions a librarian takes on named records, and the rewrite of a record's work keys
 * they imply (docs/curation.md).
 *
 * - A **merge** of records A, B, C gives each of them one more key of its own kind, `GL <decision id>`
 *   ("grouped by the library"), so they list each other whatever their computed keys say.
 * - A **split** of record X takes away X's own keys and leaves it only the `GL` keys of the merges that
 *   name it: it leaves its group and is listed only with what it is merged with (by default, only itself).
 *
 * The rewrite is a pure function of a record's id, its keys as computed (or carried by its document) and
 * the decisions, so every index and every load gives the same keys, and the versions query needs no
 * change. Every decision says who took it, when and why; the clock and the user are arguments.
 *
 * Left to others: keeping decisions and applying them at load time (the embedded index's
 * src/adapters/sqlite/curationTable.ts), the decisions file (curationFile.ts), the command
 * (src/cli/worksCommand.ts).
 */
import { InvalidArgumentError } from '../../errors.js';
import { workKeyOf } from '../workKeyKinds.js';
import { DistinctStrings } from '../../distinctStrings.js';

export type CurationAction = 'merge' | 'split';

/** One decision of a librarian. */
export interface CurationDecision {
  /** `m<n>` for a merge, `s<n>` for a split; n counts every decision of the index. */
  readonly id: string;
  readonly action: CurationAction;
  /** The records it names: two or more for a merge, one for a split. */
  readonly records: readonly string[];
  /** Who took it (a user name). */
  readonly by: string;
  /** When, an ISO 8601 instant. */
  readonly at: string;
  /** Why, in the librarian's words. */
  readonly note: string;
}

/** Who, when and why: what every new decision carries besides its records. */
export interface DecisionAuthor {
  readonly by: string;
  readonly at: Date;
  readonly note: string;
}

/** The key a merge gives each record it names, of the kind `GL`: "grouped by the library". */
export function mergeKeyOf(decisionId: string): string {
  return workKeyOf('GL', decisionId);
}

/** What a record's keys become under a set of decisions; built once per load. */
export interface CurationRules {
  /** Whether any decision names this record (so its keys change). */
  names(recordId: string): boolean;
  /** Every record some decision names. */
  readonly namedRecords: ReadonlySet<string>;
  /** The record's keys under the decisions: its own keys (unless split), then its merge keys. */
  curatedKeysOf(recordId: string, keys: readonly string[]): string[];
}

export function curationRulesOf(decisions: readonly CurationDecision[]): CurationRules {
  const mergeKeys = new Map<string, string[]>();
  const split = new Set<string>();
  for (const decision of decisions) {
    for (const record of decision.records) {
      if (decision.action === 'split') {
        split.add(record);
      } else {
        const keys = mergeKeys.get(record) ?? [];
        keys.push(mergeKeyOf(decision.id));
        mergeKeys.set(record, keys);
      }
    }
  }
  const namedRecords = new Set([...mergeKeys.keys(), ...split]);
  return {
    namedRecords,
    names: (recordId) => namedRecords.has(recordId),
    curatedKeysOf(recordId, keys) {
      if (!namedRecords.has(recordId)) return [...keys];
      const curated = new DistinctStrings();
      if (!split.has(recordId)) for (const key of keys) curated.add(key);
      for (const key of mergeKeys.get(recordId) ?? []) curated.add(key);
      return curated.values;
    },
  };
}

/**
 * Refuses what is not a list of decisions (as `decisions()` or decisionsFromCurationFile give them),
 * naming the function called. The shape only: the file reader checks each field's content.
 */
export function checkCurationDecisions(decisions: unknown, functionName: string): asserts decisions is readonly CurationDecision[] {
  const wellFormed = Array.isArray(decisions) && decisions.every((decision: Partial<CurationDecision> | null) =>
    typeof decision === 'object' && decision !== null && typeof decision.id === 'string'
    && (decision.action === 'merge' || decision.action === 'split') && Array.isArray(decision.records));
  if (!wellFormed) {
    throw new InvalidArgumentError(functionName, 'decisions', 'a list of grouping decisions ({ id, action, records, by, at, note })', decisions);
  }
}

/** The number of a decision id (`m12` → 12), or undefined for an id not of that form. */
function decisionNumberOf(id: string): number | undefined {
  const match = /^[ms]([1-9]\d*)$/.exec(id);
  return match === null ? undefined : Number(match[1]);
}

/** Whether an id has the form decisions are given (`m` or `s` and a number). */
export function isDecisionId(id: string, action: CurationAction): boolean {
  return id.startsWith(action === 'merge' ? 'm' : 's') && decisionNumberOf(id) !== undefined;
}

/** The id the next decision gets: one more than the highest number given so far. */
export function nextDecisionId(action: CurationAction, decisions: readonly CurationDecision[]): string {
  let highest = 0;
  for (const decision of decisions) highest = Math.max(highest, decisionNumberOf(decision.id) ?? 0);
  return `${action === 'merge' ? 'm' : 's'}${highest + 1}`;
}

/**
 * A new merge of these records. Throws RangeError for fewer than two distinct ids or an empty note: the
 * command checks both before, with its own words.
 */
export function newMerge(recordIds: readonly string[], author: DecisionAuthor, decisions: readonly CurationDecision[]): CurationDecision {
  const records = [...new Set(recordIds)];
  if (records.length < 2) throw new RangeError('a merge names at least two different records');
  return newDecision('merge', records, author, decisions);
}

/** A new split of this record. */
export function newSplit(recordId: string, author: DecisionAuthor, decisions: readonly CurationDecision[]): CurationDecision {
  return newDecision('split', [recordId], author, decisions);
}

function newDecision(action: CurationAction, records: string[], author: DecisionAuthor, decisions: readonly CurationDecision[]): CurationDecision {
  if (author.note.trim() === '') throw new RangeError('a decision needs a note saying why');
  return { id: nextDecisionId(action, decisions), action, records, by: author.by, at: author.at.toISOString(), note: author.note.trim() };
}

/** Decisions in their stable order: by number, as they were taken. */
export function inDecisionOrder(decisions: readonly CurationDecision[]): CurationDecision[] {
  return [...decisions].sort((a, b) => (decisionNumberOf(a.id) ?? 0) - (decisionNumberOf(b.id) ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
