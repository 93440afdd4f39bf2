/**
 * Writes a finished VersionsFeedModel as an RSS 2.0 document: the prologue, the stylesheet instruction,
 * the channel children and item children in the order docs/feed.md states, indented two
 * spaces. Pure: a model and the pubDate texts in, a string out.
 *
 * It works in two steps, so that a feed can be reused: compileVersionsFeed() writes everything but the
 * items' pubDates (whose time of day is the request's) and feedParts() puts the pubDates of one request
 * between the compiled pieces, as strings or (versionsAnswers.ts) as bytes.
 *
 * The document is written as strings, not through xmlbuilder2 (the design card's choice): building its DOM
 * cost 1.9 ms per feed against 0.05 ms here, the largest single cost of the feed view under load
 * (docs/architecture.md, "Why the feed is written as strings"). Its shape is fixed and small, so escaping is the only thing to get right, and the golden
 * file, the XML-parser tests and the fast-check round trips hold it to that.
 */
import type { FeedItem, FeedLink, VersionsFeedModel } from '../versions/viewModels.js';

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

export function xmlText(text: string): string {
  return xmlSafe(text).replace(/[&<>\r]/g, (c) => TEXT_ESCAPES[c] ?? c);
}

export function xmlAttribute(text: string): string {
  return xmlSafe(text).replace(/[&<>"\r\n\t]/g, (c) => ATTRIBUTE_ESCAPES[c] ?? c);
}

function element(indent: string, name: string, value: string | number): string {
  const text = xmlText(String(value));
  return text === '' ? `${indent}<${name}/>` : `${indent}<${name}>${text}</${name}>`;
}

function emptyElement(indent: string, name: string, attributes: ReadonlyArray<readonly [string, string]>): string {
  return `${indent}<${name}${attributes.map(([key, value]) => ` ${key}="${xmlAttribute(value)}"`).join('')}/>`;
}

function atomLink(link: FeedLink): string {
  const attributes: Array<readonly [string, string]> = [['rel', link.rel], ['type', 'application/rss+xml']];
  if (link.title !== undefined) attributes.push(['title', link.title]);
  attributes.push(['href', link.href]);
  return emptyElement('    ', 'atom:link', attributes);
}

/** A feed written but for its pubDates: pubDate i goes between pieces i and i + 1. */
export interface CompiledFeed<Piece = string> {
  readonly pieces: readonly Piece[];
  /** The year of each pubDate, in document order. */
  readonly pubDateYears: readonly number[];
}

// Marks where an item's pubDate goes among the lines; the lines are split there into pieces.
const PUB_DATE = Symbol('pubDate');
type Line = string | { readonly [PUB_DATE]: number };

function itemLines(item: FeedItem): Line[] {
  const indent = '      ';
  const lines: Line[] = ['    <item>', element(indent, 'title', item.title)];
  if (item.pubDateYear !== undefined) lines.push(`${indent}<pubDate>`, { [PUB_DATE]: item.pubDateYear }, '</pubDate>');
  lines.push(element(indent, 'link', item.link), element(indent, 'guid', item.guid));
  if (item.author !== undefined) lines.push(element(indent, 'author', item.author));
  for (const format of item.formats) lines.push(element(indent, 'dc:format', format));
  if (item.date !== undefined) lines.push(element(indent, 'dc:date', item.date));
  if (item.author !== undefined) lines.push(element(indent, 'dc:creator', item.author));
  lines.push(element(indent, 'slash:comments', item.comments), '    </item>');
  return lines;
}

export function compileVersionsFeed(feed: VersionsFeedModel): CompiledFeed {
  const channel = '    ';
  const namespaces = Object.entries(FEED_NAMESPACES).map(([prefix, uri]) => ` xmlns:${prefix}="${uri}"`).join('');
  const lines: Line[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    // Pseudo-attribute values of xml-stylesheet take entity references like attribute values do.
    `<?xml-stylesheet type="text/xsl" href="${xmlAttribute(feed.stylesheetHref)}"?>`,
    `<rss version="2.0"${namespaces}>`,
    '  <channel>',
    element(channel, 'title', feed.title),
    element(channel, 'description', feed.description),
    element(channel, 'generator', feed.generator),
    element(channel, 'link', feed.link),
    element(channel, 'opensearch:totalResults', feed.totalResults),
    element(channel, 'opensearch:startIndex', feed.startIndex),
    element(channel, 'opensearch:itemsPerPage', feed.itemsPerPage),
    emptyElement(channel, 'opensearch:Query', [['role', 'request'], ['searchTerms', feed.searchTerms], ['startIndex', String(feed.startIndex)]]),
    ...feed.links.map(atomLink),
    ...feed.items.flatMap(itemLines),
    '  </channel>',
    '</rss>',
  ];
  const pieces: string[] = [];
  const pubDateYears: number[] = [];
  let piece = '';
  let afterPubDate = false;
  for (const line of lines) {
    if (typeof line === 'string') {
      // Lines end with a line feed, but the text either side of a pubDate stays on its line.
      piece += piece === '' && (pieces.length === 0 || afterPubDate) ? line : `\n${line}`;
      afterPubDate = false;
    } else {
      pieces.push(piece);
      pubDateYears.push(line[PUB_DATE]);
      piece = '';
      afterPubDate = true;
    }
  }
  pieces.push(piece);
  return { pieces, pubDateYears };
}

/**
 * The parts of one request's feed, in order: the compiled pieces with the pubDate of each year between
 * them (`pubDateOf`, e.g. rfc822Date.ts newYearPubDatesAt). The pubDate texts are not escaped: they are
 * RFC 822 dates, letters, digits, spaces, ':', ',', '+' and '-'.
 */
export function feedParts<Piece>(compiled: CompiledFeed<Piece>, pubDateOf: (year: number) => Piece): Piece[] {
  const { pieces, pubDateYears } = compiled;
  const parts = [pieces[0] as Piece];
  for (let i = 0; i < pubDateYears.length; i++) parts.push(pubDateOf(pubDateYears[i] as number), pieces[i + 1] as Piece);
  return parts;
}
