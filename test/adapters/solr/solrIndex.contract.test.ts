/**
 * Contract tests of the Solr adapter (src/adapters/solr/solrIndex.ts) against a local HTTP server.
 *
 * The server records every request (method, path, decoded parameters, body) and, where a test needs
 * results, acts as a small fake Solr: it parses the query shapes the adapter may send (`id:"…"`,
 * `{!terms f=… separator="…"}…`, `*:*`, and as facet queries `{!terms f=… separator="…" key=…}…`), filters,
 * sorts, pages, projects (`fl`) and facets its documents, and answers in Solr's JSON response format. So
 * results depend on the adapter sending the right request, not on a canned body echoing what the test
 * expects. It can also play a SolrCloud collection whose documents sit on several shards: results are
 * merged, and each facet.query is counted on every shard and the counts added up under their key, as
 * Solr's distributed faceting does; a `{!join …}` facet query (the shape countVersions sent before, still
 * understood here) then sees only its own shard, as a join does on SolrCloud. The index version reads'
 * shape (`_version_:{N TO *]` as query and as keyed facet.query) is played too. Faults (refused connections,
 * silence, HTTP errors, garbage, proxy pages) are served by dedicated handlers. The last test checks the
 * fake itself: when a real Solr is named (tools/solr/start.sh), the adapter's answers from it and from the
 * fake on the same documents must be equal.
 */
import test from 'ava';
import http from 'node:http';
import type net from 'node:net';
import type { AddressInfo } from 'node:net';
import { createSolrIndex } from '../../../src/adapters/solr/solrIndex.js';
import { checkSolrIndexOptions, DEFAULT_SOLR_TIMEOUT_MS, DEFAULT_SOLR_VERSION_CHECK_MS, SOLR_POST_THRESHOLD_BYTES, type SolrIndexOptions } from '../../../src/adapters/solr/solrIndexOptions.js';
import { encodeSolrParams } from '../../../src/adapters/solr/solrParams.js';
import type { CatalogIndex } from '../../../src/ports.js';
import { IndexUnavailableError, InvalidArgumentError, InvalidOptionError } from '../../../src/errors.js';
import { skippedWithoutSolr, solrCore, solrTargets, updateSolr } from '../../support/realSolr.js';
import { note } from '../../support/testNotes.js';

// ---------------------------------------------------------------------------------------------------
// A recording HTTP server

interface SeenRequest {
  method: string;
  path: string;
  rawQuery: string;
  query: Array<[string, string]>;
  body: string;
  form: Array<[string, string]>;
  headers: http.IncomingHttpHeaders;
}

type Handler = (seen: SeenRequest, res: http.ServerResponse) => void;
type Teardown = { teardown(fn: () => unknown): void };

/** An index closed at the end of the test whatever happens. */
function openIndex(t: Teardown, options: SolrIndexOptions): CatalogIndex {
  const index = createSolrIndex(options);
  t.teardown(() => index.close());
  return index;
}

interface TestServer {
  port: number;
  url: string;
  requests: SeenRequest[];
  sockets: Set<net.Socket>;
  close(): Promise<void>;
}

async function listen(t: Teardown, handler: Handler): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const body = Buffer.concat(chunks).toString('utf8');
      const isForm = (req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
      const seen: SeenRequest = {
        method: req.method ?? '',
        path: url.pathname,
        rawQuery: url.search,
        query: [...url.searchParams],
        body,
        form: isForm ? [...new URLSearchParams(body)] : [],
        headers: req.headers,
      };
      requests.push(seen);
      handler(seen, res);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = () => new Promise<void>((resolve) => {
    server.closeAllConnections();
    if (!server.listening) resolve();
    else server.close(() => resolve());
  });
  // Closed even when an assertion fails midway, so a failing test cannot keep the worker alive.
  t.teardown(close);
  return {
    port,
    url: `http://127.0.0.1:${port}/solr/biblio`,
    requests,
    sockets,
    close,
  };
}

/** The parameters Solr would see (URL query, then form body), with `wt=json` checked and set aside. */
function solrParamsOf(t: { deepEqual: (a: unknown, b: unknown, m?: string) => void }, seen: SeenRequest): Array<[string, string]> {
  const all = [...seen.query, ...seen.form];
  t.deepEqual(all.filter(([name]) => name === 'wt'), [['wt', 'json']], 'wt=json exactly once');
  return all.filter(([name]) => name !== 'wt');
}

function only<T>(list: readonly T[]): T {
  if (list.length !== 1) throw new Error(`expected exactly one element, got ${list.length}`);
  return list[0] as T;
}

// ---------------------------------------------------------------------------------------------------
// A small fake Solr

type SolrDoc = Record<string, unknown>;

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json;charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function responseHeader(params: Array<[string, string]>, status = 0): unknown {
  const echoed: Record<string, string | string[]> = {};
  for (const [name, value] of params) {
    const before = echoed[name];
    echoed[name] = before === undefined ? value : Array.isArray(before) ? [...before, value] : [before, value];
  }
  return { zkConnected: null, status, QTime: 3, params: echoed };
}

function solrError(res: http.ServerResponse, params: Array<[string, string]>, code: number, msg: string): void {
  sendJson(res, code, {
    responseHeader: responseHeader(params, code),
    error: {
      metadata: ['error-class', 'org.apache.solr.common.SolrException', 'root-error-class', 'org.apache.solr.search.SyntaxError'],
      msg,
      code,
    },
  });
}

const valuesOf = (doc: SolrDoc, field: string): unknown[] => {
  const value = doc[field];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
};

const PHRASE = /^(\w+):"((?:[^"\\]|\\[\s\S])*)"$/;
/** The range the index version read asks for: documents whose `_version_` is above a value. */
const VERSION_RANGE = /^_version_:\{(\d+) TO \*\]$/;

function aboveVersion(docs: readonly SolrDoc[], range: RegExpExecArray): SolrDoc[] {
  const lowest = BigInt(range[1] ?? '0');
  return docs.filter((doc) => typeof doc._version_ === 'number' && BigInt(doc._version_) > lowest);
}

function matchPhrase(docs: readonly SolrDoc[], phrase: RegExpExecArray): SolrDoc[] {
  const [, field = '', quoted = ''] = phrase;
  const value = quoted.replace(/\\([\s\S])/g, '$1');
  return docs.filter((doc) => valuesOf(doc, field).includes(value));
}

/**
 * A facet.query as one Solr core counts it: the documents of the main result matching it, under its `key`.
 * `docs` are the core's (one shard's) documents. The terms shape countVersions sends is understood, and the
 * phrase and join shapes it sent before; `undefined` for anything else.
 */
function facetQueryCount(docs: readonly SolrDoc[], result: readonly SolrDoc[], facetQuery: string): { key: string; count: number } | undefined {
  const terms = /^\{!terms f=(\w+) separator="([^"\\]*)" key=(\w+)\}([\s\S]*)$/.exec(facetQuery);
  if (terms !== null) {
    const [, field = '', separator = '', key = '', list = ''] = terms;
    const wanted = new Set(list.split(separator));
    return { key, count: result.filter((doc) => docs.includes(doc) && valuesOf(doc, field).some((v) => wanted.has(String(v)))).length };
  }
  const keyed = /^\{!key=(\w+)\}([\s\S]*)$/.exec(facetQuery);
  if (keyed !== null) {
    const [, key = '', inner = ''] = keyed;
    const phrase = PHRASE.exec(inner);
    const range = VERSION_RANGE.exec(inner);
    if (phrase === null && range === null) return undefined;
    const hits = new Set(phrase !== null ? matchPhrase(docs, phrase) : aboveVersion(docs, range as RegExpExecArray));
    return { key, count: result.filter((doc) => hits.has(doc)).length };
  }
  const join = /^\{!join from=(\w+) to=(\w+) score=none key=(\w+)\}([\s\S]*)$/.exec(facetQuery);
  if (join !== null) {
    const [, from = '', to = '', key = '', inner = ''] = join;
    const phrase = PHRASE.exec(inner);
    if (phrase === null) return undefined;
    const joined = new Set(matchPhrase(docs, phrase).flatMap((doc) => valuesOf(doc, from).map(String)));
    return { key, count: result.filter((doc) => docs.includes(doc) && valuesOf(doc, to).some((v) => joined.has(String(v)))).length };
  }
  return undefined;
}

/** A core's documents, or a collection's documents shard by shard. */
type FakeIndex = readonly SolrDoc[] | { readonly shards: ReadonlyArray<readonly SolrDoc[]> };

const shardsOf = (index: FakeIndex): ReadonlyArray<readonly SolrDoc[]> => ('shards' in index ? index.shards : [index]);

/** Sort values as Solr compares them: numbers as numbers, anything else as text. */
function compareSortValues(x: unknown, y: unknown): number {
  if (x === y) return 0;
  if (typeof x === 'number' && typeof y === 'number') return x < y ? -1 : 1;
  return String(x) < String(y) ? -1 : 1;
}

/**
 * Answers /select like Solr for the query shapes the adapter is allowed to send; anything else is a 400.
 * The documents are read at each request, so a test may change them in place between requests.
 */
function fakeSolr(index: FakeIndex): Handler {
  return (seen, res) => {
    const shards = shardsOf(index);
    const docs = shards.flat();
    const params = [...seen.query, ...seen.form];
    const get = (name: string): string | undefined => params.find(([n]) => n === name)?.[1];
    if (seen.path !== '/solr/biblio/select') {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body><h2>HTTP ERROR 404 Not Found</h2></body></html>');
      return;
    }
    if (get('wt') !== 'json') {
      solrError(res, params, 400, 'this fake answers wt=json only');
      return;
    }
    const q = get('q') ?? '';
    let matches: SolrDoc[];
    const everything = q === '*:*';
    const terms = /^\{!terms f=(\w+) separator="([^"\\]*)"\}([\s\S]*)$/.exec(q);
    const phrase = PHRASE.exec(q);
    const range = VERSION_RANGE.exec(q);
    if (everything) {
      matches = [...docs];
    } else if (range !== null) {
      matches = aboveVersion(docs, range);
    } else if (terms !== null) {
      const [, field = '', separator = ',', list = ''] = terms;
      const wanted = new Set(list.split(separator));
      matches = docs.filter((doc) => valuesOf(doc, field).some((v) => wanted.has(String(v))));
    } else if (phrase !== null) {
      matches = matchPhrase(docs, phrase);
    } else {
      solrError(res, params, 400, `org.apache.solr.search.SyntaxError: Cannot parse '${q.slice(0, 60)}'`);
      return;
    }
    const sort = (get('sort') ?? 'score desc').split(',').map((spec) => spec.trim().split(/\s+/) as [string, string]);
    matches = [...matches].sort((a, b) => {
      for (const [field, dir] of sort) {
        if (field === 'score') continue; // a filter-like query scores every match alike
        const x = valuesOf(a, field)[0];
        const y = valuesOf(b, field)[0];
        if (x === undefined || y === undefined) {
          // Missing values sort last both ways (sortMissingLast), as the configset's types do.
          if (x !== y) return x === undefined ? 1 : -1;
          continue;
        }
        const order = compareSortValues(x, y);
        if (order !== 0) return order * (dir === 'desc' ? -1 : 1);
      }
      return 0;
    });
    const start = Number(get('start') ?? 0);
    const rows = Number(get('rows') ?? 10);
    const fl = get('fl')?.split(',');
    const project = (doc: SolrDoc): SolrDoc => (fl === undefined ? doc : Object.fromEntries(fl.filter((f) => f in doc).map((f) => [f, doc[f]])));
    const body: Record<string, unknown> = {
      responseHeader: responseHeader(params),
      response: { numFound: matches.length, start, numFoundExact: true, docs: matches.slice(start, start + rows).map(project) },
    };
    if (get('facet') === 'true') {
      const limit = Number(get('facet.limit') ?? 100);
      const mincount = Number(get('facet.mincount') ?? 0);
      const facetFields: Record<string, Array<string | number>> = {};
      for (const [name, field] of params) {
        if (name !== 'facet.field') continue;
        const counts = new Map<string, number>();
        for (const doc of matches) for (const v of valuesOf(doc, field)) counts.set(String(v), (counts.get(String(v)) ?? 0) + 1);
        facetFields[field] = [...counts].filter(([, n]) => n >= mincount).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
          .slice(0, limit).flat();
      }
      const facetQueries: Record<string, number> = {};
      for (const [name, facetQuery] of params) {
        if (name !== 'facet.query') continue;
        // Counted on each shard, added up under the key (Solr's FacetComponent sums facet_queries).
        for (const shard of shards) {
          const counted = facetQueryCount(shard, matches, facetQuery);
          if (counted === undefined) {
            solrError(res, params, 400, `org.apache.solr.search.SyntaxError: this fake cannot parse facet.query ${facetQuery.slice(0, 60)}`);
            return;
          }
          facetQueries[counted.key] = (facetQueries[counted.key] ?? 0) + counted.count;
        }
      }
      body.facet_counts = { facet_queries: facetQueries, facet_fields: facetFields, facet_ranges: {}, facet_intervals: {}, facet_heatmaps: {} };
    }
    sendJson(res, 200, body);
  };
}

const K_THE = 'AT tolkienjrr thehobbit';
const K_NO_ARTICLE = 'AT tolkienjrr hobbit';

const HOBBITS: SolrDoc[] = [
  {
    id: 'hob-1', title: 'The Hobbit', title_short: 'The Hobbit', author: 'Tolkien, J. R. R.', format: 'Book',
    publishDate: '1937', last_indexed: '2024-03-01T10:00:00Z', url: 'http://example.org/hob-1',
    work_keys_str_mv: [K_THE, K_NO_ARTICLE], _version_: 1790000000000000000,
  },
  {
    id: 'hob-2', title: 'The hobbit, or, There and back again', author: ['Tolkien, J. R. R.', 'Anderson, Douglas A.'],
    author2: ['Lee, Alan'], author_corporate: ['Houghton Mifflin'], format: ['Book', 'Large Print'],
    publishDate: ['c1966', '1966'], last_indexed: '2024-05-10T08:00:00Z', url: ['http://example.org/a', 'http://example.org/b'],
    title_uniform: ['Hobbit'], work_keys_str_mv: [K_THE],
  },
  { id: 'hob-3', title: 'Hobbit', author: 'Tolkien, J.R.R.', format: ['Audio Book'], publishDate: ['2001'], last_indexed: '2024-05-10T08:00:00Z', work_keys_str_mv: [K_NO_ARTICLE] },
  { id: 'hob-4', title: 'The Hobbit [videorecording]', format: ['Video'], publishDate: ['[1977?]'], last_indexed: '2023-01-01T00:00:00Z', work_keys_str_mv: [K_THE] },
  { id: 'hob-5', title: 'The Hobbit', format: ['eBook'], publishDate: ['2012'], last_indexed: '2024-06-01T00:00:00Z', work_keys_str_mv: [K_THE] },
  { id: 'lotr-1', title: 'The Lord of the Rings', format: ['Book'], last_indexed: '2025-01-01T00:00:00Z', work_keys_str_mv: ['AT tolkienjrr thelordoftherings'] },
];

async function withFake<T>(t: Teardown, docs: FakeIndex, run: (server: TestServer) => Promise<T>): Promise<T> {
  const server = await listen(t, fakeSolr(docs));
  return run(server);
}

// ---------------------------------------------------------------------------------------------------
// Serial: must see the first HTTP error of this process (Node emits a deprecation warning once)

test.serial('an HTTP 500 with a Solr error body is IndexUnavailableError naming msg and code, without Node deprecation warnings', async (t) => {
  const warnings: Error[] = [];
  const onWarning = (w: Error) => warnings.push(w);
  process.on('warning', onWarning);
  const server = await listen(t, (seen, res) => solrError(res, [...seen.query], 500, 'java.lang.OutOfMemoryError: Java heap space'));
  const index = openIndex(t, { url: server.url });
  try {
    const error = await t.throwsAsync(index.getRecord('hob-1'), { instanceOf: IndexUnavailableError });
    t.regex(error?.message ?? '', /HTTP 500/);
    t.regex(error?.message ?? '', /java\.lang\.OutOfMemoryError: Java heap space \(code 500\)/);
    t.is(error?.code, 'INDEX_UNAVAILABLE');
    await new Promise((resolve) => setTimeout(resolve, 20));
    t.deepEqual(warnings.map((w) => w.message), [], 'solr-client must not reach for request._headers');
  } finally {
    process.off('warning', onWarning);
    await index.close();
    await server.close();
  }
});

// ---------------------------------------------------------------------------------------------------
// getRecord

test('getRecord sends q=id:"<id>", rows=1, wt=json as a GET to <core>/select and maps the document', async (t) => {
  await withFake(t, HOBBITS, async (server) => {
    const index = openIndex(t, { url: server.url });
    const record = await index.getRecord('hob-1');
    await index.close();
    const seen = only(server.requests);
    t.is(seen.method, 'GET');
    t.is(seen.path, '/solr/biblio/select');
    t.deepEqual(solrParamsOf(t, seen), [['q', 'id:"hob-1"'], ['rows', '1']]);
    t.deepEqual(record, {
      id: 'hob-1', title: 'The Hobbit', shortTitle: 'The Hobbit', uniformTitles: [], authors: ['Tolkien, J. R. R.'],
      secondaryAuthors: [], corporateAuthors: [], formats: ['Book'], publishDates: ['1937'],
      lastIndexed: '2024-03-01T10:00:00.000Z', urls: ['http://example.org/hob-1'], workKeys: [K_THE, K_NO_ARTICLE],
    });
  });
});

test('getRecord maps multi-valued fields as lists and keeps their order', async (t) => {
  await withFake(t, HOBBITS, async (server) => {
    const index = openIndex(t, { url: server.url });
    const record = await index.getRecord('hob-2');
    await index.close();
    t.is(record?.title, 'The hobbit, or, There and back again');
    t.is(record?.shortTitle, undefined);
    t.deepEqual(record?.authors, ['Tolkien, J. R. R.', 'Anderson, Douglas A.']);
    t.deepEqual(record?.secondaryAuthors, ['Lee, Alan']);
    t.deepEqual(record?.corporateAuthors, ['Houghton Mifflin']);
    t.deepEqual(record?.formats, ['Book', 'Large Print']);
    t.deepEqual(record?.publishDates, ['c1966', '1966']);
    t.deepEqual(record?.urls, ['http://example.org/a', 'http://example.org/b']);
    t.deepEqual(record?.uniformTitles, ['Hobbit']);
    t.is(record?.lastIndexed, '2024-05-10T08:00:00.000Z');
  });
});

test('getRecord reads schemas that store single fields as lists and numbers as numbers', async (t) => {
  const doc = { id: 'x-1', title: ['Only title'], title_short: ['Short'], last_indexed: ['2024-01-02T03:04:05Z'], publishDate: [2019, 2020], format: 'Book' };
  await withFake(t, [doc], async (server) => {
    const index = openIndex(t, { url: server.url });
    const record = await index.getRecord('x-1');
    await index.close();
    t.is(record?.title, 'Only title');
    t.is(record?.shortTitle, 'Short');
    t.is(record?.lastIndexed, '2024-01-02T03:04:05.000Z');
    t.deepEqual(record?.publishDates, ['2019', '2020']);
    t.deepEqual(record?.formats, ['Book']);
    t.deepEqual(record?.workKeys, []);
  });
});

test('a missing record is undefined, not an error', async (t) => {
  await withFake(t, HOBBITS, async (server) => {
    const index = openIndex(t, { url: server.url });
    t.is(await index.getRecord('no-such-record'), undefined);
    await index.close();
    t.deepEqual(solrParamsOf(t, only(server.requests)), [['q', 'id:"no-such-record"'], ['rows', '1']]);
  });
});

const AWKWARD_IDS = [
  'oai:example.org:123',
  'path/with/slashes',
  'has spaces and "quotes"',
  'back\\slash\\',
  'ends with quote"',
  'Война и мир/1',
  '(a OR b) AND *:* +x -y',
  'amp&eq=hash#percent%plus+',
];

test('ids with quotes, backslashes, colons, slashes, spaces and other scripts are escaped inside the phrase', async (t) => {
  const docs = AWKWARD_IDS.map((id, i) => ({ id, title: `Record ${i}`, last_indexed: '2024-01-01T00:00:00Z' }));
  await withFake(t, docs, async (server) => {
    const index = openIndex(t, { url: server.url });
    for (const id of AWKWARD_IDS) {
      const record = await index.getRecord(id);
      t.is(record?.id, id, `found ${id}`);
    }
    await index.close();
    const qs = server.requests.map((seen) => solrParamsOf(t, seen).find(([n]) => n === 'q')?.[1]);
    t.deepEqual(qs, [
      'id:"oai:example.org:123"',
      'id:"path/with/slashes"',
      'id:"has spaces and \\"quotes\\""',
      'id:"back\\\\slash\\\\"',
      'id:"ends with quote\\""',
      'id:"Война и мир/1"',
      'id:"(a OR b) AND *:* +x -y"',
      'id:"amp&eq=hash#percent%plus+"',
    ]);
  });
});

test('a 10 KB id goes as a form POST to <core>/select with wt=json in the URL', async (t) => {
  const longId = `long:${'x/y "z" '.repeat(1280)}`;
  t.true(longId.length > 10_000);
  await withFake(t, [{ id: longId, title: 'Long', last_indexed: '2024-01-01T00:00:00Z' }], async (server) => {
    const index = openIndex(t, { url: server.url });
    const record = await index.getRecord(longId);
    await index.close();
    t.is(record?.id, longId);
    const seen = only(server.requests);
    t.is(seen.method, 'POST');
    t.is(seen.path, '/solr/biblio/select');
    t.deepEqual(seen.query, [['wt', 'json']]);
    t.regex(String(seen.headers['content-type']), /^application\/x-www-form-urlencoded/);
    t.deepEqual(seen.form, [['q', `id:"${longId.replace(/"/g, '\\"')}"`], ['rows', '1']]);
  });
});

test('a record that comes back with another id (tokenised id field) is treated as missing', async (t) => {
  const server = await listen(t, (seen, res) => sendJson(res, 200, {
    responseHeader: responseHeader(seen.query),
    response: { numFound: 1, start: 0, numFoundExact: true, docs: [{ id: 'HOB-1', title: 'x', last_indexed: '2024-01-01T00:00:00Z' }] },
  }));
  const warnings: string[] = [];
  const index = openIndex(t, { url: server.url, logger: { warn: (m) => warnings.push(m) } });
  t.is(await index.getRecord('hob-1'), undefined);
  t.is(warnings.length, 1);
  await index.close();
  await server.close();
});

// ---------------------------------------------------------------------------------------------------
// findVersions

const FACET_PARAMS: Array<[string, string]> = [['facet', 'true'], ['facet.field', 'format'], ['facet.limit', '30'], ['facet.mincount', '1']];

test('findVersions for the feed: terms query with U+001F, start, rows, sort=last_indexed desc,id asc, facets', async (t) => {
  await withFake(t, HOBBITS, async (server) => {
    const index = openIndex(t, { url: server.url });
    const page = await index.findVersions({ workKeys: [K_THE, K_NO_ARTICLE], order: 'last-indexed', offset: 0, limit: 50 });
    await index.close();
    const seen = only(server.requests);
    t.is(seen.method, 'GET');
    t.is(seen.path, '/solr/biblio/select');
    t.deepEqual(solrParamsOf(t, seen), [
      ['q', `{!terms f=work_keys_str_mv separator="\u001f"}${K_THE}\u001f${K_NO_ARTICLE}`],
      ['start', '0'],
      ['rows', '50'],
      ['sort', 'last_indexed desc,id asc'],
      ...FACET_PARAMS,
    ]);
    t.true(seen.rawQuery.includes('%1F'), 'the separator travels as the percent-encoded control character');
    t.is(page.total, 5);
    t.deepEqual(page.records.map((r) => r.id), ['hob-5', 'hob-2', 'hob-3', 'hob-1', 'hob-4']);
    t.deepEqual(page.records[1]?.formats, ['Book', 'Large Print']);
  });
});

test('findVersions for the page: sort=score desc,id asc', async (t) => {
  await withFake(t, HOBBITS, async (server) => {
    const index = openIndex(t, { url: server.url });
    const page = await index.findVersions({ workKeys: [K_NO_ARTICLE, K_THE], order: 'relevance', offset: 0, limit: 20 });
    await index.close();
    t.deepEqual(solrParamsOf(t, only(server.requests)), [
      ['q', `{!terms f=work_keys_str_mv separator="\u001f"}${K_NO_ARTICLE}\u001f${K_THE}`],
      ['start', '0'],
      ['rows', '20'],
      ['sort', 'score desc,id asc'],
      ...FACET_PARAMS,
    ]);
    t.is(page.total, 5);
    t.deepEqual(page.records.map((r) => r.id), ['hob-1', 'hob-2', 'hob-3', 'hob-4', 'hob-5']);
  });
});

test('findVersions pages with start/rows and reports the total over all pages', async (t) => {
  await withFake(t, HOBBITS, async (server) => {
    const index = openIndex(t, { url: server.url });
    const second = await index.findVersions({ workKeys: [K_THE, K_NO_ARTICLE], order: 'last-indexed', offset: 1, limit: 2 });
    const past = await index.findVersions({ workKeys: [K_THE, K_NO_ARTICLE], order: 'last-indexed', offset: 50, limit: 50 });
    await index.close();
    t.deepEqual(server.requests.map((seen) => solrParamsOf(t, seen).filter(([n]) => n === 'start' || n === 'rows')), [
      [['start', '1'], ['rows', '2']],
      [['start', '50'], ['rows', '50']],
    ]);
    t.is(second.total, 5);
    t.deepEqual(second.records.map((r) => r.id), ['hob-2', 'hob-3']);
    t.is(past.total, 5);
    t.deepEqual(past.records, []);
  });
});

test('findVersions with a single key matches only records carrying that exact key', async (t) => {
  await withFake(t, HOBBITS, async (server) => {
    const index = openIndex(t, { url: server.url });
    const page = await index.findVersions({ workKeys: [K_NO_ARTICLE], order: 'relevance', offset: 0, limit: 20 });
    const none = await index.findVersions({ workKeys: ['AT tolkienjrr hobbi'], order: 'relevance', offset: 0, limit: 20 });
    await index.close();
    t.deepEqual(page.records.map((r) => r.id), ['hob-1', 'hob-3']);
    t.is(page.total, 2);
    t.is(none.total, 0);
    t.deepEqual(none.records, []);
  });
});

test('findVersions sends duplicate keys once and skips keys containing the separator', async (t) => {
  await withFake(t, HOBBITS, async (server) => {
    const warnings: string[] = [];
    const index = openIndex(t, { url: server.url, logger: { warn: (m) => warnings.push(m) } });
    await index.findVersions({ workKeys: [K_THE, K_THE, `bad\u001fkey`], order: 'relevance', offset: 0, limit: 20 });
    const empty = await index.findVersions({ workKeys: ['only\u001fbad'], order: 'relevance', offset: 0, limit: 20 });
    await index.close();
    t.is(only(server.requests).query.find(([n]) => n === 'q')?.[1], `{!terms f=work_keys_str_mv separator="\u001f"}${K_THE}`);
    t.deepEqual(empty, { total: 0, records: [] });
    t.is(warnings.length, 2);
  });
});

test('500 keys go as a form POST with every key in the terms query; a short list stays a GET', async (t) => {
  const keys = Array.from({ length: 500 }, (_, i) => `AT author${i} some long normalised title number ${i}`);
  const docs = [
    { id: 'k-0', title: 'first', last_indexed: '2024-01-01T00:00:00Z', work_keys_str_mv: [keys[0]] },
    { id: 'k-499', title: 'last', last_indexed: '2024-01-03T00:00:00Z', work_keys_str_mv: [keys[499]] },
    { id: 'k-none', title: 'other', last_indexed: '2024-01-02T00:00:00Z', work_keys_str_mv: ['AT nobody nothing'] },
  ];
  await withFake(t, docs, async (server) => {
    const index = openIndex(t, { url: server.url });
    const page = await index.findVersions({ workKeys: keys, order: 'last-indexed', offset: 0, limit: 50 });
    await index.findVersions({ workKeys: keys.slice(0, 10), order: 'last-indexed', offset: 0, limit: 50 });
    await index.close();
    const [long, short] = server.requests;
    t.is(long?.method, 'POST');
    t.is(long?.path, '/solr/biblio/select');
    t.deepEqual(long?.query, [['wt', 'json']]);
    t.regex(String(long?.headers['content-type']), /^application\/x-www-form-urlencoded/);
    t.true(Buffer.byteLength(long?.body ?? '') > SOLR_POST_THRESHOLD_BYTES);
    t.deepEqual(long?.form, [
      ['q', `{!terms f=work_keys_str_mv separator="\u001f"}${keys.join('\u001f')}`],
      ['start', '0'], ['rows', '50'], ['sort', 'last_indexed desc,id asc'], ...FACET_PARAMS,
    ]);
    t.deepEqual(page.records.map((r) => r.id), ['k-499', 'k-0']);
    t.is(page.total, 2);
    t.is(short?.method, 'GET');
    t.deepEqual(short?.form, []);
  });
});

test('custom field names are used in queries, sort and facets, and mapped back', async (t) => {
  const docs = [
    { ident: 'c-1', title_txt: 'Dom Casmurro', short_s: 'Dom Casmurro', creator_ss: ['Assis, Machado de'], fmt_str: ['Book'], year_ss: ['1899'], indexed_dt: '2024-02-01T00:00:00Z', keys_ss: ['AT assismachadode domcasmurro'], links_ss: ['http://example.org/c-1'] },
    { ident: 'c-2', title_txt: 'Dom Casmurro', creator_ss: ['Assis, Machado de'], fmt_str: ['eBook'], indexed_dt: '2024-03-01T00:00:00Z', keys_ss: ['AT assismachadode domcasmurro'], id: 'decoy' },
  ];
  await withFake(t, docs, async (server) => {
    const index = openIndex(t, {
      url: server.url,
      fields: { id: 'ident', title: 'title_txt', title_short: 'short_s', author: 'creator_ss', format: 'fmt_str', publishDate: 'year_ss', last_indexed: 'indexed_dt', work_keys_str_mv: 'keys_ss', url: 'links_ss' },
      facetFields: ['fmt_str', 'language'],
    });
    const record = await index.getRecord('c-1');
    const byLastIndexed = await index.findVersions({ workKeys: ['AT assismachadode domcasmurro'], order: 'last-indexed', offset: 0, limit: 50 });
    const byRelevance = await index.findVersions({ workKeys: ['AT assismachadode domcasmurro'], order: 'relevance', offset: 0, limit: 20 });
    await index.close();
    const [first, second, third] = server.requests;
    t.deepEqual(first && solrParamsOf(t, first), [['q', 'ident:"c-1"'], ['rows', '1']]);
    t.deepEqual(second && solrParamsOf(t, second), [
      ['q', '{!terms f=keys_ss separator="\u001f"}AT assismachadode domcasmurro'],
      ['start', '0'], ['rows', '50'], ['sort', 'indexed_dt desc,ident asc'],
      ['facet', 'true'], ['facet.field', 'fmt_str'], ['facet.field', 'language'], ['facet.limit', '30'], ['facet.mincount', '1'],
    ]);
    t.is(third && solrParamsOf(t, third).find(([n]) => n === 'sort')?.[1], 'score desc,ident asc');
    t.deepEqual(record, {
      id: 'c-1', title: 'Dom Casmurro', shortTitle: 'Dom Casmurro', uniformTitles: [], authors: ['Assis, Machado de'],
      secondaryAuthors: [], corporateAuthors: [], formats: ['Book'], publishDates: ['1899'],
      lastIndexed: '2024-02-01T00:00:00.000Z', urls: ['http://example.org/c-1'], workKeys: ['AT assismachadode domcasmurro'],
    });
    t.deepEqual(byLastIndexed.records.map((r) => r.id), ['c-2', 'c-1']);
    t.deepEqual(byRelevance.records.map((r) => r.id), ['c-1', 'c-2']);
  });
});

test('an empty facetFields option sends no facet parameters', async (t) => {
  await withFake(t, HOBBITS, async (server) => {
    const index = openIndex(t, { url: server.url, facetFields: [] });
    await index.findVersions({ workKeys: [K_THE], order: 'relevance', offset: 0, limit: 20 });
    await index.close();
    t.deepEqual(solrParamsOf(t, only(server.requests)).map(([n]) => n), ['q', 'start', 'rows', 'sort']);
  });
});

test('a core URL with a trailing slash and credentials: same select path, basic auth, no password in messages', async (t) => {
  const server = await listen(t, (seen, res) => solrError(res, seen.query, 401, 'require authentication'));
  const index = openIndex(t, { url: `http://solr%20user:s3cr%C3%A9t@127.0.0.1:${server.port}/solr/biblio/` });
  const error = await t.throwsAsync(index.getRecord('hob-1'), { instanceOf: IndexUnavailableError });
  await index.close();
  await server.close();
  const seen = only(server.requests);
  t.is(seen.path, '/solr/biblio/select');
  t.is(seen.headers.authorization, `Basic ${Buffer.from('solr user:s3crét').toString('base64')}`);
  t.regex(error?.message ?? '', /HTTP 401.*require authentication \(code 401\)/);
  t.false((error?.message ?? '').includes('s3cr'));
  t.false((error?.message ?? '').includes('solr user'));
});

// ---------------------------------------------------------------------------------------------------
// countVersions

const US = '\u001f';

/** The first request countVersions must send: which of the ids name records, and their keys. */
function recordsParams(ids: readonly string[], idField = 'id', keyField = 'work_keys_str_mv', separator = US): Array<[string, string]> {
  return [['q', `{!terms f=${idField} separator="${separator}"}${ids.join(separator)}`], ['fl', `${idField},${keyField}`], ['rows', String(ids.length)]];
}

/** The second: one facet.query per distinct key list, keyed v0, v1, … in the order of the ids asked. */
function countsParams(keyLists: ReadonlyArray<readonly string[]>, keyField = 'work_keys_str_mv'): Array<[string, string]> {
  return [
    ['q', '*:*'], ['rows', '0'], ['facet', 'true'],
    ...keyLists.map((keys, n): [string, string] => ['facet.query', `{!terms f=${keyField} separator="${US}" key=v${n}}${keys.join(US)}`]),
  ];
}

const KEYLESS: SolrDoc = { id: 'loner', title: 'A record without keys', format: ['Book'], last_indexed: '2024-01-01T00:00:00Z' };

/** What findVersions says each record's total is (records without keys: 1), for comparing with countVersions. */
async function findVersionsTotals(index: CatalogIndex, ids: readonly string[]): Promise<Array<[string, number]>> {
  const totals: Array<[string, number]> = [];
  for (const id of ids) {
    const record = await index.getRecord(id);
    if (record === undefined) continue;
    const total = record.workKeys.length === 0 ? 1 : (await index.findVersions({ workKeys: record.workKeys, order: 'relevance', offset: 0, limit: 20 })).total;
    totals.push([id, total]);
  }
  return totals;
}

test('countVersions sends two requests: the records\' keys by a terms query on id, then a terms facet.query per key list', async (t) => {
  await withFake(t, [...HOBBITS, KEYLESS], async (server) => {
    const index = openIndex(t, { url: server.url });
    const ids = ['hob-1', 'hob-3', 'lotr-1', 'no-such-record', 'loner'];
    const counts = await index.countVersions(ids);
    t.is(server.requests.length, 2);
    const [records, tallies] = server.requests as [SeenRequest, SeenRequest];
    t.is(records.method, 'GET');
    t.is(records.path, '/solr/biblio/select');
    t.deepEqual(solrParamsOf(t, records), recordsParams(ids));
    t.is(tallies.method, 'GET');
    t.is(tallies.path, '/solr/biblio/select');
    t.deepEqual(solrParamsOf(t, tallies), countsParams([[K_THE, K_NO_ARTICLE], [K_NO_ARTICLE], ['AT tolkienjrr thelordoftherings']]));
    // hob-1 carries both keys: all five Hobbits; hob-3 only the article-less key: hob-1 and itself.
    t.deepEqual([...counts], [['hob-1', 5], ['hob-3', 2], ['lotr-1', 1], ['loner', 1]]);
    t.false(counts.has('no-such-record'), 'an id naming no record is absent');
    t.deepEqual([...counts], await findVersionsTotals(index, ids), 'the same totals as findVersions');
  });
});

test('countVersions reads Solr-format answers: keys by id, counts by facet key; no-key records 1, missing ids absent', async (t) => {
  // Canned answers in Solr's format (as Solr 9 writes them), so the mapping is checked apart from the fake.
  const server = await listen(t, (seen, res) => {
    const params = [...seen.query, ...seen.form];
    if (params.some(([name, value]) => name === 'q' && value.startsWith('{!terms f=id '))) {
      sendJson(res, 200, {
        responseHeader: responseHeader(params),
        response: {
          numFound: 3, start: 0, numFoundExact: true,
          docs: [{ id: 'single', work_keys_str_mv: ['k3'] }, { id: 'big-work', work_keys_str_mv: ['k1', 'k2', 'k1'] }, { id: 'no-keys' }],
        },
      });
      return;
    }
    sendJson(res, 200, {
      responseHeader: responseHeader(params),
      response: { numFound: 812345, start: 0, numFoundExact: true, docs: [] },
      facet_counts: { facet_queries: { v0: 1234, v1: 1 }, facet_fields: {}, facet_ranges: {}, facet_intervals: {}, facet_heatmaps: {} },
    });
  });
  const index = openIndex(t, { url: server.url });
  const ids = ['big-work', 'no-keys', 'gone', 'single'];
  const counts = await index.countVersions(ids);
  t.deepEqual([...counts], [['big-work', 1234], ['no-keys', 1], ['single', 1]]);
  const [records, tallies] = server.requests as [SeenRequest, SeenRequest];
  t.deepEqual(solrParamsOf(t, records), recordsParams(ids));
  t.deepEqual(solrParamsOf(t, tallies), countsParams([['k1', 'k2'], ['k3']]), 'keys once each, in the order of the ids asked');
});

test('countVersions of no ids asks nothing; duplicate ids are asked once; records of one work share a facet.query; no keyed record, no second request', async (t) => {
  await withFake(t, [...HOBBITS, KEYLESS], async (server) => {
    const index = openIndex(t, { url: server.url });
    t.deepEqual(await index.countVersions([]), new Map());
    t.is(server.requests.length, 0);

    const counts = await index.countVersions(['hob-2', 'hob-2', 'hob-4', 'hob-2']);
    t.deepEqual(server.requests.map((seen) => solrParamsOf(t, seen)), [recordsParams(['hob-2', 'hob-4']), countsParams([[K_THE]])]);
    t.deepEqual([...counts], [['hob-2', 4], ['hob-4', 4]]);

    server.requests.length = 0;
    const alone = await index.countVersions(['loner', 'nope']);
    t.deepEqual(server.requests.map((seen) => solrParamsOf(t, seen)), [recordsParams(['loner', 'nope'])]);
    t.deepEqual([...alone], [['loner', 1]]);
  });
});

test('countVersions of a 20-id result page with awkward ids: ids verbatim in the terms list, long requests as form POSTs', async (t) => {
  const ids = Array.from({ length: 20 }, (_, i) => `${AWKWARD_IDS[i % AWKWARD_IDS.length]}#${i} oai:repositorio.example.edu.br:123456789/${1000 + i}`);
  const keyOf = (i: number) => `AT someone with a rather long name ${Math.floor(i / 2)} ${'and a long title '.repeat(10)}number ${Math.floor(i / 2)}`;
  const docs: SolrDoc[] = ids.map((id, i) => ({
    id, title: `Record ${i}`, last_indexed: '2024-01-01T00:00:00Z',
    // Records pair up as two versions of one work, except the last four, which have no keys.
    ...(i < 16 ? { work_keys_str_mv: [keyOf(i), `AT extra key ${i}`] } : {}),
  }));
  await withFake(t, docs, async (server) => {
    const index = openIndex(t, { url: server.url });
    const counts = await index.countVersions(ids);
    const [records, tallies] = server.requests as [SeenRequest, SeenRequest];
    t.deepEqual(solrParamsOf(t, records), recordsParams(ids));
    t.deepEqual(solrParamsOf(t, tallies), countsParams(ids.slice(0, 16).map((_, i) => [keyOf(i), `AT extra key ${i}`])));
    for (const seen of [records, tallies]) {
      t.is(seen.method, Buffer.byteLength(encodeSolrParams(solrParamsOf(t, seen))) > SOLR_POST_THRESHOLD_BYTES ? 'POST' : 'GET');
    }
    t.is(tallies.method, 'POST');
    t.deepEqual([...counts], ids.map((id, i) => [id, i < 16 ? 2 : 1]));
  });
});

test('countVersions: an id containing U+001F makes the id query use another separator', async (t) => {
  const odd = `odd${US}id`;
  const docs = [
    { id: odd, title: 'odd', last_indexed: '2024-01-01T00:00:00Z', work_keys_str_mv: [K_THE] },
    { id: 'plain', title: 'plain', last_indexed: '2024-01-01T00:00:00Z', work_keys_str_mv: [K_THE] },
  ];
  await withFake(t, docs, async (server) => {
    const index = openIndex(t, { url: server.url });
    const counts = await index.countVersions([odd, 'plain']);
    t.deepEqual(solrParamsOf(t, server.requests[0] as SeenRequest), recordsParams([odd, 'plain'], 'id', 'work_keys_str_mv', '\u001e'));
    t.deepEqual([...counts], [[odd, 2], ['plain', 2]]);
  });
});

test('countVersions uses the configured id and work-key field names', async (t) => {
  const docs = [
    { ident: 'c-1', title_txt: 'Dom Casmurro', indexed_dt: '2024-02-01T00:00:00Z', keys_ss: ['AT assismachadode domcasmurro'] },
    { ident: 'c-2', title_txt: 'Dom Casmurro', indexed_dt: '2024-03-01T00:00:00Z', keys_ss: ['AT assismachadode domcasmurro'], id: 'c-1' },
  ];
  await withFake(t, docs, async (server) => {
    const index = openIndex(t, { url: server.url, fields: { id: 'ident', work_keys_str_mv: 'keys_ss', last_indexed: 'indexed_dt', title: 'title_txt' } });
    const counts = await index.countVersions(['c-2', 'decoy']);
    t.deepEqual(server.requests.map((seen) => solrParamsOf(t, seen)), [
      recordsParams(['c-2', 'decoy'], 'ident', 'keys_ss'),
      countsParams([['AT assismachadode domcasmurro']], 'keys_ss'),
    ]);
    t.deepEqual([...counts], [['c-2', 2]]);
  });
});

test('countVersions ignores, with a warning, a record it did not ask for (a tokenised id field)', async (t) => {
  const server = await listen(t, (seen, res) => sendJson(res, 200, {
    responseHeader: responseHeader(seen.query),
    response: { numFound: 2, start: 0, numFoundExact: true, docs: [{ id: 'HOB-1', work_keys_str_mv: [K_THE] }, { id: 'hob-1' }] },
  }));
  const warnings: string[] = [];
  const index = openIndex(t, { url: server.url, logger: { warn: (m) => warnings.push(m) } });
  t.deepEqual([...await index.countVersions(['hob-1'])], [['hob-1', 1]]);
  t.is(server.requests.length, 1);
  t.is(warnings.length, 1);
  t.regex(warnings[0] ?? '', /"HOB-1" that was not asked for/);
});

test('countVersions on a collection of two shards: the counts of every shard, equal to findVersions totals (a join would see one shard)', async (t) => {
  const doc = (id: string, keys: string[]): SolrDoc => ({ id, title: id, last_indexed: '2024-01-01T00:00:00Z', ...(keys.length > 0 ? { work_keys_str_mv: keys } : {}) });
  // Records are spread over the shards by id hash on SolrCloud, so versions of one work sit on both.
  const shards = [
    [doc('a1', ['AT work a']), doc('b1', ['AT work b']), doc('b2', ['AT work b']), doc('c1', ['AT work c', 'AT work a'])],
    [doc('a2', ['AT work a']), doc('a3', ['AT work a']), doc('c2', ['AT work c']), doc('solo', [])],
  ];
  await withFake(t, { shards }, async (server) => {
    const index = openIndex(t, { url: server.url });
    const ids = ['a1', 'a2', 'b1', 'c1', 'c2', 'solo', 'absent'];
    const counts = await index.countVersions(ids);
    t.deepEqual([...counts], [['a1', 4], ['a2', 4], ['b1', 2], ['c1', 5], ['c2', 2], ['solo', 1]]);
    t.deepEqual([...counts], await findVersionsTotals(index, ids), 'the same totals as findVersions');

    // The single-request join form countVersions sent before, on the same collection: each shard joins
    // only its own documents, so a work spread over both shards is undercounted.
    const joinParams = new URLSearchParams([
      ['q', '*:*'], ['rows', '0'], ['facet', 'true'], ['wt', 'json'],
      ...['a1', 'c1'].map((id, n): [string, string] => ['facet.query', `{!join from=work_keys_str_mv to=work_keys_str_mv score=none key=v${n}}id:"${id}"`]),
    ]);
    const joined = await (await fetch(`${server.url}/select?${joinParams}`)).json() as { facet_counts: { facet_queries: Record<string, number> } };
    t.deepEqual(joined.facet_counts.facet_queries, { v0: 2, v1: 2 }, 'a join counts only the versions on the record\'s own shard');
  });
});

test('countVersions faults are IndexUnavailableError: HTTP errors, refused connections, silence, answers without usable counts', async (t) => {
  const port = await closedPort();
  const refused = openIndex(t, { url: `http://127.0.0.1:${port}/solr/biblio`, timeoutMs: 2000 });
  await t.throwsAsync(refused.countVersions(['hob-1']), { instanceOf: IndexUnavailableError, message: /ECONNREFUSED/ });

  const silent = await listen(t, () => { /* never answer */ });
  const slow = openIndex(t, { url: silent.url, timeoutMs: 200 });
  await t.throwsAsync(slow.countVersions(['hob-1', 'hob-2']), { instanceOf: IndexUnavailableError, message: /countVersions\(2 ids\) records: no answer within 200 ms/ });

  // The records are found, then the counting request fails or answers without usable counts.
  const records = fakeSolr(HOBBITS);
  const countAnswers: unknown[] = [
    { responseHeader: { status: 0 }, response: { numFound: 6, docs: [] } },
    { responseHeader: { status: 0 }, response: { numFound: 6, docs: [] }, facet_counts: { facet_queries: [] } },
    { responseHeader: { status: 0 }, response: { numFound: 6, docs: [] }, facet_counts: { facet_queries: { v0: 5 } } },
    { responseHeader: { status: 0 }, response: { numFound: 6, docs: [] }, facet_counts: { facet_queries: { v0: 5, v1: '2' } } },
    { responseHeader: { status: 0 }, response: { numFound: 6, docs: [] }, facet_counts: { facet_queries: { v0: 5, v1: -1 } } },
    { responseHeader: { status: 0 }, facet_counts: { facet_queries: { v0: 5, v1: 2 } } },
  ];
  let i = 0;
  let refuseCounts = true;
  const odd = await listen(t, (seen, res) => {
    const q = [...seen.query, ...seen.form].find(([name]) => name === 'q')?.[1] ?? '';
    if (q !== '*:*') records(seen, res);
    else if (refuseCounts) solrError(res, [...seen.query, ...seen.form], 400, 'too many boolean clauses');
    else sendJson(res, 200, countAnswers[i++]);
  });
  const index = openIndex(t, { url: odd.url });
  await t.throwsAsync(index.countVersions(['hob-1', 'hob-3']), { instanceOf: IndexUnavailableError, message: /counts: HTTP 400, Solr error: too many boolean clauses \(code 400\)/ });
  refuseCounts = false;
  for (const answer of countAnswers) {
    await t.throwsAsync(index.countVersions(['hob-1', 'hob-3']), { instanceOf: IndexUnavailableError }, JSON.stringify(answer));
  }
});

// ---------------------------------------------------------------------------------------------------
// contentVersion: the background read of the index version

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Asks contentVersion() every few ms until it returns a value other than `before`; every answer seen. */
async function nextVersion(index: CatalogIndex, before: string | undefined, timeoutMs = 15_000): Promise<{ version: string; seen: Array<string | undefined> }> {
  const seen: Array<string | undefined> = [];
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const version = index.contentVersion?.();
    seen.push(version);
    if (version !== undefined && version !== before) return { version, seen };
    await sleep(4);
  }
  throw new Error(`contentVersion() stayed ${JSON.stringify(before)} or undefined for ${timeoutMs} ms; last answers ${JSON.stringify(seen.slice(-5))}`);
}

/** The first version read: the count; then, there being documents, their `_version_` (no sort on it). */
const VERSION_COUNT: Array<[string, string]> = [['q', '*:*'], ['rows', '0']];
const VERSION_FETCH: Array<[string, string]> = [['q', '*:*'], ['fl', '_version_'], ['rows', '100']];

/** Asks contentVersion() every few ms, each answer checked by `check`, until `done()` (or fails after 15 s). */
async function askUntil(index: CatalogIndex, done: () => boolean, check: (version: string | undefined) => void = () => undefined): Promise<void> {
  for (const until = Date.now() + 15_000; !done(); await sleep(4)) {
    if (Date.now() > until) throw new Error('the condition was not met within 15 s');
    check(index.contentVersion?.());
  }
}

/** The Hobbits, each with a _version_ as Solr gives them (the leader's clock in ms, shifted left 20 bits). */
const versioned = (): SolrDoc[] => HOBBITS.map((doc, i) => ({ ...doc, _version_: 1790000000000000000 + i * 2 ** 20 }));

test('contentVersion: nothing is read until it is asked for; then q=*:*, rows=0 and the documents\' _version_ without sorting on it; quiet again when nobody asks', async (t) => {
  await withFake(t, versioned(), async (server) => {
    const index = openIndex(t, { url: server.url, versionCheckMs: 20 });
    await sleep(80);
    t.is(server.requests.length, 0, 'an adapter nobody asks does not poll');
    t.is(index.contentVersion?.(), undefined, 'nothing known yet: build afresh');
    for (const until = Date.now() + 15_000; server.requests.length < 2 && Date.now() < until;) await sleep(2);
    const [count, fetch] = server.requests;
    for (const seen of [count, fetch]) {
      t.is(seen?.method, 'GET');
      t.is(seen?.path, '/solr/biblio/select');
    }
    t.deepEqual(solrParamsOf(t, count!), VERSION_COUNT);
    t.deepEqual(solrParamsOf(t, fetch!), VERSION_FETCH);
    await sleep(120);
    t.is(server.requests.length, 2, 'no further reads while contentVersion() is not called');
  });
});

test('contentVersion: once the highest _version_ is known, a read of an unchanged index is one request counting the documents above it', async (t) => {
  await withFake(t, versioned(), async (server) => {
    const index = openIndex(t, { url: server.url, versionCheckMs: 10 });
    const { version } = await nextVersion(index, undefined);
    const highest = version.split('/')[1];
    const before = server.requests.length;
    await askUntil(index, () => server.requests.length >= before + 3);
    for (const seen of server.requests.slice(before)) {
      t.deepEqual(solrParamsOf(t, seen), [['q', '*:*'], ['rows', '0'], ['facet', 'true'], ['facet.query', `{!key=newer}_version_:{${highest} TO *]`]]);
    }
  });
});

test('contentVersion on a core of many documents finds the exact highest _version_ by counting ranges, in a bounded number of requests, never sorting on it', async (t) => {
  // 1,000 documents over two shards, versions a few ms apart as a bulk load gives them; the highest is
  // neither first nor last in either shard's list.
  const versionAt = (i: number) => 1790000000000000000 + ((i * 7919) % 1000) * 3 * 2 ** 20;
  const shards: SolrDoc[][] = [[], []];
  for (let i = 0; i < 1000; i++) shards[i % 2]!.push({ id: `many-${i}`, title: 'Many', _version_: versionAt(i) });
  const highest = Math.max(...shards.flat().map((doc) => doc._version_ as number));
  await withFake(t, { shards }, async (server) => {
    const index = openIndex(t, { url: server.url, versionCheckMs: 10 });
    const { version } = await nextVersion(index, undefined);
    // (This fake writes numbers as JavaScript prints them, so compare as numbers.)
    const [count, top] = version.split('/');
    t.is(count, '1000');
    t.is(Number(top), highest);
    const firstRead = server.requests.slice(0, server.requests.findIndex((seen, i) => i > 0 && solrParamsOf(t, seen).some(([n, v]) => n === 'facet.query' && v.startsWith('{!key=newer}'))));
    t.true(firstRead.length <= 14, `${firstRead.length} requests for the first read`);
    note(t, `${firstRead.length} requests for the first read`);
    for (const seen of server.requests) t.false(solrParamsOf(t, seen).some(([n, v]) => n === 'sort' && v.includes('_version_')));
    // 150 more, beyond one fetch: found again by narrowing above the known highest.
    for (let i = 0; i < 150; i++) shards[i % 2]!.push({ id: `more-${i}`, title: 'More', _version_: highest + (i + 1) * 2 ** 20 });
    const [moreCount, moreTop] = (await nextVersion(index, version)).version.split('/');
    t.is(moreCount, '1150');
    t.is(Number(moreTop), highest + 150 * 2 ** 20);
  });
});

test('contentVersion on a collection: documents on every shard count, and a change on either shard shows', async (t) => {
  const [a = {}, b = {}, ...rest] = versioned();
  const shards: SolrDoc[][] = [[a, ...rest], [b]];
  await withFake(t, { shards }, async (server) => {
    const index = openIndex(t, { url: server.url, versionCheckMs: 10 });
    const first = await nextVersion(index, undefined);
    t.is(first.version, `6/${1790000000000000000 + 5 * 2 ** 20}`);
    shards[1]!.push({ id: 'hob-7', title: 'The Hobbit', work_keys_str_mv: [K_THE], _version_: 1790000000000000000 + 20 * 2 ** 20 });
    t.is((await nextVersion(index, first.version)).version, `7/${1790000000000000000 + 20 * 2 ** 20}`);
  });
});

test('contentVersion: a value once two reads agree, at most one read per interval, and a new value for each added, replaced or deleted document', async (t) => {
  const docs = versioned();
  await withFake(t, docs, async (server) => {
    const index = openIndex(t, { url: server.url, versionCheckMs: 25 });
    const first = await nextVersion(index, undefined);
    t.is(first.version, `6/${1790000000000000000 + 5 * 2 ** 20}`, 'numFound and the highest _version_');
    t.true(server.requests.length >= 2, 'two reads agreed before the value was given');

    // Steady: the same value, and no more than one read per interval.
    const reads = server.requests.length;
    const steadyStart = Date.now();
    for (let i = 0; i < 40; i++) {
      t.is(index.contentVersion?.(), first.version);
      await sleep(5);
    }
    const steadyReads = server.requests.length - reads;
    t.true(steadyReads <= Math.ceil((Date.now() - steadyStart) / 25) + 1, `${steadyReads} reads in ${Date.now() - steadyStart} ms`);

    docs.push({ id: 'hob-6', title: 'The Hobbit', last_indexed: '2025-02-01T00:00:00Z', work_keys_str_mv: [K_THE], _version_: 1790000000000000000 + 9 * 2 ** 20 });
    const added = await nextVersion(index, first.version);
    t.is(added.version, `7/${1790000000000000000 + 9 * 2 ** 20}`);
    t.true(added.seen.includes(undefined), 'no value while the change was being confirmed');

    docs[0] = { ...docs[0], title: 'The Hobbit (revised)', _version_: 1790000000000000000 + 12 * 2 ** 20 };
    const replaced = await nextVersion(index, added.version);
    t.is(replaced.version, `7/${1790000000000000000 + 12 * 2 ** 20}`);

    docs.splice(2, 1);
    const deleted = await nextVersion(index, replaced.version);
    t.is(deleted.version, `6/${1790000000000000000 + 12 * 2 ** 20}`);

    docs.length = 0;
    t.is((await nextVersion(index, deleted.version)).version, `0/${1790000000000000000 + 12 * 2 ** 20}`, 'an emptied index has a version too');
  });
});

test('contentVersion reads _version_ as Solr wrote it: 64-bit values a JavaScript number cannot tell apart still differ', async (t) => {
  // 1790000000000000001 and …002 are the same JavaScript number; only the text tells them apart.
  let top = '1790000000000000001';
  const server = await listen(t, (seen, res) => {
    const get = (name: string) => seen.query.find(([n]) => n === name)?.[1];
    const newer = /\{(\d+) TO/.exec(get('facet.query') ?? '')?.[1];
    const text = get('fl') === '_version_'
      ? `{"responseHeader":{"status":0,"QTime":0,"params":{"q":"*:*","fl":"_version_","rows":"100","wt":"json"}},"response":{"numFound":1,"start":0,"numFoundExact":true,"docs":[{"_version_":${top}}]}}`
      : `{"responseHeader":{"status":0,"QTime":0},"response":{"numFound":6,"start":0,"numFoundExact":true,"docs":[]}${
        newer === undefined ? '' : `,"facet_counts":{"facet_queries":{"newer":${BigInt(top) > BigInt(newer) ? 1 : 0}}}`}}`;
    res.writeHead(200, { 'content-type': 'application/json;charset=utf-8' }).end(text);
  });
  t.is(Number('1790000000000000001'), Number('1790000000000000002'));
  const index = openIndex(t, { url: server.url, versionCheckMs: 15 });
  const first = await nextVersion(index, undefined);
  t.is(first.version, '6/1790000000000000001');
  top = '1790000000000000002';
  t.is((await nextVersion(index, first.version)).version, '6/1790000000000000002');
});

test('contentVersion gives no value while Solr answers with partial results (a shard missing)', async (t) => {
  const server = await listen(t, (seen, res) => sendJson(res, 200, {
    responseHeader: { ...(responseHeader(seen.query) as object), partialResults: true },
    response: { numFound: 3, start: 0, numFoundExact: true, docs: [{ _version_: 1790000000000000000 }] },
  }));
  const index = openIndex(t, { url: server.url, versionCheckMs: 10 });
  const seen = new Set<string | undefined>();
  await askUntil(index, () => server.requests.length >= 4, (version) => seen.add(version));
  t.deepEqual([...seen], [undefined]);
});

test('contentVersion when Solr cannot be asked: the value lapses maxStalenessMs after the last good read, one warning, and returns when Solr answers', async (t) => {
  const answer = fakeSolr(versioned());
  let failing = false;
  const server = await listen(t, (seen, res) => (failing ? solrError(res, seen.query, 500, 'java.lang.OutOfMemoryError') : answer(seen, res)));
  const warnings: string[] = [];
  const index = openIndex(t, { url: server.url, versionCheckMs: 20, maxStalenessMs: 600, logger: { warn: (m) => warnings.push(m) } });
  const { version } = await nextVersion(index, undefined);

  failing = true;
  const failedAt = Date.now();
  let lapsedAfter = Number.NaN;
  for (let i = 0; i < 1000; i++) {
    if (index.contentVersion?.() === undefined) {
      lapsedAfter = Date.now() - failedAt;
      break;
    }
    await sleep(4);
  }
  // Lapses 600 ms after the start of the last good read, which began about one interval before the failure
  // (more on a loaded machine, where a read may take a while: hence the wide margins).
  t.true(lapsedAfter >= 300 && lapsedAfter < 3000, `lapsed after ${lapsedAfter} ms`);
  const readsWhileFailing = server.requests.length;
  // Asked on, the adapter reads again: waits for that read itself (not a fixed time, which a busy machine outlasts).
  await askUntil(index, () => server.requests.length > readsWhileFailing, (value) => t.is(value, undefined));
  t.true(server.requests.length > readsWhileFailing, 'reads go on while asked');
  t.is(warnings.length, 1, 'one warning per run of failures');
  t.regex(warnings[0] ?? '', /reading the index version failed \(.*HTTP 500.*OutOfMemoryError.*\); kept answers are used for at most 600 ms/);

  failing = false;
  t.is((await nextVersion(index, undefined)).version, version, 'the same content, the same value: answers kept under it serve again');
});

test('contentVersion: a core whose documents carry no _version_ gives no value and one warning naming the field', async (t) => {
  await withFake(t, HOBBITS.map(({ _version_: _dropped, ...doc }) => doc), async (server) => {
    const warnings: string[] = [];
    const index = openIndex(t, { url: server.url, versionCheckMs: 10, logger: { warn: (m) => warnings.push(m) } });
    const seen = new Set<string | undefined>();
    await askUntil(index, () => server.requests.length >= 4, (version) => seen.add(version));
    t.deepEqual([...seen], [undefined]);
    t.is(warnings.length, 1, 'one warning for the run of failed reads');
    t.regex(warnings[0] ?? '', /documents carry no _version_/);
  });
});

test('contentVersion with versionCheckMs 0 reads nothing and gives no value; close() stops the reads', async (t) => {
  await withFake(t, versioned(), async (server) => {
    const off = openIndex(t, { url: server.url, versionCheckMs: 0 });
    for (let i = 0; i < 10; i++) t.is(off.contentVersion?.(), undefined);
    await sleep(50);
    t.is(server.requests.length, 0);

    const index = openIndex(t, { url: server.url, versionCheckMs: 10 });
    await nextVersion(index, undefined);
    await index.close();
    // A read already on the wire when close() came may still reach the server: let it land first.
    await sleep(30);
    const reads = server.requests.length;
    t.is(index.contentVersion?.(), undefined, 'a closed index vouches for nothing');
    await sleep(60);
    t.is(server.requests.length, reads, 'no read after close()');
  });
});

// ---------------------------------------------------------------------------------------------------
// Faults

async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

test('connection refused is IndexUnavailableError', async (t) => {
  const port = await closedPort();
  const index = openIndex(t, { url: `http://127.0.0.1:${port}/solr/biblio`, timeoutMs: 2000 });
  const error = await t.throwsAsync(index.getRecord('hob-1'), { instanceOf: IndexUnavailableError });
  t.regex(error?.message ?? '', /ECONNREFUSED/);
  t.truthy(error?.cause);
  await t.throwsAsync(index.findVersions({ workKeys: [K_THE], order: 'relevance', offset: 0, limit: 20 }), { instanceOf: IndexUnavailableError });
  await index.close();
});

test('a host name that does not resolve is IndexUnavailableError', async (t) => {
  const index = openIndex(t, { url: 'http://solr.does-not-exist.invalid:8983/solr/biblio', timeoutMs: 3000 });
  await t.throwsAsync(index.getRecord('hob-1'), { instanceOf: IndexUnavailableError });
  await index.close();
});

test('a server that never answers times out within about timeoutMs', async (t) => {
  const server = await listen(t, () => { /* never answer */ });
  const index = openIndex(t, { url: server.url, timeoutMs: 200 });
  const started = Date.now();
  const error = await t.throwsAsync(index.findVersions({ workKeys: [K_THE], order: 'last-indexed', offset: 0, limit: 50 }), { instanceOf: IndexUnavailableError });
  const elapsed = Date.now() - started;
  t.regex(error?.message ?? '', /no answer within 200 ms/);
  t.true(elapsed >= 190 && elapsed < 1500, `took ${elapsed} ms`);
  // The abandoned request must not keep its socket: the server sees the connection go.
  for (let i = 0; i < 50 && server.sockets.size > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  t.is(server.sockets.size, 0);
  await index.close();
  await server.close();
});

test('a server that sends headers and then stalls mid-body also times out', async (t) => {
  const server = await listen(t, (_seen, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"responseHeader":{"status":0,"QTime":1},"response":{"numFound":3,"start":0,"docs":[');
  });
  const index = openIndex(t, { url: server.url, timeoutMs: 200 });
  const started = Date.now();
  await t.throwsAsync(index.getRecord('hob-1'), { instanceOf: IndexUnavailableError, message: /no answer within 200 ms/ });
  t.true(Date.now() - started < 1500);
  await index.close();
  await server.close();
});

test('a connection cut mid-body fails at once, not at the deadline', async (t) => {
  const server = await listen(t, (_seen, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000' });
    res.write('{"responseHeader":{"status":0,"QTime":1},"response":{"numFound":3', () => res.socket?.destroy());
  });
  const index = openIndex(t, { url: server.url, timeoutMs: 5000 });
  const started = Date.now();
  await t.throwsAsync(index.getRecord('hob-1'), { instanceOf: IndexUnavailableError });
  t.true(Date.now() - started < 2000, 'did not wait for the 5 s deadline');
  await index.close();
  await server.close();
});

test('an HTTP 400 from Solr (query syntax) carries the Solr message', async (t) => {
  const server = await listen(t, (seen, res) => solrError(res, seen.query, 400, "org.apache.solr.search.SyntaxError: Cannot parse 'id:\"x'"));
  const index = openIndex(t, { url: server.url });
  await t.throwsAsync(index.findVersions({ workKeys: [K_THE], order: 'relevance', offset: 0, limit: 20 }), {
    instanceOf: IndexUnavailableError,
    message: /HTTP 400, Solr error: org\.apache\.solr\.search\.SyntaxError: Cannot parse 'id:"x' \(code 400\)/,
  });
  await index.close();
  await server.close();
});

test('an HTML error page from a proxy is IndexUnavailableError with the status and page text', async (t) => {
  const page = '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.24.0</center>\r\n</body>\r\n</html>\r\n';
  const server = await listen(t, (_seen, res) => res.writeHead(502, { 'content-type': 'text/html' }).end(page));
  const index = openIndex(t, { url: server.url });
  const error = await t.throwsAsync(index.getRecord('hob-1'), { instanceOf: IndexUnavailableError });
  t.regex(error?.message ?? '', /HTTP 502 \(text\/html\), not a Solr answer: 502 Bad Gateway 502 Bad Gateway nginx\/1\.24\.0/);
  await index.close();
  await server.close();
});

test('HTTP 200 with a body that is not JSON is IndexUnavailableError', async (t) => {
  const bodies = [
    ['text/plain', 'this is not json {'],
    ['application/json', '{"responseHeader":{"status":0},"response":{"numFound":1,"docs":[{"id":"a"'],
    ['text/html', '<!DOCTYPE html><html><body><form>Sign in to the library network</form></body></html>'],
    ['application/json', ''],
  ] as const;
  let i = 0;
  const server = await listen(t, (_seen, res) => {
    const [type, body] = bodies[i++] ?? ['text/plain', ''];
    res.writeHead(200, { 'content-type': type }).end(body);
  });
  const index = openIndex(t, { url: server.url });
  for (const [type] of bodies) {
    await t.throwsAsync(index.getRecord('hob-1'), { instanceOf: IndexUnavailableError, message: /HTTP 200 with a body that is not JSON/ }, type);
  }
  await index.close();
  await server.close();
});

test('JSON without a usable "response" is IndexUnavailableError', async (t) => {
  const bodies: unknown[] = [
    { responseHeader: { status: 0, QTime: 1 } },
    null,
    [1, 2, 3],
    { responseHeader: { status: 0 }, response: { numFound: '3', docs: [] } },
    { responseHeader: { status: 0 }, response: { numFound: 1, docs: [42] } },
    { responseHeader: { status: 0 }, response: { numFound: 1 } },
    { responseHeader: { status: 500 }, response: { numFound: 0, docs: [] } },
    { responseHeader: { status: 0 }, error: { msg: 'error in a 200', code: 500 } },
  ];
  let i = 0;
  const server = await listen(t, (_seen, res) => sendJson(res, 200, bodies[i++]));
  const index = openIndex(t, { url: server.url });
  for (const body of bodies) {
    await t.throwsAsync(index.findVersions({ workKeys: [K_THE], order: 'relevance', offset: 0, limit: 20 }), { instanceOf: IndexUnavailableError }, JSON.stringify(body));
  }
  await index.close();
  await server.close();
});

test('a document that is not a usable record is IndexUnavailableError naming the problem', async (t) => {
  const docs = [
    { id: 'bad-date', title: 'x', last_indexed: 'yesterday' },
    { title: 'no id', work_keys_str_mv: ['AT no id'] },
  ];
  await withFake(t, docs, async (server) => {
    const index = openIndex(t, { url: server.url });
    await t.throwsAsync(index.getRecord('bad-date'), { instanceOf: IndexUnavailableError, message: /last_indexed/ });
    await t.throwsAsync(index.findVersions({ workKeys: ['AT no id'], order: 'relevance', offset: 0, limit: 20 }), { instanceOf: IndexUnavailableError, message: /"id" is missing/ });
    await index.close();
  });
});

// ---------------------------------------------------------------------------------------------------
// Lifecycle

test('close() drops the keep-alive connection and later calls fail as unavailable', async (t) => {
  await withFake(t, HOBBITS, async (server) => {
    const index = openIndex(t, { url: server.url });
    await index.getRecord('hob-1');
    await index.getRecord('hob-2');
    t.is(server.sockets.size, 1, 'both requests used one kept-alive connection');
    await index.close();
    for (let i = 0; i < 50 && server.sockets.size > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    t.is(server.sockets.size, 0);
    await t.throwsAsync(index.getRecord('hob-1'), { instanceOf: IndexUnavailableError, message: /closed/ });
    t.is(server.requests.length, 2);
  });
});

test('a kept-alive connection that the server dropped while idle is retried once on a fresh one', async (t) => {
  const answer = fakeSolr(HOBBITS);
  const served = new WeakMap<net.Socket, number>();
  let resets = 0;
  const server = await listen(t, (seen, res) => {
    const socket = res.socket as net.Socket;
    const count = (served.get(socket) ?? 0) + 1;
    served.set(socket, count);
    // The second request on a connection finds it gone, as after an idle timeout on Solr's side.
    if (count === 2) {
      resets++;
      socket.destroy();
      return;
    }
    answer(seen, res);
  });
  const index = openIndex(t, { url: server.url });
  t.is((await index.getRecord('hob-1'))?.id, 'hob-1');
  t.is((await index.getRecord('hob-2'))?.id, 'hob-2');
  t.is(resets, 1);
  t.is(server.requests.length, 3);
});

test('a connection reset on a fresh connection is not retried', async (t) => {
  const server = await listen(t, (_seen, res) => res.socket?.destroy());
  const index = openIndex(t, { url: server.url });
  await t.throwsAsync(index.getRecord('hob-1'), { instanceOf: IndexUnavailableError, message: /socket hang up|ECONNRESET/ });
  t.is(server.requests.length, 1);
});

test('the logger gets one debug line per request with method, handler, outcome and time', async (t) => {
  await withFake(t, HOBBITS, async (server) => {
    const lines: string[] = [];
    const index = openIndex(t, { url: server.url, logger: { debug: (m) => lines.push(m) } });
    await index.getRecord('hob-1');
    await index.findVersions({ workKeys: [K_THE], order: 'relevance', offset: 0, limit: 20 });
    t.is(lines.length, 2);
    t.regex(lines[0] ?? '', /^Solr GET http:\/\/127\.0\.0\.1:\d+\/solr\/biblio\/select getRecord\("hob-1"\): HTTP 200 in \d+ ms$/);
    t.regex(lines[1] ?? '', /findVersions\(1 key, relevance, start 0\): HTTP 200/);
  });
});

test('a window that is not whole non-negative numbers is a caller bug (InvalidArgumentError, as on the embedded index), not an index fault', async (t) => {
  const index = openIndex(t, { url: 'http://127.0.0.1:9/solr/biblio' });
  await t.throwsAsync(index.findVersions({ workKeys: [K_THE], order: 'relevance', offset: -1, limit: 20 }), { instanceOf: InvalidArgumentError, code: 'INVALID_ARGUMENT' });
  await t.throwsAsync(index.findVersions({ workKeys: [K_THE], order: 'relevance', offset: 0, limit: 2.5 }), { instanceOf: InvalidArgumentError, code: 'INVALID_ARGUMENT' });
  await index.close();
});

test('on a work collection, recordWithVersions refuses a bad id or query before asking anything (InvalidArgumentError naming it)', async (t) => {
  // Nothing listens on port 9: a request would be an index fault, not the caller bug asserted here.
  const index = openIndex(t, { url: 'http://127.0.0.1:9/solr/biblio', workCollection: { url: 'http://127.0.0.1:9/solr/works' } });
  const ask = index.recordWithVersions!.bind(index);
  const query = { order: 'relevance', offset: 0, limit: 20 } as const;
  await t.throwsAsync(ask(42 as unknown as string, query), { instanceOf: InvalidArgumentError, message: /recordWithVersions/ });
  await t.throwsAsync(ask('hob-1', { ...query, offset: -1 }), { instanceOf: InvalidArgumentError, message: /recordWithVersions.*query\.offset/ });
  await t.throwsAsync(ask('hob-1', { ...query, order: 'newest' as 'relevance' }), { instanceOf: InvalidArgumentError, message: /query\.order/ });
  await index.close();
});

// ---------------------------------------------------------------------------------------------------
// Options

const BAD_OPTIONS: Array<[string, unknown, string]> = [
  ['no options', undefined, 'options'],
  ['no url', {}, 'url'],
  ['url not a string', { url: 42 }, 'url'],
  ['url not a URL', { url: 'localhost:8983/solr/biblio' }, 'url'],
  ['ftp url', { url: 'ftp://example.org/solr/biblio' }, 'url'],
  ['url without core', { url: 'http://localhost:8983' }, 'url'],
  ['url with only a slash', { url: 'http://localhost:8983/' }, 'url'],
  ['url with a query', { url: 'http://localhost:8983/solr/biblio?wt=xml' }, 'url'],
  ['timeout zero', { url: 'http://localhost:8983/solr/biblio', timeoutMs: 0 }, 'timeoutMs'],
  ['timeout negative', { url: 'http://localhost:8983/solr/biblio', timeoutMs: -5 }, 'timeoutMs'],
  ['timeout NaN', { url: 'http://localhost:8983/solr/biblio', timeoutMs: Number.NaN }, 'timeoutMs'],
  ['timeout string', { url: 'http://localhost:8983/solr/biblio', timeoutMs: '5000' }, 'timeoutMs'],
  ['timeout fraction', { url: 'http://localhost:8983/solr/biblio', timeoutMs: 1.5 }, 'timeoutMs'],
  ['fields not an object', { url: 'http://localhost:8983/solr/biblio', fields: ['id'] }, 'fields'],
  ['unknown field', { url: 'http://localhost:8983/solr/biblio', fields: { isbn: 'isbn' } }, 'fields.isbn'],
  ['field name with a space', { url: 'http://localhost:8983/solr/biblio', fields: { id: 'my id' } }, 'fields.id'],
  ['field name injecting local params', { url: 'http://localhost:8983/solr/biblio', fields: { work_keys_str_mv: 'keys} OR {!lucene' } }, 'fields.work_keys_str_mv'],
  ['field name empty', { url: 'http://localhost:8983/solr/biblio', fields: { last_indexed: '' } }, 'fields.last_indexed'],
  ['facetFields not an array', { url: 'http://localhost:8983/solr/biblio', facetFields: 'format' }, 'facetFields'],
  ['facetFields bad name', { url: 'http://localhost:8983/solr/biblio', facetFields: ['format', 'a&b'] }, 'facetFields'],
  ['logger not an object', { url: 'http://localhost:8983/solr/biblio', logger: 'console' }, 'logger'],
  ['versionCheckMs negative', { url: 'http://localhost:8983/solr/biblio', versionCheckMs: -1 }, 'versionCheckMs'],
  ['versionCheckMs fraction', { url: 'http://localhost:8983/solr/biblio', versionCheckMs: 0.5 }, 'versionCheckMs'],
  ['versionCheckMs string', { url: 'http://localhost:8983/solr/biblio', versionCheckMs: '1000' }, 'versionCheckMs'],
  ['maxStalenessMs zero', { url: 'http://localhost:8983/solr/biblio', maxStalenessMs: 0 }, 'maxStalenessMs'],
  ['maxStalenessMs not above the default versionCheckMs', { url: 'http://localhost:8983/solr/biblio', maxStalenessMs: 1000 }, 'maxStalenessMs'],
  ['maxStalenessMs below versionCheckMs', { url: 'http://localhost:8983/solr/biblio', versionCheckMs: 5000, maxStalenessMs: 2000 }, 'maxStalenessMs'],
  ['workCollection not an object', { url: 'http://localhost:8983/solr/biblio', workCollection: 'http://localhost:8983/solr/works' }, 'workCollection'],
  ['workCollection without url', { url: 'http://localhost:8983/solr/biblio', workCollection: {} }, 'workCollection.url'],
  ['workCollection url without a collection', { url: 'http://localhost:8983/solr/biblio', workCollection: { url: 'http://localhost:8983' } }, 'workCollection.url'],
  ['workCollection naming the core', { url: 'http://localhost:8983/solr/biblio', workCollection: { url: 'http://localhost:8983/solr/biblio/' } }, 'workCollection.url'],
  ['workCollection with an unknown option', { url: 'http://localhost:8983/solr/biblio', workCollection: { url: 'http://localhost:8983/solr/works', keyProfile: 'extended' } }, 'workCollection.keyProfile'],
  ['workCollection and workIndex both', { url: 'http://localhost:8983/solr/biblio', workCollection: { url: 'http://localhost:8983/solr/works' }, workIndex: { path: 'works.sqlite' } }, 'workCollection'],
];

for (const [label, options, option] of BAD_OPTIONS) {
  test(`invalid options: ${label} → InvalidOptionError naming "${option}"`, (t) => {
    const error = t.throws(() => createSolrIndex(options as SolrIndexOptions), { instanceOf: InvalidOptionError });
    t.is(error?.option, option);
  });
}

test('good options are accepted: https, IPv6 literal, defaults', async (t) => {
  // Each URL becomes the endpoint the requests go to: the bare IPv6 address, the default port of the
  // scheme, the core's path without a trailing slash.
  const endpoints: ReadonlyArray<readonly [string, { secure: boolean; host: string; port: number; path: string }]> = [
    ['https://solr.example.org/solr/biblio', { secure: true, host: 'solr.example.org', port: 443, path: '/solr/biblio' }],
    ['http://[::1]:8983/solr/biblio', { secure: false, host: '::1', port: 8983, path: '/solr/biblio' }],
    ['http://localhost:8983/solr/biblio/', { secure: false, host: 'localhost', port: 8983, path: '/solr/biblio' }],
  ];
  for (const [url, endpoint] of endpoints) {
    const options = { url, timeoutMs: 100, fields: { id: 'id' }, facetFields: ['format', 'building'] };
    const settings = checkSolrIndexOptions(options);
    t.like(settings.endpoint, endpoint, url);
    t.is(settings.timeoutMs, 100, url);
    t.deepEqual(settings.facetFields, ['format', 'building'], url);
    await t.notThrowsAsync(openIndex(t, options).close(), url);
  }
  // Without maxStalenessMs, kept answers may be one version check and one request's deadline old.
  const checks: ReadonlyArray<readonly [Partial<SolrIndexOptions>, { versionCheckMs: number; maxStalenessMs: number }]> = [
    [{ versionCheckMs: 0 }, { versionCheckMs: 0, maxStalenessMs: DEFAULT_SOLR_TIMEOUT_MS }],
    [{ versionCheckMs: 0, maxStalenessMs: 1 }, { versionCheckMs: 0, maxStalenessMs: 1 }],
    [{ versionCheckMs: 250, maxStalenessMs: 251 }, { versionCheckMs: 250, maxStalenessMs: 251 }],
    [{ maxStalenessMs: 1001 }, { versionCheckMs: DEFAULT_SOLR_VERSION_CHECK_MS, maxStalenessMs: 1001 }],
  ];
  for (const [options, expected] of checks) {
    const label = JSON.stringify(options);
    const settings = checkSolrIndexOptions({ url: 'http://localhost:8983/solr/biblio', ...options });
    t.like(settings, expected, label);
    await t.notThrowsAsync(openIndex(t, { url: 'http://localhost:8983/solr/biblio', ...options }).close(), label);
  }
});

// ---------------------------------------------------------------------------------------------------
// The stand-in against the real thing: the same documents in a real Solr (standalone core and two-shard
// SolrCloud collection "contract", from the plugin's configset; test/support/realSolr.ts) and in
// the fake must give the adapter the same answers, so the contract tests above test what Solr does.

if (!skippedWithoutSolr(test, 'the stand-in Solr compared with a real one')) {
  for (const target of solrTargets()) {
    test(`real Solr (${target.name}): the adapter's answers from the stand-in Solr equal a real Solr's on the same documents`, async (t) => {
      const url = await solrCore(target, 'contract', 'plugin');
      // _version_ is Solr's own (sent in an update it would be an optimistic-concurrency check).
      const documents = HOBBITS.map(({ _version_: _dropped, ...doc }) => doc);
      await updateSolr(url, { delete: { query: '*:*' } });
      await updateSolr(url, documents);
      const server = await listen(t, fakeSolr(documents));
      const answers = async (index: CatalogIndex) => {
        const out: unknown[] = [Object.fromEntries(await index.countVersions([...documents.map((doc) => String(doc.id)), 'missing']))];
        for (const { id } of documents) {
          const record = await index.getRecord(String(id));
          out.push(record);
          for (const order of ['last-indexed', 'relevance'] as const) {
            out.push(await index.findVersions({ workKeys: record?.workKeys ?? [], order, offset: 0, limit: 20 }));
            out.push(await index.findVersions({ workKeys: record?.workKeys ?? [], order, offset: 1, limit: 2 }));
          }
        }
        out.push(await index.getRecord('hob-'));
        return out;
      };
      const real = openIndex(t, { url, versionCheckMs: 0 });
      const fake = openIndex(t, { url: server.url, versionCheckMs: 0 });
      t.deepEqual(await answers(real), await answers(fake));
    });
  }
}
