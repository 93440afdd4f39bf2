import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FORMAT_ALIASES, FORMAT_NAMES, foldFormat, formatLabel, formatLabelKey, LABEL_KEYS, placeholdersOf } from '../../src/i18n/labels.js';
import { openLabelCatalogs } from '../../src/i18n/labelCatalogs.js';
import { LABELS_DIRECTORY } from '../../src/packageFiles.js';
import { DEFAULT_LANGUAGE, SHIPPED_LANGUAGES } from '../../src/i18n/languages.js';

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

test('every shipped language (src/i18n/languages.ts) has a label file, and no other language has one', (t) => {
  t.deepEqual([...files].sort(), SHIPPED_LANGUAGES.map((code) => `${code}.json`).sort());
});

test('every language has every key the code uses, and no other', (t) => {
  for (const [file, flat] of labels) {
    t.deepEqual([...flat.keys()].sort(), [...LABEL_KEYS].sort(), file);
    for (const [key, text] of flat) t.true(text.trim().length > 0, `${file} ${key} is empty`);
  }
});

test('every language uses the same placeholders for each key', (t) => {
  const english = labels.get(`${DEFAULT_LANGUAGE}.json`)!;
  for (const [file, flat] of labels) {
    for (const [key, text] of english) t.deepEqual(placeholdersOf(flat.get(key) ?? ''), placeholdersOf(text), `${file} ${key}`);
  }
});

// Format labels: part of the same table, so the tests above hold them to every language; these check
// the matching of catalog values to them.

test('every format name and alias folds to a form of its own', (t) => {
  const folded = FORMAT_NAMES.map(foldFormat);
  t.is(new Set(folded).size, folded.length, 'two format names fold alike');
  for (const [alias, name] of Object.entries(FORMAT_ALIASES)) {
    t.true((FORMAT_NAMES as readonly string[]).includes(name), `alias ${alias} names a listed format`);
    t.false(folded.includes(alias), `alias ${alias} is already a name`);
    t.is(foldFormat(alias), alias, `alias ${alias} is written folded`);
  }
});

test('the formats VuFind’s rules give, in their usual spellings, all have labels', (t) => {
  const spellings = [
    'Book', 'eBook', 'E-Book', 'Sound Recording', 'SoundRecording', 'Music Score', 'MusicalScore', 'Musical Score', 'Score', 'Video', 'Map', 'Thesis',
    'Serial', 'Journal', 'Newspaper', 'Manuscript', 'Kit', 'Electronic', 'Microfilm', 'Large Print', 'LargePrint', 'Audio Book',
    'Musical Recording', 'MusicRecording', 'Atlas', 'Globe', 'CDROM', 'CD-ROM', 'VideoDisc', 'DVD', 'Article', 'Dissertation',
    'ConferenceProceeding', 'Conference Proceedings', 'PhysicalObject', 'Photo', 'Software', 'Text', 'Unknown',
  ];
  for (const spelling of spellings) t.not(formatLabelKey(spelling), undefined, spelling);
  t.is(formatLabelKey('sound recording'), formatLabelKey('SoundRecording'));
  t.is(formatLabelKey(' Large-Print '), 'format.LargePrint');
});

test('a format value gives the same key when asked again, also after more values than are remembered', (t) => {
  const values = ['Sound Recording', 'Folheto', '__proto__', 'E-Book'];
  const first = values.map((value) => formatLabelKey(value));
  t.deepEqual(first, ['format.SoundRecording', undefined, undefined, 'format.eBook']);
  for (let i = 0; i < 2500; i++) t.is(formatLabelKey(`Local format ${i}`), undefined);
  t.deepEqual(values.map((value) => formatLabelKey(value)), first);
  t.deepEqual(values.map((value) => formatLabelKey(value)), first);
});

test('format labels are translated; values the table does not know are shown as written', (t) => {
  const catalogs = openLabelCatalogs(LABELS_DIRECTORY, ['en', 'pt-br', 'es'], 'en');
  const label = (value: string, language: string) => formatLabel(value, catalogs.translatorFor(language));
  t.deepEqual(['en', 'pt-br', 'es'].map((language) => label('Book', language)), ['Book', 'Livro', 'Libro']);
  t.deepEqual(['en', 'pt-br', 'es'].map((language) => label('SoundRecording', language)), ['Sound Recording', 'Gravação sonora', 'Grabación sonora']);
  t.deepEqual(['en', 'pt-br', 'es'].map((language) => label('Audio Book', language)), ['Audio Book', 'Audiolivro', 'Audiolibro']);
  t.deepEqual(['en', 'pt-br', 'es'].map((language) => label('Thesis', language)), ['Thesis', 'Tese', 'Tesis']);
  for (const unknown of ['Book & Map', 'Folheto', '__proto__', 'constructor', 'format.Book', '']) t.is(label(unknown, 'pt-br'), unknown);
});

test('no two formats share a label within a language, but for words that are synonyms there', (t) => {
  // "Score" and "Musical Score" are both "Partitura" in Portuguese and Spanish.
  const synonyms = new Set<string>(['Score']);
  for (const [file, flat] of labels) {
    const texts = FORMAT_NAMES.filter((name) => !synonyms.has(name)).map((name) => flat.get(`format.${name}`));
    const repeated = texts.filter((text, i) => texts.indexOf(text) !== i);
    t.deepEqual(repeated, [], `${file}: formats with the same label`);
  }
});
