/**
 * Writes a finished VersionsFeedModel as an RSS 2.0 document with xmlbuilder2: the prologue, the
 * stylesheet instruction, the channel children and item children in the order of
 * reference-behaviour.md section 2. Pure: a model in, a string out.
 */
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import type { VersionsFeedModel } from './viewModels.js';

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

// xmlbuilder2 leaves anything shaped like an entity reference (`&amp;`, `&e;`, `&#0;`) unescaped, so an id
// or title containing one would be read back as another string, or as a reference to an undeclared
// entity. Every `&` is escaped here first; xmlbuilder2 then keeps these references as they are. Carriage
// returns (and, in attributes, tabs and line feeds) are written as character references, because XML
// parsers normalise the raw characters away.
const TEXT_REFERENCES: Readonly<Record<string, string>> = { '&': '&amp;', '\r': '&#13;' };
const ATTRIBUTE_REFERENCES: Readonly<Record<string, string>> = { ...TEXT_REFERENCES, '\n': '&#10;', '\t': '&#9;' };

function xmlText(text: string): string {
  return xmlSafe(text).replace(/[&\r]/g, (c) => TEXT_REFERENCES[c] ?? c);
}

function xmlAttribute(text: string): string {
  return xmlSafe(text).replace(/[&\r\n\t]/g, (c) => ATTRIBUTE_REFERENCES[c] ?? c);
}

function textElement(parent: XMLBuilder, name: string, value: string | number): void {
  parent.ele(name).txt(xmlText(String(value)));
}

export function renderVersionsFeed(feed: VersionsFeedModel): string {
  const document = create({ version: '1.0', encoding: 'UTF-8' });
  // Pseudo-attribute values of xml-stylesheet may contain entity references, so `&` and `"` are escaped.
  const href = xmlSafe(feed.stylesheetHref).replaceAll('&', '&amp;').replaceAll('"', '&quot;');
  document.ins('xml-stylesheet', `type="text/xsl" href="${href}"`);
  const rss = document.ele('rss', {
    version: '2.0',
    'xmlns:opensearch': FEED_NAMESPACES.opensearch,
    'xmlns:atom': FEED_NAMESPACES.atom,
    'xmlns:dc': FEED_NAMESPACES.dc,
    'xmlns:slash': FEED_NAMESPACES.slash,
  });
  const channel = rss.ele('channel');
  textElement(channel, 'title', feed.title);
  textElement(channel, 'description', feed.description);
  textElement(channel, 'generator', feed.generator);
  textElement(channel, 'link', feed.link);
  textElement(channel, 'opensearch:totalResults', feed.totalResults);
  textElement(channel, 'opensearch:startIndex', feed.startIndex);
  textElement(channel, 'opensearch:itemsPerPage', feed.itemsPerPage);
  channel.ele('opensearch:Query', { role: 'request', searchTerms: xmlAttribute(feed.searchTerms), startIndex: String(feed.startIndex) });
  for (const link of feed.links) {
    channel.ele('atom:link', {
      rel: link.rel,
      type: 'application/rss+xml',
      ...(link.title !== undefined ? { title: xmlAttribute(link.title) } : {}),
      href: xmlAttribute(link.href),
    });
  }
  for (const item of feed.items) {
    const element = channel.ele('item');
    textElement(element, 'title', item.title);
    if (item.pubDate !== undefined) textElement(element, 'pubDate', item.pubDate);
    textElement(element, 'link', item.link);
    textElement(element, 'guid', item.guid);
    if (item.author !== undefined) textElement(element, 'author', item.author);
    for (const format of item.formats) textElement(element, 'dc:format', format);
    if (item.date !== undefined) textElement(element, 'dc:date', item.date);
    if (item.author !== undefined) textElement(element, 'dc:creator', item.author);
    textElement(element, 'slash:comments', item.comments);
  }
  return document.end({ prettyPrint: true });
}
