/**
 * MARC-8 to Unicode, per the Library of Congress code tables (the data is generated into marc8Tables.ts by
 * tools/marc8/generateMarc8Tables.ts): Basic and Extended Latin (ANSEL), Greek symbols, subscripts,
 * superscripts, Hebrew, Basic and Extended Cyrillic, Basic and Extended Arabic, Greek, and the East Asian
 * set (EACC, three bytes a character).
 *
 * MARC-8 is ISO 2022 in an 8-bit frame: bytes 21–7E come from the set designated as G0 (ASCII unless an
 * escape says otherwise), bytes A1–FE from G1 (ANSEL by default). Escapes: `ESC ( F` / `ESC , F` designate
 * G0, `ESC ) F` / `ESC - F` G1, `ESC $ F`, `ESC $ ( F`, `ESC $ , F` a multibyte G0 and `ESC $ ) F`,
 * `ESC $ - F` a multibyte G1 (F is `!E` for ANSEL); the MARC-specific `ESC g`, `ESC b`, `ESC p` put Greek
 * symbols, subscripts or superscripts in G0 and `ESC s` brings ASCII back. Combining marks come BEFORE their
 * base character in MARC-8 and after it in Unicode, so they are held until the base arrives; the result is
 * NFC. Numeric character references `&#xXXXX;` (LC's convention for characters MARC-8 lacks) become the
 * character. Bytes that no set defines, and escapes that name no MARC-8 set, become U+FFFD: decoding never
 * throws. Where the tables and LC's later revisions differ from older converters (pymarc): the ligature and
 * double tilde map to U+0361 and U+0360 with their second halves dropped, and ANSEL's non-sort begin and end
 * stay as U+0098 and U+009C, as the LC table has them. Two misspellings older records hold are read as
 * marc4j's permissive reader (VuFind's importer) reads them, so that work keys agree with VuFind's:
 * `ESC b - ESC s F` (F one of `p s b $ ( )`) is the escape `ESC F`, and the byte AF, which ANSEL lacks,
 * is its macron (E5).
 *
 * Speed: ASCII stretches are copied in one piece, and a letter with its marks is composed from a cache, so
 * ICU normalises a whole value only when a character in it could combine otherwise.
 *
 * Left to the readers (iso2709Reader.ts): which bytes are MARC-8 at all (Leader/09 not `a`), and where a
 * field starts, since an escape holds until the end of the field, across subfield delimiters.
 */
import { ANSEL, COMBINING, SINGLE_BYTE_BY_FINAL, UNSETTLES_NFC, composeCluster, eaccTable } from './marc8CharacterSets.js';

const ESC = 0x1b;
const AMPERSAND = 0x26;
const REPLACEMENT = '\uFFFD';

const FINAL_BASIC_LATIN = 0x42;
const FINAL_EXTENDED_LATIN = 0x45;
const FINAL_EACC = 0x31;
/** Latin-1's overbar (AF), which ANSEL lacks, and ANSEL's macron (E5) by its seven low bits. */
const OVERBAR = 0xaf;
const MACRON_SLOT = 0x65;

function isHexDigit(byte: number): boolean {
  return (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66);
}

function latin1Of(bytes: Uint8Array, start: number, end: number): string {
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return buffer.toString('latin1', start, end);
}

/**
 * A decoder that keeps its G0 and G1 designations from one call to the next, for decoding the subfields
 * of one field in turn (an escape holds until the end of the field); `reset()` at each new field.
 */
export class Marc8Decoder {
  private g0 = FINAL_BASIC_LATIN;
  private g1 = FINAL_EXTENDED_LATIN;
  // The text being decoded: output so far, marks waiting for their letter, whether NFC is still needed.
  private out = '';
  private marks = '';
  private unsettled = false;

  reset(): void {
    this.g0 = FINAL_BASIC_LATIN;
    this.g1 = FINAL_EXTENDED_LATIN;
  }

  /** Decodes bytes[start, end). */
  decode(bytes: Uint8Array, start = 0, end = bytes.length): string {
    const text = latin1Of(bytes, start, Math.min(end, bytes.length));
    return this.decodeLatin1(text, 0, text.length);
  }

  /**
   * Decodes MARC-8 held in a latin1 string (one character per byte, as Buffer's 'latin1' gives them),
   * text[start, end): the ISO 2709 reader has its fields in that form already.
   */
  decodeLatin1(text: string, start = 0, end = text.length): string {
    this.out = '';
    this.marks = '';
    this.unsettled = false;
    // ASCII runs (in G0 ASCII, with no mark waiting) are copied in one piece.
    let runStart = start;
    let i = start;
    while (i < end) {
      const byte = text.charCodeAt(i);
      if (byte < 0x7f && byte !== ESC && this.g0 === FINAL_BASIC_LATIN && this.marks === '' && (byte !== AMPERSAND || referenceEnd(text, i, end) < 0)) {
        i += 1;
        continue;
      }
      if (runStart < i) this.out += text.slice(runStart, i);
      i = this.decodeAt(text, i, end);
      runStart = i;
    }
    if (runStart < end) this.out += text.slice(runStart, end);
    // Marks with no letter after them (the value ended) stay where they are: after the previous character.
    if (this.marks !== '') {
      this.out += this.marks;
      this.unsettled = true;
    }
    const decoded = this.out;
    this.out = '';
    this.marks = '';
    return this.unsettled ? decoded.normalize('NFC') : decoded;
  }

  /** Decodes what starts at `i` (a character, an escape, a reference); returns the index after it. */
  private decodeAt(text: string, i: number, end: number): number {
    const byte = text.charCodeAt(i);
    if (byte === ESC) return this.readEscape(text, i, end);
    if (byte < 0x21) {
      // Space and the C0 controls (delimiters included) are the same in every set.
      this.writeBase(String.fromCharCode(byte), false);
      return i + 1;
    }
    if (byte < 0x7f) {
      if (byte === AMPERSAND && this.g0 === FINAL_BASIC_LATIN) {
        const after = this.readCharacterReference(text, i, end);
        if (after > i) return after;
      }
      return this.decodeGraphic(this.g0, text, i, end, 0);
    }
    if (byte === OVERBAR && this.g1 === FINAL_EXTENDED_LATIN) {
      // Not in ANSEL; older records have it for the macron (E5), as marc4j's permissive reader reads it.
      this.marks += ANSEL.chars[MACRON_SLOT] as string;
      return i + 1;
    }
    if (byte >= 0xa1 && byte <= 0xfe) return this.decodeGraphic(this.g1, text, i, end, 0x80);
    // C1 area: ANSEL's four format characters (non-sort begin and end, joiner, non-joiner) live here.
    const char = byte >= 0x80 && byte < 0xa0 ? (ANSEL.chars[byte & 0x7f] as string) : REPLACEMENT;
    this.writeBase(char, false);
    return i + 1;
  }

  /** A character that is not a mark, followed by the marks that preceded it in MARC-8. */
  private writeBase(char: string, unsettlesNfc: boolean): void {
    if (unsettlesNfc) this.unsettled = true;
    if (this.marks === '') {
      this.out += char;
    } else {
      this.out += composeCluster(char, this.marks);
      this.marks = '';
    }
  }

  /** One character of the set `final`, whose bytes carry `highBit`; returns the index after it. */
  private decodeGraphic(final: number, text: string, i: number, end: number, highBit: number): number {
    if (final === FINAL_EACC) {
      // Three bytes, all from the same half of the code table (the second and third may be 20/A0).
      const second = i + 2 < end ? text.charCodeAt(i + 1) : -1;
      const third = i + 2 < end ? text.charCodeAt(i + 2) : -1;
      if (second >= 0 && third >= 0 && (second & 0x80) === highBit && (third & 0x80) === highBit) {
        const s7 = second & 0x7f;
        const t7 = third & 0x7f;
        if (s7 >= 0x20 && s7 < 0x7f && t7 >= 0x20 && t7 < 0x7f) {
          const code = ((text.charCodeAt(i) & 0x7f) << 16) | (s7 << 8) | t7;
          const eacc = eaccTable();
          const char = eacc.byCode.get(code);
          this.writeBase(char ?? REPLACEMENT, char !== undefined && eacc.unsettlingNfc.has(code));
          return i + 3;
        }
      }
      this.writeBase(REPLACEMENT, false);
      return i + 1;
    }
    const set = SINGLE_BYTE_BY_FINAL[final];
    if (set === undefined) {
      this.writeBase(REPLACEMENT, false);
      return i + 1;
    }
    const slot = text.charCodeAt(i) & 0x7f;
    const char = set.chars[slot] as string;
    const kind = set.kinds[slot];
    if (kind === COMBINING) this.marks += char;
    else if (char !== '') this.writeBase(char, kind === UNSETTLES_NFC);
    return i + 1;
  }

  /** Applies the escape sequence at `i`; returns the index after it. */
  private readEscape(text: string, i: number, end: number): number {
    let first = i + 1 < end ? text.charCodeAt(i + 1) : -1;
    // Older records write the escape to a set as `ESC b - ESC s F` (a subscript minus, then back to
    // ASCII, then the set's letter: `ESC b - ESC s p` for a superscript, `ESC b - ESC s s` to end it).
    // marc4j's permissive reader (VuFind's importer) reads each such run as `ESC F`, F one of p s b $ ( ),
    // so that is how it is read here too: from the F on, as the escape it stands for.
    if (first === 0x62 && isOddSetEscape(text, i, end)) {
      i += 4;
      first = text.charCodeAt(i + 1);
    }
    switch (first) {
      case 0x67: // ESC g: Greek symbols
      case 0x62: // ESC b: subscripts
      case 0x70: // ESC p: superscripts
        this.g0 = first;
        return i + 2;
      case 0x73: // ESC s: back to ASCII
        this.g0 = FINAL_BASIC_LATIN;
        return i + 2;
      case 0x28: // ESC ( and ESC , : G0
      case 0x2c:
      case 0x29: // ESC ) and ESC - : G1
      case 0x2d: {
        const designation = readFinal(text, i + 2, end);
        const toG1 = first === 0x29 || first === 0x2d;
        if (designation !== undefined && SINGLE_BYTE_BY_FINAL[designation.final] !== undefined) {
          if (toG1) this.g1 = designation.final;
          else this.g0 = designation.final;
          return designation.next;
        }
        break;
      }
      case 0x24: {
        // ESC $ F (G0), ESC $ ( F or ESC $ , F (G0), ESC $ ) F or ESC $ - F (G1): multibyte sets.
        const second = i + 2 < end ? text.charCodeAt(i + 2) : -1;
        const withIntermediate = second === 0x28 || second === 0x2c || second === 0x29 || second === 0x2d;
        const finalAt = withIntermediate ? i + 3 : i + 2;
        if (finalAt < end && text.charCodeAt(finalAt) === FINAL_EACC) {
          if (second === 0x29 || second === 0x2d) this.g1 = FINAL_EACC;
          else this.g0 = FINAL_EACC;
          return finalAt + 1;
        }
        break;
      }
      default:
        break;
    }
    // Not a MARC-8 escape: one U+FFFD, and skip the rest of it if it has ISO 2022's shape (intermediate
    // bytes 20–2F, then a final byte 30–7E), so that its bytes are not read as text.
    this.writeBase(REPLACEMENT, false);
    let j = i + 1;
    while (j < end && text.charCodeAt(j) >= 0x20 && text.charCodeAt(j) <= 0x2f) j += 1;
    if (j > i + 1 && j < end && text.charCodeAt(j) >= 0x30 && text.charCodeAt(j) <= 0x7e) return j + 1;
    return i + 1;
  }

  /** `&#xXXXX;` at `i`: writes the character and returns the index after it, or returns `i` if it is not one. */
  private readCharacterReference(text: string, i: number, end: number): number {
    const after = referenceEnd(text, i, end);
    if (after < 0) return i;
    const cp = Number.parseInt(text.slice(i + 3, after - 1), 16);
    const valid = cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff);
    this.writeBase(valid ? String.fromCodePoint(cp) : REPLACEMENT, valid && cp >= 0x300);
    return after;
  }
}

/** `ESC b - ESC s F` at `i`, F one of `p s b $ ( )` (see readEscape). */
function isOddSetEscape(text: string, i: number, end: number): boolean {
  if (i + 5 >= end || text.charCodeAt(i + 2) !== 0x2d || text.charCodeAt(i + 3) !== ESC || text.charCodeAt(i + 4) !== 0x73) return false;
  const final = text.charCodeAt(i + 5);
  return final === 0x70 || final === 0x73 || final === 0x62 || final === 0x24 || final === 0x28 || final === 0x29;
}

/** Where the numeric character reference `&#xXXXX;` at `i` ends (the index after its `;`), or -1. */
function referenceEnd(text: string, i: number, end: number): number {
  if (i + 4 >= end || text.charCodeAt(i + 1) !== 0x23 || (text.charCodeAt(i + 2) !== 0x78 && text.charCodeAt(i + 2) !== 0x58)) return -1;
  let j = i + 3;
  while (j < end && j < i + 9 && isHexDigit(text.charCodeAt(j))) j += 1;
  if (j === i + 3 || j >= end || text.charCodeAt(j) !== 0x3b) return -1;
  return j + 1;
}

/** The final character of a single-byte designation at `at` (`!E` counts as ANSEL's). */
function readFinal(text: string, at: number, end: number): { final: number; next: number } | undefined {
  if (at >= end) return undefined;
  const byte = text.charCodeAt(at);
  if (byte === 0x21 && at + 1 < end && text.charCodeAt(at + 1) === FINAL_EXTENDED_LATIN) return { final: FINAL_EXTENDED_LATIN, next: at + 2 };
  return { final: byte, next: at + 1 };
}

const standaloneDecoder = new Marc8Decoder();

/** Decodes bytes[start, end) as MARC-8 starting from the default sets (G0 ASCII, G1 ANSEL); NFC text. */
export function decodeMarc8(bytes: Uint8Array, start = 0, end = bytes.length): string {
  standaloneDecoder.reset();
  return standaloneDecoder.decode(bytes, start, end);
}
