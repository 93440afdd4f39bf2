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
 * This file decodes the generated tables and splits a run into stretches, for the converters of each
 * script: hanToLatin.ts, kanaToLatin.ts and letterScriptsToLatin.ts (Hangul, Arabic, Hebrew).
 *
 * Left to others: splitting text into script runs and every other script (transliterateToLatin.ts);
 * generating the tables (tools/transliteration/generateScriptTables.ts).
 */

/**
 * The generated tables are template literals: each table starts with a `#name` line, then one entry per
 * line, a key and a value separated by a tab. In `groups` tables the value comes first and the keys are
 * a run of code points, `a~b` standing for the range a…b.
 */
const RANGE_MARK = '~';
const RANGE_MARK_CODE = RANGE_MARK.charCodeAt(0);

export function splitTables(source: string): ReadonlyMap<string, string[]> {
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
export function forEachKeyOf(line: string, tab: number, visit: (codePoint: number) => void): void {
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
export function decodeGroups(lines: readonly string[] | undefined): Map<number, string> {
  const map = new Map<number, string>();
  for (const line of lines ?? []) {
    const tab = line.indexOf('\t');
    const value = line.slice(0, tab);
    forEachKeyOf(line, tab, (cp) => map.set(cp, value));
  }
  return map;
}

/** `key<TAB>value` lines into key → value. */
export function decodePairs(lines: readonly string[] | undefined): Map<string, string> {
  const map = new Map<string, string>();
  for (const line of lines ?? []) {
    const tab = line.indexOf('\t');
    map.set(line.slice(0, tab), line.slice(tab + 1));
  }
  return map;
}

export function lazily<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= build());
}

export const isMark = (ch: string | undefined) => ch !== undefined && /\p{M}/u.test(ch);

/**
 * Combining class above zero, which Hebrew-Latin's filter takes in. Every such character is a mark;
 * canonical reordering moves it in front of U+0345 (class 240, the highest but for U+0345 itself),
 * while a mark of class 0 stays where it is.
 */
export function hasNonZeroCombiningClass(ch: string): boolean {
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
export function byStretches(
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
