/**
 * The names of the orders of versions (src/record/recordOrder.ts): the engines' own and those on record
 * fields are the orders a query may name, and a page in any of them is cut by one of the engines' own.
 */
import test from 'ava';
import { engineOrderOf, ENGINE_ORDERS, isVersionsOrder, RECORD_FIELD_ORDERS, type EngineOrder } from '../../src/record/recordOrder.js';

test('an order of either list is an order of versions; anything else is not', (t) => {
  for (const order of [...ENGINE_ORDERS, ...RECORD_FIELD_ORDERS]) t.true(isVersionsOrder(order), order);
  for (const other of ['newest', 'Relevance', 'last_indexed desc', 'year', '', undefined, null, 42]) t.false(isVersionsOrder(other), String(other));
});

const CUT_BY: [order: string, engineOrder: EngineOrder][] = [
  ['last-indexed', 'last-indexed'],
  ['relevance', 'relevance'],
  ['year-desc', 'relevance'],
  ['year-asc', 'relevance'],
  ['title', 'relevance'],
  ['author', 'relevance'],
];

for (const [order, engineOrder] of CUT_BY) {
  test(`a page in the order ${order} is cut by the engines' ${engineOrder}`, (t) => {
    t.is(engineOrderOf(order), engineOrder);
  });
}
