/**
 * ICU's Han-Latin, Hiragana-Latin, Katakana-Latin, Hangul-Latin, Arabic-Latin and Hebrew-Latin as ICU's
 * `Any-Latin` runs them on one script run, driven by tables generated from ICU with `uconv`
 * (tools/transliteration/generateScriptTables.ts, which also checks the result against ICU).
 *
 * What it does:
 * - Decodes a script's tables the first time a run of that script is seen: start-up only loads their
 *   text, and the Han readings (some 44,000 characters) are built only if a catalog has Han text.
 * - Splits a run into the stretches ICU's transform for that script takes in (its filter: characters
 *   outside it, such as a combining acute inside an Arabic word, are left alone and end the stretch),
 *   brings each stretch to the normalisation form the transform starts with, replaces it token by token
 *   and, except for Han, composes the result (NFC) as ICU does at the end of each stretch. That last
 *   step is why ー after a vowel gives ā (kept in keys) but after ン gives n + a separate macron
 *   (dropped by the work-key filter), and why ぱ in NFD gives "ha" + a separate mark: the semi-voiced
 *   mark is outside ICU's Hiragana-Latin filter.
 * - Applies the contexts the generator found to matter: which consonant a small tsu doubles and when ン
 *   gets an apostrophe, kana completed by the next run (き + ャ), what an iteration mark repeats (after
 *   whatever was written last, in any script), the Arabic long vowels (fatha + alef, damma + waw,
 *   kasra + yeh), the Han pairs ICU reads differently (藏文 zàng, 重庆 chóng, 秘鲁 bì), and the spaces
 *   ICU's Han-Spacedhan puts around ideographs.
 *
 * The result is ICU's, character for character, except that ICU's hyphens between some Korean
 * syllables (jeonjaeng-gwa) are not written; work keys drop them anyway.
 *
 * Left to others: splitting text into script runs and every other script (transliterateToLatin.ts);
 * generating the tables (tools/transliteration/generateScriptTables.ts).
 */
import { ARABIC_LATIN, HAN_LATIN, HANGUL_LATIN, HEBREW_LATIN, KANA_LATIN, UNTOUCHED_SCRIPTS } from './icuLatin.generated.js';

/**
 * The generated tables are template literals: each table starts with a `#name` line, then one entry per
 * line, a key and a value separated by a tab. In `groups` tables the value comes first and the keys are
 * a run of code points, `a~b` standing for the range a…b.
 */
const RANGE_MARK = '~';
const RANGE_MARK_CODE = RANGE_MARK.charCodeAt(0);

function splitTables(source: string): ReadonlyMap<string, string[]> {
  const tables = new Map<string, string[]>();
  let current: string[] = [];
  for (const line of source.split('\n')) {
    if (line.startsWith('#')) tables.set(line.slice(1), (current = []));
    else if (line !== '') current.push(line);
  }
  return tables;
}

/**
 * The code points of a `value<TAB>keys` line, each given to `visit`: the keys after the tab, where the
 * range mark between two code points stands for every code point between them.
 */
function forEachKeyOf(line: string, tab: number, visit: (codePoint: number) => void): void {
  let previous = -1;
  for (let i = tab + 1; i < line.length; ) {
    const cp = line.codePointAt(i)!;
    i += cp > 0xffff ? 2 : 1;
    if (cp === RANGE_MARK_CODE) {
      const last = line.codePointAt(i)!;
      i += last > 0xffff ? 2 : 1;
      for (let c = previous + 1; c <= last; c += 1) visit(c);
    } else {
      visit(cp);
      previous = cp;
    }
  }
}

/** `value<TAB>keys` lines into code point → value. */
function decodeGroups(lines: readonly string[] | undefined): Map<number, string> {
  const map = new Map<number, string>();
  for (const line of lines ?? []) {
    const tab = line.indexOf('\t');
    const value = line.slice(0, tab);
    forEachKeyOf(line, tab, (cp) => map.set(cp, value));
  }
  return map;
}

/** `key<TAB>value` lines into key → value. */
function decodePairs(lines: readonly string[] | undefined): Map<string, string> {
  const map = new Map<string, string>();
  for (const line of lines ?? []) {
    const tab = line.indexOf('\t');
    map.set(line.slice(0, tab), line.slice(tab + 1));
  }
  return map;
}

function lazily<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= build());
}

const isMark = (ch: string | undefined) => ch !== undefined && /\p{M}/u.test(ch);

/**
 * Combining class above zero, which Hebrew-Latin's filter takes in. Every such character is a mark;
 * canonical reordering moves it in front of U+0345 (class 240, the highest but for U+0345 itself),
 * while a mark of class 0 stays where it is.
 */
function hasNonZeroCombiningClass(ch: string): boolean {
  if (!isMark(ch)) return false;
  if (ch === '\u0345') return true;
  const probe = `\u0345${ch}`;
  return probe.normalize('NFD') !== probe;
}

/**
 * Runs `convertStretch` over the stretches of `run` that `inFilter` takes in and copies the rest, as
 * ICU's filtered transliteration does. `convertStretch` also gets the text after the stretch, which
 * ICU's rules may look at, and what has been written for the run before the stretch.
 */
function byStretches(
  run: string,
  after: string,
  inFilter: (ch: string) => boolean,
  convertStretch: (stretch: string, following: string, written: string) => string,
): string {
  let result = '';
  let start = -1;
  let at = 0;
  for (const ch of run) {
    if (inFilter(ch)) {
      if (start < 0) start = at;
    } else {
      if (start >= 0) result += convertStretch(run.slice(start, at), run.slice(at) + after, result);
      start = -1;
      result += ch;
    }
    at += ch.length;
  }
  if (start >= 0) result += convertStretch(run.slice(start), after, result);
  return result;
}

// ---------------------------------------------------------------------------------------------------
// Han

/**
 * Han readings by code point. Some 44,000 characters have one, nearly all in the unified ideograph
 * blocks, so two dense arrays of reading numbers (about 200 KB) cover those blocks, and a map the rest;
 * that is smaller and far quicker to build than a map of every character.
 */
const HAN_BMP_FIRST = 0x3000;
const HAN_BMP_LAST = 0x9fff;
const HAN_ASTRAL_FIRST = 0x20000;
const HAN_ASTRAL_LAST = 0x323af;

class HanReadings {
  /** Reading numbers index this list; 0 is "no reading". */
  private readonly readings: string[] = [''];
  private readonly bmp = new Uint16Array(HAN_BMP_LAST - HAN_BMP_FIRST + 1);
  private readonly astral = new Uint16Array(HAN_ASTRAL_LAST - HAN_ASTRAL_FIRST + 1);
  private readonly others = new Map<number, number>();

  constructor(lines: readonly string[]) {
    for (const line of lines) {
      const tab = line.indexOf('\t');
      const index = this.readings.push(line.slice(0, tab)) - 1;
      forEachKeyOf(line, tab, (cp) => this.set(cp, index));
    }
  }

  private set(cp: number, index: number): void {
    if (cp >= HAN_BMP_FIRST && cp <= HAN_BMP_LAST) this.bmp[cp - HAN_BMP_FIRST] = index;
    else if (cp >= HAN_ASTRAL_FIRST && cp <= HAN_ASTRAL_LAST) this.astral[cp - HAN_ASTRAL_FIRST] = index;
    else this.others.set(cp, index);
  }

  get(cp: number): string | undefined {
    const index =
      cp >= HAN_BMP_FIRST && cp <= HAN_BMP_LAST
        ? this.bmp[cp - HAN_BMP_FIRST]!
        : cp >= HAN_ASTRAL_FIRST && cp <= HAN_ASTRAL_LAST
          ? this.astral[cp - HAN_ASTRAL_FIRST]!
          : (this.others.get(cp) ?? 0);
    return index === 0 ? undefined : this.readings[index];
  }
}

interface HanTables {
  readings: HanReadings;
  /** First character → [second character, reading of the first] when ICU reads the pair specially. */
  pairs: Map<string, [string, string][]>;
}

const hanTables = lazily((): HanTables => {
  const tables = splitTables(HAN_LATIN);
  const pairs = new Map<string, [string, string][]>();
  for (const [key, reading] of decodePairs(tables.get('pairs'))) {
    const [first, second] = Array.from(key) as [string, string];
    pairs.set(first, [...(pairs.get(first) ?? []), [second, reading]]);
  }
  return { readings: new HanReadings(tables.get('readings') ?? []), pairs };
});

/**
 * Characters whose compatibility form (NFKC) ICU's Han-Latin reads instead: radicals, compatibility
 * ideographs, enclosed and squared ideographs (㊥ → 中 → zhōng, ㈠ → (一) → (yī)), full-width forms.
 * Unified ideographs never change under NFKC, so most text skips the normalisation.
 */
function foldedForHan(cp: number): boolean {
  return (
    (cp >= 0x2e80 && cp <= 0x2fdf) || (cp >= 0x3038 && cp <= 0x303a) || (cp >= 0x3192 && cp <= 0x319f) || (cp >= 0x3220 && cp <= 0x3247) ||
    (cp >= 0x3280 && cp <= 0x32b0) || (cp >= 0x32c0 && cp <= 0x32cb) || (cp >= 0x3358 && cp <= 0x3370) ||
    (cp >= 0x337b && cp <= 0x337f) || (cp >= 0x33e0 && cp <= 0x33fe) || (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xff01 && cp <= 0xff5e) || cp === 0xff61 || (cp >= 0x1f210 && cp <= 0x1f251) || (cp >= 0x2f800 && cp <= 0x2fa1f)
  );
}

/** Unified ideographs: letters, ideographic, never punctuation; most Han text is nothing else. */
function isUnifiedIdeograph(cp: number): boolean {
  return (cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0x3400 && cp <= 0x4dbf) || (cp >= 0x20000 && cp <= 0x323af && !(cp >= 0x2f800 && cp <= 0x2fa1f));
}

interface SpacingClass {
  letter: boolean;
  mark: boolean;
  /** Ideograph or closing punctuation: a letter after it gets a space. */
  closes: boolean;
  /** Ideograph or opening punctuation: a letter before it gets a space. */
  opens: boolean;
}

const IDEOGRAPH_CLASS: SpacingClass = { letter: true, mark: false, closes: true, opens: true };

/** Classes of the other characters seen next to ideographs (spaces, punctuation, kana …), remembered. */
const spacingClasses = new Map<number, SpacingClass>();

function spacingClass(ch: string): SpacingClass {
  const cp = ch.codePointAt(0)!;
  if (isUnifiedIdeograph(cp)) return IDEOGRAPH_CLASS;
  let known = spacingClasses.get(cp);
  if (known === undefined) {
    const ideographic = /\p{Ideographic}/u.test(ch);
    known = {
      letter: /\p{L}/u.test(ch),
      mark: /\p{M}/u.test(ch),
      closes: ideographic || /[.,:;?!．，：？！｡、；\p{Pe}\p{Pf}]/u.test(ch),
      opens: ideographic || /[\p{Ps}\p{Pi}]/u.test(ch),
    };
    if (spacingClasses.size < 10_000) spacingClasses.set(cp, known);
  }
  return known;
}

/**
 * Han-Latin: toned pinyin per character, ICU's way (漢字 → hàn zì). Characters ICU has no reading for
 * stay as they are. As ICU's Han-Spacedhan step does first, a space goes between an ideograph (or
 * closing punctuation) and a letter after it, and between a letter and an ideograph (or opening
 * punctuation) after it, within the run.
 */
export function hanToLatin(run: string, before: string): string {
  const { readings, pairs } = hanTables();
  // Han-Spacedhan: compatibility folding, then the spaces.
  const folded: string[] = [];
  for (const ch of run) {
    const cp = ch.codePointAt(0)!;
    if (cp === 0xff61) folded.push('.'); // ICU writes the half-width ideographic full stop as a full stop
    else if (foldedForHan(cp)) folded.push(...ch.normalize('NFKC'));
    else folded.push(ch);
  }
  const spaced: string[] = [];
  const last = Array.from(before.slice(-2)).at(-1);
  let previous = last === undefined ? undefined : spacingClass(last);
  let afterLetter = previous !== undefined && (previous.letter || (previous.mark && /\p{L}\p{M}*$/u.test(before)));
  for (const ch of folded) {
    const current = spacingClass(ch);
    if (previous !== undefined && ch !== ' ' && ((previous.closes && current.letter) || (afterLetter && current.opens))) spaced.push(' ');
    spaced.push(ch);
    afterLetter = current.letter || (afterLetter && current.mark);
    previous = current;
  }
  // Han-Latin proper.
  let result = '';
  for (let i = 0; i < spaced.length; i += 1) {
    const ch = spaced[i]!;
    let reading = readings.get(ch.codePointAt(0)!);
    if (reading === undefined) {
      result += ch;
      continue;
    }
    const special = pairs.get(ch);
    if (special !== undefined) {
      const partner = spaced[i + 1] === ' ' ? spaced[i + 2] : spaced[i + 1];
      reading = special.find(([second]) => second === partner)?.[1] ?? reading;
    }
    result += reading;
  }
  return result;
}

// ---------------------------------------------------------------------------------------------------
// Kana

interface KanaTables {
  /** Katakana tokens (a letter with its voicing mark and small kana, NFD) and what ICU writes for them. */
  tokens: Map<string, string>;
  /**
   * What the last token of a stretch is written as when the next character (past the stretch, in a
   * run of the other kana script) completes it: き before ャ is k~, and the katakana run then reads ~ャ.
   */
  beforeNextRun: Map<string, string>;
  /** What a small tsu is written as before a given next character (with its voicing mark); else ~tsu. */
  gemination: Map<string, string>;
  /** Characters before which ン gets an apostrophe. */
  apostropheBefore: Set<string>;
  /** What an iteration mark repeats after a syllable already written: `syllable + ヽ or ヾ` → text. */
  iteration: Map<string, string>;
  /** Second characters of the tokens longer than one character: only before them is a longer token tried. */
  continuations: Set<string>;
}

const kanaTables = lazily((): KanaTables => {
  const tables = splitTables(KANA_LATIN);
  const tokens = decodePairs(tables.get('tokens'));
  return {
    tokens,
    continuations: new Set([...tokens.keys()].filter((token) => token.length > 1).map((token) => token[1]!)),
    beforeNextRun: decodePairs(tables.get('beforeNextRun')),
    gemination: decodePairs(tables.get('gemination')),
    apostropheBefore: new Set(decodePairs(tables.get('apostropheBefore')).keys()),
    iteration: decodePairs(tables.get('iteration')),
  };
});

/** The longest written syllable the iteration table has a key for. */
const LONGEST_ITERATED_SYLLABLE = 4;
/** The longest token: a letter, its voicing mark and a small kana. */
const LONGEST_TOKEN = 3;

const SMALL_TSU = 'ッ';
const SYLLABIC_N = 'ン';
const PROLONGED_SOUND_MARK = 'ー';
const ITERATION_MARK = 'ヽ';
const VOICED_MARK = '\u3099';
/** The voicing marks, combining (゙ ゚) and spacing (゛ ゜), that ICU's small-tsu rules look at. */
const VOICING_MARKS = new Set(['\u3099', '\u309A', '\u309B', '\u309C']);
const MACRON = '\u0304';

/**
 * Katakana-Latin's filter: katakana letters and marks, voiced hiragana, ASCII and a few symbols and
 * half-width forms. The middle dot ・ is not in it.
 */
function inKatakanaFilter(ch: string): boolean {
  const cp = ch.codePointAt(0)!;
  return (
    (cp >= 0x20 && cp <= 0x7e) ||
    cp === 0xa2 || cp === 0xa3 || cp === 0xa5 || cp === 0xa6 || cp === 0xac || cp === 0x304 || cp === 0x20a9 ||
    cp === 0x3001 || cp === 0x3002 ||
    (cp >= 0x304c && cp <= 0x307d && VOICED_HIRAGANA.has(cp)) || cp === 0x3094 || cp === 0x309e ||
    (cp >= 0x3099 && cp <= 0x309c) || (cp >= 0x30a0 && cp <= 0x30fa) || (cp >= 0x30fc && cp <= 0x30fe) ||
    (cp >= 0xff61 && cp <= 0xffbe) || (cp >= 0xffc2 && cp <= 0xffc7) || (cp >= 0xffca && cp <= 0xffcf) ||
    (cp >= 0xffd2 && cp <= 0xffd7) || (cp >= 0xffda && cp <= 0xffdc) || (cp >= 0xffe8 && cp <= 0xffee)
  );
}

/** Precomposed voiced hiragana that Katakana-Latin's filter lists (が ぎ … ぽ). */
const VOICED_HIRAGANA = new Set([
  0x304c, 0x304e, 0x3050, 0x3052, 0x3054, 0x3056, 0x3058, 0x305a, 0x305c, 0x305e, 0x3060, 0x3062, 0x3065,
  0x3067, 0x3069, 0x3070, 0x3071, 0x3073, 0x3074, 0x3076, 0x3077, 0x3079, 0x307a, 0x307c, 0x307d,
]);

/**
 * Hiragana-Latin's filter: hiragana letters, the voiced sound mark (but not the semi-voiced one, so
 * that ぱ in NFD comes out as ha), the iteration marks, ー and a few voiced katakana.
 */
function inHiraganaFilter(ch: string): boolean {
  const cp = ch.codePointAt(0)!;
  return (
    (cp >= 0x3041 && cp <= 0x3094) || cp === 0x3099 || cp === 0x309d || cp === 0x309e ||
    VOICED_KATAKANA.has(cp) || (cp >= 0x30f7 && cp <= 0x30fa) || cp === 0x30fc || cp === 0x30fe
  );
}

const VOICED_KATAKANA = new Set([
  0x30ac, 0x30ae, 0x30b0, 0x30b2, 0x30b4, 0x30b6, 0x30b8, 0x30ba, 0x30bc, 0x30be, 0x30c0, 0x30c2, 0x30c5,
  0x30c7, 0x30c9, 0x30d0, 0x30d3, 0x30d6, 0x30d9, 0x30dc, 0x30f4,
]);

/** Hiragana as ICU's Hiragana-Latin hands it to Katakana-Latin: the same letters in katakana, NFD. */
function hiraganaToKatakana(stretch: string): string {
  let result = '';
  for (const ch of stretch.normalize('NFD')) {
    const cp = ch.codePointAt(0)!;
    result += (cp >= 0x3041 && cp <= 0x3094) || cp === 0x309d ? String.fromCodePoint(cp + 0x60) : ch;
  }
  return result;
}

/** Katakana as Katakana-Latin starts on it: half-width forms made full-width, then NFD. */
function katakanaForRules(stretch: string): string {
  return (/[\uFF61-\uFF9F]/u.test(stretch) ? stretch.replace(/[\uFF61-\uFF9F]+/gu, (hw) => hw.normalize('NFKC')) : stretch).normalize('NFD');
}

/** The character at `i` in `chars`, or past their end in `following` (text ICU's rules see past the stretch). */
function charAt(chars: string, i: number, following: string): string | undefined {
  if (i < chars.length) return chars[i];
  let rest = i - chars.length;
  for (const ch of following) {
    if (rest === 0) return ch;
    rest -= 1;
  }
  return undefined;
}

/**
 * What an iteration mark writes after `written`: ICU repeats the syllable written last (voiced for ヾ),
 * whatever wrote it, so the table is keyed by the end of the text written so far. Past the table it
 * repeats the last character written (nothing at the very start). After a supplementary character ICU
 * repeats only its first UTF-16 unit, a lone surrogate that the work-key filter drops; nothing is
 * written for it here.
 */
function iterate(written: string, voiced: boolean): string {
  const { iteration } = kanaTables();
  const tail = Array.from(written.slice(-2 * LONGEST_ITERATED_SYLLABLE));
  const mark = voiced ? 'ヾ' : 'ヽ';
  for (let length = Math.min(LONGEST_ITERATED_SYLLABLE, tail.length); length > 0; length -= 1) {
    const repeated = iteration.get(tail.slice(-length).join('') + mark);
    if (repeated !== undefined) return repeated;
  }
  const last = tail.at(-1) ?? '';
  return last.length > 1 ? '' : last;
}

/** Katakana-Latin on one stretch of katakana (NFD); `written` is the text already written before it. */
function kanaStretch(katakana: string, following: string, written: string): string {
  const { tokens, beforeNextRun, gemination, apostropheBefore, continuations } = kanaTables();
  // Every character Katakana-Latin's filter takes in is in the BMP, so code units are characters here.
  const chars = katakana;
  let out = '';
  for (let i = 0; i < chars.length; ) {
    const c = chars[i]!;
    if (c === SMALL_TSU) {
      const next = charAt(chars, i + 1, following);
      const mark = charAt(chars, i + 2, following);
      const voiced = mark !== undefined && VOICING_MARKS.has(mark) ? gemination.get(`${next}${mark}`) : undefined;
      out += voiced ?? (next === undefined ? undefined : gemination.get(next)) ?? tokens.get(SMALL_TSU) ?? c;
      i += 1;
    } else if (c === SYLLABIC_N) {
      const next = charAt(chars, i + 1, following);
      out += next !== undefined && apostropheBefore.has(next) ? "n'" : 'n';
      i += 1;
    } else if (c === PROLONGED_SOUND_MARK) {
      out += MACRON;
      i += 1;
    } else if (c === ITERATION_MARK) {
      const voiced = chars[i + 1] === VOICED_MARK;
      out += iterate(written + out, voiced);
      i += voiced ? 2 : 1;
    } else {
      let length = continuations.has(chars[i + 1] ?? '') ? Math.min(LONGEST_TOKEN, chars.length - i) : 1;
      let output: string | undefined;
      for (; length > 1; length -= 1) {
        output = tokens.get(katakana.slice(i, i + length));
        if (output !== undefined) break;
      }
      const token = katakana.slice(i, i + length);
      if (i + length === chars.length && following !== '') output = beforeNextRun.get(token + String.fromCodePoint(following.codePointAt(0)!)) ?? output;
      out += output ?? tokens.get(token) ?? token;
      i += length;
    }
  }
  return out.normalize('NFC');
}

/** Katakana-Latin on a Katakana run; `before` is what has been written for the text before the run. */
export function katakanaToLatin(run: string, after: string, before: string): string {
  return byStretches(run, after, inKatakanaFilter, (stretch, following, written) =>
    kanaStretch(katakanaForRules(stretch), following, before + written),
  );
}

/** Hiragana-Latin on a Hiragana run: the hiragana become katakana, which Katakana-Latin then writes. */
export function hiraganaToLatin(run: string, after: string, before: string): string {
  return byStretches(run, after, inHiraganaFilter, (stretch, following, written) =>
    kanaStretch(hiraganaToKatakana(stretch), following, before + written),
  );
}

// ---------------------------------------------------------------------------------------------------
// Hangul, Arabic, Hebrew: NFKD, character by character (Arabic also by pairs), then NFC.

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

// ---------------------------------------------------------------------------------------------------
// Scripts ICU has no transliterator for

const untouchedScripts = lazily(() => {
  const names = [...decodePairs(splitTables(UNTOUCHED_SCRIPTS).get('scripts')).keys()];
  return new RegExp(`[${names.map((name) => `\\p{Script=${name}}`).join('')}]`, 'u');
});

/** Whether ICU's Any-Latin leaves this letter's script alone (Tibetan, Khmer, Sinhala, Mongolian …). */
export function leftAloneByIcu(ch: string): boolean {
  return untouchedScripts().test(ch);
}

