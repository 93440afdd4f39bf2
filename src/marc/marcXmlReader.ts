/**
 * Reads MARCXML (MARC 21 slim): a `collection` of `record`s or a single `record`, in the slim namespace
 * (http://www.loc.gov/MARC21/slim) with or without a prefix, or in no namespace at all. Files are streamed
 * through saxes, so a file of any size is read in constant memory; `parseMarcXml` reads one string (an
 * OAI-PMH harvest's metadata) at once. Text leaves in Unicode NFC.
 *
 * Records are recognised by name and namespace only: a `record` in another namespace (an OAI-PMH envelope's)
 * is not a MARC record, and elements MARCXML does not define are ignored. A record without a leader, with a
 * leader that is not 24 characters, or with a field lacking its tag (a subfield its code, an indicator that
 * is not one character) is a `problem`, and reading goes on.
 *
 * Malformed XML: saxes reports each error and keeps going, but it does not truly recover (a wrong end tag
 * closes every open element; an unescaped `&` or `<` can swallow what follows). So an error inside a record
 * makes that record a problem (it may hold text that belonged elsewhere), and reading goes on. The first
 * error outside any record is one problem, numbered as a record of its own as the ISO 2709 reader numbers
 * unreadable bytes; later errors outside records are taken for the consequences of an earlier one and not
 * repeated. Documents concatenated into one file (a second XML declaration or root) are read on as one.
 * Where saxes cannot go on (a file that is not XML, a file that ends inside a record, or an unescaped `&`
 * that has it read megabytes without finding a tag again), the problem says the rest of the file was not
 * read, and reading stops.
 *
 * Left to others: what a record means (mapping); MARC-8 never occurs in MARCXML, which is UTF-8 (other
 * encodings a file declares are decoded too).
 *
 * This file decodes the bytes and hands out what marcXmlEvents.ts builds from saxes' events.
 */
import { TextDecoder } from 'node:util';
import type { SourceItem } from '../record/sourceRecord.js';
import { InvalidArgumentError, MalformedMarcError, UnrecognisedRecordFileError } from '../errors.js';
import { checkedFilePath, fileChunks } from '../fileChunks.js';
import type { MarcRecord } from './marcRecord.js';
import { MarcXmlEvents } from './marcXmlEvents.js';

/** Reads a MARCXML file; the file is opened when reading starts. Throws only if the file cannot be read. */
export function readMarcXml(path: string): AsyncGenerator<SourceItem<MarcRecord>> {
  return readMarcXmlStream(fileChunks(checkedFilePath('readMarcXml', path)), path);
}

/** Reads MARCXML from chunks of bytes cut anywhere (even inside a UTF-8 sequence); `source` names them. */
export async function* readMarcXmlStream(chunks: AsyncIterable<Uint8Array>, source: string): AsyncGenerator<SourceItem<MarcRecord>> {
  const reader = new MarcXmlEvents(source);
  const decoder = new StreamDecoder();
  for await (const chunk of chunks) {
    const text = decoder.decode(chunk);
    if (text !== '') reader.write(text);
    // Items of one chunk are handed out after the chunk is parsed: memory stays at one chunk's worth.
    for (const item of reader.take()) yield item;
    if (reader.stopped) return;
  }
  const rest = decoder.end();
  if (rest !== '') reader.write(rest);
  if (!reader.stopped) reader.close();
  for (const item of reader.take()) yield item;
  // An RSS feed, a MODS file, any XML whose root is not MARC's and that holds no MARC record: refused,
  // rather than loaded as "0 read" (an empty MARCXML collection is read as the empty file it is).
  const root = reader.rootElement;
  if (!reader.yieldedAny && root !== undefined && !root.isMarc) {
    throw new UnrecognisedRecordFileError(source, 'MARCXML', `the root element <${root.name}> and no MARC record`);
  }
}

/**
 * The records in one MARCXML string (a `record` or a `collection`). Throws an Error naming the line and
 * column on malformed XML, and the record on one that MARCXML cannot express.
 */
export function parseMarcXml(xml: string): MarcRecord[] {
  if (typeof xml !== 'string') throw new InvalidArgumentError('parseMarcXml', 'xml', 'MARCXML text (a string)', xml);
  const reader = new MarcXmlEvents('MARCXML', true);
  reader.write(xml);
  if (!reader.stopped) reader.close();
  if (reader.failure !== undefined) throw new MalformedMarcError(`malformed MARCXML: ${reader.failure}`);
  const records: MarcRecord[] = [];
  for (const item of reader.take()) {
    if (item.kind === 'record') records.push(item.record);
    else if (item.kind === 'problem') throw new MalformedMarcError(`MARCXML record ${item.position.recordNumber}: ${item.reason}`);
  }
  return records;
}

/** Bytes to text: UTF-8 unless a byte order mark or the XML declaration says otherwise. */
class StreamDecoder {
  private decoder: TextDecoder | undefined;
  private head: Buffer | undefined;

  decode(chunk: Uint8Array): string {
    if (this.decoder !== undefined) return this.decoder.decode(chunk, { stream: true });
    // Wait for enough bytes to see the declaration's encoding.
    this.head = this.head === undefined ? Buffer.from(chunk) : Buffer.concat([this.head, chunk]);
    if (this.head.length < 256) return '';
    return this.start();
  }

  end(): string {
    const text = this.decoder === undefined ? this.start() : '';
    return text + (this.decoder as TextDecoder).decode();
  }

  private start(): string {
    const head = this.head ?? Buffer.alloc(0);
    this.head = undefined;
    this.decoder = new TextDecoder(encodingOf(head));
    return this.decoder.decode(head, { stream: true });
  }
}

function encodingOf(head: Buffer): string {
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf-8';
  const declared = /^<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/.exec(head.toString('latin1', 0, 256))?.[1];
  if (declared === undefined) return 'utf-8';
  try {
    return new TextDecoder(declared).encoding;
  } catch {
    return 'utf-8'; // an encoding TextDecoder does not know: read as UTF-8 rather than not at all
  }
}
