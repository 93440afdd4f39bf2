/**
 * VuFind's publishDate as its importer makes it (getDates): the years of every 260$c, then of the 264$c
 * of 264s with ind2 1 (publication), or when there are none those with ind2 4 (copyright), each cleaned
 * to a year as SolrMarc's DataUtil.cleanDate does. Used by vufindMarcMapping.ts.
 */
import { trimAsJavaDoes } from '../../marc/marcFieldSpec.js';
import { isDataField, type MarcDataField, type MarcRecord } from '../../marc/marcRecord.js';

/**
 * VuFind's getDates: the cleaned years of every 260$c, then those of the 264$c with ind2 1, or when
 * there are none those with ind2 4; no repeats, first occurrence kept.
 */
export function vufindPublishDates(record: MarcRecord, currentYear: number): string[] {
  const dates = new Set<string>();
  const addYearsOf = (field: MarcDataField, years: Set<string>): void => {
    for (const subfield of field.subfields) {
      if (subfield.code !== 'c') continue;
      const year = cleanDateAsSolrMarc(subfield.value, currentYear);
      if (year !== undefined) years.add(year);
    }
  };
  // One pass: the 260s' years go straight in, the 264s' wait for the choice between their two kinds.
  let publication: Set<string> | undefined;
  let copyright: Set<string> | undefined;
  for (const field of record.fields) {
    if (!isDataField(field)) continue;
    if (field.tag === '260') addYearsOf(field, dates);
    else if (field.tag === '264') {
      if (field.ind2 === '1') addYearsOf(field, publication ??= new Set());
      else if (field.ind2 === '4') addYearsOf(field, copyright ??= new Set());
    }
  }
  const chosen = publication !== undefined && publication.size > 0 ? publication : copyright;
  if (chosen !== undefined) for (const year of chosen) dates.add(year);
  return [...dates];
}

/**
 * A year from a date as catalogued, the way SolrMarc's DataUtil.cleanDate finds it: the first pattern
 * that matches wins, in this order: `[1999]`; `i.e. 1999`; `[1999`; a B.C. date (no year); 1500–2099;
 * `l999` (a typed l for 1); `[19]99`; `199-` or `199?` (the unknown digit read as 0). A year after
 * `currentYear + 1` is taken for a typing error and dropped.
 */
export function cleanDateAsSolrMarc(date: string, currentYear: number): string | undefined {
  // Most dates (`1989.`, `c1989`, `p1992, c1991.`) hold no `[`, no `i` (of `i.e.`) and no `b` or `B`
  // (of `B.C.`): the first four patterns cannot match them, so the 1500–2099 one is the first to try.
  if (!mayMatchBeforePlainYear(date)) {
    const at = plainYearAt(date);
    if (at >= 0) {
      const year = date.slice(at, at + 4);
      return Number(year) > currentYear + 1 ? undefined : year;
    }
  }
  let year: string | undefined;
  let match: RegExpExecArray | null;
  if ((match = /\[[12]\d{3}\]/.exec(date)) !== null) year = withoutOuterBrackets(match[0]);
  // The dots are regular-expression wildcards in SolrMarc too.
  else if ((match = /i.e. (20|19|18|17|16|15)[0-9][0-9]/.exec(date)) !== null) year = match[0].replace(/i.e. /g, '');
  else if ((match = /\[[12]\d{3}/.exec(date)) !== null) year = withoutOuterBrackets(match[0]);
  else if (/[0-9]+ [Bb][.]?[Cc][.]?/.test(date)) year = undefined;
  else if ((match = /(20|19|18|17|16|15)[0-9][0-9]/.exec(date)) !== null) year = match[0];
  else if ((match = /l\d{3}/.exec(date)) !== null) year = match[0].replace(/l/g, '1');
  else if ((match = /\[19\]\d{2}/.exec(date)) !== null) year = match[0].replace(/[[\]]/g, '');
  else if ((match = /(20|19|18|17|16|15)[0-9][-?0-9]/.exec(date)) !== null) year = match[0].replace(/[-?]/g, '0');
  if (year === undefined || !/^[0-9]+$/.test(year)) return undefined;
  return Number(year) > currentYear + 1 ? undefined : year;
}

/** Whether the date holds `[`, `i`, `b` or `B`, which the patterns before the 1500–2099 one all need. */
function mayMatchBeforePlainYear(date: string): boolean {
  for (let i = 0; i < date.length; i++) {
    const code = date.charCodeAt(i);
    if (code === 0x5b || code === 0x69 || code === 0x62 || code === 0x42) return true;
  }
  return false;
}

/** Where `(20|19|18|17|16|15)[0-9][0-9]` first matches in the date, or -1. */
function plainYearAt(date: string): number {
  for (let i = 0; i + 4 <= date.length; i++) {
    const century = (date.charCodeAt(i) - 0x30) * 10 + (date.charCodeAt(i + 1) - 0x30);
    if (!isDigitCode(date.charCodeAt(i)) || !isDigitCode(date.charCodeAt(i + 1)) || century < 15 || century > 20) continue;
    if (isDigitCode(date.charCodeAt(i + 2)) && isDigitCode(date.charCodeAt(i + 3))) return i;
  }
  return -1;
}

function isDigitCode(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/** SolrMarc's removeOuterBrackets, for the bracket patterns above. */
function withoutOuterBrackets(value: string): string {
  let result = trimAsJavaDoes(value);
  const opens = result.startsWith('[');
  const closes = result.endsWith(']');
  if (opens && closes && result.indexOf('[', 1) === -1 && result.lastIndexOf(']', result.length - 2) === -1) {
    result = result.slice(1, -1);
  } else if (opens && !result.includes(']')) {
    result = result.slice(1);
  } else if (closes && !result.includes('[')) {
    result = result.slice(0, -1);
  }
  return trimAsJavaDoes(result);
}
