/** Feed view models for the feed writer's tests: items and a channel around them, as feedModel.ts would make. */
import type { FeedItem, VersionsFeedModel } from '../../src/feed/feedViewModel.js';

/** An item titled `title`, with a pubDate of `year` when given. */
export function feedItem(title: string, year?: number): FeedItem {
  const link = `https://catalog.example.edu/Record/${encodeURIComponent(title)}`;
  return { title, link, guid: link, formats: ['Book'], comments: 0, ...(year !== undefined ? { pubDateYear: year, date: String(year) } : {}) };
}

export function feedModelWith(items: FeedItem[], channel: Partial<Pick<VersionsFeedModel, 'title' | 'description'>> = {}): VersionsFeedModel {
  return {
    stylesheetHref: 'https://catalog.example.edu/themes/root/assets/xsl/rss.xsl',
    title: channel.title ?? 'Results for Versions - a', description: channel.description ?? `Showing 1 - ${items.length} results of ${items.length}`,
    generator: 'test', link: 'https://catalog.example.edu/Search/Versions?id=a',
    totalResults: items.length, startIndex: 0, itemsPerPage: 50, searchTerms: 'a',
    links: [{ rel: 'self', href: 'https://catalog.example.edu/Search/Versions?id=a&view=rss' }],
    items,
  };
}

/** A compiled feed's pieces with pubDate i between pieces i and i + 1: the text its bytes must be. */
export function feedPiecesJoined(compiled: { readonly pieces: readonly string[]; readonly pubDateYears: readonly number[] }, pubDateOf: (year: number) => string): string {
  return compiled.pieces.map((piece, i) => (i === 0 ? piece : pubDateOf(compiled.pubDateYears[i - 1]!) + piece)).join('');
}
