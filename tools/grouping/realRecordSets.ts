/**
 * Reads one set of the real-record evaluation fixture (test/fixtures/grouping/real-records): the MARC
 * files named `<set>-….mrc` (ISO 2709) or `<set>-….xml` (MARCXML) and the labels made for them by hand in
 * `labels-<set>.csv` (header `id,work`), each record keyed under both profiles as a MARC load keys it:
 *
 *   const { workOf, vufind, extended, problems } = await readRealRecordSet(folder, 'a');
 *
 * `problems` names what keeps the set from being measured as it stands: a record the readers cannot read,
 * an id read twice, a record without a label, a label naming no record read, a line that is not `id,work`.
 *
 * Left to others: reading and mapping MARC (src/ingest/marc), the keys (src/work-keys), the scores
 * (versionLists.ts).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readIso2709 } from '../../src/ingest/marc/iso2709Reader.js';
import { readMarcXml } from '../../src/ingest/marc/marcXmlReader.js';
import { recordDocumentFromMarc } from '../../src/ingest/marc/vufindMarcMapping.js';
import { recordFromDocument } from '../../src/record/catalogRecord.js';
import type { LabelledRecords } from './labelledRecords.js';
import type { KeyedRecord } from './versionLists.js';

export interface RealRecordSet extends LabelledRecords {
  readonly problems: readonly string[];
}

export async function readRealRecordSet(folder: string, set: string): Promise<RealRecordSet> {
  const problems: string[] = [];
  const labelsFile = `labels-${set}.csv`;
  const workOf = labelsIn(join(folder, labelsFile), problems);
  const vufind: KeyedRecord[] = [];
  const extended: KeyedRecord[] = [];
  const files = readdirSync(folder).filter((name) => name.startsWith(`${set}-`) && /\.(mrc|xml)$/.test(name)).sort();
  for (const name of files) {
    const path = join(folder, name);
    for await (const item of name.endsWith('.mrc') ? readIso2709(path) : readMarcXml(path)) {
      if (item.kind !== 'record') {
        problems.push(`${name} record ${item.position.recordNumber}: ${item.kind === 'problem' ? item.reason : item.kind}`);
        continue;
      }
      for (const [keyProfile, keyed] of [['vufind', vufind], ['extended', extended]] as const) {
        const { id, title, workKeys } = recordFromDocument(recordDocumentFromMarc(item.record, { currentYear: 2026, keyProfile }));
        keyed.push({ id, title: title ?? '', keys: workKeys });
      }
    }
  }
  const ids = vufind.map((record) => record.id);
  const read = new Set(ids);
  if (read.size !== ids.length) problems.push(`ids read more than once: ${ids.filter((id, index) => ids.indexOf(id) !== index).join(', ')}`);
  for (const id of read) if (!workOf.has(id)) problems.push(`${id} has no label in ${labelsFile}`);
  for (const id of workOf.keys()) if (!read.has(id)) problems.push(`${labelsFile} labels ${id}, which no ${set}- file holds`);
  return { workOf, vufind, extended, problems };
}

/** id → work; neither field of these files holds a comma or a quote. */
function labelsIn(path: string, problems: string[]): Map<string, string> {
  const [header, ...lines] = readFileSync(path, 'utf8').split('\n').filter((line) => line !== '');
  if (header !== 'id,work') problems.push(`${path}: the header is ${JSON.stringify(header)}, not "id,work"`);
  const workOf = new Map<string, string>();
  lines.forEach((line, index) => {
    const fields = line.split(',');
    const [id, work] = fields;
    if (fields.length !== 2 || !id || !work) problems.push(`${path}:${index + 2}: not "id,work": ${JSON.stringify(line)}`);
    else if (workOf.has(id)) problems.push(`${path}:${index + 2}: ${id} is labelled twice`);
    else workOf.set(id, work);
  });
  return workOf;
}
