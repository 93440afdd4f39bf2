/**
 * Versions lists of real MARC files under both key profiles:
 *
 *   npx tsx tools/grouping/measureEvergreen.ts <file.mrc|file.xml>… [--top N] [--vufind-jsonl file]
 *       [--list-of "title words"]
 *
 * For each file: the largest versions list under `vufind` and `extended`, the N largest distinct lists
 * of each with the keys that join them, how many records have no key, and a SHA-256 digest of every
 * record's `vufind` keys (so a refactoring can show the profile unchanged by the same digest). With
 * --vufind-jsonl (VuFind's own documents for the same file, in file order) it checks that the `vufind`
 * profile's keys are VuFind's. With --list-of, the versions lists of records whose 245 contains those
 * words. SHOW_MEMBERS=1 prints the titles in each list.
 *
 * Left to others: the keys (src/work-keys/marcWorkKeys.ts, src/work-keys/extended/), the lists
 * (versionLists.ts).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readIso2709 } from '../../src/marc/iso2709Reader.js';
import type { MarcRecord } from '../../src/marc/marcRecord.js';
import { controlFieldOf } from '../../src/marc/marcRecord.js';
import { joinedSubfields } from '../../src/marc/marcFieldSpec.js';
import { marcWorkKeys } from '../../src/work-keys/marcWorkKeys.js';
import { workStatementFromMarc } from '../../src/work-keys/extended/marcWorkStatement.js';
import { readMarcXml } from '../../src/marc/marcXmlReader.js';
import { extendedWorkKeys } from '../../src/work-keys/extended/extendedWorkKeys.js';
import { versionsLists, type KeyedRecord } from '../../test/support/versionLists.js';

async function readRecords(path: string): Promise<MarcRecord[]> {
  const records: MarcRecord[] = [];
  for await (const item of path.endsWith('.mrc') ? readIso2709(path) : readMarcXml(path)) {
    if (item.kind === 'record') records.push(item.record);
  }
  return records;
}

function keyed(records: readonly MarcRecord[], keysOf: (record: MarcRecord) => string[]): KeyedRecord[] {
  return records.map((record, index) => {
    const title = record.fields.find((field) => field.tag === '245');
    return {
      id: controlFieldOf(record, '001')?.trim() || `#${index + 1}`,
      title: title !== undefined && 'subfields' in title ? joinedSubfields(title, 'ab') ?? '' : '',
      keys: keysOf(record),
    };
  });
}

function report(name: string, records: readonly KeyedRecord[], top: number, listOf: string | undefined): void {
  const lists = versionsLists(records);
  const byId = new Map(records.map((record) => [record.id, record]));
  const unkeyed = records.filter((record) => record.keys.length === 0).length;
  console.log(`  ${name}: largest list ${lists[0]?.versions.length ?? 0}; records listed with others ${lists.filter((list) => list.versions.length > 1).length}; records without keys ${unkeyed}`);
  const seen = new Set<string>();
  let shown = 0;
  for (const list of lists) {
    if (shown >= top) break;
    const signature = [...list.versions].sort().join(' ');
    if (seen.has(signature)) continue;
    seen.add(signature);
    shown++;
    const joins = list.joiningKeys.slice(0, 3).map((join) => `${join.key} (+${join.records})`).join('; ');
    console.log(`    ${list.versions.length} ${list.record.id} "${list.record.title}" ← ${joins}`);
    if (process.env.SHOW_MEMBERS) for (const id of list.versions) console.log(`        ${id} ${byId.get(id)?.title}`);
  }
  if (listOf === undefined) return;
  for (const list of lists.filter((candidate) => candidate.record.title.toLowerCase().includes(listOf.toLowerCase()))) {
    const others = list.versions.filter((id) => id !== list.record.id).map((id) => `${id} "${byId.get(id)?.title}"`);
    console.log(`    list of ${list.record.id} "${list.record.title}": ${list.versions.length} — ${others.length === 0 ? 'itself alone' : others.join('; ')}`);
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  let top = 10;
  let vufindJsonl: string | undefined;
  let listOf: string | undefined;
  const paths: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--top') top = Number(argv[++i]);
    else if (argv[i] === '--vufind-jsonl') vufindJsonl = argv[++i];
    else if (argv[i] === '--list-of') listOf = argv[++i];
    else paths.push(argv[i]!);
  }
  for (const path of paths) {
    const records = await readRecords(path);
    console.log(`${path}: ${records.length} records`);
    const vufind = keyed(records, (record) => marcWorkKeys(record));
    report('vufind', vufind, top, listOf);
    report('extended', keyed(records, (record) => extendedWorkKeys(workStatementFromMarc(record))), top, listOf);
    const digest = createHash('sha256').update(vufind.map((record) => JSON.stringify(record.keys)).join('\n')).digest('hex');
    console.log(`  vufind keys digest (sha256 of one JSON list a record): ${digest}`);
    if (vufindJsonl !== undefined && paths.length === 1) {
      const documents = readFileSync(vufindJsonl, 'utf8').split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as { work_keys_str_mv?: string[] });
      let agree = 0;
      documents.forEach((document, index) => {
        const ours = vufind[index]?.keys ?? [];
        const theirs = (document.work_keys_str_mv ?? []).map((key) => key.normalize('NFC'));
        if (JSON.stringify(ours) === JSON.stringify(theirs)) agree++;
      });
      console.log(`  vufind profile against VuFind's own keys: ${agree}/${documents.length} records agree`);
    }
  }
}

await main();
