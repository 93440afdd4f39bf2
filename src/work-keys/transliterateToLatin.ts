/**
 * Transliteration of non-Latin text to Latin script, standing in for ICU's `Any-Latin` transform, which
 * work keys need (docs/work-keys.md, "Transliteration") and which Node's built-in ICU does not expose.
 *
 * What it does:
 * - Splits the text into script runs as ICU's `Any-Latin` does: Common and Inherited characters (spaces,
 *   punctuation, digits, combining marks) go with the run before them, or with the first run when they
 *   lead the text.
 * - Latin runs come back untouched, so Latin text (with its accents, in whatever normalisation form)
 *   passes through unchanged.
 * - Cyrillic runs follow CLDR's Cyrillic-Latin rules (ISO 9 based) and Greek runs CLDR's Greek-Latin
 *   rules, forward direction, with the Greek context rules (γ before γ/κ/ξ/χ, υ after a vowel, breathings,
 *   iota subscript, capitals before lower case, σ/ς), CLDR's input filters and ICU's way of running a
 *   transform over several scripts (cyrillicGreekToLatin.ts). The result matched ICU 72
 *   (`uconv -x Any-Latin`) on every Greek, Cyrillic and mixed text tried, NFC and NFD, including
 *   thousands of random ones.
 * - Han, Hiragana, Katakana, Hangul, Arabic and Hebrew runs go through tables generated from ICU itself
 *   (scriptTables/hanToLatin.ts, kanaToLatin.ts, letterScriptsToLatin.ts): toned pinyin for Han
 *   (漢字 → hàn zì), ICU's kana, Korean, Arabic and Hebrew romanisations with their context rules. Work
 *   keys from them agree with ICU 72 on every sample tried (test/work-keys/icuScriptKeys.test.ts); the
 *   text itself differs only by the hyphens ICU puts between some Korean syllables.
 * - Scripts ICU has no transliterator for (Tibetan, Khmer, Sinhala, Lao, Mongolian, Cherokee, Coptic …,
 *   as listed by the generator) stay as they are, as in ICU.
 * - Every other script (Armenian, Georgian, Devanagari and the other Indic scripts, Thai, Ethiopic,
 *   Syriac, Thaana, Bopomofo …) goes through the `any-ascii` package. That is only an APPROXIMATION of
 *   ICU for those scripts: ICU has rules of its own for each (Devanagari keeps its inherent vowel,
 *   हिन्दी → hindī, where any-ascii writes hindi), so keys computed here for such titles can differ
 *   from keys computed with ICU (VuFind's).
 * - Cyrillic letters that CLDR's table leaves out (ң, ө, ү, һ, ѣ …) stay Cyrillic, as they do in ICU.
 *
 * Left to others: case folding, removing punctuation and accents, and the rest of the work-key
 * normalisation (workKeys.ts); the ICU tables and their generator (scriptTables/,
 * tools/transliteration/generateScriptTables.ts).
 */
import anyAscii from 'any-ascii';
import { CYRILLIC_FILTER_MARKS, GREEK_FILTER_MARKS, cyrillicToLatin, greekToLatin } from './cyrillicGreekToLatin.js';
import { hanToLatin } from './scriptTables/hanToLatin.js';
import { hiraganaToLatin, katakanaToLatin } from './scriptTables/kanaToLatin.js';
import { arabicToLatin, hangulToLatin, hebrewToLatin, leftAloneByIcu } from './scriptTables/letterScriptsToLatin.js';
import { isMark } from './scriptTables/scriptConverters.js';

type Script = 'latin' | 'cyrillic' | 'greek' | 'han' | 'hiragana' | 'katakana' | 'hangul' | 'arabic' | 'hebrew' | 'untouched' | 'other';

const SCRIPT_PATTERNS: readonly (readonly [RegExp, Script])[] = [
  [/\p{Script=Han}/u, 'han'],
  [/\p{Script=Hiragana}/u, 'hiragana'],
  [/\p{Script=Katakana}/u, 'katakana'],
  [/\p{Script=Hangul}/u, 'hangul'],
  [/\p{Script=Arabic}/u, 'arabic'],
  [/\p{Script=Hebrew}/u, 'hebrew'],
  [/\p{Script=Cyrillic}/u, 'cyrillic'],
  [/\p{Script=Greek}/u, 'greek'],
];

/** The script a character starts or continues a run of; undefined for Common, Inherited and unassigned. */
function classify(ch: string): Script | undefined {
  if (/[\p{Script=Common}\p{Script=Inherited}]/u.test(ch)) return undefined;
  // ICU has no transliterator for unassigned and private-use characters either: they pass through.
  if (/[\p{Script=Latin}\p{Script=Unknown}]/u.test(ch)) return 'latin';
  for (const [pattern, script] of SCRIPT_PATTERNS) if (pattern.test(ch)) return script;
  return leftAloneByIcu(ch) ? 'untouched' : 'other';
}

/**
 * Scripts of the characters seen so far. A catalog uses a few thousand distinct characters at most,
 * so remembering them spares the property lookups; the cap only guards against hostile input.
 */
const scriptCache = new Map<number, Script | null>();
const SCRIPT_CACHE_LIMIT = 100_000;

function scriptOf(cp: number): Script | undefined {
  if (cp < 0x80) return (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a) ? 'latin' : undefined;
  let script = scriptCache.get(cp);
  if (script === undefined) {
    script = classify(String.fromCodePoint(cp)) ?? null;
    if (scriptCache.size < SCRIPT_CACHE_LIMIT) scriptCache.set(cp, script);
  }
  return script ?? undefined;
}

const NEEDS_TRANSLITERATION = /[^\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}\p{Script=Unknown}]/u;

/** How many UTF-16 units of Common and Inherited characters (punctuation, spaces, marks) end `text`. */
function sharedTailLength(text: string): number {
  let start = text.length;
  while (start > 0) {
    const low = text.charCodeAt(start - 1);
    const width = low >= 0xdc00 && low <= 0xdfff && start > 1 ? 2 : 1;
    if (scriptOf(text.codePointAt(start - width)!) !== undefined) break;
    start -= width;
  }
  return text.length - start;
}

/** Converts one run; `before` is what has been written for the text before it, `after` the text after it. */
type Converter = (run: string, before: string, after: string) => string;

/**
 * Applies `convert` to each stretch of `run` between marks that `filterMarks` leaves out, copying those
 * marks as they are. Each stretch still sees the text around it as context, as ICU's filtered runs do.
 */
function betweenUnfilteredMarks(filterMarks: ReadonlySet<string>, convert: Converter): Converter {
  return (run, before, after) => {
    let result = '';
    let start = 0;
    let at = 0;
    const flush = (end: number) => {
      if (end > start) result += convert(run.slice(start, end), before + result, run.slice(end) + after);
    };
    for (const ch of run) {
      if (isMark(ch) && !filterMarks.has(ch)) {
        flush(at);
        result += ch;
        start = at + ch.length;
      }
      at += ch.length;
    }
    flush(run.length);
    return result;
  };
}

const CONVERTERS: Readonly<Record<Script, Converter>> = {
  latin: (run) => run,
  cyrillic: betweenUnfilteredMarks(CYRILLIC_FILTER_MARKS, cyrillicToLatin),
  greek: betweenUnfilteredMarks(GREEK_FILTER_MARKS, greekToLatin),
  han: (run, before) => hanToLatin(run, before),
  hiragana: (run, before, after) => hiraganaToLatin(run, after, before),
  katakana: (run, before, after) => katakanaToLatin(run, after, before),
  hangul: (run) => hangulToLatin(run),
  arabic: (run) => arabicToLatin(run),
  hebrew: (run) => hebrewToLatin(run),
  // ICU has no transliterator for these (Tibetan, Khmer, Sinhala, Mongolian …): they stay as they are.
  untouched: (run) => run,
  // any-ascii works code point by code point, so decomposed input (NFD Devanagari, Thai …) must be
  // composed first or it comes out spelled letter by letter.
  other: (run) => anyAscii(run.normalize('NFC')),
};

/**
 * Scripts whose ICU transform also changes Common characters (punctuation, ー, enclosed ideographs …):
 * ICU hands the Common and Inherited characters between two runs, as the run before left them, to the
 * run after as well, so these runs take them back. Cyrillic-Latin changes none of them.
 */
const TAKES_SHARED_TAIL: ReadonlySet<Script> = new Set(['greek', 'han', 'hiragana', 'katakana', 'hangul', 'arabic', 'hebrew']);

/**
 * `text` in Latin script, as ICU's `Any-Latin` writes it: exactly for Cyrillic and Greek; for Han, kana,
 * Hangul, Arabic and Hebrew the same letters, digits and accents (scriptTables/scriptConverters.ts says
 * what may differ); approximately for other scripts.
 */
export function transliterateToLatin(text: string): string {
  // Most catalog text is Latin; leave it (and its normalisation form) alone without walking it.
  if (!NEEDS_TRANSLITERATION.test(text)) return text;
  // Script runs, as ICU's Any-Latin makes them: Common and Inherited characters go with the run before
  // them, or with the first run when they lead the text.
  const scripts: Script[] = [];
  const starts: number[] = [];
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    const script = scriptOf(cp);
    if (script !== undefined && script !== scripts.at(-1)) {
      scripts.push(script);
      starts.push(starts.length === 0 ? 0 : i);
    }
    i += cp > 0xffff ? 2 : 1;
  }
  let result = '';
  for (let k = 0; k < scripts.length; k += 1) {
    const script = scripts[k]!;
    const end = starts[k + 1] ?? text.length;
    let runText = text.slice(starts[k], end);
    if (TAKES_SHARED_TAIL.has(script)) {
      // Only the Greek rules and these scripts' transforms change any of them (";" → "?" in Greek,
      // ー → a macron in kana, ㊥ → zhōng in Han, ، → "," in Arabic …): "Tolkien; Ὀδύσσεια" →
      // "Tolkien? Odýsseia", as ICU writes it.
      const shared = sharedTailLength(result);
      runText = result.slice(result.length - shared) + runText;
      result = result.slice(0, result.length - shared);
    }
    result += CONVERTERS[script](runText, result, text.slice(end, starts[k + 2] ?? text.length));
  }
  return result;
}
