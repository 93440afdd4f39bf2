/**
 * The demo on a library's own data (demo/demoCatalog.ts): CATALOG_RECORDS in JSON Lines, MARC 21 (ISO
 * 2709) or MARCXML, recognised from the content whatever the file is called, and CATALOG_INDEX, an index
 * file made by the command, read as it is. Files that are neither are refused with a sentence.
 */
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeIso2709 } from '../support/writeIso2709.js';
import { DemoCatalogError, openEmbeddedCatalog, type DemoCatalog } from '../../demo/demoCatalog.js';
import { createDemoHost } from '../../demo/demoHost.js';
import { openEmbeddedIndex } from '../../src/entries/sqlite.js';
import type { MarcRecord } from '../../src/marc/marcRecord.js';
import * as cheerio from 'cheerio';
import supertest from 'supertest';

function tempDir(t: { teardown(fn: () => unknown): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-versions-demo-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function hobbit(id: string, title: string): MarcRecord {
  return {
    leader: '00000cam a2200000 a 4500',
    fields: [
      { tag: '001', value: id },
      { tag: '100', ind1: '1', ind2: ' ', subfields: [{ code: 'a', value: 'Tolkien, J. R. R.,' }] },
      { tag: '245', ind1: '1', ind2: '4', subfields: [{ code: 'a', value: title }] },
    ],
  };
}

const MARCXML = `<?xml version="1.0" encoding="UTF-8"?>
<collection xmlns="http://www.loc.gov/MARC21/slim">
  <record><leader>00000cam a2200000 a 4500</leader><controlfield tag="001">xml-1</controlfield>
    <datafield tag="100" ind1="1" ind2=" "><subfield code="a">Tolkien, J. R. R.</subfield></datafield>
    <datafield tag="245" ind1="1" ind2="4"><subfield code="a">The hobbit /</subfield></datafield></record>
  <record><leader>00000cam a2200000 a 4500</leader><controlfield tag="001">xml-2</controlfield>
    <datafield tag="100" ind1="1" ind2=" "><subfield code="a">Tolkien, J. R. R.</subfield></datafield>
    <datafield tag="245" ind1="1" ind2="0"><subfield code="a">Hobbit.</subfield></datafield></record>
</collection>
`;

async function versionsOf(catalog: DemoCatalog, id: string): Promise<number | undefined> {
  return (await catalog.index.countVersions([id])).get(id);
}

test('CATALOG_RECORDS is read as MARC 21, MARCXML or JSON Lines from its content, whatever its name', async (t) => {
  const dir = tempDir(t);
  const files = {
    // Names that say nothing (or the wrong thing): the content decides, as for `catalog-versions load`.
    iso2709: join(dir, 'export.txt'),
    marcxml: join(dir, 'records.data'),
    jsonl: join(dir, 'catalog.xml.json'),
  };
  writeFileSync(files.iso2709, writeIso2709([hobbit('mrc-1', 'The hobbit /'), hobbit('mrc-2', 'Hobbit.')]));
  writeFileSync(files.marcxml, MARCXML);
  writeFileSync(files.jsonl, [
    JSON.stringify({ id: 'j-1', title: 'The Hobbit', author: 'Tolkien, J. R. R.' }),
    JSON.stringify({ id: 'j-2', title: 'Hobbit', author: 'Tolkien, J.R.R.' }),
    '{broken',
  ].join('\n'));
  const expected = { iso2709: ['mrc-1', /MARC 21 \(ISO 2709\)/], marcxml: ['xml-1', /MARCXML/], jsonl: ['j-1', /JSON Lines/] } as const;
  for (const [name, path] of Object.entries(files) as Array<[keyof typeof files, string]>) {
    const warnings: string[] = [];
    const catalog = await openEmbeddedCatalog({ records: path }, (message) => warnings.push(message));
    try {
      const [id, label] = expected[name];
      t.is(await versionsOf(catalog, id), 2, `${name}: the two records of one work were loaded and grouped`);
      t.regex(catalog.startMessage, new RegExp(`^Loaded 2 records from .* \\(${label.source}`), name);
      t.true(catalog.featured.length > 0, `${name}: the home page has works to suggest`);
      if (name === 'jsonl') {
        t.is(warnings.length, 1, warnings.join('\n'));
        t.true(warnings[0]?.startsWith(`${path}:3: skipped: not valid JSON`), 'the broken line is named, the rest loads');
      } else {
        t.deepEqual(warnings, [], name);
      }
    } finally {
      await catalog.index.close();
    }
  }
});

test('CATALOG_INDEX opens an index file made by the command, read-only, without loading anything', async (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'catalog.sqlite');
  const writing = openEmbeddedIndex({ path, create: true });
  await writing.load([
    { id: 'a', title: 'The Hobbit', author: 'Tolkien, J. R. R.' },
    { id: 'b', title: 'Hobbit', author: 'Tolkien, J. R. R.' },
    { id: 'c', title: 'Something else', author: 'Other, A.' },
  ]);
  await writing.close();
  const catalog = await openEmbeddedCatalog({ indexFile: path });
  t.teardown(() => catalog.index.close());
  t.is(await versionsOf(catalog, 'a'), 2);
  t.regex(catalog.startMessage, /catalog\.sqlite \(3 records, read-only\)/);
  t.is((await catalog.search!('hobbit', { limit: 10, offset: 0 })).total, 2, 'the search box works on it');
  t.deepEqual([catalog.featured, catalog.alone], [['a'], ['c']], 'the index\'s own records to start from');
  t.deepEqual(catalog.facts, { file: path, records: 3, works: 2, worksOfSeveral: 1, keyProfile: 'extended' });
});

test('the home page on a library\'s own index: what it is (records, works, key profile), its largest works, records alone in theirs', async (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'branch-library.sqlite');
  const writing = openEmbeddedIndex({ path, create: true, keyProfile: 'vufind' });
  await writing.load([
    // Three editions of one work, a thesis in two repositories, and two records alone in their work.
    { id: 'hobbit-1937', title: 'The hobbit', author: 'Tolkien, J. R. R.', publishDate: '1937' },
    { id: 'hobbit-1966', title: 'The hobbit', author: 'Tolkien, J. R. R.', publishDate: '1966' },
    { id: 'hobbit-1995', title: 'The hobbit', author: 'Tolkien, J. R. R.', publishDate: '1995' },
    { id: 'tese-usp', title: 'O ensino de ciências na educação básica', author: 'Pereira, Ana Clara', format: 'Thesis' },
    { id: 'tese-bdtd', title: 'O ensino de ciências na educação básica', author: 'Pereira, Ana Clara', format: 'Thesis' },
    { id: 'pamphlet-1950', title: 'Notes on a local flood', author: 'Ribeiro, Ana' },
    { id: 'map-1822', title: 'Carta topographica da cidade', author: 'Silva, José da', format: 'Map' },
  ]);
  await writing.close();
  const catalog = await openEmbeddedCatalog({ indexFile: path });
  t.teardown(() => catalog.index.close());
  const request = supertest(createDemoHost({
    index: catalog.index, baseUrl: 'http://127.0.0.1', featuredIds: catalog.featured, aloneIds: catalog.alone!, catalogFacts: catalog.facts!, search: catalog.search!,
  }).callback());

  const $ = cheerio.load((await request.get('/?lng=en').expect(200)).text);
  t.is($('.demo-intro--facts').text(), 'branch-library.sqlite — records: 7; works: 4, 2 with several versions; work-key profile: vufind.');
  t.false($('main').text().includes('demonstration catalog'), 'not the demo records\' description');
  const lists = $('ol.demo-results');
  t.is(lists.length, 2);
  const titles = (list: number) => lists.eq(list).find('.version__title a').map((_, a) => $(a).text()).get();
  t.deepEqual(titles(0), ['The hobbit', 'O ensino de ciências na educação básica'], 'the largest works first, one record each');
  t.deepEqual(lists.eq(0).find('.show-versions').map((_, a) => $(a).text()).get(), ['Show all versions (3)', 'Show all versions (2)']);
  t.is($('h2.demo-section-title').eq(1).text(), 'Records alone in their work');
  t.deepEqual(titles(1), ['Carta topographica da cidade', 'Notes on a local flood']);
  t.deepEqual(lists.eq(1).find('.show-versions').map((_, a) => $(a).text()).get(), ['Show all versions (1)', 'Show all versions (1)'], 'their one-entry versions page is offered');
  const ids = $('[id]').map((_, e) => $(e).attr('id')).get();
  t.is(new Set(ids).size, ids.length, 'no id used twice on the page');

  const pt = cheerio.load((await request.get('/?lng=pt-br').expect(200)).text);
  t.is(pt('.demo-intro--facts').text(), 'branch-library.sqlite — registros: 7; obras: 4, 2 com várias versões; perfil de chaves de obra: vufind.');
  t.is(pt('h2.demo-section-title').eq(1).text(), 'Registros sozinhos na sua obra');
});

test('the home page of an index where no two records share a work says so, rather than asking for FEATURED_IDS', async (t) => {
  const index = openEmbeddedIndex({ path: ':memory:' });
  t.teardown(() => index.close());
  await index.load([{ id: 'pamphlet-1950', title: 'Notes on a local flood', author: 'Ribeiro, Ana' }]);
  const request = supertest(createDemoHost({
    index, baseUrl: 'http://127.0.0.1', featuredIds: [], aloneIds: ['pamphlet-1950'],
    catalogFacts: { file: '/srv/catalog/one.sqlite', records: 1, works: 1, worksOfSeveral: 0, keyProfile: 'extended' },
  }).callback());
  const $ = cheerio.load((await request.get('/?lng=es').expect(200)).text);
  t.true($('main').text().includes('Ningún par de registros de este catálogo comparte una clave de obra'));
  t.false($('main').text().includes('FEATURED_IDS'));
  t.is($('.demo-intro--facts').text(), 'one.sqlite — registros: 1; obras: 1, 0 con varias versiones; perfil de claves de obra: extended.');
});

test('files of the wrong kind are refused with a sentence that says what to do', async (t) => {
  const dir = tempDir(t);
  const index = join(dir, 'catalog.sqlite');
  const writing = openEmbeddedIndex({ path: index, create: true });
  await writing.load([{ id: 'a', title: 'T', author: 'A' }]);
  await writing.close();
  const text = join(dir, 'notes.txt');
  writeFileSync(text, 'Shelf list, 3rd floor\n');
  const cases: Array<[Parameters<typeof openEmbeddedCatalog>[0], RegExp]> = [
    [{ records: index }, /is none of the formats read here .*; it is an index file: give it as CATALOG_INDEX/],
    [{ records: text }, /notes\.txt is none of the formats read here \(JSON Lines record documents, MARC 21 \(ISO 2709\), MARCXML\)$/],
    [{ records: join(dir, 'missing.mrc') }, /cannot read CATALOG_RECORDS .*missing\.mrc: ENOENT/],
    [{ indexFile: text }, /CATALOG_INDEX .*notes\.txt is not an embedded index file \(make one with: npx catalog-versions load FILE --db /],
    [{ indexFile: join(dir, 'nope.sqlite') }, /CATALOG_INDEX .*nope\.sqlite does not exist/],
  ];
  for (const [source, message] of cases) {
    const error = await t.throwsAsync(openEmbeddedCatalog(source, () => undefined), { instanceOf: DemoCatalogError }, JSON.stringify(source));
    t.regex(error?.message ?? '', message);
  }
});

test('CATALOG_KEY_PROFILE: records are keyed with extended unless vufind is asked for; another name is refused', async (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'subtitles.mrc');
  // VuFind keys the subtitle with the title, so the two editions share no key; the extended profile keys the title proper too.
  const withSubtitle: MarcRecord = {
    leader: '00000cam a2200000 a 4500',
    fields: [
      { tag: '001', value: 'hobbit-subtitled' },
      { tag: '100', ind1: '1', ind2: ' ', subfields: [{ code: 'a', value: 'Tolkien, J. R. R.,' }] },
      { tag: '245', ind1: '1', ind2: '4', subfields: [{ code: 'a', value: 'The hobbit :' }, { code: 'b', value: 'or, There and back again /' }] },
    ],
  };
  writeFileSync(path, writeIso2709([withSubtitle, hobbit('hobbit-plain', 'The hobbit /')]));
  for (const [keyProfile, versions] of [[undefined, 2], ['extended', 2], ['vufind', 1]] as const) {
    const catalog = await openEmbeddedCatalog({ records: path, ...(keyProfile !== undefined ? { keyProfile } : {}) }, () => undefined);
    try {
      t.is(await versionsOf(catalog, 'hobbit-plain'), versions, String(keyProfile));
    } finally {
      await catalog.index.close();
    }
  }
  await t.throwsAsync(openEmbeddedCatalog({ records: path, keyProfile: 'aspen' as 'vufind' }, () => undefined), {
    instanceOf: DemoCatalogError, message: /CATALOG_KEY_PROFILE: .*"aspen" is not a work-key profile; use 'vufind' or 'extended'/,
  });
});
