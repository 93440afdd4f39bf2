import test from 'ava';
import { compileVersionsFeed, encodeFeed, feedBytes } from '../../src/feed/renderVersionsFeed.js';
import type { FeedItem } from '../../src/feed/feedViewModel.js';
import { feedItem as item, feedModelWith } from '../support/feedModels.js';

const pubDateText = (year: number) => `Tue, 01 Jan ${year} 09:05:07 +0000`;

const cases: Array<[string, FeedItem[]]> = [
  ['several byte sequences before, between and after the pubDates', [item('São Paulo: Ação', 2019), item('日本語の本'), item('Ελληνικά 😀', 1881), item('plain', 2001)]],
  ['no dated item', [item('Éditions'), item('b')]],
  ['a dated item only', [item('Ünïcödé', 1999)]],
];

for (const [name, items] of cases) {
  test(`an encoded feed sends the same bytes as its pieces joined: ${name}`, (t) => {
    const compiled = compileVersionsFeed(feedModelWith(items, { title: 'Versões', description: 'Mostrando 1 - 3' }));
    // pubDate i between pieces i and i + 1, as text.
    const expected = compiled.pieces.map((piece, i) => (i === 0 ? piece : pubDateText(compiled.pubDateYears[i - 1]!) + piece)).join('');
    const encoded = encodeFeed(compiled);
    t.is(feedBytes(encoded, (year) => Buffer.from(pubDateText(year))).toString('utf8'), expected);
  });
}

test('an encoded feed holds a buffer of its own, not a slice of a shared slab', (t) => {
  const encoded = encodeFeed(compileVersionsFeed(feedModelWith([item('small', 2020)])));
  t.true(encoded.bytes.length < 4096, 'small enough that Buffer.from would have cut it from the pool');
  t.is(encoded.bytes.buffer.byteLength, encoded.bytes.length);
});
