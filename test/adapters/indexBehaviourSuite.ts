/**
 * The index behaviours every adapter must show, as one suite: each adapter's test file calls
 * `indexBehaviourSuite` with a way to open that adapter on given record documents. The embedded index runs
 * it always; the Solr adapter runs it whenever SOLR_TEST_URL names a real Solr core.
 */
import type { TestFn } from 'ava';
import { listVersions } from '../../src/versions/listVersions.js';
import { prepareRecordDocument } from '../../src/ingest/prepareRecordDocument.js';
import { versionsOfKeylessRecord, type CatalogIndex, type RecordVersionsQuery, type VersionsOrder } from '../../src/ports.js';
import type { CatalogRecord } from '../../src/record/catalogRecord.js';

/** Opens the adapter holding exactly `documents` (already prepared: keys and last_indexed set). */
export type OpenIndex = (documents: Record<string, unknown>[]) => Promise<CatalogIndex>;

const doc = (id: string, fields: Record<string, unknown>) => ({ id, format: 'Book', ...fields });

/** The catalog the suite runs on: prepared the way every loader prepares documents. */
export function suiteDocuments(): Record<string, unknown>[] {
  const raw = [
    doc('hobbit-1', { title: 'The Hobbit', author: 'Tolkien, J. R. R.', publishDate: '1937', language: 'English', last_indexed: '2025-01-03T00:00:00Z' }),
    doc('hobbit-2', { title: 'The hobbit', author: 'Tolkien, J. R. R.', publishDate: '1966', language: ['Portuguese'], last_indexed: '2025-01-01T00:00:00Z' }),
    doc('hobbit-3', { title: 'Hobbit', author: 'Tolkien, J.R.R.', publishDate: '2012', language: ['English'], last_indexed: '2025-01-02T00:00:00Z', format: ['eBook', 'Book'] }),
    doc('hobbit:tie/b', { title: 'The Hobbit', author: 'Tolkien, J. R. R.', publishDate: '2001', last_indexed: '2025-01-02T00:00:00Z' }),
    doc('hobbit:tie/a', { title: 'The Hobbit', author: 'Tolkien, J. R. R.', publishDate: '2002', last_indexed: '2025-01-02T00:00:00Z' }),
    doc('silmarillion', { title: 'The Silmarillion', author: 'Tolkien, J. R. R.', publishDate: '1977', last_indexed: '2025-01-04T00:00:00Z' }),
    doc('no-keys', { title: 'Untitled leaflet', publishDate: '1990', last_indexed: '2025-01-05T00:00:00Z' }),
    doc('id with "quotes" and \\backslash\\', { title: 'Escaping', author: 'Backslash, Quote', last_indexed: '2025-01-06T00:00:00Z' }),
    doc('oai:repo.example:123/456 x', { title: 'Escaping', author: 'Backslash, Quote', last_indexed: '2025-01-07T00:00:00Z' }),
    doc('ключ-1', { title: 'Война и мир', author: 'Толстой, Лев', title_uniform: 'Voĭna i mir', last_indexed: '2025-01-08T00:00:00Z' }),
    doc('war-and-peace', { title: 'War and peace', author: 'Tolstoy, Leo', title_uniform: 'Voina i mir', last_indexed: '2025-01-09T00:00:00Z' }),
    doc('explicit-a', { title: 'One', author: 'A', work_keys_str_mv: ['SHARED x', 'ONLY a'], last_indexed: '2025-01-10T00:00:00Z' }),
    doc('explicit-b', { title: 'Two', author: 'B', work_keys_str_mv: ['SHARED x', 'ONLY b'], last_indexed: '2025-01-11T00:00:00Z' }),
  ];
  for (let i = 1; i <= 45; i += 1) {
    raw.push(doc(`big-${String(i).padStart(2, '0')}`, {
      title: 'Dom Casmurro', author: 'Assis, Machado de', publishDate: String(1899 + i),
      last_indexed: new Date(Date.UTC(2025, 1, 1, 0, 0, i % 7)).toISOString(),
    }));
  }
  const now = new Date('2025-01-01T00:00:00Z');
  return raw.map((input) => prepareRecordDocument(input, now).document as Record<string, unknown>);
}

const ids = (records: ReadonlyArray<{ id: string }>) => records.map((r) => r.id);

/**
 * A versions page as it is compared: asked without version keys (`versionKeys: false`, the feed's query),
 * an index may list versions with their keys or with none (src/ports.ts), so their keys are left out.
 */
export function comparableVersions<Page extends { readonly records: readonly CatalogRecord[] }>(page: Page, versionKeys: boolean | undefined): Page {
  return versionKeys !== false ? page : { ...page, records: page.records.map((record) => ({ ...record, workKeys: [] })) };
}

/** What the adapter offers beyond the port's required methods, as its test file declares it. */
export interface AdapterOffers {
  /** The port's optional findVersionsOf (the Solr adapter has it only with a work index). */
  readonly findVersionsOf: boolean;
  /** The port's optional recordWithVersions (the Solr adapter has it only with a work collection); not offered when absent. */
  readonly recordWithVersions?: boolean;
}

/** The queries recordWithVersions is held to: both engine orders and the record-field sorts, filters, facets, offsets past the end, a count alone, the feed's without keys. */
const RECORD_WITH_VERSIONS_QUERIES: readonly RecordVersionsQuery[] = [
  { order: 'last-indexed', offset: 0, limit: 50, versionKeys: false },
  { order: 'relevance', offset: 0, limit: 20, facets: true },
  { order: 'relevance', offset: 20, limit: 20, facets: true, filters: [{ field: 'format', value: 'Book' }] },
  { order: 'year-desc', offset: 40, limit: 20, facets: true },
  { order: 'title', offset: 0, limit: 5, filters: [{ field: 'language', value: 'English' }] },
  { order: 'author', offset: 60, limit: 20 },
  { order: 'last-indexed', offset: 0, limit: 0, facets: true },
];

export function indexBehaviourSuite(test: TestFn, adapter: string, open: OpenIndex, offers: AdapterOffers = { findVersionsOf: true }): void {
  let index: CatalogIndex;
  test.before(async () => {
    index = await open(suiteDocuments());
  });
  test.after.always(async () => {
    await index?.close();
  });

  test(`${adapter}: getRecord finds a record by its exact id, awkward characters included`, async (t) => {
    for (const id of ['hobbit-1', 'hobbit:tie/a', 'id with "quotes" and \\backslash\\', 'oai:repo.example:123/456 x', 'ключ-1']) {
      const record = await index.getRecord(id);
      t.is(record?.id, id);
    }
    const hobbit = await index.getRecord('hobbit-3');
    t.deepEqual(hobbit?.formats, ['eBook', 'Book']);
    t.is(hobbit?.lastIndexed, '2025-01-02T00:00:00.000Z');
    t.deepEqual(hobbit?.authors, ['Tolkien, J.R.R.']);
  });

  test(`${adapter}: getRecord answers undefined for a missing id, also near misses`, async (t) => {
    for (const id of ['nope', 'HOBBIT-1', 'hobbit-1 ', 'hobbit*', 'hobbit:tie/*', '"hobbit-1"']) t.is(await index.getRecord(id), undefined, id);
  });

  test(`${adapter}: findVersions matches any shared key exactly and counts each record once`, async (t) => {
    const hobbit = await index.getRecord('hobbit-1');
    const page = await index.findVersions({ workKeys: hobbit!.workKeys, order: 'relevance', offset: 0, limit: 20 });
    t.is(page.total, 5);
    t.deepEqual(ids(page.records), ['hobbit-1', 'hobbit-2', 'hobbit-3', 'hobbit:tie/a', 'hobbit:tie/b']);
    const explicit = await index.findVersions({ workKeys: ['ONLY a', 'SHARED x'], order: 'relevance', offset: 0, limit: 20 });
    t.deepEqual(ids(explicit.records), ['explicit-a', 'explicit-b']);
    const none = await index.findVersions({ workKeys: ['NO such key'], order: 'relevance', offset: 0, limit: 20 });
    t.deepEqual(none, { total: 0, records: [] });
  });

  test(`${adapter}: last-indexed order is newest first, ties by id ascending`, async (t) => {
    const hobbit = await index.getRecord('hobbit-2');
    const page = await index.findVersions({ workKeys: hobbit!.workKeys, order: 'last-indexed', offset: 0, limit: 50 });
    t.deepEqual(ids(page.records), ['hobbit-1', 'hobbit-3', 'hobbit:tie/a', 'hobbit:tie/b', 'hobbit-2']);
  });

  test(`${adapter}: the page's sorts on record fields: year both ways, title, author; equal values by id`, async (t) => {
    const hobbit = await index.getRecord('hobbit-1');
    const sorted = async (order: VersionsOrder) => ids((await index.findVersions({ workKeys: hobbit!.workKeys, order, offset: 0, limit: 20 })).records);
    t.deepEqual(await sorted('year-desc'), ['hobbit-3', 'hobbit:tie/a', 'hobbit:tie/b', 'hobbit-2', 'hobbit-1']);
    t.deepEqual(await sorted('year-asc'), ['hobbit-1', 'hobbit-2', 'hobbit:tie/b', 'hobbit:tie/a', 'hobbit-3']);
    // "Hobbit" before "The Hobbit"; "The Hobbit" and "The hobbit" are one title (case aside), so by id.
    t.deepEqual(await sorted('title'), ['hobbit-3', 'hobbit-1', 'hobbit-2', 'hobbit:tie/a', 'hobbit:tie/b']);
    const escaping = await index.getRecord('explicit-b');
    const byAuthor = await index.findVersions({ workKeys: escaping!.workKeys, order: 'author', offset: 0, limit: 20 });
    t.deepEqual(ids(byAuthor.records), ['explicit-a', 'explicit-b']);
  });

  test(`${adapter}: facets within a work: values with counts, most frequent first, then by value; the years newest first`, async (t) => {
    const hobbit = await index.getRecord('hobbit-1');
    const page = await index.findVersions({ workKeys: hobbit!.workKeys, order: 'relevance', offset: 0, limit: 20, facets: true });
    t.is(page.total, 5);
    t.is(page.unfilteredTotal, 5);
    t.deepEqual(page.facets?.format, [{ value: 'Book', count: 5 }, { value: 'eBook', count: 1 }]);
    t.deepEqual(page.facets?.language, [{ value: 'English', count: 2 }, { value: 'Portuguese', count: 1 }]);
    t.deepEqual(page.facets?.publishDate?.map((facet) => facet.value), ['2012', '2002', '2001', '1966', '1937']);
    t.false('institution' in (page.facets ?? {}), 'a field no version carries is left out');
  });

  test(`${adapter}: filters: every one must match; counts of what they leave, of how many; none left`, async (t) => {
    const hobbit = await index.getRecord('hobbit-1');
    const query = { workKeys: hobbit!.workKeys, order: 'relevance', offset: 0, limit: 20, facets: true } as const;
    const english = await index.findVersions({ ...query, filters: [{ field: 'language', value: 'English' }] });
    t.deepEqual([english.total, english.unfilteredTotal], [2, 5]);
    t.deepEqual(ids(english.records), ['hobbit-1', 'hobbit-3']);
    t.deepEqual(english.facets?.format, [{ value: 'Book', count: 2 }, { value: 'eBook', count: 1 }]);
    const both = await index.findVersions({ ...query, order: 'year-desc', filters: [{ field: 'language', value: 'English' }, { field: 'format', value: 'eBook' }] });
    t.deepEqual(ids(both.records), ['hobbit-3']);
    const byYear = await index.findVersions({ ...query, filters: [{ field: 'publishDate', value: '1966' }] });
    t.deepEqual(ids(byYear.records), ['hobbit-2']);
    const none = await index.findVersions({ ...query, filters: [{ field: 'language', value: 'French' }] });
    t.deepEqual([none.total, none.unfilteredTotal, none.records.length], [0, 5, 0]);
  });

  test(`${adapter}: a sorted page is cut from the whole work, with its total`, async (t) => {
    const big = await index.getRecord('big-01');
    const newest = await index.findVersions({ workKeys: big!.workKeys, order: 'year-desc', offset: 20, limit: 5 });
    t.is(newest.total, 45);
    t.deepEqual(ids(newest.records), ['big-25', 'big-24', 'big-23', 'big-22', 'big-21']);
    const oldest = await index.findVersions({ workKeys: big!.workKeys, order: 'year-asc', offset: 40, limit: 20 });
    t.deepEqual(ids(oldest.records), ['big-41', 'big-42', 'big-43', 'big-44', 'big-45']);
    t.deepEqual(await index.findVersions({ workKeys: big!.workKeys, order: 'title', offset: 60, limit: 20 }), { total: 45, records: [] });
  });

  test(`${adapter}: paging by offset and limit keeps the total`, async (t) => {
    const big = await index.getRecord('big-01');
    const all = await index.findVersions({ workKeys: big!.workKeys, order: 'last-indexed', offset: 0, limit: 50 });
    t.is(all.total, 45);
    t.is(all.records.length, 45);
    const second = await index.findVersions({ workKeys: big!.workKeys, order: 'last-indexed', offset: 20, limit: 20 });
    t.is(second.total, 45);
    t.deepEqual(ids(second.records), ids(all.records).slice(20, 40));
    const past = await index.findVersions({ workKeys: big!.workKeys, order: 'relevance', offset: 60, limit: 20 });
    t.deepEqual(past, { total: 45, records: [] });
    const countOnly = await index.findVersions({ workKeys: big!.workKeys, order: 'relevance', offset: 0, limit: 0 });
    t.deepEqual(countOnly, { total: 45, records: [] });
    const byId = await index.findVersions({ workKeys: big!.workKeys, order: 'relevance', offset: 40, limit: 20 });
    t.deepEqual(ids(byId.records), ['big-41', 'big-42', 'big-43', 'big-44', 'big-45']);
  });

  test(`${adapter}: transliterated uniform titles and many keys at once`, async (t) => {
    const war = await index.getRecord('ключ-1');
    const page = await index.findVersions({ workKeys: war!.workKeys, order: 'relevance', offset: 0, limit: 20 });
    t.deepEqual(ids(page.records).sort(), ['war-and-peace', 'ключ-1'].sort());
    const manyKeys = [...Array.from({ length: 600 }, (_, i) => `AT nobody title${i}`), 'SHARED x'];
    const many = await index.findVersions({ workKeys: manyKeys, order: 'relevance', offset: 0, limit: 20 });
    t.deepEqual(ids(many.records), ['explicit-a', 'explicit-b']);
  });

  test(`${adapter}: countVersions answers for a whole result list; unknown ids are absent`, async (t) => {
    const counts = await index.countVersions(['hobbit-1', 'big-07', 'no-keys', 'nope', 'explicit-a', 'ключ-1']);
    t.deepEqual(Object.fromEntries(counts), { 'hobbit-1': 5, 'big-07': 45, 'no-keys': 1, 'explicit-a': 2, 'ключ-1': 2 });
  });

  test(`${adapter}: through listVersions, a record without keys lists itself alone`, async (t) => {
    const result = await listVersions(index, { id: 'no-keys', view: 'rss', page: 1 });
    t.is(result.versions.total, 1);
    t.deepEqual(ids(result.versions.records), ['no-keys']);
    const second = await listVersions(index, { id: 'no-keys', view: 'rss', page: 2 });
    t.deepEqual(second.versions, { total: 1, records: [] });
  });

  const findVersionsOfTitle = `${adapter}: findVersionsOf gives the pages findVersions gives for the record's keys`;
  if (!offers.findVersionsOf) {
    // Reported as skipped, with the reason; the declaration itself is held to what the adapter does.
    test.skip(`${findVersionsOfTitle} (skipped: ${adapter} offers no findVersionsOf, so listVersions asks findVersions)`, () => {});
    test(`${adapter}: offers no findVersionsOf, as its test file declares`, (t) => {
      t.is(index.findVersionsOf, undefined);
    });
  } else test(findVersionsOfTitle, async (t) => {
    const findVersionsOf = index.findVersionsOf?.bind(index);
    if (findVersionsOf === undefined) {
      t.fail(`${adapter} is declared to offer findVersionsOf and does not`);
      return;
    }
    for (const document of suiteDocuments()) {
      const record = await index.getRecord(document.id as string);
      if (record === undefined) throw new Error(`no record ${String(document.id)}`);
      for (const order of ['last-indexed', 'relevance'] as const) {
        for (const [offset, limit] of [[0, 50], [0, 20], [20, 20], [40, 20], [0, 0], [60, 20]] as const) {
          for (const facets of [undefined, true] as const) {
            const query = { order, offset, limit, ...(facets === true ? { facets } : {}) };
            const fast = await findVersionsOf(record, query);
            const byKeys = record.workKeys.length === 0
              ? { total: 1, records: offset === 0 ? [record] : [] }
              : await index.findVersions({ workKeys: record.workKeys, ...query });
            t.deepEqual({ ...fast, records: ids(fast.records) }, { ...byKeys, records: ids(byKeys.records) }, `${record.id} ${order} ${offset}/${limit} facets ${String(facets)}`);
            t.deepEqual(fast.records, byKeys.records, `${record.id} ${order} ${offset}/${limit}: the records themselves`);
          }
        }
      }
    }
  });

  const recordWithVersionsTitle = `${adapter}: recordWithVersions gives the record getRecord gives and the page findVersions gives for its keys`;
  if (offers.recordWithVersions !== true) {
    test(`${adapter}: offers no recordWithVersions, as its test file declares (so listVersions asks getRecord, then the versions)`, (t) => {
      t.is(index.recordWithVersions, undefined);
    });
  } else test(recordWithVersionsTitle, async (t) => {
    const recordWithVersions = index.recordWithVersions?.bind(index);
    if (recordWithVersions === undefined) {
      t.fail(`${adapter} is declared to offer recordWithVersions and does not`);
      return;
    }
    for (const document of suiteDocuments()) {
      const id = document.id as string;
      const record = await index.getRecord(id);
      if (record === undefined) throw new Error(`no record ${id}`);
      for (const query of RECORD_WITH_VERSIONS_QUERIES) {
        const both = await recordWithVersions(id, query);
        const versions = record.workKeys.length === 0 ? versionsOfKeylessRecord(record, query.offset) : await index.findVersions({ workKeys: record.workKeys, ...query });
        t.deepEqual(both?.record, record, `${id} ${JSON.stringify(query)}`);
        t.deepEqual(both && comparableVersions(both.versions, query.versionKeys), comparableVersions(versions, query.versionKeys), `${id} ${JSON.stringify(query)}`);
      }
    }
    for (const id of ['nope', 'hobbit-1 ', 'hobbit:tie/*']) t.is(await recordWithVersions(id, RECORD_WITH_VERSIONS_QUERIES[1]!), undefined, id);
  });

  test(`${adapter}: through listVersions, the same answers whether the index offers findVersionsOf and recordWithVersions or not`, async (t) => {
    const withoutFastPath: CatalogIndex = {
      getRecord: (id) => index.getRecord(id),
      findVersions: (query) => index.findVersions(query),
      countVersions: (ids) => index.countVersions(ids),
      close: async () => undefined,
    };
    for (const document of suiteDocuments()) {
      for (const view of ['rss', 'html'] as const) {
        for (const page of [1, 2, 3]) {
          const request = { id: document.id as string, view, page };
          const fast = await listVersions(index, request);
          const slow = await listVersions(withoutFastPath, request);
          const versionKeys = view === 'html';
          t.deepEqual(fast.record, slow.record, `${request.id} ${view} page ${page}`);
          t.deepEqual(comparableVersions(fast.versions, versionKeys), comparableVersions(slow.versions, versionKeys), `${request.id} ${view} page ${page}`);
        }
      }
    }
  });
}
