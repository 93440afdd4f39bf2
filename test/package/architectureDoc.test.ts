/**
 * The docs name files that exist: every path written in code in docs/*.md (`src/…`, `test/…`, `views/…`,
 * `themes/…`, `i18n/…`, `docs/…`, `tools/…`, `demo/…`) is in the tree, every link to another page of
 * docs/ reaches a page and heading there, every file name docs/architecture.md writes alone
 * (`embeddedIndex.ts`) is a file of the repository, its "Layers" table is LAYERS, the table
 * test/package/importGraph.test.ts holds the imports to, and its folder map names each entry of it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { LAYERS } from '../support/sourceLayers.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DOCS = join(ROOT, 'docs');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const docPages = readdirSync(DOCS).filter((name) => name.endsWith('.md')).sort();

/** The paths a page writes in code under the repository's folders, each without its `#anchor`. */
function pathsWritten(markdown: string): string[] {
  const paths = new Set<string>();
  for (const [, code] of markdown.matchAll(/`([^`\s]+)`/g)) {
    if (/^(src|test|views|themes|i18n|docs|tools|demo)\//.test(code!)) paths.add(code!.replace(/#.*$/, ''));
  }
  return [...paths];
}

/** Files and folders of the repository under a folder, as paths from the root (no node_modules, dist, .git). */
function treeUnder(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    if (['node_modules', 'dist', '.git'].includes(entry.name)) return [];
    const path = folder === '.' ? entry.name : `${folder}/${entry.name}`;
    return entry.isDirectory() ? [`${path}/`, ...treeUnder(path)] : [path];
  });
}

/**
 * Whether a written path names something in the tree: a path as it is; a pattern (`i18n/*.json`,
 * `src/adapters/<name>/`) when some path of the tree fits it, `*` and `<…>` standing for one name.
 */
function pathExists(written: string, tree: readonly string[]): boolean {
  if (!/[*<]/.test(written)) return existsSync(join(ROOT, written));
  const pattern = written
    .split(/(\*|<[^>]+>)/)
    .map((part, index) => (index % 2 === 1 ? '[^/]+' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  const fits = new RegExp(`^${pattern}$`);
  return tree.some((path) => fits.test(path) || fits.test(path.replace(/\/$/, '')));
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');

/** The anchors of a page: its headings' (those in code blocks left out) and its `<a id="…">`s. */
function anchorsOf(markdown: string): Set<string> {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '');
  return new Set([
    ...[...prose.matchAll(/^#{1,6} (.+)$/gm)].map(([, heading]) => anchorOf(heading!)),
    ...[...prose.matchAll(/<a id="([^"]+)"/g)].map(([, id]) => id!),
  ]);
}

/** The rows of the "Layers" table, bottom first, each entry as LAYERS writes it (`record`, not `record/`). */
function layerTableOf(markdown: string): string[][] {
  const section = markdown.split(/^### Layers$/m)[1]?.split(/^#{2,3} /m)[0] ?? '';
  return [...section.matchAll(/^\| *\d+ *\|(.+)\|$/gm)].map(([, entries]) =>
    [...entries!.matchAll(/`([^`]+)`/g)].map(([, entry]) => entry!.replace(/\/$/, '')),
  );
}

test('the checks find what a page gets wrong', (t) => {
  const tree = ['src/', 'src/ports.ts', 'i18n/', 'i18n/en.json', 'src/adapters/', 'src/adapters/solr/'];
  const page = 'Read `src/ports.ts` and `src/portz.ts#reads`, `i18n/*.json`, `src/adapters/<name>/`, not `ports.ts`.';
  t.deepEqual(pathsWritten(page), ['src/ports.ts', 'src/portz.ts', 'i18n/*.json', 'src/adapters/<name>/']);
  t.deepEqual(pathsWritten(page).filter((path) => !pathExists(path, tree)), ['src/portz.ts']);
  t.false(pathExists('i18n/*.xml', tree), 'a pattern no path fits');
  t.false(pathExists('src/<name>/index.ts', tree), 'a placeholder standing for a folder without the file');
  t.true(anchorsOf('# Languages\n## Adding a language\n```sh\n# not a heading\n```\n').has('adding-a-language'));
  t.false(anchorsOf('```sh\n# not a heading\n```\n').has('not-a-heading'));
  t.true(anchorsOf('<a id="measuring-grouping"></a>\n## Measuring grouping: `works evaluate`\n').has('measuring-grouping'));
  t.is(anchorOf('Add a command to `catalog-versions`'), 'add-a-command-to-catalog-versions');
  t.deepEqual(layerTableOf('### Layers\n\n| row | entries |\n|---|---|\n| 1 | `errors.ts` |\n| 2 | `record/`, `marc/` |\n\n## Next\n| 3 | `x` |\n'), [
    ['errors.ts'],
    ['record', 'marc'],
  ]);
});

for (const page of docPages) {
  test(`every path docs/${page} writes is in the tree`, (t) => {
    const tree = treeUnder('.');
    const written = pathsWritten(read(`docs/${page}`));
    t.deepEqual(written.filter((path) => !pathExists(path, tree)), []);
  });

  test(`every link of docs/${page} to a page of docs/ reaches it and its heading`, (t) => {
    const broken: string[] = [];
    for (const [, target, anchor] of read(`docs/${page}`).matchAll(/\]\(([\w.-]+\.md)(?:#([^)\s]+))?\)/g)) {
      if (!docPages.includes(target!)) broken.push(`${target} (no such page)`);
      else if (anchor !== undefined && !anchorsOf(read(`docs/${target}`)).has(anchor)) broken.push(`${target}#${anchor}`);
    }
    t.deepEqual(broken, []);
  });
}

test('docs/architecture.md writes the paths of the folders it maps, and names only files the repository holds', (t) => {
  const architecture = read('docs/architecture.md');
  t.true(pathsWritten(architecture).length > 50, 'the page names files by their paths');
  const fileNames = new Set(treeUnder('.').map((path) => path.replace(/\/$/, '').split('/').at(-1)!));
  const named = [...architecture.matchAll(/`([\w.-]+\.(?:ts|pug|css|xsl|json|md))`/g)].map(([, name]) => name!);
  t.true(named.length > 20, 'the page names files alone');
  t.deepEqual([...new Set(named.filter((name) => !fileNames.has(name)))], []);
});

test('the "Layers" table of docs/architecture.md is LAYERS, row for row', (t) => {
  t.deepEqual(layerTableOf(read('docs/architecture.md')), LAYERS.map((row) => [...row]));
});

test('the folder map of docs/architecture.md names every entry of LAYERS', (t) => {
  const map = read('docs/architecture.md').split(/^## Folder map$/m)[1]?.split(/^```$/m)[1] ?? '';
  const mapped = [...map.matchAll(/^ {2}(\S+)/gm)].map(([, name]) => name!.replace(/\/$/, ''));
  t.true(mapped.includes('marc'), 'the map is read');
  const inMap = (entry: string) => mapped.some((name) => name === entry || name.startsWith(`${entry}/`));
  t.deepEqual(LAYERS.flat().filter((entry) => !inMap(entry)), []);
});
