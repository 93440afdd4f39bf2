/**
 * Issue 20's target on a real Solr, for each key profile: on a VuFind core without work keys (MARC records
 * stored in `fullrecord`), the plugin on the Solr adapter answering versions from a work index gives, for
 * every record, the same feed and page (its facets included), byte for byte, as the plugin on the embedded index loaded with the
 * same records keyed with the same profile; on a standalone core and on a SolrCloud collection.
 * The records are the MARC records of test/fixtures/grouping/labelled-works.jsonl (editions, translations,
 * subtitles, uniform titles, added entries: where `vufind` and `extended` group differently).
 */
import test from 'ava';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSolrIndex } from '../../../src/index.js';
import { syncWorkIndex } from '../../../src/adapters/solr/workIndex/workIndexSync.js';
import { recordDocumentFromMarc } from '../../../src/ingest/marc/vufindMarcMapping.js';
import type { WorkKeyProfileName } from '../../../src/work-keys/workKeyProfiles.js';
import { marcRecordOf, type LabelledLine } from '../../support/labelledRecords.js';
import { skippedWithoutSolr, solrCore, solrTargets, updateSolr } from '../../support/realSolr.js';
import { escapeXml } from '../../support/oaiProvider.js';
import { hostFor } from '../../support/testHost.js';
import { openEmbeddedIndex } from '../../../src/entries/sqlite.js';
import type { MarcRecord } from '../../../src/marc/marcRecord.js';

const folder = mkdtempSync(join(tmpdir(), 'catalog-versions-work-index-profiles-'));
test.after.always(() => rmSync(folder, { recursive: true, force: true }));

/** The fixture's MARC records (its Dublin Core lines are left out: this core stores MARC). */
const records = (): MarcRecord[] => readFileSync(fileURLToPath(new URL('../../fixtures/grouping/labelled-works.jsonl', import.meta.url)), 'utf8')
  .split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as LabelledLine)
  .filter((line) => line.marc !== undefined).map((line) => marcRecordOf(line as LabelledLine));

/** A record as MARCXML, as VuFind stores it in `fullrecord`. */
function marcXmlOf(record: MarcRecord): string {
  const fields = record.fields.map((field) => ('value' in field
    ? `<controlfield tag="${field.tag}">${escapeXml(field.value)}</controlfield>`
    : `<datafield tag="${field.tag}" ind1="${escapeXml(field.ind1)}" ind2="${escapeXml(field.ind2)}">${field.subfields.map((sub) => `<subfield code="${escapeXml(sub.code)}">${escapeXml(sub.value)}</subfield>`).join('')}</datafield>`));
  return `<record xmlns="http://www.loc.gov/MARC21/slim"><leader>${record.leader}</leader>${fields.join('')}</record>`;
}

/** The mapped fields the test core's schema declares (the embedded index gets the same ones). */
const STORED = ['id', 'title', 'title_short', 'author', 'author2', 'format', 'publishDate'];

if (!skippedWithoutSolr(test, 'the work index under each key profile')) {
  for (const target of solrTargets()) {
    for (const profile of ['vufind', 'extended'] as const satisfies readonly WorkKeyProfileName[]) {
      test.serial(`work index ${target.name}, ${profile} keys: every record's feed and page are byte for byte the embedded index's`, async (t) => {
        const url = await solrCore(target, `work_index_profile_${profile}`, 'vufind');
        await updateSolr(url, { delete: { query: '*:*' } });
        const documents = records().map((record, k) => {
          const { work_keys_str_mv: keys, ...mapped } = recordDocumentFromMarc(record, { keyProfile: profile, currentYear: 2026 }) as Record<string, unknown>;
          const fields = Object.fromEntries(Object.entries(mapped).filter(([name]) => STORED.includes(name))) as { id: string };
          // Distinct times, some shared, so the feed's order and its id tie-break both show.
          const lastIndexed = new Date(Date.UTC(2025, 0, 1 + (k % 40))).toISOString();
          return { keyed: { ...fields, work_keys_str_mv: keys, last_indexed: lastIndexed }, stored: { ...fields, fullrecord: marcXmlOf(record), record_format: 'marcxml', last_indexed: lastIndexed } };
        });
        t.true(documents.length >= 90);
        await updateSolr(url, documents.map(({ stored }) => stored));
        const embedded = openEmbeddedIndex({ path: ':memory:', keyProfile: profile });
        t.teardown(() => embedded.close());
        await embedded.load(documents.map(({ keyed }) => keyed));

        const path = join(folder, `${target.name}-${profile}.sqlite`);
        const summary = await syncWorkIndex({ url, path, keyProfile: profile, rows: 25 });
        t.like(summary, { held: documents.length, refused: 0, unkeyable: {} });
        const solr = createSolrIndex({ url, workIndex: { path, keyProfile: profile }, versionCheckMs: 0 });
        t.teardown(() => solr.close());
        const fromSolr = hostFor(solr).request;
        const fromEmbedded = hostFor(embedded).request;
        let grouped = 0;
        for (const { keyed } of documents) {
          for (const view of ['&view=rss', '', '&lng=pt-br']) {
            const address = `/Search/Versions?id=${encodeURIComponent(keyed.id)}${view}`;
            const [a, b] = [await fromSolr.get(address), await fromEmbedded.get(address)];
            t.is(a.status, b.status, address);
            t.is(a.text, b.text, address);
          }
          if (((await embedded.countVersions([keyed.id])).get(keyed.id) ?? 0) > 1) grouped++;
        }
        t.true(grouped >= 20, `records listed with others: ${grouped}`);
      });
    }
  }
}
