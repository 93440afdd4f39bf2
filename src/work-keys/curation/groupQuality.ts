/**
 * Signs that a work key joins records that are not versions of one work, for `works report`
 * (docs/curation.md): a librarian reads them to find bad groups before patrons do, and fixes them with
 * merges and splits (curationDecisions.ts). Pure: it judges counts and key texts the index hands it.
 *
 * Left to others: counting records and authors per key (the embedded index's
 * src/adapters/sqlite/groupQualityReads.ts), printing (src/cli/worksCommand.ts).
 */
import { MERGE_KEY_PREFIX } from './curationDecisions.js';

/**
 * Collective and generic titles, normalised as keys are (docs/work-keys.md): a uniform title such as
 * "Piano music" or "Works" names a kind of publication, not one work, so a key made of it joins unrelated
 * records. Several languages, as catalogues hold them.
 */
export const GENERIC_TITLES: ReadonlySet<string> = new Set([
  // English
  'works', 'selectedworks', 'completeworks', 'collectedworks', 'selections', 'novels', 'poems', 'poetry', 'letters',
  'correspondence', 'plays', 'drama', 'essays', 'stories', 'shortstories', 'speeches', 'sermons', 'prose', 'writings',
  'anthology', 'instrumentalmusic', 'vocalmusic', 'chambermusic', 'orchestramusic', 'pianomusic', 'organmusic',
  'guitarmusic', 'saxophonemusic', 'trumpetmusic', 'clarinetmusic', 'trombonemusic', 'flutemusic', 'violinmusic',
  'violoncellomusic', 'harpsichordmusic', 'percussionmusic', 'bandmusic', 'dancemusic', 'jazz', 'bigbandmusic', 'popularmusic', 'rockmusic', 'bluesmusic', 'folkmusic', 'songs', 'hymns',
  'concertos', 'concertospiano', 'concertosviolin', 'symphonies', 'sonatas', 'sonataspiano', 'quartets',
  'stringquartets', 'operas', 'overtures', 'suites', 'dances', 'marches', 'motionpicturemusic',
  // French, German, Spanish, Portuguese, Italian
  // Œ has no decomposition: "Œuvres" keys as œuvres; "Oeuvres" as oeuvres.
  'œuvres', 'œuvrescompletes', 'œuvreschoisies', 'oeuvres', 'oeuvrescompletes', 'oeuvreschoisies', 'romans', 'poesies', 'lettres', 'theatre', 'chansons',
  'werke', 'samtlichewerke', 'ausgewahltewerke', 'gedichte', 'briefe', 'romane', 'erzahlungen', 'lieder',
  'obras', 'obrascompletas', 'obrasescogidas', 'obrasselectas', 'poesias', 'cartas', 'novelas', 'cuentos', 'contos',
  'romances', 'opere', 'operecomplete', 'poesie', 'lettere', 'romanzi', 'racconti',
]);

/**
 * Plural musical forms that begin a collective uniform title ("Concertos, violoncello, orchestra",
 * "Sonatas, violin, piano"): AACR2 and RDA use the plural for a collection of one form, whatever follows.
 */
const GENERIC_TITLE_BEGINNINGS = ['concertos', 'sonatas', 'symphonies', 'quartets', 'quintets', 'trios', 'suites', 'preludes', 'etudes', 'nocturnes', 'waltzes', 'overtures'];

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
  if (key.startsWith('UT ')) return key.slice(3);
  if (key.startsWith('AT ')) {
    const space = key.indexOf(' ', 3);
    return space === -1 ? undefined : key.slice(space + 1);
  }
  return undefined;
}

/**
 * Why a key looks generic (none: it does not). A key a librarian made (`GL`) never does: it says what
 * the library decided.
 */
export function genericKeySigns(group: KeyGroup, limits: GenericKeyLimits = DEFAULT_GENERIC_KEY_LIMITS): GenericKeySign[] {
  if (group.key.startsWith(MERGE_KEY_PREFIX)) return [];
  const signs: GenericKeySign[] = [];
  const title = titleOfKey(group.key);
  if (title !== undefined) {
    if (GENERIC_TITLES.has(title) || (group.key.startsWith('UT ') && GENERIC_TITLE_BEGINNINGS.some((form) => title.startsWith(form)))) {
      signs.push('generic title');
    }
    // "Instrumental music. Selections", "Novels. Selections": a choice from a body of works, not one work.
    else if (group.key.startsWith('UT ') && title.endsWith('selections')) {
      signs.push(GENERIC_TITLES.has(title.slice(0, -'selections'.length)) ? 'generic title' : 'selections');
    }
  }
  if (group.records > limits.largeKey && group.authors >= limits.manyAuthors) signs.push('many authors');
  return signs;
}

/** Whether the key's title alone makes it look generic (the index is asked for every such key). */
export function hasGenericTitle(key: string): boolean {
  return genericKeySigns({ key, records: 0, authors: 0 }).length > 0;
}
