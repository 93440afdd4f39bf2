/**
 * The record files a command line names (`load`, `convert`, `works evaluate`), checked before anything is
 * opened or written: each is a readable file, not compressed (refused whatever its name or --format), not
 * empty (refused, or skipped with --allow-empty), of a format read here (recognised from its content, or
 * the one --format forces). Every failure is one line on stderr naming the file; the command then exits 1.
 *
 * Left to others: reading the records (loadRecords.ts), the formats and what a file holds
 * (src/ingest/recordFormats.ts).
 */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { recordFileContent, RECORD_FILE_FORMATS, type RecordFileContent, type RecordFileFormat } from '../ingest/recordFormats.js';
import type { RecordFile } from './loadRecords.js';

/** A file to read, with its size (a load's progress bar shows a percentage of it). */
export interface SizedRecordFile extends RecordFile {
  readonly bytes: number;
}

export interface RecordFileChoices {
  /** --format: every file read as this format. */
  readonly format?: RecordFileFormat | undefined;
  /** --allow-empty: an empty file is skipped (with a line saying so) rather than failing the command. */
  readonly allowEmpty?: boolean;
  /**
   * The command takes --format and --allow-empty (load, convert): its messages suggest them, and it says
   * each file's format on stderr.
   */
  readonly fileOptions: boolean;
}

/** The files, checked and with their formats; undefined (after a line on stderr) when one fails. */
export async function checkedRecordFiles(
  paths: readonly string[], choices: RecordFileChoices, stderr: { write(text: string): unknown },
): Promise<SizedRecordFile[] | undefined> {
  const { format: forced, allowEmpty = false, fileOptions } = choices;
  const files: SizedRecordFile[] = [];
  for (const path of paths) {
    // The files first: a typo in a name must not leave behind a new, empty index file.
    let bytes: number;
    let content: RecordFileContent;
    try {
      const info = await stat(path);
      if (!info.isFile()) throw new Error('not a file');
      bytes = info.size;
      await access(path, constants.R_OK);
      content = await recordFileContent(path);
    } catch (error) {
      stderr.write(`catalog-versions: cannot read ${path}: ${(error as Error).message}\n`);
      return undefined;
    }
    if (content.kind === 'compressed') {
      stderr.write(`catalog-versions: ${content.message}\n`);
      return undefined;
    }
    if (content.kind === 'empty') {
      if (!allowEmpty) {
        stderr.write(`catalog-versions: ${content.message}${fileOptions ? '; give --allow-empty to succeed with nothing loaded from it' : ''}\n`);
        return undefined;
      }
      stderr.write(`${content.message} (--allow-empty: skipped)\n`);
      continue;
    }
    const format = forced ?? content.format;
    if (format === undefined) {
      stderr.write(`catalog-versions: ${path} is none of the formats read here (${RECORD_FILE_FORMATS.map((f) => f.label).join(', ')})${fileOptions ? '; give --format to force one' : ''}\n`);
      return undefined;
    }
    if (fileOptions && (paths.length > 1 || format.name !== 'jsonl')) stderr.write(`${path}: ${format.label}${forced !== undefined ? ' (--format)' : ''}\n`);
    files.push({ path, format, bytes });
  }
  return files;
}
