/**
 * ICU's Hangul-Latin, Arabic-Latin and Hebrew-Latin as `Any-Latin` runs them on one script run
 * (scriptConverters.ts describes the family): NFKD, character by character (Arabic also by pairs, for
 * its long vowels), then NFC; and which scripts ICU has no transliterator for at all.
 */
import { ARABIC_LATIN, HANGUL_LATIN, HEBREW_LATIN, UNTOUCHED_SCRIPTS } from './icuLatin.generated.js';
import { byStretches, decodeGroups, decodePairs, hasNonZeroCombiningClass, lazily, splitTables } from './scriptConverters.js';

interface LetterTables {
  letters: Map<number, string>;
  pairs: Map<string, string>;
  /** First characters of the pairs. */
  pairStarts: Set<string>;
}

function letterTables(source: string): () => LetterTables {
  return lazily(() => {
    const tables = splitTables(source);
    const pairs = decodePairs(tables.get('pairs'));
    return { letters: decodeGroups(tables.get('letters')), pairs, pairStarts: new Set([...pairs.keys()].map((pair) => Array.from(pair)[0]!)) };
  });
}

const hangulTables = letterTables(HANGUL_LATIN);
const arabicTables = letterTables(ARABIC_LATIN);
const hebrewTables = letterTables(HEBREW_LATIN);

function letterByLetter(tables: LetterTables, stretch: string): string {
  const { letters, pairs, pairStarts } = tables;
  const chars = Array.from(stretch.normalize('NFKD'));
  let out = '';
  for (let i = 0; i < chars.length; i += 1) {
    const c = chars[i]!;
    if (pairStarts.has(c) && i + 1 < chars.length) {
      const pair = pairs.get(c + chars[i + 1]!);
      if (pair !== undefined) {
        out += pair;
        i += 1;
        continue;
      }
    }
    out += letters.get(c.codePointAt(0)!) ?? c;
  }
  return out.normalize('NFC');
}

/** Hangul-Latin's filter: modern conjoining jamo, syllables, compatibility and half-width jamo, some symbols. */
function inHangulFilter(ch: string): boolean {
  const cp = ch.codePointAt(0)!;
  return (
    cp === 0x27 || (cp >= 0x1100 && cp <= 0x1112) || (cp >= 0x1161 && cp <= 0x1175) || (cp >= 0x11a8 && cp <= 0x11c2) ||
    (cp >= 0x3131 && cp <= 0x313f) || (cp >= 0x3141 && cp <= 0x3143) || (cp >= 0x3145 && cp <= 0x3163) ||
    (cp >= 0x3200 && cp <= 0x321c) || (cp >= 0x3260 && cp <= 0x327b) || (cp >= 0xac00 && cp <= 0xd7a3) ||
    cp === 0xff07 || (cp >= 0xffa1 && cp <= 0xffaf) || (cp >= 0xffb1 && cp <= 0xffb3) || (cp >= 0xffb5 && cp <= 0xffbe) ||
    (cp >= 0xffc2 && cp <= 0xffc7) || (cp >= 0xffca && cp <= 0xffcf) || (cp >= 0xffd2 && cp <= 0xffd7) || (cp >= 0xffda && cp <= 0xffdc)
  );
}

/** Arabic-Latin's filter: Arabic script, the Arabic block, and a few marks and symbols Arabic text uses. */
function inArabicFilter(ch: string): boolean {
  const cp = ch.codePointAt(0)!;
  return (cp >= 0x600 && cp <= 0x6ff) || cp === 0x200e || cp === 0x207f || /\p{Script=Arabic}/u.test(ch);
}

/** Hebrew-Latin's filter: Hebrew script, every mark of non-zero combining class, the Hebrew letterlike symbols; not meteg. */
function inHebrewFilter(ch: string): boolean {
  const cp = ch.codePointAt(0)!;
  if (cp === 0x5bd) return false;
  if (cp >= 0x591 && cp <= 0x5f4) return true;
  return (cp >= 0x2135 && cp <= 0x2138) || cp === 0x304 || /\p{Script=Hebrew}/u.test(ch) || hasNonZeroCombiningClass(ch);
}

/** Hangul-Latin on a Hangul run: jamo by jamo (ICU's context rules there only add hyphens). */
export function hangulToLatin(run: string): string {
  return byStretches(run, '', inHangulFilter, (stretch) => letterByLetter(hangulTables(), stretch));
}

/** Arabic-Latin on an Arabic run: letter by letter, long vowels by pairs. */
export function arabicToLatin(run: string): string {
  return byStretches(run, '', inArabicFilter, (stretch) => letterByLetter(arabicTables(), stretch));
}

/** Hebrew-Latin on a Hebrew run: letter and point by letter and point. */
export function hebrewToLatin(run: string): string {
  return byStretches(run, '', inHebrewFilter, (stretch) => letterByLetter(hebrewTables(), stretch));
}

// Scripts ICU has no transliterator for

const untouchedScripts = lazily(() => {
  const names = [...decodePairs(splitTables(UNTOUCHED_SCRIPTS).get('scripts')).keys()];
  return new RegExp(`[${names.map((name) => `\\p{Script=${name}}`).join('')}]`, 'u');
});

/** Whether ICU's Any-Latin leaves this letter's script alone (Tibetan, Khmer, Sinhala, Mongolian …). */
export function leftAloneByIcu(ch: string): boolean {
  return untouchedScripts().test(ch);
}
