/**
 * Property-based tests (issue item 2): any record documents, with any Unicode in any field (astral
 * characters, combining marks, controls, noncharacters, lone surrogates, markup and entity look-alikes),
 * loaded into the embedded index, give a well-formed feed and a well-formed page, and both carry the
 * original strings.
 *
 * "The original strings" is modelled exactly, independently of the code under test:
 * - XML: characters XML 1.0 cannot carry (C0 controls other than tab/LF/CR, U+FFFE, U+FFFF, lone
 *   surrogates) come back as U+FFFD; everything else, CR and tab included, comes back unchanged.
 * - HTML: the body travels as UTF-8 (lone surrogates become U+FFFD), the HTML parser turns CR and CRLF
 *   into LF, drops NUL from body text, and turns NUL into U+FFFD in <title> and in attribute values.
 *
 * The feed is parsed twice: by test/support/parseFeed.ts (xmldom and fast-xml-parser's validator, the
 * well-formedness verdict) and by xmldom with XML 1.0 line-end handling for the text comparisons
 * (xmldom's default follows XML 1.1 and also turns U+0085 and U+2028 into LF, which XML 1.0 does not).
 */
import assert from 'node:assert/strict';
import test, { type ExecutionContext } from 'ava';
import * as cheerio from 'cheerio';
import fc from 'fast-check';
import { DOMParser, type Document, type Element } from '@xmldom/xmldom';
import { parse as parseHtml } from 'parse5';
import { channelOf, childElements, itemsOf, parseFeed, textOf } from '../support/parseFeed.js';
import { assertPropertyHeld } from '../support/propertyRuns.js';
import { BASE_URL, testHost } from '../support/testHost.js';

// Bounded so the whole file stays within a few seconds; a failure prints fast-check's seed and path.
const RUNS = 150;
const LOAD_CLOCK = () => new Date('2025-01-01T00:00:00Z');

// ---------------------------------------------------------------------------------------------------------
// The models

/** A lone surrogate (not part of a pair) at index i of s? */
function isLoneSurrogateAt(s: string, i: number): boolean {
  const unit = s.charCodeAt(i);
  if (unit >= 0xD800 && unit <= 0xDBFF) {
    const next = s.charCodeAt(i + 1);
    return !(next >= 0xDC00 && next <= 0xDFFF);
  }
  if (unit >= 0xDC00 && unit <= 0xDFFF) {
    const previous = s.charCodeAt(i - 1);
    return !(previous >= 0xD800 && previous <= 0xDBFF);
  }
  return false;
}

/** Whether XML 1.0's Char production allows the UTF-16 unit at i (surrogates judged as pairs). */
function isXmlCharAt(s: string, i: number): boolean {
  const unit = s.charCodeAt(i);
  if (unit === 0x9 || unit === 0xA || unit === 0xD) return true;
  if (unit < 0x20) return false;
  if (unit === 0xFFFE || unit === 0xFFFF) return false;
  return !isLoneSurrogateAt(s, i);
}

/** What an XML 1.0 parser gives back for a string the feed writer was handed. */
function xmlModel(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i += 1) out += isXmlCharAt(s, i) ? s[i] : '\uFFFD';
  return out;
}

/** The string as UTF-8 on the wire and back: lone surrogates become U+FFFD. */
function wellFormed(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i += 1) out += isLoneSurrogateAt(s, i) ? '\uFFFD' : s[i];
  return out;
}

const newlinesNormalised = (s: string) => wellFormed(s).replace(/\r\n?/g, '\n');
/** Text of an element in <body>, as an HTML parser builds it. */
const htmlBodyText = (s: string) => newlinesNormalised(s).replaceAll('\0', '');
/** Text of <title> (RCDATA) or an attribute value, as an HTML parser builds it. */
const htmlRcdataText = (s: string) => newlinesNormalised(s).replaceAll('\0', '\uFFFD');

/** Every character of the raw document allowed by XML 1.0, and no character reference to a forbidden one. */
function xmlCharacterProblems(xml: string): string[] {
  const problems: string[] = [];
  for (let i = 0; i < xml.length; i += 1) {
    if (!isXmlCharAt(xml, i)) problems.push(`raw U+${xml.charCodeAt(i).toString(16).padStart(4, '0')} at ${i}`);
  }
  for (const [reference, hex, decimal] of xml.matchAll(/&#(?:x([0-9A-Fa-f]+)|([0-9]+));/g)) {
    const codePoint = hex !== undefined ? Number.parseInt(hex, 16) : Number(decimal);
    const text = codePoint <= 0x10FFFF ? String.fromCodePoint(codePoint) : '\0';
    if (!isXmlCharAt(text, 0)) problems.push(`reference ${reference}`);
  }
  return problems;
}

/** xmldom with XML 1.0 line ends (only CRLF and CR become LF). Well-formedness is parseFeed's verdict. */
function parseXml10(xml: string): Document {
  return new DOMParser({ normalizeLineEndings: (source: string) => source.replace(/\r\n?/g, '\n'), onError: () => undefined })
    .parseFromString(xml, 'text/xml');
}

// ---------------------------------------------------------------------------------------------------------
// Record documents with any Unicode

/** Characters that trip writers: controls, line and paragraph separators, noncharacters, markup, entity look-alikes. */
const trickyUnit = fc.constantFrom(
  '\0', '\x01', '\x08', '\t', '\n', '\x0B', '\x0C', '\r', '\r\n', '\x1B', '\x1F', '\x7F', '\x85', '\u00A0', '\u2028', '\u2029',
  '\uFEFF', '\uFFFD', '\uFFFE', '\uFFFF', '\u{1FFFE}', '&', '<', '>', '"', "'", ']]>', '&amp;', '&lt;', '&e;', '&#0;', '&#x41;',
  '&#xD;', '<!--', '-->', '<![CDATA[', '<?xml ?>', '<script>', '\u0301', '\u0338', '\u200D', '\u202E', '\u{1F4DA}', '\u{1F468}\u200D\u{1F469}',
  '\u{1D11E}', '\u{10FFFF}', ' ', '\\', '#{x}', '!{x}', '%', '%2F', '/', '..',
);
const binaryUnit = fc.string({ unit: 'binary', minLength: 1, maxLength: 1 });
const graphemeUnit = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 });
const loneSurrogateUnit = fc.integer({ min: 0xD800, max: 0xDFFF }).map((unit) => String.fromCharCode(unit));

/** Any text: any code point, tricky sequences, lone surrogates. */
const anyText = fc.string({
  unit: fc.oneof(
    { arbitrary: binaryUnit, weight: 4 },
    { arbitrary: graphemeUnit, weight: 2 },
    { arbitrary: trickyUnit, weight: 3 },
    { arbitrary: loneSurrogateUnit, weight: 1 },
  ),
  maxLength: 24,
});

/**
 * Record ids: any well-formed text that is not blank. (An id with a lone surrogate cannot be asked for in a
 * URL at all; what such a record does to its work's page is a test of its own below.)
 */
const anyId = fc.string({
  unit: fc.oneof({ arbitrary: binaryUnit, weight: 4 }, { arbitrary: graphemeUnit, weight: 2 }, { arbitrary: trickyUnit, weight: 3 }),
  minLength: 1,
  maxLength: 16,
}).filter((id) => id.trim() !== '');

const oneOrMany = (text: fc.Arbitrary<string>) => fc.oneof(text, fc.array(text, { maxLength: 3 }));

interface GeneratedDocument {
  id: string;
  title?: string;
  title_short?: string;
  author?: string | string[];
  author_corporate?: string | string[];
  format?: string | string[];
  publishDate?: string | string[];
  url?: string | string[];
}

const anyDocument: fc.Arbitrary<GeneratedDocument> = fc.record({
  id: anyId,
  title: anyText,
  title_short: anyText,
  author: oneOrMany(anyText),
  author_corporate: oneOrMany(anyText),
  format: oneOrMany(anyText),
  publishDate: oneOrMany(fc.oneof(fc.constantFrom('2019', 'c2019', '[1995?]', '2019-05-02', '١٩٩٩', 'n.d.'), anyText)),
  // Any text, and web addresses with any Unicode after the scheme, so that links are generated too.
  url: oneOrMany(fc.oneof(anyText, anyText.map((rest) => `https://example.org/${rest}`))),
}, { requiredKeys: ['id'] });

/** One to eight documents with distinct ids: the versions of one work. */
const anyWork = fc.uniqueArray(anyDocument, { minLength: 1, maxLength: 8, selector: (doc) => doc.id });

// What the plugin shows of a document, from the contract (docs/record-documents.md, docs/feed.md, docs/page.md).
const list = (value: string | string[] | undefined): string[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
const nonBlank = (value: string | undefined) => (value !== undefined && value.trim() !== '' ? value : undefined);
const TITLE_MISSING = 'Title not available';
const displayTitle = (doc: GeneratedDocument) => nonBlank(doc.title) ?? TITLE_MISSING;
const headingTitle = (doc: GeneratedDocument) => nonBlank(doc.title_short) ?? nonBlank(doc.title) ?? TITLE_MISSING;
const mainAuthor = (doc: GeneratedDocument) => nonBlank(list(doc.author)[0]) ?? nonBlank(list(doc.author_corporate)[0]);
const yearOf = (doc: GeneratedDocument) => /[0-9]{4}/.exec(list(doc.publishDate)[0] ?? '')?.[0];

// ---------------------------------------------------------------------------------------------------------
// One host for every run: each run loads its documents under a work key of its own.

/** Runs a property; a failure reports fast-check's counterexample and the assertion that failed on it. */
async function check(t: ExecutionContext, property: fc.IAsyncProperty<[GeneratedDocument[]]>): Promise<void> {
  assertPropertyHeld(t, await fc.check(property, { numRuns: RUNS }), RUNS);
}

/**
 * A host of its own for each test (ava runs a file's tests concurrently, and shrinking reuses ids such as
 * "\0", so a shared index would let one test's documents replace another's). Each run of a property loads
 * its documents under a work key of its own, so earlier runs' records never join its work.
 */
async function workLoader(t: ExecutionContext) {
  const { index, request } = await testHost([], { logger: { error: () => undefined, warn: () => undefined } });
  t.teardown(() => index.close());
  let runNumber = 0;
  return async (docs: readonly GeneratedDocument[]) => {
    const key = `property run ${(runNumber += 1)}`;
    const rejected: string[] = [];
    await index.load(docs.map((doc) => ({ ...doc, work_keys_str_mv: [key] })), { now: LOAD_CLOCK, onRejected: ({ reason }) => void rejected.push(reason) });
    assert.deepEqual(rejected, [], 'the index took every document');
    return { request, requested: docs[0]! };
  };
}

const feedPath = (id: string) => `/Search/Versions?id=${encodeURIComponent(id)}&search=versions&view=rss&lng=en`;
const pagePath = (id: string) => `/Search/Versions?id=${encodeURIComponent(id)}&search=versions&lng=en`;

/** The record id a link names (`{BASE_URL}/Record/<encoded id>`), or undefined when it names none. */
function idOfRecordLink(link: string | undefined): string | undefined {
  if (link === undefined || !link.startsWith(`${BASE_URL}/Record/`)) return undefined;
  try {
    return decodeURIComponent(link.slice(`${BASE_URL}/Record/`.length));
  } catch {
    return undefined;
  }
}

function byId(docs: readonly GeneratedDocument[], id: string | undefined, where: string): GeneratedDocument {
  const doc = docs.find((candidate) => candidate.id === id);
  assert.ok(doc !== undefined, `${where}: a link names ${JSON.stringify(id)}, which is none of ${JSON.stringify(docs.map((d) => d.id))}`);
  return doc;
}

const textsOf = (parent: Element, name: string) => childElements(parent).filter((e) => e.tagName === name).map((e) => e.textContent ?? '');

// ---------------------------------------------------------------------------------------------------------
// The properties

test('any record documents give a well-formed feed', async (t) => {
  const loadWork = await workLoader(t);
  await check(t, fc.asyncProperty(anyWork, async (docs) => {
    const { request, requested } = await loadWork(docs);
    const response = await request.get(feedPath(requested.id));
    assert.equal(response.status, 200);
    assert.deepEqual(xmlCharacterProblems(response.text), [], 'only characters XML 1.0 allows');
    const document = parseFeed(response.text); // throws on any well-formedness error
    assert.equal(itemsOf(document).length, docs.length);
  }));
});

test('feed items carry the documents’ title, author, formats and year; the channel carries the id', async (t) => {
  const loadWork = await workLoader(t);
  await check(t, fc.asyncProperty(anyWork, async (docs) => {
    const { request, requested } = await loadWork(docs);
    const response = await request.get(feedPath(requested.id));
    assert.equal(response.status, 200);
    parseFeed(response.text); // well-formed first (the property above says why when it is not)
    const document = parseXml10(response.text);
    const channel = channelOf(document);
    assert.equal(textOf(channel, 'title'), `Results for Versions - ${xmlModel(requested.id)}`);
    const query = childElements(channel).find((e) => e.tagName === 'opensearch:Query');
    assert.equal(query?.getAttribute('searchTerms'), xmlModel(requested.id), 'searchTerms (an attribute) carries the id');
    const items = itemsOf(document);
    assert.equal(items.length, docs.length);
    for (const item of items) {
      const link = textOf(item, 'link');
      const doc = byId(docs, idOfRecordLink(link), 'feed');
      assert.equal(textOf(item, 'guid'), link);
      assert.equal(textOf(item, 'title'), xmlModel(displayTitle(doc)), 'title');
      const author = mainAuthor(doc);
      assert.equal(textOf(item, 'author'), author === undefined ? undefined : xmlModel(author), 'author');
      assert.equal(textOf(item, 'dc:creator'), author === undefined ? undefined : xmlModel(author), 'dc:creator');
      assert.deepEqual(textsOf(item, 'dc:format'), list(doc.format).map(xmlModel), 'dc:format');
      assert.equal(textOf(item, 'dc:date'), yearOf(doc), 'dc:date');
    }
  }));
});

test('any record documents give a well-formed page whose entries carry the documents’ strings', async (t) => {
  const loadWork = await workLoader(t);
  await check(t, fc.asyncProperty(anyWork, async (docs) => {
    const { request, requested } = await loadWork(docs);
    const response = await request.get(pagePath(requested.id));
    assert.equal(response.status, 200);
    const parseErrors: string[] = [];
    parseHtml(response.text, { onParseError: (error) => void parseErrors.push(error.code) });
    // Odd characters in the data may be reported as such; markup errors may not.
    const markupErrors = parseErrors.filter((code) => !/-in-input-stream$|^unexpected-null-character$/.test(code));
    assert.deepEqual(markupErrors, [], 'HTML parse errors');

    const $ = cheerio.load(response.text);
    assert.equal($('h1').text(), htmlBodyText(`Versions - ${headingTitle(requested)}`), 'heading');
    assert.equal($('title').text(), htmlRcdataText(`Versions - ${headingTitle(requested)} :: Library Catalog`), '<title>');
    assert.equal($('link[rel="alternate"]').attr('title'), htmlRcdataText(`Results for Versions - ${requested.id}`), 'feed link title');
    assert.equal($('script, style, iframe, img, object, embed').length, 0, 'no active elements');

    const entries = $('ol.versions > li').toArray();
    assert.equal(entries.length, docs.length);
    for (const entry of entries) {
      const titleLink = $(entry).find('.version__title a');
      const doc = byId(docs, idOfRecordLink(titleLink.attr('href')), 'page');
      assert.equal(titleLink.text(), htmlBodyText(displayTitle(doc)), 'entry title');
      const author = mainAuthor(doc);
      const authorLine = $(entry).find('.version__author');
      assert.equal(authorLine.length ? authorLine.text() : undefined, author === undefined ? undefined : htmlBodyText(author), 'author');
      assert.deepEqual($(entry).find('.badge').map((_, badge) => $(badge).text()).get(), list(doc.format).map(htmlBodyText), 'formats');
      const year = yearOf(doc);
      assert.equal($(entry).find('.version__published').text() || undefined, year === undefined ? undefined : `Published in ${year}`, 'year');
      // Only web addresses become links (the page model drops javascript:, data:, … and trims).
      const webAddresses = list(doc.url).filter((url) => /^https?:\/\/[^\s]+$/i.test(url.trim())).map((url) => url.trim());
      assert.deepEqual($(entry).find('a.fulltext-link').map((_, a) => $(a).attr('href')).get(), webAddresses.map(htmlRcdataText), 'full-text links');
      assert.equal(titleLink.attr('aria-current') === 'true', doc.id === requested.id, 'the requested record is marked');
    }
  }));
});

// ---------------------------------------------------------------------------------------------------------
// Record ids with lone surrogates: such a record cannot be asked for by URL, but it may be a version of one
// that can, and then its link has to be written somehow (U+FFFD is what a UTF-8 link can carry).

test('a version whose id holds a lone surrogate does not break its work’s feed and page', async (t) => {
  const docs: GeneratedDocument[] = [
    { id: 'surrogate-work-1', title: 'A work', author: 'Author, An' },
    { id: 'surrogate-work-\uD800', title: 'Its version', author: 'Author, An' },
    { id: 'surrogate-work-\uDC00x', title: 'Another version', author: 'Author, An' },
  ];
  const { request } = await (await workLoader(t))(docs);
  const feed = await request.get(feedPath('surrogate-work-1'));
  t.is(feed.status, 200, 'feed');
  if (feed.status === 200) {
    t.deepEqual(xmlCharacterProblems(feed.text), []);
    t.is(itemsOf(parseFeed(feed.text)).length, 3);
  }
  const page = await request.get(pagePath('surrogate-work-1'));
  t.is(page.status, 200, 'page');
  if (page.status === 200) t.is(cheerio.load(page.text)('ol.versions > li').length, 3);
});

