/**
 * The traps of the public API that issue 18 names, each as a host met it: one meaning per exported name,
 * `timeZone` checked at creation (any IANA zone name, nothing else), plain values refused with coded
 * errors that name what they are about, and one error for one bad query on every index adapter.
 * test/package/publicApiProbe.test.ts calls every export with such values; this file checks what the answers say.
 */
import test from 'ava';
import { workKeysOf as workKeysOfRoot, InvalidArgumentError, InvalidOptionError, createVersionsPlugin } from '../../src/index.js';
import { workKeysOf } from '../../src/work-keys/index.js';
import { createSolrIndex, createSolrWriter, solrIngestWriter } from '../../src/adapters/solr/index.js';
import { parseMarcXml, readIso2709, recordDocumentFromDublinCore, recordDocumentFromMarc } from '../../src/ingest/index.js';
import { normaliseForWorkKey } from '../../src/work-keys/index.js';
import { fixture, hostFor, openLoadedIndex } from '../support/testHost.js';
import { openEmbeddedIndex } from '../../src/entries/sqlite.js';

test('the root workKeysOf gives the subpath\'s keys for a record document', (t) => {
  const document = { id: 'hob-1', title: 'The hobbit', author: 'Tolkien, J. R. R.', title_uniform: 'Hobbit' };
  t.deepEqual(workKeysOfRoot(document), workKeysOf(document));
  t.true(workKeysOf(document).length > 0);
});

test('the root workKeysOf refuses a 0.1.0 CatalogRecord, saying what to call, instead of keying it differently', (t) => {
  const catalogRecord = {
    id: 'hob-1', title: 'The hobbit', uniformTitles: ['Hobbit'], authors: ['Tolkien, J. R. R.'], secondaryAuthors: [], corporateAuthors: [],
  };
  const error = t.throws(() => workKeysOfRoot(catalogRecord as never), { instanceOf: InvalidArgumentError });
  t.is(error?.code, 'INVALID_ARGUMENT');
  t.regex(error?.message ?? '', /koa-catalog-versions\/work-keys/);
  t.regex(error?.message ?? '', /title_uniform: uniformTitles, author: authors/);
  // Converted as the message says, the subpath keys it.
  t.deepEqual(
    workKeysOf({ title: catalogRecord.title, title_uniform: catalogRecord.uniformTitles, author: catalogRecord.authors }),
    ['UT hobbit', 'AT tolkienjrr thehobbit', 'AT tolkienjrr hobbit'],
  );
});

// The thesis of 2019 at the fixed clock (17:03:27 UTC): Brazil was on summer time on 1 January 2019.
const PUB_DATES_2019: Readonly<Record<string, string>> = {
  'America/Sao_Paulo': 'Tue, 01 Jan 2019 14:03:27 -0200',
  'Europe/Lisbon': 'Tue, 01 Jan 2019 18:03:27 +0000',
  'Asia/Kolkata': 'Tue, 01 Jan 2019 22:33:27 +0530',
  UTC: 'Tue, 01 Jan 2019 17:03:27 +0000',
};

for (const [zone, pubDate] of Object.entries(PUB_DATES_2019)) {
  test(`timeZone "${zone}" is accepted and the feed answers with its offset`, async (t) => {
    const index = await openLoadedIndex(fixture('thesis-in-two-repositories'));
    t.teardown(() => index.close());
    const { request } = hostFor(index, { timeZone: zone });
    const response = await request.get('/Search/Versions?id=usp%3Atese-2019-0412&view=rss').expect(200);
    t.true(response.text.includes(`<pubDate>${pubDate}</pubDate>`), response.text);
  });
}

test('timeZone that is no IANA zone, or an object without the two methods, is refused at creation naming it', async (t) => {
  const index = await openLoadedIndex([]);
  t.teardown(() => index.close());
  for (const timeZone of ['Mars/Olympus_Mons', '', 'GMT+25', {}, 42, { timeOfDay: () => ({ hours: 0, minutes: 0, seconds: 0 }) }]) {
    const error = t.throws(() => createVersionsPlugin({ index, timeZone: timeZone as never }), { instanceOf: InvalidOptionError });
    t.is(error?.option, 'timeZone');
  }
});

test('plain values given to the ingest functions are InvalidArgumentErrors naming the function and parameter', (t) => {
  const cases: ReadonlyArray<readonly [() => unknown, RegExp]> = [
    [() => normaliseForWorkKey(undefined as never), /normaliseForWorkKey: text must be a string/],
    [() => recordDocumentFromMarc({} as never), /recordDocumentFromMarc: record must be a MARC record/],
    [() => parseMarcXml(undefined as never), /parseMarcXml: xml must be MARCXML text/],
    [() => recordDocumentFromDublinCore(undefined as never, 'oai:x:1'), /recordDocumentFromDublinCore: metadataXml/],
    [() => readIso2709(Buffer.from('00026nam a2200025 a 4500\x1e\x1d') as never), /readIso2709: path must be the path of a file.*got a Buffer of 26 bytes/],
    [() => solrIngestWriter({} as never, 'Solr'), /solrIngestWriter: writer must be a SolrWriter from createSolrWriter/],
  ];
  for (const [call, message] of cases) {
    const error = t.throws(call, { instanceOf: InvalidArgumentError });
    t.is(error?.code, 'INVALID_ARGUMENT');
    t.regex(error?.message ?? '', message);
  }
});

test('the same bad query to findVersions is the same InvalidArgumentError on the embedded index and on Solr', async (t) => {
  const embedded = openEmbeddedIndex({ path: ':memory:' });
  const solr = createSolrIndex({ url: 'http://127.0.0.1:9/solr/biblio' });
  t.teardown(async () => {
    await embedded.close();
    await solr.close();
  });
  const badQueries = [
    { workKeys: ['AT x y'], order: 'relevance', offset: -1, limit: 20 },
    { workKeys: ['AT x y'], order: 'newest', offset: 0, limit: 20 },
    { workKeys: 'AT x y', order: 'relevance', offset: 0, limit: 20 },
    undefined,
  ];
  for (const query of badQueries) {
    const fromEmbedded = await t.throwsAsync(embedded.findVersions(query as never), { instanceOf: InvalidArgumentError });
    const fromSolr = await t.throwsAsync(solr.findVersions(query as never), { instanceOf: InvalidArgumentError });
    t.is(fromEmbedded?.message, fromSolr?.message);
  }
  const writer = createSolrWriter({ url: 'http://127.0.0.1:9/solr/biblio' });
  t.teardown(() => writer.close());
  await t.throwsAsync(writer.deleteByIds(42 as never), { instanceOf: InvalidArgumentError });
});
