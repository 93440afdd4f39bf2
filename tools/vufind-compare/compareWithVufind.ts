/**
 * Compares src/ingest/marc/vufindMarcMapping.ts with what VuFind's own importer made of the same MARC.
 *
 *   npx tsx tools/vufind-compare/compareWithVufind.ts <records.xml|records.mrc> [vufind.jsonl]
 *       [--current-year YYYY] [--show N] [--id-fallback 901c]
 *
 * With a VuFind JSON Lines file (one document per record, in file order, as VuFind indexed it) it maps
 * every record, pairs each with VuFind's document (same position; the ids must agree too) and prints, per
 * field, how many records agree and the disagreements (at most --show per field). VuFind's text is read
 * the way the mapping writes text: NFC, trailing ISBD punctuation trimmed (the mapping's deliberate
 * differences); lists must agree in order. It exits with status 1 unless the work keys agree on every
 * record and every other field on at least 99% of them.
 *
 * Without a JSON Lines file it explores: it prints how many records get each format, each combination of
 * formats, and the records the mapping refuses.
 *
 * Ids: the mapping takes 001 only. VuFind's configuration for the Concerto file fell back to 901$c;
 * `--id-fallback 901c` (the default) lends such a record its 901$c as 001 here, for the pairing only.
 *
 * Reading MARC: MARCXML through src/marc/marcXmlReader.ts when it exists, else @xmldom/xmldom here;
 * ISO 2709 through src/marc/iso2709Reader.ts (there is no stand-in for that one).
 *
 * Left to others: the mapping itself, the readers.
 */
import { existsSync, readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { DOMParser, type Element } from '@xmldom/xmldom';
import type { MarcDataField, MarcField, MarcRecord } from '../../src/marc/marcRecord.js';
import { isDataField } from '../../src/marc/marcRecord.js';
import { recordDocumentFromMarc } from '../../src/ingest/marc/vufindMarcMapping.js';
import { trimTrailingIsbdPunctuation } from '../../src/ingest/marc/isbdPunctuation.js';
import type { RecordDocument } from '../../src/record/catalogRecord.js';

const TEXT_FIELDS = ['title', 'title_short', 'author', 'author2', 'author_corporate', 'publishDate'] as const;
const COMPARED_FIELDS = [
  'id', 'title', 'title_short', 'author', 'author_role', 'author2', 'author2_role', 'author_corporate',
  'author_corporate_role', 'format', 'publishDate', 'url', 'work_keys_str_mv',
] as const;
type ComparedField = (typeof COMPARED_FIELDS)[number];
const REQUIRED_AGREEMENT = 0.99;

interface Options {
  readonly marcPath: string;
  readonly vufindPath?: string;
  readonly currentYear?: number;
  readonly show: number;
  readonly idFallback?: { readonly tag: string; readonly code: string };
}

function parseArguments(argv: readonly string[]): Options {
  const positional: string[] = [];
  let currentYear: number | undefined;
  let show = 10;
  let idFallback: Options['idFallback'] = { tag: '901', code: 'c' };
  for (let i = 0; i < argv.length; i++) {
    const argument = argv[i] ?? '';
    const value = (): string => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${argument} needs a value`);
      return next;
    };
    if (argument === '--current-year') currentYear = Number(value());
    else if (argument === '--show') show = Number(value());
    else if (argument === '--id-fallback') {
      const spec = value();
      idFallback = spec === 'none' ? undefined : { tag: spec.slice(0, 3), code: spec.slice(3, 4) };
    } else if (argument.startsWith('--')) throw new Error(`unknown option ${argument}`);
    else positional.push(argument);
  }
  const [marcPath, vufindPath] = positional;
  if (marcPath === undefined) {
    throw new Error('usage: compareWithVufind.ts <records.xml|records.mrc> [vufind.jsonl] [--current-year YYYY] [--show N] [--id-fallback 901c|none]');
  }
  return { marcPath, show, ...(vufindPath !== undefined ? { vufindPath } : {}), ...(currentYear !== undefined ? { currentYear } : {}), ...(idFallback !== undefined ? { idFallback } : {}) };
}

// ---------------------------------------------------------------------------------------------------------
// Reading MARC

/** A module of this repository, loaded only if its file exists (the readers are being written now). */
async function importIfPresent(relativePath: string): Promise<Record<string, unknown> | undefined> {
  const url = new URL(relativePath, import.meta.url);
  if (!existsSync(url)) return undefined;
  return (await import(url.href)) as Record<string, unknown>;
}

/** Stand-in MARCXML reader until marcXmlReader.ts exists: leader, control and data fields, NFC text. */
function parseMarcXmlHere(xml: string): MarcRecord[] {
  const document = new DOMParser().parseFromString(xml, 'text/xml');
  const records: MarcRecord[] = [];
  const elementsNamed = (parent: { getElementsByTagNameNS(ns: string, name: string): { length: number; item(i: number): Element | null } }, name: string): Element[] => {
    const list = parent.getElementsByTagNameNS('*', name);
    const out: Element[] = [];
    for (let i = 0; i < list.length; i++) {
      const item = list.item(i);
      if (item !== null) out.push(item);
    }
    return out;
  };
  const textOf = (element: Element): string => (element.textContent ?? '').normalize('NFC');
  for (const recordElement of elementsNamed(document, 'record')) {
    let leader = '';
    const fields: MarcField[] = [];
    for (let node = recordElement.firstChild; node !== null; node = node.nextSibling) {
      if (node.nodeType !== node.ELEMENT_NODE) continue;
      const element = node as Element;
      const tag = element.getAttribute('tag') ?? '';
      if (element.localName === 'leader') leader = textOf(element);
      else if (element.localName === 'controlfield') fields.push({ tag, value: textOf(element) });
      else if (element.localName === 'datafield') {
        const subfields = elementsNamed(element, 'subfield').map((subfield) => ({
          code: subfield.getAttribute('code') ?? '', value: textOf(subfield),
        }));
        fields.push({ tag, ind1: indicator(element.getAttribute('ind1')), ind2: indicator(element.getAttribute('ind2')), subfields });
      }
    }
    records.push({ leader, fields });
  }
  return records;
}

function indicator(value: string | null): string {
  return value === null || value === '' ? ' ' : value.slice(0, 1);
}

/** Records from whatever a reader gives: an array or (async) iterable of records or of `SourceItem`s. */
async function collectRecords(source: unknown): Promise<{ records: MarcRecord[]; problems: string[] }> {
  const records: MarcRecord[] = [];
  const problems: string[] = [];
  const awaited = await source;
  for await (const item of awaited as AsyncIterable<unknown>) {
    const candidate = item as { kind?: string; record?: MarcRecord; reason?: string; leader?: string };
    if (candidate.kind === 'record' && candidate.record !== undefined) records.push(candidate.record);
    else if (candidate.kind === 'problem') problems.push(String(candidate.reason));
    else if (typeof candidate.leader === 'string') records.push(item as MarcRecord);
  }
  return { records, problems };
}

async function readMarc(path: string): Promise<{ records: MarcRecord[]; problems: string[]; reader: string }> {
  const extension = extname(path).toLowerCase();
  if (extension === '.xml') {
    const reader = await importIfPresent('../../src/marc/marcXmlReader.ts');
    if (typeof reader?.parseMarcXml === 'function') {
      const records = (reader.parseMarcXml as (xml: string) => MarcRecord[])(readFileSync(path, 'utf8'));
      return { records, problems: [], reader: 'src/marc/marcXmlReader.ts' };
    }
    return { records: parseMarcXmlHere(readFileSync(path, 'utf8')), problems: [], reader: '@xmldom/xmldom (stand-in)' };
  }
  const reader = await importIfPresent('../../src/marc/iso2709Reader.ts');
  if (typeof reader?.readIso2709 !== 'function') {
    throw new Error(`${path}: ISO 2709 needs src/marc/iso2709Reader.ts (readIso2709), which does not exist yet`);
  }
  return { ...(await collectRecords((reader.readIso2709 as (p: string) => unknown)(path))), reader: 'src/marc/iso2709Reader.ts' };
}

// ---------------------------------------------------------------------------------------------------------
// Mapping, with the comparison's id fallback

function withIdFallback(record: MarcRecord, fallback: Options['idFallback']): MarcRecord {
  const hasId = record.fields.some((field) => field.tag === '001' && !isDataField(field) && field.value.trim() !== '');
  if (hasId || fallback === undefined) return record;
  const source = record.fields.find((field): field is MarcDataField => isDataField(field) && field.tag === fallback.tag);
  const id = source?.subfields.find((subfield) => subfield.code === fallback.code)?.value;
  return id === undefined ? record : { leader: record.leader, fields: [{ tag: '001', value: id }, ...record.fields] };
}

function mapRecord(record: MarcRecord, options: Options): RecordDocument | Error {
  try {
    return recordDocumentFromMarc(withIdFallback(record, options.idFallback), options.currentYear !== undefined ? { currentYear: options.currentYear } : {});
  } catch (error) {
    return error as Error;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Comparing

function listOf(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  return (Array.isArray(value) ? value : [value]).map(String);
}

/** VuFind's value read the way the mapping writes it. */
function vufindValue(field: ComparedField, value: unknown): string[] {
  const values = listOf(value).map((item) => item.normalize('NFC'));
  if ((TEXT_FIELDS as readonly string[]).includes(field)) {
    return values.map(trimTrailingIsbdPunctuation).filter((item) => item !== '');
  }
  return values;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const setA = new Set(a);
  const setB = new Set(b);
  return setA.size === setB.size && [...setA].every((item) => setB.has(item));
}

interface Disagreement {
  readonly id: string;
  readonly ours: readonly string[];
  readonly vufind: readonly string[];
  readonly orderOnly: boolean;
}

function compare(records: readonly MarcRecord[], vufindDocuments: readonly Record<string, unknown>[], options: Options): boolean {
  const agreed = new Map<ComparedField, number>(COMPARED_FIELDS.map((field) => [field, 0]));
  const disagreements = new Map<ComparedField, Disagreement[]>(COMPARED_FIELDS.map((field) => [field, []]));
  const pairs = Math.min(records.length, vufindDocuments.length);
  if (records.length !== vufindDocuments.length) {
    console.log(`record counts differ: ${records.length} MARC records, ${vufindDocuments.length} VuFind documents; comparing the first ${pairs}`);
  }
  for (let i = 0; i < pairs; i++) {
    const vufind = vufindDocuments[i] ?? {};
    const mapped = mapRecord(records[i] as MarcRecord, options);
    const ours: Record<string, unknown> = mapped instanceof Error ? { id: `(refused: ${mapped.message})` } : mapped;
    const label = String(vufind.id ?? ours.id ?? `#${i + 1}`);
    for (const field of COMPARED_FIELDS) {
      const ourValues = listOf(ours[field]).map((item) => item.normalize('NFC'));
      const theirValues = vufindValue(field, vufind[field]);
      if (sameList(ourValues, theirValues)) agreed.set(field, (agreed.get(field) ?? 0) + 1);
      else disagreements.get(field)?.push({ id: label, ours: ourValues, vufind: theirValues, orderOnly: sameSet(ourValues, theirValues) });
    }
  }
  let passed = true;
  console.log(`\nper-field agreement over ${pairs} records (VuFind text NFC, trailing ISBD punctuation trimmed):`);
  for (const field of COMPARED_FIELDS) {
    const count = agreed.get(field) ?? 0;
    const share = pairs === 0 ? 1 : count / pairs;
    const required = field === 'work_keys_str_mv' ? 1 : REQUIRED_AGREEMENT;
    const ok = share >= required;
    passed &&= ok;
    console.log(`  ${field.padEnd(22)} ${String(count).padStart(5)}/${pairs}  ${(share * 100).toFixed(2).padStart(6)}%  ${ok ? 'ok' : `BELOW ${required * 100}%`}`);
  }
  for (const field of COMPARED_FIELDS) {
    const list = disagreements.get(field) ?? [];
    if (list.length === 0) continue;
    console.log(`\n${field}: ${list.length} disagreement(s)${list.length > options.show ? `, first ${options.show}` : ''}`);
    for (const { id, ours, vufind, orderOnly } of list.slice(0, options.show)) {
      console.log(`  record ${id}${orderOnly ? ' (same values, other order)' : ''}`);
      console.log(`    ours:   ${JSON.stringify(ours)}`);
      console.log(`    VuFind: ${JSON.stringify(vufind)}`);
    }
  }
  return passed;
}

function explore(records: readonly MarcRecord[], options: Options): void {
  const formats = new Map<string, number>();
  const combinations = new Map<string, number>();
  const refused: string[] = [];
  for (const [i, record] of records.entries()) {
    const mapped = mapRecord(record, options);
    if (mapped instanceof Error) {
      refused.push(`#${i + 1}: ${mapped.message}`);
      continue;
    }
    const list = listOf(mapped.format);
    for (const format of list) formats.set(format, (formats.get(format) ?? 0) + 1);
    const combination = JSON.stringify(list);
    combinations.set(combination, (combinations.get(combination) ?? 0) + 1);
  }
  const byCount = (map: Map<string, number>): [string, number][] => [...map].sort((a, b) => b[1] - a[1]);
  console.log(`\nformats over ${records.length} records:`);
  for (const [format, count] of byCount(formats)) console.log(`  ${String(count).padStart(5)}  ${format}`);
  console.log('\nformat combinations:');
  for (const [combination, count] of byCount(combinations)) console.log(`  ${String(count).padStart(5)}  ${combination}`);
  console.log(`\nrefused: ${refused.length}`);
  for (const reason of refused.slice(0, options.show)) console.log(`  ${reason}`);
}

async function main(): Promise<void> {
  const options = parseArguments(process.argv.slice(2));
  const { records, problems, reader } = await readMarc(options.marcPath);
  console.log(`${options.marcPath}: ${records.length} records read with ${reader}${problems.length > 0 ? `, ${problems.length} unreadable` : ''}`);
  for (const problem of problems.slice(0, options.show)) console.log(`  unreadable: ${problem}`);
  if (options.vufindPath === undefined) {
    explore(records, options);
    return;
  }
  const vufindDocuments = readFileSync(options.vufindPath, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  if (!compare(records, vufindDocuments, options)) process.exitCode = 1;
}

await main();
