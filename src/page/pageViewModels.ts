/**
 * The finished view models the Pug templates receive (docs/themes.md, "What templates receive"): the
 * versions page, the error page, their shared site chrome and the theme. Templates do no I/O and no
 * lookups: every label is already translated and every URL already built (pageModel.ts, errorModel.ts,
 * and src/http/themeEngine.ts for the theme). Strings are raw text; Pug escapes them.
 */

export interface LinkModel {
  readonly href: string;
  readonly label: string;
}

export interface VersionEntryModel {
  readonly title: string;
  readonly recordUrl: string;
  /** True for the record whose versions are listed. */
  readonly isRequestedRecord: boolean;
  /** "The record you came from", localised: only on the requested record's entry. */
  readonly requestedLabel?: string;
  /**
   * Why this version is listed ("Same author and title", "Translation"…), localised, from the work keys it
   * shares with the requested record; absent on the requested record's entry. Page only: the feed carries none.
   */
  readonly reason?: string;
  readonly author?: string;
  /** "Published in 2019", localised; absent when the record has no year. */
  readonly publishedIn?: string;
  readonly year?: string;
  /** Format labels as the reader sees them: known formats translated, others as the catalog wrote them. */
  readonly formats: readonly string[];
  /** Where the version is held or comes from (`institution`, then `building`); absent when the record says nothing. */
  readonly source?: SourceModel;
  /**
   * What tells this version from the others, each with its label, in this order when the record has it:
   * languages (named in the page's language), edition, place and publisher ("Lisboa: Relógio d'Água"),
   * physical description. Empty when the record has none of them.
   */
  readonly details: readonly DetailModel[];
  readonly fullTextLinks: readonly LinkModel[];
}

export interface SourceModel {
  /** "Source", localised. */
  readonly label: string;
  /** Institutions, then libraries or collections, each once. */
  readonly names: readonly string[];
}

export interface DetailModel {
  /** "Language", "Edition", "Publisher", "Description", localised. */
  readonly label: string;
  readonly value: string;
}

export interface PageLinkModel {
  readonly number: number;
  readonly href: string;
  readonly isCurrent: boolean;
}

/** A previous or next link: `label` says it in full ("Go to Next Page"), `shortLabel` in one word ("Next"). */
export interface StepLinkModel extends LinkModel {
  readonly shortLabel: string;
}

export interface PaginationModel {
  /** Accessible name of the page navigation ("Pages" in the selected language). */
  readonly label: string;
  /**
   * Page numbers to show, in order; a gap between two consecutive entries is shown as an ellipsis. No
   * entry is current on a page past the end. A compact pager may show fewer (the current one's
   * neighbours, the first and the last).
   */
  readonly pages: readonly PageLinkModel[];
  readonly previous?: StepLinkModel;
  readonly next?: StepLinkModel;
  /** The labels of a step that does not apply (no previous page on the first), for pagers that keep its place. */
  readonly previousShortLabel: string;
  readonly nextShortLabel: string;
}

/** Said instead of the "Showing …" line when the page asked for lies past the last page. */
export interface PastEndModel {
  /** "No results on page 99; the last page is 2.", localised. */
  readonly message: string;
  readonly lastPage: LinkModel;
}

/**
 * What every page of the plugin shows around its content (views/includes/site-header.pug): the skip
 * link, the site's name linking to the catalog's home, and the language switch.
 */
export interface SiteChromeModel {
  readonly siteTitle: string;
  /** The catalog's home (the catalogHomeUrl option), "Catalog home" in the selected language. */
  readonly homeLink: LinkModel;
  /** "Skip to content", localised: the skip link to <main>. */
  readonly skipLinkLabel: string;
  readonly languageChoices: readonly LanguageChoiceModel[];
  /** Accessible name of the language switch ("Language" in the selected language). */
  readonly languageSwitchLabel: string;
}

export interface LanguageChoiceModel {
  readonly code: string;
  /** The language's own name for itself ("Português (Brasil)"). */
  readonly name: string;
  readonly href: string;
  readonly isCurrent: boolean;
}

/** The sort selector: a GET form of the page's own address with one `sort` choice (docs/page.md). */
export interface SortModel {
  /** "Sort", localised: the select's label. */
  readonly label: string;
  /** "Apply", localised: the submit button (the form works without script). */
  readonly submitLabel: string;
  /** The select's parameter name (`sort`, VERSIONS_PARAMETERS in src/versions/versionsUrls.ts). */
  readonly name: string;
  readonly options: ReadonlyArray<{ readonly value: string; readonly label: string; readonly isCurrent: boolean }>;
  /** The other parameters the form sends again (id, search, lng when given). */
  readonly hidden: ReadonlyArray<{ readonly name: string; readonly value: string }>;
}

/** One value of a facet field, with its count: its link adds its filter or, when applied, removes it. */
export interface FacetValueModel {
  readonly label: string;
  readonly count: number;
  readonly href: string;
  readonly isApplied: boolean;
}

/** One facet field beside the list: its values with counts, each adding its filter or, when applied, removing it. */
export interface FacetModel {
  /** "Language", localised: the field's heading. */
  readonly label: string;
  readonly values: readonly FacetValueModel[];
  /**
   * The years beyond the 30 newest ("More years (12)", localised), folded under `values` rather than
   * dropped; open when one of them is applied. Absent for other fields and for 30 years or fewer.
   */
  readonly more?: { readonly label: string; readonly values: readonly FacetValueModel[]; readonly isOpen: boolean };
}

/** What filters left: "3 of 8 versions" or "No version matches these filters (8 in all)", and a link to all of them. */
export interface FilteredModel {
  readonly message: string;
  readonly clear: LinkModel;
}

export interface VersionsPageModel extends SiteChromeModel {
  /** Value of `<html lang>`: the selected language code. */
  readonly language: string;
  /** Contents of `<title>`: "Versions - <short title> :: <site title>". */
  readonly documentTitle: string;
  /** Contents of `<h1>`: "Versions - <short title>". */
  readonly heading: string;
  /** "Showing 1 - 20 results of 42", localised; past the end, the past-end message. */
  readonly showing: string;
  /** Present on a page past the end (no entries): the message and a link to the last page. */
  readonly pastEnd?: PastEndModel;
  /** `start` of the `<ol>` of versions (the first row's number). */
  readonly listStart: number;
  readonly entries: readonly VersionEntryModel[];
  /** Absent when everything fits on one page. */
  readonly pagination?: PaginationModel;
  /** "Back to the record you came from", leading to the requested record's page (`{base}/Record/<id>`). */
  readonly backLink: LinkModel;
  /**
   * Only when a browser opened the feed's address (docs/feed.md, "In a browser"): the note that this is
   * the feed, shown as a page, and the address to copy into a feed reader.
   */
  readonly feedPreview?: { readonly notice: string; readonly addressLabel: string; readonly address: string };
  /** The sort selector; absent when there is at most one version to order. */
  readonly sort?: SortModel;
  /** The facets of the versions listed ("Narrow versions"); absent when there is nothing to narrow. */
  readonly facets?: { readonly label: string; readonly removeLabel: string; readonly fields: readonly FacetModel[] };
  /** Present when `filter[]` narrowed the list. */
  readonly filtered?: FilteredModel;
  /** The RSS feed of the same list: visible link and `<link rel="alternate">` autodiscovery. */
  readonly feed: LinkModel & { readonly title: string };
}

/**
 * The error page: the contract's three lines (docs/errors.md), whatever the error, in
 * the site's chrome. Its language choices lead to the catalog's home in each language: the page names no
 * record (a missing id is never echoed), so it has no address of its own to offer in another language.
 */
export interface ErrorPageModel extends SiteChromeModel {
  readonly language: string;
  readonly documentTitle: string;
  /** Line 1: "An error has occurred". */
  readonly heading: string;
  /** Line 2: "An error occurred during execution; please try again later." */
  readonly message: string;
  /** Line 3: "Please contact the <contact> for assistance". */
  readonly contactLine: string;
  /**
   * What went wrong, when it is the patron's to know ("This record is not in the catalog", "This address
   * does not name a record", "The catalog cannot answer right now"): the subheading under line 1.
   */
  readonly subject?: string;
  /** What to do about it, with `subject`: search the catalog from its home, or (index unavailable only) try again later. */
  readonly advice?: string;
}

/** What the HTTP adapter adds for the layout: the theme in use and its stylesheets, base first. */
export interface ThemeModel {
  readonly name: string;
  readonly stylesheets: readonly string[];
}
