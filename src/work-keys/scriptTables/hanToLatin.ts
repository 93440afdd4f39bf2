/**
 * ICU's Han-Latin as `Any-Latin` runs it on a run of Han (scriptConverters.ts describes the family):
 * toned pinyin from the generated readings, the Han pairs ICU reads differently (藏文 zàng, 重庆 chóng,
 * 秘鲁 bì), and the spaces ICU's Han-Spacedhan puts around ideographs. The readings (some 44,000
 * characters) are built only if a catalog has Han text.
 */
import { HAN_LATIN } from './icuLatin.generated.js';
import { decodePairs, forEachKeyOf, lazily, splitTables } from './scriptConverters.js';

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
