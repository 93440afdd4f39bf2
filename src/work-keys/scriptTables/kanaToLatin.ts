/**
 * ICU's Hiragana-Latin and Katakana-Latin as `Any-Latin` runs them on a run of kana (scriptConverters.ts
 * describes the family): hiragana goes through katakana, and the contexts ICU's rules look at are kept:
 * which consonant a small tsu doubles and when ン gets an apostrophe, kana completed by the next run
 * (き + ャ), what an iteration mark repeats, and where ー gives a macron.
 */
import { KANA_LATIN } from './icuLatin.generated.js';
import { byStretches, decodePairs, lazily, splitTables } from './scriptConverters.js';

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
