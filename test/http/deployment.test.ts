/**
 * What docs/deployment.md promises a deployment: the plugin under a path prefix (`/vufind`) gives links
 * that carry the prefix and resolve, whether the prefix comes from `baseUrl`, from the mount path
 * (koa-mount's ctx.mountPath) or from a proxy's X-Forwarded-Prefix; the health check answers for an index
 * that is present, missing (gone or replaced), locked and unreachable; and the "Show all versions (N)"
 * links of a host's result list cost one countVersions call.
 */
import test from 'ava';
import Database from 'better-sqlite3';
import { copyFileSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Koa, { type Middleware } from 'koa';
import supertest from 'supertest';
import { createVersionsPlugin, IndexUnavailableError, InvalidOptionError, type CatalogIndex, type VersionsPluginOptions } from '../../src/index.js';
import { fixture, FIXED_NOW, openLoadedIndex, SAO_PAULO } from '../support/testHost.js';
import { openEmbeddedIndex } from '../../src/entries/sqlite.js';

const THESIS = 'usp:tese-2019-0412';
const quiet = { error: () => undefined, warn: () => undefined };

/** What koa-mount does: below `prefix`, the middleware sees the rest of the path and ctx.mountPath. */
function mountUnder(prefix: string, middleware: Middleware): Middleware {
  return async (ctx, next) => {
    const path = ctx.path;
    if (path !== prefix && !path.startsWith(`${prefix}/`)) return next();
    (ctx as typeof ctx & { mountPath?: string }).mountPath = prefix;
    ctx.path = path.slice(prefix.length) || '/';
    try {
      await middleware(ctx, async () => {
        ctx.path = path;
        await next();
      });
    } finally {
      ctx.path = path;
    }
  };
}

async function hostUnderPrefix(options: Partial<VersionsPluginOptions>, how: 'mounted' | 'proxied', proxy = true) {
  const index = await openLoadedIndex(fixture('thesis-in-two-repositories'));
  const plugin = createVersionsPlugin({ index, now: () => FIXED_NOW, timeZone: SAO_PAULO, logger: quiet, catalogHomeUrl: '/vufind/', ...options });
  const app = new Koa();
  app.proxy = proxy;
  app.use(how === 'mounted' ? mountUnder('/vufind', plugin) : plugin);
  return { request: supertest(app.callback()), index };
}

/** Every address in a body: absolute URLs, and paths that start with "/" in href and src attributes. */
function addressesIn(body: string): string[] {
  const absolute = [...body.matchAll(/https?:\/\/[^\s"'<>)]+/g)].map((m) => m[0].replace(/&amp;/g, '&'));
  const rooted = [...body.matchAll(/(?:href|src)="(\/[^"]*)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
  return [...absolute, ...rooted];
}

/** The addresses of the feed and the page of the thesis that point into the catalog (not full-text links). */
async function catalogAddresses(request: supertest.Agent | ReturnType<typeof supertest>, path: string, origin: string, headers: Record<string, string> = {}) {
  const addresses: string[] = [];
  for (const view of ['&view=rss', '']) {
    const answer = await request.get(`${path}?id=${encodeURIComponent(THESIS)}${view}`).set(headers);
    if (answer.status !== 200) throw new Error(`${path}${view}: ${answer.status}`);
    addresses.push(...addressesIn(answer.text).filter((a) => a.startsWith(origin) || a.startsWith('/')));
  }
  return addresses;
}

test('baseUrl with a path, the plugin mounted under it: every catalog link carries /vufind and resolves', async (t) => {
  const { request, index } = await hostUnderPrefix({ baseUrl: 'https://library.example.edu/vufind' }, 'mounted');
  t.teardown(() => index.close());
  const addresses = await catalogAddresses(request, '/vufind/Search/Versions', 'https://library.example.edu');
  t.true(addresses.length >= 10, `links found: ${addresses.length}`);
  for (const address of addresses) t.regex(address, /^(https:\/\/library\.example\.edu)?\/vufind\//, address);
  // The plugin's own addresses answer through the mount (record pages and the home page are the host's).
  for (const address of new Set(addresses.filter((a) => !a.includes('/Record/') && a !== '/vufind/'))) {
    const answer = await request.get(address.replace('https://library.example.edu', ''));
    t.is(answer.status, 200, address);
  }
  t.is((await request.get('/Search/Versions?id=x')).status, 404, 'outside the prefix the plugin does not answer');
});

test('without baseUrl, the mount path and a trusted X-Forwarded-Prefix give the prefix', async (t) => {
  const mounted = await hostUnderPrefix({}, 'mounted');
  t.teardown(() => mounted.index.close());
  const fromMount = await catalogAddresses(mounted.request, '/vufind/Search/Versions', 'http://library.example.edu', { Host: 'library.example.edu' });
  t.true(fromMount.length >= 10);
  for (const address of fromMount) t.regex(address, /^(http:\/\/library\.example\.edu)?\/vufind\//, address);

  // nginx strips /vufind and says so (proxy_set_header X-Forwarded-Prefix /vufind); Koa trusts it with app.proxy.
  const proxied = await hostUnderPrefix({}, 'proxied');
  t.teardown(() => proxied.index.close());
  const forwarded = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'library.example.edu', 'X-Forwarded-Prefix': '/vufind' };
  const fromProxy = await catalogAddresses(proxied.request, '/Search/Versions', 'https://library.example.edu', forwarded);
  t.true(fromProxy.length >= 10);
  for (const address of fromProxy) t.regex(address, /^(https:\/\/library\.example\.edu)?\/vufind\//, address);

  const untrusted = await hostUnderPrefix({}, 'proxied', false);
  t.teardown(() => untrusted.index.close());
  const ignored = await catalogAddresses(untrusted.request, '/Search/Versions', 'http://library.example.edu', { ...forwarded, Host: 'library.example.edu' });
  t.false(ignored.some((a) => a.startsWith('http://library.example.edu/vufind/')), 'without app.proxy the header is not believed');
  const odd = await catalogAddresses(proxied.request, '/Search/Versions', 'https://library.example.edu', { ...forwarded, 'X-Forwarded-Prefix': '/vu"><b>fi' });
  t.true(odd.some((a) => a.startsWith('https://library.example.edu/Search/Versions')), 'a prefix of another shape is ignored');
});

test('versionsLinks: one countVersions call for a result list, a link for works of two or more, under the prefix', async (t) => {
  const index = await openLoadedIndex(fixture('thesis-in-two-repositories'));
  t.teardown(() => index.close());
  let calls = 0;
  const counting: CatalogIndex = Object.assign(Object.create(index) as CatalogIndex, {
    countVersions: (ids: readonly string[]) => {
      calls += 1;
      return index.countVersions(ids);
    },
  });
  const plugin = createVersionsPlugin({ index: counting, baseUrl: 'https://library.example.edu/vufind', logger: quiet });
  const app = new Koa();
  app.use(async (ctx, next) => {
    if (ctx.path !== '/results') return next();
    const ids = ['usp:tese-2019-0412', 'bdtd:USP_4f9a2c', 'unrelated-1', 'no-such-record'];
    const one = await plugin.versionsLinks(ctx, ids);
    const all = await plugin.versionsLinks(ctx, ids, { minimum: 1, language: 'es' });
    ctx.body = { one: Object.fromEntries(one), all: [...all.keys()].sort(), es: all.get('unrelated-1')?.label };
  });
  app.use(plugin);
  const answer = await supertest(app.callback()).get('/results').set('Accept-Language', 'pt-BR');
  t.is(calls, 2, 'one call per list');
  t.deepEqual(answer.body.one, {
    'usp:tese-2019-0412': { count: 2, href: 'https://library.example.edu/vufind/Search/Versions?id=usp%3Atese-2019-0412&search=versions', label: 'Mostrar todas as versões (2)' },
    'bdtd:USP_4f9a2c': { count: 2, href: 'https://library.example.edu/vufind/Search/Versions?id=bdtd%3AUSP_4f9a2c&search=versions', label: 'Mostrar todas as versões (2)' },
  });
  t.deepEqual(answer.body.all, ['bdtd:USP_4f9a2c', 'unrelated-1', 'usp:tese-2019-0412'], 'minimum 1 links every record found, none for an unknown id');
  t.is(answer.body.es, 'Mostrar todas las versiones (1)');
});

// ---------------------------------------------------------------------------------------------------------
// The health check

function tempDir(t: { teardown(fn: () => unknown): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-versions-health-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function indexFileWithRecords(path: string): Promise<void> {
  const writing = openEmbeddedIndex({ path, create: true });
  await writing.load(fixture('thesis-in-two-repositories'));
  await writing.close();
}

function healthHost(index: CatalogIndex, options: Partial<VersionsPluginOptions> = {}) {
  const warnings: string[] = [];
  const app = new Koa();
  app.use(createVersionsPlugin({ index, now: () => FIXED_NOW, logger: { error: () => undefined, warn: (message) => void warnings.push(message) }, ...options }));
  return { request: supertest(app.callback()), warnings };
}

test('health: 200 with the content version while the index answers; 503 "missing" when its file is gone or replaced', async (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'catalog.sqlite');
  await indexFileWithRecords(path);
  const index = openEmbeddedIndex({ path, readOnly: true });
  t.teardown(() => index.close());
  const { request, warnings } = healthHost(index, { indexFile: path });

  const ok = await request.get('/Search/Versions/health');
  t.is(ok.status, 200);
  t.is(ok.headers['cache-control'], 'no-store');
  t.regex(ok.headers['content-type'] ?? '', /^application\/json/);
  t.like(ok.body, { status: 'ok', checkedAt: FIXED_NOW.toISOString() });
  t.is(ok.body.contentVersion, index.contentVersion?.());
  t.is(typeof ok.body.milliseconds, 'number');
  t.is((await request.head('/Search/Versions/health')).status, 200, 'HEAD too');

  renameSync(path, `${path}.moved`);
  const gone = await request.get('/Search/Versions/health');
  t.is(gone.status, 503);
  t.is(gone.body.status, 'missing');
  t.regex(gone.body.problem, /catalog\.sqlite is gone; the server still reads the file it opened until it restarts/);

  copyFileSync(`${path}.moved`, path);
  const replaced = await request.get('/Search/Versions/health');
  t.is(replaced.status, 503);
  t.is(replaced.body.status, 'missing');
  t.regex(replaced.body.problem, /was replaced since the server opened it; restart the server/);
  t.true(warnings.some((w) => /^health check: missing: /.test(w)), 'a failed check is logged');
});

test('health: 503 "empty" for an index without records, naming its file, and 200 once a load fills it', async (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'catalog.sqlite');
  await openEmbeddedIndex({ path, create: true }).close();
  const index = openEmbeddedIndex({ path, readOnly: true });
  t.teardown(() => index.close());
  const { request, warnings } = healthHost(index, { indexFile: path });

  const empty = await request.get('/Search/Versions/health');
  t.is(empty.status, 503);
  t.is(empty.body.status, 'empty');
  t.is(empty.body.problem, `the index file ${path} holds no records, so every versions page is a 404: load records into it, or check that the server opened the index the loads write`);
  t.true(warnings.some((w) => w.startsWith('health check: empty: ')), 'the failed check is logged');

  await indexFileWithRecords(path);
  const filled = await request.get('/Search/Versions/health');
  t.is(filled.status, 200, 'the load another connection made is seen');
  t.is(filled.body.status, 'ok');

  const inMemory = openEmbeddedIndex({ path: ':memory:' });
  t.teardown(() => inMemory.close());
  const unnamed = await healthHost(inMemory).request.get('/Search/Versions/health');
  t.like(unnamed.body, { status: 'empty', problem: 'the index holds no records, so every versions page is a 404: load records into it, or check that the server opened the index the loads write' });
});

test('health: 503 "locked" while another process holds the index file exclusively', async (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'catalog.sqlite');
  await indexFileWithRecords(path);
  // A rollback-journal file (as a copy made by some tools is): a writer's exclusive lock keeps readers out.
  const other = new Database(path);
  other.pragma('journal_mode = DELETE');
  const index = openEmbeddedIndex({ path, readOnly: true });
  t.teardown(async () => {
    other.close();
    await index.close();
  });
  const { request } = healthHost(index, { indexFile: path });
  t.is((await request.get('/Search/Versions/health')).status, 200);
  other.exec('BEGIN EXCLUSIVE');
  const locked = await request.get('/Search/Versions/health');
  other.exec('COMMIT');
  t.is(locked.status, 503);
  t.is(locked.body.status, 'locked');
  t.regex(locked.body.problem, /database is locked/);
  t.is(locked.body.contentVersion, null);
  t.is((await request.get('/Search/Versions/health')).status, 200, 'healthy again once the lock is gone');
});

test('health: 503 "unavailable" when the engine is down, "missing" when it says the core does not exist', async (t) => {
  const failing = (message: string): CatalogIndex => ({
    getRecord: async () => undefined,
    findVersions: async () => ({ total: 0, records: [] }),
    countVersions: async () => {
      throw new IndexUnavailableError(message);
    },
    close: async () => undefined,
  });
  const down = await healthHost(failing('Solr: countVersions(1 id) failed: connect ECONNREFUSED 127.0.0.1:8983')).request.get('/Search/Versions/health');
  t.is(down.status, 503);
  t.like(down.body, { status: 'unavailable', contentVersion: null });
  t.regex(down.body.problem, /ECONNREFUSED/);
  const noCore = await healthHost(failing('Solr: countVersions(1 id) failed: HTTP 404 Not Found')).request.get('/Search/Versions/health');
  t.is(noCore.body.status, 'missing');
});

test('indexFile must be a non-empty string', (t) => {
  const index = { getRecord: async () => undefined, findVersions: async () => ({ total: 0, records: [] }), countVersions: async () => new Map(), close: async () => undefined };
  for (const indexFile of ['', 5, ['a']]) {
    const error = t.throws(() => createVersionsPlugin({ index, indexFile } as unknown as VersionsPluginOptions), { instanceOf: InvalidOptionError });
    t.is(error?.option, 'indexFile');
  }
});

test('backups while serving: VACUUM INTO and the online backup give a file the server can be restarted on', async (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'catalog.sqlite');
  await indexFileWithRecords(path);
  const serving = openEmbeddedIndex({ path, readOnly: true });
  t.teardown(() => serving.close());
  const { request } = healthHost(serving, { indexFile: path, baseUrl: 'https://library.example.edu' });
  const before = await request.get(`/Search/Versions?id=${encodeURIComponent(THESIS)}&view=rss`);
  // As docs/deployment.md says: from another connection (the sqlite3 shell, a script), the server running.
  const shell = new Database(path, { readonly: true });
  shell.prepare('VACUUM INTO ?').run(join(dir, 'vacuumed.sqlite'));
  await shell.backup(join(dir, 'backed-up.sqlite'));
  shell.close();
  t.is((await request.get('/Search/Versions/health')).body.status, 'ok', 'the server kept serving');
  for (const copy of ['vacuumed.sqlite', 'backed-up.sqlite']) {
    const restored = openEmbeddedIndex({ path: join(dir, copy), readOnly: true });
    const app = new Koa();
    app.use(createVersionsPlugin({ index: restored, now: () => FIXED_NOW, logger: quiet, baseUrl: 'https://library.example.edu' }));
    const after = await supertest(app.callback()).get(`/Search/Versions?id=${encodeURIComponent(THESIS)}&view=rss`);
    await restored.close();
    t.is(after.status, 200, copy);
    t.is(after.text, before.text, `${copy}: the same feed`);
  }
});
