/**
 * What a record says about its work, in one shape for every source (MARC, Dublin Core, a record
 * document), so that the `extended` profile's rules (extendedWorkKeys.ts) are written once.
 *
 * What it holds is what the record states, barely touched: names and titles as catalogued, with the
 * field facts the rules need (is a name the main entry, a person or a body; how many non-filing
 * characters a title has; whether a uniform title is the record's own or a related work's). Cleaning
 * names, cutting titles and building keys are the rules' job; reading each source is its adapter's
 * (documentWorkStatement.ts, dublinCoreWorkStatement.ts, src/work-keys/extended/marcWorkStatement.ts).
 */

/** A name responsible for the work. */
export interface StatedName {
  /** As catalogued: `Montgomery, Wes,` or `Montgomery, Wes, 1923-1968` or `Pat Metheny Group`. */
  readonly name: string;
  /** A person (100/700), a body (110/710) or a meeting (111/711); `unknown` when the source does not say. */
  readonly kind: 'person' | 'body' | 'meeting' | 'unknown';
  /** The name is written surname first (MARC 100/700 first indicator 1). Undefined: not known. */
  readonly surnameFirst?: boolean;
}

/** A title of the record's own manifestation (245, 246, 247, a document's `title`, a `dc:title`). */
export interface StatedTitle {
  /** VuFind's reading of the field: 245 $a$b$n, 246/247 $a$b$n, as catalogued. */
  readonly text: string;
  /** The title proper without the subtitle, where the source separates them: 245 $a$n$p. */
  readonly titleProper?: string;
  /** The other title information, where the source separates it: 245 $b. */
  readonly subtitle?: string;
  /** Characters the non-filing indicator says to skip at the start (0 when none or not known). */
  readonly nonFiling: number;
  /** Where it comes from: the title statement (245, `title`, `dc:title`) or a variant (246, 247). */
  readonly role: 'title-statement' | 'variant';
  /** The statement of responsibility, where the source separates it: 245 $c ("adapted by Jessica Swale"). */
  readonly responsibility?: string;
}

/** A uniform title (130, 240, 730, a document's `title_uniform`). */
export interface StatedUniformTitle {
  /** The title's distinguishing parts: $a with $k$m$n$o$p$r, as catalogued, without $l (language) or $s (version). */
  readonly text: string;
  readonly nonFiling: number;
  /** The record's own work (130, 240, a lone 730 that is not an analytical entry) or a related one. */
  readonly role: 'own' | 'related';
  /** $k and $s, where "Selections" is said (MARC only; a document's text is searched instead). */
  readonly formAndVersion: readonly string[];
  /** $l: the uniform title names a translation (a language of expression). */
  readonly language?: string;
}

/** The original of a translation (765): its title and the name of its main entry, as catalogued. */
export interface StatedOriginal {
  readonly title: string;
  readonly name?: string;
  /** MARC code of the original's language (041 $h), lower case, when the record says it. */
  readonly language?: string;
}

/** An identifier that names one manifestation. */
export interface StatedIdentifier {
  readonly scheme: 'doi' | 'hdl';
  /** As written: `10.1000/XYZ`, `https://doi.org/10.1000/xyz`, `hdl:1884/123`. */
  readonly value: string;
}

export interface WorkStatement {
  /** Main entry names (100/110/111; a document's `author`; every `dc:creator`). */
  readonly mainNames: readonly StatedName[];
  /** Added entry names (700/710/711 without a title; `author2`, `author_corporate`). */
  readonly addedNames: readonly StatedName[];
  readonly titles: readonly StatedTitle[];
  readonly uniformTitles: readonly StatedUniformTitle[];
  /** MARC language code of the text (008/35-37, `eng`), lower case; undefined when not known. */
  readonly language?: string;
  readonly originals: readonly StatedOriginal[];
  readonly identifiers: readonly StatedIdentifier[];
  /**
   * The record is a book: a text published as a monograph (MARC leader/06 `a` or `t`, /07 `m`), not music,
   * a film, a serial or a part. Undefined when the source does not say.
   */
  readonly isBook?: boolean;
}

/** An empty statement to spread into: every list empty, no language. */
export const EMPTY_WORK_STATEMENT: WorkStatement = {
  mainNames: [],
  addedNames: [],
  titles: [],
  uniformTitles: [],
  originals: [],
  identifiers: [],
};
