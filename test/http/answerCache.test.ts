import test from 'ava';
import { createAnswerCache } from '../../src/http/answerCache.js';

// Each entry costs its answer's bytes plus its key (2 bytes a character) plus a fixed overhead; the
// budgets below are written in those terms so the tests say which entries fit.
const OVERHEAD = 96;
const cost = (key: string, bytes: number) => bytes + 2 * key.length + OVERHEAD;

test('an answer is found under its key while the content version stays the same', (t) => {
  const cache = createAnswerCache<string>(10_000);
  cache.set('a', 'v1', 'answer a', 100);
  t.is(cache.get('a', 'v1'), 'answer a');
  t.is(cache.get('b', 'v1'), undefined);
  t.is(cache.size, 1);
  t.is(cache.bytes, cost('a', 100));
});

test('another content version drops every kept answer', (t) => {
  const cache = createAnswerCache<string>(10_000);
  cache.set('a', 'v1', 'answer a', 100);
  cache.set('b', 'v1', 'answer b', 100);
  t.is(cache.get('a', 'v2'), undefined);
  t.is(cache.size, 0);
  t.is(cache.bytes, 0);
  t.is(cache.get('b', 'v1'), undefined, 'going back to an older version does not bring answers back');
});

test('an answer stored under a newer version than the kept ones replaces them all', (t) => {
  const cache = createAnswerCache<string>(10_000);
  cache.set('a', 'v1', 'old a', 100);
  cache.set('b', 'v2', 'new b', 100);
  t.is(cache.size, 1);
  t.is(cache.get('b', 'v2'), 'new b');
  t.is(cache.get('a', 'v2'), undefined);
});

test('over the budget, the least recently used answers go first', (t) => {
  const cache = createAnswerCache<string>(3 * cost('a', 100));
  cache.set('a', 'v', 'A', 100);
  cache.set('b', 'v', 'B', 100);
  cache.set('c', 'v', 'C', 100);
  t.is(cache.get('a', 'v'), 'A', 'a is used, so b is now the least recently used');
  cache.set('d', 'v', 'D', 100);
  t.is(cache.get('b', 'v'), undefined);
  t.deepEqual(['a', 'c', 'd'].map((key) => cache.get(key, 'v')), ['A', 'C', 'D']);
  t.true(cache.bytes <= 3 * cost('a', 100));
});

test('a large answer pushes out as many small ones as it needs', (t) => {
  const cache = createAnswerCache<string>(4 * cost('a', 100));
  for (const key of ['a', 'b', 'c', 'd']) cache.set(key, 'v', key, 100);
  cache.set('e', 'v', 'E', 2 * cost('a', 100));
  t.is(cache.size, 2);
  t.deepEqual(['a', 'b', 'c', 'd', 'e'].map((key) => cache.get(key, 'v')), [undefined, undefined, undefined, 'd', 'E']);
});

test('an answer larger than the whole budget is not kept and pushes nothing out', (t) => {
  const cache = createAnswerCache<string>(1_000);
  cache.set('a', 'v', 'A', 100);
  cache.set('huge', 'v', 'H', 5_000);
  t.is(cache.get('huge', 'v'), undefined);
  t.is(cache.get('a', 'v'), 'A');
});

test('storing a key again replaces its answer and its bytes', (t) => {
  const cache = createAnswerCache<string>(10_000);
  cache.set('a', 'v', 'first', 100);
  cache.set('a', 'v', 'second', 300);
  t.is(cache.get('a', 'v'), 'second');
  t.is(cache.size, 1);
  t.is(cache.bytes, cost('a', 300));
});
