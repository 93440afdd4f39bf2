/**
 * How well work keys group a library's records, measured against its own labels (which records are one
 * work): pairwise and B-cubed precision, recall and F1, and the wrong groups and missed pairs behind the
 * figures, for `catalog-versions works evaluate` (docs/curation.md#measuring-grouping) and tools/grouping/.
 * Pure: records with their keys and the labels in, figures out.
 *
 * A record's versions are as the page lists them: the record and every record sharing a key with it, not
 * the transitive closure. Over the labelled records only (records without a label are left out and
 * counted, so are labels naming no record):
 * - a linked pair is two records sharing a key (counted once however many keys they share);
 * - pairwise precision = linked pairs of one work / linked pairs; recall = linked pairs of one work /
 *   pairs of one work in the labels;
 * - B-cubed, for each record r, L = r and the records linked to it, G = the records of r's work:
 *   precision = mean of |L∩G|/|L|, recall = mean of |L∩G|/|G|;
 * - each F1 is the harmonic mean of its precision and recall.
 * A ratio over nothing (no linked pairs, no pairs in the labels, no labelled record) is undefined,
 * printed "n/a": no pair to get wrong is not a perfect score. An F1 is undefined when either of its two
 * is, and 0 when both are 0.
 *
 * Linked pairs come from a key → records index, one versions list per distinct set of keys (records with
 * the same keys list the same records), so a sample of 50,000 records is not compared pair by pair.
 * A record id given twice keeps the last record, as a load does.
 */

/** A record as scored: its id, its work keys, and a title to show. */
export interface ScoredRecord {
  readonly id: string;
  readonly keys: readonly string[];
  readonly title?: string | undefined;
}

export interface PairwiseScores {
  /** Pairs of labelled records sharing a key. */
  readonly linkedPairs: number;
  /** Linked pairs whose two records have one label. */
  readonly rightPairs: number;
  /** Pairs of labelled records with one label. */
  readonly labelPairs: number;
  /** Undefined when there is no linked pair. */
  readonly precision: number | undefined;
  /** Undefined when no two records share a label. */
  readonly recall: number | undefined;
  readonly f1: number | undefined;
}

/** Undefined when no labelled record was scored. */
export interface BCubedScores {
  readonly precision: number | undefined;
  readonly recall: number | undefined;
  readonly f1: number | undefined;
}

/** A labelled record, for the lists of what went wrong. */
export interface LabelledRecord {
  readonly id: string;
  readonly title: string | undefined;
  readonly work: string;
}

/** A record of another work in a wrong group, and the keys it shares with the group's record. */
export interface WronglyListed extends LabelledRecord {
  readonly joinedBy: readonly string[];
}

/** A record whose versions list holds records of other works. */
export interface WrongGroup {
  readonly record: LabelledRecord;
  /** Records its list holds, itself included. */
  readonly listed: number;
  /** The records of other works in it, by work then id. */
  readonly others: readonly WronglyListed[];
}

/** A record of a work whose records are not all listed together. */
export interface SplitRecord extends LabelledRecord {
  readonly keys: readonly string[];
  /** Records of its work its versions list leaves out. */
  readonly notListed: number;
}

/** A work whose records do not all list each other. */
export interface SplitWork {
  readonly work: string;
  /** Pairs of its records that share no key. */
  readonly missedPairs: number;
  /** Every record of the work, those missing most of their work first. */
  readonly records: readonly SplitRecord[];
}

export interface GroupingEvaluation {
  /** Records with a label, scored. */
  readonly scoredRecords: number;
  /** Different labels among them. */
  readonly works: number;
  /** Records without a label: left out. */
  readonly unlabelledRecords: number;
  /** Label ids no record has, in the labels' order. */
  readonly labelsWithoutRecord: readonly string[];
  readonly pairwise: PairwiseScores;
  readonly bCubed: BCubedScores;
  /**
   * The largest wrong groups, most records of other works first; a record whose wrong records were all
   * joined by keys of the rows before it is left out, so that each row shows another key at fault.
   */
  readonly wrongGroups: readonly WrongGroup[];
  /** The works with most missed pairs. */
  readonly splitWorks: readonly SplitWork[];
}

export interface GroupingEvaluationOptions {
  /** Rows of wrongGroups and splitWorks (default 10). */
  readonly top?: number;
}

/** A ratio, undefined over nothing. */
function ratio(part: number, whole: number): number | undefined {
  return whole === 0 ? undefined : part / whole;
}

/** The harmonic mean of precision and recall: undefined if either is, 0 when both are 0. */
export function f1Of(precision: number | undefined, recall: number | undefined): number | undefined {
  if (precision === undefined || recall === undefined) return undefined;
  return precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
}

/**
 * A score to three decimals, "n/a" when undefined. A value exactly halfway (odd sixteenths: 0.8125) goes
 * to the even digit, as C's printf and Python print it, so the figures match an independent scorer's.
 */
export function scoreText(score: number | undefined): string {
  if (score === undefined) return 'n/a';
  const thousandths = score * 1000;
  const below = Math.floor(thousandths);
  if (thousandths - below === 0.5) return ((below % 2 === 0 ? below : below + 1) / 1000).toFixed(3);
  return score.toFixed(3);
}

const pairsOf = (n: number) => (n * (n - 1)) / 2;

/** Scores the records' keys against the labels (record id → work). */
export function evaluateGrouping(
  records: Iterable<ScoredRecord>, labels: ReadonlyMap<string, string>, options: GroupingEvaluationOptions = {},
): GroupingEvaluation {
  const top = options.top ?? 10;
  const byId = new Map<string, ScoredRecord>();
  for (const record of records) byId.set(record.id, record);

  // The labelled records, numbered; their works numbered too, for counting in arrays.
  const scored: Array<{ id: string; title: string | undefined; keys: string[]; work: string }> = [];
  const workNumbers = new Map<string, number>();
  const workOf: number[] = [];
  let unlabelledRecords = 0;
  for (const record of byId.values()) {
    const work = labels.get(record.id);
    if (work === undefined) {
      unlabelledRecords++;
      continue;
    }
    let number = workNumbers.get(work);
    if (number === undefined) workNumbers.set(work, (number = workNumbers.size));
    workOf.push(number);
    scored.push({ id: record.id, title: record.title, keys: [...new Set(record.keys)], work });
  }
  const labelsWithoutRecord = [...labels.keys()].filter((id) => !byId.has(id));
  const workSizes = new Array<number>(workNumbers.size).fill(0);
  for (const work of workOf) workSizes[work]!++;

  const holdersOf = new Map<string, number[]>();
  const sameKeys = new Map<string, number[]>();
  scored.forEach((record, i) => {
    for (const key of record.keys) {
      const holders = holdersOf.get(key);
      if (holders === undefined) holdersOf.set(key, [i]);
      else holders.push(i);
    }
    const signature = [...record.keys].sort().join('\n');
    const alike = sameKeys.get(signature);
    if (alike === undefined) sameKeys.set(signature, [i]);
    else alike.push(i);
  });

  // For each record: how many records its list holds (itself included), and how many of them are of its work.
  const listed = new Array<number>(scored.length).fill(1);
  const ofItsWork = new Array<number>(scored.length).fill(1);
  const seenIn = new Int32Array(scored.length).fill(-1);
  const countOfWork = new Int32Array(workNumbers.size);
  let listNumber = 0;
  for (const alike of sameKeys.values()) {
    const keys = scored[alike[0]!]!.keys;
    if (keys.length === 0) continue;
    const members: number[] = [];
    for (const key of keys) {
      for (const holder of holdersOf.get(key)!) {
        if (seenIn[holder] === listNumber) continue;
        seenIn[holder] = listNumber;
        members.push(holder);
        countOfWork[workOf[holder]!]!++;
      }
    }
    for (const i of alike) {
      listed[i] = members.length;
      ofItsWork[i] = countOfWork[workOf[i]!]!;
    }
    for (const member of members) countOfWork[workOf[member]!] = 0;
    listNumber++;
  }

  let linkedEnds = 0;
  let rightEnds = 0;
  let precisionSum = 0;
  let recallSum = 0;
  for (let i = 0; i < scored.length; i++) {
    linkedEnds += listed[i]! - 1;
    rightEnds += ofItsWork[i]! - 1;
    precisionSum += ofItsWork[i]! / listed[i]!;
    recallSum += ofItsWork[i]! / workSizes[workOf[i]!]!;
  }
  const linkedPairs = linkedEnds / 2;
  const rightPairs = rightEnds / 2;
  const labelPairs = workSizes.reduce((sum, size) => sum + pairsOf(size), 0);
  const pairwisePrecision = ratio(rightPairs, linkedPairs);
  const pairwiseRecall = ratio(rightPairs, labelPairs);
  const bPrecision = ratio(precisionSum, scored.length);
  const bRecall = ratio(recallSum, scored.length);

  const labelled = (i: number): LabelledRecord => ({ id: scored[i]!.id, title: scored[i]!.title, work: scored[i]!.work });

  // Wrong groups: records listing the most records of other works. A record whose wrong records were all
  // joined by keys an earlier row showed is not shown: each row names another key at fault.
  const wrongGroups: WrongGroup[] = [];
  const wrong = scored.map((_, i) => i).filter((i) => listed[i]! > ofItsWork[i]!)
    .sort((a, b) => (listed[b]! - ofItsWork[b]!) - (listed[a]! - ofItsWork[a]!) || listed[b]! - listed[a]! || compareText(scored[a]!.id, scored[b]!.id));
  const keysShown = new Set<string>();
  for (const i of wrong) {
    if (wrongGroups.length >= top) break;
    const showsAnotherFault = scored[i]!.keys.some((key) => !keysShown.has(key) && holdersOf.get(key)!.some((holder) => workOf[holder] !== workOf[i]));
    if (!showsAnotherFault) continue;
    const joinedBy = new Map<number, string[]>();
    for (const key of scored[i]!.keys) {
      for (const holder of holdersOf.get(key)!) {
        if (workOf[holder] === workOf[i]) continue;
        keysShown.add(key);
        const keys = joinedBy.get(holder);
        if (keys === undefined) joinedBy.set(holder, [key]);
        else keys.push(key);
      }
    }
    const others = [...joinedBy].map(([other, keys]) => ({ ...labelled(other), joinedBy: keys }))
      .sort((a, b) => compareText(a.work, b.work) || compareText(a.id, b.id));
    wrongGroups.push({ record: labelled(i), listed: listed[i]!, others });
  }

  // Split works: a work's pairs of one label minus the linked ones among them.
  const recordsOfWork: number[][] = workSizes.map(() => []);
  scored.forEach((_, i) => recordsOfWork[workOf[i]!]!.push(i));
  const splitWorks = recordsOfWork.map((members) => {
    const linked = members.reduce((sum, i) => sum + ofItsWork[i]! - 1, 0) / 2;
    return { members, missedPairs: pairsOf(members.length) - linked };
  }).filter((work) => work.missedPairs > 0)
    .sort((a, b) => b.missedPairs - a.missedPairs || b.members.length - a.members.length || compareText(scored[a.members[0]!]!.work, scored[b.members[0]!]!.work))
    .slice(0, top)
    .map(({ members, missedPairs }): SplitWork => ({
      work: scored[members[0]!]!.work,
      missedPairs,
      records: members.map((i) => ({ ...labelled(i), keys: scored[i]!.keys, notListed: members.length - ofItsWork[i]! }))
        .sort((a, b) => b.notListed - a.notListed || compareText(a.id, b.id)),
    }));

  return {
    scoredRecords: scored.length,
    works: workNumbers.size,
    unlabelledRecords,
    labelsWithoutRecord,
    pairwise: { linkedPairs, rightPairs, labelPairs, precision: pairwisePrecision, recall: pairwiseRecall, f1: f1Of(pairwisePrecision, pairwiseRecall) },
    bCubed: { precision: bPrecision, recall: bRecall, f1: f1Of(bPrecision, bRecall) },
    wrongGroups,
    splitWorks,
  };
}

/** Code-point order, the same on every machine (not the locale's). */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
