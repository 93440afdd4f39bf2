import test from 'ava';
import { readFileSync } from 'node:fs';
import { buildVersionsPageModel, type VersionsPageInput } from '../../src/page/pageModel.js';
import { frozenRecord } from '../../src/adapters/sqlite/reusedRecords.js';
import { recordFromDocument, type CatalogRecord } from '../../src/record/catalogRecord.js';
import type { Translate } from '../../src/i18n/labels.js';

/** Records of every shape an entry has: all fields, an ampersand, no year, no author, no title. */
const documents = ['versions-showing-every-entry-field', 'title-with-ampersand', 'record-without-year', 'record-without-author']
  .flatMap((name) => readFileSync(new URL(`../fixtures/${name}.jsonl`, import.meta.url), 'utf8').split('\n').filter((line) => line.trim() !== ''))
  .map((line) => JSON.parse(line) as Record<string, unknown>);
documents.push({ id: 'without-title', author: 'Anonymous', publishDate: '1901', format: 'Book', language: 'por' });
const plainRecords = (): CatalogRecord[] => documents.map((document) => recordFromDocument(document));

// One translator per language, as the plugin hands them out (labelCatalogs.ts).
const translators = new Map<string, Translate>();
const translatorOf = (language: string): Translate => {
  if (!translators.has(language)) translators.set(language, (key) => `${language}:${key}`);
  return translators.get(language)!;
};

const pageInput = (records: readonly CatalogRecord[], requested: CatalogRecord, language = 'en', baseUrl = 'https://catalog.example.edu'): VersionsPageInput => ({
  requestedRecord: requested, versions: { total: records.length, records }, page: 1, language, baseUrl, siteTitle: 'Catalog',
  catalogHomeUrl: '/', translate: translatorOf(language), languages: [{ code: 'en', name: 'English' }, { code: 'es', name: 'Español' }],
});

test('the page of frozen records, made again from the same records, is the page of plain records', (t) => {
  const plain = plainRecords();
  const frozen = plainRecords().map(frozenRecord);
  const expected = buildVersionsPageModel(pageInput(plain, plain[0]!));
  const first = buildVersionsPageModel(pageInput(frozen, frozen[0]!));
  t.deepEqual(first, expected);
  const again = buildVersionsPageModel(pageInput(frozen, frozen[0]!));
  t.deepEqual(again, expected);
  t.true(again.entries.every((entry, i) => entry.details === first.entries[i]!.details && entry.formats === first.entries[i]!.formats), 'the record parts of frozen records are made once');
  t.true(first.entries.every((entry) => Object.isFrozen(entry.details) && entry.details.every((detail) => Object.isFrozen(detail))));
});

test('a frozen record\'s entry follows the requested record, the language and the base address', (t) => {
  const frozen = plainRecords().map(frozenRecord);
  for (const [requestedAt, language, baseUrl] of [[0, 'en', 'https://catalog.example.edu'], [1, 'en', 'https://catalog.example.edu'], [1, 'es', 'https://catalog.example.edu'], [2, 'es', 'https://other.example.org'], [0, 'en', 'https://catalog.example.edu']] as const) {
    const plain = plainRecords();
    const expected = buildVersionsPageModel(pageInput(plain, plain[requestedAt]!, language, baseUrl));
    const model = buildVersionsPageModel(pageInput(frozen, frozen[requestedAt]!, language, baseUrl));
    t.deepEqual(model, expected, `${requestedAt} ${language} ${baseUrl}`);
    t.true(model.entries[requestedAt]!.isRequestedRecord);
    t.is(model.entries.at(-1)?.title, `${language}:record.titleMissing`);
    t.true(model.entries.every((entry) => entry.recordUrl.startsWith(`${baseUrl}/`)));
  }
});

test('the words and sort options kept per translator follow the language and the sort asked for', (t) => {
  const records = plainRecords();
  for (const [language, sort] of [['en', 'year'], ['es', 'year'], ['en', 'title'], ['es', 'relevance'], ['en', 'year']] as const) {
    const model = buildVersionsPageModel({ ...pageInput(records, records[0]!, language), sort });
    t.deepEqual(model.sort?.options.map((option) => [option.label, option.isCurrent]), [
      [`${language}:sort.relevance`, sort === 'relevance'], [`${language}:sort.year`, sort === 'year'], [`${language}:sort.yearAsc`, false],
      [`${language}:sort.title`, sort === 'title'], [`${language}:sort.author`, false],
    ], `${language} ${sort}`);
    t.is(model.entries[0]!.requestedLabel, `${language}:record.requested`);
    t.true(model.entries.filter((entry) => entry.publishedIn !== undefined).every((entry) => entry.publishedIn === `${language}:record.publishedIn ${entry.year}`));
    t.true(model.entries.every((entry) => entry.details.every((detail) => detail.label.startsWith(`${language}:record.`))));
  }
});
