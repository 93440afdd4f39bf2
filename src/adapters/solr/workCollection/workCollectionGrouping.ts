/**
 * A library's grouping decisions (src/work-keys/curation/curationDecisions.ts) as a work collection keeps
 * them: the sync rewrites each document's keys with them before writing it (workCollectionSync.ts), and
 * the collection's state document records what it was last synced with, so that a run given other
 * decisions knows which records to re-key even when the core did not change them: the decisions'
 * fingerprint and the records they name. A collection keeps no decisions of its own (the file `works
 * export` wrote is where they live): a run on a curated collection must be given them again.
 */
import { createHash } from 'node:crypto';
import { InvalidOptionError } from '../../../errors.js';
import { curationRulesOf, inDecisionOrder, type CurationDecision, type CurationRules } from '../../../work-keys/curation/curationDecisions.js';

/** What the state document records of the decisions the collection's keys were written with. */
export interface RecordedGrouping {
  /** The decisions' fingerprint; absent while a change of decisions is being applied. */
  fingerprint?: string;
  /** The records whose keys the decisions may have rewritten (while a change is applied: under either). */
  records: string[];
}

/** The fingerprint of what in decisions decides keys: ids, actions and records, in decision order. */
export function groupingFingerprint(decisions: readonly CurationDecision[]): string {
  const deciding = inDecisionOrder(decisions).map(({ id, action, records }) => [id, action, records]);
  return createHash('sha256').update(JSON.stringify(deciding)).digest('hex');
}

const NO_DECISIONS = groupingFingerprint([]);

/**
 * The rules a run writes with, what the state document will record, and the records to take again from
 * the core (`retake`, sorted) because the decisions differ from the ones recorded; empty when they do not.
 * Refuses a run given no decisions on a collection synced with some (it would silently undo them).
 */
export function groupingOfRun(recorded: RecordedGrouping | undefined, decisions: readonly CurationDecision[] | undefined, collection: string): {
  rules: CurationRules; grouping: RecordedGrouping; retake: string[];
} {
  const before: RecordedGrouping = recorded ?? { fingerprint: NO_DECISIONS, records: [] };
  if (decisions === undefined && (before.fingerprint !== NO_DECISIONS || before.records.length > 0)) {
    throw new InvalidOptionError('decisions', `${collection} is kept with grouping decisions (${before.records.length} records named): give them again (--grouping FILE, as \`works export\` wrote it; a file of no decisions removes them)`);
  }
  const rules = curationRulesOf(decisions ?? []);
  const fingerprint = groupingFingerprint(decisions ?? []);
  const grouping = { fingerprint, records: [...rules.namedRecords].sort() };
  if (before.fingerprint === fingerprint) return { rules, grouping, retake: [] };
  return { rules, grouping, retake: [...new Set([...before.records, ...grouping.records])].sort() };
}
