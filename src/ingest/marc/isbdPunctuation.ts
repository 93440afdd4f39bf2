/**
 * The punctuation ISBD puts after a title, name or date for the element that follows it (`Le concerto /`,
 * `Baldazzi, Gianfranco.`, `Lisboa :`), trimmed off the values the MARC mappings store
 * (vufindMarcMapping.ts, ../localMapping.ts). Work keys are made from the untrimmed text.
 */

/** Abbreviations whose period stays (VuFind's untrimmed list, and a few more for titles and firms). */
const KEPT_ABBREVIATIONS = new Set(['col', 'mr', 'mrs', 'ms', 'etc', 'jr', 'sr', 'inc', 'ltd', 'co', 'corp', 'bros']);

/**
 * A title, name or date without the punctuation cataloguing puts after it for the next element:
 * - trailing spaces (Unicode's, as `\s` reads them) and ` / : ; , =`, and a dangling `(` or `[`;
 * - a closing `. -` or `. -.`;
 * - a final period, except after an initial (`Tolkien, J. R. R.`), an ellipsis (`...`) or a kept
 *   abbreviation (`Mrs.`, `etc.`, `Inc.` …);
 * - a closing `)` or `]` whose opening one is not in the string.
 * Repeated until nothing changes (`Foo. /` → `Foo`). The rules move an end mark over the value and cut
 * it once, rather than making a string for each rule and round.
 */
export function trimTrailingIsbdPunctuation(value: string): string {
  // Every rule below ends on a separator, a space, a period, a dash or a bracket: a value ending on an
  // ASCII letter or digit, or on a letter of the Latin, Greek or Cyrillic blocks (no space among them),
  // is already as trimmed, and most values end so.
  if (endsOnLetterOrDigit(value)) return value;
  let end = value.length;
  for (;;) {
    const before = end;
    while (end > 0 && isTrailingSeparator(value.charCodeAt(end - 1))) end--;
    // `. -` or `. -.` at the end.
    if (end >= 3 && value.charCodeAt(end - 1) === 0x2e && value.charCodeAt(end - 2) === 0x2d && value.charCodeAt(end - 3) === 0x20 && end >= 4 && value.charCodeAt(end - 4) === 0x2e) end -= 4;
    else if (end >= 3 && value.charCodeAt(end - 1) === 0x2d && value.charCodeAt(end - 2) === 0x20 && value.charCodeAt(end - 3) === 0x2e) end -= 3;
    if (end > 0 && value.charCodeAt(end - 1) === 0x2e && !keepsFinalPeriod(value, end)) end--;
    if (end > 0 && value.charCodeAt(end - 1) === 0x29 && !opensBefore(value, 0x28, end)) end--;
    if (end > 0 && value.charCodeAt(end - 1) === 0x5d && !opensBefore(value, 0x5b, end)) end--;
    if (end === before) return end === value.length ? value : value.slice(0, end);
  }
}

/** Whether `value[0, end)` holds the character `code`. */
function opensBefore(value: string, code: number, end: number): boolean {
  for (let i = 0; i < end; i++) if (value.charCodeAt(i) === code) return true;
  return false;
}

/** A character of `[\s/:;,=(\[]` (with the u flag: JavaScript's white space and line terminators). */
function isTrailingSeparator(code: number): boolean {
  switch (code) {
    case 0x2f: case 0x3a: case 0x3b: case 0x2c: case 0x3d: case 0x28: case 0x5b:
    case 0x09: case 0x0a: case 0x0b: case 0x0c: case 0x0d: case 0x20: case 0xa0:
    case 0x1680: case 0x2028: case 0x2029: case 0x202f: case 0x205f: case 0x3000: case 0xfeff:
      return true;
    default:
      return code >= 0x2000 && code <= 0x200a;
  }
}

function endsOnLetterOrDigit(value: string): boolean {
  const last = value.charCodeAt(value.length - 1);
  if (last >= 0x30 && last <= 0x39) return true;
  const folded = last | 0x20;
  if (folded >= 0x61 && folded <= 0x7a) return true;
  // U+00C0 to U+052F: Latin-1's letters (and × ÷) to the end of Cyrillic; none is a space or a separator.
  return last >= 0xc0 && last <= 0x52f;
}

/** Whether the period at `value[end - 1]` stays: after a period, an initial or a kept abbreviation. */
function keepsFinalPeriod(value: string, end: number): boolean {
  const period = end - 1;
  if (period > 0 && value.charCodeAt(period - 1) === 0x2e) return true;
  // The last word before the period: ASCII letters up to a character that is neither a letter nor past
  // ASCII read here; otherwise the Unicode rule on the text before the period.
  let start = period;
  while (start > 0 && isAsciiLetter(value.charCodeAt(start - 1))) start--;
  let lastWord: string | undefined;
  if (start === 0 || value.charCodeAt(start - 1) < 0x80) lastWord = start < period ? value.slice(start, period) : undefined;
  else lastWord = /(\p{L}+)$/u.exec(value.slice(0, period))?.[1];
  if (lastWord === undefined) return false;
  // A one-letter word is an initial.
  return Array.from(lastWord).length === 1 || KEPT_ABBREVIATIONS.has(lastWord.toLowerCase());
}

function isAsciiLetter(code: number): boolean {
  const folded = code | 0x20;
  return folded >= 0x61 && folded <= 0x7a;
}
