/**
 * Streams MARC 21 records out of an ISO 2709 ("binary MARC", .mrc) file in constant memory, whatever its
 * size: the file is read in chunks, cut at record terminators (1D), and each record's leader, directory
 * (12-character entries: tag, length, start) and fields (terminated by 1E, subfields introduced by 1F) are
 * parsed from the bytes. Text is UTF-8 when Leader/09 is `a` and MARC-8 otherwise (blank, as MARC 21 has
 * it, or anything else; marc8.ts decodes it), and leaves in Unicode NFC.
 *
 * A record that cannot be read comes out as a `problem` saying what is wrong in a cataloguer's words, and
 * reading goes on after its record terminator. Permissive readers are the norm (pymarc in permissive mode,
 * marc4j's MarcPermissiveStreamReader, ruby-marc's forgiving reader), and this one is lenient wherever
 * the bytes still say one thing only:
 * - the record terminator decides where a record ends: a wrong or non-numeric record length in the leader
 *   is ignored, and so is a wrong base address when the directory ends (1E) after a whole number of entries;
 * - where the directory's lengths or starts do not land on field terminators (a tool counted characters,
 *   not bytes) but the data holds exactly as many fields as the directory has entries, the fields are
 *   taken in order, each up to its terminator;
 * - a 1D inside a field is skipped over when the leader's record length points at a later 1D that makes
 *   the record whole; two records run together (a lost 1D) are separated where the first one's leader and
 *   directory say it ends;
 * - CR, LF, NUL and Ctrl-Z between records (line-oriented dumps) are skipped; at the end of the file,
 *   whitespace is ignored and a last record lacking only its terminator is read;
 * - a record with a non-`a` Leader/09 whose bytes are valid UTF-8 with multibyte characters and no MARC-8
 *   escapes is read as UTF-8 (MARC-8 text is never valid UTF-8 in practice: its diacritics E0–FE are
 *   followed by ASCII letters), since exports that convert to UTF-8 often forget Leader/09;
 * - the other way round, as marc4j's permissive reader (VuFind's importer) has it: a record labelled UTF-8
 *   whose bytes are not UTF-8 is read as MARC-8 (its E2 before an e is an acute, not a broken sequence),
 *   unless it holds no escape and only a few bytes are amiss (then they become U+FFFD); a valid UTF-8
 *   record is read as before, the check running only when its decoding shows a U+FFFD.
 * A record too short for a leader, a leader holding control characters, a directory that is not a whole
 * number of entries or has non-digits in its numbers, and fields that run past the record or do not end
 * where the directory says (beyond the fallback above) make a problem. 16 MB without any 1D is one
 * problem, after which reading picks up at the first record whose leader length ends on a 1D. The
 * position's recordNumber counts every record, good or bad; its id is the 001 when it could be read.
 *
 * Left to others: what a record means (mapping), and the MARC-8 character sets themselves (marc8.ts).
 *
 * Longer than 300 lines: cutting records out of a stream (RecordSplitter) and parsing one record's
 * leader, directory and fields with the fallbacks above (RecordParser) share the byte-level helpers and
 * the outcomes one pass hands the other; the parser alone is most of the file, and its fallbacks read
 * best next to the rules they fall back from.
 */
import { isUtf8 } from 'node:buffer';
import { InvalidArgumentError, MalformedMarcError } from '../errors.js';
import type { SourceItem } from '../record/sourceRecord.js';
import { Marc8Decoder } from './marc8.js';
import { checkedFilePath, fileChunks } from '../fileChunks.js';
import { MAY_CHANGE_UNDER_NFC, toNfc, type MarcField, type MarcRecord, type MarcSubfield } from './marcRecord.js';

const RECORD_TERMINATOR = 0x1d;
const FIELD_TERMINATOR = 0x1e;
const LEADER_LENGTH = 24;
const ENTRY_LENGTH = 12;
/** The most a leader's five digits can say. */
const MAX_RECORD_LENGTH = 99_999;
/**
 * How many bytes may go by without a record terminator before the reader gives up on them. The leader can
 * state 99,999 bytes at most, but some systems write longer records with a wrong length; 16 MB is far
 * beyond any record and keeps memory bounded when a file is not ISO 2709 at all.
 */
const MAX_BYTES_WITHOUT_TERMINATOR = 16 << 20;

const HIGH_BYTE = /[\x80-\xff]/;
const MARC8_SPECIAL = /[\x1b\x80-\xff]/;
/** An escape that designates a MARC-8 character set (marc4j's test for "this record is MARC-8"). */
const MARC8_ESCAPE_SEQUENCE = /\x1b[-(,)$bspg]/;

/** Reads an ISO 2709 file; the file is opened when reading starts. Throws only if the file cannot be read. */
export function readIso2709(path: string): AsyncGenerator<SourceItem<MarcRecord>> {
  return readIso2709Stream(fileChunks(checkedFilePath('readIso2709', path)), path);
}

/** Reads ISO 2709 records from chunks of bytes cut anywhere; `source` names them in positions. */
export async function* readIso2709Stream(chunks: AsyncIterable<Uint8Array>, source: string): AsyncGenerator<SourceItem<MarcRecord>> {
  const splitter = new RecordSplitter(source);
  for await (const chunk of chunks) {
    const items = splitter.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    // The records of one chunk are parsed together and handed out one by one: fewer suspensions, and
    // memory stays at one chunk's worth of records.
    for (const item of items) yield item as SourceItem<MarcRecord>;
  }
  for (const item of splitter.finish()) yield item as SourceItem<MarcRecord>;
}

/**
 * The same records as readIso2709Stream, each as its own bytes (leader to the byte before its record
 * terminator) instead of parsed: the record is checked as that reader checks it (a record it would
 * refuse is the same problem here, at the same position, with the same 001), but its fields are not
 * decoded. parseIso2709Record turns the bytes into the very record readIso2709Stream gives. This is how
 * records are handed to the mapping step in worker threads (src/ingest/mappingPool.ts): bytes cross
 * threads for the price of a copy, a parsed record costs as much to clone as to read.
 */
export async function* readIso2709RecordBytes(chunks: AsyncIterable<Uint8Array>, source: string): AsyncGenerator<SourceItem<Uint8Array>> {
  const splitter = new RecordSplitter(source, false);
  for await (const chunk of chunks) {
    const items = splitter.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    for (const item of items) yield item as SourceItem<Uint8Array>;
  }
  for (const item of splitter.finish()) yield item as SourceItem<Uint8Array>;
}

/** The record of bytes readIso2709RecordBytes gave, parsed as readIso2709Stream parses it. */
export function parseIso2709Record(bytes: Uint8Array): MarcRecord {
  if (!(bytes instanceof Uint8Array)) throw new InvalidArgumentError('parseIso2709Record', 'bytes', 'the bytes of one ISO 2709 record (a Uint8Array)', bytes);
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const outcome = recordParser.parse(buffer, 0, buffer.length, true);
  if (outcome === NEED_MORE_BYTES || !outcome.ok) {
    throw new MalformedMarcError(`not the bytes of one readable ISO 2709 record: ${outcome === NEED_MORE_BYTES ? 'it ends early' : outcome.reason}`);
  }
  return outcome.record as MarcRecord;
}

/** The records in one run of ISO 2709 bytes held whole (a Solr core's stored `fullrecord`), read at once. */
export function parseIso2709(bytes: Buffer, source: string): SourceItem<MarcRecord>[] {
  const splitter = new RecordSplitter(source);
  return [...splitter.push(bytes), ...splitter.finish()] as SourceItem<MarcRecord>[];
}

/** Cuts a byte stream into records and parses them, carrying a record split across chunks over. */
class RecordSplitter {
  private readonly parser: RecordParser;
  private recordNumber = 0;
  /** Bytes after the last whole record, waiting for the rest of it. */
  private pending: Buffer | undefined;
  /**
   * After giving up on a long run of bytes without a terminator, its last 99,999 bytes are kept: the next
   * record starts where a leader's record length ends exactly on the next terminator.
   */
  private resynchronising = false;

  /** `parsed`: records come out parsed (MarcRecord); otherwise as their bytes, checked but not decoded. */
  constructor(private readonly source: string, parsed = true) {
    this.parser = new RecordParser(parsed);
  }

  push(chunk: Buffer): SourceItem<MarcRecord | Buffer>[] {
    const items: SourceItem<MarcRecord | Buffer>[] = [];
    let buffer = chunk;
    if (this.pending !== undefined) {
      // Join the carried-over bytes with this chunk only up to its first terminator, not the whole chunk.
      const terminator = buffer.indexOf(RECORD_TERMINATOR);
      if (terminator < 0) {
        this.pending = Buffer.concat([this.pending, buffer]);
        this.giveUpIfTooLong(items);
        return items;
      }
      const head = Buffer.concat([this.pending, buffer.subarray(0, terminator + 1)]);
      this.pending = undefined;
      const used = this.readRecords(head, false, items);
      const rest = buffer.subarray(terminator + 1);
      buffer = used < head.length ? Buffer.concat([head.subarray(used), rest]) : rest;
    }
    const used = this.readRecords(buffer, false, items);
    this.pending = used < buffer.length ? buffer.subarray(used) : undefined;
    this.giveUpIfTooLong(items);
    return items;
  }

  /** The end of the stream: a record whose 1D the leader length waited for, then what follows the last 1D. */
  finish(): SourceItem<MarcRecord | Buffer>[] {
    const items: SourceItem<MarcRecord | Buffer>[] = [];
    const pending = this.pending;
    this.pending = undefined;
    if (pending === undefined) return items;
    const position = skipSeparators(pending, this.readRecords(pending, true, items));
    if (position >= pending.length || isOnlyPadding(pending, position) || this.resynchronising) return items;
    this.recordNumber += 1;
    const outcome = this.parser.parse(pending, position, pending.length, true);
    if (outcome === NEED_MORE_BYTES || outcome.ok) {
      if (outcome !== NEED_MORE_BYTES) items.push(itemOf(outcome, this.source, this.recordNumber));
      return items;
    }
    const reason = `the file ends in the middle of a record (${pending.length - position} bytes with no record terminator): ${outcome.reason}`;
    items.push(itemOf({ ...outcome, reason }, this.source, this.recordNumber));
    return items;
  }

  /** Parses the whole records in `buffer` into `items`; returns how many bytes they took. */
  private readRecords(buffer: Buffer, atEnd: boolean, items: SourceItem<MarcRecord | Buffer>[]): number {
    let position = 0;
    for (;;) {
      position = skipSeparators(buffer, position);
      const terminator = buffer.indexOf(RECORD_TERMINATOR, position);
      if (terminator < 0) return position;
      if (this.resynchronising) {
        this.resynchronising = false;
        const start = leaderEndingAt(buffer, position, terminator);
        if (start < 0) {
          position = terminator + 1; // already reported as part of the run without terminators
          continue;
        }
        position = start;
      }
      const outcome = this.parser.parse(buffer, position, terminator, atEnd);
      if (outcome === NEED_MORE_BYTES) return position;
      this.recordNumber += 1;
      items.push(itemOf(outcome, this.source, this.recordNumber));
      position = outcome.next;
    }
  }

  private giveUpIfTooLong(items: SourceItem<MarcRecord | Buffer>[]): void {
    const pending = this.pending;
    if (pending === undefined || pending.length <= MAX_BYTES_WITHOUT_TERMINATOR) return;
    if (!this.resynchronising) {
      this.recordNumber += 1;
      items.push({
        kind: 'problem',
        position: { source: this.source, recordNumber: this.recordNumber },
        reason: `no record terminator in ${pending.length} bytes: this part of the file is not MARC records, and is skipped`,
      });
    }
    this.pending = Buffer.from(pending.subarray(pending.length - MAX_RECORD_LENGTH));
    this.resynchronising = true;
  }
}

/** Where in [from, terminator) a record starts whose leader's record length ends exactly at `terminator`; -1 if nowhere. */
function leaderEndingAt(buffer: Buffer, from: number, terminator: number): number {
  for (let start = Math.max(from, terminator + 1 - MAX_RECORD_LENGTH); start + LEADER_LENGTH < terminator; start += 1) {
    if (readDigits(buffer, start, 5) === terminator + 1 - start) return start;
  }
  return -1;
}

type ParseOutcome =
  | { readonly ok: true; readonly record: MarcRecord | Buffer; readonly id: string | undefined; readonly next: number }
  | { readonly ok: false; readonly reason: string; readonly id: string | undefined; readonly next: number; readonly runsPastEnd: boolean };

const NEED_MORE_BYTES = Symbol('need more bytes');
const NEEDS_DECODING = Symbol('needs decoding');

function failure(next: number, reason: string, id?: string, runsPastEnd = false): ParseOutcome {
  return { ok: false, reason, id, next, runsPastEnd };
}

function itemOf(outcome: ParseOutcome, source: string, recordNumber: number): SourceItem<MarcRecord | Buffer> {
  const position = outcome.id === undefined ? { source, recordNumber } : { source, recordNumber, id: outcome.id };
  return outcome.ok ? { kind: 'record', position, record: outcome.record } : { kind: 'problem', position, reason: outcome.reason };
}

/** CR, LF, NUL and Ctrl-Z between records. */
function skipSeparators(buffer: Buffer, position: number): number {
  let at = position;
  while (at < buffer.length) {
    const byte = buffer[at] as number;
    if (byte !== 0x0a && byte !== 0x0d && byte !== 0x00 && byte !== 0x1a) break;
    at += 1;
  }
  return at;
}

function isOnlyPadding(buffer: Buffer, from: number): boolean {
  for (let at = from; at < buffer.length; at += 1) {
    const byte = buffer[at] as number;
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x00 && byte !== 0x1a) return false;
  }
  return true;
}

/** `count` ASCII digits at `at` as a number, or -1 if any is not a digit. */
function readDigits(buffer: Buffer, at: number, count: number): number {
  let value = 0;
  for (let k = 0; k < count; k += 1) {
    const byte = buffer[at + k];
    if (byte === undefined || byte < 0x30 || byte > 0x39) return -1;
    value = value * 10 + (byte - 0x30);
  }
  return value;
}

function printable(buffer: Buffer, from: number, to: number): string {
  return JSON.stringify(buffer.toString('latin1', from, to));
}

/** Tags as strings, made once each (the same few dozen tags come back in every record). */
const tagStrings = new Map<number, string>();
function tagAt(buffer: Buffer, at: number): string {
  const key = ((buffer[at] as number) << 16) | ((buffer[at + 1] as number) << 8) | (buffer[at + 2] as number);
  let tag = tagStrings.get(key);
  if (tag === undefined) {
    tag = buffer.toString('latin1', at, at + 3);
    if (tagStrings.size < 4096) tagStrings.set(key, tag);
  }
  return tag;
}

/** Parses one record at a time; keeps its scratch arrays and MARC-8 decoder between records. */
class RecordParser {
  private fieldStarts = new Int32Array(256);
  private fieldEnds = new Int32Array(256);
  private readonly marc8 = new Marc8Decoder();

  /** `parsed`: a good record is built (fields decoded); otherwise it is answered as its bytes, copied. */
  constructor(private readonly parsed = true) {}

  /**
   * The record in buffer[start, terminator) (`terminator` is the 1D, or the end of the data at the end of
   * the file). NEED_MORE_BYTES when the leader's record length points past the bytes at hand and might
   * show the first 1D to be one inside a field.
   */
  parse(buffer: Buffer, start: number, terminator: number, atEnd: boolean): ParseOutcome | typeof NEED_MORE_BYTES {
    const outcome = this.parseBetween(buffer, start, terminator);
    if (outcome.ok || !outcome.runsPastEnd) return outcome;
    // Fields run past this 1D: if the leader's record length ends on a later 1D, this one was in the data.
    const declaredLength = readDigits(buffer, start, 5);
    const declaredEnd = start + declaredLength - 1;
    if (declaredLength <= LEADER_LENGTH || declaredEnd <= terminator) return outcome;
    if (declaredEnd >= buffer.length) return atEnd ? outcome : NEED_MORE_BYTES;
    if (buffer[declaredEnd] !== RECORD_TERMINATOR) return outcome;
    const longer = this.parseBetween(buffer, start, declaredEnd);
    return longer.ok ? longer : outcome;
  }

  private parseBetween(buffer: Buffer, start: number, end: number): ParseOutcome {
    const next = end + 1;
    const length = end - start;
    if (length < LEADER_LENGTH + 1) {
      return failure(next, `the record is only ${length} bytes long, too short for a 24-character leader and a directory`);
    }
    for (let at = start; at < start + LEADER_LENGTH; at += 1) {
      const byte = buffer[at] as number;
      if (byte < 0x20 || byte > 0x7e) {
        return failure(next, 
          `the leader is broken: character ${at - start} of it is byte ${byte.toString(16).toUpperCase().padStart(2, '0')}, ` +
            `not a letter, digit or space (${printable(buffer, start, start + LEADER_LENGTH)})`,
        );
      }
    }
    const directoryStart = start + LEADER_LENGTH;
    const directoryEnd = buffer.indexOf(FIELD_TERMINATOR, directoryStart);
    if (directoryEnd < 0 || directoryEnd >= end) {
      return failure(next, 'the directory has no end: there is no field terminator after the leader');
    }
    const directoryLength = directoryEnd - directoryStart;
    if (directoryLength % ENTRY_LENGTH !== 0) {
      const baseAddress = readDigits(buffer, start + 12, 5);
      const leaderSays =
        baseAddress >= 0 && baseAddress !== directoryEnd + 1 - start
          ? ` (the leader puts the data at ${baseAddress}, the directory ends at ${directoryEnd + 1 - start})`
          : '';
      return failure(next, 
        `the directory is ${directoryLength} characters long, not a whole number of 12-character entries (tag, length, start)${leaderSays}`,
        this.peekControlNumber(buffer, directoryStart, Math.floor(directoryLength / ENTRY_LENGTH), directoryEnd + 1, end),
      );
    }

    const entryCount = directoryLength / ENTRY_LENGTH;
    const base = directoryEnd + 1;
    const dataLength = end - base;
    if (this.fieldStarts.length < entryCount) {
      this.fieldStarts = new Int32Array(entryCount * 2);
      this.fieldEnds = new Int32Array(entryCount * 2);
    }
    const starts = this.fieldStarts;
    const ends = this.fieldEnds;
    let consistent = true;
    let firstMismatch = -1;
    for (let k = 0; k < entryCount; k += 1) {
      const at = directoryStart + k * ENTRY_LENGTH;
      for (let t = at; t < at + 3; t += 1) {
        const byte = buffer[t] as number;
        if (byte < 0x20 || byte > 0x7e) {
          return failure(next, 
            `directory entry ${k + 1} has tag ${printable(buffer, at, at + 3)}, which is not a MARC tag`,
            this.peekControlNumber(buffer, directoryStart, k, base, end),
          );
        }
      }
      const fieldLength = readDigits(buffer, at + 3, 4);
      if (fieldLength < 0) {
        return failure(next, 
          `directory entry ${k + 1} (field ${printable(buffer, at, at + 3)}): the field length ${printable(buffer, at + 3, at + 7)} is not a number`,
          this.peekControlNumber(buffer, directoryStart, k, base, end),
        );
      }
      const fieldStart = readDigits(buffer, at + 7, 5);
      if (fieldStart < 0) {
        return failure(next, 
          `directory entry ${k + 1} (field ${printable(buffer, at, at + 3)}): the starting position ${printable(buffer, at + 7, at + 12)} is not a number`,
          this.peekControlNumber(buffer, directoryStart, k, base, end),
        );
      }
      const terminatorAt = base + fieldStart + fieldLength - 1;
      starts[k] = base + fieldStart;
      ends[k] = terminatorAt;
      if (consistent && (fieldLength < 1 || terminatorAt >= end || buffer[terminatorAt] !== FIELD_TERMINATOR)) {
        consistent = false;
        firstMismatch = k;
      }
    }

    let lastFieldEnd = base;
    if (consistent) {
      for (let k = 0; k < entryCount; k += 1) lastFieldEnd = Math.max(lastFieldEnd, (ends[k] as number) + 1);
    } else {
      // The directory's numbers miss the field terminators. If the data has exactly one field per entry,
      // take them in order (the lengths were counted in characters, or edited by hand); otherwise give up.
      let from = base;
      let k = 0;
      for (; k < entryCount; k += 1) {
        const fieldEnd = buffer.indexOf(FIELD_TERMINATOR, from);
        if (fieldEnd < 0 || fieldEnd >= end) break;
        starts[k] = from;
        ends[k] = fieldEnd;
        from = fieldEnd + 1;
      }
      const moreFields = from < end && buffer.indexOf(FIELD_TERMINATOR, from) >= 0 && buffer.indexOf(FIELD_TERMINATOR, from) < end;
      if (k < entryCount || moreFields) {
        const at = directoryStart + firstMismatch * ENTRY_LENGTH;
        const tag = printable(buffer, at, at + 3);
        const fieldStart = readDigits(buffer, at + 7, 5);
        const fieldLength = readDigits(buffer, at + 3, 4);
        const id = this.peekControlNumber(buffer, directoryStart, entryCount, base, end);
        if (base + fieldStart + fieldLength > end) {
          const declaredLength = readDigits(buffer, start, 5);
          const lengthNote =
            declaredLength >= 0 && declaredLength !== length + 1
              ? `; the leader gives the record length as ${declaredLength} but its record terminator comes after ${length + 1}`
              : '';
          return failure(next, 
            `field ${tag} (directory entry ${firstMismatch + 1}) runs past the end of the record: it starts at ${fieldStart} and is ` +
              `${fieldLength} bytes long, but the record has only ${dataLength} bytes of data${lengthNote}`,
            id,
            true,
          );
        }
        return failure(next, 
          `field ${tag} (directory entry ${firstMismatch + 1}) does not end where the directory says (no field terminator at byte ${fieldStart + fieldLength - 1} of the data), ` +
            `and the data does not hold one field per directory entry`,
          id,
        );
      }
      lastFieldEnd = from;
    }

    // Bytes after the last field. Two records run together (a lost 1D) show as the next record's bytes
    // here, with the leader's length pointing exactly at where this record's 1D should have been.
    let recordEnd = next;
    if (lastFieldEnd < end) {
      const declaredLength = readDigits(buffer, start, 5);
      if (declaredLength > 0 && start + declaredLength - 1 === lastFieldEnd && readDigits(buffer, lastFieldEnd, 5) >= 0) {
        recordEnd = lastFieldEnd;
      } else {
        const strayField = buffer.indexOf(FIELD_TERMINATOR, lastFieldEnd);
        if (strayField >= 0 && strayField < end) {
          return failure(next, 
            `the record has ${end - lastFieldEnd} bytes after its last field that its directory does not account for`,
            this.peekControlNumber(buffer, directoryStart, entryCount, base, end),
          );
        }
      }
    }

    const recordBytesEnd = Math.min(end, recordEnd);
    if (!this.parsed) {
      const bytes = Buffer.from(buffer.subarray(start, recordBytesEnd));
      const id = this.controlNumber(buffer, directoryStart, entryCount);
      return { ok: true, record: bytes, id: id === NEEDS_DECODING ? this.idOf(this.buildRecord(buffer, start, base, recordBytesEnd, directoryStart, entryCount)) : id, next: recordEnd };
    }
    const record = this.buildRecord(buffer, start, base, recordBytesEnd, directoryStart, entryCount);
    return { ok: true, record, id: this.idOf(record), next: recordEnd };
  }

  /** The record's id as positions carry it: its first 001, trimmed. */
  private idOf(record: MarcRecord): string | undefined {
    let id: string | undefined;
    for (const field of record.fields) {
      if (field.tag === '001' && 'value' in field) {
        id = field.value.trim() || undefined;
        break;
      }
    }
    return id;
  }

  /**
   * The first 001 of a checked record read from its bytes, as idOf reads it from the built record; when
   * its bytes hold an escape or a byte above ASCII (which decoding would change), NEEDS_DECODING.
   */
  private controlNumber(buffer: Buffer, directoryStart: number, entryCount: number): string | undefined | typeof NEEDS_DECODING {
    for (let k = 0; k < entryCount; k += 1) {
      const at = directoryStart + k * ENTRY_LENGTH;
      if (buffer[at] !== 0x30 || buffer[at + 1] !== 0x30 || buffer[at + 2] !== 0x31) continue;
      const text = buffer.toString('latin1', this.fieldStarts[k] as number, this.fieldEnds[k] as number);
      return MARC8_SPECIAL.test(text) ? NEEDS_DECODING : text.trim() || undefined;
    }
    return undefined;
  }

  private buildRecord(buffer: Buffer, start: number, base: number, end: number, directoryStart: number, entryCount: number): MarcRecord {
    const leader = buffer.toString('latin1', start, start + LEADER_LENGTH);
    if (leader.charCodeAt(9) === 0x61) {
      const fields = this.utf8Fields(buffer, base, end, directoryStart, entryCount);
      if (fields !== undefined) return { leader, fields };
    }
    // Offsets in a latin1 string are byte offsets, so one string serves every field of a MARC-8 or ASCII
    // record, and MARC-8 is decoded from it directly.
    const data = buffer.toString('latin1', base, end);
    let utf8 = leader.charCodeAt(9) === 0x61;
    if (utf8) {
      // As marc4j's permissive reader (VuFind's importer) does: a record labelled UTF-8 that holds MARC-8
      // escape sequences and no byte above ASCII is MARC-8, so ESC b 2 ESC s is a subscript two, not the
      // letters b2s; and one whose bytes are not UTF-8 is MARC-8 (its accents E0–FE before ASCII letters
      // are what makes them not UTF-8), unless it holds no escape and its bytes are UTF-8 but for a few
      // slips (mostlyUtf8).
      const escapes = data.indexOf('\x1b') >= 0;
      if (!HIGH_BYTE.test(data)) {
        if (escapes && MARC8_ESCAPE_SEQUENCE.test(data)) utf8 = false;
      } else if (!isUtf8(buffer.subarray(base, end))) {
        utf8 = !escapes && mostlyUtf8(buffer.toString('utf8', base, end));
      }
    } else if (data.indexOf('\x1b') < 0 && HIGH_BYTE.test(data) && isUtf8(buffer.subarray(base, end))) {
      utf8 = true;
    }
    const special = utf8 ? HIGH_BYTE.test(data) : MARC8_SPECIAL.test(data);
    const fields: MarcField[] = new Array(entryCount);
    for (let k = 0; k < entryCount; k += 1) {
      const tag = tagAt(buffer, directoryStart + k * ENTRY_LENGTH);
      const fieldStart = this.fieldStarts[k] as number;
      const fieldEnd = this.fieldEnds[k] as number;
      let text = data.slice(fieldStart - base, fieldEnd - base);
      let decodeMarc8 = false;
      let decodedUtf8 = false;
      if (special) {
        if (utf8) {
          if (HIGH_BYTE.test(text)) {
            text = buffer.toString('utf8', fieldStart, fieldEnd);
            decodedUtf8 = MAY_CHANGE_UNDER_NFC.test(text);
          }
        } else {
          decodeMarc8 = MARC8_SPECIAL.test(text);
        }
      }
      fields[k] = this.fieldOf(tag, text, decodeMarc8, decodedUtf8);
    }
    return { leader, fields };
  }

  /**
   * The fields of a record labelled UTF-8 (Leader/09 `a`) read from its data decoded once, where that
   * gives what buildRecord's field-by-field reading gives: no escape (1B) in the data (buildRecord may read
   * such a record as MARC-8), the fields one after another in directory order from the start of the data,
   * and no 1E inside a field (then the data holds one 1E per field, bar any after the last). A field
   * terminator is ASCII, so it ends a field's text in the decoded data as it ends its bytes. Otherwise
   * undefined, and buildRecord reads the fields from their byte positions.
   */
  private utf8Fields(buffer: Buffer, base: number, end: number, directoryStart: number, entryCount: number): MarcField[] | undefined {
    const starts = this.fieldStarts;
    const ends = this.fieldEnds;
    let expected = base;
    for (let k = 0; k < entryCount; k += 1) {
      if (starts[k] !== expected) return undefined;
      expected = (ends[k] as number) + 1;
    }
    const data = buffer.toString('utf8', base, end);
    if (data.indexOf('\x1b') >= 0) return undefined;
    // Bytes that are not UTF-8 decode to U+FFFD: such a record may be MARC-8 (buildRecord decides). A
    // U+FFFD written as UTF-8 (EF BF BD) is a character like any other.
    if (data.indexOf('\uFFFD') >= 0 && !isUtf8(buffer.subarray(base, end))) return undefined;
    const normalize = MAY_CHANGE_UNDER_NFC.test(data);
    const fields: MarcField[] = new Array(entryCount);
    let from = 0;
    for (let k = 0; k < entryCount; k += 1) {
      const fieldEnd = data.indexOf('\x1e', from);
      if (fieldEnd < 0) return undefined;
      const text = data.slice(from, fieldEnd);
      from = fieldEnd + 1;
      fields[k] = this.fieldOf(tagAt(buffer, directoryStart + k * ENTRY_LENGTH), text, false, normalize && MAY_CHANGE_UNDER_NFC.test(text));
    }
    return data.indexOf('\x1e', from) < 0 ? fields : undefined;
  }

  /** A control or data field from its text (without the 1E), decoded as MARC-8 or put in NFC when told. */
  private fieldOf(tag: string, text: string, decodeMarc8: boolean, normalize: boolean): MarcField {
    const isControl = tag.charCodeAt(0) === 0x30 && tag.charCodeAt(1) === 0x30 ? isDigitCode(tag.charCodeAt(2)) : !isDigitCode(tag.charCodeAt(0)) && text.indexOf('\x1f') < 0;
    if (!isControl) return this.dataField(tag, text, decodeMarc8, normalize);
    let value = text;
    if (decodeMarc8) {
      this.marc8.reset();
      value = this.marc8.decodeLatin1(text);
    } else if (normalize) {
      value = value.normalize('NFC');
    }
    return { tag, value };
  }

  /**
   * A data field from its text (without the 1E). With `marc8`, `text` is the field's bytes as latin1 and
   * its values are decoded as MARC-8, escapes carrying over from subfield to subfield.
   */
  private dataField(tag: string, text: string, marc8: boolean, normalize: boolean): MarcField {
    const firstDelimiter = text.indexOf('\x1f');
    // Indicators are the two characters before the first delimiter; missing ones read as blanks.
    const ind1 = firstDelimiter !== 0 && text.length > 0 ? (text[0] as string) : ' ';
    const ind2 = firstDelimiter !== 0 && firstDelimiter !== 1 && text.length > 1 ? (text[1] as string) : ' ';
    const subfields: MarcSubfield[] = [];
    if (marc8) this.marc8.reset();
    let delimiter = firstDelimiter;
    while (delimiter >= 0) {
      const following = text.indexOf('\x1f', delimiter + 1);
      const valueEnd = following < 0 ? text.length : following;
      if (valueEnd > delimiter + 1) {
        const code = text[delimiter + 1] as string;
        let value: string;
        if (marc8) value = this.marc8.decodeLatin1(text, delimiter + 2, valueEnd);
        else {
          value = text.slice(delimiter + 2, valueEnd);
          if (normalize) value = toNfc(value);
        }
        subfields.push({ code, value });
      }
      delimiter = following;
    }
    return { tag, ind1, ind2, subfields };
  }

  /** The 001 of a record that failed, when its directory entry (among the first `entries`) and data can be read. */
  private peekControlNumber(buffer: Buffer, directoryStart: number, entries: number, base: number, end: number): string | undefined {
    for (let k = 0; k < entries; k += 1) {
      const at = directoryStart + k * ENTRY_LENGTH;
      if (buffer[at] !== 0x30 || buffer[at + 1] !== 0x30 || buffer[at + 2] !== 0x31) continue;
      const fieldStart = readDigits(buffer, at + 7, 5);
      if (fieldStart < 0 || base + fieldStart >= end) return undefined;
      let fieldEnd = buffer.indexOf(FIELD_TERMINATOR, base + fieldStart);
      if (fieldEnd < 0 || fieldEnd > end) fieldEnd = end;
      const value = buffer.toString('latin1', base + fieldStart, Math.min(fieldEnd, base + fieldStart + 64)).trim();
      return value !== '' && !/[\x00-\x1f\x7f-\xff]/.test(value) ? value : undefined;
    }
    return undefined;
  }
}

/**
 * Whether text decoded from bytes that are not all UTF-8 is still UTF-8 with a few slips, by marc4j's
 * permissive reader's measure: fewer than 5 U+FFFD, and under a tenth of its characters above ASCII
 * (U+007F and up, the U+FFFD among them).
 */
function mostlyUtf8(decoded: string): boolean {
  let unknown = 0;
  let aboveAscii = 0;
  for (let i = 0; i < decoded.length; i += 1) {
    const unit = decoded.charCodeAt(i);
    if (unit < 0x7f) continue;
    aboveAscii += 1;
    if (unit === 0xfffd) unknown += 1;
  }
  return unknown < 5 && unknown * 10 < aboveAscii;
}

/** The parser of parseIso2709Record (its scratch arrays and MARC-8 decoder reused from record to record). */
const recordParser = new RecordParser();

function isDigitCode(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}
