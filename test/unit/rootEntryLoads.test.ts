/**
 * What importing the package root loads (src/index.ts): the plugin and its layers, never an index adapter
 * (src/adapters/**, src/entries/**, better-sqlite3, solr-client) nor the ingest pipeline
 * (src/ingest/pipeline.ts), whose deprecated root names (src/deprecatedExports.ts) load their module only
 * when called. Each case runs a fresh Node process with a module hook that writes down every module it
 * resolves, plus the CommonJS cache (better-sqlite3 is required, not imported), so an eager import that
 * comes back, directly or through any chain, is seen.
 */
import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const run = promisify(execFile);

/** A module hook: appends each resolved URL to the file named in its data, one a line. */
const RECORDING_HOOK = `import { appendFileSync } from 'node:fs';
let log;
export function initialize(data) { log = data.log; }
export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  appendFileSync(log, resolved.url + '\\n');
  return resolved;
}`;

/**
 * Runs `body` (an ES module, with `root` the package root's exports) in a fresh process under tsx and
 * answers the modules it imported or required (paths under the repository relative to it), and what it printed.
 */
async function modulesLoadedBy(body: string): Promise<{ loaded: string[]; required: string[]; output: string }> {
  const folder = mkdtempSync(join(tmpdir(), 'root-entry-loads-'));
  try {
    const log = join(folder, 'resolved.txt');
    writeFileSync(log, '');
    writeFileSync(join(folder, 'hook.mjs'), RECORDING_HOOK);
    writeFileSync(join(folder, 'register.mjs'), `import { register } from 'node:module';
register(${JSON.stringify(pathToFileURL(join(folder, 'hook.mjs')).href)}, { data: { log: ${JSON.stringify(log)} } });`);
    writeFileSync(join(folder, 'main.mjs'), `import { createRequire } from 'node:module';
const root = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'src', 'index.ts')).href)});
${body}
console.log(JSON.stringify({ required: Object.keys(createRequire(import.meta.url).cache) }));`);
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--import', pathToFileURL(join(folder, 'register.mjs')).href, join(folder, 'main.mjs')], { cwd: ROOT });
    const lines = stdout.trim().split('\n');
    const { required } = JSON.parse(lines.at(-1) ?? '{}') as { required: string[] };
    const imported = readFileSync(log, 'utf8').split('\n').filter((url) => url.startsWith('file:')).map((url) => fileURLToPath(url));
    return { loaded: [...imported, ...required].map(inRepository), required, output: lines.slice(0, -1).join('\n') };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** A path relative to the repository when it is in it; dependencies (node_modules may be a link) as they are. */
const inRepository = (path: string): string => (path.startsWith(`${ROOT}/`) ? path.slice(ROOT.length + 1) : path);

/** What the root must not load until a deprecated name is called: the adapters, their engines, the pipeline. */
const NOT_LOADED_BY_THE_ROOT = /^src\/(adapters|entries)\/|^src\/ingest\/pipeline\.ts$|\/node_modules\/(better-sqlite3|solr-client)\//;

test('importing the root loads the plugin but no adapter, engine client or ingest pipeline', async (t) => {
  const { loaded, required } = await modulesLoadedBy('');
  t.true(loaded.includes(join('src', 'http', 'createVersionsPlugin.ts')), 'the hook saw the root load the plugin');
  t.true(loaded.includes(join('src', 'deprecatedExports.ts')), 'the hook saw the deprecated names load');
  t.true(required.some((path) => path.includes('/node_modules/pug/')), 'the CommonJS cache was read (pug, which the views use, is in it)');
  t.deepEqual(loaded.filter((path) => NOT_LOADED_BY_THE_ROOT.test(path)), []);
});

test('a deprecated root name loads its adapter when called, and works', async (t) => {
  const { loaded, output } = await modulesLoadedBy(`const index = root.openEmbeddedIndex({ path: ':memory:' });
console.log(typeof index.load, typeof index.findVersions, await index.getRecord('nothing'));
index.close();
const solr = root.createSolrIndex({ url: 'http://127.0.0.1:9/solr/biblio' });
console.log(typeof solr.findVersions);`);
  t.is(output, 'function function undefined\nfunction');
  t.true(loaded.includes(join('src', 'entries', 'sqlite.ts')), 'the sqlite entry, with the deprecated load');
  t.true(loaded.includes(join('src', 'adapters', 'solr', 'index.ts')), 'the solr entry');
  t.true(loaded.some((path) => path.includes('/node_modules/better-sqlite3/')), 'better-sqlite3, required by the adapter');
});
