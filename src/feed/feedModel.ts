/**
 * The versions feed as a finished view model (docs/feed.md):
 * every label translated, every URL built, every date formatted but the pubDates, whose time of day is the
 * request's and which renderVersionsFeed.ts writes with the XML.
 */
import { hasTitle, mainAuthorOf, yearOf, type CatalogRecord } from '../record/catalogRecord.js';
import { frozenRecordParts } from '../record/frozenRecordParts.js';
import { perTranslator, type Translate } from '../i18n/labels.js';
import { FEED_ROWS, lastPageOf, offsetOf } from '../versions/paging.js';
import { FEED_STYLESHEET_PATH, recordUrl, trimBaseUrl, versionsFeedUrls, versionsLinkUrl } from '../versions/versionsUrls.js';
import type { FeedItem, FeedLink, VersionsFeedModel } from './feedViewModel.js';
import type { VersionsPage } from '../ports.js';

export interface VersionsFeedInput {
  readonly requestedId: string;
  readonly versions: VersionsPage;
  readonly page: number;
  readonly language: string;
  readonly baseUrl: string;
  readonly translate: Translate;
  readonly generator: string;
}

/** "Showing <first> - <last> results of <total>" for rows starting at `offset`. */
export function showingLine(translate: Translate, offset: number, shown: number, total: number): string {
  return translate('results.showing', { first: offset + 1, last: offset + shown, total });
}

/**
 * The item of a record: for a frozen one, made once per base URL and missing-title label and given frozen,
 * and the writer keeps that item's markup (renderVersionsFeed.ts).
 */
const feedItemOf = frozenRecordParts<VersionsFeedInput, string, FeedItem>({
  make: newFeedItem,
  // What else than the record the item is made of: the base URL, and the label of a missing title.
  variantOf: (record, input) => hasTitle(record) ? input.baseUrl : `${input.baseUrl}\u0000${feedWordsOf(input.translate).titleMissing}`,
  freeze: Object.freeze,
});

/** The feed's words without values, looked up once per translator (the plugin makes one per language) rather than for every feed and item. */
interface FeedWords {
  readonly first: string;
  readonly previous: string;
  readonly next: string;
  readonly last: string;
  readonly titleMissing: string;
  /** The channel's title before the record's id: "Results for Versions - ". */
  readonly titleBeforeId: string;
}

const feedWordsOf = perTranslator((translate): FeedWords => ({
  first: translate('paging.first'),
  previous: translate('paging.previous'),
  next: translate('paging.next'),
  last: translate('paging.last'),
  titleMissing: translate('record.titleMissing'),
  titleBeforeId: `${translate('results.for')} ${translate('versions.label')} - `,
}));

function newFeedItem(record: CatalogRecord, input: VersionsFeedInput): FeedItem {
  const year = yearOf(record);
  const author = mainAuthorOf(record);
  const link = recordUrl(input.baseUrl, record.id);
  const title = hasTitle(record) ? record.title as string : feedWordsOf(input.translate).titleMissing;
  // Every property written, the absent ones as undefined, rather than spread in when present: items then
  // share one object shape, which the writer reads faster (docs/benchmarks.md).
  return {
    title,
    pubDateYear: year !== undefined ? Number(year) : undefined,
    date: year,
    link,
    guid: link,
    author,
    formats: record.formats,
    comments: 0,
  };
}

export function buildVersionsFeedModel(input: VersionsFeedInput): VersionsFeedModel {
  const { requestedId: id, language, versions, page, translate, baseUrl } = input;
  const address = { id, language };
  const offset = offsetOf(page, FEED_ROWS);
  const lastPage = lastPageOf(versions.total, FEED_ROWS);
  const feedUrl = versionsFeedUrls(baseUrl, address);
  const words = feedWordsOf(translate);
  const links: FeedLink[] = [{ rel: 'first', href: feedUrl(), title: words.first }];
  if (page > 1) links.push({ rel: 'previous', href: feedUrl(page - 1), title: words.previous });
  if (page < lastPage) links.push({ rel: 'next', href: feedUrl(page + 1), title: words.next });
  links.push({ rel: 'last', href: feedUrl(lastPage), title: words.last });
  links.push({ rel: 'self', href: feedUrl(page > 1 ? page : undefined) });

  return {
    stylesheetHref: `${trimBaseUrl(baseUrl)}${FEED_STYLESHEET_PATH}`,
    title: words.titleBeforeId + id,
    description: showingLine(translate, offset, versions.records.length, versions.total),
    generator: input.generator,
    link: versionsLinkUrl(baseUrl, address),
    totalResults: versions.total,
    startIndex: offset,
    itemsPerPage: FEED_ROWS,
    searchTerms: id,
    links,
    items: versions.records.map((record) => feedItemOf(record, input)),
  };
}
