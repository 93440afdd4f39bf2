/**
 * Installing the package as README.md's install lines say, on a machine that has only npm and the registry:
 * from a git URL (npm clones it, installs its dev dependencies and runs `prepare`, which builds dist/) and
 * from a tarball that `npm pack` made in a fresh clone (pack runs `prepare` too, so dist/ is in it without a
 * manual build). Each goes into a new project, which mounts the plugin in a Koa app, answers a versions
 * request over loopback and runs the command. test/package/package.test.ts checks the tarball's contents.
 *
 * Slow (two npm installs): about two minutes with npm's cache warm. Skipped, saying so, when the registry
 * does not answer. better-sqlite3 is given the binary this checkout already built (prebuild-install's
 * local-prebuilds setting), as a download from its releases would give it, instead of compiling it from
 * source twice, which takes many minutes.
 */
import test from 'ava';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const run = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const BIG = 64 * 1024 * 1024;

async function registryAnswers(): Promise<boolean> {
  try {
    await run(npm, ['ping'], { cwd: tmpdir(), timeout: 20_000 });
    return true;
  } catch {
    return false;
  }
}

/** A folder holding better-sqlite3's built binary as the prebuilt tarball prebuild-install looks for. */
async function localPrebuilds(folder: string): Promise<Record<string, string>> {
  const sqlite = join(ROOT, 'node_modules', 'better-sqlite3');
  const binary = join(sqlite, 'build', 'Release', 'better_sqlite3.node');
  if (process.platform !== 'linux' || !existsSync(binary)) return {};
  const { version } = JSON.parse(readFileSync(join(sqlite, 'package.json'), 'utf8')) as { version: string };
  const prebuilds = join(folder, 'prebuilds');
  mkdirSync(prebuilds);
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-linux-${process.arch}.tar.gz`;
  await run('tar', ['-czf', join(prebuilds, name), '-C', sqlite, 'build/Release/better_sqlite3.node']);
  return { npm_config_better_sqlite3_local_prebuilds: prebuilds };
}

const HOST_SCRIPT = `
  import http from 'node:http';
  import Koa from 'koa';
  import { createVersionsPlugin } from 'koa-catalog-versions';
  import { openEmbeddedIndex } from 'koa-catalog-versions/sqlite';
  const index = openEmbeddedIndex({ path: ':memory:' });
  await index.load([
    { id: 'h1', title: 'The Hobbit', author: 'Tolkien, J. R. R.', format: 'Book', publishDate: '1937' },
    { id: 'h2', title: 'Hobbit', author: 'Tolkien, J.R.R.', format: 'eBook' },
  ]);
  const app = new Koa();
  app.use(createVersionsPlugin({ index, baseUrl: 'http://catalog.example' }));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const answer = await new Promise((resolve, reject) => http.get({ host: '127.0.0.1', port: server.address().port, path: '/Search/Versions?id=h1&view=rss' }, (res) => {
    let body = ''; res.setEncoding('utf8'); res.on('data', (c) => (body += c)); res.on('end', () => resolve({ status: res.statusCode, body }));
  }).on('error', reject));
  server.close();
  await index.close();
  console.log(JSON.stringify({ status: answer.status, links: [...answer.body.matchAll(/<link>([^<]*Record[^<]*)<\\/link>/g)].map((m) => m[1]).sort() }));
`;

/** A new project with the package installed from `spec`: npm's output, and the host's answer. */
async function installInto(folder: string, spec: string, env: Record<string, string>) {
  mkdirSync(folder);
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'host', version: '1.0.0', private: true, type: 'module' }));
  const installed = await run(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', spec], {
    cwd: folder, maxBuffer: BIG, env: { ...process.env, ...env, npm_config_loglevel: 'warn' },
  });
  writeFileSync(join(folder, 'host.mjs'), HOST_SCRIPT);
  const host = JSON.parse((await run(process.execPath, ['host.mjs'], { cwd: folder })).stdout) as unknown;
  const command = await run(join(folder, 'node_modules', '.bin', 'catalog-versions'), ['--version'], { cwd: folder });
  return { npmOutput: `${installed.stdout}\n${installed.stderr}`, host, version: command.stdout.trim() };
}

const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const EXPECTED_HOST = { status: 200, links: ['http://catalog.example/Record/h1', 'http://catalog.example/Record/h2'] };

const reachable = await registryAnswers();
const title = 'installed from a git URL and from a tarball packed in a fresh clone, the package builds itself, mounts and answers';
(reachable ? test : test.skip)(reachable ? title : `${title} (skipped: the npm registry does not answer \`npm ping\`)`, async (t) => {
  t.timeout(600_000);
  const folder = mkdtempSync(join(tmpdir(), 'catalog-versions-install-'));
  t.teardown(() => rmSync(folder, { recursive: true, force: true }));
  const env = await localPrebuilds(folder);
  // The committed state, as a git URL gives it: no dist/, no node_modules.
  const clone = join(folder, 'clone');
  await run('git', ['clone', '--quiet', ROOT, clone]);
  t.false(existsSync(join(clone, 'dist')), 'the clone has no build');

  const fromGit = await installInto(join(folder, 'from-git'), `git+${pathToFileURL(clone).href}`, env);
  t.deepEqual(fromGit.host, EXPECTED_HOST, 'the git install built dist/ and the plugin answers');
  t.is(fromGit.version, `koa-catalog-versions ${version}`, 'the command runs');

  // npm pack in the clone (its dependencies borrowed from this checkout) builds dist/ through prepare.
  symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(clone, 'node_modules'));
  const packed = await run(npm, ['pack', '--json', '--pack-destination', folder], { cwd: clone, maxBuffer: BIG });
  const [manifest] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as Array<{ filename: string; files: Array<{ path: string }> }>;
  t.true(manifest!.files.some((file) => file.path === 'dist/src/index.js'), 'npm pack built and packed dist/');

  const fromTarball = await installInto(join(folder, 'from-tarball'), join(folder, manifest!.filename), env);
  t.deepEqual(fromTarball.host, EXPECTED_HOST);
  t.is(fromTarball.version, `koa-catalog-versions ${version}`);
  const aboutUs = fromTarball.npmOutput.split('\n').filter((line) => /warn|error/i.test(line) && /koa-catalog-versions|prepare/.test(line));
  t.deepEqual(aboutUs, [], 'npm says nothing about this package when it comes as a tarball');
});
