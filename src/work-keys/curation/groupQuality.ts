/**
 * Signs that a work key joins records that are not versions of one work, for `works report`
 * (docs/curation.md): a librarian reads them to find bad groups before patrons do, and fixes them with
 * merges and splits (curationDecisions.ts). Pure: it judges counts and key texts the index hands it.
 *
 * Left to others: counting records and authors per key (the embedded index's
 * src/adapters/sqlite/groupQualityReads.ts), printing (src/cli/worksCommand.ts).
 */
import { keyKindOf, keyWordsOf } from '../workKeyKinds.js';
// The one table of collective and generic titles, which the extended profile also keys by.
import { isAuthorsCollectiveTitle, isGenericKeyTitle } from '../extended/genericTitles.js';

/** What the report knows of one key. */
export interface KeyGroup {
  readonly key: string;
  /** Records that carry it. */
  readonly records: number;
  /** Different main authors among them (normalised; records without one not counted). */
  readonly authors: number;
}

export interface GenericKeyLimits {
  /** A key joining more records than this, with at least `manyAuthors` authors, looks generic. */
  readonly largeKey: number;
  readonly manyAuthors: number;
}

/** The target: no versions list of more than 12 records built on a generic title. */
export const DEFAULT_GENERIC_KEY_LIMITS: GenericKeyLimits = { largeKey: 12, manyAuthors: 3 };

export type GenericKeySign = 'generic title' | 'selections' | 'many authors';

/** The title a key is made of: a `UT` key's text, an `AT` key's text after its author; none for others. */
export function titleOfKey(key: string): string | undefined {
  const prefix = keyKindOf(key)?.prefix;
  if (prefix === 'UT') return keyWordsOf(key);
  if (prefix === 'AT') {
    const words = keyWordsOf(key);
    const space = words.indexOf(' ');
    return space === -1 ? undefined : words.slice(space + 1);
  }
  return undefined;
}

/**
 * Why a key looks generic (none: it does not). A key a librarian made (`GL`) never does: it says what
 * the library decided.
 */
export function genericKeySigns(group: KeyGroup, limits: GenericKeyLimits = DEFAULT_GENERIC_KEY_LIMITS): GenericKeySign[] {
  const prefix = keyKindOf(group.key)?.prefix;
  if (prefix === 'GL') return [];
  const signs: GenericKeySign[] = [];
  const title = titleOfKey(group.key);
  if (title !== undefined) {
    const uniformTitle = prefix === 'UT';
    // "Contes" or "Poems" with its author is that author's work, as the extended profile keys it (a key
    // joining many authors under it is still shown, below).
    const authorsCollectiveTitle = !uniformTitle && isAuthorsCollectiveTitle(title);
    if (!authorsCollectiveTitle && isGenericKeyTitle(title, uniformTitle)) {
      signs.push('generic title');
    }
    // "Instrumental music. Selections", "Novels. Selections": a choice from a body of works, not one work.
    else if (uniformTitle && title.endsWith('selections')) {
      signs.push(isGenericKeyTitle(title.slice(0, -'selections'.length), false) ? 'generic title' : 'selections');
    }
  }
  if (group.records > limits.largeKey && group.authors >= limits.manyAuthors) signs.push('many authors');
  return signs;
}

/** Whether the key's title alone makes it look generic (the index is asked for every such key). */
export function hasGenericTitle(key: string): boolean {
  return genericKeySigns({ key, records: 0, authors: 0 }).length > 0;
}
