/**
 * The MARC-8 character sets as the decoder (marc8.ts) looks them up: each single-byte set by its final
 * escape character, every code's character and whether it is a combining mark or could leave text other
 * than NFC; the East Asian set (EACC) by its three-byte code, built the first time East Asian text shows
 * up; and the composed form of a letter with its marks, cached. The code tables themselves are generated
 * into marc8Tables.ts.
 */
import { EACC, EXTENDED_LATIN, SINGLE_BYTE_SETS } from './marc8Tables.js';

/** marc8Tables.ts marks a code that maps to no character (the second half of a double mark) this way. */
const MAPS_TO_NOTHING = 0xffff;

/**
 * Whether a character, written as it is, could leave the text other than NFC: it changes under NFC by
 * itself (CJK compatibility ideographs, a few singletons), or it is a mark or a conjoining jamo that
 * could compose with what comes before it. Text made only of other characters, and of letters composed
 * with the marks MARC-8 put before them (see `composeCluster`), is NFC already.
 */
function mayUnsettleNfc(char: string): boolean {
  const cp = char.codePointAt(0) as number;
  return char.normalize('NFC') !== char || /\p{M}/u.test(char) || (cp >= 0x1100 && cp <= 0x11ff);
}

export interface SingleByteSet {
  /** The character for each low-seven-bit code ('' where the code maps to nothing). */
  readonly chars: readonly string[];
  /** 1 where the code is a combining mark, 2 where its character may unsettle NFC. */
  readonly kinds: Uint8Array;
}

export const COMBINING = 1;
export const UNSETTLES_NFC = 2;

/** Single-byte sets by final escape character. */
export const SINGLE_BYTE_BY_FINAL: (SingleByteSet | undefined)[] = new Array(128).fill(undefined);
for (const table of SINGLE_BYTE_SETS) {
  const chars: string[] = [];
  const kinds = new Uint8Array(128);
  for (let slot = 0; slot < 128; slot += 1) {
    const unit = table.chars.charCodeAt(slot);
    const char = unit === MAPS_TO_NOTHING ? '' : String.fromCharCode(unit);
    chars.push(char);
    if (char !== '' && mayUnsettleNfc(char)) kinds[slot] = UNSETTLES_NFC;
  }
  for (const slot of table.combining) kinds[slot] = COMBINING;
  SINGLE_BYTE_BY_FINAL[table.finalByte] = { chars, kinds };
}
export const ANSEL = SINGLE_BYTE_BY_FINAL[EXTENDED_LATIN.finalByte] as SingleByteSet;

/** The East Asian set: each code (three 7-bit bytes as one number) to its character. */
export interface EaccTable {
  readonly byCode: ReadonlyMap<number, string>;
  /** Codes whose characters may unsettle NFC (compatibility ideographs, mostly). */
  readonly unsettlingNfc: ReadonlySet<number>;
}

let eacc: EaccTable | undefined;

/** The EACC table, built the first time East Asian text shows up. */
export function eaccTable(): EaccTable {
  if (eacc !== undefined) return eacc;
  const byCode = new Map<number, string>();
  const unsettlingNfc = new Set<number>();
  let code = 0;
  let charIndex = 0;
  const { runs, chars } = EACC;
  for (let r = 0; r + 1 < runs.length; r += 2) {
    code += runs[r] as number;
    const length = runs[r + 1] as number;
    for (let k = 0; k < length; k += 1) {
      const cp = chars.codePointAt(charIndex) as number;
      const char = String.fromCodePoint(cp);
      charIndex += char.length;
      byCode.set(code, char);
      if (mayUnsettleNfc(char)) unsettlingNfc.add(code);
      code += 1;
    }
  }
  eacc = { byCode, unsettlingNfc };
  return eacc;
}

/**
 * A letter followed by the marks that came before it in MARC-8, in NFC. The same few hundred letter and
 * mark combinations make up nearly all MARC-8 text, so their composed forms are kept rather than asking
 * ICU each time.
 */
const composedClusters = new Map<string, string>();
export function composeCluster(base: string, marks: string): string {
  const cluster = base + marks;
  let composed = composedClusters.get(cluster);
  if (composed === undefined) {
    composed = cluster.normalize('NFC');
    if (composedClusters.size < 10_000) composedClusters.set(cluster, composed);
  }
  return composed;
}
