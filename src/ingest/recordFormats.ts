/**
 * The one table of record file formats the loader reads: how each is recognised from its first bytes,
 * which reader streams it, and which mapping step turns its records into record documents. `load` and
 * `convert` pick the format from the content (the extension only breaks a tie), and say which.
 *
 * To add a format: a reader in this folder (a streaming source of SourceItems), a mapping step, a row here.
 */
import { open } from 'node:fs/promises';
import { recordDocumentFromMarc } from './marc/vufindMarcMapping.js';
import type { MarcRecord } from './marc/marcRecord.js';
import { readIso2709Stream } from './marc/iso2709Reader.js';
import { readMarcXmlStream } from './marc/marcXmlReader.js';
import { fileChunks } from './readers/fileChunks.js';
import { readJsonLines } from './readers/jsonLinesReader.js';
import type { RecordPosition, SourceItem } from './sourceRecord.js';

export interface RecordFileFormat<T = unknown> {
  /** The name `--format` takes and messages use. */
  readonly name: 'jsonl' | 'iso2709' | 'marcxml';
  readonly label: string;
  /** What one record of the file is called in summaries ("lines" for JSON Lines, "records" otherwise). */
  readonly unit: string;
  readonly extensions: readonly string[];
  /** Whether the start of a file (BOM and leading white space removed) looks like this format. */
  readonly recognises: (head: string) => boolean;
  /** Streams the file's records; `onBytesRead`, when given, is told the size of each chunk read (progress). */
  readonly read: (path: string, onBytesRead?: (bytes: number) => void) => AsyncIterable<SourceItem<T>>;
  readonly toDocument: (record: T, position: RecordPosition) => unknown;
}

const jsonLines: RecordFileFormat<unknown> = {
  name: 'jsonl',
  label: 'JSON Lines record documents',
  unit: 'lines',
  extensions: ['.jsonl', '.ndjson', '.json'],
  recognises: (head) => head.startsWith('{') || head.startsWith('['),
  read: readJsonLines,
  toDocument: (record) => record,
};

const iso2709: RecordFileFormat<MarcRecord> = {
  name: 'iso2709',
  label: 'MARC 21 (ISO 2709)',
  unit: 'records',
  extensions: ['.mrc', '.marc', '.dat', '.iso'],
  // A record length of five digits, then the leader's status, type and level (letters or blanks).
  recognises: (head) => /^\d{5}[a-z ][a-z ][a-z ]/i.test(head),
  read: (path, onBytesRead) => readIso2709Stream(fileChunks(path, onBytesRead), path),
  toDocument: (record) => recordDocumentFromMarc(record),
};

const marcXml: RecordFileFormat<MarcRecord> = {
  name: 'marcxml',
  label: 'MARCXML',
  unit: 'records',
  extensions: ['.xml', '.marcxml'],
  recognises: (head) => head.startsWith('<'),
  read: (path, onBytesRead) => readMarcXmlStream(fileChunks(path, onBytesRead), path),
  toDocument: (record) => recordDocumentFromMarc(record),
};

export const RECORD_FILE_FORMATS: readonly RecordFileFormat[] = [jsonLines, iso2709, marcXml] as RecordFileFormat[];

/** The format of a file from its first bytes; undefined when none recognises it. */
export async function detectRecordFormat(path: string): Promise<RecordFileFormat | undefined> {
  const file = await open(path, 'r');
  let head: string;
  try {
    const buffer = Buffer.alloc(512);
    const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
    head = buffer.subarray(0, bytesRead).toString('latin1').replace(/^(\xEF\xBB\xBF)?\s*/, '');
  } finally {
    await file.close();
  }
  const candidates = RECORD_FILE_FORMATS.filter((format) => format.recognises(head));
  if (candidates.length <= 1) return candidates[0];
  const extension = path.slice(path.lastIndexOf('.')).toLowerCase();
  return candidates.find((format) => format.extensions.includes(extension)) ?? candidates[0];
}

export function recordFormatNamed(name: string): RecordFileFormat | undefined {
  return RECORD_FILE_FORMATS.find((format) => format.name === name);
}
