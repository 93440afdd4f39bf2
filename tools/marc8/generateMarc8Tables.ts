/**
 * Turns the Library of Congress MARC-8 code tables (codetables.xml, the XML form of "MARC 21 Specifications,
 * Character Sets, Part 5"; marc4j ships the same file) into src/marc/marc8Tables.ts, the data that
 * src/marc/marc8.ts decodes with. The XML itself stays out of the repository: pass its path.
 *
 *   npx tsx tools/marc8/generateMarc8Tables.ts /path/to/codetables.xml
 *
 * What it decides, so that marc8.ts need not:
 * - each mapping is the table's <ucs>; where <ucs> is empty (the second halves of the ligature and of the
 *   double tilde, EC and FB) the character maps to nothing, as LC prefers the single spanning mark that the
 *   first half (EB, FA) maps to; LC's private-use mappings in the EACC set are kept as LC gives them;
 * - single-byte sets are indexed by the low seven bits of their code, so one table serves whether the set
 *   is designated as G0 (21–7E) or G1 (A1–FE);
 * - the EACC set is stored as runs of consecutive 3-byte codes plus one string of their characters.
 * Only reading and decoding are left to marc8.ts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SaxesParser } from 'saxes';

interface CodeEntry {
  marc: number;
  /** Unicode scalar value, or undefined when LC maps the code to nothing. */
  ucs: number | undefined;
  combining: boolean;
}

interface CharacterSetTable {
  isoCode: number;
  name: string;
  codes: CodeEntry[];
}

/** Sets decoded one byte per character, by their final escape character (the table's ISOcode). */
const SINGLE_BYTE_SET_NAMES: ReadonlyMap<number, string> = new Map([
  [0x42, 'BASIC_LATIN'],
  [0x45, 'EXTENDED_LATIN'],
  [0x67, 'GREEK_SYMBOLS'],
  [0x62, 'SUBSCRIPTS'],
  [0x70, 'SUPERSCRIPTS'],
  [0x32, 'BASIC_HEBREW'],
  [0x4e, 'BASIC_CYRILLIC'],
  [0x51, 'EXTENDED_CYRILLIC'],
  [0x33, 'BASIC_ARABIC'],
  [0x34, 'EXTENDED_ARABIC'],
  [0x53, 'BASIC_GREEK'],
]);
const EACC_ISO_CODE = 0x31;
/** In the per-set strings: a code that maps to nothing (LC's empty <ucs>). */
const MAPS_TO_NOTHING = 0xffff;
const UNASSIGNED = 0xfffd;

function readCodeTables(xml: string): CharacterSetTable[] {
  const sets: CharacterSetTable[] = [];
  const parser = new SaxesParser();
  let current: CharacterSetTable | undefined;
  let entry: { marc?: string; ucs?: string; combining?: string } | undefined;
  let text = '';
  parser.on('opentag', (node) => {
    text = '';
    if (node.name === 'characterSet') {
      const isoCode = Number.parseInt(String(node.attributes['ISOcode'] ?? ''), 16);
      if (!Number.isFinite(isoCode)) throw new Error(`characterSet "${String(node.attributes['name'])}" has no ISOcode`);
      current = { isoCode, name: String(node.attributes['name'] ?? ''), codes: [] };
      sets.push(current);
    } else if (node.name === 'code') {
      entry = {};
    }
  });
  parser.on('text', (value) => {
    text += value;
  });
  parser.on('closetag', (node) => {
    if (entry !== undefined) {
      if (node.name === 'marc') entry.marc = text.trim();
      else if (node.name === 'ucs') entry.ucs = text.trim();
      else if (node.name === 'isCombining') entry.combining = text.trim();
      else if (node.name === 'code') {
        if (current === undefined) throw new Error('a <code> outside any <characterSet>');
        if (entry.marc === undefined || entry.marc === '') throw new Error(`a code in "${current.name}" has no <marc>`);
        const ucs = entry.ucs === undefined || entry.ucs === '' ? undefined : Number.parseInt(entry.ucs, 16);
        current.codes.push({ marc: Number.parseInt(entry.marc, 16), ucs, combining: entry.combining === 'true' });
        entry = undefined;
      }
    }
    if (node.name === 'characterSet') current = undefined;
    text = '';
  });
  parser.write(xml).close();
  return sets;
}

/** Right-to-left scripts stay escaped: an editor would reorder them on screen around the quotes. */
const RIGHT_TO_LEFT = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/u;
const VISIBLE = /^[\p{L}\p{N}\p{P}\p{S}]$/u;

/** A JS string literal: visible left-to-right characters as they are, the rest (marks, controls) escaped. */
function stringLiteral(codePoints: readonly number[]): string {
  let out = "'";
  for (const cp of codePoints) {
    const char = String.fromCodePoint(cp);
    const literal =
      cp !== 0x27 && cp !== 0x5c && cp !== UNASSIGNED && !(cp >= 0xe000 && cp <= 0xf8ff) && VISIBLE.test(char) && !RIGHT_TO_LEFT.test(char);
    if (literal) out += char;
    else if (cp > 0xffff) out += `\\u{${cp.toString(16).toUpperCase()}}`;
    else out += `\\u${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return `${out}'`;
}

function singleByteSetSource(set: CharacterSetTable, constantName: string): string {
  const slots = new Array<number>(128).fill(UNASSIGNED);
  const combining: number[] = [];
  for (const code of set.codes) {
    if (code.marc > 0xff) throw new Error(`"${set.name}" has a multibyte code ${code.marc.toString(16)}`);
    if (code.ucs !== undefined && code.ucs > 0xffff) throw new Error(`"${set.name}" maps ${code.marc.toString(16)} outside the BMP`);
    const slot = code.marc & 0x7f;
    slots[slot] = code.ucs ?? MAPS_TO_NOTHING;
    if (code.combining) combining.push(slot);
  }
  const finalByte = `0x${set.isoCode.toString(16)}`;
  return [
    `/** ${set.name} (final character ${JSON.stringify(String.fromCharCode(set.isoCode))}): ${set.codes.length} codes. */`,
    `export const ${constantName}: SingleByteSetTable = {`,
    `  finalByte: ${finalByte},`,
    `  chars: ${stringLiteral(slots)},`,
    `  combining: [${combining.map((slot) => `0x${slot.toString(16)}`).join(', ')}],`,
    '};',
  ].join('\n');
}

function eaccSource(set: CharacterSetTable): string {
  const codes = [...set.codes].sort((a, b) => a.marc - b.marc);
  // Runs of consecutive codes: [gap since the end of the previous run, length], flattened.
  const runs: number[] = [];
  const chars: number[] = [];
  let previousEnd = 0;
  let runStart = -1;
  let runLength = 0;
  for (const code of codes) {
    if (code.ucs === undefined) throw new Error(`EACC code ${code.marc.toString(16)} maps to nothing`);
    if (code.combining) throw new Error(`EACC code ${code.marc.toString(16)} is combining; marc8.ts does not expect that`);
    if (runLength > 0 && code.marc === runStart + runLength) {
      runLength += 1;
    } else {
      if (runLength > 0) {
        runs.push(runStart - previousEnd, runLength);
        previousEnd = runStart + runLength;
      }
      runStart = code.marc;
      runLength = 1;
    }
    chars.push(code.ucs);
  }
  if (runLength > 0) runs.push(runStart - previousEnd, runLength);
  return [
    `/** ${set.name} (final character "1", three bytes a character): ${codes.length} codes. */`,
    'export const EACC: EaccTable = {',
    `  runs: [${runs.join(',')}],`,
    `  chars: ${stringLiteral(chars)},`,
    '};',
  ].join('\n');
}

function generate(xml: string): string {
  const sets = readCodeTables(xml);
  const parts: string[] = [
    '/**',
    ' * GENERATED by tools/marc8/generateMarc8Tables.ts from the Library of Congress MARC-8 code tables',
    ' * (codetables.xml). Do not edit by hand: run the generator again.',
    ' *',
    ' * Single-byte sets: `chars` has 128 UTF-16 units indexed by the low seven bits of the MARC-8 code',
    ' * (U+FFFD: not in the set; U+FFFF: maps to nothing); `combining` lists the indexes of combining marks.',
    ' * EACC: `runs` holds [gap, length] pairs of consecutive 3-byte codes (each gap counted from the end of',
    ' * the previous run, the first from 0) and `chars` their characters in code order, one code point each.',
    ' */',
    '',
    'export interface SingleByteSetTable {',
    '  readonly finalByte: number;',
    '  readonly chars: string;',
    '  readonly combining: readonly number[];',
    '}',
    '',
    'export interface EaccTable {',
    '  readonly runs: readonly number[];',
    '  readonly chars: string;',
    '}',
    '',
  ];
  const seen = new Set<number>();
  for (const set of sets) {
    const constantName = SINGLE_BYTE_SET_NAMES.get(set.isoCode);
    if (constantName !== undefined) {
      parts.push(singleByteSetSource(set, constantName), '');
      seen.add(set.isoCode);
    } else if (set.isoCode === EACC_ISO_CODE) {
      parts.push(eaccSource(set), '');
      seen.add(set.isoCode);
    } else {
      throw new Error(`unexpected character set "${set.name}" (ISOcode ${set.isoCode.toString(16)})`);
    }
  }
  for (const isoCode of [...SINGLE_BYTE_SET_NAMES.keys(), EACC_ISO_CODE]) {
    if (!seen.has(isoCode)) throw new Error(`the code tables have no set with ISOcode ${isoCode.toString(16)}`);
  }
  parts.push(
    'export const SINGLE_BYTE_SETS: readonly SingleByteSetTable[] = [',
    ...[...SINGLE_BYTE_SET_NAMES.values()].map((name) => `  ${name},`),
    '];',
    '',
  );
  return parts.join('\n');
}

const input = process.argv[2];
if (input === undefined) {
  process.stderr.write('usage: tsx tools/marc8/generateMarc8Tables.ts /path/to/codetables.xml [output.ts]\n');
  process.exit(2);
}
const output = process.argv[3] ?? join(dirname(fileURLToPath(import.meta.url)), '../../src/marc/marc8Tables.ts');
writeFileSync(output, generate(readFileSync(input, 'utf8')));
process.stdout.write(`wrote ${output}\n`);
