/**
 * Decodes the fields of one ISO 2709 record whose leader and directory were checked
 * (iso2709RecordParser.ts): decides whether its text is UTF-8 or MARC-8 (Leader/09, then the bytes
 * themselves, as iso2709Reader.ts's header lays out), splits each data field into indicators and
 * subfields, and leaves the text in Unicode NFC.
 *
 * Left to others: where the fields are (the directory, iso2709RecordParser.ts); the MARC-8 character sets
 * (marc8.ts).
 */
import { isUtf8 } from 'node:buffer';
import { Marc8Decoder } from './marc8.js';
import { ENTRY_LENGTH, LEADER_LENGTH, isDigitCode, tagAt } from './iso2709Bytes.js';
import { MAY_CHANGE_UNDER_NFC, toNfc, type MarcField, type MarcRecord, type MarcSubfield } from './marcRecord.js';

const HIGH_BYTE = /[\x80-\xff]/;
/** A byte that decoding as MARC-8 would change: an escape or a byte above ASCII. */
export const MARC8_SPECIAL = /[\x1b\x80-\xff]/;
/** An escape that designates a MARC-8 character set (marc4j's test for "this record is MARC-8"). */
const MARC8_ESCAPE_SEQUENCE = /\x1b[-(,)$bspg]/;

/** Decodes one record's fields at a time; keeps its MARC-8 decoder between records. */
export class Iso2709FieldDecoder {
  private readonly marc8 = new Marc8Decoder();

  /**
   * The record whose leader starts at `start` and whose data runs from `base` to `end`, its fields where
   * the checked directory put them (`starts[k]` up to the 1E at `ends[k]`).
   */
  record(buffer: Buffer, start: number, base: number, end: number, directoryStart: number, entryCount: number, starts: Int32Array, ends: Int32Array): MarcRecord {
    const leader = buffer.toString('latin1', start, start + LEADER_LENGTH);
    if (leader.charCodeAt(9) === 0x61) {
      const fields = this.utf8Fields(buffer, base, end, directoryStart, entryCount, starts, ends);
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
      const fieldStart = starts[k] as number;
      const fieldEnd = ends[k] as number;
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
   * gives what record's field-by-field reading gives: no escape (1B) in the data (record may read
   * such a record as MARC-8), the fields one after another in directory order from the start of the data,
   * and no 1E inside a field (then the data holds one 1E per field, bar any after the last). A field
   * terminator is ASCII, so it ends a field's text in the decoded data as it ends its bytes. Otherwise
   * undefined, and record reads the fields from their byte positions.
   */
  private utf8Fields(buffer: Buffer, base: number, end: number, directoryStart: number, entryCount: number, starts: Int32Array, ends: Int32Array): MarcField[] | undefined {
    let expected = base;
    for (let k = 0; k < entryCount; k += 1) {
      if (starts[k] !== expected) return undefined;
      expected = (ends[k] as number) + 1;
    }
    const data = buffer.toString('utf8', base, end);
    if (data.indexOf('\x1b') >= 0) return undefined;
    // Bytes that are not UTF-8 decode to U+FFFD: such a record may be MARC-8 (record decides). A
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
