/**
 * The kinds of work key, one table: the prefix a key starts with and the reason a page gives when two
 * records share it. `UT` and `AT` mean what VuFind means by them; `UA`, `TR`, `DOI` and `HDL` are the
 * `extended` profile's (each profile names the kinds it makes: src/work-keys/workKeyProfiles.ts); `GL` is
 * a librarian's merge (src/work-keys/curation/curationDecisions.ts), under either profile. Every key is
 * written by workKeyOf and read by keyKindOf and keyWordsOf, so a prefix is spelled here and nowhere else.
 * reasonForSharedKeys derives a version's reason from the two records' keys alone, so the index needs to
 * store nothing else.
 *
 * `UA` and `TR` keys are notes on an `AT` key with the same words: the record made that `AT` key from a
 * uniform title (`UA`) or from the original of a translation (`TR`). They join nothing the `AT` key does
 * not already join; they tell the reason.
 *
 * Left to others: making keys (extended/extendedWorkKeys.ts, workKeys.ts), showing reasons (the page).
 */

/** Why a version is listed, most telling first. */
export type VersionReason =
  | 'same-identifier'
  | 'same-author-title'
  | 'same-uniform-title'
  | 'translation'
  | 'grouped-by-library'
  | 'same-key';

export interface WorkKeyKind {
  /** The prefix, before the first space. */
  readonly prefix: string;
  /** The reason when two records share a key of this kind. */
  readonly reason: VersionReason;
  /** The kind whose key with the same words this one is a note on. */
  readonly notes?: string;
  readonly description: string;
}

const KINDS = [
  { prefix: 'UT', reason: 'same-uniform-title', description: 'a uniform title alone: `UT <title>`' },
  { prefix: 'AT', reason: 'same-author-title', description: 'an author with a title: `AT <author> <title>`' },
  { prefix: 'UA', reason: 'same-uniform-title', notes: 'AT', description: 'the AT key with the same words came from a uniform title' },
  { prefix: 'TR', reason: 'translation', notes: 'AT', description: "the AT key with the same words came from a translation's original (765, 240 $l)" },
  { prefix: 'DOI', reason: 'same-identifier', description: 'a DOI: `DOI <doi>`' },
  { prefix: 'HDL', reason: 'same-identifier', description: 'a handle: `HDL <handle>`' },
  { prefix: 'GL', reason: 'grouped-by-library', description: "a librarian's merge: `GL <decision id>` (src/work-keys/curation/curationDecisions.ts), under either profile" },
] as const satisfies readonly WorkKeyKind[];

/** A kind's prefix, as the table spells it. */
export type WorkKeyPrefix = (typeof KINDS)[number]['prefix'];

export const WORK_KEY_KINDS: readonly WorkKeyKind[] = KINDS;

const KIND_BY_PREFIX: ReadonlyMap<string, WorkKeyKind> = new Map(WORK_KEY_KINDS.map((kind) => [kind.prefix, kind]));
const REASON_ORDER: readonly VersionReason[] = [
  'same-identifier', 'grouped-by-library', 'same-author-title', 'same-uniform-title', 'translation', 'same-key',
];

/** The key of a kind with these words: `workKeyOf('AT', 'tolkienjrr hobbit')` is `AT tolkienjrr hobbit`. */
export function workKeyOf(prefix: WorkKeyPrefix, words: string): string {
  return `${prefix} ${words}`;
}

/** A key's kind (`AT tolkienjrr hobbit` → AT), or undefined for a key of no known kind (a host's own). */
export function keyKindOf(key: string): WorkKeyKind | undefined {
  const space = key.indexOf(' ');
  return space > 0 ? KIND_BY_PREFIX.get(key.slice(0, space)) : undefined;
}

/** A key's words after its kind's prefix (`AT tolkienjrr hobbit` → `tolkienjrr hobbit`); a key of no known kind whole. */
export function keyWordsOf(key: string): string {
  return keyKindOf(key) === undefined ? key : key.slice(key.indexOf(' ') + 1);
}

/**
 * Why a version is listed with the requested record, from the keys each has: the most telling reason
 * among the keys they share (a DOI before an author and title, before a uniform title, before a
 * translation). A shared `AT` key reads as a uniform title or a translation when either record notes it
 * so (`UA`/`TR` with the same words). Keys of no known kind (a host's own) give `same-key`; no shared
 * key gives undefined.
 */
export function reasonForSharedKeys(requestedKeys: readonly string[], versionKeys: readonly string[]): VersionReason | undefined {
  const versionSet = new Set(versionKeys);
  const notes = new Set<string>();
  for (const key of [...requestedKeys, ...versionKeys]) {
    const kind = keyKindOf(key);
    if (kind?.notes !== undefined) notes.add(`${kind.notes} ${keyWordsOf(key)}\u0000${kind.reason}`);
  }
  let best: VersionReason | undefined;
  for (const key of requestedKeys) {
    if (!versionSet.has(key)) continue;
    const kind = keyKindOf(key);
    // Notes are read through the key they note, not as reasons of their own.
    if (kind?.notes !== undefined) continue;
    let reason: VersionReason = kind?.reason ?? 'same-key';
    // A record notes an AT key only when its titles do not give it: the titles differ, and the note says
    // why the records are still versions; a translation says more than a uniform title.
    if (notes.has(`${key}\u0000translation`)) reason = 'translation';
    else if (notes.has(`${key}\u0000same-uniform-title`)) reason = 'same-uniform-title';
    if (best === undefined || REASON_ORDER.indexOf(reason) < REASON_ORDER.indexOf(best)) best = reason;
  }
  return best;
}
