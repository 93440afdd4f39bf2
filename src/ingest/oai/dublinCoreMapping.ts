/**
 * Maps a harvested oai_dc record (the metadataXml of oaiHarvester.ts) to a record document, following
 * the rules of VuFind's stock import XSLT for Dublin Core from repositories (import/xsl/dspace.xsl,
 * with ojs.xsl for the work keys):
 *
 * - id: the OAI identifier, as VuFind's harvester injects it; with `idPrefix`, a leading prefix is
 *   stripped first, as the harvester's idPrefix setting does (recordIdFromOaiIdentifier, which the
 *   caller also uses for deletions so both ends agree).
 * - title and title_short: the first dc:title that is not blank (the XSLT puts the whole title in both).
 * - author: the first non-blank dc:creator; author2: the other creators.
 * - publishDate: the first four characters of the first dc:date (the XSLT's year rule).
 * - format: the first dc:type.
 * - url: each dc:identifier that is an http or https URL.
 * - language: each dc:language, as written (a code such as `por` or a name; the page names either).
 * - publisher: each dc:publisher.
 * - institution: when given.
 * - work_keys_str_mv: under the `vufind` profile (the default), workKeysOf, i.e. the first title (and
 *   that title without a leading English article) with every creator; under `extended`,
 *   extendedWorkKeys of the statement the Dublin Core elements make (dublinCoreWorkStatement.ts: every
 *   title × every creator, DOIs and handles).
 *
 * Where the XSLT takes a string value untouched, this trims it and collapses runs of white space (a
 * title wrapped over two lines in the XML is one line here); where the XSLT's position() test would
 * leave a record whose first creator is blank without an author, the first non-blank creator is used.
 *
 * Left to others: harvesting (oaiHarvester.ts), preparing and writing documents (the pipeline).
 */
import { SaxesParser } from 'saxes';
import { InvalidArgumentError, InvalidRecordDocumentError } from '../../errors.js';
import type { RecordDocument } from '../../record/catalogRecord.js';
import { workKeysOf } from '../../work-keys/workKeys.js';
import { workStatementFromDublinCore } from '../../work-keys/extended/dublinCoreWorkStatement.js';
import { extendedWorkKeys } from '../../work-keys/extended/extendedWorkKeys.js';
import { checkKeyProfile, DEFAULT_WORK_KEY_PROFILE, type WorkKeyProfileName } from '../../work-keys/workKeyProfiles.js';

export const OAI_DC_NAMESPACE = 'http://www.openarchives.org/OAI/2.0/oai_dc/';
export const DUBLIN_CORE_NAMESPACE = 'http://purl.org/dc/elements/1.1/';

export interface DublinCoreMappingOptions {
  /** Written to the `institution` field. */
  readonly institution?: string;
  /** Stripped from the start of the OAI identifier to make the record id (VuFind's idPrefix). */
  readonly idPrefix?: string;
  /** The work-key profile: `vufind` (the default) or `extended` (src/work-keys/workKeyProfiles.ts). */
  readonly keyProfile?: WorkKeyProfileName;
}

/** The record id for an OAI identifier: the identifier, less `idPrefix` when it starts with it. */
export function recordIdFromOaiIdentifier(identifier: string, idPrefix?: string): string {
  const trimmed = identifier.trim();
  return idPrefix !== undefined && idPrefix !== '' && trimmed.startsWith(idPrefix) ? trimmed.slice(idPrefix.length) : trimmed;
}

export function recordDocumentFromDublinCore(
  metadataXml: string,
  identifier: string,
  options: DublinCoreMappingOptions = {},
): RecordDocument {
  if (typeof metadataXml !== 'string') {
    throw new InvalidArgumentError('recordDocumentFromDublinCore', 'metadataXml', 'the oai_dc metadata as XML text (a string)', metadataXml);
  }
  if (typeof identifier !== 'string') {
    throw new InvalidArgumentError('recordDocumentFromDublinCore', 'identifier', 'the record\'s OAI identifier (a string)', identifier);
  }
  if (typeof options !== 'object' || options === null) {
    throw new InvalidArgumentError('recordDocumentFromDublinCore', 'options', 'an object ({ institution, idPrefix, keyProfile })', options);
  }
  const keyProfile = options.keyProfile === undefined ? DEFAULT_WORK_KEY_PROFILE : checkKeyProfile(options.keyProfile);
  const id = recordIdFromOaiIdentifier(identifier, options.idPrefix);
  if (id === '') {
    throw new InvalidRecordDocumentError(
      identifier.trim() === '' ? 'the harvested record has no OAI identifier' : `the OAI identifier ${JSON.stringify(identifier)} is nothing but the id prefix`,
    );
  }
  const elements = dublinCoreElementsOf(metadataXml, identifier);
  const titles = nonBlank(elements.get('title'));
  const title = titles[0];
  if (title === undefined) throw new InvalidRecordDocumentError(`record ${JSON.stringify(identifier)} has no dc:title`);
  const creators = nonBlank(elements.get('creator'));
  const year = nonBlank(elements.get('date'))[0]?.slice(0, 4);
  const type = nonBlank(elements.get('type'))[0];
  const urls = nonBlank(elements.get('identifier')).filter((value) => /^https?:\/\/\S/i.test(value));
  const languages = [...new Set(nonBlank(elements.get('language')))];
  const publishers = [...new Set(nonBlank(elements.get('publisher')))];

  const doc: RecordDocument = {
    id,
    title,
    title_short: title,
    ...(creators[0] !== undefined ? { author: [creators[0]] } : {}),
    ...(creators.length > 1 ? { author2: creators.slice(1) } : {}),
    ...(year !== undefined ? { publishDate: [year] } : {}),
    ...(type !== undefined ? { format: [type] } : {}),
    ...(urls.length > 0 ? { url: urls } : {}),
    ...(languages.length > 0 ? { language: languages } : {}),
    ...(publishers.length > 0 ? { publisher: publishers } : {}),
    ...(options.institution !== undefined && options.institution.trim() !== '' ? { institution: [options.institution] } : {}),
  };
  doc.work_keys_str_mv = keyProfile === 'extended' ? extendedWorkKeys(workStatementFromDublinCore(elements)) : workKeysOf(doc);
  return doc;
}

/** Trimmed values with inner white space collapsed, blank ones left out. */
function nonBlank(values: readonly string[] | undefined): string[] {
  return (values ?? []).map((value) => value.replace(/\s+/g, ' ').trim()).filter((value) => value !== '');
}

/**
 * The text of every Dublin Core element in the record, by local name, in document order (what
 * workStatementFromDublinCore reads). Like the XSLT's `//dc:title`, elements are found at any depth
 * under the oai_dc:dc root.
 */
export function dublinCoreElementsOf(metadataXml: string, identifier: string): Map<string, string[]> {
  const elements = new Map<string, string[]>();
  const parser = new SaxesParser({ xmlns: true });
  let depth = 0;
  let open: { local: string; text: string; depth: number } | undefined;
  parser.on('opentag', (tag) => {
    depth += 1;
    if (depth === 1 && (tag.uri !== OAI_DC_NAMESPACE || tag.local !== 'dc')) {
      throw new InvalidRecordDocumentError(
        `record ${JSON.stringify(identifier)} is not oai_dc: its metadata is <${tag.name}>${tag.uri === '' ? '' : ` in ${tag.uri}`}, not <oai_dc:dc>`,
      );
    }
    if (open === undefined && tag.uri === DUBLIN_CORE_NAMESPACE) open = { local: tag.local, text: '', depth };
  });
  const onText = (text: string): void => { if (open !== undefined) open.text += text; };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', () => {
    if (open !== undefined && open.depth === depth) {
      const list = elements.get(open.local) ?? [];
      list.push(open.text);
      elements.set(open.local, list);
      open = undefined;
    }
    depth -= 1;
  });
  parser.on('error', (error) => {
    throw new InvalidRecordDocumentError(`the metadata of record ${JSON.stringify(identifier)} is not well-formed XML: ${error.message}`);
  });
  parser.write(metadataXml).close();
  return elements;
}
