import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LABEL_KEYS, placeholdersOf } from '../../src/i18n/labels.js';
import { LABELS_DIRECTORY } from '../../src/packageFiles.js';

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const flat = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    if (typeof value === 'string') flat.set(path, value);
    else for (const [k, v] of flatten(value, path)) flat.set(k, v);
  }
  return flat;
}

const files = readdirSync(LABELS_DIRECTORY).filter((name) => name.endsWith('.json'));
const labels = new Map(files.map((name) => [name, flatten(JSON.parse(readFileSync(join(LABELS_DIRECTORY, name), 'utf8')) as Tree)]));

test('the three languages ship a label file', (t) => {
  t.deepEqual(files.sort(), ['en.json', 'es.json', 'pt-br.json']);
});

test('every language has every key the code uses, and no other', (t) => {
  for (const [file, flat] of labels) {
    t.deepEqual([...flat.keys()].sort(), [...LABEL_KEYS].sort(), file);
    for (const [key, text] of flat) t.true(text.trim().length > 0, `${file} ${key} is empty`);
  }
});

test('every language uses the same placeholders for each key', (t) => {
  const english = labels.get('en.json')!;
  for (const [file, flat] of labels) {
    for (const [key, text] of english) t.deepEqual(placeholdersOf(flat.get(key) ?? ''), placeholdersOf(text), `${file} ${key}`);
  }
});
