/**
 * Grouping quality on evaluation set `a` of real records (test/fixtures/grouping/real-records/a-*, labelled
 * by hand in labels-a.csv; sources and labelling rules in LABELLING-a.md): both key profiles key the records
 * as a MARC load maps them, and `extended` is held to the pairwise precision and recall it reached when the
 * set was first measured.
 */
import test from 'ava';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readIso2709 } from '../../../src/ingest/marc/iso2709Reader.js';
import type { MarcRecord } from '../../../src/ingest/marc/marcRecord.js';
import { readMarcXml } from '../../../src/ingest/marc/marcXmlReader.js';
import { recordDocumentFromMarc } from '../../../src/ingest/marc/vufindMarcMapping.js';
import { recordFromDocument } from '../../../src/record/catalogRecord.js';
import { pairwiseScores, type KeyedRecord } from '../../../tools/grouping/versionLists.js';

const folder = fileURLToPath(new URL('../../fixtures/grouping/real-records/', import.meta.url));

/** id → work, from a `id,work` file (neither field of set `a` holds a comma or a quote). */
function labelsOf(path: string): Map<string, string> {
  const [header, ...lines] = readFileSync(path, 'utf8').split('\n').filter((line) => line !== '');
  if (header !== 'id,work') throw new Error(`${path}: the header is ${JSON.stringify(header)}, not "id,work"`);
  const labels = new Map<string, string>();
  lines.forEach((line, index) => {
    const [id, work, extra] = line.split(',');
    if (!id || !work || extra !== undefined) throw new Error(`${path}:${index + 2}: not "id,work": ${JSON.stringify(line)}`);
    if (labels.has(id)) throw new Error(`${path}:${index + 2}: ${id} is labelled twice`);
    labels.set(id, work);
  });
  return labels;
}

async function setARecords(): Promise<MarcRecord[]> {
  const records: MarcRecord[] = [];
  for (const name of readdirSync(folder).filter((file) => /^a-.*\.(mrc|xml)$/.test(file)).sort()) {
    const path = join(folder, name);
    for await (const item of name.endsWith('.mrc') ? readIso2709(path) : readMarcXml(path)) {
      if (item.kind !== 'record') throw new Error(`${name}: record ${item.position.recordNumber} is not a record (${item.kind})`);
      records.push(item.record);
    }
  }
  return records;
}

function keyed(records: readonly MarcRecord[], keyProfile: 'vufind' | 'extended'): KeyedRecord[] {
  return records.map((record) => {
    const { id, title, workKeys } = recordFromDocument(recordDocumentFromMarc(record, { currentYear: 2026, keyProfile }));
    return { id, title: title ?? '', keys: workKeys };
  });
}

test('set a: every record read has a label and every label names a record read', async (t) => {
  const labels = labelsOf(join(folder, 'labels-a.csv'));
  const ids = keyed(await setARecords(), 'vufind').map((record) => record.id);
  t.is(new Set(ids).size, ids.length, 'ids are distinct');
  t.deepEqual(ids.filter((id) => !labels.has(id)), []);
  t.deepEqual([...labels.keys()].filter((id) => !ids.includes(id)), []);
});

test('set a: extended keeps pairwise precision 0.82 and recall 0.79 or more, and beats vufind on F1', async (t) => {
  const labels = labelsOf(join(folder, 'labels-a.csv'));
  const records = await setARecords();
  const extended = pairwiseScores(keyed(records, 'extended'), labels);
  const vufind = pairwiseScores(keyed(records, 'vufind'), labels);
  t.true(extended.precision >= 0.82, `extended precision ${extended.precision}`);
  t.true(extended.recall >= 0.79, `extended recall ${extended.recall}`);
  t.true(extended.f1 > vufind.f1, `extended F1 ${extended.f1}, vufind F1 ${vufind.f1}`);
});
