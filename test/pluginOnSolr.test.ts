/**
 * The plugin mounted on the Solr adapter, end to end: a Solr that answers (in Solr's JSON format, from a
 * local HTTP server), and Solrs that are down, silent or broken, which must give the localised 503 page
 * quickly with the cause in the log only. Then kept answers on Solr: once the adapter's background read of
 * the index version (contentVersion) has confirmed it, feeds, pages and 304s are answered without a
 * question to Solr; a change shows within about versionCheckMs; a Solr that cannot be asked gets kept
 * answers for at most maxStalenessMs, then the 503 page; versionCheckMs 0 keeps nothing.
 */
import test from 'ava';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as cheerio from 'cheerio';
import { createSolrIndex } from '../src/index.js';
import { channelOf, itemsOf, parseFeed, textOf } from './support/parseFeed.js';
import { hostFor } from './support/testHost.js';

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
