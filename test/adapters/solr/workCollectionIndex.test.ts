/**
 * The Solr adapter answering versions from a work collection (createSolrIndex({ url, workCollection: { url } }),
 * docs/solr.md "The work collection"), on a real SolrCloud of two nodes (tools/solr/start.sh): the
 * catalogue as an aggregator's collection without keys and the work collection, each of two shards with a
 * replica of each shard on each node, the work collection filled by syncWorkCollection. On it:
 * - the shared behaviour suite (test/adapters/indexBehaviourSuite.ts) passes;
 * - every record of a fixture written for it (editions and translations of a few works, a record without
 *   keys, awkward ids, a work of more than 50 records, formats, languages, institutions and buildings to
 *   facet) gets, under both key profiles (a work collection each), the answers the embedded index gives
 *   for the same records keyed with the same profile: through listVersions, the feed and the page, a sort
 *   on a record field, filters, later pages; and the same countVersions;
 * - an answer built afresh asks Solr at most 3 times (the adapter logs one debug line per request);
 * - the catalogue's documents (every stored field and `_version_`, on every replica) are as they were
 *   before the syncs and answers;
 * - a work collection that does not answer (a loopback port that accepts and never answers) gives
 *   IndexUnavailableError within the adapter's deadline, and the plugin's 503 page.
 * Last, on a SolrCloud of the test's own (test/support/ownSolrCloud.ts; the shared one's nodes are never
 * stopped), the answers for every record of a small fixture are the same with one of its two nodes stopped,
 * and again once it is started.
 * Each part is skipped, saying so, without what it needs.
 */
import test, { type ExecutionContext } from 'ava';
import { createServer as createTcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { IndexUnavailableError } from '../../../src/errors.js';
import { createSolrIndex } from '../../../src/adapters/solr/solrIndex.js';
import { createWorkCollection, deleteWorkCollection, workCollectionShape } from '../../../src/adapters/solr/workCollection/workCollectionAdmin.js';
import { syncWorkCollection } from '../../../src/adapters/solr/workCollection/workCollectionSync.js';
import { openEmbeddedIndex } from '../../../src/entries/sqlite.js';
import { listVersions, type VersionsRequest } from '../../../src/versions/listVersions.js';
import type { CatalogIndex } from '../../../src/ports.js';
import { keysOf } from '../../../src/work-keys/storedDocumentKeys.js';
import type { WorkKeyProfileName } from '../../../src/work-keys/workKeyProfiles.js';
import { comparableVersions, indexBehaviourSuite } from '../indexBehaviourSuite.js';
import { solrCore, updateSolr, type SolrTarget } from '../../support/realSolr.js';
import { solrLauncher, startOwnSolrCloud } from '../../support/ownSolrCloud.js';
import { hostFor } from '../../support/testHost.js';

type Stored = Record<string, unknown> & { id: string };

const at = (day: number, second = 0) => new Date(Date.UTC(2025, 2, day, 12, 0, second)).toISOString();

/**
 * The fixture: stored documents of an aggregator's catalogue (no keys), each with its `last_indexed` (some
 * equal, so that the feed's id tie-break shows), named after what each is there for.
 */
function fixtureDocuments(): Stored[] {
  const machado = ['Assis, Machado de'];
  const small: Stored[] = [
    // Editions and a translation of one work, awkward ids among them (quotes, backslashes, a comma, a space, +, &, #, Cyrillic).
    { id: 'dom-casmurro-1899', title: 'Dom Casmurro', author: machado, format: ['Book'], language: ['Portuguese'], publishDate: ['1899'], institution: ['Biblioteca Nacional'], last_indexed: at(1) },
    { id: 'dom-casmurro-1997 large print', title: 'Dom Casmurro', author: machado, format: ['Book', 'Large print'], language: ['Portuguese'], publishDate: ['c1997'], building: ['Anexo'], last_indexed: at(2) },
    { id: 'dom-casmurro, translation', title: 'Dom Casmurro', author: machado, format: ['eBook'], language: ['English'], publishDate: ['[1953?]'], last_indexed: at(2) },
    { id: 'id with "quotes" and \\backslash\\', title: 'Dom Casmurro', author: machado, format: ['Book'], language: ['Français'], publishDate: ['1936'], last_indexed: at(3) },
    { id: 'oai:repo.example:123/456 x+y&z#1', title: 'Dom Casmurro', author: machado, format: ['Thesis'], language: ['Ελληνικά'], last_indexed: at(3) },
    { id: 'ключ-домкасмурро', title: 'Dom Casmurro', author: machado, format: ['Book'], language: ['Русский'], publishDate: ['2010'], last_indexed: at(4) },
    // A translation found by its uniform title.
    { id: 'memorias-1881', title: 'Memórias póstumas de Brás Cubas', author: machado, format: ['Book'], language: ['Portuguese'], publishDate: ['1881'], last_indexed: at(5) },
    { id: 'epitaph-1952', title: 'Epitaph of a small winner', title_uniform: ['Memórias póstumas de Brás Cubas'], author: machado, format: ['Book'], language: ['English'], publishDate: ['1952'], last_indexed: at(6) },
    // A subtitle: the extended profile groups it with the plain title, VuFind's keys keep them apart.
    { id: 'hobbit-1937', title: 'The Hobbit', author: ['Tolkien, J. R. R.'], format: ['Book'], language: ['English'], publishDate: ['1937'], last_indexed: at(7) },
    { id: 'hobbit-there-and-back', title: 'The hobbit, or, There and back again', author: ['Tolkien, J. R. R.'], format: ['Book'], language: ['English'], publishDate: ['1966'], last_indexed: at(7) },
    { id: 'hobbit-2012', title: 'The hobbit', author: ['Tolkien, J.R.R.'], format: ['eBook', 'Book'], language: ['English', 'Portuguese'], publishDate: ['2012'], last_indexed: at(8) },
    // A title alone, and one work of two authors.
    { id: 'anonymous-lazarillo-1554', title: 'La vida de Lazarillo de Tormes', format: ['Book'], language: ['Spanish'], publishDate: ['1554'], last_indexed: at(9) },
    { id: 'anonymous-lazarillo-2004', title: 'La vida de Lazarillo de Tormes', format: ['Book'], language: ['Spanish'], publishDate: ['2004'], last_indexed: at(9) },
    { id: 'coauthored-1', title: 'Educação ambiental', author: ['Silva, Ana', 'Souza, Bia'], format: ['Thesis'], language: ['Portuguese'], institution: ['USP'], publishDate: ['2019'], last_indexed: at(10) },
    { id: 'coauthored-2', title: 'Educação ambiental', author: ['Souza, Bia'], author2: ['Silva, Ana'], format: ['Article'], language: ['Portuguese'], institution: ['UFRJ'], publishDate: ['2020'], last_indexed: at(11) },
    // A work of one record, and a record without keys (no title).
    { id: 'alone', title: 'Only one of its kind', author: ['Nobody, N.'], format: ['Map'], last_indexed: at(12) },
    { id: 'thesis-without-title', format: ['Thesis'], language: ['Portuguese'], institution: ['USP'], last_indexed: at(13) },
  ];
  // A work of 56 records (over a feed page of 50 and over two pages of 20): formats, languages and 35
  // institutions (over the 30 values a facet lists), years repeated, order times with ties.
  const large: Stored[] = Array.from({ length: 56 }, (_, k) => ({
    id: `sertao-${String(k).padStart(2, '0')}`,
    title: k % 9 === 0 ? 'Grande sertão: veredas' : 'Grande sertão : veredas',
    author: ['Rosa, João Guimarães'],
    format: k % 5 === 0 ? ['eBook'] : k % 7 === 0 ? ['Book', 'Large print'] : ['Book'],
    language: [['Portuguese', 'English', 'Deutsch', 'Español', 'Français'][k % 5]!],
    institution: [`Biblioteca ${String.fromCharCode(65 + (k % 35))}${k % 35 > 25 ? 'ª' : ''}`],
    ...(k % 4 === 0 ? { building: ['Depósito'] } : {}),
    ...(k % 11 === 3 ? {} : { publishDate: [String(1956 + (k % 13))] }),
    last_indexed: at(14 + (k % 10), k % 3),
  }));
  return [...small, ...large];
}

/** The requests each record is answered for: both views, later pages, a record-field sort, filters. */
const REQUESTS: ReadonlyArray<Omit<VersionsRequest, 'id'>> = [
  { view: 'rss', page: 1 },
  { view: 'rss', page: 2 },
  { view: 'html', page: 1 },
  { view: 'html', page: 2 },
  { view: 'html', page: 1, pageOrder: 'year-desc' },
  { view: 'html', page: 2, pageOrder: 'title' },
  { view: 'html', page: 1, pageOrder: 'author' },
  { view: 'html', page: 1, filters: [{ field: 'format', value: 'Book' }] },
  { view: 'html', page: 2, pageOrder: 'year-asc', filters: [{ field: 'language', value: 'Portuguese' }] },
  { view: 'rss', page: 1, filters: [{ field: 'institution', value: 'USP' }, { field: 'format', value: 'Thesis' }] },
];

const describe = (request: Omit<VersionsRequest, 'id'>) => JSON.stringify(request);

/** What listVersions answered, or the error's code: the same for both indexes either way. */
async function answerOf(index: CatalogIndex, request: VersionsRequest): Promise<unknown> {
  try {
    const { record, versions } = await listVersions(index, request);
    // The feed asks without version keys (versionsQueryOf): an index may list versions with or without them.
    return { record, versions: comparableVersions(versions, request.view === 'html') };
  } catch (error) {
    return { error: (error as { code?: string }).code ?? String(error) };
  }
}

/** The documents of every replica core of a collection, read from each replica alone (`distrib=false`), as Solr's answer text. */
async function replicaDocuments(node: string, collection: string): Promise<Map<string, string>> {
  const status = await (await fetch(`${node}/admin/collections?action=CLUSTERSTATUS&collection=${collection}&wt=json`)).json() as {
    cluster: { collections: Record<string, { shards: Record<string, { replicas: Record<string, { core: string; base_url: string }> }> }> };
  };
  const out = new Map<string, string>();
  for (const shard of Object.values(status.cluster.collections[collection]!.shards)) {
    for (const replica of Object.values(shard.replicas)) {
      const response = await fetch(`${replica.base_url}/${replica.core}/select?q=*:*&distrib=false&sort=id%20asc&rows=10000&fl=*,_version_&wt=json&omitHeader=true`);
      out.set(replica.core, await response.text());
    }
  }
  return out;
}

/** A work collection of 2 shards × 2 replicas named `name` on the node, made afresh (one left by a stopped run is removed). */
async function freshWorkCollection(node: string, name: string): Promise<string> {
  const list = await (await fetch(`${node}/admin/collections?action=LIST&wt=json`)).json() as { collections: string[] };
  if (list.collections.includes(name)) await deleteWorkCollection({ solr: node, name });
  return (await createWorkCollection({ solr: node, name, shards: 2, replicas: 2 })).url;
}

/** Each shard of the collection has a replica on each of two nodes. */
async function assertSpread(t: ExecutionContext, node: string, name: string): Promise<void> {
  const shape = await workCollectionShape({ solr: node, name });
  t.is(shape.shards.length, 2, name);
  for (const shard of shape.shards) {
    t.is(new Set(shard.replicas.map((replica) => replica.node)).size, 2, `${name} ${shard.name}: a replica on each node`);
    t.true(shard.replicas.every((replica) => replica.state === 'active'), `${name} ${shard.name}: ${JSON.stringify(shard.replicas)}`);
  }
}

/** The embedded index holding the same records keyed with the same keys the sync made from them. */
async function embeddedOf(t: ExecutionContext, documents: readonly Stored[], profile: WorkKeyProfileName) {
  const embedded = openEmbeddedIndex({ path: ':memory:', keyProfile: profile });
  t.teardown(() => embedded.close());
  await embedded.load(documents.map((document) => ({ ...document, work_keys_str_mv: [...new Set(keysOf(document, profile).keys)] })));
  return embedded;
}

const cloudUrl = process.env.SOLR_CLOUD_TEST_URL?.trim();
const nodeUrls = (process.env.SOLR_CLOUD_NODE_URLS ?? '').split(',').filter((url) => url !== '');
if (cloudUrl === undefined || cloudUrl === '') {
  test.skip('the work collection\'s answers on a real SolrCloud (no SOLR_CLOUD_TEST_URL: run tools/solr/start.sh, see docs/testing.md)', () => {});
} else if (nodeUrls.length < 2) {
  test.skip('the work collection\'s answers on a real two-node SolrCloud (SOLR_CLOUD_NODE_URLS names one node: run tools/solr/start.sh with SOLR_CLOUD_NODES=2, its default)', () => {});
} else {
  sharedClusterTests(cloudUrl.replace(/\/+$/, '').replace(/\/[^/]+$/, ''));
}

const launcher = solrLauncher();
if ('missing' in launcher) {
  test.skip(`the work collection's answers with one node of a SolrCloud stopped (${launcher.missing})`, () => {});
} else {
  test.serial('with one node of its own two-node SolrCloud stopped, the answers for every record keep coming, the same, from the replicas on the other; and after it is started again', async (t) => {
    t.timeout(600_000);
    const cloud = await startOwnSolrCloud({ nodes: 2 });
    t.teardown(() => cloud.close());
    const [a] = cloud.nodes;
    const target: SolrTarget = { name: 'solrcloud', base: a! };
    const catalogue = await solrCore(target, 'failover_catalogue', 'aggregator', 2);
    const works = await freshWorkCollection(a!, 'failover_works');
    for (const name of ['failover_catalogue', 'failover_works']) await assertSpread(t, a!, name);
    const documents = fixtureDocuments().filter((document) => !document.id.startsWith('sertao-') || document.id < 'sertao-25');
    await updateSolr(catalogue, documents);
    const synced = await syncWorkCollection({ url: catalogue, workCollection: { url: works } });
    t.is(synced.held, documents.length);

    const solr = createSolrIndex({ url: catalogue, workCollection: { url: works }, versionCheckMs: 0, timeoutMs: 10_000 });
    t.teardown(() => solr.close());
    const answers = async () => {
      const out: Record<string, unknown> = {};
      for (const { id } of documents) {
        // Every record's feed and page, first and second; the sorts and filters for a small work, the large one and a record without keys.
        const requests = ['dom-casmurro-1899', 'sertao-07', 'thesis-without-title'].includes(id) ? REQUESTS : REQUESTS.slice(0, 4);
        for (const request of requests) out[`${id} ${describe(request)}`] = await answerOf(solr, { id, ...request });
      }
      out.counts = Object.fromEntries(await solr.countVersions(documents.map(({ id }) => id)));
      return out;
    };
    const before = await answers();
    t.true(Object.values(before).every((answer) => !(typeof answer === 'object' && answer !== null && 'error' in answer)), 'every record is answered');
    await cloud.stopNode(1);
    const live = await (await fetch(`${a}/admin/collections?action=CLUSTERSTATUS&wt=json`)).json() as { cluster: { live_nodes: string[] } };
    t.is(live.cluster.live_nodes.length, 1, `one node left: ${live.cluster.live_nodes.join(', ')}`);
    t.deepEqual(await answers(), before, 'with node 1 stopped');
    await cloud.startNode(1);
    t.deepEqual(await answers(), before, 'with node 1 started again');
  });
}

function sharedClusterTests(base: string): void {
  const target: SolrTarget = { name: 'solrcloud', base };
  const created: string[] = [];
  test.after.always(async () => {
    for (const name of created) await deleteWorkCollection({ solr: base, name }).catch(() => undefined);
  });
  const workCollection = async (name: string) => {
    created.push(name);
    return freshWorkCollection(base, name);
  };

  indexBehaviourSuite(test, 'work collection solrcloud', async (documents) => {
    const catalogue = await solrCore(target, 'work_collection_suite_catalogue', 'aggregator', 2);
    await updateSolr(catalogue, { delete: { query: '*:*' } });
    // The catalogue holds no work keys; the suite's hand-written keys sit in a field the sync is told to read.
    await updateSolr(catalogue, documents.map(({ work_keys_str_mv: keys, ...rest }) => ({ ...rest, given_keys_str_mv: keys })));
    const works = await workCollection('work_collection_suite_works');
    const summary = await syncWorkCollection({ url: catalogue, workCollection: { url: works }, storedFields: { workKeys: ['given_keys_str_mv'] }, rows: 7 });
    if (summary.held !== documents.length) throw new Error(`sync held ${summary.held} of ${documents.length}`);
    return createSolrIndex({ url: catalogue, workCollection: { url: works } });
  }, { findVersionsOf: false, recordWithVersions: true });

  // The fixture's catalogue, its snapshot before any sync, and a work collection per profile: made once, in order.
  const documents = fixtureDocuments();
  let prepared: Promise<{ catalogue: string; before: Map<string, string>; works: Record<WorkKeyProfileName, string> }> | undefined;
  const fixtureCloud = () => (prepared ??= (async () => {
    const catalogue = await solrCore(target, 'work_collection_answers_catalogue', 'aggregator', 2);
    await updateSolr(catalogue, { delete: { query: '*:*' } });
    await updateSolr(catalogue, documents);
    const before = await replicaDocuments(base, 'work_collection_answers_catalogue');
    const works = {} as Record<WorkKeyProfileName, string>;
    for (const profile of ['vufind', 'extended'] as const) {
      works[profile] = await workCollection(`work_collection_answers_${profile}`);
      const summary = await syncWorkCollection({ url: catalogue, workCollection: { url: works[profile] }, keyProfile: profile, rows: 25 });
      if (summary.held !== documents.length || summary.refused !== 0) throw new Error(`${profile} sync: ${JSON.stringify(summary)}`);
    }
    return { catalogue, before, works };
  })());

  test.serial('the catalogue and the work collections are two shards with a replica of each on each node', async (t) => {
    t.timeout(300_000);
    await fixtureCloud();
    for (const name of ['work_collection_answers_catalogue', 'work_collection_answers_vufind', 'work_collection_answers_extended']) await assertSpread(t, base, name);
  });

  for (const profile of ['vufind', 'extended'] as const) {
    test.serial(`${profile} keys: every record's answers (feed, page, later pages, sorts, filters) and counts are the embedded index's`, async (t) => {
      t.timeout(300_000);
      const { catalogue, works } = await fixtureCloud();
      const embedded = await embeddedOf(t, documents, profile);
      const solr = createSolrIndex({ url: catalogue, workCollection: { url: works[profile] }, versionCheckMs: 0 });
      t.teardown(() => solr.close());
      for (const { id } of documents) {
        for (const request of REQUESTS) {
          t.deepEqual(await answerOf(solr, { id, ...request }), await answerOf(embedded, { id, ...request }), `${id} ${describe(request)}`);
        }
      }
      // The fixture shows what it is there for under this profile: a work past a page, editions grouped, a record alone.
      const counts = await embedded.countVersions(['sertao-00', 'dom-casmurro-1899', 'alone']);
      t.deepEqual([counts.get('sertao-00'), (counts.get('dom-casmurro-1899') ?? 0) >= 6, counts.get('alone')], [56, true, 1]);
      const ids = [...documents.map(({ id }) => id), 'no-such-record'];
      t.deepEqual(Object.fromEntries(await solr.countVersions(ids)), Object.fromEntries(await embedded.countVersions(ids)));
      t.deepEqual(await answerOf(solr, { id: 'no-such-record', view: 'html', page: 1 }), { error: 'RECORD_NOT_FOUND' });
    });
  }

  test.serial('an answer built afresh asks Solr at most 3 times: feed and page, small and large work, sorted and filtered', async (t) => {
    t.timeout(300_000);
    const { catalogue, works } = await fixtureCloud();
    const asked: string[] = [];
    const solr = createSolrIndex({ url: catalogue, workCollection: { url: works.vufind }, versionCheckMs: 0, logger: { debug: (line) => asked.push(line) } });
    t.teardown(() => solr.close());
    for (const id of ['dom-casmurro-1899', 'sertao-07', 'thesis-without-title']) {
      for (const request of REQUESTS) {
        asked.length = 0;
        const answer = await listVersions(solr, { id, ...request });
        t.is(answer.record.id, id);
        t.true(asked.length >= 1 && asked.length <= 3, `${id} ${describe(request)}: ${asked.length} Solr requests:\n${asked.join('\n')}`);
      }
    }
    asked.length = 0;
    await solr.countVersions(documents.map(({ id }) => id));
    t.true(asked.length >= 1 && asked.length <= 3, `countVersions: ${asked.length} Solr requests:\n${asked.join('\n')}`);
  });

  test.serial('the catalogue is untouched: every stored field and _version_ of every document, on every replica, as before the syncs and answers', async (t) => {
    t.timeout(300_000);
    const { catalogue, works, before } = await fixtureCloud();
    t.is(before.size, 4, 'two shards, two replicas each');
    for (const text of before.values()) t.regex(text, /"_version_":\d+/);
    // One more sync of each (changes: none), then the answers again, before the look.
    for (const profile of ['vufind', 'extended'] as const) {
      t.like(await syncWorkCollection({ url: catalogue, workCollection: { url: works[profile] } }), { mode: 'changes', fetched: 0, removed: 0 });
    }
    t.deepEqual(await replicaDocuments(base, 'work_collection_answers_catalogue'), before);
  });

  test.serial('a work collection that does not answer: IndexUnavailableError within the adapter\'s deadline, and the plugin\'s 503 page', async (t) => {
    const { catalogue } = await fixtureCloud();
    // A real loopback port that accepts connections and never answers.
    const held: Socket[] = [];
    const silent = createTcpServer((socket) => { held.push(socket); });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    t.teardown(() => {
      for (const socket of held) socket.destroy();
      silent.close();
    });
    const timeoutMs = 800;
    const solr = createSolrIndex({ url: catalogue, timeoutMs, workCollection: { url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/solr/works` }, versionCheckMs: 0 });
    t.teardown(() => solr.close());
    for (const request of [REQUESTS[0]!, REQUESTS[2]!, REQUESTS[4]!]) {
      const started = Date.now();
      await t.throwsAsync(listVersions(solr, { id: 'dom-casmurro-1899', ...request }), { instanceOf: IndexUnavailableError }, describe(request));
      const took = Date.now() - started;
      // It waited for the deadline (the silent port was asked), and not much longer.
      t.true(took >= timeoutMs - 50 && took < timeoutMs + 1000, `${describe(request)}: failed after ${took} ms`);
    }
    await t.throwsAsync(solr.countVersions(['dom-casmurro-1899']), { instanceOf: IndexUnavailableError });
    t.true(held.length >= 1, 'the adapter did connect to the silent port');

    const { request, logged } = hostFor(solr);
    for (const view of ['', '&view=rss']) {
      const started = Date.now();
      const response = await request.get(`/Search/Versions?id=dom-casmurro-1899${view}`);
      t.is(response.status, 503, view);
      t.true(Date.now() - started < timeoutMs + 1000, `the 503 after ${Date.now() - started} ms`);
    }
    t.true(logged.some((line) => line.level === 'error' && /INDEX_UNAVAILABLE/.test(line.message)));
  });
}
