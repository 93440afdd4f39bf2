/**
 * Builds MARC records out of saxes' events for the MARCXML reader (marcXmlReader.ts): records, control and
 * data fields, indicators and subfields by name and namespace, and every way a file can go wrong (the
 * cases marcXmlReader.ts's header lists) turned into a problem for the record it was in, or for the file.
 *
 * Longer than 300 lines: one job, the saxes event handler (MarcXmlEvents); its cases share the record in
 * progress, so they stay together.
 */
import { SaxesParser, type SaxesAttributeNS, type SaxesTagNS } from 'saxes';
import type { SourceItem } from '../record/sourceRecord.js';
import { toNfc, type MarcDataField, type MarcField, type MarcRecord, type MarcSubfield } from './marcRecord.js';

export const MARC21_SLIM_NAMESPACE = 'http://www.loc.gov/MARC21/slim';

/** No tag in this many characters means saxes is stuck in a state it will not leave (see the header). */
const MAX_CHARACTERS_WITHOUT_A_TAG = 16 << 20;
const ONLY_ONE_ROOT = /: documents may contain only one root$/;
const LATE_XML_DECLARATION = /: an XML declaration must be at the start of the document$/;

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
export class MarcXmlEvents {
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
