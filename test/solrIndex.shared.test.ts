/**
 * The shared index behaviour suite (test/indexBehaviour/indexBehaviourSuite.ts) against a real Solr core,
 * and the loader writing to that core compared with the embedded index on the same file.
 *
 * Runs only when SOLR_TEST_URL names a core, e.g. one made from src/adapters/solr/configset:
 *   SOLR_TEST_URL=http://localhost:8983/solr/versions_test npx ava test/solrIndex.shared.test.ts
 * DESTRUCTIVE: it deletes every document of that core first. Never point it at a catalog's real core.
 * Without SOLR_TEST_URL the file registers one skipped test, so the run says what was not tested.
 *
 * SOLR_TEST_URL may also name a SolrCloud collection; made with numShards=2 (or more), the comparison with
 * the embedded index checks that countVersions adds up versions stored on different shards, and the
 * contentVersion test that the background version read sees changes on any shard.
 */
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordDocument } from '../src/record/catalogRecord.js';
import type { CatalogIndex } from '../src/ports.js';
import { openEmbeddedIndex } from '../src/adapters/sqlite/index.js';
import { createSolrIndex } from '../src/adapters/solr/solrIndex.js';
import { createSolrWriter, solrIngestWriter } from '../src/adapters/solr/solrWriter.js';
import { loadRecordFiles } from '../src/cli/loadRecords.js';
import { recordFormatNamed } from '../src/ingest/recordFormats.js';
import { indexBehaviourSuite } from './indexBehaviour/indexBehaviourSuite.js';

const url = process.env.SOLR_TEST_URL?.trim();

if (url === undefined || url === '') {
  test.skip('shared index suite and loader against a real Solr core (set SOLR_TEST_URL to a disposable core to run)', () => {});
} else {
  indexBehaviourSuite(test, 'solr', async (documents) => {
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
  });

  test('solr: the loader gives Solr and the embedded index the same answers on the same file', async (t) => {
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

    const embedded = openEmbeddedIndex({ path: ':memory:' });
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

  test('solr: contentVersion, read in the background, takes a new value after a committed add and after a committed delete', async (t) => {
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
    const first = await nextVersion(undefined);
    t.regex(first, /^\d+\/\d*$/, 'numFound/highest _version_');
    const added = await writer.add([{ id: 'ver:1', title: 'Version probe', last_indexed: '2024-01-01T00:00:00Z', work_keys_str_mv: ['AT probe version'] }]);
    t.is(added.rejected.length, 0);
    await writer.commit();
    const afterAdd = await nextVersion(first);
    await writer.deleteByIds(['ver:1']);
    await writer.commit();
    t.not(await nextVersion(afterAdd), afterAdd);
  });
}
