/**
 * MARC-8 to Unicode (src/marc/marc8.ts) as a table: each row is MARC-8 bytes, written as a latin1
 * string ('\xE2e' is the bytes E2 65), and the NFC text the Library of Congress code tables give for them.
 * Rows cover every character set and the escapes that reach it, diacritics that come before their letter
 * in MARC-8 (one, two, spanning two letters, on a letter with no precomposed form), sets designated into
 * the other half of the code table, the misspellings of older records that marc4j's permissive reader
 * (VuFind's importer) reads as escapes and a macron, and bytes or escapes that MARC-8 does not define
 * (U+FFFD, no throw).
 */
import test from 'ava';
import { decodeMarc8, Marc8Decoder } from '../../src/marc/marc8.js';

const ESC = '\x1b';
const bytes = (latin1: string): Uint8Array => Uint8Array.from(latin1, (char) => char.charCodeAt(0));
const codePoints = (text: string): string =>
  [...text].map((char) => `U+${(char.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}`).join(' ');

interface Case {
  readonly name: string;
  readonly marc8: string;
  readonly unicode: string;
}

const CASES: readonly Case[] = [
  // Basic and extended Latin (ANSEL, the default G1)
  { name: 'ASCII passes through', marc8: 'Lovano, Joe, 1952-', unicode: 'Lovano, Joe, 1952-' },
  { name: 'ANSEL spacing letters', marc8: '\xA1\xE2od\xE2z \xA2rsted \xA5 \xB5 \xB2 \xA4\xB4 \xA3\xB3 \xA6\xB6 \xB8 \xBA', unicode: 'Łódź Ørsted Æ æ ø Þþ Đđ Œœ ı ð' },
  { name: 'ANSEL symbols', marc8: '\xB9 \xC3 \xC2 \xA9 \xC4 \xC1 \xC0 \xC7 \xC8', unicode: '£ © ℗ ♭ ♯ ℓ ° ß €' },
  { name: 'ANSEL inverted punctuation and modifier letters', marc8: '\xC5Qu\xE2e? \xC6hola! \xA7 \xAE \xB0', unicode: '¿Qué? ¡hola! ʹ ʼ ʻ' },
  { name: 'acute before its letter becomes é (NFC)', marc8: 'Caf\xE2e', unicode: 'Café' },
  { name: 'grave, circumflex, tilde, umlaut, cedilla, caron, ring', marc8: '\xE1a \xE3o \xE4n \xE8u \xF0c \xE9s \xEAa', unicode: 'à ô ñ ü ç š å' },
  { name: 'capital letters take diacritics too', marc8: '\xE2E\xE8U\xE9C', unicode: 'ÉÜČ' },
  { name: 'two diacritics on one letter: dot below and circumflex compose to ệ', marc8: 'Vi\xF2\xE3et', unicode: 'Việt' },
  { name: 'two diacritics in the other order give the same NFC letter', marc8: 'Vi\xE3\xF2et', unicode: 'Việt' },
  { name: 'breve then acute compose to ắ (order kept for marks of one class)', marc8: '\xE6\xE2a', unicode: 'ắ' },
  { name: 'a diacritic on a letter with no precomposed form stays combining', marc8: '\xE5q', unicode: 'q\u0304' },
  { name: 'ligature halves span two letters as one U+0361', marc8: '\xEBt\xECs', unicode: 't\u0361s' },
  { name: 'double tilde halves span two letters as one U+0360', marc8: '\xFAn\xFBg', unicode: 'n\u0360g' },
  { name: 'a diacritic at the end of the text stays after the last letter', marc8: 'ab\xE2', unicode: 'ab\u0301' },
  { name: 'non-sort begin and end (C1 controls)', marc8: '\x88The \x89Hobbit', unicode: '\u0098The \u009CHobbit' },
  { name: 'joiner and non-joiner', marc8: 'a\x8Db\x8Ec', unicode: 'a\u200Db\u200Cc' },
  // Technique 1: Greek symbols, subscripts, superscripts, and back to ASCII
  { name: 'Greek symbols (ESC g) and back (ESC s)', marc8: `${ESC}gabc${ESC}s-rays`, unicode: 'αβγ-rays' },
  { name: 'subscripts (ESC b)', marc8: `H${ESC}b2${ESC}sO`, unicode: 'H₂O' },
  { name: 'superscripts (ESC p)', marc8: `E = mc${ESC}p2${ESC}s, 10${ESC}p+1`, unicode: 'E = mc², 10⁺¹' },
  // Technique 2: ISO 2022 designations
  { name: 'Basic Cyrillic as G0 and ASCII again', marc8: `${ESC}(NmOSKWA${ESC}(B 1980`, unicode: 'Москва 1980' },
  { name: 'Basic Cyrillic: ASCII capitals are lowercase letters, lowercase are capitals', marc8: `${ESC}(NkNIGA${ESC}(B`, unicode: 'Книга' },
  { name: 'Basic Cyrillic designated with the alternative intermediate ,', marc8: `${ESC},NKNIGA${ESC},B.`, unicode: 'книга.' },
  { name: 'Extended Cyrillic as G1 beside Basic Cyrillic as G0', marc8: `${ESC}(N${ESC})Q\xE0`, unicode: 'Ґ' },
  { name: 'Extended Cyrillic letters (Ukrainian, Serbian)', marc8: `${ESC})Q\xE7\xE6 \xC1`, unicode: 'ЇІ ђ' },
  { name: 'Basic Greek with an accent before its letter', marc8: `${ESC}(S\x22a\x62${ESC}(B`, unicode: '\u03AC\u03B2' },
  { name: 'Basic Greek capitals', marc8: `${ESC}(SAB${ESC}(B`, unicode: '\u0391\u0392' },
  { name: 'Basic Hebrew letters', marc8: `${ESC}(2\x60\x61\x62\x63${ESC}(B`, unicode: '\u05D0\u05D1\u05D2\u05D3' },
  { name: 'Hebrew point before its letter follows it in Unicode', marc8: `${ESC}(2\x40\x61${ESC}(B`, unicode: '\u05D1\u05B7' },
  { name: 'Basic Arabic letters and digits', marc8: `${ESC}(3\x47\x48\x4A \x31\x30${ESC}(B`, unicode: '\u0627\u0628\u062A \u0661\u0660' },
  { name: 'Arabic vowel mark before its letter follows it', marc8: `${ESC}(3\x6E\x48${ESC}(B`, unicode: '\u0628\u064E' },
  { name: 'Extended Arabic as G1', marc8: `${ESC}(3${ESC})4\xE0\xF6${ESC}(B`, unicode: '\u06B1\u06D0' },
  { name: 'ANSEL designated as G1 again with ESC ) !E', marc8: `${ESC})Q\xE0${ESC})!E\xE2e`, unicode: 'Ґé' },
  { name: 'ANSEL designated as G0 (ESC ( !E) reads 21–7E as ANSEL', marc8: `${ESC}(!E\x21\x22${ESC}(B`, unicode: 'ŁØ' },
  { name: 'a diacritic before an escape goes onto the letter after it', marc8: `${ESC}(!E\x62${ESC}(Be`, unicode: 'é' },
  { name: 'Cyrillic designated as G1 reads A1–FE by their low seven bits', marc8: `${ESC})N\xED\xCF`, unicode: 'Мо' },
  // EACC (East Asian, three bytes a character)
  { name: 'EACC ideographs (ESC $ 1)', marc8: `${ESC}$1\x21\x30\x21\x21\x30\x34${ESC}(B`, unicode: '一中' },
  { name: 'EACC with an intermediate (ESC $ ( 1) and a space between characters', marc8: `${ESC}$(1\x21\x42\x58 \x21\x42\x73${ESC}(B`, unicode: '文 日' },
  { name: 'EACC kana and hangul', marc8: `${ESC}$1\x69\x24\x22\x69\x25\x22\x6F\x48\x5F${ESC}(B`, unicode: 'あア가' },
  { name: 'EACC ideographic space and punctuation (third byte 20)', marc8: `${ESC}$1\x21\x23\x20\x21\x2B\x25${ESC}(B`, unicode: '\u3000「' },
  { name: 'EACC as G1 (ESC $ ) 1) keeps ASCII in G0', marc8: `Title: ${ESC}$)1\xA1\xB0\xA1\xA1\xC3\xE9 end`, unicode: 'Title: 一本 end' },
  { name: 'ANSEL in G1 still works while EACC is G0', marc8: `${ESC}$1\x21\x30\x21\xA9${ESC}(B`, unicode: '一♭' },
  // Numeric character references (LC's lossless convention)
  { name: 'a numeric character reference becomes its character', marc8: 'Script &#x2113; and &#X1F600;', unicode: 'Script ℓ and 😀' },
  { name: 'an ampersand that is not a reference stays', marc8: 'AT&T &#xZZ; &#x41', unicode: 'AT&T &#xZZ; &#x41' },
  // Misspellings older records hold, read as marc4j's permissive reader (VuFind's importer) reads them
  { name: 'ESC b - ESC s p … ESC b - ESC s s is a superscript, as ESC p … ESC s', marc8: `n${ESC}b-${ESC}sp0${ESC}b-${ESC}ss 3`, unicode: 'n⁰ 3' },
  { name: 'ESC b - ESC s b … ESC b - ESC s s is a subscript, as ESC b … ESC s', marc8: `H${ESC}b-${ESC}sb2${ESC}b-${ESC}ssO`, unicode: 'H₂O' },
  { name: 'ESC b - ESC s ( N designates Basic Cyrillic, as ESC ( N', marc8: `${ESC}b-${ESC}s(NKNIGA${ESC}(B.`, unicode: 'книга.' },
  { name: 'ESC b - ESC s ) Q designates Extended Cyrillic as G1, as ESC ) Q', marc8: `${ESC}b-${ESC}s)Q\xE0${ESC})!E\xE2e`, unicode: 'Ґé' },
  { name: 'ESC b - ESC s $ 1 designates EACC, as ESC $ 1', marc8: `${ESC}b-${ESC}s$1\x21\x30\x21${ESC}(B.`, unicode: '一.' },
  { name: 'a subscript minus before ESC s and any other letter stays a subscript minus', marc8: `x${ESC}b-${ESC}sq ${ESC}b-${ESC}s-`, unicode: 'x₋q ₋-' },
  { name: 'the escape an odd one stands for is not read as odd again', marc8: `${ESC}b-${ESC}sb-${ESC}sp1`, unicode: '₋p1' },
  { name: 'AF, which ANSEL lacks, is its macron (E5) before its letter', marc8: 'T\xAFokyo \xAFq', unicode: 'Tōkyo q\u0304' },
  { name: 'AF in a G1 other than ANSEL is that set\'s own letter (Extended Arabic)', marc8: `${ESC}(3${ESC})4\xAF${ESC}(B`, unicode: '\u0684' },
  // What MARC-8 does not define
  { name: 'bytes no set defines become U+FFFD', marc8: 'a\xFFb\xA0c\xBEd\x7Fe\x80f', unicode: 'a\uFFFDb\uFFFDc\uFFFDd\uFFFDe\uFFFDf' },
  { name: 'an escape to an unknown set becomes one U+FFFD and its bytes are skipped', marc8: `a${ESC}(Zb${ESC}$Qc`, unicode: 'a\uFFFDb\uFFFDc' },
  { name: 'an escape to an unknown set leaves the current set in place', marc8: `${ESC}(Nk${ESC}(Zk`, unicode: 'К\uFFFDК' },
  { name: 'an escape at the very end becomes U+FFFD', marc8: `abc${ESC}`, unicode: 'abc\uFFFD' },
  { name: 'an EACC character cut short becomes U+FFFD for each byte', marc8: `${ESC}$1\x21\x30`, unicode: '\uFFFD\uFFFD' },
  { name: 'an EACC code the table lacks becomes U+FFFD', marc8: `${ESC}$1\x7E\x7E\x7E${ESC}(B.`, unicode: '\uFFFD.' },
  { name: 'an ESC followed by a letter MARC-8 does not use', marc8: `x${ESC}Zy`, unicode: 'x\uFFFDZy' },
];

for (const { name, marc8, unicode } of CASES) {
  test(`MARC-8: ${name}`, (t) => {
    const decoded = decodeMarc8(bytes(marc8));
    t.is(codePoints(decoded), codePoints(unicode));
    t.true(decoded === decoded.normalize('NFC'), 'the result is NFC');
  });
}

test('MARC-8: decodes only the range asked for, starting from the default sets', (t) => {
  const field = bytes(`xx${ESC}(Nk\x1F${ESC}(Bab\xE2e`);
  t.is(decodeMarc8(field, 2, 6), 'К');
  t.is(decodeMarc8(field, 10, field.length), 'abé');
  t.is(decodeMarc8(field, 12, 14), 'é');
});

test('MARC-8: a decoder keeps its designations from one call to the next until reset', (t) => {
  const decoder = new Marc8Decoder();
  t.is(decoder.decode(bytes(`${ESC}(NKNIGA`)), 'книга');
  t.is(decoder.decode(bytes('KNIGA')), 'книга', 'G0 is still Cyrillic');
  decoder.reset();
  t.is(decoder.decode(bytes('KNIGA')), 'KNIGA');
});

test('MARC-8: a diacritic never carries over into the next call', (t) => {
  const decoder = new Marc8Decoder();
  t.is(codePoints(decoder.decode(bytes('\xE2'))), codePoints('\u0301'));
  t.is(decoder.decode(bytes('e')), 'e');
});

test('MARC-8: long text with many diacritics decodes whole', (t) => {
  const word = 'Caf\xE2e cr\xE8eme ';
  const decoded = decodeMarc8(bytes(word.repeat(2000)));
  t.is(decoded, 'Café crëme '.repeat(2000));
});

test('MARC-8: never throws, whatever the bytes', (t) => {
  let seed = 12345;
  for (let round = 0; round < 200; round += 1) {
    const random = new Uint8Array(64);
    for (let k = 0; k < random.length; k += 1) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      random[k] = seed >>> 24;
    }
    t.notThrows(() => decodeMarc8(random));
  }
});
