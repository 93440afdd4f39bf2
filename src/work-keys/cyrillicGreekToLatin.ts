/**
 * Cyrillic and Greek to Latin for transliterateToLatin.ts, exactly as ICU's `Any-Latin` writes them: CLDR's
 * Cyrillic-Latin rules (ISO 9 based) and Greek-Latin rules, forward direction, with the Greek context
 * rules (γ before γ/κ/ξ/χ, υ after a vowel, breathings, iota subscript, capitals before lower case, σ/ς)
 * and the combining marks CLDR's input filters let in.
 *
 * Left to others: splitting text into script runs and running a converter over each
 * (transliterateToLatin.ts).
 */
import { isMark } from './scriptTables/scriptConverters.js';

const ACUTE = '\u0301';
const GRAVE = '\u0300';
const CIRCUMFLEX = '\u0302';
const MACRON = '\u0304';
const BREVE = '\u0306';
const DOT_ABOVE = '\u0307';
const DIAERESIS = '\u0308';
const CARON = '\u030C';
const COMMA_BELOW = '\u0326';
const MACRON_BELOW = '\u0331';
const SMOOTH_BREATHING = '\u0313';
const ROUGH_BREATHING = '\u0314';
const PERISPOMENI = '\u0342';
const YPOGEGRAMMENI = '\u0345';

/**
 * CLDR Cyrillic-Latin, forward direction, keyed by NFD text. Letters with a canonical decomposition that
 * CLDR does not list (ё, ї, ў, ѓ, ќ, ѝ …) are covered by their base letter plus the combining mark, which
 * passes through: ё → e + ̈ = ë, precomposed ѓ → g + ́ = ǵ (see CYRILLIC_FILTER_MARKS for marks that
 * arrive on their own). Only й/Й needs a two-code-point key, because CLDR maps it to j, not i + breve.
 */
const CYRILLIC_TO_LATIN: ReadonlyMap<string, string> = new Map([
  ['а', 'a'], ['А', 'A'], ['б', 'b'], ['Б', 'B'], ['в', 'v'], ['В', 'V'],
  ['г', 'g'], ['Г', 'G'], ['ґ', `g${GRAVE}`], ['Ґ', `G${GRAVE}`],
  ['ғ', `g${DOT_ABOVE}`], ['Ғ', `G${DOT_ABOVE}`], ['ҕ', `g${BREVE}`], ['Ҕ', `G${BREVE}`],
  ['д', 'd'], ['Д', 'D'], ['ђ', 'đ'], ['Ђ', 'Đ'],
  ['е', 'e'], ['Е', 'E'], ['є', `e${CIRCUMFLEX}`], ['Є', `E${CIRCUMFLEX}`], ['э', `e${ACUTE}`], ['Э', `E${ACUTE}`],
  ['ж', `z${CARON}`], ['Ж', `Z${CARON}`], ['з', 'z'], ['З', 'Z'], ['ҙ', `z${COMMA_BELOW}`], ['Ҙ', `Z${COMMA_BELOW}`],
  ['ѕ', `z${CIRCUMFLEX}`], ['Ѕ', `Z${CIRCUMFLEX}`],
  ['и', 'i'], ['И', 'I'], [`и${BREVE}`, 'j'], [`И${BREVE}`, 'J'], ['і', `i${ACUTE}`], ['І', `I${ACUTE}`],
  ['ј', `j${CARON}`], ['Ј', `J${CARON}`],
  ['к', 'k'], ['К', 'K'], ['қ', 'k\u02CC'], ['Қ', 'K\u02CC'],
  ['л', 'l'], ['Л', 'L'], ['љ', `l${CIRCUMFLEX}`], ['Љ', `L${CIRCUMFLEX}`],
  ['м', 'm'], ['М', 'M'], ['н', 'n'], ['Н', 'N'], ['њ', `n${CIRCUMFLEX}`], ['Њ', `N${CIRCUMFLEX}`],
  ['о', 'o'], ['О', 'O'], ['п', 'p'], ['П', 'P'], ['р', 'r'], ['Р', 'R'], ['с', 's'], ['С', 'S'],
  ['т', 't'], ['Т', 'T'], ['ћ', `c${ACUTE}`], ['Ћ', `C${ACUTE}`],
  ['у', 'u'], ['У', 'U'], ['ф', 'f'], ['Ф', 'F'], ['х', 'h'], ['Х', 'H'],
  ['ц', 'c'], ['Ц', 'C'], ['ч', `c${CARON}`], ['Ч', `C${CARON}`], ['џ', `d${CIRCUMFLEX}`], ['Џ', `D${CIRCUMFLEX}`],
  ['ш', `s${CARON}`], ['Ш', `S${CARON}`], ['щ', `s${CIRCUMFLEX}`], ['Щ', `S${CIRCUMFLEX}`],
  // The signs become modifier letters (ʺ U+02BA, ʹ U+02B9); they are letters (Lm), so work keys keep them.
  ['ъ', '\u02BA'], ['Ъ', `\u02BA${MACRON_BELOW}`], ['ь', '\u02B9'], ['Ь', `\u02B9${MACRON_BELOW}`],
  ['ы', 'y'], ['Ы', 'Y'],
  ['ю', `u${CIRCUMFLEX}`], ['Ю', `U${CIRCUMFLEX}`], ['я', `a${CIRCUMFLEX}`], ['Я', `A${CIRCUMFLEX}`],
  ['ә', 'ə'], ['Ә', 'Ə'], ['ӕ', 'æ'], ['Ӕ', 'Æ'],
]);

/** CLDR Greek-Latin for the letters whose mapping needs no context (context rules are in greekToLatin). */
const GREEK_TO_LATIN: ReadonlyMap<string, string> = new Map([
  ['α', 'a'], ['Α', 'A'], ['β', 'b'], ['Β', 'B'], ['γ', 'g'], ['Γ', 'G'], ['δ', 'd'], ['Δ', 'D'],
  ['ε', 'e'], ['Ε', 'E'], ['ζ', 'z'], ['Ζ', 'Z'], ['η', `e${MACRON}`], ['Η', `E${MACRON}`], ['θ', 'th'],
  ['ι', 'i'], ['Ι', 'I'], ['κ', 'k'], ['Κ', 'K'], ['λ', 'l'], ['Λ', 'L'], ['μ', 'm'], ['Μ', 'M'],
  ['ν', 'n'], ['Ν', 'N'], ['ξ', 'x'], ['Ξ', 'X'], ['ο', 'o'], ['Ο', 'O'], ['π', 'p'], ['Π', 'P'],
  ['ρ', 'r'], ['Ρ', 'R'], ['Σ', 'S'], ['τ', 't'], ['Τ', 'T'], ['φ', 'ph'], ['χ', 'ch'], ['ψ', 'ps'],
  ['ω', `o${MACRON}`], ['Ω', `O${MACRON}`], ['ϳ', 'j'], ['ͺ', 'i'],
  ['ϸ', 'š'], ['Ϸ', 'Š'], ['ϻ', 'ŝ'], ['Ϻ', 'Ŝ'],
  // ICU's Greek rules turn the Greek question mark and ano teleia (";" and "·" once decomposed) into Latin.
  [';', '?'], ['\u00B7', ':'], [PERISPOMENI, CIRCUMFLEX],
]);

/** Capitals written as two Latin letters: title case before a lower-case letter (Θεός → Theós), else all caps. */
const GREEK_DIGRAPH_CAPITALS: ReadonlyMap<string, string> = new Map([
  ['Θ', 'Th'], ['Φ', 'Ph'], ['Χ', 'Ch'], ['Ψ', 'Ps'],
]);

/** Letter-like symbols CLDR first rewrites to the ordinary letter, which the rules then transliterate. */
const GREEK_VARIANTS: ReadonlyMap<string, string> = new Map([
  ['ϐ', 'β'], ['ϑ', 'θ'], ['ϒ', 'Υ'], ['ϕ', 'φ'], ['ϖ', 'π'], ['ϰ', 'κ'], ['ϱ', 'ρ'], ['ϲ', 'σ'],
  ['Ϲ', 'Σ'], ['ϴ', 'Θ'], ['ϵ', 'ε'], ['µ', 'μ'],
]);

/** How many UTF-16 units of text either side of a Greek run its rules may look at: plenty for their contexts. */
const CONTEXT_LENGTH = 16;
const LOWER_GREEK_VOWELS = new Set('αεηιουω');
const GREEK_VOWELS = new Set('αεηιουωΑΕΗΙΟΥΩ');
/** υ after one of these (already transliterated) is the second half of a diphthong: u, not y. */
const VOWELS_BEFORE_U = new Set('aeiouyAEIOUYαεηιουωΑΕΗΙΟΥΩ');
const GAMMA_LIKE = new Set('ΓΚΞΧγκξχϰ');
const SIGMAS = new Set('ςσΣϷϸϺϻ');
/** What may sit between a capital vowel and its rough breathing: α/Α takes a macron, ι/ω a diaeresis. */
const BREATHING_CARRIER: Readonly<Record<string, string>> = { Α: MACRON, Ι: DIAERESIS, Ω: DIAERESIS };

const isLetter = (ch: string | undefined) => ch !== undefined && /\p{L}/u.test(ch);
const isUpper = (ch: string | undefined) => ch !== undefined && /\p{Lu}/u.test(ch);
// CLDR's $upper and $lower: only Latin and Greek letters count, so Θ before Cyrillic lower case is TH.
const isLatinOrGreekUpper = (ch: string | undefined) => ch !== undefined && /(?=[\p{Script=Latin}\p{Script=Greek}])\p{Lu}/u.test(ch);
const isLatinOrGreekLower = (ch: string | undefined) => ch !== undefined && /(?=[\p{Script=Latin}\p{Script=Greek}])\p{Ll}/u.test(ch);
const isGreekLower = (ch: string | undefined) => ch !== undefined && /(?=\p{Script=Greek})\p{Ll}/u.test(ch);

/** Index of the first character at or after `from` that is not a mark (nor, when asked, an apostrophe). */
function skipMarks(chars: readonly string[], from: number, apostrophes = false): number {
  let i = from;
  while (isMark(chars[i]) || (apostrophes && chars[i] === "'")) i += 1;
  return i;
}

/** The last character of `out` before any trailing marks (and apostrophes, when asked). */
function lastLetterOf(out: readonly string[], apostrophes = false): string | undefined {
  let i = out.length - 1;
  while (i >= 0 && (isMark(out[i]) || (apostrophes && out[i] === "'"))) i -= 1;
  return out[i];
}

export function cyrillicToLatin(run: string): string {
  const chars = Array.from(run.normalize('NFD'));
  let result = '';
  for (let i = 0; i < chars.length; i += 1) {
    // Longest match first: й arrives as и + breve.
    const pair = chars[i + 1] === undefined ? undefined : CYRILLIC_TO_LATIN.get(chars[i]! + chars[i + 1]!);
    if (pair !== undefined) {
      result += pair;
      i += 1;
    } else {
      result += CYRILLIC_TO_LATIN.get(chars[i]!) ?? chars[i]!;
    }
  }
  return result.normalize('NFC');
}

/**
 * CLDR Greek-Latin, forward. ICU applies the first matching rule at the cursor, and some rules put text
 * back to be transliterated again (the `|` in CLDR): here `chars` is that pending input, `out` what has
 * been written. Contexts before the cursor are matched against `out`, as in ICU, which is why they test
 * Latin letters (υ after "a" is u; η gives "e" + macron, so υ after η is y: ηὔ → ēý, as ICU does).
 */
export function greekToLatin(run: string, before: string, after: string): string {
  const chars = Array.from(run.normalize('NFD'));
  // Rule contexts see past the run, as in ICU: the Latin already written before it (aυ → au) and the
  // text after it, untransliterated (Θx → Thx). Characters from `end` on are context only.
  let end = chars.length;
  chars.push(...Array.from(after.slice(0, CONTEXT_LENGTH)));
  const out = Array.from(before.slice(-CONTEXT_LENGTH));
  const contextLength = out.length;
  /** Write `written`, and put `again` back in place of `length` characters, to be transliterated next. */
  const rewrite = (at: number, length: number, written: string, again: readonly string[]) => {
    out.push(...written);
    chars.splice(at, length, ...again);
    end += again.length - length;
  };
  const beforeLower = (at: number) => isLatinOrGreekLower(chars[skipMarks(chars, at)]);

  let i = 0;
  while (i < end) {
    const c = chars[i]!;
    const next = chars[i + 1];

    // Iota subscript: a preceding alpha becomes long (ᾳ → āi), then the subscript is written as i.
    if (c === 'α' || c === 'Α') {
      let j = i + 1;
      while (isMark(chars[j]) && chars[j] !== YPOGEGRAMMENI && chars[j] !== MACRON) j += 1;
      if (chars[j] === YPOGEGRAMMENI) {
        chars.splice(i + 1, 0, MACRON);
        end += 1;
        continue;
      }
    }
    if (c === YPOGEGRAMMENI) {
      out.push(isLatinOrGreekUpper(lastLetterOf(out)) ? 'I' : 'i');
      i += 1;
      continue;
    }

    // Rough breathing on a vowel or diphthong becomes an h written before it.
    if (GREEK_VOWELS.has(c) && roughBreathing(c, i)) continue;
    if (c === SMOOTH_BREATHING) {
      i += 1;
      continue;
    }
    if (c === 'ρ' && next === ROUGH_BREATHING) {
      out.push('r', 'h');
      i += 2;
      continue;
    }
    if (c === 'Ρ' && next === ROUGH_BREATHING) {
      out.push(...(beforeLower(i + 2) ? 'Rh' : 'RH'));
      i += 2;
      continue;
    }
    if (c === ROUGH_BREATHING) {
      // Capital when a capital follows (marks and apostrophes aside) or directly precedes it.
      const nearCapital = isUpper(chars[skipMarks(chars, i + 1, true)]) || isUpper(out.at(-1));
      out.push(nearCapital ? 'H' : 'h');
      i += 1;
      continue;
    }

    const variant = GREEK_VARIANTS.get(c);
    if (variant !== undefined) {
      chars[i] = variant;
      continue;
    }
    const digraph = GREEK_DIGRAPH_CAPITALS.get(c);
    if (digraph !== undefined) {
      out.push(...(beforeLower(i + 1) ? digraph : digraph.toUpperCase()));
      i += 1;
      continue;
    }
    // Nasal gamma: γγ → ng, γκ → nk, γξ → nx, γχ → nch. ν before those gets an apostrophe (ἐνκ → en'k)
    // so that the Latin stays reversible.
    if ((c === 'γ' || c === 'Γ') && next !== undefined && GAMMA_LIKE.has(next)) {
      out.push(c === 'γ' ? 'n' : 'N');
      i += 1;
      continue;
    }
    if ((c === 'ν' || c === 'Ν') && next !== undefined && GAMMA_LIKE.has(next)) {
      out.push(c === 'ν' ? 'n' : 'N', "'");
      i += 1;
      continue;
    }
    if (SIGMAS.has(c) && (out.at(-1) === 'p' || out.at(-1) === 'P')) {
      // π + σ is kept apart from ψ: πσ → p's.
      out.push("'");
      continue;
    }
    if (c === 'σ' || c === 'ς') {
      out.push(...sigma(c, i));
      i += 1;
      continue;
    }
    if (c === 'υ' || c === 'Υ') {
      const diphthong = VOWELS_BEFORE_U.has(out.at(-1) ?? '');
      out.push(c === 'υ' ? (diphthong ? 'u' : 'y') : diphthong ? 'U' : 'Y');
      i += 1;
      continue;
    }
    out.push(...(GREEK_TO_LATIN.get(c) ?? c));
    i += 1;
  }
  return out.slice(contextLength).join('').normalize('NFC');

  /**
   * Applies CLDR's rough-breathing rules to the vowel at `at`, if one matches: writes H/h and puts the
   * vowels back (lower-cased after a written H when the word goes on in lower case: Ἑλλάς → Hellás).
   */
  function roughBreathing(vowel: string, at: number): boolean {
    const carrier = BREATHING_CARRIER[vowel];
    if (!LOWER_GREEK_VOWELS.has(vowel)) {
      // Capital vowel + breathing before lower case: Ὁ μῦθος → Ho.
      let j = at + 1;
      if (carrier !== undefined && chars[j] === carrier) j += 1;
      if (chars[j] === ROUGH_BREATHING && beforeLower(j + 1)) {
        rewrite(at, j + 1 - at, 'H', [vowel.toLowerCase(), ...chars.slice(at + 1, j)]);
        return true;
      }
      // Capital + lower-case vowel + breathing: Οἱ → Hoi, Αὑ → Hau.
      j = at + 2;
      if (isGreekLower(chars[at + 1])) {
        if (carrier !== undefined && chars[j] === carrier) j += 1;
        if (chars[j] === ROUGH_BREATHING) {
          rewrite(at, j + 1 - at, 'H', [vowel.toLowerCase(), ...chars.slice(at + 1, j)]);
          return true;
        }
      }
    }
    // A run of vowels (+ diaeresis or macron) + breathing: οἱ → hoi, ΟἹ → HOI, Ὁ alone → HO.
    for (const [set, written] of [[LOWER_GREEK_VOWELS, 'h'], [GREEK_VOWELS, 'H']] as const) {
      if (!set.has(vowel)) continue;
      let j = at;
      while (set.has(chars[j] ?? '')) j += 1;
      if (chars[j] === DIAERESIS || chars[j] === MACRON) j += 1;
      if (chars[j] === ROUGH_BREATHING) {
        rewrite(at, j + 1 - at, written, chars.slice(at, j));
        return true;
      }
    }
    return false;
  }

  /**
   * σ and ς both give s; the one written in the "wrong" place (ς inside a word or alone, σ at the end of
   * a word) gets a macron below, so that the Latin stays reversible.
   */
  function sigma(c: 'σ' | 'ς', at: number): string {
    const endsWord = !isLetter(chars[skipMarks(chars, at + 1, true)]) && isLetter(lastLetterOf(out, true));
    return c === (endsWord ? 'ς' : 'σ') ? 's' : `s${MACRON_BELOW}`;
  }
}

/**
 * The combining marks CLDR's Cyrillic-Latin and Greek-Latin filters let in. ICU leaves any other mark
 * that arrives as a separate character alone, and does not compose it with the Latin letter written
 * for the letter before it: on NFD input (as work keys give it), Ὀδύσσεια → "Ody" + U+0301 + "sseia" and
 * ѓ → "g" + U+0301, while the NFC forms give Odýsseia and ǵ (the acute there is part of the letter).
 */
export const CYRILLIC_FILTER_MARKS = new Set([BREVE, DIAERESIS]);
export const GREEK_FILTER_MARKS = new Set([MACRON, DIAERESIS, SMOOTH_BREATHING, ROUGH_BREATHING, PERISPOMENI, '\u0343', '\u0344', YPOGEGRAMMENI]);
