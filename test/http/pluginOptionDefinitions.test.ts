/**
 * The plugin's options have one definition (PLUGIN_OPTIONS, src/http/pluginOptions.ts): plugin.json,
 * docs/options.md and the README's options table list every option of it, none other, in its order, with
 * its defaults; and the checker gives each absent option its default.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openEmbeddedIndex } from '../../src/entries/sqlite.js';
import { parsePluginOptions, PLUGIN_OPTIONS } from '../../src/http/pluginOptions.js';
import { defaultCell, manifestDefault } from '../support/optionDocs.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const definitions = Object.entries(PLUGIN_OPTIONS);

/** The rows of the first markdown table after `heading`, each as its cells. */
function tableRows(markdown: string, heading: string): string[][] {
  const start = markdown.indexOf('\n|', markdown.indexOf(heading));
  const table = markdown.slice(start + 1, markdown.indexOf('\n\n', start));
  return table.split('\n').slice(2).map((row) => row.slice(2, -2).split(' | '));
}

test('plugin.json states each option with its type, default and meaning, in the definition\'s order', (t) => {
  const manifest = JSON.parse(readFileSync(join(root, 'plugin.json'), 'utf8')) as { options: Record<string, unknown> };
  t.deepEqual(Object.keys(manifest.options), Object.keys(PLUGIN_OPTIONS));
  for (const [name, definition] of definitions) {
    t.deepEqual(manifest.options[name], { type: definition.type, ...manifestDefault(definition.default), description: definition.meaning }, name);
  }
});

test('the README\'s options table has each option with its default and meaning', (t) => {
  const rows = tableRows(readFileSync(join(root, 'README.md'), 'utf8'), '### Options');
  t.deepEqual(rows, definitions.map(([name, definition]) => [`\`${name}\``, defaultCell(definition.default), definition.meaning]));
});

test('docs/options.md lists each option of createVersionsPlugin with a default that starts as the definition\'s', (t) => {
  const docs = readFileSync(join(root, 'docs/options.md'), 'utf8');
  const rows = tableRows(docs, '## `createVersionsPlugin(options)`');
  t.deepEqual(rows.map(([name]) => name), Object.keys(PLUGIN_OPTIONS).map((name) => `\`${name}\``));
  for (const [[, , cell], [name, definition]] of rows.map((row, i) => [row, definitions[i]!] as const)) {
    t.true(cell!.startsWith(defaultCell(definition.default)), `${name}: ${cell}`);
  }
});

test('an absent option gets the default its definition states', (t) => {
  const index = openEmbeddedIndex({ path: ':memory:' });
  const config = parsePluginOptions({ index }) as unknown as Record<string, unknown>;
  for (const [name, definition] of definitions) {
    if ('value' in definition.default && name !== 'answerCacheMegabytes') t.deepEqual(config[name], definition.default.value, name);
  }
  t.is(config.answerCacheBytes, 64 * 1024 * 1024);
  t.is(config.baseUrl, undefined);
  t.is(config.indexFile, undefined);
  index.close();
});
