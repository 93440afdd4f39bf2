/**
 * The finished view models that templates and the feed writer receive. Views do no I/O and no lookups:
 * every label is already translated and every URL already built (feedModel.ts, pageModel.ts,
 * errorModel.ts build them). Strings are raw text; escaping is the renderer's job (Pug escapes by default,
 * renderVersionsFeed.ts escapes text and attributes).
 */

export interface FeedLink {
  readonly rel: 'first' | 'previous' | 'next' | 'last' | 'self';
  readonly href: string;
  /** Localised link title; `self` has none. */
  readonly title?: string;
}

export interface FeedItem {
  readonly title: string;
  /**
   * The year whose 1 January the item's pubDate names; absent when the record has no year. The pubDate's
   * time of day is the request's (reference-behaviour.md section 2), so the text is written with the feed
   * (renderVersionsFeed.ts), and the rest of a feed can be reused from one request to the next.
   */
  readonly pubDateYear?: number;
  readonly link: string;
  readonly guid: string;
  /** First author, else first corporate author; absent when the record has neither. */
  readonly author?: string;
  readonly formats: readonly string[];
  /** Four-digit year; absent when the record has none. */
  readonly date?: string;
  readonly comments: 0;
}

export interface VersionsFeedModel {
  readonly stylesheetHref: string;
  readonly title: string;
  readonly description: string;
  readonly generator: string;
  readonly link: string;
  readonly totalResults: number;
  readonly startIndex: number;
  readonly itemsPerPage: number;
  readonly searchTerms: string;
  readonly links: readonly FeedLink[];
  readonly items: readonly FeedItem[];
}

export interface LinkModel {
  readonly href: string;
  readonly label: string;
}

export interface VersionEntryModel {
  readonly title: string;
  readonly recordUrl: string;
  /** True for the record whose versions are listed. */
  readonly isRequestedRecord: boolean;
  readonly author?: string;
  /** "Published in 2019", localised; absent when the record has no year. */
  readonly publishedIn?: string;
  readonly year?: string;
  readonly formats: readonly string[];
  readonly fullTextLinks: readonly LinkModel[];
}

export interface PageLinkModel {
  readonly number: number;
  readonly href: string;
  readonly isCurrent: boolean;
}

export interface PaginationModel {
  /** Accessible name of the page navigation ("Pages" in the selected language). */
  readonly label: string;
  /** Page numbers to show, in order; a gap between two consecutive entries is shown as an ellipsis. */
  readonly pages: readonly PageLinkModel[];
  readonly previous?: LinkModel;
  readonly next?: LinkModel;
}

export interface LanguageChoiceModel {
  readonly code: string;
  /** The language's own name for itself ("Português (Brasil)"). */
  readonly name: string;
  readonly href: string;
  readonly isCurrent: boolean;
}

export interface VersionsPageModel {
  /** Value of `<html lang>`: the selected language code. */
  readonly language: string;
  /** Contents of `<title>`: "Versions - <short title> :: <site title>". */
  readonly documentTitle: string;
  readonly siteTitle: string;
  /** Contents of `<h1>`: "Versions - <short title>". */
  readonly heading: string;
  /** "Showing 1 - 20 results of 42", localised. */
  readonly showing: string;
  /** `start` of the `<ol>` of versions (the first row's number). */
  readonly listStart: number;
  readonly entries: readonly VersionEntryModel[];
  /** Absent when everything fits on one page. */
  readonly pagination?: PaginationModel;
  /** The RSS feed of the same list: visible link and `<link rel="alternate">` autodiscovery. */
  readonly feed: LinkModel & { readonly title: string };
  readonly languageChoices: readonly LanguageChoiceModel[];
  /** Accessible name of the language switch ("Language" in the selected language). */
  readonly languageSwitchLabel: string;
}

export interface ErrorPageModel {
  readonly language: string;
  readonly documentTitle: string;
  /** Line 1: "An error has occurred". */
  readonly heading: string;
  /** Line 2: "An error occurred during execution; please try again later." */
  readonly message: string;
  /** Line 3: "Please contact the <contact> for assistance". */
  readonly contactLine: string;
}

/** What the HTTP adapter adds for the layout: the theme in use and its stylesheets, base first. */
export interface ThemeModel {
  readonly name: string;
  readonly stylesheets: readonly string[];
}
