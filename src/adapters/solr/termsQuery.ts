/**
 * Solr's terms query parser over a list of values, as the Solr adapter (solrIndex.ts) and its work index
 * (workIndex/workIndexAnswers.ts) ask for records by id: `{!terms f=<field> separator="…"}<v1>…<vN>`,
 * with a separator none of the values contains. Work keys are joined with the fixed WORK_KEY_SEPARATOR
 * (solrIndex.ts).
 */

/** The separator of the `terms` query parser; work keys are normalised letters and digits, so they
 * never contain this control character (keys that do are dropped, see solrIndex.ts findVersions). */
export const WORK_KEY_SEPARATOR = '\u001f';

/** `{!terms f=<field> separator="…"}` and the values joined by a separator none of them contains. */
export function termsQuery(field: string, values: readonly string[]): string {
  const separator = separatorFor(values);
  return `{!terms f=${field} separator="${separator}"}${values.join(separator)}`;
}

/**
 * A separator for a terms query over these values: U+001F unless one of them contains it, then the next
 * control character down that none contains. (Ids are any non-blank text; 31 control characters all in
 * one result page's ids would be a catalog beyond help, and get U+001F, splitting those ids.)
 */
function separatorFor(values: readonly string[]): string {
  for (let code = WORK_KEY_SEPARATOR.charCodeAt(0); code > 0; code--) {
    const candidate = String.fromCharCode(code);
    if (!values.some((value) => value.includes(candidate))) return candidate;
  }
  return WORK_KEY_SEPARATOR;
}
