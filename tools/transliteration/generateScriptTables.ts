/**
 * Generates src/work-keys/scriptTables/icuLatin.generated.ts (the tables scriptConverters.ts uses) and
 * the fixture test/fixtures/icu-any-latin-samples.json from ICU itself, by running `uconv` (ICU's
 * command-line tool, Debian package icu-devtools) over every code point of each script and over the
 * contexts that matter, then checks the result against uconv.
 *
 *   npx tsx tools/transliteration/generateScriptTables.ts            # tables, check, fixture
 *   npx tsx tools/transliteration/generateScriptTables.ts --check    # only compare with uconv
 *
 * What it does:
 * - Han: the reading ICU's Han-Latin gives each Han character on its own (characters it folds first,
 *   radicals and enclosed ideographs, are folded by the converter), and the pairs whose first character
 *   ICU reads differently.
 * - Kana: what Katakana-Latin writes for each letter, and for each letter + voicing mark or small kana
 *   it does not write piece by piece; for a last letter completed by the first of the next run (き + ャ);
 *   for a small tsu before each next character; where ン gets an apostrophe; and what an iteration mark
 *   repeats after each syllable. Hiragana goes through the same tables, as ICU's Hiragana-Latin turns
 *   it into katakana first.
 * - Hangul, Arabic, Hebrew: what each character gives, and every pair of characters that ICU writes
 *   differently from its two characters one after the other (found by running all pairs).
 * - The scripts none of whose letters Any-Latin changes, which must then pass through untouched.
 * - Checks normaliseForWorkKey against uconv on every single character, all kana pairs, kana triples,
 *   random Han pairs and random strings, prints the agreement, and writes the fixture: a few thousand
 *   samples with the key ICU gives them, which test/work-keys/icuScriptKeys.test.ts replays without uconv.
 *
 * Running uconv (why every text is sent as escapes between sentinel lines): test/support/uconv.ts; the
 * word lists and random samples: test/support/scriptSamples.ts. Both are shared with the test that
 * checks the keys against ICU.
 *
 * Left to others: using the tables (src/work-keys/scriptTables/scriptConverters.ts).
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { alphabets, codePoints, HIRAGANA_LETTERS, KATAKANA_LETTERS, mixedTitle, pick, random, randomSamples, SMALL_KANA, WORDS } from '../../test/support/scriptSamples.js';
import { ANY_LATIN_RULES, assignedInIcu, icuWorkKeys, runIcu, uconvAvailable, VUFIND_WORK_KEY_RULES } from '../../test/support/uconv.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const tablesDir = join(repoRoot, 'src', 'work-keys', 'scriptTables');
const fixturePath = join(repoRoot, 'test', 'fixtures', 'icu-any-latin-samples.json');

/** Any-Latin on each text as normaliseForWorkKey hands it over: NFD, lower case. */
function anyLatin(texts: readonly string[]): string[] {
  return runIcu(texts.map((text) => text.normalize('NFD').toLowerCase()), ANY_LATIN_RULES);
}

// ---------------------------------------------------------------------------------------------------
// Code points

const isScriptChar = (ch: string) => !/[\p{Script=Common}\p{Script=Inherited}]/u.test(ch);
const nfd = (s: string) => s.normalize('NFD');
const nfkd = (s: string) => s.normalize('NFKD');

/**
 * What ICU writes for each character inside a run of its script: a character of the script on its own;
 * a Common or Inherited one after `carrier` (on its own it would not be in any run), minus what the
 * carrier gives. Results are NFD, as the converters compose them again at the end.
 */
function outputsInRun(chars: readonly string[], carrier: string): Map<string, string> {
  const own = chars.filter(isScriptChar);
  const shared = chars.filter((ch) => !isScriptChar(ch));
  const outputs = new Map<string, string>();
  anyLatin(own).forEach((out, i) => outputs.set(own[i]!, nfd(out)));
  const carried = nfd(anyLatin([carrier])[0]!);
  anyLatin(shared.map((ch) => carrier + ch)).forEach((out, i) => {
    const written = nfd(out);
    if (!written.startsWith(carried)) throw new Error(`carrier ${carrier} changes with ${shared[i]}: ${written}`);
    outputs.set(shared[i]!, written.slice(carried.length));
  });
  return outputs;
}

// ---------------------------------------------------------------------------------------------------
// Serialising tables (the format scriptConverters.ts decodes: `#name` lines, then key<TAB>value lines;
// in groups, value<TAB>code points with a~b for ranges)

const RANGE_MARK = '~';

function groups(map: ReadonlyMap<string, string>): string[] {
  const byValue = new Map<string, number[]>();
  for (const [key, value] of map) {
    if (Array.from(key).length !== 1 || key === RANGE_MARK) throw new Error(`not a single code point: ${key}`);
    byValue.set(value, [...(byValue.get(value) ?? []), key.codePointAt(0)!]);
  }
  return [...byValue.keys()].sort().map((value) => {
    const cps = byValue.get(value)!.sort((a, b) => a - b);
    let keys = '';
    for (let i = 0; i < cps.length; ) {
      let j = i;
      while (j + 1 < cps.length && cps[j + 1] === cps[j]! + 1) j += 1;
      keys += j - i >= 2 ? String.fromCodePoint(cps[i]!) + RANGE_MARK + String.fromCodePoint(cps[j]!) : String.fromCodePoint(...cps.slice(i, j + 1));
      i = j + 1;
    }
    return `${value}\t${keys}`;
  });
}

function pairs(map: ReadonlyMap<string, string>): string[] {
  return [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => `${k}\t${v}`);
}

/** One line of a template literal: marks, invisible characters and the literal's own syntax escaped. */
function templateLine(line: string): string {
  let out = '';
  for (const ch of line) {
    if (ch === '`' || ch === '\\' || ch === '$') out += `\\${ch}`;
    else if (ch === '\t') out += ch;
    else if (/[\p{M}\p{C}\p{Z}]/u.test(ch) && ch !== ' ') out += `\\u{${ch.codePointAt(0)!.toString(16).toUpperCase()}}`;
    else out += ch;
  }
  return out;
}

/** The generated module: one template literal per script, so that one import brings every table. */
function writeModule(file: string, scripts: readonly { constant: string; description: string; tables: Readonly<Record<string, readonly string[]>> }[]): void {
  const parts = [
    '/**',
    ` * GENERATED by tools/transliteration/generateScriptTables.ts from ICU (uconv, ${icuVersion()}); do not edit.`,
    ' * ICU\'s Any-Latin for Han, kana, Hangul, Arabic and Hebrew as tables, and the scripts it leaves alone,',
    ' * decoded by scriptConverters.ts on first use of each script. Format: a `#name` line starts each table;',
    ' * entries are key<TAB>value, or in per-character tables value<TAB>characters, a~b being a range.',
    ' */',
  ];
  for (const { constant, description, tables } of scripts) {
    const lines: string[] = [];
    for (const [name, entries] of Object.entries(tables)) {
      lines.push(`#${name}`);
      for (const entry of entries) {
        if (entry.includes('\n') || entry.startsWith('#') || entry.split('\t').length !== 2) throw new Error(`${constant}: bad entry ${JSON.stringify(entry)}`);
        lines.push(templateLine(entry));
      }
    }
    parts.push('', `/** ${description} */`, `export const ${constant} = \`${lines.join('\n')}\`;`);
  }
  const source = `${parts.join('\n')}\n`;
  writeFileSync(join(tablesDir, file), source);
  console.log(`wrote ${file}: ${Buffer.byteLength(source)} bytes`);
}

function icuVersion(): string {
  return spawnSync('uconv', ['--version'], { encoding: 'utf8' }).stdout.trim().replace(/^uconv v[\d.]+\s+/, '');
}

// ---------------------------------------------------------------------------------------------------
// Han

const HAN_SCRIPT_RANGES: readonly (readonly [number, number])[] = [
  [0x2e80, 0x2eff], [0x2f00, 0x2fdf], [0x3005, 0x3007], [0x3021, 0x3029], [0x3038, 0x303b], [0x3400, 0x4dbf],
  [0x4e00, 0x9fff], [0xf900, 0xfaff], [0x16fe2, 0x16fe3], [0x16ff0, 0x16ff1], [0x20000, 0x2a6df],
  [0x2a700, 0x2ebef], [0x2f800, 0x2fa1f], [0x30000, 0x323af],
];
/** Common characters ICU's Han-Spacedhan folds (NFKC) inside a Han run: enclosed and squared ideographs. */
const HAN_FOLDED_COMMON_RANGES: readonly (readonly [number, number])[] = [
  [0x3192, 0x319f], [0x3220, 0x3247], [0x3280, 0x32b0], [0x32c0, 0x32cb], [0x3358, 0x3370], [0x337b, 0x337f],
  [0x33e0, 0x33fe], [0x1f210, 0x1f212], [0x1f214, 0x1f23a], [0x1f240, 0x1f248], [0x1f250, 0x1f251],
];
/**
 * Pairs whose first character ICU's Han-Latin may read differently from the character alone (the rest
 * of its rules are one reading per character). They were located in ICU's Han-Latin data and are
 * checked with uconv below (沈阳 turns out to give 沈 its usual reading); random pairs in the check
 * find no others.
 */
const HAN_PAIR_CANDIDATES = ['藏文', '重庆', '沈阳', '秘鲁'];

function hanTables(): Record<string, string[]> {
  // Radicals, compatibility and enclosed ideographs are folded (NFKC) by the converter, as by ICU's
  // Han-Spacedhan, so only characters NFKC leaves alone need a reading here.
  const own = codePoints(...HAN_SCRIPT_RANGES).filter((ch) => /\p{Script=Han}/u.test(ch) && ch.normalize('NFKC') === ch);
  const readings = new Map<string, string>();
  anyLatin(own).forEach((out, i) => {
    if (out !== own[i]) readings.set(own[i]!, out);
  });
  const special = new Map<string, string>();
  const together = anyLatin(HAN_PAIR_CANDIDATES);
  HAN_PAIR_CANDIDATES.forEach((pair, i) => {
    const [first, second] = Array.from(pair) as [string, string];
    const reading = together[i]!.split(' ')[0]!;
    if (together[i] !== `${reading} ${readings.get(second)}`) throw new Error(`unexpected ICU output for ${pair}: ${together[i]}`);
    // ICU's rule for 沈阳 gives 沈 the reading it has alone anyway; only real differences are kept.
    if (reading !== readings.get(first)) special.set(pair, reading);
  });
  console.log(`Han: ${own.length} characters, ${readings.size} with a reading, ${special.size} pairs`);
  return { readings: groups(readings), pairs: pairs(special) };
}

// ---------------------------------------------------------------------------------------------------
// Kana

const VOICING_MARKS = ['\u3099', '\u309A'];
/** Common characters in Katakana-Latin's filter that a katakana run may hold. */
const KATAKANA_COMMON = [...codePoints([0x20, 0x7e]).filter((ch) => !/\p{L}/u.test(ch)), '、', '。', '゛', '゜', '゠', 'ー'];

/** The katakana tokens the converter reads, longest first, and what ICU writes for each. */
function kanaTables(): Record<string, string[]> {
  const singles = outputsInRun([...KATAKANA_LETTERS, ...VOICING_MARKS, ...KATAKANA_COMMON], 'ア');
  const tokens = new Map<string, string>(singles);
  const emulate = (text: string) => {
    const chars = Array.from(text);
    let out = '';
    for (let i = 0; i < chars.length; ) {
      let length = Math.min(3, chars.length - i);
      for (; length > 1 && !tokens.has(chars.slice(i, i + length).join('')); length -= 1);
      const token = chars.slice(i, i + length).join('');
      out += tokens.get(token) ?? token;
      i += length;
    }
    return out.normalize('NFC');
  };
  // Letter + mark, letter + small kana, then letter + mark + small kana: kept where ICU does not write
  // them piece by piece. ッ and ン are left to the context tables.
  const letters = KATAKANA_LETTERS.filter((ch) => ch !== 'ッ' && ch !== 'ン');
  for (const candidates of [
    [...letters, ...KATAKANA_COMMON].flatMap((l) => [...VOICING_MARKS, ...SMALL_KANA].map((m) => l + m)),
    letters.flatMap((l) => VOICING_MARKS.flatMap((m) => SMALL_KANA.map((s) => l + m + s))),
  ]) {
    const outs = anyLatin(candidates);
    candidates.forEach((token, i) => {
      if (outs[i]!.normalize('NFC') !== emulate(token)) tokens.set(token, nfd(outs[i]!));
    });
  }
  tokens.delete('ー'); // always a macron; the converter writes it itself
  for (const [token, written] of tokens) if (written === token) tokens.delete(token);

  // The last token of a run when the next run (the other kana script) starts with a character that
  // completes it. ICU writes the token's consonant and a "~", which the next run takes back and reads
  // with its first character (~ャ → ya): so き + ャ gives "kya" where キ + ゃ gives "ki~ya".
  const beforeNextRun = new Map<string, string>();
  const toKatakana = (text: string) => Array.from(text, (ch) => (/[\u3041-\u3094\u309D]/u.test(ch) ? String.fromCodePoint(ch.codePointAt(0)! + 0x60) : ch)).join('');
  const lastTokens = [
    ...HIRAGANA_LETTERS.flatMap((l) => [l, `${l}\u3099`]),
    ...KATAKANA_LETTERS.flatMap((l) => [l, ...VOICING_MARKS.map((m) => l + m)]),
  ].filter((t) => !/^[ッっンんー]/u.test(t));
  const nextRunStarts = (token: string) => (/\p{Script=Hiragana}/u.test(token) ? [...KATAKANA_LETTERS, ...SMALL_KANA] : [...HIRAGANA_LETTERS]);
  const crossing = lastTokens.flatMap((token) => nextRunStarts(token).map((next) => [token, next] as const));
  const crossed = anyLatin(crossing.map(([token, next]) => token + next));
  const tildeAndNext = new Map<string, string>();
  const nextAlone = new Map<string, string>();
  const nexts = [...new Set(crossing.map(([, next]) => next))];
  anyLatin(nexts.map((next) => `~${next}`)).forEach((out, i) => tildeAndNext.set(nexts[i]!, out));
  anyLatin(nexts).forEach((out, i) => nextAlone.set(nexts[i]!, out));
  const tokenAlone = new Map<string, string>();
  const lastTokenList = [...new Set(crossing.map(([token]) => token))];
  anyLatin(lastTokenList).forEach((out, i) => tokenAlone.set(lastTokenList[i]!, out));
  crossing.forEach(([token, next], i) => {
    const out = crossed[i]!;
    if (out.normalize('NFC') === (tokenAlone.get(token)! + nextAlone.get(next)!).normalize('NFC')) return;
    const handedOver = tildeAndNext.get(next)!;
    if (!out.endsWith(handedOver)) throw new Error(`${token}${next}: ${out} does not end with ${handedOver}`);
    beforeNextRun.set(toKatakana(token) + next, `${nfd(out.slice(0, out.length - handedOver.length))}~`);
  });

  // Small tsu before each next character (letter, or letter + voicing mark, katakana or hiragana).
  // ICU's small-tsu rules take the spacing voicing marks ゛ ゜ as well as the combining ones.
  const nextChars = [...KATAKANA_LETTERS, ...HIRAGANA_LETTERS].flatMap((l) => [l, ...[...VOICING_MARKS, '゛', '゜'].map((m) => l + m)]);
  const alone = anyLatin(nextChars);
  const gemination = new Map<string, string>();
  const geminated = anyLatin(nextChars.map((next) => `ッ${next}`));
  const tsu = anyLatin(['ッ'])[0]!;
  nextChars.forEach((next, i) => {
    if (!geminated[i]!.endsWith(alone[i]!)) throw new Error(`ッ${next}: ${geminated[i]} does not end with ${alone[i]}`);
    const written = geminated[i]!.slice(0, geminated[i]!.length - alone[i]!.length);
    const base = Array.from(next)[0]!;
    const baseWritten = next === base ? tsu : (gemination.get(base) ?? tsu);
    if (next === base ? written !== tsu : written !== baseWritten) gemination.set(next, written);
  });
  tokens.set('ッ', tsu);

  // ン before each next character: n' or n.
  const apostrophe = new Set<string>();
  const quoted = anyLatin(nextChars.map((next) => `ン${next}`));
  nextChars.forEach((next, i) => {
    if (quoted[i]!.startsWith("n'")) apostrophe.add(Array.from(next)[0]!);
    else if (!quoted[i]!.startsWith('n')) throw new Error(`ン${next}: ${quoted[i]}`);
  });
  nextChars.forEach((next, i) => {
    if (apostrophe.has(Array.from(next)[0]!) !== quoted[i]!.startsWith("n'")) throw new Error(`ン${next} depends on its mark`);
  });

  // Iteration marks repeat the syllable written last, whichever script wrote it: try them after every
  // syllable (written in Latin, so that no kana rule gets in the way) that Katakana-Latin can write.
  const onsets = ['', ...'bcdfghjklmnpqrstvwxyz', 'sh', 'ch', 'ts', 'dj', 'dz', '~'];
  const syllables = onsets.flatMap((onset) => ['', 'y'].flatMap((y) => [...'aeiou'].map((v) => onset + y + v)));
  const iteration = new Map<string, string>();
  for (const mark of ['ヽ', 'ヾ']) {
    anyLatin(syllables.map((syllable) => syllable + mark)).forEach((out, i) => {
      const syllable = syllables[i]!;
      if (!out.startsWith(syllable)) throw new Error(`${syllable}${mark}: ${out}`);
      const repeated = nfd(out.slice(syllable.length));
      if (repeated !== syllable.at(-1)) iteration.set(syllable + mark, repeated);
    });
  }
  console.log(`kana: ${tokens.size} tokens, ${beforeNextRun.size} across runs, ${gemination.size} small-tsu contexts, ${apostrophe.size} apostrophe contexts, ${iteration.size} iterations`);
  return {
    tokens: pairs(tokens),
    beforeNextRun: pairs(beforeNextRun),
    gemination: pairs(gemination),
    apostropheBefore: pairs(new Map([...apostrophe].map((ch) => [ch, "n'"]))),
    iteration: pairs(iteration),
  };
}

// ---------------------------------------------------------------------------------------------------
// Hangul, Arabic, Hebrew

/**
 * A per-character table for characters the transform sees after its NFKD, and the pairs of them that
 * ICU writes differently from the two characters one after the other (pairs in canonical order only,
 * as NFKD leaves them).
 */
function letterTables(name: string, chars: readonly string[], carrier: string): Record<string, string[]> {
  const alphabet = [...new Set(chars.filter((ch) => nfkd(ch) === ch))];
  const letters = outputsInRun(alphabet, carrier);
  const changed = new Map([...letters].filter(([ch, out]) => out !== ch));
  const candidates = alphabet.flatMap((a) => alphabet.map((b) => a + b)).filter((pair) => nfd(carrier + pair) === carrier + pair);
  const carried = nfd(anyLatin([carrier])[0]!);
  const special = new Map<string, string>();
  anyLatin(candidates.map((pair) => carrier + pair)).forEach((out, i) => {
    const [a, b] = Array.from(candidates[i]!) as [string, string];
    const expected = (carried + letters.get(a)! + letters.get(b)!).normalize('NFC');
    if (out.normalize('NFC') === expected) return;
    const written = nfd(out);
    if (!written.startsWith(carried)) throw new Error(`${name} carrier changes with ${candidates[i]}`);
    special.set(candidates[i]!, written.slice(carried.length));
  });
  console.log(`${name}: ${alphabet.length} characters (${changed.size} changed), ${candidates.length} pairs tried, ${special.size} special`);
  return { letters: groups(changed), pairs: pairs(special) };
}

const HANGUL_CHARS = [...codePoints([0x1100, 0x11ff], [0xa960, 0xa97f], [0xd7b0, 0xd7ff]), "'"];
const ARABIC_CHARS = [
  ...codePoints([0x0600, 0x06ff], [0x0750, 0x077f], [0x0870, 0x08ff], [0x10e60, 0x10e7e], [0x1ee00, 0x1eeff]).filter(
    (ch) => /\p{Script=Arabic}/u.test(ch) || (ch.codePointAt(0)! >= 0x600 && ch.codePointAt(0)! <= 0x6ff),
  ),
  '\u200E', 'ⁿ',
];
const HEBREW_CHARS = [...codePoints([0x0591, 0x05f4], [0xfb1d, 0xfb4f]), '\u0304', 'ℵ', 'ℶ', 'ℷ', 'ℸ'];

// ---------------------------------------------------------------------------------------------------
// Scripts ICU leaves alone

/** Unicode script names (long forms) as JavaScript's \p{Script=…} knows them; unknown ones are skipped. */
const SCRIPT_NAMES = `Adlam Ahom Anatolian_Hieroglyphs Armenian Avestan Balinese Bamum Bassa_Vah Batak Bengali Beria_Erfe
  Bhaiksuki Bopomofo Brahmi Braille Buginese Buhid Canadian_Aboriginal Carian Caucasian_Albanian Chakma Cham Cherokee Chisoi
  Chorasmian Coptic Cuneiform Cypriot Cypro_Minoan Deseret Devanagari Dives_Akuru Dogra Duployan Egyptian_Hieroglyphs
  Elbasan Elymaic Ethiopic Garay Georgian Glagolitic Gothic Grantha Gujarati Gunjala_Gondi Gurmukhi Gurung_Khema
  Hanifi_Rohingya Hanunoo Hatran Imperial_Aramaic Inscriptional_Pahlavi Inscriptional_Parthian Javanese Kaithi Kannada
  Kawi Kayah_Li Kharoshthi Khitan_Small_Script Khmer Khojki Khudawadi Kirat_Rai Lao Lepcha Limbu Linear_A Linear_B Lisu
  Lycian Lydian Mahajani Makasar Malayalam Mandaic Manichaean Marchen Masaram_Gondi Medefaidrin Meetei_Mayek
  Mende_Kikakui Meroitic_Cursive Meroitic_Hieroglyphs Miao Modi Mongolian Mro Multani Myanmar Nabataean Nag_Mundari
  Nandinagari New_Tai_Lue Newa Nko Nushu Nyiakeng_Puachue_Hmong Ogham Ol_Chiki Ol_Onal Old_Hungarian Old_Italic
  Old_North_Arabian Old_Permic Old_Persian Old_Sogdian Old_South_Arabian Old_Turkic Old_Uyghur Oriya Osage Osmanya
  Pahawh_Hmong Palmyrene Pau_Cin_Hau Phags_Pa Phoenician Psalter_Pahlavi Rejang Runic Samaritan Saurashtra Sharada
  Shavian Siddham Sidetic SignWriting Sinhala Sogdian Sora_Sompeng Soyombo Sundanese Sunuwar Syloti_Nagri Syriac Tagalog
  Tagbanwa Tai_Le Tai_Tham Tai_Viet Tai_Yo Takri Tamil Tangsa Tangut Telugu Thaana Thai Tibetan Tifinagh Tirhuta Todhri
  Tolong_Siki Toto Tulu_Tigalari Ugaritic Vai Vithkuqi Wancho Warang_Citi Yezidi Yi Zanabazar_Square`.split(/\s+/u);

/**
 * The scripts (beyond those with tables) none of whose letters ICU's Any-Latin changes: ICU has no
 * transliterator for them, so their text must pass through unchanged, not through any-ascii.
 */
function untouchedScripts(): string[] {
  const patterns = SCRIPT_NAMES.flatMap((name) => {
    try {
      return [[name, new RegExp(`\\p{Script=${name}}`, 'u')] as const];
    } catch {
      return [];
    }
  });
  const letters = new Map<string, string[]>();
  for (let cp = 0x80; cp <= 0x10ffff; cp += 1) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const ch = String.fromCodePoint(cp);
    if (!/\p{L}/u.test(ch)) continue;
    const script = patterns.find(([, pattern]) => pattern.test(ch))?.[0];
    if (script !== undefined) letters.set(script, [...(letters.get(script) ?? []), ch]);
  }
  const untouched: string[] = [];
  for (const [script, chars] of letters) {
    const assigned = assignedInIcu(chars);
    if (assigned.length === 0) continue; // too new for ICU's Unicode: nothing to compare
    const inputs = assigned.map((ch) => nfd(ch).toLowerCase());
    const outputs = anyLatin(assigned);
    if (outputs.every((out, i) => out === inputs[i])) untouched.push(script);
  }
  console.log(`scripts ICU leaves alone: ${untouched.length} (${untouched.join(' ')})`);
  return untouched.sort();
}

// ---------------------------------------------------------------------------------------------------
// Samples for the check and the fixture

/** The fixture's samples: the word lists, a sample of every script's characters, kana contexts, mixes. */
function fixtureSamples(): { script: string; text: string }[] {
  const rand = random(20250101);
  const samples: { script: string; text: string }[] = [];
  for (const [script, words] of Object.entries(WORDS)) for (const text of words) samples.push({ script, text });
  const han = assignedInIcu(codePoints(...HAN_SCRIPT_RANGES)).filter((ch) => /\p{Script=Han}/u.test(ch) && nfd(ch) === ch);
  for (let i = 0; i < han.length; i += 97) samples.push({ script: 'han', text: han[i]! });
  for (const ch of [...KATAKANA_LETTERS, ...HIRAGANA_LETTERS]) samples.push({ script: /\p{Script=Hiragana}/u.test(ch) ? 'hiragana' : 'katakana', text: ch });
  for (const next of [...KATAKANA_LETTERS.slice(0, 90)]) samples.push({ script: 'katakana', text: `ッ${next}` }, { script: 'katakana', text: `ン${next}` });
  for (const letter of ['キ', 'シ', 'チ', 'ニ', 'ヒ', 'ミ', 'リ', 'ギ', 'ジ', 'ビ', 'ピ', 'フ', 'テ', 'デ', 'ウ']) {
    for (const small of SMALL_KANA) samples.push({ script: 'katakana', text: nfd(letter) + small });
    samples.push({ script: 'katakana', text: `${letter}ー` }, { script: 'katakana', text: `${letter}ヽ` }, { script: 'katakana', text: `${letter}ヾ` });
  }
  for (let i = 0; i < 400; i += 1) samples.push({ script: 'hangul', text: pick(rand, alphabets().hangul!) + pick(rand, alphabets().hangul!) });
  for (const ch of assignedInIcu(ARABIC_CHARS)) samples.push({ script: 'arabic', text: /\p{Script=Arabic}/u.test(ch) && !/\p{M}/u.test(ch) ? ch : `ب${ch}` });
  for (const ch of HEBREW_CHARS) samples.push({ script: 'hebrew', text: /\p{M}/u.test(ch) ? `ב${ch}` : ch });
  for (let i = 0; i < 600; i += 1) samples.push({ script: 'mixed', text: mixedTitle(rand) });
  for (const text of randomSamples(7, 900)) samples.push({ script: 'random', text });
  const seen = new Set<string>();
  return samples.filter(({ text }) => !seen.has(text) && seen.add(text));
}

// ---------------------------------------------------------------------------------------------------
// Check

async function compareWithIcu(label: string, texts: readonly string[]): Promise<number> {
  const { normaliseForWorkKey } = (await import(pathToFileURL(join(repoRoot, 'src', 'work-keys', 'workKeys.ts')).href)) as {
    normaliseForWorkKey: (s: string) => string;
  };
  const expected = icuWorkKeys(texts);
  let agree = 0;
  const disagreements: string[] = [];
  texts.forEach((text, i) => {
    const ours = normaliseForWorkKey(text);
    if (ours === expected[i]) agree += 1;
    else if (disagreements.length < 15) disagreements.push(`  ${JSON.stringify(text)}: ICU ${JSON.stringify(expected[i])}, ours ${JSON.stringify(ours)}`);
  });
  console.log(`${label}: ${agree}/${texts.length} agree`);
  for (const line of disagreements) console.log(line);
  return texts.length - agree;
}

async function check(): Promise<void> {
  const kana = [...KATAKANA_LETTERS, ...HIRAGANA_LETTERS, 'ー', 'ヽ', 'ヾ', 'ゝ', 'ゞ', '\u3099', '\u309A', 'ｶ', 'ﾞ', 'ｰ', '・', ' '];
  await compareWithIcu('kana pairs', kana.flatMap((a) => kana.map((b) => a + b)));
  const rand = random(99);
  const triples = Array.from({ length: 30_000 }, () => pick(rand, kana) + pick(rand, kana) + pick(rand, kana));
  await compareWithIcu('kana triples', triples);
  const hanChars = codePoints(...HAN_SCRIPT_RANGES, ...HAN_FOLDED_COMMON_RANGES);
  const assignedHan = assignedInIcu(hanChars);
  console.log(`(${hanChars.length - assignedHan.length} Han characters are assigned to Node's Unicode but not to ICU's: left out)`);
  await compareWithIcu('Han characters', assignedHan);
  await compareWithIcu('Han pairs (random)', Array.from({ length: 50_000 }, () => pick(rand, alphabets().han!) + pick(rand, alphabets().han!)));
  await compareWithIcu('Hangul characters', assignedInIcu(codePoints([0x1100, 0x11ff], [0x3130, 0x318f], [0x3200, 0x327f], [0xa960, 0xa97f], [0xac00, 0xd7ff], [0xffa0, 0xffdf])));
  await compareWithIcu('Arabic characters', assignedInIcu([...ARABIC_CHARS, ...codePoints([0xfb50, 0xfdff], [0xfe70, 0xfeff])]));
  await compareWithIcu('Hebrew characters', assignedInIcu(codePoints([0x0591, 0x05f4], [0xfb1d, 0xfb4f])));
  await compareWithIcu('random samples', randomSamples(12345, 50_000));
}

// ---------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  if (!uconvAvailable()) throw new Error('uconv (ICU, Debian package icu-devtools) is not on the PATH');
  if (!process.argv.includes('--check')) {
    writeModule('icuLatin.generated.ts', [
      { constant: 'HAN_LATIN', description: 'Han-Latin: the reading of each character, and the pairs ICU reads differently.', tables: hanTables() },
      { constant: 'KANA_LATIN', description: 'Katakana-Latin: tokens, tokens completed by the next run, small tsu and ン contexts, iteration marks.', tables: kanaTables() },
      { constant: 'HANGUL_LATIN', description: 'Hangul-Latin: each conjoining jamo (after NFKD).', tables: letterTables('Hangul', HANGUL_CHARS, '가') },
      { constant: 'ARABIC_LATIN', description: 'Arabic-Latin: each character (after NFKD), and the pairs ICU writes as one.', tables: letterTables('Arabic', ARABIC_CHARS, 'ب') },
      { constant: 'HEBREW_LATIN', description: 'Hebrew-Latin: each character (after NFKD).', tables: letterTables('Hebrew', HEBREW_CHARS, 'ב') },
      {
        constant: 'UNTOUCHED_SCRIPTS',
        description: 'Scripts none of whose letters Any-Latin changes (ICU has no transliterator for them).',
        tables: { scripts: untouchedScripts().map((script) => `${script}\tuntouched`) },
      },
    ]);
  }
  await check();
  if (!process.argv.includes('--check')) {
    const samples = fixtureSamples();
    const keys = icuWorkKeys(samples.map((s) => s.text));
    const fixture = {
      description: `Work keys ICU gives these texts (uconv ${icuVersion()}, rules ${VUFIND_WORK_KEY_RULES} then lower case); generated by tools/transliteration/generateScriptTables.ts.`,
      samples: samples.map((s, i) => ({ script: s.script, text: s.text, key: keys[i] })),
    };
    writeFileSync(fixturePath, `${JSON.stringify(fixture, null, 0).replace(/\},\{/g, '},\n{')}\n`);
    console.log(`wrote ${fixturePath}: ${samples.length} samples`);
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
