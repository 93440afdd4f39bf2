/**
 * The versions feed as the feed writer receives it (docs/feed.md): every label translated, every URL built.
 * feedModel.ts builds it; renderVersionsFeed.ts writes it as XML, escaping text and attributes (strings here
 * are raw text).
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
   * The year whose 1 January the item's pubDate names; undefined when the record has no year. The pubDate's
   * time of day is the request's (docs/feed.md, "pubDate"), so the text is written with the feed
   * (renderVersionsFeed.ts), and the rest of a feed can be reused from one request to the next.
   */
  readonly pubDateYear?: number;
  readonly link: string;
  readonly guid: string;
  /** First author, else first corporate author; undefined when the record has neither. */
  readonly author?: string;
  readonly formats: readonly string[];
  /** Four-digit year; undefined when the record has none. */
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
