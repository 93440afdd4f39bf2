/**
 * Reads a JSON Lines file of record documents, one line at a time (a million-record file never sits in
 * memory whole). Blank lines are skipped; a line that is not JSON is reported with its line number and
 * skipped, so one bad line never stops the rest.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

export interface JsonLine {
  /** 1-based line number in the file. */
  readonly line: number;
  readonly value: unknown;
}

export interface JsonLineProblem {
  readonly line: number;
  readonly reason: string;
}

export async function* readJsonLines(path: string, onProblem: (problem: JsonLineProblem) => void): AsyncGenerator<JsonLine> {
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  let line = 0;
  for await (const text of lines) {
    line += 1;
    const trimmed = line === 1 ? text.replace(/^\uFEFF/, '').trim() : text.trim();
    if (trimmed === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (error) {
      onProblem({ line, reason: `not valid JSON (${(error as Error).message})` });
      continue;
    }
    yield { line, value };
  }
}
