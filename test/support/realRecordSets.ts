/**
 * Reads one set of the real-record evaluation fixture (test/fixtures/grouping/real-records): the MARC
 * files named `<set>-….mrc` (ISO 2709) or `<set>-….xml` (MARCXML) and the labels made for them by hand in
 * `labels-<set>.csv` (`id,work`, read as `works evaluate --gold` reads it), each record keyed under both profiles as a MARC load keys it:
 *
 *   const { workOf, vufind, extended, problems } = await readRealRecordSet(folder, 'a');
 *
 * `problems` names what keeps the set from being measured as it stands: a record the readers cannot read,
 * an id read twice, a record without a label, a label naming no record read (a labels file that cannot be
 * read throws InvalidWorkLabelsError).
 *
 * Left to others: reading and mapping MARC (src/ingest/marc), the keys (src/work-keys), reading the labels
 * and the scores (src/work-keys/curation/workLabels.ts and groupingScores.ts, as `works evaluate` does).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readIso2709 } from '../../src/marc/iso2709Reader.js';
import { readMarcXml } from '../../src/marc/marcXmlReader.js';
import { recordDocumentFromMarc } from '../../src/ingest/marc/vufindMarcMapping.js';
import { recordFromDocument } from '../../src/record/catalogRecord.js';
import { parseWorkLabels } from '../../src/work-keys/curation/workLabels.js';
import type { LabelledRecords } from './labelledRecords.js';
import type { KeyedRecord } from './versionLists.js';

export interface RealRecordSet extends LabelledRecords {
  readonly problems: readonly string[];
}

export async function readRealRecordSet(folder: string, set: string): Promise<RealRecordSet> {
  const problems: string[] = [];
  const labelsFile = `labels-${set}.csv`;
  const workOf = new Map(parseWorkLabels(readFileSync(join(folder, labelsFile), 'utf8'), labelsFile));
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
