/**
 * Checks one ISO 2709 record's leader and directory and finds its fields, with the fallbacks
 * iso2709Reader.ts's header lists (a record length or base address that is wrong, directory numbers that
 * miss the field terminators, a 1D inside a field, two records run together), and says in a cataloguer's
 * words what is wrong with a record it cannot read. A good record is handed on whole: its fields decoded
 * (iso2709Fields.ts), or as its bytes for a worker thread to decode.
 *
 * Left to others: cutting records out of a stream (iso2709Reader.ts); decoding the fields' text
 * (iso2709Fields.ts).
 */
import type { MarcRecord } from './marcRecord.js';
import { Iso2709FieldDecoder, MARC8_SPECIAL } from './iso2709Fields.js';
import { ENTRY_LENGTH, FIELD_TERMINATOR, LEADER_LENGTH, RECORD_TERMINATOR, printable, readDigits } from './iso2709Bytes.js';

export type ParseOutcome =
  | { readonly ok: true; readonly record: MarcRecord | Buffer; readonly id: string | undefined; readonly next: number }
  | { readonly ok: false; readonly reason: string; readonly id: string | undefined; readonly next: number; readonly runsPastEnd: boolean };

export const NEED_MORE_BYTES = Symbol('need more bytes');
const NEEDS_DECODING = Symbol('needs decoding');

function failure(next: number, reason: string, id?: string, runsPastEnd = false): ParseOutcome {
  return { ok: false, reason, id, next, runsPastEnd };
}

/** Parses one record at a time; keeps its scratch arrays and MARC-8 decoder between records. */
export class RecordParser {
  private fieldStarts = new Int32Array(256);
  private fieldEnds = new Int32Array(256);
  private readonly fields = new Iso2709FieldDecoder();

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
      return { ok: true, record: bytes, id: id === NEEDS_DECODING ? this.idOf(this.fields.record(buffer, start, base, recordBytesEnd, directoryStart, entryCount, this.fieldStarts, this.fieldEnds)) : id, next: recordEnd };
    }
    const record = this.fields.record(buffer, start, base, recordBytesEnd, directoryStart, entryCount, this.fieldStarts, this.fieldEnds);
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
