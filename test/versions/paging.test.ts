import test from 'ava';
import { lastPageOf, MAX_PAGE, pageNumberFrom, visiblePageNumbers } from '../../src/versions/paging.js';

test('page numbers: whole numbers from 1; anything else is 1; huge ones are capped', (t) => {
  t.is(pageNumberFrom('3'), 3);
  t.is(pageNumberFrom(' 7 '), 7);
  for (const value of [undefined, '', '0', '-2', 'abc', '2.5', '1e3', '0x10', 'NaN']) t.is(pageNumberFrom(value), 1, String(value));
  t.is(pageNumberFrom('99999999999999999999999'), 1, 'beyond 16 digits is not a number we read');
  t.is(pageNumberFrom('9999999999999999'), MAX_PAGE);
});

test('last page is at least 1', (t) => {
  t.is(lastPageOf(0, 50), 1);
  t.is(lastPageOf(50, 50), 1);
  t.is(lastPageOf(51, 50), 2);
});

test('visible page numbers: first, last and a window around the current page', (t) => {
  t.deepEqual(visiblePageNumbers(1, 3), [1, 2, 3]);
  t.deepEqual(visiblePageNumbers(10, 250), [1, 8, 9, 10, 11, 12, 250]);
  t.deepEqual(visiblePageNumbers(250, 250), [1, 248, 249, 250]);
  t.deepEqual(visiblePageNumbers(1, 1), [1]);
});
