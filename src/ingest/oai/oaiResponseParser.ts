/**
 * Reads one OAI-PMH 2.0 response as its text arrives (saxes, namespace-aware), so a page of tens of
 * megabytes is never held whole: records are handed out as soon as their closing tag has been read,
 * and the rest of the response (responseDate, errors, the resumption token, Identify's fields) is
 * reported when the response ends.
 *
 * Each record's metadata element is written back out as a standalone XML string: the element, its
 * subtree, and declarations for every namespace prefix it uses that was declared outside it (on
 * <metadata>, <record> or the <OAI-PMH> root), so that another parser can read it alone.
 *
 * Left to others: writing the metadata element out (standaloneElementWriter.ts); HTTP, retries and paging
 * (oaiHarvester.ts); what the metadata means
 * (dublinCoreMapping.ts and the MARC mapping).
 */
import { SaxesParser, type SaxesTagNS } from 'saxes';
import { MalformedOaiResponseError } from '../../errors.js';
import { StandaloneElementWriter } from './standaloneElementWriter.js';

export const OAI_PMH_NAMESPACE = 'http://www.openarchives.org/OAI/2.0/';

/** One <record> of a ListRecords response, as read. */
export interface ParsedOaiRecord {
  /** The header's identifier; undefined when the header has none (or an empty one). */
  readonly identifier: string | undefined;
  readonly datestamp: string;
  readonly setSpecs: readonly string[];
  /** The header carries `status="deleted"`. */
  readonly deleted: boolean;
  /** The first element inside <metadata>, serialised standalone; undefined when there is none. */
  readonly metadataXml: string | undefined;
  /** How many elements <metadata> holds (OAI-PMH allows exactly one). */
  readonly metadataElementCount: number;
}

/** An <error> of the response: the OAI-PMH error code and the repository's own words. */
export interface OaiErrorElement {
  readonly code: string;
  readonly message: string;
}

/** What a response says besides its records, known once the whole response has been read. */
export interface OaiResponseSummary {
  readonly responseDate: string | undefined;
  readonly errors: readonly OaiErrorElement[];
  /** The local name of the verb element (`Identify`, `ListRecords`), when the response has one. */
  readonly verbElement: string | undefined;
  /** The resumption token's text, trimmed; undefined when the element is absent. */
  readonly resumptionToken: string | undefined;
  /** Identify's simple fields by local name (`granularity`, `earliestDatestamp`, ...), first value each. */
  readonly identify: ReadonlyMap<string, string>;
}

export { MalformedOaiResponseError };

/** Header fields of the record being read. */
interface RecordInProgress {
  identifier: string | undefined;
  datestamp: string;
  setSpecs: string[];
  deleted: boolean;
  metadataXml: string | undefined;
  metadataElementCount: number;
}

/**
 * Element depths inside the response: 1 is <OAI-PMH>, 2 a verb element or responseDate, 3 a <record>
 * or <resumptionToken> of ListRecords (or a field of Identify), 4 <header>/<metadata>, 5 their children.
 */
const RECORD_DEPTH = 3;
const RECORD_PART_DEPTH = 4;
const METADATA_ROOT_DEPTH = 5;

export class OaiResponseParser {
  private readonly parser = new SaxesParser({ xmlns: true, position: true });
  /** Namespace URI and local name of each open element, outermost first. */
  private readonly open: Array<{ readonly uri: string; readonly local: string }> = [];
  private readonly finished: ParsedOaiRecord[] = [];
  private readonly errors: OaiErrorElement[] = [];
  private readonly identify = new Map<string, string>();
  private responseDate: string | undefined;
  private verbElement: string | undefined;
  private resumptionToken: string | undefined;
  private record: RecordInProgress | undefined;
  /** Text of the simple element being read, when it is one whose text is wanted. */
  private capturedText: string | undefined;
  private capturedErrorCode: string | undefined;
  private inMetadata = false;
  private metadataWriter: StandaloneElementWriter | undefined;

  constructor() {
    this.parser.on('opentag', (tag) => this.onOpen(tag));
    this.parser.on('closetag', (tag) => this.onClose(tag));
    this.parser.on('text', (text) => this.onText(text));
    this.parser.on('cdata', (text) => this.onText(text));
    this.parser.on('error', (error) => {
      throw new MalformedOaiResponseError(`not well-formed XML: ${error.message}`, { cause: error });
    });
  }

  /** Feeds the next piece of the response text. Throws MalformedOaiResponseError. */
  write(text: string): void {
    this.parser.write(text);
  }

  /** The records completed since the last call, in document order. */
  takeRecords(): ParsedOaiRecord[] {
    return this.finished.splice(0, this.finished.length);
  }

  /** Ends the response: call after the last write, then take the remaining records. */
  finish(): OaiResponseSummary {
    this.parser.close();
    return {
      responseDate: this.responseDate,
      errors: this.errors,
      verbElement: this.verbElement,
      resumptionToken: this.resumptionToken,
      identify: this.identify,
    };
  }

  private onOpen(tag: SaxesTagNS): void {
    const depth = this.open.length + 1;
    this.open.push({ uri: tag.uri, local: tag.local });
    if (this.metadataWriter !== undefined) {
      this.metadataWriter.open(tag);
      return;
    }
    if (this.inMetadata && depth === METADATA_ROOT_DEPTH) {
      const record = this.record;
      if (record !== undefined) {
        record.metadataElementCount += 1;
        // Only the first element is kept; a second one (which OAI-PMH forbids) is only counted.
        if (record.metadataElementCount === 1) {
          this.metadataWriter = new StandaloneElementWriter();
          this.metadataWriter.open(tag);
        }
      }
      return;
    }
    if (tag.uri !== OAI_PMH_NAMESPACE) {
      if (depth === 1) {
        throw new MalformedOaiResponseError(
          `not an OAI-PMH response: the root element is ${describeElement(tag)}, not <OAI-PMH> in ${OAI_PMH_NAMESPACE}`,
        );
      }
      return;
    }
    const parent = this.open[depth - 2]?.local;
    switch (depth) {
      case 1:
        if (tag.local !== 'OAI-PMH') {
          throw new MalformedOaiResponseError(`not an OAI-PMH response: the root element is ${describeElement(tag)}`);
        }
        return;
      case 2:
        if (tag.local === 'responseDate') this.capturedText = '';
        else if (tag.local === 'error') {
          this.capturedText = '';
          this.capturedErrorCode = tag.attributes.code?.value ?? '';
        } else if (tag.local !== 'request') this.verbElement ??= tag.local;
        return;
      case RECORD_DEPTH:
        if (parent === 'Identify') this.capturedText = '';
        else if (parent === 'ListRecords' && tag.local === 'record') {
          this.record = { identifier: undefined, datestamp: '', setSpecs: [], deleted: false, metadataXml: undefined, metadataElementCount: 0 };
        } else if (parent === 'ListRecords' && tag.local === 'resumptionToken') this.capturedText = '';
        return;
      case RECORD_PART_DEPTH:
        if (this.record === undefined) return;
        if (tag.local === 'header') this.record.deleted = tag.attributes.status?.value.trim().toLowerCase() === 'deleted';
        else if (tag.local === 'metadata') this.inMetadata = true;
        return;
      case METADATA_ROOT_DEPTH:
        if (this.record !== undefined && parent === 'header') this.capturedText = '';
        return;
      default:
    }
  }

  private onText(text: string): void {
    if (this.metadataWriter !== undefined) this.metadataWriter.text(text);
    else if (this.capturedText !== undefined) this.capturedText += text;
  }

  private onClose(tag: SaxesTagNS): void {
    const depth = this.open.length;
    this.open.pop();
    if (this.metadataWriter !== undefined) {
      if (this.metadataWriter.close(tag)) {
        if (this.record !== undefined) this.record.metadataXml = this.metadataWriter.finish();
        this.metadataWriter = undefined;
      }
      return;
    }
    if (this.inMetadata && depth >= METADATA_ROOT_DEPTH) return;
    if (tag.uri !== OAI_PMH_NAMESPACE) return;
    const text = this.capturedText;
    this.capturedText = undefined;
    const parent = this.open[depth - 2]?.local;
    switch (depth) {
      case 2:
        if (tag.local === 'responseDate') this.responseDate = text?.trim();
        else if (tag.local === 'error') {
          this.errors.push({ code: this.capturedErrorCode ?? '', message: (text ?? '').trim() });
          this.capturedErrorCode = undefined;
        }
        return;
      case RECORD_DEPTH:
        if (parent === 'Identify' && text !== undefined && !this.identify.has(tag.local)) this.identify.set(tag.local, text.trim());
        else if (parent === 'ListRecords' && tag.local === 'resumptionToken') this.resumptionToken = (text ?? '').trim();
        else if (parent === 'ListRecords' && tag.local === 'record' && this.record !== undefined) {
          this.finished.push(this.record);
          this.record = undefined;
        }
        return;
      case RECORD_PART_DEPTH:
        if (tag.local === 'metadata') this.inMetadata = false;
        return;
      case METADATA_ROOT_DEPTH: {
        const record = this.record;
        if (record === undefined || parent !== 'header' || text === undefined) return;
        const value = text.trim();
        if (tag.local === 'identifier') record.identifier = value === '' ? undefined : value;
        else if (tag.local === 'datestamp') record.datestamp = value;
        else if (tag.local === 'setSpec' && value !== '') record.setSpecs.push(value);
        return;
      }
      default:
    }
  }
}

function describeElement(tag: SaxesTagNS): string {
  return tag.uri === '' ? `<${tag.name}>` : `<${tag.name}> in ${tag.uri}`;
}
