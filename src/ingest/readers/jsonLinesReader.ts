/**
 * Reads a JSON Lines file of record documents, one line at a time (a million-record file never sits in
 * memory whole), as a reader of the ingest pipeline: each non-blank line is a source record positioned by
 * its line number; a line that is not JSON is a problem item, so one bad line never stops the rest.
 *
 * Left to others: checking that a value is a record document (the pipeline's prepare step).
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { SourceItem } from '../../record/sourceRecord.js';
import { checkedFilePath } from '../../fileChunks.js';

/**
 * Reads a JSON Lines file; throws InvalidArgumentError at once for anything but a path. `onBytesRead` (for a
 * progress bar) is told the size of each chunk of the file as it is read.
 */
export function readJsonLines(path: string, onBytesRead?: (bytes: number) => void): AsyncGenerator<SourceItem<unknown>> {
  return readJsonLinesFile(checkedFilePath('readJsonLines', path), onBytesRead);
}

async function* readJsonLinesFile(path: string, onBytesRead?: (bytes: number) => void): AsyncGenerator<SourceItem<unknown>> {
  const input = createReadStream(path, { encoding: 'utf8' });
  if (onBytesRead !== undefined) input.on('data', (chunk) => onBytesRead(Buffer.byteLength(chunk)));
  const lines = createInterface({ input, crlfDelay: Infinity });
  let line = 0;
  let recordNumber = 0;
  for await (const text of lines) {
    line += 1;
    const trimmed = line === 1 ? text.replace(/^\uFEFF/, '').trim() : text.trim();
    if (trimmed === '') continue;
    recordNumber += 1;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (error) {
      yield { kind: 'problem', position: { source: path, recordNumber, line }, reason: `not valid JSON (${(error as Error).message})` };
      continue;
    }
    const id = (value as { id?: unknown } | null)?.id;
    const position = { source: path, recordNumber, line, ...(typeof id === 'string' && id !== '' ? { id } : {}) };
    yield { kind: 'record', position, record: value };
  }
}
