/**
 * What importing the built package root (dist/src/index.js) loads: the plugin and the layers under it,
 * never an index adapter (dist/src/adapters/**, dist/src/entries/**), the ingest pipeline
 * (dist/src/ingest/pipeline.js), better-sqlite3 or solr-client. The root's deprecated adapter names
 * (src/deprecatedExports.ts) load their entry when first called, and then work as the subpath's do, with
 * the one copy of the modules the root has (their errors are the root's classes). Each case runs a fresh
 * Node process with a module hook that writes down every module the ES loader resolves, the ES loader's
 * debug log (NODE_DEBUG=esm: on Node 20 the hook does not see the modules a `require` of an ES module
 * loads, the log names them), and the CommonJS cache (better-sqlite3 and solr-client are CommonJS), so an
 * eager import that comes back, directly or through any chain, in either module form, is seen.
 *
 * Needs the build (`npm test` builds first).
 */
import test from 'ava';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BUILT_ROOT = join(ROOT, 'dist', 'src', 'index.js');
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

interface Run {
  /** Every module loaded, paths in the repository relative to it, dependencies as they are. */
  readonly loaded: readonly string[];
  /** What the script printed before the list of modules, one line each. */
  readonly output: readonly string[];
  /** The warnings the process emitted (`name: message`). */
  readonly warnings: readonly string[];
}

/**
 * Runs a script in a fresh Node process (no tsx) and answers what it loaded. `kind` 'module': `body` runs
 * in an ES module after `const root = await import(<built root>)`; 'commonjs': after `const root = require(<built root>)`.
 */
async function builtRootRun(kind: 'module' | 'commonjs', body: string): Promise<Run> {
  if (!existsSync(BUILT_ROOT)) throw new Error(`${BUILT_ROOT} is missing: run npm run build first`);
  const folder = mkdtempSync(join(tmpdir(), 'root-entry-loads-'));
  try {
    const log = join(folder, 'resolved.txt');
    writeFileSync(log, '');
    writeFileSync(join(folder, 'hook.mjs'), RECORDING_HOOK);
    writeFileSync(join(folder, 'register.mjs'), `import { register } from 'node:module';
register(${JSON.stringify(pathToFileURL(join(folder, 'hook.mjs')).href)}, { data: { log: ${JSON.stringify(log)} } });`);
    // A warning is emitted on a later tick: the script waits for one before it prints them.
    const warnings = `const warnings = [];
process.on('warning', (warning) => warnings.push(\`\${warning.name}: \${warning.message}\`));`;
    const aTickLater = 'await new Promise((resolve) => setImmediate(resolve));';
    const script = kind === 'module'
      ? `import { createRequire } from 'node:module';
${warnings}
const root = await import(${JSON.stringify(pathToFileURL(BUILT_ROOT).href)});
${body}
${aTickLater}
console.log(JSON.stringify({ cache: Object.keys(createRequire(import.meta.url).cache), warnings }));`
      : `(async () => {
${warnings}
const root = require(${JSON.stringify(BUILT_ROOT)});
${body}
${aTickLater}
console.log(JSON.stringify({ cache: Object.keys(require.cache), warnings }));
})();`;
    const main = join(folder, kind === 'module' ? 'main.mjs' : 'main.cjs');
    writeFileSync(main, script);
    const { stdout, stderr } = await run(process.execPath, ['--import', pathToFileURL(join(folder, 'register.mjs')).href, main], {
      cwd: folder, env: { ...process.env, NODE_DEBUG: 'esm' },
    });
    const lines = stdout.trim().split('\n');
    const { cache, warnings: emitted } = JSON.parse(lines.at(-1) ?? '{}') as { cache: string[]; warnings: string[] };
    const imported = readFileSync(log, 'utf8').split('\n').filter((url) => url.startsWith('file:'));
    const logged = [...stderr.matchAll(/file:\/\/[^\s'",]+/g)].map(([url]) => url);
    return {
      loaded: [...new Set([...imported, ...logged].map((url) => fileURLToPath(url))), ...cache].map(inRepository),
      output: lines.slice(0, -1),
      warnings: emitted,
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * A path relative to the repository when it is in it; dependencies (node_modules may be a link) as they are.
 * So a dependency's path may or may not start with "node_modules/": read them with inPackage.
 */
const inRepository = (path: string): string => (path.startsWith(`${ROOT}/`) ? path.slice(ROOT.length + 1) : path);

/** What the root must not load until a deprecated name is called: the adapters, their engines, the pipeline. */
const NOT_LOADED_BY_THE_ROOT = /^dist\/src\/(adapters|entries)\/|^dist\/src\/ingest\/pipeline\.js$|(^|\/)node_modules\/(better-sqlite3|solr-client)\//;

/** Whether a loaded path is in the named package's folder, in this checkout's node_modules or a linked one. */
const inPackage = (path: string, name: string): boolean => path.startsWith(`node_modules/${name}/`) || path.includes(`/node_modules/${name}/`);

test('importing the built root loads the plugin but no adapter, engine client or ingest pipeline', async (t) => {
  const { loaded, warnings } = await builtRootRun('module', '');
  t.true(loaded.includes('dist/src/http/createVersionsPlugin.js'), 'the hook saw the root load the plugin');
  t.true(loaded.includes('dist/src/deprecatedExports.js'), 'the hook saw the deprecated names load');
  t.true(loaded.some((path) => inPackage(path, 'pug')), 'the CommonJS cache was read (pug, which the views use, is in it)');
  t.deepEqual(loaded.filter((path) => NOT_LOADED_BY_THE_ROOT.test(path)), []);
  t.deepEqual(warnings, []);
});

test('requiring the built root from CommonJS loads no adapter, engine client or ingest pipeline either', async (t) => {
  const { loaded, warnings } = await builtRootRun('commonjs', '');
  t.true(loaded.includes('dist/src/http/createVersionsPlugin.js'), 'the debug log named the modules under the root');
  t.deepEqual(loaded.filter((path) => NOT_LOADED_BY_THE_ROOT.test(path)), []);
  t.deepEqual(warnings, []);
});

/**
 * Calls each deprecated adapter name of the root: a read of a loaded record, the error of a missing
 * index file (is it the root's own class?), and the Solr index and writer made (nothing is asked of Solr).
 */
const CALLING_THE_DEPRECATED_NAMES = `
const index = root.openEmbeddedIndex({ path: ':memory:', keyProfile: 'vufind' });
await index.load([{ id: 'h1', title: 'The Hobbit', author: 'Tolkien, J. R. R.', format: 'Book' }]);
console.log(JSON.stringify({ title: (await index.getRecord('h1'))?.title, load: typeof index.load }));
await index.close();
try {
  root.openEmbeddedIndex({ path: 'no-such-catalog.sqlite', readOnly: true });
} catch (error) {
  console.log(JSON.stringify({ code: error.code, rootClass: error.constructor === root.IndexFileMissingError, family: error instanceof root.VersionsError }));
}
const solr = root.createSolrIndex({ url: 'http://127.0.0.1:9/solr/biblio' });
const writer = root.createSolrWriter({ url: 'http://127.0.0.1:9/solr/biblio' });
console.log(JSON.stringify({ solr: typeof solr.findVersions, writer: typeof writer.add }));
await solr.close();
await writer.close();`;

const CALLED_OUTPUT = [
  JSON.stringify({ title: 'The Hobbit', load: 'function' }),
  JSON.stringify({ code: 'INDEX_FILE_MISSING', rootClass: true, family: true }),
  JSON.stringify({ solr: 'function', writer: 'function' }),
];

for (const kind of ['module', 'commonjs'] as const) {
  test(`each deprecated adapter name of the built root (${kind}) loads its entry when called, and works with the root's one copy`, async (t) => {
    const { loaded, output, warnings } = await builtRootRun(kind, CALLING_THE_DEPRECATED_NAMES);
    t.deepEqual(output, CALLED_OUTPUT);
    t.true(loaded.includes('dist/src/entries/sqlite.js'), 'the sqlite entry, with the deprecated load');
    t.true(loaded.includes('dist/src/adapters/solr/index.js'), 'the solr entry');
    t.true(loaded.some((path) => inPackage(path, 'better-sqlite3')), 'better-sqlite3, required by the adapter');
    t.true(loaded.some((path) => inPackage(path, 'solr-client')), 'solr-client, required by the adapter');
    t.deepEqual(warnings, [], 'no warning (Node loads the entry through require without one)');
  });
}
