/**
 * The mapping step of a harvest: a harvested record's metadata, by its metadata prefix, to a record
 * document. MARCXML (`marc21`) goes through the same VuFind mapping as MARC files; Dublin Core (`oai_dc`)
 * through dublinCoreMapping.ts. The prefixes listed here are the ones `catalog-versions harvest` takes.
 */
import { InvalidRecordDocumentError } from '../../errors.js';
import { parseMarcXml } from '../marc/marcXmlReader.js';
import { localMarcDocument, STOCK_MAPPING, withLocalSettings, type LocalMappingSettings } from '../localMapping.js';
import { recordDocumentFromDublinCore } from './dublinCoreMapping.js';
import type { HarvestedRecord } from './oaiHarvester.js';

export const HARVEST_PREFIXES: readonly string[] = ['marc21', 'oai_dc'];

export interface HarvestMapping {
  readonly prefix: string;
  /** Written to the `institution` field of Dublin Core records. */
  readonly institution?: string;
  /** The local mapping (localMapping.ts): MARC records go through it whole, Dublin Core takes its prefix and constants. */
  readonly local?: LocalMappingSettings;
}

export function harvestedRecordToDocument(record: HarvestedRecord, mapping: HarvestMapping): unknown {
  if (mapping.prefix === 'oai_dc') {
    const document = recordDocumentFromDublinCore(record.metadataXml, record.identifier, mapping.institution !== undefined ? { institution: mapping.institution } : {});
    return mapping.local === undefined ? document : withLocalSettings(document, mapping.local);
  }
  let marc;
  try {
    marc = parseMarcXml(record.metadataXml);
  } catch (error) {
    throw new InvalidRecordDocumentError(`its MARCXML cannot be read: ${(error as Error).message}`);
  }
  if (marc.length !== 1) throw new InvalidRecordDocumentError(`its metadata holds ${marc.length} MARC records, not one`);
  return localMarcDocument(marc[0]!, mapping.local ?? STOCK_MAPPING);
}
