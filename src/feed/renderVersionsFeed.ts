/**
 * Writes a finished VersionsFeedModel as an RSS 2.0 document: the prologue, the stylesheet instruction,
 * the channel children and item children in the order docs/feed.md states, indented two
 * spaces. Pure: a model and the pubDate texts in, the document's bytes out.
 *
 * It works in steps, so that a feed can be reused: compileVersionsFeed() writes everything but the items'
 * pubDates (whose time of day is the request's), as pieces between them. The bytes are written from
 * the pieces where they are sent and kept, with gaps for the pubDates of each second (versionsAnswers.ts,
 * slottedFeed: one buffer of its own, not cut from a shared slab, so a kept feed holds only its bytes).
 *
 * The document is written as strings, not through xmlbuilder2 (the design card's choice): building its DOM
 * cost many times what writing strings does, the largest single cost of the feed view under load
 * (docs/architecture.md, "Why the feed is written as strings"). Its shape is fixed and small, so escaping is the only thing to get right, and the golden
 * file, the XML-parser tests and the fast-check round trips hold it to that.
 */
import type { FeedItem, FeedLink, VersionsFeedModel } from './feedViewModel.js';

export const FEED_NAMESPACES = {
  opensearch: 'http://a9.com/-/spec/opensearch/1.1/',
  atom: 'http://www.w3.org/2005/Atom',
  dc: 'http://purl.org/dc/elements/1.1/',
  slash: 'http://purl.org/rss/1.0/modules/slash/',
} as const;

// Characters XML 1.0 cannot carry at all (C0 controls but tab/LF/CR, lone surrogates, U+FFFE/U+FFFF).
// A catalog record can hold them (bad MARC conversions); they become U+FFFD so the feed stays well-formed.
const NOT_XML_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function xmlSafe(text: string): string {
  return text.replace(NOT_XML_CHARACTER, '\uFFFD');
}

// Most text needs neither escaping nor replacing: one test that it holds no character that might (every
// surrogate, even a well-formed pair, takes the full path) saves the two replace passes per value. The
// test is anchored, one run of allowed characters from start to end: a search for a character of a class
// tries a match at every position, which costs more on a value of a feed item (docs/benchmarks.md).
const NEEDS_NO_TEXT_WORK = /^[^&<>\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]*$/;
const NEEDS_NO_ATTRIBUTE_WORK = /^[^&<>"\r\n\t\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]*$/;

// What xmlSafe might replace: text without any of these (a link's `&`s, a title's `&`) is escaped without
// xmlSafe's pass, whose lookarounds make it the dearer of the two.
const MAY_NEED_REPLACING = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

// Carriage returns (and, in attributes, tabs and line feeds) are written as character references: XML
// parsers normalise the raw characters away, and the strings must read back unchanged.
export function xmlText(text: string): string {
  if (NEEDS_NO_TEXT_WORK.test(text)) return text;
  let escaped = MAY_NEED_REPLACING.test(text) ? xmlSafe(text) : text;
  // One replaceAll per character present, `&` first (the others' references hold one): a link's `&`s and a
  // title's are escaped without a callback called for each of them.
  if (escaped.includes('&')) escaped = escaped.replaceAll('&', '&amp;');
  if (escaped.includes('<')) escaped = escaped.replaceAll('<', '&lt;');
  if (escaped.includes('>')) escaped = escaped.replaceAll('>', '&gt;');
  if (escaped.includes('\r')) escaped = escaped.replaceAll('\r', '&#13;');
  return escaped;
}

export function xmlAttribute(text: string): string {
  if (NEEDS_NO_ATTRIBUTE_WORK.test(text)) return text;
  let escaped = xmlText(text);
  if (escaped.includes('"')) escaped = escaped.replaceAll('"', '&quot;');
  if (escaped.includes('\n')) escaped = escaped.replaceAll('\n', '&#10;');
  if (escaped.includes('\t')) escaped = escaped.replaceAll('\t', '&#9;');
  return escaped;
}

/** An attribute with its leading space: ` name="value"`, the value escaped. */
function attribute(name: string, value: string): string {
  return ` ${name}="${xmlAttribute(value)}"`;
}

/** `<atom:link rel type [title] href/>`: written straight, five times a feed. */
function atomLink(link: FeedLink): string {
  const title = link.title !== undefined ? attribute('title', link.title) : '';
  return `    <atom:link${attribute('rel', link.rel)} type="application/rss+xml"${title}${attribute('href', link.href)}/>`;
}

/** A feed written but for its pubDates: pubDate i goes between pieces i and i + 1. */
export interface CompiledFeed {
  readonly pieces: readonly string[];
  /** The year of each pubDate, in document order. */
  readonly pubDateYears: readonly number[];
}

/** Where the text of a feed goes, in document order: text, and the gap of a pubDate of `year`. */
interface TextSink {
  text(text: string): void;
  pubDate(year: number): void;
}

/**
 * Collects the document into pieces, cut where a pubDate goes. Appending to one string, rather than
 * gathering lines and joining them afterwards, spares an array and an object per line of a feed built for
 * one request.
 */
class PieceWriter implements TextSink {
  readonly pieces: string[] = [];
  readonly pubDateYears: number[] = [];
  private piece: string;

  constructor(firstLine: string) {
    this.piece = firstLine;
  }

  /** A line of its own: a line feed, then `text`. */
  line(text: string): void {
    this.piece += `\n${text}`;
  }

  text(text: string): void {
    this.piece += text;
  }

  pubDate(year: number): void {
    this.pieces.push(this.piece);
    this.pubDateYears.push(year);
    this.piece = '';
  }

  finish(): CompiledFeed {
    this.pieces.push(this.piece);
    return { pieces: this.pieces, pubDateYears: this.pubDateYears };
  }
}

/**
 * An element of text, its line feed and indent before it: the constant parts are made once here, so that a
 * feed's text is a few long strings and its values between them (a string made by appending is a tree of
 * its parts, flattened when it is encoded: the fewer parts, the cheaper).
 */
interface TextElement {
  readonly open: string;
  readonly close: string;
  /** The element without content: `<name/>`. */
  readonly empty: string;
}

/** The elements of `names` (element name by key) at one indent. */
function textElements<K extends string>(indent: string, names: Readonly<Record<K, string>>): Readonly<Record<K, TextElement>> {
  const elements = {} as Record<K, TextElement>;
  for (const key of Object.keys(names) as K[]) {
    const name = names[key];
    elements[key] = { open: `\n${indent}<${name}>`, close: `</${name}>`, empty: `\n${indent}<${name}/>` };
  }
  return elements;
}

const CHANNEL_INDENT = '    ';
const CHANNEL = textElements(CHANNEL_INDENT, {
  title: 'title', description: 'description', generator: 'generator', link: 'link',
  totalResults: 'opensearch:totalResults', startIndex: 'opensearch:startIndex', itemsPerPage: 'opensearch:itemsPerPage',
});
const ITEM = textElements('      ', {
  title: 'title', link: 'link', guid: 'guid', author: 'author', format: 'dc:format', date: 'dc:date', creator: 'dc:creator', comments: 'slash:comments',
});
const ITEM_OPEN = '\n    <item>';
const ITEM_CLOSE = '\n    </item>';
const PUBDATE_OPEN = '\n      <pubDate>';
const PUBDATE_CLOSE = '</pubDate>';

/** The element of text already escaped (xmlText), or of a number's (which needs no escaping). */
function written(element: TextElement, text: string): string {
  return text === '' ? element.empty : element.open + text + element.close;
}

/** Writes the text of one item, each line after a line feed, in the order docs/feed.md states. */
function itemText(out: TextSink, item: FeedItem): void {
  out.text(ITEM_OPEN + written(ITEM.title, xmlText(item.title)));
  if (item.pubDateYear !== undefined) {
    out.text(PUBDATE_OPEN);
    out.pubDate(item.pubDateYear);
    out.text(PUBDATE_CLOSE);
  }
  // The link is the guid too (feedModel.ts), and the author is written twice: each escaped once.
  const link = xmlText(item.link);
  let text = written(ITEM.link, link) + written(ITEM.guid, item.guid === item.link ? link : xmlText(item.guid));
  const author = item.author !== undefined ? xmlText(item.author) : undefined;
  if (author !== undefined) text += written(ITEM.author, author);
  for (const format of item.formats) text += written(ITEM.format, xmlText(format));
  if (item.date !== undefined) text += written(ITEM.date, xmlText(item.date));
  if (author !== undefined) text += written(ITEM.creator, author);
  out.text(text + written(ITEM.comments, String(item.comments)) + ITEM_CLOSE);
}

/**
 * One item's text as kept: `head` up to its pubDate's text (all of it for an item without a pubDate),
 * `tail` from the end of that text on, each joined into one flat string (appended piece by piece, a string
 * is a tree of its pieces, which kept markup would hold for as long as it is kept).
 */
interface ItemMarkup {
  readonly head: string;
  readonly tail: string;
}

class ItemMarkupWriter implements TextSink {
  private parts: string[] = [];
  private head: string | undefined;

  text(text: string): void {
    this.parts.push(text);
  }

  pubDate(): void {
    this.head = this.parts.join('');
    this.parts = [];
  }

  finish(): ItemMarkup {
    const text = this.parts.join('');
    return this.head === undefined ? { head: text, tail: '' } : { head: this.head, tail: text };
  }
}

/**
 * The markup of frozen items, which cannot change: feedModel.ts gives the item of a record the index keeps
 * for later answers frozen, and the same item again, so its markup is copied rather than written again.
 * Weak: kept as long as the item is.
 */
const markupOfFrozenItems = new WeakMap<FeedItem, ItemMarkup>();

/** Writes one item: a frozen one from its kept markup, others afresh. */
function writeItem(out: PieceWriter, item: FeedItem): void {
  if (!Object.isFrozen(item)) {
    itemText(out, item);
    return;
  }
  let markup = markupOfFrozenItems.get(item);
  if (markup === undefined) {
    const writer = new ItemMarkupWriter();
    itemText(writer, item);
    markup = writer.finish();
    markupOfFrozenItems.set(item, markup);
  }
  out.text(markup.head);
  if (item.pubDateYear !== undefined) {
    out.pubDate(item.pubDateYear);
    out.text(markup.tail);
  }
}

const NAMESPACE_ATTRIBUTES = Object.entries(FEED_NAMESPACES).map(([prefix, uri]) => ` xmlns:${prefix}="${uri}"`).join('');
const RSS_OPEN = `\n<rss version="2.0"${NAMESPACE_ATTRIBUTES}>\n  <channel>`;
const RSS_CLOSE = '\n  </channel>\n</rss>';

export function compileVersionsFeed(feed: VersionsFeedModel): CompiledFeed {
  const out = new PieceWriter('<?xml version="1.0" encoding="UTF-8"?>');
  // Pseudo-attribute values of xml-stylesheet take entity references like attribute values do.
  out.line(`<?xml-stylesheet type="text/xsl" href="${xmlAttribute(feed.stylesheetHref)}"?>`);
  out.text(RSS_OPEN);
  out.text(written(CHANNEL.title, xmlText(feed.title)) + written(CHANNEL.description, xmlText(feed.description)) + written(CHANNEL.generator, xmlText(feed.generator))
    + written(CHANNEL.link, xmlText(feed.link)) + written(CHANNEL.totalResults, String(feed.totalResults)) + written(CHANNEL.startIndex, String(feed.startIndex))
    + written(CHANNEL.itemsPerPage, String(feed.itemsPerPage)));
  out.line(`${CHANNEL_INDENT}<opensearch:Query role="request"${attribute('searchTerms', feed.searchTerms)}${attribute('startIndex', String(feed.startIndex))}/>`);
  for (const link of feed.links) out.line(atomLink(link));
  for (const item of feed.items) writeItem(out, item);
  out.text(RSS_CLOSE);
  return out.finish();
}
