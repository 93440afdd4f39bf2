/**
 * The mapping step of a harvest: a harvested record's metadata, by its metadata prefix, to a record
 * document, through the harvest row of src/ingest/recordFormats.ts (the one format table). An unknown
 * prefix is refused with InvalidOptionError naming the supported ones.
 */
import { InvalidArgumentError } from '../../errors.js';
import { harvestFormatFor, type HarvestMapping } from '../recordFormats.js';
import type { HarvestedRecord } from './oaiHarvester.js';

export { HARVEST_PREFIXES } from '../recordFormats.js';
export type { HarvestMapping } from '../recordFormats.js';

export function harvestedRecordToDocument(record: HarvestedRecord, mapping: HarvestMapping): unknown {
  if (typeof mapping !== 'object' || mapping === null) {
    throw new InvalidArgumentError('harvestedRecordToDocument', 'mapping', 'an object with the metadata prefix ({ prefix })', mapping);
  }
  const format = harvestFormatFor(mapping.prefix);
  if (typeof record !== 'object' || record === null || typeof record.metadataXml !== 'string') {
    throw new InvalidArgumentError('harvestedRecordToDocument', 'record', 'a harvested record ({ identifier, metadataXml, … })', record);
  }
  return format.toDocument(record, mapping);
}
