/**
 * `koa-catalog-versions/ingest`: loading a library's records into an index from code, as the
 * `catalog-versions` command does. Readers (JSON Lines, MARC 21 ISO 2709 and MARCXML, OAI-PMH) yield
 * source records with their positions; mapping steps make record documents as VuFind's importer would;
 * `runIngest` prepares them and hands them to a writer (`openEmbeddedIndex(…).openWriter()`, or
 * `solrIngestWriter` from `koa-catalog-versions/solr`). docs/loading.md tells the rules.
 */
export { describePosition, describeRejection } from './sourceRecord.js';
export type { RecordPosition, SourceItem } from './sourceRecord.js';
export { runIngest, IngestStoppedError, DEFAULT_BATCH_SIZE } from './pipeline.js';
export type { IngestWriter, IngestOptions, IngestSummary, IngestProgress, IngestRejection, StoredContent, WriteRefusal } from './pipeline.js';
export { readJsonLines } from './readers/jsonLinesReader.js';
export { readIso2709 } from './marc/iso2709Reader.js';
export { readMarcXml, parseMarcXml } from './marc/marcXmlReader.js';
export type { MarcRecord, MarcField, MarcDataField, MarcControlField, MarcSubfield } from './marc/marcRecord.js';
export { recordDocumentFromMarc } from './marc/vufindMarcMapping.js';
export { recordDocumentFromDublinCore } from './oai/dublinCoreMapping.js';
export { harvestOai } from './oai/oaiHarvester.js';
export {
  OaiError, OaiRequestError, MalformedOaiResponseError, MalformedMarcError, UnrecognisedRecordFileError, InvalidArgumentError, InvalidCallError,
} from '../errors.js';
export type { OaiHarvest, OaiHarvestOptions, OaiHarvestSummary, HarvestedRecord } from './oai/oaiHarvester.js';
export { harvestedRecordToDocument } from './oai/harvestedRecords.js';
export { detectRecordFormat, harvestFormatFor, RECORD_FORMATS, RECORD_FILE_FORMATS, HARVEST_FORMATS, HARVEST_PREFIXES } from './recordFormats.js';
export type { RecordFormat, RecordFileFormat, HarvestFormat, HarvestMapping } from './recordFormats.js';
