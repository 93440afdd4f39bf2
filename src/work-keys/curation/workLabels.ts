/**
 * A library's work labels, the answers `works evaluate` scores grouping against (groupingScores.ts;
 * docs/curation.md#measuring-grouping): which work each record id belongs to, read from the text of a
 * labels file in one of two forms, told apart by its first line that is not blank:
 *
 *   CSV          `id,work` a line, an optional header line `id,work`; a field may be in double quotes
 *                (a comma inside, `""` for a quote)
 *   JSON Lines   `{"id": "…", "work": "…"}` a line (other members are ignored)
 *
 * Blank lines are skipped. An id labelled twice with two different works is refused, naming both lines; a
 * file without labels is refused. Pure: the file's text in, the labels out; every problem an
 * InvalidWorkLabelsError naming the file and line.
 */
import { InvalidWorkLabelsError } from '../../errors.js';

/** Record id → work, in the file's order. */
export type WorkLabels = ReadonlyMap<string, string>;

export function parseWorkLabels(text: string, file: string): WorkLabels {
  const labels = new Map<string, string>();
  const lineOf = new Map<string, number>();
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const first = lines.findIndex((line) => line.trim() !== '');
  if (first === -1) throw new InvalidWorkLabelsError(file, undefined, 'holds no labels (give `id,work` lines, or JSON Lines {"id": …, "work": …})');
  const jsonLines = lines[first]!.trimStart().startsWith('{');
  lines.forEach((line, index) => {
    const number = index + 1;
    if (line.trim() === '') return;
    const label = jsonLines ? jsonLabel(line, file, number) : csvLabel(line, file, number, index === first);
    if (label === undefined) return;
    const [id, work] = label;
    const earlier = labels.get(id);
    if (earlier !== undefined && earlier !== work) {
      throw new InvalidWorkLabelsError(file, number, `id ${JSON.stringify(id)} is labelled ${JSON.stringify(work)} here and ${JSON.stringify(earlier)} on line ${lineOf.get(id)}`);
    }
    labels.set(id, work);
    if (earlier === undefined) lineOf.set(id, number);
  });
  if (labels.size === 0) throw new InvalidWorkLabelsError(file, undefined, 'holds no labels, only its header line');
  return labels;
}

/** A JSON Lines label: a string (or number) `id` and `work`. */
function jsonLabel(line: string, file: string, number: number): [string, string] {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    throw new InvalidWorkLabelsError(file, number, `not JSON (${(error as Error).message}); a line is {"id": "…", "work": "…"}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidWorkLabelsError(file, number, 'not a JSON object; a line is {"id": "…", "work": "…"}');
  }
  const { id, work } = value as { id?: unknown; work?: unknown };
  return [labelField(id, 'id', file, number), labelField(work, 'work', file, number)];
}

function labelField(value: unknown, name: string, file: string, number: number): string {
  const text = typeof value === 'string' ? value.trim() : typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
  if (text === undefined || text === '') throw new InvalidWorkLabelsError(file, number, `"${name}" must be a non-empty string`);
  return text;
}

/** A CSV label; undefined for the header line. */
function csvLabel(line: string, file: string, number: number, firstLine: boolean): [string, string] | undefined {
  const fields = csvFields(line, file, number);
  if (firstLine && fields.length === 2 && fields[0]!.trim().toLowerCase() === 'id' && fields[1]!.trim().toLowerCase() === 'work') return undefined;
  if (fields.length !== 2) throw new InvalidWorkLabelsError(file, number, `${fields.length} field${fields.length === 1 ? '' : 's'}; a line is id,work`);
  return [labelField(fields[0], 'id', file, number), labelField(fields[1], 'work', file, number)];
}

/** The fields of one CSV line (RFC 4180 quoting, within the line). */
function csvFields(line: string, file: string, number: number): string[] {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    if (line[i] === '"') {
      let value = '';
      i++;
      for (;;) {
        const quote = line.indexOf('"', i);
        if (quote === -1) throw new InvalidWorkLabelsError(file, number, 'a quoted field is not closed');
        value += line.slice(i, quote);
        i = quote + 1;
        if (line[i] !== '"') break;
        value += '"';
        i++;
      }
      if (i < line.length && line[i] !== ',') throw new InvalidWorkLabelsError(file, number, 'text after a quoted field');
      fields.push(value);
    } else {
      const comma = line.indexOf(',', i);
      fields.push(line.slice(i, comma === -1 ? line.length : comma));
      i = comma === -1 ? line.length : comma;
    }
    if (i >= line.length) return fields;
    i++; // the comma
  }
}
