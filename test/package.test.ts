/**
 * The published package as a host gets it: `npm pack` of the built tree, installed with npm into a fresh
 * project, mounted there through the public subpaths only. Checks what the tarball ships (the compiled
 * library, its types, views, themes, i18n, the Solr configset, the command, README, docs, CHANGELOG,
 * LICENSE — and no source maps, demo, benchmark or tests), that npm prints no warning about this package,
 * and that importing the root loads neither better-sqlite3 nor solr-client.
 *
 * Needs the build (`npm test` builds first) and npm's cache of the dependencies (filled by `npm ci`).
 */
import test from 'ava';
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

interface PackedFile { path: string }

test('the packed tarball installs into a fresh project and mounts through the public subpaths', async (t) => {
  t.timeout(600_000);
  const folder = mkdtempSync(join(tmpdir(), 'catalog-versions-pack-'));
  t.teardown(() => rmSync(folder, { recursive: true, force: true }));

  const packed = await run(npm, ['pack', '--json', '--pack-destination', folder], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
  const [manifest] = JSON.parse(packed.stdout) as Array<{ filename: string; files: PackedFile[] }>;
  const files = manifest!.files.map((file) => file.path);
  for (const expected of [
    'dist/src/index.js', 'dist/src/index.d.ts', 'dist/src/adapters/sqlite/index.js', 'dist/src/adapters/solr/index.js',
    'dist/src/work-keys/index.js', 'dist/src/ingest/index.js', 'dist/src/cli/catalogVersions.js',
    'views/versions.pug', 'views/rss.xsl', 'themes/standard/theme.json', 'i18n/pt-br.json',
    'src/adapters/solr/configset/conf/managed-schema.xml', 'plugin.json', 'README.md', 'CHANGELOG.md', 'LICENSE', 'docs/work-keys.md',
  ]) t.true(files.includes(expected), `ships ${expected}`);
  const unwanted = files.filter((file) => /\.map$|^dist\/(demo|tools|test)\/|^(demo|tools|test)\/|^src\/.*\.ts$/.test(file));
  t.deepEqual(unwanted, [], 'no source maps, demo, benchmark, soak or tests, no TypeScript sources');

  // The host has better-sqlite3 installed already (a copy of ours, with the two packages it loads at run
  // time), as many hosts will: npm keeps it instead of compiling it again, which takes minutes here.
  const project = join(folder, 'host');
  for (const name of ['better-sqlite3', 'bindings', 'file-uri-to-path']) {
    cpSync(join(ROOT, 'node_modules', name), join(project, 'node_modules', name), { recursive: true });
  }
  const sqliteVersion = (JSON.parse(readFileSync(join(ROOT, 'node_modules', 'better-sqlite3', 'package.json'), 'utf8')) as { version: string }).version;
  writeFileSync(join(project, 'package.json'), JSON.stringify({
    name: 'host', version: '1.0.0', private: true, type: 'module', dependencies: { 'better-sqlite3': sqliteVersion },
  }));
  const installed = await run(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', join(folder, manifest!.filename)], {
    cwd: project, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, npm_config_loglevel: 'warn' },
  });
  const warnings = `${installed.stdout}\n${installed.stderr}`.split('\n').filter((line) => /warn/i.test(line) && /koa-catalog-versions|prepare/.test(line));
  t.deepEqual(warnings, [], 'npm says nothing about this package');

  writeFileSync(join(project, 'root-only.mjs'), `
    import { createRequire } from 'node:module';
    const root = await import('koa-catalog-versions');
    const loaded = Object.keys(createRequire(import.meta.url).cache).filter((p) => /better-sqlite3|solr-client/.test(p));
    console.log(JSON.stringify({ factory: typeof root.createVersionsPlugin, errors: typeof root.RecordNotFoundError, loaded }));
  `);
  const rootOnly = JSON.parse((await run(process.execPath, ['root-only.mjs'], { cwd: project })).stdout);
  t.deepEqual(rootOnly, { factory: 'function', errors: 'function', loaded: [] });

  writeFileSync(join(project, 'host.mjs'), `
    import http from 'node:http';
    import Koa from 'koa';
    import { createVersionsPlugin } from 'koa-catalog-versions';
    import { openEmbeddedIndex } from 'koa-catalog-versions/sqlite';
    import { workKeysOf } from 'koa-catalog-versions/work-keys';
    // VuFind's keys, as when this test was written: they keep the subtitled h2 apart (the extended profile,
    // the embedded index's default, groups it too).
    const index = openEmbeddedIndex({ path: ':memory:', keyProfile: 'vufind' });
    await index.load([
      { id: 'h1', title: 'The Hobbit', author: 'Tolkien, J. R. R.', format: 'Book', publishDate: '1937' },
      { id: 'h2', title: 'The hobbit, or, There and back again', title_short: 'The hobbit', author: 'Tolkien, J. R. R.', format: 'eBook' },
      { id: 'h3', title: 'Hobbit', author: ['Tolkien, J.R.R.'], format: 'Sound Recording' },
    ]);
    const app = new Koa();
    app.use(createVersionsPlugin({ index, baseUrl: 'http://catalog.example' }));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const get = (path) => new Promise((resolve, reject) => http.get({ host: '127.0.0.1', port: server.address().port, path }, (res) => {
      let body = ''; res.setEncoding('utf8'); res.on('data', (c) => (body += c)); res.on('end', () => resolve({ status: res.statusCode, body }));
    }).on('error', reject));
    const feed = await get('/Search/Versions?id=h1&view=rss');
    const page = await get('/Search/Versions?id=h3');
    server.close();
    await index.close();
    console.log(JSON.stringify({
      feedStatus: feed.status, items: (feed.body.match(/<item>/g) ?? []).length, page: page.status,
      keys: workKeysOf({ id: 'x', title: 'The Hobbit', author: 'Tolkien, J. R. R.' }),
      nothing: [workKeysOf(null), workKeysOf({}), workKeysOf('text'), workKeysOf({ title: 42, author: {} })],
    }));
  `);
  const host = JSON.parse((await run(process.execPath, ['host.mjs'], { cwd: project })).stdout);
  t.deepEqual(host, {
    feedStatus: 200, items: 2, page: 200,
    keys: ['AT tolkienjrr thehobbit', 'AT tolkienjrr hobbit'],
    nothing: [[], [], [], []],
  });
});
