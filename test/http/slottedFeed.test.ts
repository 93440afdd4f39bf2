/**
 * A kept feed is held with gaps for its pubDates (src/http/versionsAnswers.ts, SlottedFeed) and sent with
 * the pubDates of each second written into them: the bytes must be those of the feed's pieces joined
 * with those pubDates, also when a date is wider or narrower than when the feed was kept.
 */
import test from 'ava';
import { compileVersionsFeed, type CompiledFeed } from '../../src/feed/renderVersionsFeed.js';
import { slottedFeed, slottedFeedBody } from '../../src/http/versionsAnswers.js';
import { bodySlabs } from '../../src/http/bodySlabs.js';
import { feedItem as item, feedModelWith, feedPiecesJoined } from '../support/feedModels.js';

/** The feed's bytes with these pubDates: its pieces joined with them. */
const feedBytes = (compiled: CompiledFeed, pubDateOf: (year: number) => Buffer) => Buffer.from(feedPiecesJoined(compiled, (year) => pubDateOf(year).toString()));
const datesAt = (time: string) => (year: number) => Buffer.from(`Tue, 01 Jan ${String(year).padStart(4, '0')} ${time} +0000`);

test('a kept feed sent in a later second has that second\'s pubDates and every other byte as built', (t) => {
  const compiled = compileVersionsFeed(feedModelWith([item('São Paulo: Ação', 2019), item('日本語の本'), item('Ελληνικά 😀', 1881), item('plain', 2001)]));
  const kept = slottedFeed(compiled, datesAt('09:05:07'));
  // As built, the kept bytes are the feed of that second (versionsAnswers.ts sends them as they are).
  t.true(kept.bytes.equals(feedBytes(compiled, datesAt('09:05:07'))));
  const later = datesAt('23:59:58');
  const allocate = bodySlabs(1024);
  for (let i = 0; i < 5; i++) t.true(slottedFeedBody(kept, later, allocate).equals(feedBytes(compiled, later)));
  t.true(slottedFeedBody(kept, datesAt('09:05:07'), allocate).equals(feedBytes(compiled, datesAt('09:05:07'))));
});

test('pubDates of another width than when the feed was kept move the bytes after them', (t) => {
  const compiled = compileVersionsFeed(feedModelWith([item('first', 2019), item('second', 1999), item('no date'), item('last', 2001)]));
  const kept = slottedFeed(compiled, datesAt('09:05:07'));
  for (const dates of [(year: number) => Buffer.from(`${year}-longer date text`), (year: number) => Buffer.from(String(year % 7))]) {
    t.is(slottedFeedBody(kept, dates, Buffer.allocUnsafe).toString(), feedBytes(compiled, dates).toString());
  }
});
