import test from 'ava';
import { XMLParser } from 'fast-xml-parser';
import fc from 'fast-check';
import { compileVersionsFeed, xmlAttribute, xmlSafe, xmlText, type CompiledFeed } from '../../src/feed/renderVersionsFeed.js';
import { slottedFeed } from '../../src/http/versionsAnswers.js';
import { newYearPubDate, newYearPubDatesAt, type ServerTimeZone } from '../../src/feed/rfc822Date.js';
import type { FeedItem } from '../../src/feed/feedViewModel.js';
import { feedModelWith } from '../support/feedModels.js';

/** One request's whole feed as a string: the compiled pieces with the pubDates between them. */
const feedText = (compiled: CompiledFeed, pubDateOf: (year: number) => string) =>
  slottedFeed(compiled, (year) => Buffer.from(pubDateOf(year))).bytes.toString('utf8');
const renderVersionsFeed = (feed: Parameters<typeof compileVersionsFeed>[0], pubDateOf: (year: number) => string) =>
  feedText(compileVersionsFeed(feed), pubDateOf);

const UTC: ServerTimeZone = {
  timeOfDay: (instant) => ({ hours: instant.getUTCHours(), minutes: instant.getUTCMinutes(), seconds: instant.getUTCSeconds() }),
  offsetMinutesOnNewYear: () => 0,
};

function item(id: string, year?: number): FeedItem {
  const link = `https://catalog.example.edu/Record/${id}`;
  return { title: `Title of ${id}`, link, guid: link, formats: ['Book'], comments: 0, ...(year !== undefined ? { pubDateYear: year, date: String(year) } : {}) };
}

const parse = (xml: string) => new XMLParser({ ignoreAttributes: false }).parse(xml) as { rss: { channel: { item: Array<Record<string, unknown>> } } };

test('a compiled feed written at two instants differs only in the pubDate times', (t) => {
  const compiled = compileVersionsFeed(feedModelWith([item('a', 2019), item('b'), item('c', 1881)]));
  t.deepEqual(compiled.pubDateYears, [2019, 1881]);
  const morning = feedText(compiled, newYearPubDatesAt(new Date('2026-05-04T09:05:07Z'), UTC));
  const evening = feedText(compiled, newYearPubDatesAt(new Date('2026-05-04T21:45:00Z'), UTC));
  const items = parse(morning).rss.channel.item;
  t.is(items[0]?.pubDate, 'Tue, 01 Jan 2019 09:05:07 +0000');
  t.is(items[1]?.pubDate, undefined, 'an item without a year has no pubDate');
  t.is(items[2]?.pubDate, 'Sat, 01 Jan 1881 09:05:07 +0000');
  t.is(evening, morning.replaceAll('09:05:07', '21:45:00'));
});

test('pubDate elements stay on one line, indented like their siblings', (t) => {
  const xml = renderVersionsFeed(feedModelWith([item('a', 2019)]), () => 'Tue, 01 Jan 2019 09:05:07 +0000');
  t.true(xml.includes('      <title>Title of a</title>\n      <pubDate>Tue, 01 Jan 2019 09:05:07 +0000</pubDate>\n      <link>'));
  t.true(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<?xml-stylesheet'));
  t.true(xml.endsWith('  </channel>\n</rss>'));
});

test('a feed without dated items compiles to one piece', (t) => {
  const compiled = compileVersionsFeed(feedModelWith([item('a'), item('b')]));
  t.is(compiled.pieces.length, 1);
  t.is(feedText(compiled, () => t.fail('no pubDate is asked for') as never), compiled.pieces[0]!);
});

test('the pubDates of one instant are those newYearPubDate gives, each year worked out once', (t) => {
  let lookups = 0;
  const counting: ServerTimeZone = { ...UTC, offsetMinutesOnNewYear: (year, time) => (lookups++, UTC.offsetMinutesOnNewYear(year, time)) };
  const now = new Date('2026-05-04T09:05:07Z');
  const pubDateOf = newYearPubDatesAt(now, counting);
  for (const year of [2019, 1881, 2019, 2019, 1881]) t.is(pubDateOf(year), newYearPubDate(year, now, UTC));
  t.is(lookups, 2);
});

// The escaping as one replace with a table, as the writer did it before its fast paths: what xmlText and
// xmlAttribute must still give for any text.
const TEXT_REFERENCES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#13;' };
const ATTRIBUTE_REFERENCES: Record<string, string> = { ...TEXT_REFERENCES, '"': '&quot;', '\n': '&#10;', '\t': '&#9;' };
const escapedText = (text: string) => xmlSafe(text).replace(/[&<>\r]/g, (c) => TEXT_REFERENCES[c]!);
const escapedAttribute = (text: string) => xmlSafe(text).replace(/[&<>"\r\n\t]/g, (c) => ATTRIBUTE_REFERENCES[c]!);

test('text and attribute values are escaped as one replace of every special character would, whatever they hold', (t) => {
  const characters = fc.constantFrom('a', 'é', '&', '<', '>', '"', '\r', '\n', '\t', '\u0000', '\u001F', '\uD83D', '\uDE00', '\uFFFE', '\u2014', '&amp;');
  fc.assert(fc.property(fc.array(characters, { maxLength: 12 }).map((units) => units.join('')), (text) => xmlText(text) === escapedText(text) && xmlAttribute(text) === escapedAttribute(text)));
  for (const text of ['Tom & Jerry <1940>', 'a "quoted"\ttab\r\nline', 'https://x.example/Search?id=a&lng=en', 'Título', '']) {
    t.is(xmlText(text), escapedText(text), text);
    t.is(xmlAttribute(text), escapedAttribute(text), text);
  }
});
