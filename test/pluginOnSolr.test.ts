/**
 * The plugin mounted on the Solr adapter, end to end: a Solr that answers (in Solr's JSON format, from a
 * local HTTP server), and Solrs that are down, silent or broken, which must give the localised 503 page
 * quickly with the cause in the log only.
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
