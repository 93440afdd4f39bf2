import test from 'ava';
import { readFileSync } from 'node:fs';
import { buildVersionsFeedModel, type VersionsFeedInput } from '../../src/feed/feedModel.js';
import { compileVersionsFeed } from '../../src/feed/renderVersionsFeed.js';
import { frozenRecord } from '../../src/adapters/sqlite/reusedRecords.js';
import { recordFromDocument, type CatalogRecord } from '../../src/record/catalogRecord.js';

/** Records of every shape an item has: all fields, an ampersand, no year, no author, no title. */
const documents = ['versions-showing-every-entry-field', 'title-with-ampersand', 'record-without-year', 'record-without-author']
  .flatMap((name) => readFileSync(new URL(`../fixtures/${name}.jsonl`, import.meta.url), 'utf8').split('\n').filter((line) => line.trim() !== ''))
  .map((line) => JSON.parse(line) as Record<string, unknown>);
documents.push({ id: 'without-title', author: 'Anonymous', publishDate: '1901', format: 'Book' });
const plainRecords = (): CatalogRecord[] => documents.map((document) => recordFromDocument(document));

const feedInput = (records: readonly CatalogRecord[], language = 'en', baseUrl = 'https://catalog.example.edu'): VersionsFeedInput => ({
  requestedId: records[0]!.id, versions: { total: records.length, records }, page: 1, language, baseUrl,
  translate: (key) => `${language}:${key}`, generator: 'test',
});

test('the feed of frozen records, made again from the same records, has the bytes of the feed of plain records', (t) => {
  const expected = compileVersionsFeed(buildVersionsFeedModel(feedInput(plainRecords())));
  const frozen = plainRecords().map(frozenRecord);
  const first = buildVersionsFeedModel(feedInput(frozen));
  t.deepEqual(compileVersionsFeed(first), expected);
  const again = buildVersionsFeedModel(feedInput(frozen));
  t.true(again.items.every((item, i) => item === first.items[i]), 'the items of frozen records are made once');
  t.deepEqual(compileVersionsFeed(again), expected, 'written from the kept markup');
  t.true(first.items.every((item) => Object.isFrozen(item)));
});

test('a frozen record\'s item follows the base address and the language of a missing title\'s label', (t) => {
  const frozen = plainRecords().map(frozenRecord);
  for (const [language, baseUrl] of [['en', 'https://catalog.example.edu'], ['es', 'https://catalog.example.edu'], ['en', 'https://other.example.org'], ['en', 'https://catalog.example.edu']] as const) {
    const expected = compileVersionsFeed(buildVersionsFeedModel(feedInput(plainRecords(), language, baseUrl)));
    const items = buildVersionsFeedModel(feedInput(frozen, language, baseUrl)).items;
    t.is(items.at(-1)?.title, `${language}:record.titleMissing`);
    t.true(items.every((item) => item.link.startsWith(`${baseUrl}/`)));
    t.deepEqual(compileVersionsFeed(buildVersionsFeedModel(feedInput(frozen, language, baseUrl))), expected, `${language} ${baseUrl}`);
  }
});

test('a record that may change gets a new item every time', (t) => {
  const records = plainRecords();
  const first = buildVersionsFeedModel(feedInput(records));
  (records[1] as { title?: string }).title = 'Changed & written again';
  const again = buildVersionsFeedModel(feedInput(records));
  t.is(again.items[1]?.title, 'Changed & written again');
  t.not(again.items[0], first.items[0]);
  t.true(compileVersionsFeed(again).pieces.join('').includes('<title>Changed &amp; written again</title>'));
});
