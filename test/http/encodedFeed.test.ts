import test from 'ava';
import { compileVersionsFeed } from '../../src/feed/renderVersionsFeed.js';
import { slottedFeed } from '../../src/http/versionsAnswers.js';
import type { FeedItem } from '../../src/feed/feedViewModel.js';
import { feedItem as item, feedModelWith, feedPiecesJoined } from '../support/feedModels.js';

const pubDateText = (year: number) => `Tue, 01 Jan ${year} 09:05:07 +0000`;

const cases: Array<[string, FeedItem[]]> = [
  ['several byte sequences before, between and after the pubDates', [item('São Paulo: Ação', 2019), item('日本語の本'), item('Ελληνικά 😀', 1881), item('plain', 2001)]],
  ['no dated item', [item('Éditions'), item('b')]],
  ['a dated item only', [item('Ünïcödé', 1999)]],
];

for (const [name, items] of cases) {
  test(`an encoded feed sends the same bytes as its pieces joined: ${name}`, (t) => {
    const compiled = compileVersionsFeed(feedModelWith(items, { title: 'Versões', description: 'Mostrando 1 - 3' }));
    const expected = feedPiecesJoined(compiled, pubDateText);
    t.is(slottedFeed(compiled, (year) => Buffer.from(pubDateText(year))).bytes.toString('utf8'), expected);
  });
}

test('an encoded feed holds a buffer of its own, not a slice of a shared slab', (t) => {
  const encoded = slottedFeed(compileVersionsFeed(feedModelWith([item('small', 2020)])), (year) => Buffer.from(pubDateText(year)));
  t.true(encoded.bytes.length < 4096, 'small enough that Buffer.from would have cut it from the pool');
  t.is(encoded.bytes.buffer.byteLength, encoded.bytes.length);
});
