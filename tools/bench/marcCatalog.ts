/**
 * The benchmark's generated catalog as MARC 21: each document of catalogGenerator.ts becomes a MARC
 * bibliographic record that VuFind's mapping (src/ingest/marc/vufindMarcMapping.ts) turns back into the
 * same work: the author in 100 (further names in 700/710), the title in 245 $a/$b, a uniform title in 240
 * (130 when there is no author, which is what holds an anonymous work together through its UT key), the
 * date in 260 $c, links in 856 $u. Records of one work share author and title as the generator varies
 * them, so the MARC load groups them as the JSON load does and works keep their versions.
 *
 * Files come out as ISO 2709 with UTF-8 and MARC-8 records mixed (a record is MARC-8 by a seeded draw, as
 * in a union catalog fed by old and new systems), or as MARCXML. MARC-8 text is written here because
 * test/support/writeIso2709.ts takes raw bytes for it: Latin letters with diacritics as ANSEL combining marks
 * before their base letter, and anything ANSEL lacks as a numeric character reference (&#xXXXX;), the
 * Library of Congress convention the reader decodes.
 *
 * Writing streams to the file in blocks of a few MB: a million records never sit in memory.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { encodeIso2709, encodeIso2709Raw, rawControlField, rawDataField, type RawField } from '../../test/support/writeIso2709.js';
import { EXTENDED_LATIN } from '../../src/marc/marc8Tables.js';
import type { MarcDataField, MarcField, MarcRecord } from '../../src/marc/marcRecord.js';
import { generateRecords, type CatalogPlan } from './catalogGenerator.js';

/** Bump when the records change, so a MARC file kept from an earlier run is not reused. */
export const MARC_CATALOG_VERSION = 1;

// ---------------------------------------------------------------------------------------------------
// MARC-8

/** ANSEL byte of each character it holds (combining marks included), from the reader's own tables. */
const ANSEL_BYTE = new Map<number, number>();
const ANSEL_COMBINING = new Set<number>();
for (let slot = 0x21; slot < 0x7f; slot++) {
  const unit = EXTENDED_LATIN.chars.charCodeAt(slot);
  if (unit === 0xfffd || unit === 0xffff) continue;
  ANSEL_BYTE.set(unit, 0x80 | slot);
  if (EXTENDED_LATIN.combining.includes(slot)) ANSEL_COMBINING.add(unit);
}

/** Text as MARC-8 bytes (ASCII in G0, ANSEL in G1, no escapes): marks go before the letter they sit on. */
export function marc8Bytes(text: string): Buffer {
  const out: number[] = [];
  const points = Array.from(text.normalize('NFD'), (char) => char.codePointAt(0) as number);
  const emit = (point: number) => {
    if (point < 0x80) out.push(point);
    else {
      const ansel = ANSEL_BYTE.get(point);
      if (ansel !== undefined) out.push(ansel);
      else for (const char of `&#x${point.toString(16).toUpperCase().padStart(4, '0')};`) out.push(char.charCodeAt(0));
    }
  };
  for (let i = 0; i < points.length; i++) {
    const base = points[i] as number;
    let end = i + 1;
    while (end < points.length && ANSEL_COMBINING.has(points[end] as number)) end++;
    for (let mark = i + 1; mark < end; mark++) emit(points[mark] as number);
    emit(base);
    i = end - 1;
  }
  return Buffer.from(out);
}

// ---------------------------------------------------------------------------------------------------
// Documents to records

const list = (value: unknown): string[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter((v): v is string => typeof v === 'string');

function data(tag: string, ind1: string, ind2: string, subfields: ReadonlyArray<readonly [string, string]>): MarcDataField {
  return { tag, ind1, ind2, subfields: subfields.map(([code, value]) => ({ code, value })) };
}

/** The MARC record of one generated document. */
export function marcRecordOf(document: Readonly<Record<string, unknown>>): MarcRecord {
  const formats = list(document.format);
  const type = formats.includes('Video') ? 'g' : formats.includes('Audio Book') ? 'i' : 'a';
  const level = formats.includes('Article') ? 'a' : 'm';
  const year = /\d{4}/.exec(String(document.publishDate ?? ''))?.[0] ?? '    ';
  const fields: MarcField[] = [
    { tag: '001', value: String(document.id) },
    // 008 (40 positions): entered, single date, place, then filler up to the undetermined language.
    { tag: '008', value: `250701s${year}    bl            000 0 und d` },
  ];
  const authors = list(document.author);
  const uniformTitle = typeof document.title_uniform === 'string' ? document.title_uniform : undefined;
  if (authors[0] !== undefined) fields.push(data('100', '1', ' ', [['a', authors[0]]]));
  else if (uniformTitle !== undefined) fields.push(data('130', '0', ' ', [['a', uniformTitle]]));
  if (authors[0] !== undefined && uniformTitle !== undefined) fields.push(data('240', '1', '0', [['a', uniformTitle]]));
  const title = String(document.title ?? '');
  const colon = title.indexOf(':');
  const titleSubfields: Array<[string, string]> = colon > 0
    ? [['a', `${title.slice(0, colon).trim()} :`], ['b', title.slice(colon + 1).trim()]]
    : [['a', title]];
  fields.push(data('245', authors.length > 0 || uniformTitle !== undefined ? '1' : '0', '0', titleSubfields));
  if (document.publishDate !== undefined) fields.push(data('260', ' ', ' ', [['a', 'São Paulo :'], ['b', 'Editora Exemplo,'], ['c', String(document.publishDate)]]));
  if (formats.includes('Thesis') || formats.includes('Dissertation')) {
    fields.push(data('502', ' ', ' ', [['a', `Tese (doutorado)${typeof document.author_corporate === 'string' ? ` -- ${document.author_corporate}` : ''}`]]));
  }
  for (const name of [...authors.slice(1), ...list(document.author2)]) fields.push(data('700', '1', ' ', [['a', name]]));
  for (const name of list(document.author_corporate)) fields.push(data('710', '2', ' ', [['a', name]]));
  for (const url of list(document.url)) fields.push(data('856', '4', '0', [['u', url]]));
  return { leader: `00000n${type}${level} a2200000 a 4500`, fields };
}

/** The record's fields as MARC-8 bytes, for encodeIso2709Raw. */
function marc8Fields(record: MarcRecord): RawField[] {
  return record.fields.map((field) => ('subfields' in field
    ? rawDataField(field.tag, field.ind1, field.ind2, field.subfields.map((s) => [s.code, marc8Bytes(s.value)] as const))
    : rawControlField(field.tag, marc8Bytes(field.value))));
}

/** Whether record `slot` is written in MARC-8: a fixed share, spread over the file by a hash of the slot. */
function isMarc8(slot: number, share: number): boolean {
  return ((Math.imul(slot + 1, 0x9e3779b1) >>> 0) / 4_294_967_296) < share;
}

// ---------------------------------------------------------------------------------------------------
// Files

/** Appends buffers to a file in blocks of ~4 MB. */
class BlockWriter {
  private readonly fd: number;
  private parts: Buffer[] = [];
  private size = 0;
  bytes = 0;

  constructor(path: string) {
    this.fd = openSync(path, 'w');
  }

  write(part: Buffer): void {
    this.parts.push(part);
    this.size += part.length;
    if (this.size >= 4 << 20) this.flush();
  }

  flush(): void {
    if (this.size === 0) return;
    const block = Buffer.concat(this.parts, this.size);
    for (let at = 0; at < block.length;) at += writeSync(this.fd, block, at);
    this.bytes += block.length;
    this.parts = [];
    this.size = 0;
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

export interface MarcFileSummary {
  readonly records: number;
  readonly marc8Records: number;
  readonly bytes: number;
}

/** The first `records` documents of the plan as ISO 2709, `marc8Share` of them in MARC-8. */
export function writeIso2709Catalog(path: string, plan: CatalogPlan, records: number, marc8Share: number): MarcFileSummary {
  const out = new BlockWriter(path);
  let slot = 0;
  let marc8 = 0;
  for (const document of generateRecords(plan)) {
    if (slot >= records) break;
    const record = marcRecordOf(document);
    if (isMarc8(slot, marc8Share)) {
      marc8++;
      // Leader/09 blank: MARC-8.
      out.write(encodeIso2709Raw(`${record.leader.slice(0, 9)} ${record.leader.slice(10)}`, marc8Fields(record)));
    } else {
      out.write(encodeIso2709(record));
    }
    slot++;
  }
  out.close();
  return { records: slot, marc8Records: marc8, bytes: out.bytes };
}

const XML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const xml = (text: string) => text.replace(/[&<>"]/g, (char) => XML_ESCAPES[char] as string);

/** The first `records` documents of the plan as one MARCXML collection. */
export function writeMarcXmlCatalog(path: string, plan: CatalogPlan, records: number): MarcFileSummary {
  const out = new BlockWriter(path);
  out.write(Buffer.from('<?xml version="1.0" encoding="UTF-8"?>\n<collection xmlns="http://www.loc.gov/MARC21/slim">\n'));
  let slot = 0;
  for (const document of generateRecords(plan)) {
    if (slot >= records) break;
    const record = marcRecordOf(document);
    let text = `<record><leader>${xml(record.leader)}</leader>`;
    for (const field of record.fields) {
      if (!('subfields' in field)) {
        text += `<controlfield tag="${field.tag}">${xml(field.value)}</controlfield>`;
        continue;
      }
      text += `<datafield tag="${field.tag}" ind1="${field.ind1}" ind2="${field.ind2}">`;
      for (const subfield of field.subfields) text += `<subfield code="${subfield.code}">${xml(subfield.value)}</subfield>`;
      text += '</datafield>';
    }
    out.write(Buffer.from(`${text}</record>\n`));
    slot++;
  }
  out.write(Buffer.from('</collection>\n'));
  out.close();
  return { records: slot, marc8Records: 0, bytes: out.bytes };
}
