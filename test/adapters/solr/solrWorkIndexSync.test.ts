/**
 * The work index beside a real Solr core without work keys (src/adapters/solr/workIndex/): after
 * syncWorkIndex, the shared index suite passes on the Solr adapter answering from the file; on a VuFind
 * MARC core (fullrecord as MARCXML) versions equal the embedded index's for the same records and profile;
 * a change, an addition and a deletion in Solr are followed after the next sync; and the sync sends the
 * core no update request (its /update handler's request count is the same before and after).
 * Runs on each Solr test/support/realSolr.ts finds; skipped, saying so, without one.
 */
import test from 'ava';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidOptionError } from '../../../src/errors.js';
import { createSolrIndex } from '../../../src/adapters/solr/solrIndex.js';
import { keepWorkIndexInStep, syncWorkIndex, type WorkIndexSyncSummary } from '../../../src/adapters/solr/workIndex/workIndexSync.js';
import { recordDocumentFromMarc } from '../../../src/ingest/marc/vufindMarcMapping.js';
import { runCli } from '../../../src/cli/catalogVersions.js';
import { listVersions } from '../../../src/versions/listVersions.js';
import { openWorkIndex } from '../../../src/adapters/solr/workIndex/workIndexFile.js';
import { capture } from '../../support/commandRuns.js';
import { indexBehaviourSuite } from '../indexBehaviourSuite.js';
import { skippedWithoutSolr, solrCore, solrTargets, updateSolr, type SolrTarget } from '../../support/realSolr.js';
import { openEmbeddedIndex } from '../../../src/entries/sqlite.js';
import { parseMarcXml } from '../../../src/marc/marcXmlReader.js';

const folder = mkdtempSync(join(tmpdir(), 'catalog-versions-work-index-sync-'));
test.after.always(() => rmSync(folder, { recursive: true, force: true }));
let files = 0;
const newFile = () => join(folder, `${(files += 1)}.sqlite`);

/** How many requests the update handlers of the core (of every replica core of a collection) have served. */
async function updateRequests(url: string): Promise<number> {
  const base = url.replace(/\/[^/]+$/, '');
  const name = url.slice(base.length + 1);
  const status = await (await fetch(`${base}/admin/cores?action=STATUS&wt=json`)).json() as { status: Record<string, unknown> };
  const cores = Object.keys(status.status).filter((core) => core === name || core.startsWith(`${name}_shard`));
  let total = 0;
  for (const core of cores) {
    const data = await (await fetch(`${base}/${core}/admin/mbeans?cat=UPDATE&stats=true&key=/update&wt=json`)).json() as { 'solr-mbeans': unknown[] };
    const beans = data['solr-mbeans'][1] as Record<string, { stats: Record<string, number> }>;
    total += Number(beans['/update']?.stats['UPDATE./update.requests'] ?? 0);
  }
  return total;
}

/** The core's documents as Solr's answer text (every stored field and `_version_`, exact), by id. */
async function coreDocuments(url: string): Promise<string> {
  const response = await fetch(`${url}/select?q=*:*&sort=id%20asc&rows=1000&fl=*,_version_&wt=json&omitHeader=true`);
  return response.text();
}

const marcXml = (id: string, author: string | undefined, title: string, year: string) => `<record xmlns="http://www.loc.gov/MARC21/slim">
  <leader>00000nam a2200000 a 4500</leader>
  <controlfield tag="001">${id}</controlfield>
  <controlfield tag="008">000101s${year}    xx            000 0 eng d</controlfield>
  ${author === undefined ? '' : `<datafield tag="100" ind1="1" ind2=" "><subfield code="a">${author}</subfield></datafield>`}
  <datafield tag="245" ind1="1" ind2="4"><subfield code="a">${title}</subfield></datafield>
</record>`;

/** Hand-written MARC records: two editions of one work (one with an article), another work, one with no author. */
const MARC_RECORDS = [
  marcXml('marc-1', 'Tolkien, J. R. R.', 'The hobbit', '1937'),
  marcXml('marc-2', 'Tolkien, J. R. R.', 'Hobbit', '1966'),
  marcXml('marc-3', 'Tolkien, J. R. R.', 'The lord of the rings', '1954'),
  marcXml('marc-4', undefined, 'The hobbit', '2001'),
];

test('sync: a wrong command line is named with the usage (exit 64)', async (t) => {
  for (const argv of [
    ['sync', '--work-index', 'x.sqlite'], ['sync', '--solr', 'http://localhost:8983/solr/biblio'], ['sync', '--solr', 'http://x/solr/b', '--work-index', 'f', '--key-profile', 'frbr'],
    // A --solr that is no core URL is a usage error, as load's --solr is (not a failed run, exit 1).
    ['sync', '--solr', 'localhost:8983/solr/biblio', '--work-index', 'f'], ['sync', '--solr', 'http://localhost:8983', '--work-index', 'f'],
    ['sync', '--solr', 'ftp://x/solr/b', '--work-index', 'f'], ['sync', '--solr', 'http://x/solr/b', '--work-index', 'f', '--rows', '0'], ['sync', '--bogus'],
  ]) {
    const run = capture();
    t.is(await runCli(argv, run.io), 64, argv.join(' '));
    t.regex(run.err(), /Usage: catalog-versions sync/);
  }
});

if (!skippedWithoutSolr(test, 'work index sync')) {
  for (const target of solrTargets()) workIndexTests(target);
}

function workIndexTests(target: SolrTarget): void {
  const label = `work index ${target.name}`;
  const aggregator = solrCore(target, 'work_index_dc', 'aggregator');
  const marc = solrCore(target, 'work_index_marc', 'vufind');

  indexBehaviourSuite(test, `${label} aggregator core`, async (documents) => {
    const url = await aggregator;
    await updateSolr(url, { delete: { query: '*:*' } });
    // The core holds no work keys; the suite's hand-written keys sit in a field the sync is told to read.
    await updateSolr(url, documents.map(({ work_keys_str_mv: keys, ...rest }) => ({ ...rest, given_keys_str_mv: keys })));
    const path = newFile();
    const storedFields = { workKeys: ['given_keys_str_mv'] };
    const summary = await syncWorkIndex({ url, path, storedFields, rows: 7 });
    if (summary.held !== documents.length) throw new Error(`sync held ${summary.held} of ${documents.length}`);
    return createSolrIndex({ url, workIndex: { path, storedFields } });
  });

  test(`${label}: a MARC core's fullrecord gives the embedded index's versions; changes, additions and deletions follow the next sync; nothing is written to the core`, async (t) => {
    const url = await marc;
    await updateSolr(url, { delete: { query: '*:*' } });
    const documents = MARC_RECORDS.map((xml, k) => {
      const { work_keys_str_mv: keys, ...mapped } = recordDocumentFromMarc(parseMarcXml(xml)[0]!) as Record<string, unknown>;
      // What the test core's schema declares of the mapping's fields.
      const document = Object.fromEntries(Object.entries(mapped).filter(([name]) => ['id', 'title', 'title_short', 'author', 'author2', 'format', 'publishDate'].includes(name))) as { id: string };
      return { document: { ...document, work_keys_str_mv: keys, last_indexed: `2025-01-0${k + 1}T00:00:00Z` }, stored: { ...document, fullrecord: xml, record_format: 'marcxml', last_indexed: `2025-01-0${k + 1}T00:00:00Z` } };
    });
    await updateSolr(url, documents.map(({ stored }) => stored));
    const embedded = openEmbeddedIndex({ path: ':memory:' });
    t.teardown(() => embedded.close());
    await embedded.load(documents.map(({ document }) => document));

    const path = newFile();
    const updatesBefore = await updateRequests(url);
    // The standalone core counts its update requests; a collection's replica cores answer 0 here.
    if (target.name === 'standalone') t.true(updatesBefore > 0, "the count is read (the test's own updates are there)");
    const documentsBefore = await coreDocuments(url);
    const first = await syncWorkIndex({ url, path });
    t.is(first.mode, 'walk');
    t.is(first.held, 4);
    // The adapter logs one debug line per request it sends: the count of Solr requests per answer.
    let requests = 0;
    const solr = createSolrIndex({ url, workIndex: { path }, versionCheckMs: 0, logger: { debug: () => { requests += 1; } } });
    t.teardown(() => solr.close());
    for (const { document } of documents) {
      const fromSolr = await solr.getRecord(document.id);
      const fromEmbedded = await embedded.getRecord(document.id);
      t.deepEqual([...fromSolr?.workKeys ?? []].sort(), [...fromEmbedded?.workKeys ?? []].sort(), document.id);
      for (const order of ['last-indexed', 'relevance', 'year-desc', 'year-asc', 'title', 'author'] as const) {
        for (const narrowed of [{}, { facets: true }, { facets: true, filters: [{ field: 'format', value: 'Book' } as const] }]) {
          const query = { workKeys: fromEmbedded!.workKeys.length > 0 ? fromEmbedded!.workKeys : ['none'], order, offset: 0, limit: 20, ...narrowed };
          const before = requests;
          const a = await solr.findVersions(query);
          t.true(requests - before <= 2, `${document.id} ${order} ${JSON.stringify(narrowed)}: ${requests - before} Solr requests`);
          const b = await embedded.findVersions(query);
          const seen = (page: typeof a) => ({ total: page.total, ids: page.records.map((r) => r.id), unfilteredTotal: page.unfilteredTotal, facets: page.facets });
          t.deepEqual(seen(a), seen(b), `${document.id} ${order} ${JSON.stringify(narrowed)}`);
        }
      }
    }
    t.deepEqual(Object.fromEntries(await solr.countVersions(documents.map(({ document }) => document.id))),
      Object.fromEntries(await embedded.countVersions(documents.map(({ document }) => document.id))));
    const again = await syncWorkIndex({ url, path });
    t.like(again, { mode: 'changes', fetched: 0, removed: 0, swept: false });
    t.is(await updateRequests(url), updatesBefore, 'the syncs sent the core no update request');
    t.is(await coreDocuments(url), documentsBefore, "the core's documents, _version_ included, are unchanged");

    // marc-3 becomes another hobbit edition, marc-5 is added, marc-2 is deleted.
    const changed = { ...documents[2]!.stored, title: 'The hobbit', fullrecord: marcXml('marc-3', 'Tolkien, J. R. R.', 'The hobbit', '1954') };
    const added = { ...documents[0]!.stored, id: 'marc-5', fullrecord: marcXml('marc-5', 'Tolkien, J. R. R.', 'The hobbit', '2020') };
    await updateSolr(url, [changed, added]);
    await updateSolr(url, { delete: { id: 'marc-2' } });
    const before = await solr.findVersions({ workKeys: (await solr.getRecord('marc-1'))!.workKeys, order: 'relevance', offset: 0, limit: 20 });
    t.deepEqual(before.records.map((r) => r.id), ['marc-1'], 'until the next sync the file answers (a deleted record is left out of the page)');
    const third = await syncWorkIndex({ url, path });
    t.like(third, { mode: 'changes', fetched: 2, removed: 1, swept: true, held: 4 });
    const after = await solr.findVersions({ workKeys: (await solr.getRecord('marc-1'))!.workKeys, order: 'relevance', offset: 0, limit: 20 });
    t.deepEqual(after.records.map((r) => r.id), ['marc-1', 'marc-3', 'marc-5']);
  });

  test(`${label}: aggregator documents are keyed from their dc.* fields; documents without a title are reported with counts`, async (t) => {
    const url = await solrCore(target, 'work_index_dc_keys', 'aggregator');
    await updateSolr(url, { delete: { query: '*:*' } });
    await updateSolr(url, [
      { id: 'oai:a:1', title: 'Educação ambiental', author: ['Silva, Ana'], 'dc.title.none.fl_str_mv': ['Educação ambiental', 'Environmental education'], 'dc.creator.none.fl_str_mv': ['Silva, Ana'] },
      { id: 'oai:b:1', title: 'Environmental education', author: ['Silva, Ana'], 'dc.title.none.fl_str_mv': ['Environmental education'], 'dc.creator.none.fl_str_mv': ['Silva, Ana'] },
      { id: 'oai:c:1', format: ['Thesis'] },
    ]);
    const path = newFile();
    const summary = await syncWorkIndex({ url, path });
    t.deepEqual(summary.unkeyable, { 'no stored title (and no fullrecord)': 1 });
    const solr = createSolrIndex({ url, workIndex: { path }, versionCheckMs: 0 });
    t.teardown(() => solr.close());
    t.deepEqual(Object.fromEntries(await solr.countVersions(['oai:a:1', 'oai:b:1', 'oai:c:1'])), { 'oai:a:1': 2, 'oai:b:1': 2, 'oai:c:1': 1 });
    const record = await solr.getRecord('oai:b:1');
    t.truthy(record?.lastIndexed && record.lastIndexed !== new Date(0).toISOString(), 'order time from _version_');
  });

  test(`${label}: the file lends its profile to createSolrIndex and to the next sync when none is given; only a different one given is refused`, async (t) => {
    const url = await solrCore(target, 'work_index_lends_profile', 'aggregator');
    await updateSolr(url, { delete: { query: '*:*' } });
    // The extended profile groups the subtitled edition with the other; VuFind's keys keep them apart.
    await updateSolr(url, [
      { id: 'p-1', title: 'The Hobbit', author: ['Tolkien, J. R. R.'] },
      { id: 'p-2', title: 'The hobbit, or, There and back again', author: ['Tolkien, J. R. R.'] },
    ]);
    const versionsOfFirst = async (path: string) => {
      const solr = createSolrIndex({ url, workIndex: { path }, versionCheckMs: 0 });
      try {
        return (await solr.countVersions(['p-1'])).get('p-1');
      } finally {
        await solr.close();
      }
    };
    const extended = newFile();
    await syncWorkIndex({ url, path: extended, keyProfile: 'extended' });
    t.is(await versionsOfFirst(extended), 2, 'read with the extended keys the file was made with');
    const refused = t.throws(() => createSolrIndex({ url, workIndex: { path: extended, keyProfile: 'vufind' } }), { instanceOf: InvalidOptionError });
    t.is(refused?.option, 'workIndex.keyProfile');
    t.is(refused?.message, `Invalid option "workIndex.keyProfile": ${extended} was made with the extended profile, not vufind: leave workIndex.keyProfile out to use the file's, or sync into a new file for vufind`);

    const run = capture();
    t.is(await runCli(['sync', '--solr', url, '--work-index', extended, '--no-progress'], run.io), 0, run.err());
    t.is(await versionsOfFirst(extended), 2, 'a sync without --key-profile kept the file\'s');
    const other = capture();
    t.is(await runCli(['sync', '--solr', url, '--work-index', extended, '--key-profile', 'vufind', '--no-progress'], other.io), 1);
    t.regex(other.err(), /made with the extended profile, not vufind/);

    const vufind = newFile();
    await syncWorkIndex({ url, path: vufind });
    t.is(await versionsOfFirst(vufind), 1, 'a file synced without a profile is vufind\'s, and read so');
  });

  test(`${label}: a walk stopped halfway resumes from its saved cursor; the CLI prints one summary line`, async (t) => {
    const url = await solrCore(target, 'work_index_resume', 'aggregator');
    await updateSolr(url, { delete: { query: '*:*' } });
    await updateSolr(url, Array.from({ length: 25 }, (_, k) => ({ id: `r-${String(k).padStart(2, '0')}`, title: `Title ${k % 5}`, author: ['Someone'] })));
    const path = newFile();
    let pages = 0;
    await t.throwsAsync(syncWorkIndex({ url, path, rows: 10, onProgress: () => { if (++pages === 2) throw new Error('stopped'); } }), { message: 'stopped' });
    const half = openWorkIndex({ path, keysOf: () => [] });
    t.is(half.count(), 20, 'the pages written before the stop are there, whole');
    half.close();
    let err = '';
    let out = '';
    const terminal = { stdout: { write: (text: string) => (out += text) }, stderr: { isTTY: true, columns: 100, write: (text: string) => (err += text) } };
    t.is(await runCli(['sync', '--solr', url, '--work-index', path, '--rows', '10'], terminal), 0, err);
    t.regex(out, /^walk: 5 documents in .*; 0 removed; .* holds 25 of the core's 25\n$/);
    // The loader's bar (src/cli/progressBar.ts), named by the phase, counting the resumed walk from where it stood; cleared at the end.
    t.regex(err, /^(\r\x1b\[2Kwalk \[#+\] 100% document 25 {2}0 documents\/s)+\r\x1b\[2K$/);
    const solr = createSolrIndex({ url, workIndex: { path }, versionCheckMs: 0 });
    t.teardown(() => solr.close());
    t.is((await solr.countVersions(['r-00'])).get('r-00'), 5);
    const again = capture();
    t.is(await runCli(['sync', '--solr', url, '--work-index', path, '--key-profile', 'extended'], again.io), 1);
    t.regex(again.err(), /made with the vufind profile/);
  });

  test(`${label}: keepWorkIndexInStep syncs at its interval inside the process, and an added document is listed after the next run`, async (t) => {
    const url = await solrCore(target, 'work_index_interval', 'aggregator');
    await updateSolr(url, { delete: { query: '*:*' } });
    await updateSolr(url, [{ id: 'i-1', title: 'Interval', author: ['Someone'] }]);
    const path = newFile();
    const runs: WorkIndexSyncSummary[] = [];
    const keeper = keepWorkIndexInStep({ url, path, intervalMs: 1000, onRun: (summary) => runs.push(summary), onError: (error) => t.fail(String(error)) });
    t.teardown(() => keeper.stop());
    // The keeper's timer does not hold the process open (a server's listening socket does), so the test waits on its own.
    const until = async (done: () => boolean) => {
      for (let waited = 0; !done(); waited += 100) {
        if (waited > 30_000) throw new Error(`no such run after 30 s: ${JSON.stringify(runs.at(-1))}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    await until(() => runs.length > 0);
    t.like(runs[0], { mode: 'walk', held: 1 });
    const solr = createSolrIndex({ url, workIndex: { path } });
    t.teardown(() => solr.close());
    await updateSolr(url, [{ id: 'i-2', title: 'Interval', author: ['Someone'] }]);
    await until(() => runs.at(-1)?.held === 2);
    t.is((await solr.countVersions(['i-1'])).get('i-1'), 2);
    t.like(runs.at(-1), { mode: 'changes', fetched: 1 });
  });

  test(`${label}: a work index made before facet values were kept is read by the whole-work request; its next sync fills them in, and then the same facets come with one request for the page's records`, async (t) => {
    const url = await solrCore(target, 'work_index_facet_values', 'vufind');
    await updateSolr(url, { delete: { query: '*:*' } });
    const fixture = JSON.parse(readFileSync(new URL('../../fixtures/work-with-every-facet-differing.solr.json', import.meta.url), 'utf8')) as Array<Record<string, unknown>>;
    await updateSolr(url, fixture);
    const path = newFile();
    await syncWorkIndex({ url, path });
    // The layout before 0.2.0: no facet tables, no state saying the values are in.
    const old = new Database(path);
    old.exec("DROP TABLE document_facets; DROP TABLE facet_values; DELETE FROM state WHERE name = 'facet_fields';");
    old.close();
    const asked: string[] = [];
    const answer = async () => {
      const solr = createSolrIndex({ url, workIndex: { path }, versionCheckMs: 0, logger: { debug: (message) => asked.push(message) } });
      try {
        const record = await solr.getRecord('facets:01');
        asked.length = 0;
        const queries = [
          { order: 'last-indexed', offset: 0, limit: 3, facets: true },
          { order: 'relevance', offset: 2, limit: 3, facets: true, filters: [{ field: 'format', value: 'Book' }] },
        ] as const;
        return await Promise.all(queries.map((query) => solr.findVersions({ workKeys: record!.workKeys, ...query })));
      } finally {
        await solr.close();
      }
    };
    const before = await answer();
    t.is(before[0]!.unfilteredTotal, fixture.length);
    t.true(asked.every((line) => / 7 ids, .*whole work/.test(line)), asked.join('\n'));
    const phases = new Set<string>();
    await syncWorkIndex({ url, path, onProgress: (progress) => phases.add(progress.phase) });
    t.true(phases.has('facets'), 'the sync walked the core for the facet values');
    asked.length = 0;
    t.deepEqual(await answer(), before);
    t.is(asked.length, 2);
    t.true(asked.every((line) => /findVersions\(work index, [0-3] ids?, facets from the file\)/.test(line)), asked.join('\n'));
    const synced = openWorkIndex({ path, keysOf: () => [] });
    t.truthy(synced.state('facet_fields'), 'the file says its values are in');
    synced.close();
  });

  test(`${label}: through listVersions, an answer asks Solr once when the record's work fits a page (its documents come with the record), twice when larger`, async (t) => {
    const url = await solrCore(target, 'work_index_requests', 'vufind');
    await updateSolr(url, { delete: { query: '*:*' } });
    const fixture = JSON.parse(readFileSync(new URL('../../fixtures/work-with-every-facet-differing.solr.json', import.meta.url), 'utf8')) as Array<Record<string, unknown>>;
    const large = Array.from({ length: 60 }, (_, k) => ({ ...fixture[k % fixture.length], id: `large:${String(k).padStart(2, '0')}`, title: 'Sagarana' }));
    await updateSolr(url, [...fixture, ...large]);
    const path = newFile();
    await syncWorkIndex({ url, path });
    const asked: string[] = [];
    const withFile = createSolrIndex({ url, workIndex: { path }, versionCheckMs: 0, logger: { debug: (text) => asked.push(text) } });
    t.teardown(() => withFile.close());
    // The same index without findVersionsOf: every answer by getRecord, then findVersions by keys.
    const byKeys = { ...withFile, getRecord: (id: string) => withFile.getRecord(id), findVersions: (query: Parameters<typeof withFile.findVersions>[0]) => withFile.findVersions(query), findVersionsOf: undefined };
    for (const [id, requests] of [['facets:03', 1], ['large:07', 2]] as const) {
      for (const view of ['rss', 'html'] as const) {
        asked.length = 0;
        const answer = await listVersions(withFile, { id, view, page: 1 });
        t.is(asked.length, requests, `${id} ${view}: ${asked.join(' / ')}`);
        t.deepEqual(answer, await listVersions(byKeys, { id, view, page: 1 }), `${id} ${view}`);
      }
    }
  });
}
