/**
 * The plugin reuses finished answers while the index's content version stays the same, and never serves
 * an answer older than the data: after a load by this process or a commit by another one, answers are
 * built afresh.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { openEmbeddedIndex } from '../../src/index.js';
import type { CatalogIndex } from '../../src/ports.js';
import supertest from 'supertest';
import { fixture, hostFor, manyVersions, openLoadedIndex } from '../support/testHost.js';

const FEED = '/Search/Versions?id=usp%3Atese-2019-0412&search=versions&view=rss&lng=en';
const PAGE = '/Search/Versions?id=usp%3Atese-2019-0412&search=versions&lng=en';

const folder = mkdtempSync(join(tmpdir(), 'versions-reuse-'));
test.after.always(() => rmSync(folder, { recursive: true, force: true }));

/** The index as it is, counting the queries that reach it. */
function counted(index: CatalogIndex, withContentVersion = true): CatalogIndex & { queries: number } {
  const wrapper = {
    queries: 0,
    getRecord: (id: string) => (wrapper.queries++, index.getRecord(id)),
    findVersions: (query: Parameters<CatalogIndex['findVersions']>[0]) => (wrapper.queries++, index.findVersions(query)),
    countVersions: (ids: readonly string[]) => index.countVersions(ids),
    close: () => index.close(),
    ...(withContentVersion ? { contentVersion: () => index.contentVersion!() } : {}),
  };
  return wrapper;
}

const THESIS_COPY = {
  id: 'uspdig:ensino-2019', title: 'O ensino de ciências na educação básica: práticas e desafios', author: 'Pereira, Ana Clara',
  format: 'Thesis', publishDate: '2019', last_indexed: '2025-06-01T00:00:00Z',
};

test('a feed asked for again is sent without querying the index, its pubDate time following the clock', async (t) => {
  const index = counted(await openLoadedIndex(fixture('thesis-in-two-repositories')));
  let now = new Date('2026-05-04T17:03:27Z');
  const { request } = hostFor(index, { now: () => now });
  const first = await request.get(FEED).expect(200);
  const queries = index.queries;
  t.true(queries > 0);
  now = new Date('2026-05-04T18:10:05Z');
  const second = await request.get(FEED).expect(200);
  t.is(index.queries, queries, 'the second answer was the kept one');
  t.true(first.text.includes('14:03:27 -0300'));
  t.is(second.text, first.text.replaceAll('14:03:27', '15:10:05'));
  t.is(second.headers.etag, first.headers.etag);
  t.is(second.headers['last-modified'], first.headers['last-modified']);
  await request.get(FEED).set('If-None-Match', first.headers.etag!).expect(304);
  t.is(index.queries, queries, 'a conditional request is answered from the kept answer too');
});

test('a kept page still sets the cookies of a new visitor', async (t) => {
  const index = counted(await openLoadedIndex(fixture('thesis-in-two-repositories')));
  const { app } = hostFor(index);
  const supertest = (await import('supertest')).default;
  const first = await supertest(app.callback()).get(PAGE).expect(200);
  const queries = index.queries;
  const second = await supertest(app.callback()).get(PAGE).expect(200);
  t.is(index.queries, queries);
  t.is(second.text, first.text);
  const names = (response: typeof first) => ((response.headers['set-cookie'] ?? []) as string[]).map((cookie) => cookie.split('=')[0]).sort();
  t.deepEqual(names(second), ['VUFIND_SESSION', 'language', 'ui']);
  t.not(second.headers['set-cookie'], first.headers['set-cookie'], 'each visitor gets a session token of its own');
});

test('answers differ by language, page and view, each kept under its own key', async (t) => {
  const index = counted(await openLoadedIndex(fixture('thesis-in-two-repositories')));
  const { request } = hostFor(index);
  const paths = [FEED, PAGE, FEED.replace('lng=en', 'lng=es'), PAGE.replace('lng=en', 'lng=pt-br'), `${PAGE}&page=2`];
  const bodies: string[] = [];
  for (const path of paths) bodies.push((await request.get(path)).text);
  t.is(new Set(bodies).size, paths.length);
  const queries = index.queries;
  for (const [i, path] of paths.entries()) t.is((await request.get(path)).text, bodies[i] as string);
  t.is(index.queries, queries);
});

test('a load into the same index makes the next answer show the new version', async (t) => {
  const embedded = await openLoadedIndex(fixture('thesis-in-two-repositories'));
  const { request } = hostFor(embedded);
  t.false((await request.get(FEED)).text.includes('uspdig'));
  await embedded.load([THESIS_COPY]);
  const after = await request.get(FEED).expect(200);
  t.true(after.text.includes('uspdig:ensino-2019'));
});

test('a commit by another connection to the index file makes the next answer fresh', async (t) => {
  const path = join(folder, 'shared.sqlite');
  const writer = openEmbeddedIndex({ path, create: true });
  await writer.load(fixture('thesis-in-two-repositories'));
  const server = openEmbeddedIndex({ path, readOnly: true });
  t.teardown(async () => {
    await server.close();
    await writer.close();
  });
  const { request } = hostFor(server);
  const before = await request.get(FEED).expect(200);
  t.false(before.text.includes('uspdig'));
  await writer.load([THESIS_COPY]);
  const after = await request.get(FEED).expect(200);
  t.true(after.text.includes('uspdig:ensino-2019'));
  t.not(after.headers.etag, before.headers.etag);
});

test('with answerCacheMegabytes 0, or an index without a content version, every request queries the index', async (t) => {
  const documents = fixture('thesis-in-two-repositories');
  for (const [index, options] of [
    [counted(await openLoadedIndex(documents)), { answerCacheMegabytes: 0 }],
    [counted(await openLoadedIndex(documents), false), {}],
  ] as const) {
    const { request } = hostFor(index, options);
    await request.get(FEED).expect(200);
    const queries = index.queries;
    await request.get(FEED).expect(200);
    t.is(index.queries, 2 * queries);
  }
});

test('errors are not kept: a record loaded after a 404 is found', async (t) => {
  const embedded = await openLoadedIndex(fixture('thesis-in-two-repositories'));
  const { request } = hostFor(embedded);
  const path = `/Search/Versions?id=${encodeURIComponent(THESIS_COPY.id)}&search=versions&view=rss`;
  t.is((await request.get(path)).status, 404);
  await embedded.load([THESIS_COPY]);
  t.is((await request.get(path)).status, 200);
});

test('templates see their view model only, not the host\'s ctx.state, so a kept page shows no visitor\'s data', async (t) => {
  const index = await openLoadedIndex(fixture('thesis-in-two-repositories'));
  const themeDirectories = [join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'theme-reading-host-state')];
  const { request } = hostFor(index, { themeDirectories, themes: { standard: 'nosy' } }, (app) => app.use(async (ctx, next) => {
    ctx.state.hostUser = 'Visitor One';
    await next();
  }));
  const page = await request.get(PAGE).expect(200);
  t.true(page.text.includes('<p class="host-user">no host state</p>'));
});

test('feeds asked for at the same time while the seconds change are each sent with their own bytes', async (t) => {
  // 120 versions: three pages of 50-item feeds in three languages, nine bodies of about 20 KB, more than
  // one 128 KB buffer holds; the clock moves a second every few answers, as a busy server's does.
  const documents = manyVersions(120);
  const paths = ['en', 'es', 'pt-br'].flatMap((lng) => [1, 2, 3].map((page) => `/Search/Versions?id=many-001&view=rss&lng=${lng}&page=${page}`));
  let ticks = 0;
  const now = () => new Date(Date.UTC(2026, 4, 4, 17, 3, Math.floor(ticks++ / 5)));
  const built = hostFor(await openLoadedIndex(documents), { answerCacheMegabytes: 0, now: () => new Date(Date.UTC(2026, 4, 4, 17, 3, 0)) });
  const expected = new Map<string, string>();
  for (const path of paths) expected.set(path, (await built.request.get(path).expect(200)).text);
  const kept = hostFor(await openLoadedIndex(documents), { now });
  const asked = [...paths, ...paths, ...paths, ...paths];
  const answers = await Promise.all(asked.map((path) => kept.request.get(path).expect(200)));
  answers.forEach((answer, i) => {
    const path = asked[i]!;
    // The pubDates carry the second the answer was sent in; everything else is the feed built alone.
    t.is(answer.text.replace(/17:03:\d\d/g, '17:03:00').replace(/14:03:\d\d/g, '14:03:00'),
      expected.get(path)!.replace(/14:03:\d\d/g, '14:03:00'), path);
  });
});

test('a host\'s middleware sees after `await next()` what the router marks and what the answer sets, kept or built, at the exact path or another spelling', async (t) => {
  const index = await openLoadedIndex(fixture('thesis-in-two-repositories'));
  type Seen = Record<string, unknown>;
  const seen: Seen[] = [];
  const { app } = hostFor(index, {}, (host) => host.use(async (ctx, next) => {
    await next();
    const routed = ctx as typeof ctx & Record<string, unknown> & { matched?: Array<{ path: unknown; methods: string[] }>; router?: { stack: Array<{ path: unknown }> } };
    seen.push({
      keys: Object.keys(ctx),
      matched: routed.matched?.map((layer) => [layer.path, layer.methods]),
      router: routed.router?.stack.map((layer) => layer.path),
      ...Object.fromEntries(['routeMatched', '_matchedRoute', '_matchedRouteName', 'captures', 'params', 'routerPath', 'routerName'].map((name) => [name, routed[name]])),
      requestParams: (ctx.request as typeof ctx.request & { params?: unknown }).params,
      status: ctx.status,
      body: Buffer.isBuffer(ctx.body) ? ctx.body.toString() : ctx.body,
      headers: { ...ctx.response.headers },
    });
  }));
  const query = '?id=usp%3Atese-2019-0412&search=versions&view=rss&lng=en';
  for (const path of ['/Search/Versions', '/search/versions', '/Search/Versions/']) {
    for (const method of ['get', 'head'] as const) {
      // A fresh client each time (no cookies kept), the second request answered from the kept answers.
      await supertest(app.callback())[method](`${path}${query}`).expect(200);
      await supertest(app.callback())[method](`${path}${query}`).expect(200);
    }
  }
  t.is(seen.length, 12);
  t.truthy(seen[0]!.body);
  t.is(seen[0]!._matchedRoute, '/Search/Versions');
  // The exact path is answered without the router; the other spellings through it: the host sees the same.
  for (const other of seen.slice(1)) t.deepEqual(other, seen[0]);
  index.close();
});

test('a host that changed ctx.query before the plugin gets the answer to its changed query, as before', async (t) => {
  const index = await openLoadedIndex(fixture('thesis-in-two-repositories'));
  const { request } = hostFor(index, {}, (host) => host.use(async (ctx, next) => {
    if (ctx.query.lng === 'host-choice') ctx.query.lng = 'es';
    await next();
  }));
  const feed = await request.get('/Search/Versions?id=usp%3Atese-2019-0412&search=versions&view=rss&lng=host-choice').expect(200);
  t.regex(feed.text, /<title>Resultados para Versiones - usp:tese-2019-0412<\/title>/);
  index.close();
});
