/**
 * Parses a feed with a real, namespace-aware XML parser (@xmldom/xmldom), failing on any well-formedness
 * error, and offers the few look-ups the feed tests need.
 */
import { DOMParser, type Document, type Element } from '@xmldom/xmldom';
import { XMLValidator } from 'fast-xml-parser';

export const NS = {
  opensearch: 'http://a9.com/-/spec/opensearch/1.1/',
  atom: 'http://www.w3.org/2005/Atom',
  dc: 'http://purl.org/dc/elements/1.1/',
  slash: 'http://purl.org/rss/1.0/modules/slash/',
} as const;

export function parseFeed(xml: string): Document {
  const verdict = XMLValidator.validate(xml);
  if (verdict !== true) throw new Error(`fast-xml-parser: ${JSON.stringify(verdict.err)}`);
  const problems: string[] = [];
  const document = new DOMParser({
    onError: (level, message) => { if (level !== 'warning') problems.push(message); },
  }).parseFromString(xml, 'text/xml');
  if (problems.length > 0) throw new Error(`xmldom: ${problems.join('; ')}`);
  return document;
}

export function childElements(parent: Element | Document): Element[] {
  const children: Element[] = [];
  for (let node = parent.firstChild; node !== null; node = node.nextSibling) {
    if (node.nodeType === 1) children.push(node as Element);
  }
  return children;
}

export function channelOf(document: Document): Element {
  const rss = document.documentElement;
  if (rss === null) throw new Error('no root element');
  const channel = childElements(rss).find((e) => e.tagName === 'channel');
  if (channel === undefined) throw new Error('no channel');
  return channel;
}

export function itemsOf(document: Document): Element[] {
  return childElements(channelOf(document)).filter((e) => e.tagName === 'item');
}

/** Text of the first child element named `qualifiedName` (e.g. `dc:date`), or undefined. */
export function textOf(parent: Element, qualifiedName: string): string | undefined {
  return childElements(parent).find((e) => e.tagName === qualifiedName)?.textContent ?? undefined;
}

export function atomLinks(document: Document): Element[] {
  return childElements(channelOf(document)).filter((e) => e.namespaceURI === NS.atom && e.localName === 'link');
}
