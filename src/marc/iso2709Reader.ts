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
 * This file cuts records out of the stream; iso2709RecordParser.ts checks each record's leader and
 * directory, iso2709Fields.ts decodes its fields.
 *
 * Left to others: what a record means (mapping), and the MARC-8 character sets themselves (marc8.ts).
 */
import { InvalidArgumentError, MalformedMarcError } from '../errors.js';
import type { SourceItem } from '../record/sourceRecord.js';
import { checkedFilePath, fileChunks } from '../fileChunks.js';
import type { MarcRecord } from './marcRecord.js';
import { LEADER_LENGTH, MAX_RECORD_LENGTH, RECORD_TERMINATOR, readDigits } from './iso2709Bytes.js';
import { NEED_MORE_BYTES, RecordParser, type ParseOutcome } from './iso2709RecordParser.js';

/**
 * How many bytes may go by without a record terminator before the reader gives up on them. The leader can
 * state 99,999 bytes at most, but some systems write longer records with a wrong length; 16 MB is far
 * beyond any record and keeps memory bounded when a file is not ISO 2709 at all.
 */
const MAX_BYTES_WITHOUT_TERMINATOR = 16 << 20;

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

/** The parser of parseIso2709Record (its scratch arrays and MARC-8 decoder reused from record to record). */
const recordParser = new RecordParser();
