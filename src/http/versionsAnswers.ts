/**
 * The versions route's answers: built through the core (listVersions, the feed and page models, the feed
 * writer) and the theme engine, kept in the answer cache while the index's content stays the same, and
 * turned into the bytes of one response. versionsRoute.ts reads the request and answerResponse.ts writes
 * the headers; this module knows nothing of Koa.
 *
 * A feed is kept compiled but for its pubDates (their time of day is the request's), encoded as UTF-8 in
 * one buffer with the byte offsets where its pubDates go: sending it is then a copy of bytes around the
 * pubDates of the current second, made once per second for a feed asked for several times in it.
 */
import { buildVersionsFeedModel } from '../feed/feedModel.js';
import type { Translate } from '../i18n/labels.js';
import { listVersions, type VersionsView } from '../versions/listVersions.js';
import { orderOfPageSort, type PageSort } from '../versions/versionsSorts.js';
import { filterParameter } from '../versions/versionsFilters.js';
import type { VersionsFilter } from '../ports.js';
import { buildVersionsPageModel } from '../page/pageModel.js';
import { compileVersionsFeed, type CompiledFeed } from '../feed/renderVersionsFeed.js';
import { newYearPubDatesAt, type ServerTimeZone } from '../feed/rfc822Date.js';
import { versionsValidators, type Validators } from '../versions/versionsValidators.js';
import type { ThemeModel } from '../page/pageViewModels.js';
import type { CatalogIndex } from '../ports.js';
import { createAnswerCache } from './answerCache.js';
import { bodySlabs, ownBytesOf } from './bodySlabs.js';
import type { ThemeEngine } from './themeEngine.js';

/** What shapes an answer: the record and page asked for, and the request's settings. */
export interface AnswerRequest {
  readonly id: string | undefined;
  readonly page: number;
  /** The page's sort (`sort`); the feed ignores it. */
  readonly sort: PageSort;
  /** VuFind's `filter[]`, read (page and feed). */
  readonly filters: readonly VersionsFilter[];
  readonly view: VersionsView;
  readonly language: string;
  /** `lng` as given, when it named a supported language (pages link with it). */
  readonly explicitLanguage: string | undefined;
  readonly translate: Translate;
  readonly theme: ThemeModel;
  readonly baseUrl: string;
  /** An HTML page answering a browser that opened the feed's address (docs/feed.md, "In a browser"). */
  readonly feedPreview?: boolean;
}

/**
 * Validators and body of an answer; `bytes` is what it holds in memory, for the cache's budget.
 * `lastModifiedHeader` is `lastModified` as the Last-Modified header writes it, formatted once per answer
 * rather than for every request that sends it again.
 */
export type VersionsAnswer = Validators & { readonly lastModifiedHeader: string; readonly bytes: number }
  & ({ readonly feed: SlottedFeed } | { readonly html: Buffer });

/**
 * A kept feed as it is sent: its UTF-8 bytes with a gap where each pubDate goes, as wide as that pubDate
 * was when the feed was built. An RFC 822 date of a year 0–9999 always has the same length, so a body is
 * one copy of these bytes with the pubDates of its second written into the gaps, instead of a copy of
 * every piece between two pubDates (each of which costs Node a new view of the source).
 */
export interface SlottedFeed {
  readonly bytes: Buffer;
  readonly pubDateYears: readonly number[];
  /** Where each gap starts in `bytes`, and how wide it is. */
  readonly gaps: Uint32Array;
  readonly widths: Uint16Array;
}

export interface VersionsAnswers {
  /**
   * The answer kept from an earlier request with the same key, as it is (no promise to wait for), or the
   * promise of one built now: the request's key is made and looked up once.
   */
  keptOrBuilt(request: AnswerRequest): VersionsAnswer | Promise<VersionsAnswer>;
  /** The answer, kept from an earlier request with the same key or built now. */
  answerFor(request: AnswerRequest): Promise<VersionsAnswer>;
  /** The bytes of a feed answer at this moment: its pieces around the pubDates of the current second. */
  feedBody(feed: SlottedFeed): Buffer;
}

export interface VersionsAnswersSettings {
  readonly index: CatalogIndex;
  readonly themes: ThemeEngine;
  /** 0: no answer is kept. */
  readonly cacheBytes: number;
  /** Everything of the plugin's configuration that shapes answers; part of each ETag. */
  readonly settingsFingerprint: string;
  readonly siteTitle: string;
  /** The catalog's home, linked from every page's site header. */
  readonly catalogHomeUrl: string;
  readonly generator: string;
  readonly languageNames: ReadonlyArray<{ readonly code: string; readonly name: string }>;
  readonly now: () => Date;
  readonly timeZone: ServerTimeZone;
}

const FEED_BODY_SLAB_BYTES = 128 * 1024;

// Memory for the feed bodies of one second: ~400 feeds of the mean size, beside the answer cache's budget.
const FEED_BODIES_PER_SECOND_BYTES = 4 * 1024 * 1024;

/**
 * What shapes an answer besides its record: its values in the order the ETag hashes them, joined by
 * NULs and written as one string, since it is made for every request (keptAnswerKey). The theme and an
 * explicit lng shape only pages: a feed reader's ui cookie must not split its answers.
 */
function variantOf(request: AnswerRequest): string {
  let variant = request.view === 'rss'
    ? `rss\u0000${request.language}\u0000\u0000\u0000\u0000`
    : `${request.view}\u0000${request.language}\u0000${request.theme.name}\u0000${request.explicitLanguage ?? ''}\u0000${request.sort}\u0000`;
  variant += `${request.page}\u0000${request.baseUrl}\u0000${request.feedPreview === true ? 'feed-preview' : ''}`;
  for (const filter of request.filters) variant += `\u0000${filterParameter(filter)}`;
  return variant;
}

/** The kept answer's key: what shapes it and the record asked for. */
function keptAnswerKey(variant: string, id: string): string {
  return `${variant}\u0000${id}`;
}

/**
 * The compiled feed as UTF-8 in one buffer of its own with the pubDates of one second in place, and where
 * they are (SlottedFeed): each piece encoded once, straight where it goes (ownBytesOf), rather than
 * encoded into a buffer of its own and copied around the pubDates into another.
 */
export function slottedFeed(compiled: CompiledFeed, pubDateOf: (year: number) => Buffer): SlottedFeed {
  const { pieces, pubDateYears } = compiled;
  const gaps = new Uint32Array(pubDateYears.length);
  const widths = new Uint16Array(pubDateYears.length);
  const pubDates = pubDateYears.map(pubDateOf);
  let room = 0;
  for (let i = 0; i < pieces.length; i++) {
    room += 3 * (pieces[i] as string).length;
    if (i < pubDates.length) room += (pubDates[i] as Buffer).length;
  }
  const bytes = ownBytesOf(room, (scratch) => {
    let offset = 0;
    for (let i = 0; i < pieces.length; i++) {
      offset += scratch.write(pieces[i] as string, offset);
      if (i < pubDates.length) {
        const pubDate = pubDates[i] as Buffer;
        gaps[i] = offset;
        widths[i] = pubDate.length;
        offset += pubDate.copy(scratch, offset);
      }
    }
    return offset;
  });
  return { bytes, pubDateYears, gaps, widths };
}

/** A feed's body for one second into a buffer from `allocate`; a pubDate of another width than its gap moves the bytes after it. */
export function slottedFeedBody(feed: SlottedFeed, pubDateOf: (year: number) => Buffer, allocate: (length: number) => Buffer): Buffer {
  const { bytes, gaps, widths, pubDateYears } = feed;
  let sameWidths = true;
  for (let i = 0; i < pubDateYears.length && sameWidths; i++) sameWidths = pubDateOf(pubDateYears[i] as number).length === widths[i];
  if (sameWidths) {
    const body = allocate(bytes.length);
    body.set(bytes);
    for (let i = 0; i < pubDateYears.length; i++) body.set(pubDateOf(pubDateYears[i] as number), gaps[i]);
    return body;
  }
  // Years beyond 9999 or before -999: the rare feed whose dates are longer or shorter than when built.
  const pubDates = pubDateYears.map(pubDateOf);
  const body = allocate(pubDates.reduce((sum, pubDate, i) => sum + pubDate.length - (widths[i] as number), bytes.length));
  let from = 0;
  let to = 0;
  pubDates.forEach((pubDate, i) => {
    to += bytes.copy(body, to, from, gaps[i]);
    to += pubDate.copy(body, to);
    from = (gaps[i] as number) + (widths[i] as number);
  });
  bytes.copy(body, to, from);
  return body;
}

export function createVersionsAnswers(settings: VersionsAnswersSettings): VersionsAnswers {
  const { index, themes } = settings;
  // Answers are kept only for an index that tells when its content changed.
  const kept = settings.cacheBytes > 0 && typeof index.contentVersion === 'function'
    ? createAnswerCache<VersionsAnswer>(settings.cacheBytes)
    : undefined;

  async function buildAnswer(request: AnswerRequest, variant: string): Promise<VersionsAnswer> {
    const { page, view, language, translate, baseUrl } = request;
    const { record, versions } = await listVersions(index, { id: request.id, view, page, pageOrder: orderOfPageSort(request.sort), filters: request.filters });
    // One part holding variantOf's NUL-joined values hashes as those values each would (versionsValidators.ts).
    const { etag, lastModified } = versionsValidators({ variant: [settings.settingsFingerprint, variant], requestedRecord: record, versions });
    // Written out rather than spread from the validators: a spread copies through the generic path.
    const lastModifiedHeader = lastModified.toUTCString();
    if (view === 'rss') {
      const compiled = compileVersionsFeed(buildVersionsFeedModel({
        requestedId: record.id, versions, page, language, baseUrl, translate, generator: settings.generator,
      }));
      const second = currentSecond();
      const feed = slottedFeed(compiled, second.pubDateOf);
      // Its bytes are this second's body already, held by the answer cache anyway: the first sending is
      // not a copy of them.
      if (kept !== undefined) second.bodies.set(feed, feed.bytes);
      return { etag, lastModified, lastModifiedHeader, feed, bytes: feed.bytes.length + feed.gaps.byteLength + feed.widths.byteLength };
    }
    const model = buildVersionsPageModel({
      requestedRecord: record, versions, page, language, explicitLanguage: request.explicitLanguage, sort: request.sort, filters: request.filters,
      baseUrl, siteTitle: settings.siteTitle, catalogHomeUrl: settings.catalogHomeUrl, translate, languages: settings.languageNames,
      feedPreview: request.feedPreview,
    });
    const text = await themes.render('versions', request.theme.name, { page: model, theme: request.theme });
    // A buffer of its own, not cut from a shared slab: a kept page must hold only its own bytes.
    const html = ownBytesOf(3 * text.length, (scratch) => scratch.write(text));
    return { etag, lastModified, lastModifiedHeader, html, bytes: html.length };
  }

  // What the requests of the current second share, since the pubDates' time of day has whole seconds: the
  // pubDates as bytes, and the bodies of the feeds sent in it. A feed asked for again within the second is
  // then sent as it is, like a kept page, rather than copied together anew (an allocation and a copy of
  // the whole feed per request). The bodies are bounded by FEED_BODIES_PER_SECOND_BYTES and let go when the first
  // feed of a later second is sent.
  const newSecond = (second: number, now: Date) => ({
    second,
    pubDateOf: newYearPubDatesAt(now, settings.timeZone, (text) => Buffer.from(text)),
    bodies: new Map<SlottedFeed, Buffer>(),
    bodyBytes: 0,
  });
  let thisSecond = newSecond(Number.NaN, new Date(Number.NaN));
  const currentSecond = () => {
    const now = settings.now();
    const second = Math.floor(now.getTime() / 1000);
    if (second !== thisSecond.second) thisSecond = newSecond(second, now);
    return thisSecond;
  };
  // Feed bodies are cut from shared slabs (bodySlabs.ts): no ArrayBuffer of its own per response.
  const bodyBuffer = bodySlabs(FEED_BODY_SLAB_BYTES);

  return {
    keptOrBuilt(request) {
      // Read before the index is queried: an answer built while the content changes is then kept under
      // the older version, which the next request no longer matches.
      const version = kept === undefined || request.id === undefined ? undefined : index.contentVersion?.();
      const variant = variantOf(request);
      if (kept === undefined || version === undefined || request.id === undefined) return buildAnswer(request, variant);
      const key = keptAnswerKey(variant, request.id);
      const earlier = kept.get(key, version);
      if (earlier !== undefined) return earlier;
      return buildAnswer(request, variant).then((answer) => {
        kept.set(key, version, answer, answer.bytes);
        return answer;
      });
    },

    async answerFor(request) {
      return this.keptOrBuilt(request);
    },

    feedBody(feed) {
      currentSecond();
      let body = thisSecond.bodies.get(feed);
      if (body === undefined) {
        body = slottedFeedBody(feed, thisSecond.pubDateOf, bodyBuffer);
        // Only a kept answer can be asked for again.
        if (kept !== undefined && thisSecond.bodyBytes + body.length <= FEED_BODIES_PER_SECOND_BYTES) {
          thisSecond.bodies.set(feed, body);
          thisSecond.bodyBytes += body.length;
        }
      }
      return body;
    },
  };
}
