/**
 * The plugin mounted on the Solr adapter, end to end: a Solr that answers (in Solr's JSON format, from a
 * local HTTP server), and Solrs that are down, silent or broken, which must give the localised 503 page
 * quickly with the cause in the log only. Then kept answers on Solr: once the adapter's background read of
 * the index version (contentVersion) has confirmed it, feeds, pages and 304s are answered without a
 * question to Solr; a change shows within about versionCheckMs; a Solr that cannot be asked gets kept
 * answers for at most maxStalenessMs, then the 503 page; versionCheckMs 0 keeps nothing.
 * Last, the plugin on a real Solr, when tools/solr/start.sh (or SOLR_TEST_URL / SOLR_CLOUD_TEST_URL) names one.
 */
import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as cheerio from 'cheerio';
import { createSolrIndex } from '../../../src/index.js';
import { createSolrWriter, solrIngestWriter } from '../../../src/adapters/solr/solrWriter.js';
import { loadRecordFiles } from '../../../src/cli/loadRecords.js';
import { recordFormatNamed } from '../../../src/ingest/recordFormats.js';
import { skippedWithoutSolr, solrCore, solrTargets, updateSolr, type SolrTarget } from '../../support/realSolr.js';
import { channelOf, itemsOf, parseFeed, textOf } from '../../support/parseFeed.js';
import { hostFor } from '../../support/testHost.js';
import { note } from '../../support/testNotes.js';
import { openEmbeddedIndex } from '../../../src/entries/sqlite.js';

async function serve(handler: RequestListener): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/solr/biblio`, server };
}

const solrAnswer = (docs: object[], numFound = docs.length) => JSON.stringify({
  responseHeader: { status: 0, QTime: 1, params: {} },
  response: { numFound, start: 0, numFoundExact: true, docs },
});

const THESIS = {
  id: 'usp:1', title: 'O ensino de ciências', author: ['Pereira, Ana Clara'], format: ['Thesis'], publishDate: ['2019'],
  last_indexed: '2025-03-10T12:00:00Z', work_keys_str_mv: ['AT pereiraanaclara oensinodeciencias'], _version_: 1,
};
const COPY = { ...THESIS, id: 'bdtd:9', last_indexed: '2025-04-02T08:30:00Z' };

test('a Solr that answers: the feed lists what Solr returned, in Solr\'s order', async (t) => {
  const { url, server } = await serve((request, response) => {
    const query = new URL(request.url ?? '/', 'http://x').searchParams.get('q') ?? '';
    response.setHeader('content-type', 'application/json');
    if (query.startsWith('id:')) response.end(solrAnswer(query === 'id:"usp:1"' ? [THESIS] : []));
    else response.end(solrAnswer([COPY, THESIS]));
  });
  t.teardown(() => server.close());
  const index = createSolrIndex({ url, timeoutMs: 2000 });
  t.teardown(() => index.close());
  const { request } = hostFor(index);
  const document = parseFeed((await request.get('/Search/Versions?id=usp%3A1&view=rss').expect(200)).text);
  t.is(textOf(channelOf(document), 'opensearch:totalResults'), '2');
  t.deepEqual(itemsOf(document).map((item) => textOf(item, 'guid')), [
    'https://catalog.example.edu/Record/bdtd:9', 'https://catalog.example.edu/Record/usp:1',
  ]);
  await request.get('/Search/Versions?id=nope').expect(404);
});

const faults: Array<[string, RequestListener | 'closed']> = [
  ['refusing connections', 'closed'],
  ['never answering', () => undefined],
  ['answering HTTP 500 with a Solr error', (_req, res) => res.writeHead(500, { 'content-type': 'application/json' })
    .end(JSON.stringify({ responseHeader: { status: 500 }, error: { msg: 'java.lang.OutOfMemoryError secret-detail', code: 500 } }))],
  ['answering garbage', (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"response": [not json')],
  ['answering an HTML proxy page', (_req, res) => res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body>Bad gateway secret-detail</body></html>')],
];

for (const [name, behaviour] of faults) {
  test(`a Solr ${name}: the localised 503 page, quickly, the cause in the log only`, async (t) => {
    const { url, server } = await serve(behaviour === 'closed' ? () => undefined : behaviour);
    if (behaviour === 'closed') await new Promise((resolve) => server.close(resolve));
    else t.teardown(() => { server.closeAllConnections(); server.close(); });
    const index = createSolrIndex({ url, timeoutMs: 300 });
    t.teardown(() => index.close());
    const { request, logged } = hostFor(index);
    for (const view of ['', '&view=rss']) {
      const started = Date.now();
      const response = await request.get(`/Search/Versions?id=usp%3A1&lng=pt-br${view}`).expect(503);
      t.true(Date.now() - started < 2000, 'every Solr request has a deadline');
      const $ = cheerio.load(response.text);
      t.is($('h1').text().trim(), 'Erro na aplicação');
      t.false(/secret-detail|OutOfMemory|127\.0\.0\.1|ECONNREFUSED/.test(response.text));
    }
    t.true(logged.some((line) => line.level === 'error' && /INDEX_UNAVAILABLE/.test(line.message)));
  });
}

// ---------------------------------------------------------------------------------------------------
// Kept answers on Solr: the adapter's contentVersion() (a background read of the index version)

type Doc = typeof THESIS;

/**
 * A Solr that answers the adapter's three questions from `docs` (read at each request, so a test may
 * change them): a record by id, versions by key (newest first), and the index version reads (the count,
 * with a facet.query counting documents above a `_version_`, then those documents' `_version_`).
 * `questions` counts the first two, the reads apart.
 */
function versionedSolr(docs: Doc[], state: { failing: boolean; questions: number; reads: number }): RequestListener {
  return (request, response) => {
    const params = new URL(request.url ?? '/', 'http://x').searchParams;
    const query = params.get('q') ?? '';
    if (state.failing) {
      response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ responseHeader: { status: 500 }, error: { msg: 'down', code: 500 } }));
      return;
    }
    response.setHeader('content-type', 'application/json');
    const above = (range: string | null | undefined) => {
      const lowest = /^_version_:\{(\d+) TO \*\]$/.exec(range ?? '')?.[1];
      return docs.filter((doc) => lowest === undefined || doc._version_ > Number(lowest));
    };
    if (query === '*:*' && params.get('rows') === '0') {
      state.reads++;
      const facetQuery = params.get('facet.query')?.replace(/^\{!key=newer\}/, '');
      response.end(JSON.stringify({
        ...JSON.parse(solrAnswer([], docs.length)),
        ...(facetQuery === undefined ? {} : { facet_counts: { facet_queries: { newer: above(facetQuery).length } } }),
      }));
      return;
    }
    if (params.get('fl') === '_version_') {
      response.end(solrAnswer(above(query === '*:*' ? undefined : query).map((doc) => ({ _version_: doc._version_ }))));
      return;
    }
    state.questions++;
    if (query.startsWith('id:')) {
      response.end(solrAnswer(docs.filter((doc) => query === `id:"${doc.id}"`)));
      return;
    }
    const key = query.replace(/^\{![^}]*\}/, '');
    response.end(solrAnswer(docs.filter((doc) => doc.work_keys_str_mv.includes(key)).sort((a, b) => (a.last_indexed < b.last_indexed ? 1 : -1))));
  };
}

const FEED = '/Search/Versions?id=usp%3A1&view=rss';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function solrHost(t: { teardown(fn: () => unknown): void }, docs: Doc[], options: { versionCheckMs: number; maxStalenessMs?: number }) {
  const state = { failing: false, questions: 0, reads: 0 };
  const { url, server } = await serve(versionedSolr(docs, state));
  t.teardown(() => { server.closeAllConnections(); server.close(); });
  const index = createSolrIndex({ url, timeoutMs: 2000, ...options });
  t.teardown(() => index.close());
  return { state, index, ...hostFor(index) };
}

/** Asks for the feed until an answer comes without a question to Solr (kept), or fails after 15 s. */
async function untilKept(request: ReturnType<typeof hostFor>['request'], state: { questions: number }): Promise<void> {
  for (const until = Date.now() + 15_000; Date.now() < until; await sleep(5)) {
    const before = state.questions;
    await request.get(FEED).expect(200);
    if (state.questions === before) return;
  }
  throw new Error('answers were never kept');
}

test('on Solr, answers are kept once the index version is known: feeds, pages and 304s without a question to Solr', async (t) => {
  const { state, request } = await solrHost(t, [THESIS, COPY], { versionCheckMs: 20 });
  const first = await request.get(FEED).expect(200);
  t.is(state.questions, 2, 'the first answer is built: the record, then its versions');
  await untilKept(request, state);
  const questions = state.questions;
  for (let i = 0; i < 5; i++) {
    const again = await request.get(FEED).expect(200);
    t.is(again.headers.etag, first.headers.etag);
    t.is(textOf(channelOf(parseFeed(again.text)), 'opensearch:totalResults'), '2');
  }
  await request.get(FEED).set('If-None-Match', String(first.headers.etag)).expect(304);
  await request.get('/Search/Versions?id=usp%3A1').expect(200);
  await request.get('/Search/Versions?id=usp%3A1').expect(200);
  t.is(state.questions, questions + 2, 'only the page\'s first answer was built; every other answer was kept');
  t.true(state.reads >= 2, 'the version was read in the background');
});

test('on Solr, a change shows within about versionCheckMs: kept answers are dropped and built anew', async (t) => {
  const docs: Doc[] = [THESIS, COPY];
  const { state, request } = await solrHost(t, docs, { versionCheckMs: 40 });
  await untilKept(request, state);
  docs.push({ ...THESIS, id: 'bdtd:10', last_indexed: '2025-05-01T00:00:00Z', _version_: 2 });
  const changedAt = Date.now();
  let total = '';
  while (Date.now() - changedAt < 15_000) {
    total = textOf(channelOf(parseFeed((await request.get(FEED).expect(200)).text)), 'opensearch:totalResults') ?? '';
    if (total === '3') break;
    await sleep(5);
  }
  const shownAfter = Date.now() - changedAt;
  t.is(total, '3');
  // The next read starts at most one interval after the change (or right after one already under way),
  // plus the reads' own time: well under a second, unless the machine is very busy (hence the margin).
  t.true(shownAfter < 4000, `shown after ${shownAfter} ms`);
});

test('on Solr that cannot be asked, kept answers serve for at most maxStalenessMs, then the 503 page', async (t) => {
  const { state, request, logged } = await solrHost(t, [THESIS, COPY], { versionCheckMs: 20, maxStalenessMs: 600 });
  await untilKept(request, state);
  state.failing = true;
  const failedAt = Date.now();
  let kept = 0;
  let status = 200;
  while (Date.now() - failedAt < 15_000) {
    status = (await request.get(FEED)).status;
    if (status !== 200) break;
    kept++;
    await sleep(5);
  }
  const lapsedAfter = Date.now() - failedAt;
  t.is(status, 503);
  t.true(kept > 0, 'kept answers went on being served for a while');
  // 600 ms after the start of the last good read (about one interval before the failure; wide margins
  // for a loaded machine, where a read may take a while).
  t.true(lapsedAfter >= 300 && lapsedAfter < 3000, `503 after ${lapsedAfter} ms`);
  t.true(logged.some((line) => line.level === 'error' && /INDEX_UNAVAILABLE/.test(line.message)));
});

test('on Solr with versionCheckMs 0, every answer is built afresh and the version is never read', async (t) => {
  const { state, request } = await solrHost(t, [THESIS, COPY], { versionCheckMs: 0 });
  for (let i = 0; i < 4; i++) {
    await request.get(FEED).expect(200);
    await sleep(10);
  }
  t.is(state.questions, 8);
  t.is(state.reads, 0);
});

// ---------------------------------------------------------------------------------------------------
// The plugin on a real Solr (test/support/realSolr.ts: standalone and two-shard SolrCloud cores of
// this file's own). On a VuFind MARC core filled by the loader ("e2e_vufind"), every fixture record's feed
// and page equal the embedded index's on the same files; on an aggregator's core ("e2e_aggregator",
// documents as its crosswalk writes them: no keys, no last_indexed) each record lists itself. On both,
// answers are kept once the version is read, and a committed change shows within the documented bound.

const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));
const fixtureFiles = () => readdirSync(FIXTURES).filter((name) => name.endsWith('.jsonl')).sort()
  .map((name) => ({ path: join(FIXTURES, name), format: recordFormatNamed('jsonl')! }));
const fixtureIds = () => [...new Set(fixtureFiles().flatMap(({ path }) => readFileSync(path, 'utf8').split('\n')
  .filter((line) => line.trim() !== '').map((line) => String((JSON.parse(line) as { id: unknown }).id))))];
const aggregatorDocuments = () => JSON.parse(readFileSync(join(FIXTURES, 'aggregator-dc-without-keys.solr.json'), 'utf8')) as Array<Record<string, unknown>>;
// One clock for both loads, so that records without last_indexed get the same one in both indexes.
const LOAD_CLOCK = new Date('2025-06-01T00:00:00Z');

async function filledCore(target: SolrTarget, schema: 'vufind' | 'aggregator'): Promise<string> {
  const url = await solrCore(target, `e2e_${schema}`, schema);
  await updateSolr(url, { delete: { query: '*:*' } });
  if (schema === 'aggregator') {
    await updateSolr(url, aggregatorDocuments());
  } else {
    await loadRecordFiles({ files: fixtureFiles(), writer: solrIngestWriter(createSolrWriter({ url, commitWithinMs: 0 }), 'Solr'), clock: LOAD_CLOCK });
  }
  return url;
}

if (!skippedWithoutSolr(test, 'the plugin end to end')) {
  for (const target of solrTargets()) {
    const cores = { vufind: filledCore(target, 'vufind'), aggregator: filledCore(target, 'aggregator') };
    // Failing here fails the tests that await it, not the whole file.
    for (const core of Object.values(cores)) core.catch(() => undefined);

    test.serial(`real Solr (${target.name}, VuFind MARC core): every fixture record's feed and page are byte for byte the embedded index's`, async (t) => {
      const url = await cores.vufind;
      const embedded = openEmbeddedIndex({ path: ':memory:', keyProfile: 'vufind' });
      t.teardown(() => embedded.close());
      await loadRecordFiles({ files: fixtureFiles(), writer: embedded.openWriter(), clock: LOAD_CLOCK });
      const solr = createSolrIndex({ url, versionCheckMs: 0 });
      t.teardown(() => solr.close());
      const fromSolr = hostFor(solr).request;
      const fromEmbedded = hostFor(embedded).request;
      const ids = fixtureIds();
      t.true(ids.length >= 20);
      for (const id of ids) {
        for (const view of ['&view=rss', '&lng=pt-br', '&view=rss&lng=es']) {
          const path = `/Search/Versions?id=${encodeURIComponent(id)}${view}`;
          const [a, b] = [await fromSolr.get(path), await fromEmbedded.get(path)];
          t.is(a.status, b.status, path);
          t.is(a.text, b.text, path);
        }
      }
    });

    test.serial(`real Solr (${target.name}, aggregator core without keys): each record lists itself`, async (t) => {
      const url = await cores.aggregator;
      const solr = createSolrIndex({ url, versionCheckMs: 0 });
      t.teardown(() => solr.close());
      const { request } = hostFor(solr);
      for (const { id } of aggregatorDocuments()) {
        const feed = parseFeed((await request.get(`/Search/Versions?id=${encodeURIComponent(String(id))}&view=rss`).expect(200)).text);
        t.is(textOf(channelOf(feed), 'opensearch:totalResults'), '1');
        t.deepEqual(itemsOf(feed).map((item) => decodeURIComponent(textOf(item, 'guid') ?? '')), [`https://catalog.example.edu/Record/${String(id)}`]);
      }
    });

    for (const schema of ['vufind', 'aggregator'] as const) {
      test.serial(`real Solr (${target.name}, ${schema} core): answers are kept once the version is read, and a committed change shows within the bound`, async (t) => {
        const url = await cores[schema];
        const questions: string[] = [];
        const index = createSolrIndex({ url, versionCheckMs: 50, logger: { debug: (line) => { if (!/indexVersion/.test(line)) questions.push(line); } } });
        t.teardown(() => index.close());
        const { request } = hostFor(index);
        const id = schema === 'vufind' ? 'usp:tese-2019-0412' : String(aggregatorDocuments()[2]!.id);
        const feed = `/Search/Versions?id=${encodeURIComponent(id)}&view=rss`;
        const titleNow = async () => itemsOf(parseFeed((await request.get(feed).expect(200)).text)).map((item) => textOf(item, 'title')).join(' | ');
        const before = await titleNow();
        let kept = false;
        for (const until = Date.now() + 15_000; !kept && Date.now() < until; await sleep(5)) {
          const asked = questions.length;
          await request.get(feed).expect(200);
          kept = questions.length === asked;
        }
        t.true(kept, 'an answer came without a question to Solr');
        // The record replaced with a new title, as a re-harvest or re-index does.
        const stored = await (await fetch(`${url}/select?q=${encodeURIComponent(`id:"${id}"`)}&wt=json`)).json() as { response: { docs: Array<Record<string, unknown>> } };
        const { _version_: _dropped, ...document } = stored.response.docs[0]!;
        t.teardown(() => updateSolr(url, [document]));
        await updateSolr(url, [{ ...document, title: `${String(document.title)} (revised)` }]);
        const committedAt = Date.now();
        let now = before;
        while (now === before && Date.now() - committedAt < 15_000) now = await titleNow();
        const shownAfter = Date.now() - committedAt;
        t.regex(now ?? '', /\(revised\)/);
        // docs/solr.md: within about one interval plus the read's own time; the margin is for a busy machine.
        t.true(shownAfter < 4000, `shown after ${shownAfter} ms`);
        note(t, `change shown after ${shownAfter} ms`);
      });
    }
  }
}
