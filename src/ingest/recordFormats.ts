/**
 * The one table of record formats, for files and for harvests: for a file format, how it is recognised
 * from its first bytes, which reader streams it and which mapping step turns its records into record
 * documents; for a harvested format, the OAI-PMH metadata prefix that carries it and how a harvested
 * record's metadata becomes a record document. `load` and `convert` pick a file's format from the content
 * (the extension only breaks a tie), and say which; `harvest` takes the prefixes listed here and no other.
 * A file that holds no records at all, empty or compressed (gzip, zip, bzip2, xz, zstd: told by its first
 * bytes, whatever its name), is told apart before any reader is given it (recordFileContent).
 *
 * To add a format: a reader in this folder (a streaming source of SourceItems) or a metadata prefix, a
 * mapping step, a row here. The rows' order is the order a file's first bytes are tried against the
 * formats (formatOf); the names `--format` takes (RecordFileFormatName, RECORD_FILE_FORMAT_NAMES) and the
 * CLI's usage text are derived from the rows. Left to others: reading (the readers), mapping (the mapping modules).
 */
import { open } from 'node:fs/promises';
import { sep } from 'node:path';
import { InvalidOptionError, InvalidRecordDocumentError } from '../errors.js';
import { localMarcDocument, STOCK_MAPPING, withLocalSettings, type LocalMappingSettings } from './localMapping.js';
import type { MarcRecord } from '../marc/marcRecord.js';
import { parseIso2709Record, readIso2709RecordBytes, readIso2709Stream } from '../marc/iso2709Reader.js';
import { readMarcXmlStream } from '../marc/marcXmlReader.js';
import { checkedFilePath, fileChunks } from '../fileChunks.js';
import { readJsonLines } from './readers/jsonLinesReader.js';
import { parseMarcXml } from '../marc/marcXmlReader.js';
import { recordDocumentFromDublinCore } from './oai/dublinCoreMapping.js';
import type { HarvestedRecord } from './oai/oaiHarvester.js';
import type { RecordPosition, SourceItem } from '../record/sourceRecord.js';
import type { WorkKeyProfileName } from '../work-keys/workKeyProfiles.js';

/** What a harvest's mapping step knows besides the record. */
export interface HarvestMapping {
  readonly prefix: string;
  /** Written to the `institution` field of Dublin Core records. */
  readonly institution?: string;
  /** The local mapping (localMapping.ts): MARC records go through it whole, Dublin Core takes its prefix and constants. */
  readonly local?: LocalMappingSettings;
  /** The work-key profile records are keyed with (the index's; default `vufind`). */
  readonly keyProfile?: WorkKeyProfileName;
}

/** How records of one format arrive by OAI-PMH. */
export interface HarvestFormat {
  /** The OAI-PMH metadata prefix (`--prefix`). */
  readonly prefix: string;
  readonly label: string;
  /** A harvested record's metadata to a record document; throws InvalidRecordDocumentError. */
  readonly toDocument: (record: HarvestedRecord, mapping: HarvestMapping) => unknown;
}

/** One row of the table: a format, read from files, harvested, or both. */
export interface RecordFormat {
  readonly name: string;
  readonly file?: RecordFileFormat;
  readonly harvest?: HarvestFormat;
}

export interface RecordFileFormat<T = unknown> extends RecordFileReading<T> {
  /** The name `--format` takes and messages use: its row's. */
  readonly name: RecordFileFormatName;
}

/** How a file format is read and mapped; its name is its row's (fileFormatRow). */
export interface RecordFileReading<T = unknown> {
  readonly label: string;
  /** What one record of the file is called in summaries ("lines" for JSON Lines, "records" otherwise). */
  readonly unit: string;
  readonly extensions: readonly string[];
  /** Whether the start of a file (BOM and leading white space removed) looks like this format. */
  readonly recognises: (head: string) => boolean;
  /** Streams the file's records; `onBytesRead`, when given, is told the size of each chunk read (progress). */
  readonly read: (path: string, onBytesRead?: (bytes: number) => void) => AsyncIterable<SourceItem<T>>;
  /**
   * The mapping step; MARC formats follow the local mapping settings and key records under the profile
   * given (default `vufind`); JSON Lines documents are taken as they are (the pipeline keys those without keys).
   */
  readonly toDocument: (record: T, position: RecordPosition, settings?: LocalMappingSettings, keyProfile?: WorkKeyProfileName) => unknown;
  /**
   * For a format whose records may be mapped in worker threads (mappingPool.ts): the same records read
   * as their bytes (same positions, same problems), and the mapping step of those bytes, which parses them
   * as `read` does and calls `toDocument`. Absent: records of the format are mapped on the main thread.
   */
  readonly asBytes?: RecordBytesReading;
  /**
   * True for a format whose records are record documents as they are (`toDocument` gives them back):
   * their work keys may be made in worker threads (keyingPool.ts).
   */
  readonly documentsAsRead?: true;
}

/** A format's records read as bytes, which cross to worker threads cheaply, and mapped from them. */
export interface RecordBytesReading {
  readonly read: (path: string, onBytesRead?: (bytes: number) => void) => AsyncIterable<SourceItem<Uint8Array>>;
  readonly toDocument: (bytes: Uint8Array, position: RecordPosition, settings?: LocalMappingSettings, keyProfile?: WorkKeyProfileName) => unknown;
}

const jsonLines: RecordFileReading<unknown> = {
  label: 'JSON Lines record documents',
  unit: 'lines',
  extensions: ['.jsonl', '.ndjson', '.json'],
  recognises: (head) => head.startsWith('{') || head.startsWith('['),
  read: readJsonLines,
  toDocument: (record) => record,
  documentsAsRead: true,
};

const iso2709: RecordFileReading<MarcRecord> = {
  label: 'MARC 21 (ISO 2709)',
  unit: 'records',
  extensions: ['.mrc', '.marc', '.dat', '.iso'],
  // A record length of five digits, then the leader's status, type and level (letters or blanks).
  recognises: (head) => /^\d{5}[a-z ][a-z ][a-z ]/i.test(head),
  read: (path, onBytesRead) => readIso2709Stream(fileChunks(checkedFilePath('readIso2709', path), onBytesRead), path),
  toDocument: (record, _position, settings = STOCK_MAPPING, keyProfile) => localMarcDocument(record, settings, keyProfile === undefined ? {} : { keyProfile }),
  asBytes: {
    read: (path, onBytesRead) => readIso2709RecordBytes(fileChunks(checkedFilePath('readIso2709', path), onBytesRead), path),
    toDocument: (bytes, position, settings, keyProfile) => iso2709.toDocument(parseIso2709Record(bytes), position, settings, keyProfile),
  },
};

const marcXml: RecordFileReading<MarcRecord> = {
  label: 'MARCXML',
  unit: 'records',
  extensions: ['.xml', '.marcxml'],
  recognises: (head) => head.startsWith('<'),
  read: (path, onBytesRead) => readMarcXmlStream(fileChunks(checkedFilePath('readMarcXml', path), onBytesRead), path),
  toDocument: (record, _position, settings = STOCK_MAPPING, keyProfile) => localMarcDocument(record, settings, keyProfile === undefined ? {} : { keyProfile }),
};

/** MARCXML harvested as `marc21`: the record the metadata holds, mapped as MARC files are. */
function documentFromHarvestedMarcXml(record: HarvestedRecord, mapping: HarvestMapping): unknown {
  let marc;
  try {
    marc = parseMarcXml(record.metadataXml);
  } catch (error) {
    throw new InvalidRecordDocumentError(`its MARCXML cannot be read: ${(error as Error).message}`);
  }
  if (marc.length !== 1) throw new InvalidRecordDocumentError(`its metadata holds ${marc.length} MARC records, not one`);
  return localMarcDocument(marc[0]!, mapping.local ?? STOCK_MAPPING, mapping.keyProfile === undefined ? {} : { keyProfile: mapping.keyProfile });
}

/** A row of a format read from files: the name is the row's and its file format's. */
function fileFormatRow<N extends string, T>(name: N, reading: RecordFileReading<T>): { readonly name: N; readonly file: RecordFileReading & { readonly name: N } } {
  return { name, file: { ...(reading as RecordFileReading), name } };
}

/** Every format, once, files' formats in the order they are tried (formatOf). */
const FORMAT_ROWS = [
  fileFormatRow('jsonl', jsonLines),
  fileFormatRow('iso2709', iso2709),
  {
    ...fileFormatRow('marcxml', marcXml),
    harvest: { prefix: 'marc21', label: 'MARCXML', toDocument: documentFromHarvestedMarcXml },
  },
  {
    name: 'oai_dc',
    harvest: {
      prefix: 'oai_dc',
      label: 'Dublin Core',
      toDocument: (record, mapping) => {
        const document = recordDocumentFromDublinCore(
          record.metadataXml, record.identifier, {
            ...(mapping.institution !== undefined ? { institution: mapping.institution } : {}),
            ...(mapping.keyProfile !== undefined ? { keyProfile: mapping.keyProfile } : {}),
          },
        );
        return mapping.local === undefined ? document : withLocalSettings(document, mapping.local);
      },
    },
  },
] as const satisfies readonly { readonly name: string; readonly file?: RecordFileReading; readonly harvest?: HarvestFormat }[];

/** The names of the formats files are read in (`--format`), from the rows that have a file format. */
export type RecordFileFormatName = Extract<(typeof FORMAT_ROWS)[number], { readonly file: unknown }>['name'];

export const RECORD_FORMATS: readonly RecordFormat[] = FORMAT_ROWS;

/** The formats files are read in, in the order they are tried. */
export const RECORD_FILE_FORMATS: readonly RecordFileFormat[] = RECORD_FORMATS.flatMap((format) => (format.file === undefined ? [] : [format.file]));

/** Their names, as `--format` takes them. */
export const RECORD_FILE_FORMAT_NAMES: readonly RecordFileFormatName[] = RECORD_FILE_FORMATS.map((format) => format.name);

/** The formats harvests take. */
export const HARVEST_FORMATS: readonly HarvestFormat[] = RECORD_FORMATS.flatMap((format) => (format.harvest === undefined ? [] : [format.harvest]));

/** The metadata prefixes `harvest` takes, in the table's order. */
export const HARVEST_PREFIXES: readonly string[] = HARVEST_FORMATS.map((format) => format.prefix);

/**
 * The harvested format with this metadata prefix. Throws InvalidOptionError (option `prefix`) naming the
 * supported prefixes for any other, so that a harvest of `mods` is refused before it starts rather than
 * failing on every record.
 */
export function harvestFormatFor(prefix: unknown): HarvestFormat {
  const format = HARVEST_FORMATS.find((candidate) => candidate.prefix === prefix);
  if (format === undefined) {
    const named = typeof prefix === 'string' ? JSON.stringify(prefix) : String(prefix);
    throw new InvalidOptionError('prefix', `${named} is not a metadata prefix read here; use ${HARVEST_PREFIXES.join(' or ')}`);
  }
  return format;
}

/** How many bytes of a file its format is recognised from. */
const HEAD_BYTES = 512;

/** A compressed file, told by its first bytes (its magic number) whatever its name. */
export interface Compression {
  /** As messages say it: `is gzip-compressed`. */
  readonly name: string;
  /** The byte sequences such a file starts with. */
  readonly magic: readonly (readonly number[])[];
  /** The name such files usually end with. */
  readonly suffix: string;
  /** The command that writes one decompressed to standard output, whatever the file's name, for the message. */
  readonly decompressToOutput: string;
}

/** Compressed files the loader refuses, saying what they are: it reads records, not archives. */
export const COMPRESSIONS: readonly Compression[] = [
  { name: 'gzip', magic: [[0x1f, 0x8b]], suffix: '.gz', decompressToOutput: 'gzip -dc' },
  // A local file header, or the end of an empty archive.
  { name: 'zip', magic: [[0x50, 0x4b, 0x03, 0x04], [0x50, 0x4b, 0x05, 0x06]], suffix: '.zip', decompressToOutput: 'unzip -p' },
  { name: 'bzip2', magic: [[0x42, 0x5a, 0x68]], suffix: '.bz2', decompressToOutput: 'bzip2 -dc' },
  { name: 'xz', magic: [[0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]], suffix: '.xz', decompressToOutput: 'xz -dc' },
  { name: 'zstd', magic: [[0x28, 0xb5, 0x2f, 0xfd]], suffix: '.zst', decompressToOutput: 'zstd -dc' },
];

/** The compression a file's first bytes show; undefined for any other start. */
export function compressionOf(head: Uint8Array): Compression | undefined {
  return COMPRESSIONS.find((compression) => compression.magic.some((magic) => magic.length <= head.length && magic.every((byte, i) => head[i] === byte)));
}

/**
 * What a record file holds, from its size and first bytes, before a reader is given it: nothing (empty,
 * or white space only), a compressed file, or records of the format it looks like (undefined when none
 * recognises it). `message` names the file and says what to do.
 */
export type RecordFileContent =
  | { readonly kind: 'empty'; readonly bytes: number; readonly message: string }
  | { readonly kind: 'compressed'; readonly compression: Compression; readonly message: string }
  | { readonly kind: 'records'; readonly format: RecordFileFormat | undefined };

export async function recordFileContent(path: string): Promise<RecordFileContent> {
  const head = await headOf(checkedFilePath('recordFileContent', path));
  if (head.length === 0) return { kind: 'empty', bytes: 0, message: `${path} is empty (0 bytes): nothing to load` };
  const compression = compressionOf(head);
  if (compression !== undefined) {
    const decompressed = decompressedName(path, compression);
    return {
      kind: 'compressed', compression,
      message: `${path} is ${compression.name}-compressed: decompress it first (${compression.decompressToOutput} ${path} > ${decompressed}) and load ${decompressed}`,
    };
  }
  const text = textOf(head);
  // White space alone, the whole file within the head: as empty as an empty file.
  if (text === '' && head.length < HEAD_BYTES) return { kind: 'empty', bytes: head.length, message: `${path} holds only white space (${head.length} bytes): nothing to load` };
  return { kind: 'records', format: formatOf(path, text) };
}

/** A name for a compressed file decompressed: without its suffix (export.mrc.gz: export.mrc), else export-decompressed.mrc. */
function decompressedName(path: string, compression: Compression): string {
  if (path.toLowerCase().endsWith(compression.suffix) && path.length > compression.suffix.length) return path.slice(0, -compression.suffix.length);
  const dot = path.lastIndexOf('.');
  return dot > path.lastIndexOf(sep) + 1 ? `${path.slice(0, dot)}-decompressed${path.slice(dot)}` : `${path}-decompressed`;
}

/** The format of a file from its first bytes; undefined when none recognises it. */
export async function detectRecordFormat(path: string): Promise<RecordFileFormat | undefined> {
  return formatOf(path, textOf(await headOf(checkedFilePath('detectRecordFormat', path))));
}

async function headOf(path: string): Promise<Buffer> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

/** The head as the formats recognise it: latin1, without a byte-order mark and leading white space. */
function textOf(head: Buffer): string {
  return head.toString('latin1').replace(/^(\xEF\xBB\xBF)?\s*/, '');
}

function formatOf(path: string, head: string): RecordFileFormat | undefined {
  const candidates = RECORD_FILE_FORMATS.filter((format) => format.recognises(head));
  if (candidates.length <= 1) return candidates[0];
  const extension = path.slice(path.lastIndexOf('.')).toLowerCase();
  return candidates.find((format) => format.extensions.includes(extension)) ?? candidates[0];
}

export function recordFormatNamed(name: string): RecordFileFormat | undefined {
  return RECORD_FILE_FORMATS.find((format) => format.name === name);
}
