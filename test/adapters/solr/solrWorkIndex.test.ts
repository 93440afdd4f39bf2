/**
 * The work index beside a Solr core (src/adapters/solr/workIndex/): documents as Solr returns them, keyed
 * by a key profile given as a function, answering versions pages and counts; the order time from
 * last_indexed or, for documents without one (an aggregator's), from the time in `_version_`.
 */
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { orderTimeOf, solrVersionOf } from '../../../src/adapters/solr/workIndex/documentOrder.js';
import { openWorkIndex, type KeysOf } from '../../../src/adapters/solr/workIndex/workIndexFile.js';
import { isWorkOf, pageOfDocumentWork } from '../../../src/adapters/solr/workIndex/documentWork.js';
import { InvalidOptionError } from '../../../src/errors.js';

/** A toy profile: one key per stored DC title, lower-cased (the real profiles come from work-keys/). */
const titleKeys: KeysOf = (document) => {
  const titles = document['dc.title.none.fl_str_mv'];
  return Array.isArray(titles) ? titles.map((title) => `T ${String(title).toLowerCase()}`) : [];
};

// _version_ values as Solr writes them: milliseconds since the epoch shifted left 20 bits, plus a counter.
const versionAt = (iso: string, counter = 0) => String((BigInt(Date.parse(iso)) << 20n) + BigInt(counter));

const aggregatorDocument = (id: string, titles: string[], indexedAt: string, extra: Record<string, unknown> = {}) => ({
  id, title: titles[0], 'dc.title.none.fl_str_mv': titles, _version_: versionAt(indexedAt), ...extra,
});

test('orderTimeOf: last_indexed when usable, else the time Solr encodes in _version_, else none', (t) => {
  t.is(orderTimeOf({ last_indexed: '2025-03-10T12:00:00Z', _version_: versionAt('2020-01-01T00:00:00Z') }), Date.parse('2025-03-10T12:00:00Z'));
  t.is(orderTimeOf({ last_indexed: ['2025-03-10T12:00:00Z'] }), Date.parse('2025-03-10T12:00:00Z'));
  t.is(orderTimeOf({ last_indexed: 'not a date', _version_: versionAt('2024-02-29T23:59:59.999Z', 5) }), Date.parse('2024-02-29T23:59:59.999Z'));
  t.is(orderTimeOf({ _version_: Number(versionAt('2026-11-25T15:50:00.123Z', 1000)) }), Date.parse('2026-11-25T15:50:00.123Z'), 'a rounded JSON number still gives the millisecond');
  t.is(orderTimeOf({ title: 'no time at all' }), undefined);
  t.is(solrVersionOf({ _version_: '1882845937761517569' }), 1882845937761517569n, 'digits kept exactly');
  t.is(solrVersionOf({ _version_: -5 }), undefined);
});

test('versions by shared keys, newest first by last_indexed or _version_ time, ties by id; relevance by id; paging keeps the total', (t) => {
  const index = openWorkIndex({ path: ':memory:', keysOf: titleKeys });
  t.teardown(() => index.close());
  const summary = index.put([
    aggregatorDocument('oai:a:1', ['Educação ambiental', 'Environmental education'], '2025-01-01T00:00:00Z'),
    aggregatorDocument('oai:b:7', ['Educação ambiental'], '2025-03-01T00:00:00Z'),
    aggregatorDocument('oai:c:2', ['Environmental education'], '2025-02-01T00:00:00Z', { last_indexed: '2025-06-01T00:00:00Z' }),
    aggregatorDocument('oai:c:1', ['Environmental education'], '2025-06-01T00:00:00Z'),
    aggregatorDocument('oai:d:1', ['Hidrologia do cerrado'], '2025-01-05T00:00:00Z'),
    { id: 'oai:e:1', title: 'No DC titles', _version_: versionAt('2025-01-06T00:00:00Z') },
  ]);
  t.deepEqual(summary, { stored: 6, withoutKeys: 1, refused: [], unkeyable: {} });
  // The file keeps key ids, not key texts: a record's keys are made again from its document (titleKeys).
  const keys = ['T educação ambiental', 'T environmental education'];
  t.deepEqual(index.findVersions({ workKeys: [keys[0]!], order: 'relevance', offset: 0, limit: 10 }).ids, ['oai:a:1', 'oai:b:7']);
  t.deepEqual(index.findVersions({ workKeys: [keys[1]!], order: 'relevance', offset: 0, limit: 10 }).ids, ['oai:a:1', 'oai:c:1', 'oai:c:2']);
  t.deepEqual(index.findVersions({ workKeys: keys, order: 'last-indexed', offset: 0, limit: 10 }),
    { total: 4, ids: ['oai:c:1', 'oai:c:2', 'oai:b:7', 'oai:a:1'] });
  t.deepEqual(index.findVersions({ workKeys: keys, order: 'relevance', offset: 0, limit: 10 }).ids, ['oai:a:1', 'oai:b:7', 'oai:c:1', 'oai:c:2']);
  t.deepEqual(index.findVersions({ workKeys: keys, order: 'last-indexed', offset: 1, limit: 2 }), { total: 4, ids: ['oai:c:2', 'oai:b:7'] });
  // Each record counts the documents sharing any of its own keys: oai:b:7 has only the Portuguese title.
  t.deepEqual(Object.fromEntries(index.countVersions(['oai:a:1', 'oai:b:7', 'oai:d:1', 'oai:e:1', 'missing', 'oai:b:7'])),
    { 'oai:a:1': 4, 'oai:b:7': 2, 'oai:d:1': 1, 'oai:e:1': 1 });
});

test('a replaced document takes its new keys and time; a removed one is gone; documents that cannot be ordered are reported', (t) => {
  const index = openWorkIndex({ path: ':memory:', keysOf: titleKeys });
  t.teardown(() => index.close());
  index.put([aggregatorDocument('x:1', ['Alpha'], '2025-01-01T00:00:00Z'), aggregatorDocument('x:2', ['Alpha'], '2025-01-02T00:00:00Z')]);
  index.put([aggregatorDocument('x:1', ['Beta'], '2025-01-03T00:00:00Z')]);
  t.deepEqual(index.findVersions({ workKeys: ['T alpha'], order: 'last-indexed', offset: 0, limit: 10 }), { total: 1, ids: ['x:2'] });
  t.deepEqual(index.findVersions({ workKeys: ['T beta'], order: 'last-indexed', offset: 0, limit: 10 }), { total: 1, ids: ['x:1'] });
  t.is(index.remove(['x:2', 'x:2', 'never-there']), 1);
  t.deepEqual(index.findVersions({ workKeys: ['T alpha'], order: 'last-indexed', offset: 0, limit: 10 }), { total: 0, ids: [] });
  t.is(index.count(), 1);
  const summary = index.put([{ id: 'x:3', 'dc.title.none.fl_str_mv': ['Gamma'] }, { title: 'no id', _version_: versionAt('2025-01-01T00:00:00Z') }]);
  t.deepEqual(summary, { stored: 0, withoutKeys: 0, unkeyable: {}, refused: [
    { id: 'x:3', reason: 'neither last_indexed nor _version_ to order it by' },
    { id: undefined, reason: 'no usable id' },
  ] });
});

test('a first walk\'s staged puts: no versions joined until the move, then the same answers as puts one by one; later puts replace as before', (t) => {
  const documents = [
    aggregatorDocument('s:1', ['Educação ambiental', 'Environmental education'], '2025-01-01T00:00:00Z'),
    aggregatorDocument('s:2', ['Educação ambiental'], '2025-03-01T00:00:00Z'),
    aggregatorDocument('s:3', ['Environmental education'], '2025-02-01T00:00:00Z'),
    aggregatorDocument('s:4', ['Hidrologia'], '2025-01-05T00:00:00Z'),
  ];
  const direct = openWorkIndex({ path: ':memory:', keysOf: titleKeys });
  const staged = openWorkIndex({ path: ':memory:', keysOf: titleKeys });
  t.teardown(() => { direct.close(); staged.close(); });
  direct.put(documents);
  t.deepEqual(staged.put(documents.slice(0, 2), { staged: true }), { stored: 2, withoutKeys: 0, refused: [], unkeyable: {} });
  staged.put(documents.slice(2), { staged: true });
  const keys = ['T educação ambiental', 'T environmental education'];
  const ask = (index: typeof direct) => ({
    feed: index.findVersions({ workKeys: keys, order: 'last-indexed', offset: 0, limit: 10 }),
    counts: Object.fromEntries(index.countVersions(['s:1', 's:2', 's:3', 's:4'])),
  });
  t.deepEqual(ask(staged), { feed: { total: 0, ids: [] }, counts: { 's:1': 1, 's:2': 1, 's:3': 1, 's:4': 1 } }, 'staged links are not answered from');
  t.is(staged.count(), 4);
  const before = staged.changeCount();
  staged.moveStagedKeys();
  t.true(staged.changeCount() > before, 'the move changes the answers\' version');
  t.deepEqual(ask(staged), ask(direct));
  t.deepEqual(ask(staged).feed, { total: 3, ids: ['s:2', 's:3', 's:1'] });
  staged.put([aggregatorDocument('s:2', ['Hidrologia'], '2025-04-01T00:00:00Z')]);
  t.deepEqual(staged.findVersions({ workKeys: ['T hidrologia'], order: 'last-indexed', offset: 0, limit: 10 }).ids, ['s:2', 's:4']);
  t.deepEqual(staged.findVersions({ workKeys: keys, order: 'relevance', offset: 0, limit: 10 }).ids, ['s:1', 's:3']);
});

test('the file keeps its documents and the highest _version_ (exact) across reopening', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-versions-work-index-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'work-index.sqlite');
  const first = openWorkIndex({ path, keysOf: titleKeys });
  t.is(first.highestVersion(), undefined);
  first.put([aggregatorDocument('y:1', ['Delta'], '2025-01-01T00:00:00Z'), { ...aggregatorDocument('y:2', ['Delta'], '2025-01-01T00:00:00Z'), _version_: versionAt('2025-05-05T05:05:05Z', 3) }]);
  first.put([aggregatorDocument('y:3', ['Delta'], '2025-02-01T00:00:00Z')]);
  first.close();
  const again = openWorkIndex({ path, keysOf: titleKeys });
  t.teardown(() => again.close());
  t.is(again.highestVersion(), versionAt('2025-05-05T05:05:05Z', 3), 'not lowered by a later put of older documents');
  t.deepEqual(again.findVersions({ workKeys: ['T delta'], order: 'last-indexed', offset: 0, limit: 10 }).ids, ['y:2', 'y:3', 'y:1']);
});

test('a large work kept in memory and the file\'s state follow the file once a turn: another open\'s sync on the next turn, this open\'s writes at once', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-versions-work-index-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'work-index.sqlite');
  const server = openWorkIndex({ path, keysOf: titleKeys });
  const sync = openWorkIndex({ path, keysOf: titleKeys });
  t.teardown(() => {
    server.close();
    sync.close();
  });
  const edition = (n: number) => aggregatorDocument(`big:${String(n).padStart(3, '0')}`, ['Grande sertão'], `2025-01-01T00:${String(n % 60).padStart(2, '0')}:00Z`);
  // Large enough to be kept in memory (workIndexFile.ts KEPT_WORK_LEAST_DOCUMENTS).
  sync.put(Array.from({ length: 60 }, (_, n) => edition(n)));
  const work = () => server.findVersions({ workKeys: ['T grande sertão'], order: 'relevance', offset: 0, limit: 5 });
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
  t.is(work().total, 60);
  t.is(server.stateThisTurn('facet_fields'), undefined);
  const version = server.changeCount();

  sync.put([edition(60)]);
  sync.setState({ facet_fields: 'format,language' });
  t.is(work().total, 60, 'within the turn the file is read once');
  t.is(server.changeCount(), version);
  t.is(server.stateThisTurn('facet_fields'), undefined);
  await nextTurn();
  t.is(work().total, 61, 'another open\'s sync is seen on the next turn');
  t.true(server.changeCount() > version);
  t.is(server.stateThisTurn('facet_fields'), 'format,language');

  server.put([edition(61)]);
  t.is(work().total, 62, 'this open\'s write is seen at once');
  server.remove(['big:000', 'big:001']);
  t.is(work().total, 60);
  server.setState({ facet_fields: 'format' });
  t.is(server.stateThisTurn('facet_fields'), 'format');
  server.transaction(() => server.put([edition(62)]));
  t.is(work().total, 61);
  t.throws(() => server.transaction(() => {
    server.put([edition(63)]);
    t.is(work().total, 62, 'inside its transaction the open sees its own write');
    throw new Error('rolled back');
  }), { message: 'rolled back' });
  t.is(work().total, 61, 'a rolled-back write is not kept');
});

test('a document\'s small work from the file gives the pages and tally findVersions and facetedVersions give for its keys, and is not taken for other keys', (t) => {
  const index = openWorkIndex({
    path: ':memory:', keysOf: titleKeys,
    facetsOf: (document) => (Array.isArray(document.format) ? document.format.map((value) => ['format', String(value)] as const) : []),
  });
  t.teardown(() => index.close());
  index.put([
    // Two at the same time (ties go by id), ids whose order differs by case and accent, a bridge title joining two works.
    aggregatorDocument('w:b', ['Vidas secas'], '2025-02-01T00:00:00Z', { format: ['Book'] }),
    aggregatorDocument('W:a', ['Vidas secas'], '2025-02-01T00:00:00Z', { format: ['Book', 'eBook'] }),
    aggregatorDocument('w:é', ['Vidas secas', 'Barren lives'], '2025-03-01T00:00:00Z', { format: ['eBook'] }),
    aggregatorDocument('w:c', ['Barren lives'], '2025-01-01T00:00:00Z', { format: ['Audio'] }),
    aggregatorDocument('w:d', ['Barren lives'], '2025-04-01T00:00:00Z'),
    aggregatorDocument('w:alone', ['São Bernardo'], '2025-01-01T00:00:00Z', { format: ['Book'] }),
    { id: 'w:nokeys', title: 'No DC titles', _version_: versionAt('2025-01-06T00:00:00Z') },
  ]);
  for (const id of ['w:b', 'W:a', 'w:é', 'w:c', 'w:d', 'w:alone', 'w:nokeys']) t.true(index.workOfDocument(id, 50)!.ids.includes(id), id);
  const bridge = index.workOfDocument('w:é', 50)!;
  const own = ['T vidas secas', 'T barren lives'];
  t.true(isWorkOf(bridge, own));
  t.true(isWorkOf(bridge, [...own].reverse().concat(own)), 'order and repeats do not matter');
  t.false(isWorkOf(bridge, own.slice(0, 1)), 'a key fewer is another work');
  for (const order of ['last-indexed', 'relevance'] as const) {
    for (const [offset, limit] of [[0, 50], [0, 2], [2, 2], [4, 5], [9, 1]] as const) {
      t.deepEqual(pageOfDocumentWork(bridge, order, offset, limit), index.findVersions({ workKeys: own, order, offset, limit }), `${order} ${offset}+${limit}`);
    }
  }
  const faceted = index.facetedVersions({ workKeys: own, order: 'relevance', offset: 0, limit: 20, filters: [], facets: true });
  t.deepEqual(index.workTallyOf(bridge), faceted.tally);
  t.is(index.workTallyOf(bridge).get('format')?.get('eBook'), 2);
  t.deepEqual(index.workOfDocument('w:é', 50)!.ids, ['W:a', 'w:b', 'w:c', 'w:d', 'w:é'], 'id order as SQLite sorts');
  t.deepEqual(pageOfDocumentWork(index.workOfDocument('w:é', 50)!, 'last-indexed', 0, 50).ids, ['w:d', 'w:é', 'W:a', 'w:b', 'w:c']);
  t.is(index.workOfDocument('w:é', 4), undefined, 'more than asked: none');
  t.deepEqual(index.workOfDocument('w:nokeys', 50)!.ids, ['w:nokeys']);
  t.false(isWorkOf(index.workOfDocument('w:nokeys', 50)!, ['T no dc titles']));
  const missing = index.workOfDocument('w:missing', 50)!;
  t.deepEqual(missing.ids, ['w:missing']);
  t.false(isWorkOf(missing, ['T vidas secas']), 'a document the file does not hold has no work to answer from');
  t.true(isWorkOf(index.workOfDocument('w:b', 50)!, ['T vidas secas']));
  t.deepEqual(pageOfDocumentWork(index.workOfDocument('w:b', 50)!, 'relevance', 0, 50), index.findVersions({ workKeys: ['T vidas secas'], order: 'relevance', offset: 0, limit: 50 }));
});

test('options are checked and named', (t) => {
  t.throws(() => openWorkIndex({ path: '', keysOf: titleKeys }), { instanceOf: InvalidOptionError, message: /workIndex\.path/ });
  t.throws(() => openWorkIndex({ path: ':memory:', keysOf: 'titles' as unknown as KeysOf }), { instanceOf: InvalidOptionError, message: /workIndex\.keysOf/ });
});
