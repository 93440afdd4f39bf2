/**
 * The work collection (docs/solr.md, "The work collection"): its configset declares the fields the code
 * names (workCollectionSchema.ts), `catalog-versions work-collection` refuses wrong command lines and says
 * when an unreachable node failed; and on a real SolrCloud of two nodes (tools/solr/start.sh) it creates a
 * collection of two shards with two replicas each, one on each node, with the schema's fields (answering
 * real-time get from docValues, refusing undeclared fields), refuses to make it twice or to delete a
 * collection that is not a work collection, and deletes it with its configset.
 * The real-cluster tests are skipped, saying so, without SOLR_CLOUD_TEST_URL, or with a one-node SolrCloud.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { runCli } from '../../../src/cli/catalogVersions.js';
import { WORK_COLLECTION_CONFIGSET, WORK_COLLECTION_FIELDS, WORK_COLLECTION_SCHEMA_NAME, WORK_COLLECTION_STATE_ID } from '../../../src/adapters/solr/workCollection/workCollectionSchema.js';
import { createWorkCollection, deleteWorkCollection, workCollectionShape } from '../../../src/adapters/solr/workCollection/workCollectionAdmin.js';
import { syncWorkCollection } from '../../../src/adapters/solr/workCollection/workCollectionSync.js';
import { keysOf } from '../../../src/work-keys/storedDocumentKeys.js';
import { solrCore, updateSolr } from '../../support/realSolr.js';
import { capture } from '../../support/commandRuns.js';

type SchemaField = { '@_name': string; '@_type': string; '@_multiValued'?: string };

test('the configset declares exactly the fields the code names, with their types, and no catch-all', (t) => {
  const xml = readFileSync(join(WORK_COLLECTION_CONFIGSET, 'conf', 'managed-schema.xml'), 'utf8');
  const schema = new XMLParser({ ignoreAttributes: false, isArray: (name) => ['field', 'fieldType', 'dynamicField'].includes(name) }).parse(xml).schema;
  t.is(schema['@_name'], WORK_COLLECTION_SCHEMA_NAME);
  t.is(schema.uniqueKey, 'id');
  t.is(schema.dynamicField, undefined);
  const multiValuedTypes = new Set((schema.fieldType as Array<Record<string, string>>).filter((type) => type['@_multiValued'] === 'true').map((type) => type['@_name']));
  const declared = Object.fromEntries((schema.field as SchemaField[]).filter((field) => field['@_name'] !== '_version_').map((field) => [field['@_name'], {
    type: field['@_type'], multiValued: field['@_multiValued'] === undefined ? multiValuedTypes.has(field['@_type']) : field['@_multiValued'] === 'true',
  }]));
  t.deepEqual(declared, { ...WORK_COLLECTION_FIELDS });
});

test('work-collection: --help says when to choose it; wrong command lines are usage errors (64)', async (t) => {
  const help = capture();
  t.is(await runCli(['work-collection', '--help'], help.io), 0);
  t.regex(help.out(), /several app servers/);
  t.regex(help.out(), /work-collection create --solr NODE_URL --name NAME \[--shards N\] \[--replicas M\]/);
  for (const [argv, says] of [
    [['work-collection'], 'work-collection needs create or delete'],
    [['work-collection', 'make', '--solr', 'http://127.0.0.1:1/solr', '--name', 'w'], 'work-collection needs create or delete, not "make"'],
    [['work-collection', 'create', '--name', 'w'], 'work-collection create needs --solr NODE_URL'],
    [['work-collection', 'create', '--solr', 'localhost:8983', '--name', 'w'], '--solr needs the http(s) URL of a Solr node'],
    [['work-collection', 'create', '--solr', 'http://127.0.0.1:1/solr'], 'work-collection create needs --name NAME'],
    [['work-collection', 'create', '--solr', 'http://127.0.0.1:1/solr', '--name', 'w', '--shards', '0'], '--shards needs a whole number of 1 or more'],
    [['work-collection', 'delete', '--solr', 'http://127.0.0.1:1/solr', '--name', 'w', '--replicas', '2'], '--shards and --replicas apply to create only'],
  ] as const) {
    const run = capture();
    t.is(await runCli([...argv], run.io), 64, argv.join(' '));
    t.true(run.err().includes(`catalog-versions: ${says}`), run.err());
    t.true(run.err().includes('Usage: catalog-versions work-collection create'), 'the usage follows');
  }
});

test('work-collection: a bad name is refused before any request, an unreachable node fails (1) naming it', async (t) => {
  const badName = capture();
  t.is(await runCli(['work-collection', 'create', '--solr', 'http://127.0.0.1:1/solr', '--name', 'my works'], badName.io), 1);
  t.regex(badName.err(), /Invalid option "name": must be a collection name .* not "my works" \[INVALID_OPTION\]/);
  const down = capture();
  t.is(await runCli(['work-collection', 'create', '--solr', 'http://127.0.0.1:1/solr', '--name', 'works'], down.io), 1);
  t.regex(down.err(), /^catalog-versions: work-collection create works: Solr http:\/\/127\.0\.0\.1:1\/solr: collection list of work collection "works": .* \[INDEX_UNAVAILABLE\]\n$/);
});

const cloudUrl = process.env.SOLR_CLOUD_TEST_URL?.trim();
const nodeUrls = (process.env.SOLR_CLOUD_NODE_URLS ?? '').split(',').filter((url) => url !== '');
if (cloudUrl === undefined || cloudUrl === '') {
  test.skip('work collection on a real SolrCloud (no SOLR_CLOUD_TEST_URL: run tools/solr/start.sh, see docs/testing.md)', () => {});
} else if (nodeUrls.length === 1) {
  test.skip('work collection on a real two-node SolrCloud (SOLR_CLOUD_NODE_URLS names one node: run tools/solr/start.sh with SOLR_CLOUD_NODES=2, its default)', () => {});
} else {
  const base = cloudUrl.replace(/\/+$/, '').replace(/\/[^/]+$/, '');
  const name = 'work_collection_admin';
  const ask = async (url: string, init?: RequestInit): Promise<Record<string, unknown>> => {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(120_000) });
    const text = await response.text();
    return { httpStatus: response.status, ...(JSON.parse(text) as Record<string, unknown>) };
  };
  const collections = async () => (await ask(`${base}/admin/collections?action=LIST&wt=json`)).collections as string[];
  const configSets = async () => (await ask(`${base}/admin/configs?action=LIST&wt=json`)).configSets as string[];

  test.serial('work-collection create makes 2 shards × 2 replicas on two nodes with the schema\'s fields; delete removes it and its configset', async (t) => {
    t.timeout(300_000);
    // A collection left by a stopped run is removed first.
    if ((await collections()).includes(name)) await ask(`${base}/admin/collections?action=DELETE&name=${name}&wt=json`);

    const created = capture();
    t.is(await runCli(['work-collection', 'create', '--solr', base, '--name', name, '--shards', '2', '--replicas', '2'], created.io), 0, created.err());
    t.regex(created.out(), new RegExp(`^created work collection ${name} \\(configset catalog-versions-work-${name}\\): 2 shards × 2 replicas; shard1 on .*; its URL: ${base.replace(/[.]/g, '\\.')}/${name}\\n$`));
    t.true((await configSets()).includes(`catalog-versions-work-${name}`));

    const shape = await workCollectionShape({ solr: base, name });
    t.deepEqual(shape.shards.map((shard) => shard.name).sort(), ['shard1', 'shard2']);
    const live = ((await ask(`${base}/admin/collections?action=CLUSTERSTATUS&wt=json`)).cluster as { live_nodes: string[] }).live_nodes;
    t.true(live.length >= 2, `a SolrCloud of two nodes or more (live: ${live.join(', ')})`);
    for (const shard of shape.shards) {
      t.is(shard.replicas.length, 2, shard.name);
      t.true(shard.replicas.every((replica) => replica.state === 'active'), JSON.stringify(shard.replicas));
      t.is(new Set(shard.replicas.map((replica) => replica.node)).size, 2, `${shard.name}'s replicas are on two nodes`);
      t.is(shard.replicas.filter((replica) => replica.leader).length, 1, `${shard.name} has one leader`);
    }

    const schema = await ask(`${shape.url}/schema?wt=json`);
    const fields = (schema.schema as { name: string; fields: Array<{ name: string; type: string; multiValued?: boolean }>; dynamicFields: unknown[] });
    t.is(fields.name, WORK_COLLECTION_SCHEMA_NAME);
    t.deepEqual(fields.dynamicFields, []);
    for (const [field, declared] of Object.entries(WORK_COLLECTION_FIELDS)) {
      t.is(fields.fields.find((found) => found.name === field)?.type, declared.type, field);
    }

    // What the answers will read: a document's keys and values by real-time get (from docValues), through the other node too.
    const post = (body: unknown) => ask(`${shape.url}/update?commit=true&wt=json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    t.is((await post([
      { id: 'capitu-1899', work_keys: ['AT assismachadode domcasmurro', 'T domcasmurro'], ordered_at: 1_700_000_000_000, source_version: '1790000000000000001', format: ['Book'], language: ['Portuguese'], publishDate: ['1899'] },
      { id: WORK_COLLECTION_STATE_ID, state: JSON.stringify({ key_profile: 'vufind' }) },
    ])).httpStatus, 200);
    for (const node of nodeUrls.length > 0 ? nodeUrls : [base]) {
      const got = await ask(`${node}/${name}/get?ids=capitu-1899,${encodeURIComponent(WORK_COLLECTION_STATE_ID)}&wt=json`);
      const docs = (got.response as { docs: Array<Record<string, unknown>> }).docs;
      const record = docs.find((doc) => doc.id === 'capitu-1899');
      t.deepEqual(record?.work_keys, ['AT assismachadode domcasmurro', 'T domcasmurro'], node);
      t.is(record?.source_version, 1790000000000000001, node);
      t.deepEqual(record?.publishDate, ['1899'], node);
      t.is(docs.find((doc) => doc.id === WORK_COLLECTION_STATE_ID)?.state, '{"key_profile":"vufind"}', node);
    }
    const members = await ask(`${shape.url}/select?q=${encodeURIComponent('{!terms f=work_keys}T domcasmurro')}&fl=id&wt=json`);
    t.deepEqual((members.response as { docs: unknown[] }).docs, [{ id: 'capitu-1899' }]);
    const undeclared = await post([{ id: 'x', title: 'Dom Casmurro' }]);
    t.is(undeclared.httpStatus, 400);
    t.regex(String((undeclared.error as { msg: string }).msg), /unknown field 'title'/);

    const again = capture();
    t.is(await runCli(['work-collection', 'create', '--solr', base, '--name', name], again.io), 1);
    t.regex(again.err(), /a collection of that name exists already on .*\[WORK_COLLECTION_REFUSED\]\n$/);

    const catalogue = cloudUrl.replace(/\/+$/, '').replace(/.*\//, '');
    const wrong = capture();
    t.is(await runCli(['work-collection', 'delete', '--solr', base, '--name', catalogue], wrong.io), 1);
    t.regex(wrong.err(), new RegExp(`Work collection "${catalogue}": is not a work collection \\(its schema is .*\\): work-collection delete deletes no other collection \\[WORK_COLLECTION_REFUSED\\]`));
    t.true((await collections()).includes(catalogue), 'the catalogue\'s collection is still there');

    const deleted = capture();
    t.is(await runCli(['work-collection', 'delete', '--solr', base, '--name', name], deleted.io), 0, deleted.err());
    t.is(deleted.out(), `deleted work collection ${name} and its configset catalog-versions-work-${name}\n`);
    t.false((await collections()).includes(name));
    t.false((await configSets()).includes(`catalog-versions-work-${name}`));

    const gone = capture();
    t.is(await runCli(['work-collection', 'delete', '--solr', base, '--name', name], gone.io), 1);
    t.regex(gone.err(), /there is no collection of that name on .*\[WORK_COLLECTION_REFUSED\]/);
  });

  test.serial('sync into the work collection: a walk stopped after a page resumes; every document has its keys and facet values; the profile is recorded and another refused; changes and deletions follow; the core is only read', async (t) => {
    t.timeout(300_000);
    const collectionName = 'work_collection_sync';
    if ((await collections()).includes(collectionName)) await deleteWorkCollection({ solr: base, name: collectionName });
    const { url: workUrl } = await createWorkCollection({ solr: base, name: collectionName, shards: 2, replicas: 2 });
    t.teardown(() => deleteWorkCollection({ solr: base, name: collectionName }).then(() => undefined));
    const core = await solrCore({ name: 'solrcloud', base }, 'work_collection_source', 'aggregator');
    await updateSolr(core, { delete: { query: '*:*' } });
    await updateSolr(core, [
      { id: 'dom-casmurro-1899', title: 'Dom Casmurro', author: ['Assis, Machado de'], format: ['Book'], language: ['Portuguese'], publishDate: ['1899'] },
      { id: 'dom-casmurro-1997', title: 'Dom Casmurro', author: ['Assis, Machado de'], format: ['Book', 'Large print'], language: ['Portuguese'], publishDate: ['c1997'] },
      { id: 'dom-casmurro-translation', title: 'Dom Casmurro', author: ['Assis, Machado de'], format: ['eBook'], language: ['English'] },
      { id: 'memorias-postumas', title: 'Memórias póstumas de Brás Cubas', author: ['Assis, Machado de'], institution: ['Biblioteca Nacional'] },
      { id: 'thesis-without-title', format: ['Thesis'] },
    ]);
    const coreDocuments = async () => ((await ask(`${core}/select?q=*:*&fl=*,_version_&sort=id%20asc&rows=100&wt=json`)).response as { docs: Array<Record<string, unknown>> }).docs;
    const before = await coreDocuments();

    let pages = 0;
    await t.throwsAsync(syncWorkCollection({ url: core, workCollection: { url: workUrl }, rows: 2, onProgress: () => { if (++pages === 1) throw new Error('stopped'); } }), { message: 'stopped' });
    const walked = await syncWorkCollection({ url: core, workCollection: { url: workUrl }, rows: 2 });
    t.like(walked, { mode: 'walk', keyProfile: 'vufind', fetched: 3, held: 5, inCore: 5, removed: 0, refused: 0, swept: false });
    t.deepEqual(walked.unkeyable, { 'no stored title (and no fullrecord)': 1 });
    t.deepEqual(await coreDocuments(), before, 'the core\'s documents, _version_ included, are as they were');

    const inCollection = async (ids: string[]) => {
      const got = await ask(`${workUrl}/get?ids=${ids.map(encodeURIComponent).join(',')}&wt=json`);
      return new Map((got.response as { docs: Array<Record<string, unknown>> }).docs.map((doc) => [String(doc.id), doc]));
    };
    const held = await inCollection(before.map((doc) => String(doc.id)));
    for (const doc of before) {
      const id = String(doc.id);
      t.deepEqual([...(held.get(id)?.work_keys as string[] | undefined ?? [])].sort(), [...new Set(keysOf(doc, 'vufind').keys)].sort(), `${id}: the vufind keys of its stored fields`);
    }
    t.deepEqual(held.get('dom-casmurro-1997')?.format, ['Book', 'Large print']);
    t.deepEqual(held.get('dom-casmurro-1997')?.publishDate, ['1997'], 'the year, as the page counts it');
    t.deepEqual(held.get('memorias-postumas')?.institution, ['Biblioteca Nacional']);
    const members = async (id: string) => {
      const keys = held.get(id)?.work_keys as string[];
      const found = await ask(`${workUrl}/select?q=${encodeURIComponent(`{!terms f=work_keys}${keys.join(',')}`)}&fl=id&sort=id%20asc&rows=50&wt=json`);
      return (found.response as { docs: Array<{ id: string }> }).docs.map((doc) => doc.id);
    };
    t.deepEqual(await members('dom-casmurro-1899'), ['dom-casmurro-1899', 'dom-casmurro-1997', 'dom-casmurro-translation']);
    const state = JSON.parse(String((await inCollection([WORK_COLLECTION_STATE_ID])).get(WORK_COLLECTION_STATE_ID)?.state)) as Record<string, unknown>;
    t.like(state, { key_profile: 'vufind', core, walk_done: true });

    const refused = await t.throwsAsync(syncWorkCollection({ url: core, workCollection: { url: workUrl }, keyProfile: 'extended' }));
    t.regex(refused?.message ?? '', /is keyed with the vufind profile, not extended: leave keyProfile \(--key-profile\) out/);
    const wrongCore = await t.throwsAsync(syncWorkCollection({ url: cloudUrl, workCollection: { url: workUrl } }));
    t.regex(wrongCore?.message ?? '', /is the work collection of .*work_collection_source, not of/);

    await updateSolr(core, [{ id: 'memorias-postumas', title: 'Dom Casmurro', author: ['Assis, Machado de'] }, { id: 'dom-casmurro-2008', title: 'Dom Casmurro', author: ['Assis, Machado de'], language: ['Spanish'] }]);
    await updateSolr(core, { delete: { id: 'dom-casmurro-translation' } });
    const changed = await syncWorkCollection({ url: core, workCollection: { url: workUrl } });
    t.like(changed, { mode: 'changes', fetched: 2, removed: 1, swept: true, held: 5, inCore: 5 });
    t.deepEqual(await members('dom-casmurro-1899'), ['dom-casmurro-1899', 'dom-casmurro-1997', 'dom-casmurro-2008', 'memorias-postumas']);
    const quiet = capture();
    t.is(await runCli(['sync', '--solr', core, '--work-collection', workUrl, '--no-progress'], quiet.io), 0, quiet.err());
    t.regex(quiet.out(), new RegExp(`^changes: 0 documents in .*; 0 removed; ${workUrl.replace(/[.]/g, '\\.')} holds 5 of the core's 5\n$`));
    const both = capture();
    t.is(await runCli(['sync', '--solr', core, '--work-collection', workUrl, '--work-index', 'w.sqlite'], both.io), 64);
    t.regex(both.err(), /give --work-index FILE or --work-collection URL, not both/);
    const other = capture();
    t.is(await runCli(['sync', '--solr', core, '--work-collection', workUrl, '--key-profile', 'extended'], other.io), 1);
    t.regex(other.err(), /keyed with the vufind profile, not extended.*\[INVALID_OPTION\]/);
  });
}
