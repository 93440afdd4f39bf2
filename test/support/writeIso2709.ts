/**
 * Writes MARC records as ISO 2709 bytes, for tests and the benchmark's generated catalogs: UTF-8 records
 * from MarcRecords (Leader/09 `a`), and records from raw field bytes for MARC-8 test data (a combining
 * diacritic before its letter, escapes to other character sets), written exactly as given.
 *
 * Leader positions 00–04 (record length), 10–11 (`22`), 12–16 (base address) and 20–23 (`4500`) are
 * filled in; the other positions are the caller's. Tests that need a broken record edit the bytes this
 * returns. Speed matters because the benchmark writes a million records: one buffer per record, and the
 * data area is encoded in one write.
 *
 * Left to others: reading records back (src/marc/iso2709Reader.ts); encoding text as MARC-8.
 */
import type { MarcRecord } from '../../src/marc/marcRecord.js';

/** A field as the bytes between its directory entry and its field terminator. */
export interface RawField {
  readonly tag: string;
  readonly bytes: Uint8Array;
}

/** Text given for raw fields: a string is taken one byte per character (latin1), so '\xE2e' is MARC-8 é. */
export type RawText = string | Uint8Array;

const FIELD_TERMINATOR = '\x1e';
const SUBFIELD_DELIMITER = '\x1f';
const RECORD_TERMINATOR = 0x1d;

function rawBytes(text: RawText): Buffer {
  return typeof text === 'string' ? Buffer.from(text, 'latin1') : Buffer.from(text.buffer, text.byteOffset, text.byteLength);
}

/** A control field (001–009) from raw bytes. */
export function rawControlField(tag: string, value: RawText): RawField {
  return { tag, bytes: rawBytes(value) };
}

/** A data field from raw bytes: indicators, then each subfield as a delimiter, its code and its bytes. */
export function rawDataField(tag: string, ind1: string, ind2: string, subfields: readonly (readonly [code: string, value: RawText])[]): RawField {
  const parts: Buffer[] = [Buffer.from(ind1 + ind2, 'latin1')];
  for (const [code, value] of subfields) parts.push(Buffer.from(SUBFIELD_DELIMITER + code, 'latin1'), rawBytes(value));
  return { tag, bytes: Buffer.concat(parts) };
}

function leaderWith(leader: string, recordLength: number, baseAddress: number, encoding?: string): string {
  const given = leader.padEnd(24, ' ').slice(0, 24);
  return (
    String(recordLength).padStart(5, '0') +
    given.slice(5, 9) +
    (encoding ?? given[9]) +
    '22' +
    String(baseAddress).padStart(5, '0') +
    given.slice(17, 20) +
    '4500'
  );
}

function directoryEntry(tag: string, length: number, start: number): string {
  return tag.padEnd(3, ' ').slice(0, 3) + String(length).padStart(4, '0') + String(start).padStart(5, '0');
}

/** One record from raw fields (MARC-8 or anything else), bytes as given; Leader/09 as the leader says. */
export function encodeIso2709Raw(leader: string, fields: readonly RawField[]): Buffer {
  let directory = '';
  let dataLength = 0;
  for (const field of fields) {
    const length = field.bytes.byteLength + 1;
    directory += directoryEntry(field.tag, length, dataLength);
    dataLength += length;
  }
  directory += FIELD_TERMINATOR;
  const baseAddress = 24 + directory.length;
  const recordLength = baseAddress + dataLength + 1;
  const out = Buffer.allocUnsafe(recordLength);
  out.write(leaderWith(leader, recordLength, baseAddress), 0, 'latin1');
  out.write(directory, 24, 'latin1');
  let at = baseAddress;
  for (const field of fields) {
    out.set(field.bytes, at);
    at += field.bytes.byteLength;
    out[at] = 0x1e;
    at += 1;
  }
  out[at] = RECORD_TERMINATOR;
  return out;
}

/** One record in UTF-8 (Leader/09 set to `a`), text as given (callers wanting NFC pass NFC). */
export function encodeIso2709(record: MarcRecord): Buffer {
  let directory = '';
  let data = '';
  let dataLength = 0;
  for (const field of record.fields) {
    let text: string;
    if ('subfields' in field) {
      text = field.ind1 + field.ind2;
      for (const subfield of field.subfields) text += SUBFIELD_DELIMITER + subfield.code + subfield.value;
    } else {
      text = field.value;
    }
    text += FIELD_TERMINATOR;
    const length = Buffer.byteLength(text, 'utf8');
    directory += directoryEntry(field.tag, length, dataLength);
    data += text;
    dataLength += length;
  }
  directory += FIELD_TERMINATOR;
  const baseAddress = 24 + directory.length;
  const recordLength = baseAddress + dataLength + 1;
  const out = Buffer.allocUnsafe(recordLength);
  out.write(leaderWith(record.leader, recordLength, baseAddress, 'a'), 0, 'latin1');
  out.write(directory, 24, 'latin1');
  out.write(data, baseAddress, 'utf8');
  out[recordLength - 1] = RECORD_TERMINATOR;
  return out;
}

/** Several UTF-8 records, one after another, as a file holds them. */
export function writeIso2709(records: Iterable<MarcRecord>): Buffer {
  const parts: Buffer[] = [];
  for (const record of records) parts.push(encodeIso2709(record));
  return Buffer.concat(parts);
}
