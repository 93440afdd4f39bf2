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
 * Longer than 300 lines: one job, the saxes event handler (MarcXmlEvents) that builds records from
 * elements and turns every way a file can go wrong into a problem for the record it was in; its cases
 * share the record in progress, so they stay together.
 */
import { TextDecoder } from 'node:util';
import { SaxesParser, type SaxesAttributeNS, type SaxesTagNS } from 'saxes';
import type { SourceItem } from '../record/sourceRecord.js';
import { InvalidArgumentError, MalformedMarcError, UnrecognisedRecordFileError } from '../errors.js';
import { checkedFilePath, fileChunks } from '../fileChunks.js';
import { toNfc, type MarcDataField, type MarcField, type MarcRecord, type MarcSubfield } from './marcRecord.js';

export const MARC21_SLIM_NAMESPACE = 'http://www.loc.gov/MARC21/slim';

/** No tag in this many characters means saxes is stuck in a state it will not leave (see the header). */
const MAX_CHARACTERS_WITHOUT_A_TAG = 16 << 20;
const ONLY_ONE_ROOT = /: documents may contain only one root$/;
const LATE_XML_DECLARATION = /: an XML declaration must be at the start of the document$/;

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

interface DataFieldInProgress {
  readonly tag: string | undefined;
  readonly ind1: string;
  readonly ind2: string;
  readonly subfields: MarcSubfield[];
}

interface RecordInProgress {
  readonly recordNumber: number;
  leader: string | undefined;
  readonly fields: MarcField[];
  dataField: DataFieldInProgress | undefined;
  /** The first thing wrong with the record; it becomes a problem when it ends. */
  problem: string | undefined;
}

type TextTarget = 'leader' | 'controlfield' | 'subfield' | undefined;

/** saxes events to records and problems, queued until `take()`. */
class MarcXmlEvents {
  stopped = false;
  /** In `parseMarcXml`'s mode: the first XML error, which ends parsing. */
  failure: string | undefined;
  private readonly parser = new SaxesParser({ xmlns: true, position: true });
  private items: SourceItem<MarcRecord>[] = [];
  private recordNumber = 0;
  private record: RecordInProgress | undefined;
  private textTarget: TextTarget;
  private text = '';
  private controlTag: string | undefined;
  private subfieldCode: string | undefined;
  private rootOpened = false;
  /** The first element of the file, as written (`rss`, `mods:modsCollection`), and whether it is MARC's. */
  rootElement: { readonly name: string; readonly isMarc: boolean } | undefined;
  /** Whether any record or problem has been handed out. */
  yieldedAny = false;
  /** Between a second XML declaration (concatenated documents) and the next element. */
  private inLateDeclaration = false;
  /** Whether an XML error has been reported yet (inside a record or out). */
  private xmlErrorReported = false;
  private charactersSinceTag = 0;
  /** Whether anything but whitespace came: an empty file holds no records and is no problem. */
  private sawContent = false;

  constructor(
    private readonly source: string,
    private readonly stopAtFirstXmlError = false,
  ) {
    this.parser.on('opentag', (tag) => this.openElement(tag));
    this.parser.on('closetag', (tag) => this.closeElement(tag));
    this.parser.on('text', (text) => {
      if (this.textTarget !== undefined) this.text += text;
    });
    this.parser.on('cdata', (text) => {
      if (this.textTarget !== undefined) this.text += text;
    });
    this.parser.on('error', (error) => this.xmlError(error));
  }

  write(text: string): void {
    if (this.stopped) return;
    if (!this.sawContent && /\S/.test(text)) this.sawContent = true;
    this.charactersSinceTag += text.length;
    try {
      this.parser.write(text);
    } catch (error) {
      this.fatal(`the XML parser failed (${(error as Error).message})`);
      return;
    }
    if (!this.stopped && this.charactersSinceTag > MAX_CHARACTERS_WITHOUT_A_TAG) {
      this.fatal(
        `no XML tag in the ${this.charactersSinceTag} characters after line ${this.parser.line}: ` +
          'an unescaped & or < has left the XML parser (saxes) unable to find its way back',
      );
    }
  }

  close(): void {
    if (!this.sawContent && !this.stopAtFirstXmlError) return;
    try {
      this.parser.close();
    } catch (error) {
      this.fatal(`the XML parser failed (${(error as Error).message})`);
      return;
    }
    if (this.record !== undefined) {
      const xmlError = this.record.problem === undefined ? '' : ` (${this.record.problem})`;
      this.record.problem = undefined;
      this.finishRecord(
        `the file ends inside this record${xmlError}: either the file is cut short, or an unescaped & or < ` +
          'made the XML parser (saxes) read the rest of the file into this record',
      );
    }
  }

  take(): SourceItem<MarcRecord>[] {
    const items = this.items;
    if (items.length > 0) this.yieldedAny = true;
    this.items = [];
    return items;
  }

  private openElement(tag: SaxesTagNS): void {
    if (this.stopped) return;
    this.rootElement ??= {
      name: tag.name,
      isMarc: (tag.uri === MARC21_SLIM_NAMESPACE || tag.uri === '') && (tag.local === 'collection' || tag.local === 'record'),
    };
    this.rootOpened = true;
    this.inLateDeclaration = false;
    this.charactersSinceTag = 0;
    if (tag.uri !== MARC21_SLIM_NAMESPACE && tag.uri !== '') return;
    switch (tag.local) {
      case 'record':
        if (this.record !== undefined) this.finishRecord('the record has no end tag (</record>) before the next record begins');
        this.recordNumber += 1;
        this.record = { recordNumber: this.recordNumber, leader: undefined, fields: [], dataField: undefined, problem: undefined };
        this.textTarget = undefined;
        return;
      case 'leader':
        if (this.record !== undefined) this.collectText('leader');
        return;
      case 'controlfield':
        if (this.record !== undefined) {
          this.controlTag = attribute(tag, 'tag');
          this.collectText('controlfield');
        }
        return;
      case 'datafield':
        if (this.record !== undefined) {
          this.record.dataField = {
            tag: attribute(tag, 'tag'),
            ind1: this.indicator(tag, 'ind1'),
            ind2: this.indicator(tag, 'ind2'),
            subfields: [],
          };
        }
        return;
      case 'subfield':
        if (this.record?.dataField !== undefined) {
          this.subfieldCode = attribute(tag, 'code');
          this.collectText('subfield');
        }
        return;
      default:
        return;
    }
  }

  private closeElement(tag: SaxesTagNS): void {
    if (this.stopped) return;
    this.charactersSinceTag = 0;
    const record = this.record;
    if (record === undefined || (tag.uri !== MARC21_SLIM_NAMESPACE && tag.uri !== '')) return;
    switch (tag.local) {
      case 'record':
        this.finishRecord(undefined);
        return;
      case 'leader':
        if (this.textTarget === 'leader') record.leader = this.takeText();
        return;
      case 'controlfield':
        if (this.textTarget === 'controlfield') {
          const value = toNfc(this.takeText());
          if (this.controlTag === undefined) this.noteProblem('a control field has no tag');
          else if (this.controlTag.length !== 3) this.noteProblem(`control field tag ${JSON.stringify(this.controlTag)} is not three characters`);
          else record.fields.push({ tag: this.controlTag, value });
        }
        return;
      case 'subfield': {
        const field = record.dataField;
        if (this.textTarget === 'subfield' && field !== undefined) {
          const value = toNfc(this.takeText());
          const code = this.subfieldCode;
          const where = field.tag === undefined ? 'a data field' : `field ${field.tag}`;
          if (code === undefined || code === '') this.noteProblem(`${where} has a subfield with no code`);
          else if (code.length !== 1) this.noteProblem(`${where} has subfield code ${JSON.stringify(code)}, not one character`);
          else field.subfields.push({ code, value });
        }
        return;
      }
      case 'datafield': {
        const field = record.dataField;
        record.dataField = undefined;
        if (field === undefined) return;
        if (field.tag === undefined) this.noteProblem('a data field has no tag');
        else if (field.tag.length !== 3) this.noteProblem(`data field tag ${JSON.stringify(field.tag)} is not three characters`);
        else record.fields.push(field as MarcDataField);
        return;
      }
      default:
        return;
    }
  }

  private collectText(target: TextTarget): void {
    this.textTarget = target;
    this.text = '';
  }

  private takeText(): string {
    const text = this.text;
    this.text = '';
    this.textTarget = undefined;
    return text;
  }

  private indicator(tag: SaxesTagNS, name: string): string {
    const value = attribute(tag, name);
    if (value === undefined || value === '') return ' ';
    if (value.length !== 1) {
      this.noteProblem(`field ${attribute(tag, 'tag') ?? '(no tag)'} has ${name} ${JSON.stringify(value)}, not one character`);
    }
    return value;
  }

  private noteProblem(reason: string): void {
    if (this.record !== undefined) this.record.problem ??= reason;
  }

  /** Ends the record in progress: a record, or a problem with `forcedProblem` or what was noted. */
  private finishRecord(forcedProblem: string | undefined): void {
    const record = this.record;
    if (record === undefined) return;
    this.record = undefined;
    this.textTarget = undefined;
    let id: string | undefined;
    for (const field of record.fields) {
      if (field.tag === '001' && 'value' in field) {
        id = field.value.trim() || undefined;
        break;
      }
    }
    const position = id === undefined ? { source: this.source, recordNumber: record.recordNumber } : { source: this.source, recordNumber: record.recordNumber, id };
    let problem = record.problem ?? forcedProblem;
    let leader = record.leader;
    if (problem === undefined) {
      if (leader === undefined) problem = 'the record has no leader';
      else if (leader.length !== 24) {
        const trimmed = leader.trim();
        if (trimmed.length === 24) leader = trimmed;
        else problem = `the leader is ${leader.length} characters long, not 24 (${JSON.stringify(leader)})`;
      }
    }
    if (problem !== undefined || leader === undefined) {
      this.items.push({ kind: 'problem', position, reason: problem ?? 'the record has no leader' });
      return;
    }
    this.items.push({ kind: 'record', position, record: { leader, fields: record.fields } });
  }

  private xmlError(error: Error): void {
    if (this.stopped) return;
    const description = describeXmlError(error.message);
    if (this.stopAtFirstXmlError) {
      this.failure = description;
      this.stopped = true;
      return;
    }
    // Documents concatenated into one file (`cat a.xml b.xml`): saxes objects to every element after the
    // first root and to a second XML declaration, but reads them correctly, so their records are kept.
    // A second declaration also trips saxes' declaration parser until the next element begins.
    if (LATE_XML_DECLARATION.test(description)) this.inLateDeclaration = true;
    if (this.inLateDeclaration || ONLY_ONE_ROOT.test(description)) return;
    const reason = `malformed XML at ${description}`;
    if (!this.rootOpened) {
      this.fatal(`${reason}, before the first element: the file does not start as XML`);
      return;
    }
    if (this.record !== undefined) {
      this.record.problem ??= reason;
      this.xmlErrorReported = true;
      return;
    }
    // Outside records, only the first error of the file is reported: later ones are most likely saxes
    // closing, after an earlier error, elements that were never open.
    if (this.xmlErrorReported) return;
    this.xmlErrorReported = true;
    this.recordNumber += 1;
    const after = this.recordNumber === 1 ? 'before the first record' : `after record ${this.recordNumber - 1}`;
    this.items.push({ kind: 'problem', position: { source: this.source, recordNumber: this.recordNumber }, reason: `${reason}, ${after}` });
  }

  /** Saxes cannot go on: the record in progress (or the file) gets a problem saying so, and reading stops. */
  private fatal(reason: string): void {
    if (this.stopped) return;
    this.stopped = true;
    const message = `${reason}; the rest of the file was not read`;
    if (this.stopAtFirstXmlError) {
      this.failure = message;
      return;
    }
    if (this.record !== undefined) {
      this.record.problem = message;
      this.finishRecord(undefined);
      return;
    }
    this.recordNumber += 1;
    this.items.push({ kind: 'problem', position: { source: this.source, recordNumber: this.recordNumber }, reason: message });
  }
}

function attribute(tag: SaxesTagNS, name: string): string | undefined {
  const found: SaxesAttributeNS | undefined = tag.attributes[name];
  return found?.value;
}

/** saxes says `12:5: unexpected close tag.`; a person reads `line 12, column 5: unexpected close tag`. */
function describeXmlError(message: string): string {
  const match = /^(?:.*?:)?(\d+):(\d+): (.*?)\.?$/s.exec(message);
  return match === null ? message : `line ${match[1]}, column ${match[2]}: ${match[3]}`;
}
