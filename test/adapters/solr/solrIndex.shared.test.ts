/**
 * The shared index behaviour suite (test/adapters/indexBehaviourSuite.ts) against a real Solr, the
 * loader writing to Solr compared with the embedded index on the same file, contentVersion (the
 * background read behind kept answers) following real commits, and hasRecords on an emptied core.
 *
 * Runs on every Solr that test/support/realSolr.ts finds (tools/solr/start.sh starts a standalone
 * one and a SolrCloud one and sets SOLR_TEST_URL and SOLR_CLOUD_TEST_URL), each on cores of its own
 * ("shared_<schema>"; two-shard collections on SolrCloud, so countVersions must add up versions stored on
 * different shards): the plugin's own configset (standalone), a VuFind MARC core and an aggregator's DC
 * core, where `_version_` has no docValues.
 * Without either variable the file registers one skipped test, so the run says what was not tested.
 */
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordDocument } from '../../../src/record/catalogRecord.js';
import type { CatalogIndex } from '../../../src/ports.js';
import { createSolrIndex } from '../../../src/adapters/solr/solrIndex.js';
import { createSolrWriter, solrIngestWriter } from '../../../src/adapters/solr/solrWriter.js';
import { loadRecordFiles } from '../../../src/cli/loadRecords.js';
import { recordFormatNamed } from '../../../src/ingest/recordFormats.js';
import { indexBehaviourSuite } from '../indexBehaviourSuite.js';
import { skippedWithoutSolr, solrCore, solrTargets, updateSolr, type SolrSchemaName, type SolrTarget } from '../../support/realSolr.js';
import { note } from '../../support/testNotes.js';
import { openEmbeddedIndex } from '../../../src/entries/sqlite.js';

const SCHEMAS: Record<SolrTarget['name'], SolrSchemaName[]> = {
  standalone: ['plugin', 'vufind', 'aggregator'],
  solrcloud: ['vufind', 'aggregator'],
};

if (!skippedWithoutSolr(test, 'shared index suite, loader and contentVersion')) {
  for (const target of solrTargets()) {
    for (const schema of SCHEMAS[target.name]) sharedTests(target, schema);
    test(`solr ${target.name}: hasRecords, the health check's question, is false on an emptied core and true once a document is in`, async (t) => {
      const url = await solrCore(target, 'has_records', 'aggregator');
      await updateSolr(url, { delete: { query: '*:*' } });
      const index = createSolrIndex({ url, versionCheckMs: 0 });
      t.teardown(() => index.close());
      t.is(await index.hasRecords?.(), false);
      await updateSolr(url, [{ id: 'only-one', title: 'Alone', author: ['Someone'] }]);
      t.is(await index.hasRecords?.(), true);
    });
  }
}

function sharedTests(target: SolrTarget, schema: SolrSchemaName): void {
  const label = `solr ${target.name} ${schema}`;
  // Made (or found) once per file; every test of this core awaits the same promise.
  const core = solrCore(target, `shared_${schema}`, schema);
  indexBehaviourSuite(test, label, async (documents) => {
    const url = await core;
    const writer = createSolrWriter({ url, commitWithinMs: 0 });
    try {
      await writer.deleteAll();
      const result = await writer.add(documents as RecordDocument[]);
      if (result.rejected.length > 0) {
        throw new Error(`Solr refused suite documents: ${result.rejected.map((r) => `${r.id}: ${r.reason}`).join('; ')}`);
      }
      await writer.commit();
    } finally {
      await writer.close();
    }
    return createSolrIndex({ url });
  }, { findVersionsOf: false });

  test(`${label}: the loader gives Solr and the embedded index the same answers on the same file`, async (t) => {
    const url = await core;
    // Own ids and keys (the "cmp:" records share no key with the suite's), so this runs beside the suite.
    const lines: string[] = [];
    for (let work = 0; work < 30; work += 1) {
      for (let copy = 0; copy <= work % 4; copy += 1) {
        lines.push(JSON.stringify({
          id: `cmp:${work}/${copy}`,
          title: copy % 2 === 0 ? `Comparison work ${work}` : `The comparison work ${work}`,
          author: `Loader, Tester ${work}`,
          format: copy === 0 ? 'Book' : ['eBook', 'Book'],
          publishDate: String(1990 + copy),
          ...(copy === 1 ? { last_indexed: `2024-0${1 + (work % 9)}-01T00:00:00Z` } : {}),
        }));
      }
    }
    lines.push('{"id": "cmp:broken"', JSON.stringify({ id: 'cmp:lonely', title: 'No author here' }));
    const dir = mkdtempSync(join(tmpdir(), 'catalog-versions-shared-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'compare.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);

    const embedded = openEmbeddedIndex({ path: ':memory:', keyProfile: 'vufind' });
    const solr = createSolrIndex({ url });
    t.teardown(() => embedded.close());
    t.teardown(() => solr.close());
    const files = [{ path: file, format: recordFormatNamed('jsonl')! }];
    const intoEmbedded = await loadRecordFiles({ files, writer: embedded.openWriter() });
    const intoSolr = await loadRecordFiles({ files, writer: solrIngestWriter(createSolrWriter({ url }), 'Solr') });
    t.deepEqual({ ...intoSolr, seconds: 0 }, { ...intoEmbedded, seconds: 0 });
    t.like(intoSolr, { rejected: 1 });

    const ids = lines.flatMap((line) => {
      try {
        return [String((JSON.parse(line) as { id: unknown }).id)];
      } catch {
        return [];
      }
    });
    const answers = async (index: CatalogIndex) => {
      const out: unknown[] = [await index.countVersions(ids).then((counts) => Object.fromEntries(counts))];
      for (const id of ids) {
        const record = await index.getRecord(id);
        out.push(record);
        if (record === undefined || record.workKeys.length === 0) continue;
        for (const order of ['last-indexed', 'relevance'] as const) {
          out.push(await index.findVersions({ workKeys: record.workKeys, order, offset: 0, limit: 50 }));
          out.push(await index.findVersions({ workKeys: record.workKeys, order, offset: 1, limit: 2 }));
        }
      }
      return out;
    };
    t.deepEqual(await answers(solr), await answers(embedded));
  });

  test(`${label}: storedContentOf finds stored documents by id, an id holding the terms parser's usual separator too`, async (t) => {
    const url = await core;
    // Own ids ("stored:"), so this runs beside the other tests of this core.
    const writer = createSolrWriter({ url, commitWithinMs: 0 });
    t.teardown(() => writer.close());
    const odd = 'stored:part\u001fone';
    const added = await writer.add([
      { id: odd, title: 'Separator in the id', last_indexed: '2024-01-01T00:00:00Z', work_keys_str_mv: ['AT separator id'] },
      { id: 'stored:plain', title: 'Plain id', last_indexed: '2024-01-02T00:00:00Z', work_keys_str_mv: ['AT plain id'] },
    ]);
    t.is(added.rejected.length, 0);
    await writer.commit();
    const held = await writer.storedContentOf([odd, 'stored:plain', 'stored:absent', odd]);
    t.deepEqual([...held.keys()].sort(), ['stored:part\u001fone', 'stored:plain'].sort());
    t.is(Date.parse(held.get(odd)?.lastIndexed ?? ''), Date.parse('2024-01-01T00:00:00Z'));
    t.not(held.get(odd)?.fingerprint, held.get('stored:plain')?.fingerprint);
  });

  test(`${label}: contentVersion, read in the background, gives a value and a new one within the bound after a committed add and after a committed delete`, async (t) => {
    const url = await core;
    // Own ids ("ver:"), so this runs beside the tests above; their commits may change the value too, so
    // the test asks only for a change after each of its own commits.
    const writer = createSolrWriter({ url, commitWithinMs: 0 });
    const index = createSolrIndex({ url, versionCheckMs: 50 });
    t.teardown(() => writer.close());
    t.teardown(() => index.close());
    const nextVersion = async (before: string | undefined): Promise<string> => {
      for (const until = Date.now() + 15_000; Date.now() < until; await new Promise((resolve) => setTimeout(resolve, 10))) {
        const version = index.contentVersion?.();
        if (version !== undefined && version !== before) return version;
      }
      throw new Error(`contentVersion() gave nothing new within 15 s (before: ${String(before)})`);
    };
    /** Milliseconds from now until contentVersion() stops vouching for `kept` (answers are then built afresh). */
    const lapseOf = async (kept: string): Promise<number> => {
      const from = Date.now();
      while (index.contentVersion?.() === kept) {
        if (Date.now() - from > 15_000) throw new Error(`contentVersion() still ${kept} 15 s after a commit`);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      return Date.now() - from;
    };
    if (schema !== 'plugin') {
      // VuFind's declaration, which the read must work on: a point field without docValues.
      const field = await (await fetch(`${url}/schema/fields/_version_?showDefaults=true&wt=json`)).json() as { field?: Record<string, unknown> };
      t.like(field.field, { type: 'long', docValues: false, indexed: true, stored: true });
    }
    const first = await nextVersion(undefined);
    t.regex(first, /^\d+\/\d*$/, 'numFound/highest _version_');
    const added = await writer.add([{ id: 'ver:1', title: 'Version probe', last_indexed: '2024-01-01T00:00:00Z', work_keys_str_mv: ['AT probe version'] }]);
    t.is(added.rejected.length, 0);
    await writer.commit();
    // docs/solr.md: a committed change shows within about one interval (50 ms) plus the read's own time;
    // the margin is for a machine busy with the other test files.
    const addSeenAfter = await lapseOf(first);
    t.true(addSeenAfter < 3000, `add seen after ${addSeenAfter} ms`);
    const afterAdd = await nextVersion(first);
    await writer.deleteByIds(['ver:1']);
    await writer.commit();
    const deleteSeenAfter = await lapseOf(afterAdd);
    t.true(deleteSeenAfter < 3000, `delete seen after ${deleteSeenAfter} ms`);
    note(t, `change seen after ${addSeenAfter} ms (add), ${deleteSeenAfter} ms (delete)`);
    t.not(await nextVersion(afterAdd), afterAdd);
  });
}
