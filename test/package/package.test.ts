/**
 * The published package as a host gets it: `npm pack` of the built tree, installed with npm into a fresh
 * project, mounted there through the public subpaths only. Checks what the tarball ships (the compiled
 * library, its types, views, themes, i18n, the Solr configset, the command, README, docs, CHANGELOG,
 * LICENSE — and no source maps, demo, benchmark or tests), that npm prints no warning about this package,
 * and that importing the root loads neither better-sqlite3 nor solr-client. The host project is CommonJS,
 * as `npm init -y` makes one: README.md's host runs there in both forms, `host.mjs` and `host.js` with
 * require(), on an index file the installed command loaded, read-only, and refuses a missing one naming it;
 * both forms typecheck with `strict` and without `skipLibCheck`. The install lines of docs/deployment.md
 * name the tarball npm packed.
 *
 * Needs the build (`npm test` builds first) and npm's cache of the dependencies (filled by `npm ci`).
 */
import test from 'ava';
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const run = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const installedVersion = (name: string) => (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

/** In a host script: `get(path)`, a GET to its listening `server` over loopback, resolving to `{ status, body }`. */
const GET_OVER_HTTP = `const get = (path) => new Promise((resolve, reject) => http.get({ host: '127.0.0.1', port: server.address().port, path }, (res) => {
      let body = ''; res.setEncoding('utf8'); res.on('data', (c) => (body += c)); res.on('end', () => resolve({ status: res.statusCode, body }));
    }).on('error', reject));`;

/**
 * README.md's host, in a module form (its import or require lines), made testable: the index file and
 * the answers it gives are printed as one JSON line instead of listening for good.
 */
function readmeHost(lines: string): string {
  return `${lines}
    const http = require('node:http');
    const { IndexFileMissingError } = require('koa-catalog-versions');
    let missing;
    try {
      openEmbeddedIndex({ path: 'no-such-catalog.sqlite', readOnly: true });
    } catch (error) {
      missing = { missingFile: error instanceof IndexFileMissingError, code: error.code, path: error.path, message: error.message };
    }
    const index = openEmbeddedIndex({ path: 'catalog.sqlite', readOnly: true });
    const app = new Koa();
    app.use(createVersionsPlugin({ index, indexFile: 'catalog.sqlite', baseUrl: 'https://catalog.example.edu' }));
    const server = app.listen(0, '127.0.0.1', async () => {
      ${GET_OVER_HTTP}
      const feed = await get('/Search/Versions?id=h1&view=rss');
      const health = await get('/Search/Versions/health');
      server.close();
      await index.close();
      console.log(JSON.stringify({
        missing, feed: feed.status, items: (feed.body.match(/<item>/g) ?? []).length,
        generator: /<generator>([^<]*)/.exec(feed.body)?.[1], health: [health.status, JSON.parse(health.body).status],
      }));
    });
`;
}

const ESM_LINES = `
    import { createRequire } from 'node:module';
    import Koa from 'koa';
    import { createVersionsPlugin } from 'koa-catalog-versions';
    import { openEmbeddedIndex } from 'koa-catalog-versions/sqlite';
    const require = createRequire(import.meta.url);`;
const CJS_LINES = `
    const Koa = require('koa');
    const { createVersionsPlugin } = require('koa-catalog-versions');
    const { openEmbeddedIndex } = require('koa-catalog-versions/sqlite');`;

/** A strict TypeScript host of each module form, using the public types of every subpath. */
const TYPED_HOST = `
  import Koa from 'koa';
  import { createVersionsPlugin, checkIndexHealth, IndexFileMissingError, type CatalogIndex, type VersionsPluginOptions } from 'koa-catalog-versions';
  import { openEmbeddedIndex, type EmbeddedIndexOptions } from 'koa-catalog-versions/sqlite';
  import { createSolrIndex } from 'koa-catalog-versions/solr';
  import { workKeysOf } from 'koa-catalog-versions/work-keys';
  import { runIngest } from 'koa-catalog-versions/ingest';
  const options: EmbeddedIndexOptions = { path: 'catalog.sqlite', readOnly: true };
  const index: CatalogIndex = openEmbeddedIndex(options);
  const pluginOptions: VersionsPluginOptions = { index, indexFile: options.path };
  const app = new Koa();
  app.use(createVersionsPlugin(pluginOptions));
  export const parts = [checkIndexHealth, IndexFileMissingError, createSolrIndex, workKeysOf, runIngest];
`;

interface PackedFile { path: string }

/** The version of the package installed in a project, as its package.json says. */
const installedVersionOf = (project: string) => (JSON.parse(readFileSync(join(project, 'node_modules', 'koa-catalog-versions', 'package.json'), 'utf8')) as { version: string }).version;

test('the packed tarball installs into a fresh project and mounts through the public subpaths', async (t) => {
  t.timeout(600_000);
  const folder = mkdtempSync(join(tmpdir(), 'catalog-versions-pack-'));
  t.teardown(() => rmSync(folder, { recursive: true, force: true }));

  const packed = await run(npm, ['pack', '--json', '--pack-destination', folder], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
  const [manifest] = JSON.parse(packed.stdout) as Array<{ filename: string; files: PackedFile[] }>;
  const files = manifest!.files.map((file) => file.path);
  for (const expected of [
    'dist/src/index.js', 'dist/src/index.d.ts', 'dist/src/entries/sqlite.js', 'dist/src/adapters/solr/index.js',
    'dist/src/work-keys/index.js', 'dist/src/ingest/index.js', 'dist/src/cli/catalogVersions.js',
    'views/versions.pug', 'views/rss.xsl', 'themes/standard/theme.json', 'i18n/pt-br.json',
    'src/adapters/solr/configset/conf/managed-schema.xml', 'src/adapters/solr/work-collection-configset/conf/managed-schema.xml', 'plugin.json', 'README.md', 'CHANGELOG.md', 'LICENSE', 'docs/work-keys.md',
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
    name: 'host', version: '1.0.0', private: true, type: 'commonjs', dependencies: { 'better-sqlite3': sqliteVersion },
  }));
  // A TypeScript Koa host has Koa's and Node's types of its own; the package brings the rest.
  const hostTypes = ['@types/koa', '@types/node'].map((name) => `${name}@${installedVersion(name)}`);
  const installed = await run(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', join(folder, manifest!.filename), ...hostTypes], {
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

  // README.md's host in both forms, on an index the installed command made, and on a missing one.
  writeFileSync(join(project, 'records.jsonl'), [
    { id: 'h1', title: 'The Hobbit', author: 'Tolkien, J. R. R.', format: 'Book', publishDate: '1937' },
    { id: 'h2', title: 'Hobbit', author: 'Tolkien, J.R.R.', format: 'eBook' },
  ].map((document) => JSON.stringify(document)).join('\n'));
  await run(join(project, 'node_modules', '.bin', 'catalog-versions'), ['load', 'records.jsonl', '--db', 'catalog.sqlite'], { cwd: project });
  writeFileSync(join(project, 'readme-host.mjs'), readmeHost(ESM_LINES));
  writeFileSync(join(project, 'readme-host.js'), readmeHost(CJS_LINES));
  const missingPath = join(realpathSync(project), 'no-such-catalog.sqlite');
  for (const file of ['readme-host.mjs', 'readme-host.js']) {
    const answer = await run(process.execPath, [file], { cwd: project });
    t.is(answer.stderr, '', `${file} runs without a warning`);
    t.deepEqual(JSON.parse(answer.stdout), {
      missing: {
        missingFile: true, code: 'INDEX_FILE_MISSING', path: 'no-such-catalog.sqlite',
        message: `The index file no-such-catalog.sqlite (${missingPath}) does not exist: check the path, or load records into it first (catalog-versions load FILE --db no-such-catalog.sqlite)`,
      },
      feed: 200, items: 2, generator: `koa-catalog-versions ${installedVersionOf(project)}`, health: [200, 'ok'],
    }, file);
  }
  t.false(existsSync(missingPath), 'the refused open created nothing');

  // Both forms typecheck strictly, the package's own declarations included (no skipLibCheck).
  writeFileSync(join(project, 'host.mts'), TYPED_HOST);
  writeFileSync(join(project, 'host.cts'), TYPED_HOST);
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { strict: true, skipLibCheck: false, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022' },
    files: ['host.mts', 'host.cts'],
  }));
  const typecheck = await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: project }).then(() => '', (error: { stdout: string }) => error.stdout);
  t.is(typecheck, '', 'tsc --strict without skipLibCheck reports nothing');

  const versionLines = readFileSync(join(ROOT, 'docs', 'deployment.md'), 'utf8').split('\n').filter((line) => /^npm install .*(#v|\.tgz)/.test(line));
  t.deepEqual(versionLines.map((line) => /#v([\d.]+)|koa-catalog-versions-([\d.]+)\.tgz/.exec(line)?.slice(1).find(Boolean)), [installedVersionOf(project), installedVersionOf(project)],
    'docs/deployment.md installs the version package.json says');
  t.is(manifest!.filename, `koa-catalog-versions-${installedVersionOf(project)}.tgz`);

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
    ${GET_OVER_HTTP}
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
