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

// Carriage returns (and, in attributes, tabs and line feeds) are written as character references: XML
// parsers normalise the raw characters away, and the strings must read back unchanged.
const TEXT_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#13;' };
const ATTRIBUTE_ESCAPES: Readonly<Record<string, string>> = { ...TEXT_ESCAPES, '"': '&quot;', '\n': '&#10;', '\t': '&#9;' };

// Most text needs neither escaping nor replacing: one test for any character that might (every
// surrogate, even a well-formed pair, takes the full path) saves the two replace passes per value.
const MAY_NEED_TEXT_WORK = /[&<>\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;
const MAY_NEED_ATTRIBUTE_WORK = /[&<>"\r\n\t\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

// What xmlSafe might replace: text without any of these (a link's `&`s, a title's `&`) is escaped without
// xmlSafe's pass, whose lookarounds make it the dearer of the two.
const MAY_NEED_REPLACING = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

export function xmlText(text: string): string {
  if (!MAY_NEED_TEXT_WORK.test(text)) return text;
  return (MAY_NEED_REPLACING.test(text) ? xmlSafe(text) : text).replace(/[&<>\r]/g, (c) => TEXT_ESCAPES[c] ?? c);
}

export function xmlAttribute(text: string): string {
  if (!MAY_NEED_ATTRIBUTE_WORK.test(text)) return text;
  return (MAY_NEED_REPLACING.test(text) ? xmlSafe(text) : text).replace(/[&<>"\r\n\t]/g, (c) => ATTRIBUTE_ESCAPES[c] ?? c);
}

function element(indent: string, name: string, value: string | number): string {
  return escapedElement(indent, name, xmlText(String(value)));
}

/** An element of text already escaped (xmlText), for a value written twice in an item but escaped once. */
function escapedElement(indent: string, name: string, text: string): string {
  return text === '' ? `${indent}<${name}/>` : `${indent}<${name}>${text}</${name}>`;
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

/**
 * Collects the document into pieces, cut where a pubDate goes. Lines are joined with line feeds, but the
 * text either side of a pubDate stays on its line. Appending to one string, rather than gathering lines
 * and splitting them afterwards, spares an array and an object per line of a feed built for one request.
 */
class PieceWriter implements LineSink {
  readonly pieces: string[] = [];
  readonly pubDateYears: number[] = [];
  private piece: string;

  constructor(firstLine: string) {
    this.piece = firstLine;
  }

  line(text: string): void {
    this.piece += `\n${text}`;
  }

  /** `before` ends the current line, the pubDate follows it, and `after` continues the same line. */
  pubDate(before: string, year: number, after: string): void {
    this.pieces.push(`${this.piece}\n${before}`);
    this.pubDateYears.push(year);
    this.piece = after;
  }

  finish(): CompiledFeed {
    this.pieces.push(this.piece);
    return { pieces: this.pieces, pubDateYears: this.pubDateYears };
  }
}

/** Where an item's lines go: the feed's PieceWriter, or an ItemMarkupWriter for markup that is kept. */
interface LineSink {
  line(text: string): void;
  pubDate(before: string, year: number, after: string): void;
}

/** Writes the lines of one item, in the order docs/feed.md states. */
function itemLines(out: LineSink, item: FeedItem): void {
  const indent = '      ';
  out.line('    <item>');
  out.line(element(indent, 'title', item.title));
  if (item.pubDateYear !== undefined) out.pubDate(`${indent}<pubDate>`, item.pubDateYear, '</pubDate>');
  // The link is the guid too (feedModel.ts), and the author is written twice: each escaped once.
  const link = xmlText(item.link);
  out.line(escapedElement(indent, 'link', link));
  out.line(escapedElement(indent, 'guid', item.guid === item.link ? link : xmlText(item.guid)));
  const author = item.author !== undefined ? xmlText(item.author) : undefined;
  if (author !== undefined) out.line(escapedElement(indent, 'author', author));
  for (const format of item.formats) out.line(element(indent, 'dc:format', format));
  if (item.date !== undefined) out.line(element(indent, 'dc:date', item.date));
  if (author !== undefined) out.line(escapedElement(indent, 'dc:creator', author));
  out.line(element(indent, 'slash:comments', item.comments));
  out.line('    </item>');
}

/**
 * One item's lines as kept: `head` up to its pubDate's text (all of them for an item without a pubDate),
 * `tail` from the end of that text on, each joined into one flat string (appended piece by piece, a string
 * is a tree of its pieces, which kept markup would hold for as long as it is kept).
 */
interface ItemMarkup {
  readonly head: string;
  readonly tail: string;
}

class ItemMarkupWriter implements LineSink {
  private lines: string[] = [];
  private head: string | undefined;

  line(text: string): void {
    this.lines.push(text);
  }

  pubDate(before: string, _year: number, after: string): void {
    this.lines.push(before);
    this.head = this.lines.join('\n');
    this.lines = [after];
  }

  finish(): ItemMarkup {
    const text = this.lines.join('\n');
    return this.head === undefined ? { head: text, tail: '' } : { head: this.head, tail: text };
  }
}

/**
 * The markup of frozen items, which cannot change: feedModel.ts gives the item of a record the index keeps
 * for later answers frozen, and the same item again, so its markup is copied rather than written again.
 * Weak: kept as long as the item is.
 */
const markupOfFrozenItems = new WeakMap<FeedItem, ItemMarkup>();

/** Writes one item: a frozen one from its kept markup, others line by line. */
function writeItem(out: PieceWriter, item: FeedItem): void {
  if (!Object.isFrozen(item)) {
    itemLines(out, item);
    return;
  }
  let markup = markupOfFrozenItems.get(item);
  if (markup === undefined) {
    const writer = new ItemMarkupWriter();
    itemLines(writer, item);
    markup = writer.finish();
    markupOfFrozenItems.set(item, markup);
  }
  if (item.pubDateYear !== undefined) out.pubDate(markup.head, item.pubDateYear, markup.tail);
  else out.line(markup.head);
}

const NAMESPACE_ATTRIBUTES = Object.entries(FEED_NAMESPACES).map(([prefix, uri]) => ` xmlns:${prefix}="${uri}"`).join('');

export function compileVersionsFeed(feed: VersionsFeedModel): CompiledFeed {
  const channel = '    ';
  const out = new PieceWriter('<?xml version="1.0" encoding="UTF-8"?>');
  // Pseudo-attribute values of xml-stylesheet take entity references like attribute values do.
  out.line(`<?xml-stylesheet type="text/xsl" href="${xmlAttribute(feed.stylesheetHref)}"?>`);
  out.line(`<rss version="2.0"${NAMESPACE_ATTRIBUTES}>`);
  out.line('  <channel>');
  out.line(element(channel, 'title', feed.title));
  out.line(element(channel, 'description', feed.description));
  out.line(element(channel, 'generator', feed.generator));
  out.line(element(channel, 'link', feed.link));
  out.line(element(channel, 'opensearch:totalResults', feed.totalResults));
  out.line(element(channel, 'opensearch:startIndex', feed.startIndex));
  out.line(element(channel, 'opensearch:itemsPerPage', feed.itemsPerPage));
  out.line(`${channel}<opensearch:Query role="request"${attribute('searchTerms', feed.searchTerms)}${attribute('startIndex', String(feed.startIndex))}/>`);
  for (const link of feed.links) out.line(atomLink(link));
  for (const item of feed.items) writeItem(out, item);
  out.line('  </channel>');
  out.line('</rss>');
  return out.finish();
}
