/**
 * `sync --work-collection` beyond what workCollection.test.ts covers: grouping decisions (`--grouping FILE`,
 * workCollectionGrouping.ts) rewrite the collection's keys (a merge gives two unrelated records a shared
 * `GL` key, a split takes a record's keys away), a changed decisions file re-keys the records it no longer
 * names though the core did not change them, a run without decisions on a curated collection is refused,
 * and the core is only read; a walk stopped while pages are being written records exactly the pages that
 * were written, so the next run resumes with no gap; and the command line's usage errors. The real-cluster
 * tests are skipped, saying so, without SOLR_CLOUD_TEST_URL.
 */
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/catalogVersions.js';
import { WORK_COLLECTION_STATE_ID } from '../../../src/adapters/solr/workCollection/workCollectionSchema.js';
import { createWorkCollection, deleteWorkCollection } from '../../../src/adapters/solr/workCollection/workCollectionAdmin.js';
import { syncWorkCollection } from '../../../src/adapters/solr/workCollection/workCollectionSync.js';
import { curationFileText } from '../../../src/work-keys/curation/curationFile.js';
import type { CurationDecision } from '../../../src/work-keys/curation/curationDecisions.js';
import { keysOf } from '../../../src/work-keys/storedDocumentKeys.js';
import { solrCore, updateSolr } from '../../support/realSolr.js';
import { capture } from '../../support/commandRuns.js';

const folder = mkdtempSync(join(tmpdir(), 'work-collection-sync-'));
test.after.always(() => rmSync(folder, { recursive: true, force: true }));

const decision = (id: string, action: 'merge' | 'split', records: string[]): CurationDecision => ({ id, action, records, by: 'cataloguer', at: '2026-12-07T10:00:00.000Z', note: `case ${id}` });
const decisionsFile = (name: string, decisions: CurationDecision[]) => {
  const path = join(folder, `${name}.json`);
  writeFileSync(path, curationFileText(decisions));
  return path;
};

test('sync: --grouping applies to --work-collection only; a missing file fails before any request; --help names it', async (t) => {
  const withFile = capture();
  t.is(await runCli(['sync', '--solr', 'http://127.0.0.1:1/solr/biblio', '--work-index', join(folder, 'w.sqlite'), '--grouping', join(folder, 'g.json')], withFile.io), 64);
  t.regex(withFile.err(), /catalog-versions: --grouping applies to --work-collection, not to --work-index/);
  t.regex(withFile.err(), /Usage: catalog-versions sync/);
  const empty = capture();
  t.is(await runCli(['sync', '--solr', 'http://127.0.0.1:1/solr/biblio', '--work-collection', 'http://127.0.0.1:1/solr/works', '--grouping', ''], empty.io), 64);
  t.regex(empty.err(), /--grouping needs the decisions FILE/);
  const missing = capture();
  t.is(await runCli(['sync', '--solr', 'http://127.0.0.1:1/solr/biblio', '--work-collection', 'http://127.0.0.1:1/solr/works', '--grouping', join(folder, 'no-such-decisions.json')], missing.io), 1);
  t.regex(missing.err(), /no-such-decisions\.json.*ENOENT|ENOENT.*no-such-decisions\.json/);
  t.notRegex(missing.err(), /127\.0\.0\.1:1\/solr\/works: work collection state/, 'no request was made');
  const notDecisions = capture();
  const wrong = join(folder, 'not-decisions.json');
  writeFileSync(wrong, '{"format":"something else","decisions":[]}');
  t.is(await runCli(['sync', '--solr', 'http://127.0.0.1:1/solr/biblio', '--work-collection', 'http://127.0.0.1:1/solr/works', '--grouping', wrong], notDecisions.io), 1);
  t.regex(notDecisions.err(), /not-decisions\.json.*not a grouping decisions file/);
  const help = capture();
  t.is(await runCli(['sync', '--help'], help.io), 0);
  t.regex(help.out(), /--grouping FILE {6}grouping decisions as `works export` writes them/);
});

const cloudUrl = process.env.SOLR_CLOUD_TEST_URL?.trim();
if (cloudUrl === undefined || cloudUrl === '') {
  test.skip('sync into a work collection with grouping decisions, stopped with pages in flight (no SOLR_CLOUD_TEST_URL: run tools/solr/start.sh, see docs/testing.md)', () => {});
} else {
  const base = cloudUrl.replace(/\/+$/, '').replace(/\/[^/]+$/, '');
  const ask = async (url: string): Promise<Record<string, unknown>> => (await (await fetch(url, { signal: AbortSignal.timeout(60_000) })).json()) as Record<string, unknown>;
  const freshCollection = async (t: { teardown(fn: () => Promise<void>): void }, name: string) => {
    await deleteWorkCollection({ solr: base, name }).catch(() => undefined);
    const { url } = await createWorkCollection({ solr: base, name, shards: 2, replicas: 2 });
    t.teardown(() => deleteWorkCollection({ solr: base, name }).then(() => undefined));
    return url;
  };
  /** The collection's documents of these ids by real-time get (no commit needed). */
  const held = async (workUrl: string, ids: string[]) => {
    const got = await ask(`${workUrl}/get?ids=${ids.map(encodeURIComponent).join(',')}&wt=json`);
    return new Map((got.response as { docs: Array<Record<string, unknown>> }).docs.map((doc) => [String(doc.id), doc]));
  };

  test.serial('sync --grouping: a merge joins two unrelated records, a split takes keys away, changed decisions re-key the records no longer named, none on a curated collection is refused; the core is only read', async (t) => {
    t.timeout(300_000);
    const workUrl = await freshCollection(t, 'work_collection_grouping');
    const core = await solrCore({ name: 'solrcloud', base }, 'work_collection_grouping_source', 'aggregator');
    await updateSolr(core, { delete: { query: '*:*' } });
    await updateSolr(core, [
      { id: 'quincas-borba-1891', title: 'Quincas Borba', author: ['Assis, Machado de'] },
      { id: 'o-alienista-1882', title: 'O alienista', author: ['Assis, Machado de'] },
      { id: 'memorias-postumas-1881', title: 'Memórias póstumas de Brás Cubas', author: ['Assis, Machado de'] },
      { id: 'dom-casmurro-1899', title: 'Dom Casmurro', author: ['Assis, Machado de'] },
      { id: 'dom-casmurro-1997', title: 'Dom Casmurro', author: ['Assis, Machado de'] },
    ]);
    const coreDocuments = async () => ((await ask(`${core}/select?q=*:*&fl=*,_version_&sort=id%20asc&rows=100&wt=json`)).response as { docs: Array<Record<string, unknown>> }).docs;
    const before = await coreDocuments();
    const ownKeys = new Map(before.map((doc) => [String(doc.id), [...new Set(keysOf(doc, 'vufind').keys)]]));
    const ids = [...ownKeys.keys()];
    const keysIn = async () => Object.fromEntries([...(await held(workUrl, ids))].map(([id, doc]) => [id, [...(doc.work_keys as string[] | undefined ?? [])].sort()]));
    const sorted = (keys: string[]) => [...keys].sort();

    const first = decisionsFile('merge-quincas-alienista-split-casmurro-1997', [
      decision('m1', 'merge', ['quincas-borba-1891', 'o-alienista-1882']), decision('s2', 'split', ['dom-casmurro-1997']),
    ]);
    const walked = capture();
    t.is(await runCli(['sync', '--solr', core, '--work-collection', workUrl, '--grouping', first, '--no-progress'], walked.io), 0, walked.err());
    t.regex(walked.out(), /^walk: 5 documents in .* holds 5 of the core's 5\n$/);
    let keys = await keysIn();
    t.deepEqual(keys['quincas-borba-1891'], sorted([...ownKeys.get('quincas-borba-1891')!, 'GL m1']));
    t.deepEqual(keys['o-alienista-1882'], sorted([...ownKeys.get('o-alienista-1882')!, 'GL m1']));
    t.deepEqual(keys['dom-casmurro-1997'], [], 'split and merged with nothing: no keys');
    t.deepEqual(keys['dom-casmurro-1899'], sorted(ownKeys.get('dom-casmurro-1899')!));
    const members = async (id: string) => {
      const found = await ask(`${workUrl}/select?q=${encodeURIComponent(`{!terms f=work_keys}${keys[id]!.join(',')}`)}&fl=id&sort=id%20asc&rows=50&wt=json`);
      return (found.response as { docs: Array<{ id: string }> }).docs.map((doc) => doc.id);
    };
    t.deepEqual(await members('quincas-borba-1891'), ['o-alienista-1882', 'quincas-borba-1891']);
    t.deepEqual(await members('dom-casmurro-1899'), ['dom-casmurro-1899']);

    const again = await syncWorkCollection({ url: core, workCollection: { url: workUrl }, decisions: [decision('m1', 'merge', ['quincas-borba-1891', 'o-alienista-1882']), decision('s2', 'split', ['dom-casmurro-1997'])] });
    t.like(again, { mode: 'changes', fetched: 0, regrouped: 0 }, 'the same decisions re-key nothing');

    // The core does not change; the decisions do: o-alienista and dom-casmurro-1997 are no longer named.
    const second = decisionsFile('merge-quincas-memorias', [decision('m1', 'merge', ['quincas-borba-1891', 'memorias-postumas-1881'])]);
    const changed = capture();
    t.is(await runCli(['sync', '--solr', core, '--work-collection', workUrl, '--grouping', second, '--no-progress'], changed.io), 0, changed.err());
    t.regex(changed.out(), /^changes: 4 documents in .*; 4 re-keyed because the grouping decisions changed\n$/);
    keys = await keysIn();
    t.deepEqual(keys['o-alienista-1882'], sorted(ownKeys.get('o-alienista-1882')!), 'no longer merged');
    t.deepEqual(keys['dom-casmurro-1997'], sorted(ownKeys.get('dom-casmurro-1997')!), 'no longer split');
    t.deepEqual(keys['memorias-postumas-1881'], sorted([...ownKeys.get('memorias-postumas-1881')!, 'GL m1']));
    t.deepEqual(await members('quincas-borba-1891'), ['memorias-postumas-1881', 'quincas-borba-1891']);
    t.deepEqual(await members('dom-casmurro-1899'), ['dom-casmurro-1899', 'dom-casmurro-1997']);
    const state = JSON.parse(String((await held(workUrl, [WORK_COLLECTION_STATE_ID])).get(WORK_COLLECTION_STATE_ID)?.state)) as { grouping: { records: string[] } };
    t.deepEqual(state.grouping.records, ['memorias-postumas-1881', 'quincas-borba-1891']);

    const without = capture();
    t.is(await runCli(['sync', '--solr', core, '--work-collection', workUrl, '--no-progress'], without.io), 1);
    t.regex(without.err(), /is kept with grouping decisions \(2 records named\): give them again \(--grouping FILE.*\[INVALID_OPTION\]\n$/);
    const none = capture();
    t.is(await runCli(['sync', '--solr', core, '--work-collection', workUrl, '--grouping', decisionsFile('no-decisions', []), '--no-progress'], none.io), 0, none.err());
    t.regex(none.out(), /2 re-keyed because the grouping decisions changed/);
    t.deepEqual(await keysIn(), Object.fromEntries(ids.map((id) => [id, sorted(ownKeys.get(id)!)])), 'every record has its own keys again');
    const quiet = capture();
    t.is(await runCli(['sync', '--solr', core, '--work-collection', workUrl, '--no-progress'], quiet.io), 0, 'no decisions recorded: none needed');
    t.deepEqual(await coreDocuments(), before, 'the core\'s documents, _version_ included, are as they were');
  });

  test.serial('sync stopped while pages are being written: the state records exactly the pages written, with no gap, and the next run takes the rest', async (t) => {
    t.timeout(300_000);
    const workUrl = await freshCollection(t, 'work_collection_in_flight');
    const core = await solrCore({ name: 'solrcloud', base }, 'work_collection_in_flight_source', 'aggregator');
    await updateSolr(core, { delete: { query: '*:*' } });
    const titles = ['Dom Casmurro', 'Quincas Borba', 'O alienista', 'Helena', 'Iaiá Garcia', 'Esaú e Jacó', 'Memorial de Aires', 'A mão e a luva'];
    await updateSolr(core, titles.map((title, k) => ({ id: `machado-${k}`, title, author: ['Assis, Machado de'] })));
    const ids = titles.map((_, k) => `machado-${k}`);

    let calls = 0;
    let doneAtStop = -1;
    await t.throwsAsync(syncWorkCollection({
      url: core, workCollection: { url: workUrl }, rows: 1,
      onProgress: (progress) => {
        if (++calls < 3) return;
        doneAtStop = progress.done;
        throw new Error('stopped');
      },
    }), { message: 'stopped' });
    const state = JSON.parse(String((await held(workUrl, [WORK_COLLECTION_STATE_ID])).get(WORK_COLLECTION_STATE_ID)?.state)) as { walk_done_count: number; walk_done?: boolean };
    const written = [...(await held(workUrl, ids)).keys()].sort();
    t.true(state.walk_done_count > doneAtStop, `the pages still being written when it stopped (${state.walk_done_count} recorded, ${doneAtStop} confirmed at the stop) were waited for and recorded`);
    t.deepEqual(written, ids.slice(0, state.walk_done_count), 'the records written are exactly the first pages recorded: no gap');
    t.not(state.walk_done, true);

    const resumed = await syncWorkCollection({ url: core, workCollection: { url: workUrl }, rows: 3 });
    t.like(resumed, { mode: 'walk', fetched: ids.length - state.walk_done_count, held: ids.length, inCore: ids.length, removed: 0 });
  });
}
