/**
 * The shipped languages are one table (LANGUAGE_TABLE, src/i18n/languages.ts). Every other place that
 * states them is held to it here: plugin.json (its languages, the defaults of its language options and
 * its description), the README and docs/options.md (the defaults), docs/languages.md (the language table,
 * and the label tables' columns and texts, which must be the label files'), and the demo's own words.
 * The label files themselves: test/i18n/labelParity.test.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { DEMO_LABELS, DEMO_LANGUAGES } from '../../demo/demoLabels.js';
import { DEFAULT_LANGUAGE, LANGUAGE_TABLE, SHIPPED_LANGUAGES } from '../../src/i18n/languages.js';
import { LABELS_DIRECTORY } from '../../src/packageFiles.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** "English, Brazilian Portuguese and Spanish". */
const englishNames = (() => {
  const names = LANGUAGE_TABLE.map(({ englishName }) => englishName);
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
})();
/** `['en', 'pt-br', 'es']`, as the docs write the default. */
const codesLiteral = `[${SHIPPED_LANGUAGES.map((code) => `'${code}'`).join(', ')}]`;

type Tree = { [key: string]: string | Tree };
/** A label's text in a language's file; undefined when the file or the key is missing. */
function labelOf(code: string, key: string): string | undefined {
  const file = join(LABELS_DIRECTORY, `${code}.json`);
  let node: string | Tree | undefined = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) as Tree : undefined;
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}

/** The rows of the Markdown table that starts with `header` in `text`, as cells. */
function tableAfter(text: string, header: RegExp): string[][] {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => header.test(line));
  if (start < 0) return [];
  const rows: string[][] = [];
  for (const line of lines.slice(start)) {
    if (!line.startsWith('|')) break;
    rows.push(line.slice(1, -1).split('|').map((cell) => cell.trim()));
  }
  return rows;
}

test('the table: codes written in lower case, once each', (t) => {
  t.true(SHIPPED_LANGUAGES.length > 0);
  t.is(new Set(SHIPPED_LANGUAGES).size, SHIPPED_LANGUAGES.length);
  for (const code of SHIPPED_LANGUAGES) t.regex(code, /^[a-z]{2,3}(-[a-z0-9]{2,8})*$/);
  t.is<string | undefined, string | undefined>(DEFAULT_LANGUAGE, SHIPPED_LANGUAGES[0]);
});

test('plugin.json states the table\'s languages, defaults and names', (t) => {
  const manifest = JSON.parse(read('plugin.json')) as {
    description: string; languages: string[]; options: Record<string, { default?: unknown }>;
  };
  t.deepEqual(manifest.languages, [...SHIPPED_LANGUAGES], 'languages');
  t.deepEqual(manifest.options.languages?.default, [...SHIPPED_LANGUAGES], 'the languages option\'s default');
  t.is(manifest.options.defaultLanguage?.default, DEFAULT_LANGUAGE, 'the defaultLanguage option\'s default');
  t.true(manifest.description.includes(`in ${englishNames}.`), `the description names ${englishNames}: ${manifest.description}`);
});

test('the README and docs/options.md give the table\'s defaults; the README names its languages', (t) => {
  for (const file of ['README.md', 'docs/options.md']) {
    const text = read(file);
    const row = (option: string) => text.split('\n').find((line) => line.startsWith(`| \`${option}\` |`)) ?? '';
    t.true(row('languages').includes(`| \`${codesLiteral}\` |`), `${file}: languages defaults to ${codesLiteral}`);
    t.true(row('defaultLanguage').includes(`| \`${DEFAULT_LANGUAGE}\` |`), `${file}: defaultLanguage defaults to ${DEFAULT_LANGUAGE}`);
  }
  t.true(read('README.md').replace(/\s+/g, ' ').includes(`in ${englishNames}.`), `the README names ${englishNames}`);
});

test('docs/languages.md: the language table is the table, with each language\'s own name', (t) => {
  const rows = tableAfter(read('docs/languages.md'), /^\| code \| language \|/).slice(2);
  t.deepEqual(rows, LANGUAGE_TABLE.map(({ code, englishName }) => [
    `\`${code}\``, code === DEFAULT_LANGUAGE ? `${englishName} (the default)` : englishName, labelOf(code, 'language.name') ?? '(no language.name)',
  ]));
});

test('docs/languages.md: the label tables have a column per language, holding the label files\' texts', (t) => {
  const doc = read('docs/languages.md');
  for (const [header, prefix] of [[/^\| key \|/, ''], [/^\| name \|/, 'format.']] as const) {
    const [columns, , ...rows] = tableAfter(doc, header);
    t.deepEqual(columns?.slice(1), [...SHIPPED_LANGUAGES], `columns of the table of ${prefix || 'labels'}`);
    t.true(rows.length > 0);
    for (const [key, ...texts] of rows) {
      const name = `${prefix}${key?.replace(/`/g, '')}`;
      t.deepEqual(texts, SHIPPED_LANGUAGES.map((code) => labelOf(code, name)), name);
    }
  }
});

test('the demo speaks the table\'s languages, each by its own name', (t) => {
  t.deepEqual([...DEMO_LANGUAGES], [...SHIPPED_LANGUAGES]);
  for (const code of DEMO_LANGUAGES) t.is<string | undefined, string | undefined>(DEMO_LABELS[code].languageName, labelOf(code, 'language.name'), code);
});
