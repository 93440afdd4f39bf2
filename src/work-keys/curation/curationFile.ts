/**
 * The decisions file: a library's grouping decisions as JSON, written by `works export` and read by
 * `works import` (docs/curation.md), so they survive a rebuild of the index and can be kept under version
 * control. Stable and diff-friendly: decisions in the order they were taken, each field in a fixed order,
 * one record id per line; the same decisions always give the same bytes.
 *
 * Left to others: what decisions do (curationDecisions.ts), reading and writing the file (the command).
 */
import { InvalidArgumentError, InvalidCurationFileError } from '../../errors.js';
import { checkCurationDecisions, inDecisionOrder, isDecisionId, type CurationAction, type CurationDecision } from './curationDecisions.js';

/** The format's name and version, the first member of the file. */
export const CURATION_FILE_FORMAT = 'catalog-versions grouping decisions 1';

/** The file's text for these decisions. */
export function curationFileText(decisions: readonly CurationDecision[]): string {
  checkCurationDecisions(decisions, 'curationFileText');
  const ordered = inDecisionOrder(decisions).map(({ id, action, records, by, at, note }) => ({ id, action, records, by, at, note }));
  return `${JSON.stringify({ format: CURATION_FILE_FORMAT, decisions: ordered }, null, 2)}\n`;
}

/**
 * The decisions a file's text holds. Throws InvalidCurationFileError naming the file (`fileName`, for the
 * message) and the decision at fault: text that is not JSON, another format, a decision with a missing or
 * wrong field, two decisions with one id.
 */
export function decisionsFromCurationFile(text: string, fileName: string): CurationDecision[] {
  if (typeof text !== 'string') throw new InvalidArgumentError('decisionsFromCurationFile', 'text', 'the text of a decisions file (a string)', text);
  if (typeof fileName !== 'string' || fileName === '') {
    throw new InvalidArgumentError('decisionsFromCurationFile', 'fileName', 'the name of the decisions file, for messages (a non-empty string)', fileName);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new InvalidCurationFileError(fileName, undefined, `not JSON (${(error as Error).message})`);
  }
  const file = parsed as { format?: unknown; decisions?: unknown } | null;
  if (typeof file !== 'object' || file === null || Array.isArray(file) || file.format !== CURATION_FILE_FORMAT) {
    throw new InvalidCurationFileError(fileName, undefined, `not a grouping decisions file (it needs "format": ${JSON.stringify(CURATION_FILE_FORMAT)}, as \`works export\` writes it)`);
  }
  if (!Array.isArray(file.decisions)) throw new InvalidCurationFileError(fileName, undefined, '"decisions" must be a list');
  const seen = new Set<string>();
  return file.decisions.map((entry: unknown, index: number) => {
    const fault = (problem: string) => new InvalidCurationFileError(fileName, index, problem, lineOfDecision(text, index));
    const decision = decisionOf(entry, fault);
    if (seen.has(decision.id)) throw fault(`the id ${JSON.stringify(decision.id)} is given twice`);
    seen.add(decision.id);
    return decision;
  });
}

function decisionOf(entry: unknown, fault: (problem: string) => Error): CurationDecision {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw fault('must be an object');
  const fields = entry as Record<string, unknown>;
  const text = (name: string): string => {
    const value = fields[name];
    if (typeof value !== 'string' || value.trim() === '') throw fault(`"${name}" must be a non-empty string`);
    return value;
  };
  const action = text('action');
  if (action !== 'merge' && action !== 'split') throw fault(`"action" must be "merge" or "split", not ${JSON.stringify(action)}`);
  const id = text('id');
  if (!isDecisionId(id, action as CurationAction)) throw fault(`"id" of a ${action} must be "${action === 'merge' ? 'm' : 's'}" and a number, not ${JSON.stringify(id)}`);
  const records = fields.records;
  if (!Array.isArray(records) || records.some((record) => typeof record !== 'string' || record === '')) throw fault('"records" must be a list of record ids');
  const distinct = new Set(records as string[]);
  if (action === 'merge' && distinct.size < 2) throw fault(`merge ${id} must name at least two different records`);
  if (action === 'split' && records.length !== 1) throw fault(`split ${id} must name exactly one record`);
  const at = text('at');
  if (Number.isNaN(Date.parse(at)) || !/^\d{4}-\d{2}-\d{2}T/.test(at)) throw fault(`"at" must be an ISO 8601 instant, not ${JSON.stringify(at)}`);
  return { id, action: action as CurationAction, records: [...distinct], by: text('by'), at: new Date(at).toISOString(), note: text('note') };
}

/**
 * The line on which the decision at this place of the "decisions" list starts, for the message: the JSON
 * is scanned for the list's values outside strings. Undefined if not found (the file parsed, so rarely).
 */
function lineOfDecision(text: string, index: number): number | undefined {
  const list = /"decisions"\s*:\s*\[/.exec(text);
  if (list === null) return undefined;
  let depth = 0;
  let inString = false;
  let entries = 0;
  let expectingValue = true;
  let line = text.slice(0, list.index + list[0].length).split('\n').length;
  for (let i = list.index + list[0].length; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') line += 1;
    if (inString) {
      if (c === '\\') i += 1;
      else if (c === '"') inString = false;
      continue;
    }
    if (depth === 0 && c === ',') expectingValue = true;
    else if (depth === 0 && expectingValue && c !== undefined && !/[\s\]]/.test(c)) {
      if (entries === index) return line;
      entries += 1;
      expectingValue = false;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth += 1;
    else if (c === '}' || c === ']') {
      if (depth === 0) return undefined;
      depth -= 1;
    }
  }
  return undefined;
}
