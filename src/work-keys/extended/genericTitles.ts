/**
 * Titles that name no one work: collective uniform titles (`Works`, `Selections`, `Poems`, `Œuvres`,
 * `Werke`, `Obras`, `Instrumental music`, `Jazz`), music form titles with no more than a medium
 * (`Concertos, piano`), and anything said to be a selection (`$k Selections`, `Auswahl`). A key made of
 * one joins different works: the jazz file's `Instrumental music. Selections.` joined 38 albums of
 * different players. One table, several languages, compared in normalised form.
 *
 * Music form titles with a number, opus or key (`Concertos, piano, no. 1, op. 23, B flat minor`) name one
 * work only with their composer: isFormTitle tells the rules to key them with the main author only.
 *
 * The one table of them: the extended profile leaves such titles out of its keys (isGenericTitle, on a
 * title as catalogued), and `works report` flags keys already made of one (isGenericKeyTitle, on a key's
 * normalised title; src/work-keys/curation/groupQuality.ts).
 *
 * Left to others: deciding what to do with a generic title (extendedWorkKeys.ts, groupQuality.ts).
 */
import { keyOfLatinBlocksPart, normaliseForWorkKey } from '../workKeys.js';

/** Collective titles, in several languages, as they stand before any `. Selections` or medium. */
const COLLECTIVE_TITLES = [
  // English (AACR2 and RDA conventional collective titles, and the genre terms catalogues use as such)
  'works', 'selections', 'selected works', 'complete works', 'collected works', 'novels', 'poems', 'selected poems',
  'collected poems', 'complete poems', 'poetry', 'letters', 'correspondence', 'plays', 'dramatic works', 'essays',
  'stories', 'short stories', 'selected stories', 'collected stories', 'tales', 'prose works', 'writings',
  'selected writings', 'speeches', 'sermons', 'songs', 'hymns', 'carols', 'folk songs', 'spirituals', 'jazz', 'blues',
  'anthology', 'greatest hits', 'best of', 'hits', 'the best', 'choruses', 'libretti', 'operas', 'musicals',
  'selected essays', 'collected essays', 'complete stories', 'complete short stories', 'collected short stories',
  'selected short stories', 'complete plays', 'collected plays', 'selected plays', 'selected letters',
  'collected letters', 'selected prose', 'complete novels', 'major works', 'tragedies', 'comedies', 'histories',
  'novellas', 'complete poetry', 'collected poetry', 'selected poetry', 'drama', 'prose',
  // French
  'œuvres', 'oeuvres', 'œuvres complètes', 'oeuvres complètes', 'œuvres choisies', 'poésies', 'poèmes', 'lettres',
  'correspondance', 'théâtre', 'romans', 'contes', 'fables', 'nouvelles', 'essais', 'chansons', 'morceaux choisis', 'choix',
  // German
  'werke', 'sämtliche werke', 'gesammelte werke', 'ausgewählte werke', 'gedichte', 'briefe', 'dramen', 'romane',
  'erzählungen', 'novellen', 'schriften', 'aufsätze', 'lieder', 'auswahl',
  // Spanish and Portuguese
  'obras', 'obras completas', 'obras escogidas', 'obras escolhidas', 'obra completa', 'poesías', 'poemas', 'poesia',
  'cartas', 'teatro', 'novelas', 'romances', 'cuentos', 'contos', 'ensayos', 'ensaios', 'crónicas', 'crônicas',
  'canciones', 'canções', 'selección', 'seleção', 'antología', 'antologia', 'obras selectas',
  // Italian, Dutch, Scandinavian
  'opere', 'tutte le opere', 'opere complete', 'poesie', 'lettere', 'racconti', 'saggi', 'romanzi', 'canzoni', 'werken', 'gedichten',
  'brieven', 'verhalen', 'verker', 'værker', 'samlade verk', 'samlede verker', 'dikter', 'digte', 'noveller', 'brev',
].map(normaliseForWorkKey);
const COLLECTIVE = new Set(COLLECTIVE_TITLES);

/**
 * `<medium> music`: the collective title of a composer's or a player's music for a medium. A list, not a
 * pattern, so that works named "… music" (`Water music`, `The sound of music`) stay works.
 */
const MEDIUM_MUSIC = new Set([
  ...[
    'instrumental', 'piano', 'organ', 'harpsichord', 'keyboard', 'guitar', 'lute', 'harp', 'violin', 'viola',
    'violoncello', 'cello', 'double bass', 'flute', 'recorder', 'oboe', 'clarinet', 'bassoon', 'saxophone',
    'trumpet', 'horn', 'trombone', 'tuba', 'percussion', 'accordion', 'band', 'big band', 'brass band', 'wind',
    'string', 'chamber', 'orchestral', 'orchestra', 'vocal', 'choral', 'sacred', 'sacred vocal', 'church',
    'dance', 'popular', 'folk', 'jazz', 'rock', 'blues', 'electronic', 'computer', 'incidental', 'film', 'motion picture',
    'television', 'radio', 'teaching', 'brass', 'woodwind', 'string quartet', 'piano trio', 'ensemble',
  ].map((medium) => `${medium} music`),
  'klaviermusik', 'orgelmusik', 'kammermusik', 'musique de chambre', 'musique pour piano', 'música para piano',
  'música de cámara', 'música instrumental', 'musica per pianoforte',
].map(normaliseForWorkKey));

/** Music forms as uniform titles name them (plural, the way a collective form title is written). */
const MUSIC_FORMS = new Set([
  'concertos', 'concerti grossi', 'concertinos', 'sonatas', 'sonatinas', 'symphonies', 'sinfonias', 'quartets',
  'quintets', 'sextets', 'septets', 'octets', 'nonets', 'trios', 'duets', 'duos', 'suites', 'variations', 'preludes',
  'préludes', 'etudes', 'études', 'nocturnes', 'waltzes', 'mazurkas', 'polonaises', 'fugues', 'fantasias',
  'fantasies', 'overtures', 'serenades', 'scherzos', 'rhapsodies', 'ballades', 'impromptus', 'divertimenti',
  'divertimentos', 'masses', 'motets', 'cantatas', 'partitas', 'dances', 'marches', 'inventions', 'toccatas',
  'minuets', 'rondos', 'canons', 'chorale preludes', 'madrigals', 'arias', 'pieces', 'intermezzos', 'caprices',
  'capriccios', 'romances', 'songs', 'lieder', 'symphonic poems', 'tangos', 'nocturnos', 'sonates', 'konzerte',
  'string quartets', 'operas',
].map(normaliseForWorkKey));

/**
 * Forms whose plural AACR2 and RDA write only as a collective form title, whatever follows ("Concertos,
 * violoncello, orchestra", "Sonatas, violin, piano"): a uniform title's key that begins with one names a
 * kind of music. Not every form: `Songs of innocence` is a work.
 */
const COLLECTIVE_FORM_BEGINNINGS = [
  'concertos', 'sonatas', 'symphonies', 'quartets', 'quintets', 'trios', 'suites', 'preludes', 'etudes', 'nocturnes', 'waltzes', 'overtures',
].map(normaliseForWorkKey);

/**
 * Collective titles of one kind of writing ("Contes", "Fables", "Poèmes", "Lettres", "Poems", "Tales"):
 * with the main entry's author such a title is that author's work in the catalogues' practice (Perrault's
 * "Contes", La Fontaine's "Fables"), which experts file as one work whatever the edition. Not music's
 * ("Songs", "Instrumental music", "Jazz"): one performer's compilations are different albums. Not "Works"
 * or "Selections", which say nothing of what is collected.
 */
const AUTHORS_COLLECTIVE_TITLES = new Set([
  'poems', 'poetry', 'letters', 'correspondence', 'plays', 'essays', 'stories', 'short stories', 'tales', 'fables',
  'fairy tales', 'novels', 'novellas', 'tragedies', 'comedies', 'sonnets', 'odes', 'satires', 'maxims', 'thoughts',
  'contes', 'fables', 'poèmes', 'poésies', 'lettres', 'correspondance', 'nouvelles', 'essais', 'romans', 'théâtre',
  'comédies', 'tragédies', 'pensées', 'maximes', 'satires', 'odes', 'sonnets', 'contes et nouvelles',
  'gedichte', 'briefe', 'erzählungen', 'novellen', 'märchen', 'dramen', 'fabeln', 'balladen',
  'poemas', 'poesías', 'cartas', 'cuentos', 'contos', 'fábulas', 'novelas', 'ensayos', 'ensaios', 'sonetos',
  'poesie', 'lettere', 'racconti', 'favole', 'novelle', 'saggi', 'rime',
].map(normaliseForWorkKey));

/**
 * A collective title of one kind of writing (AUTHORS_COLLECTIVE_TITLES), given its key: keyed with the
 * main entry's author, never alone or with an added entry only.
 */
export function isAuthorsCollectiveTitle(textKey: string): boolean {
  return AUTHORS_COLLECTIVE_TITLES.has(textKey);
}

/**
 * A statement that the book is a selection or extracts of what its title names, and no more: "Contes :
 * choix", "Lettres de mon moulin : extraits", "Poems : selections", "Les fleurs du mal : choix de
 * poèmes". Unlike "selected stories" or "the complete novels", it names no other collection, so the title
 * proper still names the work.
 */
export function isSelectionStatement(text: string): boolean {
  const key = normaliseForWorkKey(text);
  return SELECTION_STATEMENTS.has(key) || SELECTION_OPENINGS.some((opening) => key.startsWith(opening));
}
/** "Choix de …", "Extraits de …", "Selections from …": a selection of the title's work, in so many words. */
const SELECTION_OPENINGS = ['choix de', 'extraits de', 'extraits choisis', 'selections from', 'excerpts from', 'selección de', 'seleção de', 'auswahl aus'].map(normaliseForWorkKey);
const SELECTION_STATEMENTS = new Set([
  'choix', 'extraits', 'morceaux choisis', 'pages choisies', 'selections', 'selection', 'a selection', 'selected',
  'excerpts', 'extracts', 'auswahl', 'eine auswahl', 'selección', 'seleção', 'antología', 'selezione', 'scelta',
  'choix de textes', 'textes choisis',
].map(normaliseForWorkKey));

/** "A selection of": English, Spanish, Portuguese, German, French, Italian, Dutch, Scandinavian. */
const SELECTIONS = /\b(?:selections?|selecciones|selección|seleções|seleção|auswahl|choix|morceaux choisis|selezioni|selectie|urval|udvalg|utvalg)\b/iu;

/** A number, an opus, a thematic catalogue number or a key: what makes a form title one work. */
const IDENTIFYING_PART = /\d|\b(?:op|no|nr|bwv|k|kv|hob|d|rv|hwv|wq)\b\.?|\b(?:major|minor|dur|moll|majeur|mineur|maggiore|minore|mayor|menor)\b/iu;

/** The first element of a uniform or collective title: up to the first comma or full stop. */
function firstElement(text: string): string {
  // The text before the first end of an element (what split(FIRST_ELEMENT_END)[0] gives, without the list).
  const end = text.search(FIRST_ELEMENT_END);
  return end < 0 ? text : text.slice(0, end);
}
const FIRST_ELEMENT_END = /[.,;:]\s|[.,;:]$|\(/u;

/** A subtitle that says the book collects works ("the complete novels and stories", "selected tales"). */
const COLLECTING = /\b(?:complete|collected|selected|selections?|omnibus)\b/iu;

/**
 * A subtitle that makes its title a collection: "Sherlock Holmes : the complete novels and stories" and
 * "Sherlock Holmes : selected stories" are different books, so their title proper is no key.
 */
export function subtitleSaysCollection(subtitle: string): boolean {
  return COLLECTING.test(subtitle) || saysSelections(subtitle) || subtitleIsCollectiveTitle(subtitle);
}

/**
 * A subtitle of two to MAX_COLLECTIVE_SUBTITLE_WORDS words with a collective title of writing
 * (AUTHORS_COLLECTIVE_TITLES) or a collecting word among them, in any language of the tables: "Sherlock
 * Holmes : cuatro novelas", "… : las novelas", "… : sus mejores casos", "… : obras inmortales", "… : les
 * aventures". Each names a different collection, so the title proper alone is no key. One word alone
 * ("Dubliners : stories") describes the title's own work; music's words ("jazz preludes") are no
 * collection of writing.
 */
export function subtitleIsCollectiveTitle(subtitle: string): boolean {
  // Most subtitles are longer than four short words: ruled out before they are cut into words.
  if (subtitle.length > MAX_COLLECTIVE_SUBTITLE_LENGTH) return false;
  const words = subtitle.split(SUBTITLE_WORD_BREAKS).filter((word) => word !== '');
  if (words.length < 2 || words.length > MAX_COLLECTIVE_SUBTITLE_WORDS) return false;
  return words.some((word) => {
    const key = normaliseForWorkKey(word);
    return AUTHORS_COLLECTIVE_TITLES.has(key) || COLLECTING_WORDS.has(key);
  });
}
const MAX_COLLECTIVE_SUBTITLE_WORDS = 4;
/** Four words of at most fifteen letters, with the spaces and punctuation between them. */
const MAX_COLLECTIVE_SUBTITLE_LENGTH = 70;
const SUBTITLE_WORD_BREAKS = /[\s,;:.()]+/u;
/** Collecting words of other languages than COLLECTING's English ones. */
const COLLECTING_WORDS = new Set([
  'relatos', 'completas', 'completos', 'escogidas', 'escogidos', 'selectas', 'mejores', 'inmortales', 'complètes', 'choisies',
  'choisis', 'gesammelte', 'ausgewählte', 'sämtliche', 'escolhidas', 'escolhidos', 'melhores', 'scelte', 'scelti', 'migliori',
  'histoires', 'récits', 'historias', 'histórias', 'aventuras', 'aventures', 'adventures', 'casos', 'cases', 'obras',
  'œuvres', 'oeuvres', 'works', 'werke', 'opere',
].map(normaliseForWorkKey));

/** The text says it is a selection (in $a, $k, $p or $s). */
export function saysSelections(text: string): boolean {
  return mayNameASelection(text) && SELECTIONS.test(text);
}

/**
 * False only when SELECTIONS cannot match: each of its words begins with one of SELECTION_STEMS, and
 * under its `iu` flags an ASCII letter matches only itself in either case, or `ſ` (an s) or the Kelvin
 * sign (a k); so text without those two whose lower case holds none of the stems says no selection.
 * Most titles are ruled out so without running the pattern, whose Unicode case folding searches slowly.
 */
function mayNameASelection(text: string): boolean {
  if (text.includes('ſ') || text.includes('\u212a')) return true;
  const lower = text.toLowerCase();
  return SELECTION_STEMS.some((stem) => lower.includes(stem));
}
const SELECTION_STEMS = ['sele', 'ausw', 'choi', 'urval', 'udvalg', 'utvalg'];

/**
 * A title that is a collective or generic one: a collective title, anything ending in "music" (`Piano
 * music, 4 hands`, `Big band music`), or a music form with at most a medium (`Concertos, piano`).
 */
export function isGenericTitle(text: string): boolean {
  return isGenericTitleKeyed(text, normaliseForWorkKey(text));
}

/** isGenericTitle for a title whose normalised text (normaliseForWorkKey) the caller has already. */
export function isGenericTitleKeyed(text: string, textKey: string): boolean {
  const trimmed = text.trim();
  const first = firstElement(trimmed);
  // A title of one element (most are) is its own first element, whose key the caller gave; another's
  // first element is a part of the text, whose key is often a part of the text's key.
  const start = text.length - text.trimStart().length;
  const key = first === text ? textKey : keyOfLatinBlocksPart(text, textKey, start, start + first.length) ?? normaliseForWorkKey(first);
  if (key === '' || COLLECTIVE.has(key) || MEDIUM_MUSIC.has(key)) return true;
  if (COLLECTIVE.has(textKey)) return true;
  return MUSIC_FORMS.has(key) && !IDENTIFYING_PART.test(text.slice(first.length));
}

/** A music form title that names one work by its number, opus or key (`Symphonies, no. 5, op. 67`). */
export function isFormTitle(text: string): boolean {
  const first = firstElement(text.trim());
  return MUSIC_FORMS.has(normaliseForWorkKey(first)) && IDENTIFYING_PART.test(text.slice(first.length));
}

/**
 * A title as a key holds it (normalised, as `UT pianomusic` or the title of `AT <author> poems`) that is
 * collective or generic: a collective title, `<medium> music`, a music form; for a uniform title also
 * anything that begins with a collective form (`UT concertospiano`).
 */
export function isGenericKeyTitle(title: string, uniformTitle: boolean): boolean {
  if (COLLECTIVE.has(title) || MEDIUM_MUSIC.has(title)) return true;
  return uniformTitle && (MUSIC_FORMS.has(title) || COLLECTIVE_FORM_BEGINNINGS.some((form) => title.startsWith(form)));
}
