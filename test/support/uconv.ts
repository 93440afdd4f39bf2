/**
 * ICU's transforms run by `uconv` (ICU's command-line tool, Debian package icu-devtools), for the work-key
 * check against ICU (test/work-keys/icuScriptKeys.test.ts) and for generating the script tables
 * (tools/transliteration/generateScriptTables.ts).
 *
 * Two things about uconv matter here. It transliterates line by line, but it also ends a "line" at
 * every character c with (c & 0x2028) == 0x2028, which includes many kana and Han characters (カ, ー …),
 * so contexts across them are lost: every text is therefore sent as \uXXXX escapes, which ICU's Hex-Any
 * turns back into characters inside the transform. And the line's newline would be part of the text, so
 * it is removed inside the transform too, and a sentinel line separates the results instead. Each text
 * thus gets exactly the transform VuFind applies to a title (ICU4J's Transliterator.transliterate).
 *
 * Left to others: the texts to ask about (scriptSamples.ts); the keys being checked (src/work-keys/workKeys.ts).
 */
import { spawnSync } from 'node:child_process';

/** VuFind's work-key transform (WorkKeys.java's default rules); "Latin" there is Any-Latin. */
export const VUFIND_WORK_KEY_RULES = ':: NFD; :: lower; :: Latin; :: [^[:letter:] [:number:]] Remove; :: NFKC;';
export const ANY_LATIN_RULES = ':: Any-Latin;';

const SENTINEL = 'Zqxj75319';

export function uconvAvailable(): boolean {
  const probe = spawnSync('uconv', ['--version'], { encoding: 'utf8' });
  return probe.status === 0;
}

function escapeForHexAny(text: string): string {
  let escaped = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    escaped += cp > 0xffff ? `\\U${cp.toString(16).padStart(8, '0')}` : `\\u${cp.toString(16).padStart(4, '0')}`;
  }
  return escaped;
}

function uconv(input: string, rules: string): string {
  const result = spawnSync('uconv', ['-x', `:: Hex-Any; :: [\\n] Remove; ${rules}`], {
    input,
    maxBuffer: 1 << 30,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`uconv failed: ${result.stderr}`);
  return result.stdout;
}

const sentinelOutputs = new Map<string, string>();

/** ICU's result for each text, `rules` applied to the text exactly as given (no newline). */
export function runIcu(texts: readonly string[], rules: string): string[] {
  let marker = sentinelOutputs.get(rules);
  if (marker === undefined) {
    marker = uconv(`${escapeForHexAny(SENTINEL)}\n`, rules);
    sentinelOutputs.set(rules, marker);
  }
  const results: string[] = [];
  const batch = 20_000;
  for (let start = 0; start < texts.length; start += batch) {
    const part = texts.slice(start, start + batch);
    const input = part.map((text) => `${escapeForHexAny(text)}\n${escapeForHexAny(SENTINEL)}\n`).join('');
    const pieces = uconv(input, rules).split(marker);
    if (pieces.length !== part.length + 1 || pieces.at(-1) !== '') {
      throw new Error(`uconv output does not split into ${part.length} results (the sentinel occurs in a result?)`);
    }
    results.push(...pieces.slice(0, -1));
  }
  return results;
}

/** The work key ICU (VuFind) gives each text: its transform, then lower case and 255 code points. */
export function icuWorkKeys(texts: readonly string[]): string[] {
  return runIcu(texts, VUFIND_WORK_KEY_RULES).map((key) => Array.from(key.toLowerCase()).slice(0, 255).join(''));
}

const assignedCache = new Map<string, boolean>();

/**
 * The characters ICU's own Unicode version has assigned. Node's may be newer: characters added since
 * (CJK extension I …) are letters to Node but unassigned to ICU 72, which drops them from work keys.
 */
export function assignedInIcu(chars: readonly string[]): string[] {
  const unknown = [...new Set(chars.filter((ch) => !assignedCache.has(ch)))];
  if (unknown.length > 0) runIcu(unknown, ':: [:Cn:] Remove;').forEach((out, i) => assignedCache.set(unknown[i]!, out !== ''));
  return chars.filter((ch) => assignedCache.get(ch));
}
