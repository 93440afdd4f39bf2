/**
 * Texts in the scripts the work keys transliterate (Han, kana, Hangul, Arabic, Hebrew), to ask ICU about:
 * titles and names as catalogs hold them, mixed-script titles, and random strings from a seed, so that a
 * run that finds a disagreement can be replayed (randomSamples(seed, count)). Used by the work-key check
 * against ICU (test/work-keys/icuScriptKeys.test.ts) and by the script tables' generator
 * (tools/transliteration/generateScriptTables.ts), which writes the fixture from them.
 *
 * Left to others: asking ICU (uconv.ts).
 */
import { assignedInIcu } from './uconv.js';

export function codePoints(...ranges: readonly (readonly [number, number])[]): string[] {
  const chars: string[] = [];
  for (const [first, last] of ranges) {
    for (let cp = first; cp <= last; cp += 1) {
      const ch = String.fromCodePoint(cp);
      if (/\p{Cn}|\p{Cs}|\p{Co}/u.test(ch)) continue;
      chars.push(ch);
    }
  }
  return chars;
}

export const KATAKANA_LETTERS = codePoints([0x30a1, 0x30fa]).filter((ch) => ch.normalize('NFD') === ch);
export const HIRAGANA_LETTERS = codePoints([0x3041, 0x3096]).filter((ch) => ch.normalize('NFD') === ch);
export const SMALL_KANA = ['ァ', 'ィ', 'ゥ', 'ェ', 'ォ', 'ャ', 'ュ', 'ョ', 'ヮ'];

/** A small deterministic PRNG (mulberry32), so that the fixture comes out the same each run. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(rand: () => number, list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;

/** Titles, names and words as catalogs hold them, several with the contexts the tables are about. */
export const WORDS: Readonly<Record<string, readonly string[]>> = {
  han: [
    '战争与和平', '紅樓夢', '红楼梦', '三國演義', '西遊記', '水滸傳', '魯迅', '鲁迅全集', '毛泽东选集', '論語', '老子道德經',
    '村上春樹', '夏目漱石', '東京', '北京大学出版社', '中华书局', '商务印书馆', '西藏文学', '藏文', '藏 文', '重庆', '重庆出版社',
    '沈阳', '秘鲁', '重要', '银行', '长城', '長安', '音乐', '快乐', '朝鲜', '朝阳', '三体', '刘慈欣', '金庸', '射鵰英雄傳',
    '〇', '々', '一㈠', '中㊥', '⼀二三', '漢字', '汉字', '한자漢字', '李白', '杜甫', '詩經', '史記', '资治通鉴',
  ],
  hiragana: [
    'こころ', 'たけくらべ', 'いすゞ', 'みすゞ', 'こゝろ', 'ちゃんと', 'きっぷ', 'がっこう', 'しんぶん', 'ほんや', 'ぱーく', 'ぴゃ',
    'ふぁ', 'きゃりーぱみゅぱみゅ', 'ぐりとぐら', 'はらぺこあおむし', 'ねこ', 'ひらがな', 'おかあさん', 'ゆっくり', 'ざっし', 'ばっぐ',
    'こんにちは', 'きんようび', 'てぃ', 'ゔぁ', 'ゞ', 'ゝか',
  ],
  katakana: [
    'コーヒー', 'ノルウェイ', 'ヴァイオリン', 'ディズニー', 'ファミリー', 'チョコレート', 'コンピューター', 'ハリー・ポッター',
    'ベートーヴェン', 'ドストエフスキー', 'トルストイ', 'シェイクスピア', 'マッチ', 'ベッド', 'バッハ', 'ピッツァ', 'カタカナ',
    'ｶﾀｶﾅ', 'ﾊﾟｰﾃｨｰ', 'ｺｰﾋｰ', 'ヽヾ', 'ガヾ', 'テュ', 'デュ', 'ウィ', 'ツァ', 'クヮ', 'ヴ', 'ヷヸヹヺ', 'ンア', 'ンヤ', 'ッ',
  ],
  hangul: [
    '전쟁과 평화', '한강', '채식주의자', '서울', '대한민국', '한국어', '소년이 온다', '김영하', '박경리 토지', 'ㄱㄴㄷ', 'ㅏㅓㅗ',
    '㈀㉠', 'ﾡﾢ', '읽다', '닭', '값', '앉다', '삶', '꽃', '햇빛', '신라', '독립문',
  ],
  arabic: [
    'ألف ليلة وليلة', 'نجيب محفوظ', 'القرآن الكريم', 'كِتَابٌ', 'مُحَمَّد', 'عَلِيّ', 'فارسی', 'اردو', 'شاهنامه', 'فردوسی',
    'مثنوی معنوی', 'ابن خلدون', 'مقدمة', '١٩٩٩', '۱۳۹۹', 'كتـــاب', 'ﻻ', 'ﷺ', 'سُورَةُ', 'أَحْمَد', 'إِسْلَام', 'آمَنَ', 'مُؤْمِن',
    'بِئْر', 'قُرْآن', 'دُنْيَا', 'ژاله', 'گل', 'پدر', 'چای', 'ڤيتامين', 'ۋ', 'ی',
  ],
  hebrew: [
    'שָׁלוֹם', 'ספר הזוהר', 'עמוס עוז', 'בְּרֵאשִׁית', 'תּוֹרָה', 'ירושלים', 'חיים נחמן ביאליק', 'שׁ', 'שׂ', 'ﬠ', 'ﭏ', 'ℵ',
    'צ׳', 'ג׳', 'אֱלֹהִים', 'יִשְׂרָאֵל', 'מֶלֶךְ', 'ךםןףץ', 'וו', 'ײ', 'חֲנוּכָּה',
  ],
};

/** Joins words from several scripts and some Latin, punctuation and digits into mixed-script titles. */
export function mixedTitle(rand: () => number): string {
  const parts: string[] = [];
  const count = 1 + Math.floor(rand() * 3);
  for (let i = 0; i < count; i += 1) {
    const kind = pick(rand, ['han', 'hiragana', 'katakana', 'hangul', 'arabic', 'hebrew', 'latin', 'latin']);
    parts.push(kind === 'latin' ? pick(rand, ['Murakami', 'Haruki', 'Tolstoj', 'Война и мир', 'Ὀδύσσεια', '2nd ed.', '(1999)', 'vol. 3']) : pick(rand, WORDS[kind]!));
  }
  return parts.join(pick(rand, [' ', ' / ', ': ', '', '・', '、', ' — ', '; ']));
}

/** Random strings over one script's characters with a few Common ones: contexts no word list has. */
function randomString(rand: () => number, alphabet: readonly string[]): string {
  const length = 1 + Math.floor(rand() * 8);
  let text = '';
  for (let i = 0; i < length; i += 1) text += rand() < 0.12 ? pick(rand, [' ', 'ー', '・', '-', '1', '、', '\u0301']) : pick(rand, alphabet);
  return text;
}

let alphabetsCache: Readonly<Record<string, readonly string[]>> | undefined;

/** Characters random strings are made of, per script (only those ICU has assigned). */
export function alphabets(): Readonly<Record<string, readonly string[]>> {
  alphabetsCache ??= Object.fromEntries(
    Object.entries({
      katakana: [...KATAKANA_LETTERS, 'ッ', 'ッ', 'ン', 'ー', 'ー', 'ヽ', 'ヾ', '\u3099', '\u309A', ...SMALL_KANA, 'ｶ', 'ﾞ', 'ｯ', 'ｰ'],
      hiragana: [...HIRAGANA_LETTERS, 'っ', 'っ', 'ん', 'ー', 'ゝ', 'ゞ', '\u3099', '\u309A', 'ゃ', 'ゅ', 'ょ', 'ぁ', 'ぃ', 'カ'],
      hangul: codePoints([0xac00, 0xd7a3], [0x3131, 0x318e]),
      arabic: codePoints([0x0621, 0x0655], [0x0660, 0x0669], [0x0670, 0x06d3], [0x06f0, 0x06f9]),
      hebrew: codePoints([0x05b0, 0x05c2], [0x05d0, 0x05ea], [0x05f0, 0x05f4]),
      han: codePoints([0x4e00, 0x9fff], [0x3400, 0x3500], [0x20000, 0x20100], [0x2b700, 0x2b800]),
    }).map(([script, chars]) => [script, assignedInIcu(chars)]),
  );
  return alphabetsCache;
}

/** `count` random texts from `seed`: strings over one or two scripts' characters, and mixed titles. */
export function randomSamples(seed: number, count: number): string[] {
  const rand = random(seed);
  const samples: string[] = [];
  const byScript = alphabets();
  const scripts = Object.keys(byScript);
  for (let i = 0; i < count; i += 1) {
    const roll = rand();
    if (roll < 0.5) samples.push(randomString(rand, byScript[pick(rand, scripts)]!));
    else if (roll < 0.75) samples.push(mixedTitle(rand));
    else samples.push(randomString(rand, [...byScript[pick(rand, scripts)]!, ...byScript[pick(rand, scripts)]!]));
  }
  return samples;
}
