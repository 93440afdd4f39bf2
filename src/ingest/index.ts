/**
 * `koa-catalog-versions/ingest`: loading a library's records into an index from code, as the
 * `catalog-versions` command does. Readers (JSON Lines, MARC 21 ISO 2709 and MARCXML, OAI-PMH) yield
 * source records with their positions; mapping steps make record documents as VuFind's importer would;
 * `runIngest` prepares them and hands them to a writer (`openEmbeddedIndex(…).openWriter()`, or
 * `solrIngestWriter` from `koa-catalog-versions/solr`); `loadDocuments` does so for documents a program
 * already holds. docs/loading.md tells the rules.
 */
export { describePosition, describeRejection } from '../record/sourceRecord.js';
export type { RecordPosition, SourceItem } from '../record/sourceRecord.js';
export { runIngest, IngestStoppedError, DEFAULT_BATCH_SIZE } from './pipeline.js';
export type { IngestOptions, IngestSummary, IngestCounts, IngestProgress, IngestRejection, IngestDuplicate } from './pipeline.js';
export type { RecordBatchMapping, MappingOutcome } from './batchMapping.js';
export type { IngestWriter, StoredContent, WriteRefusal, HarvestState, PreparedRecordDocument } from '../ports.js';
export { loadDocuments } from './loadDocuments.js';
export type { LoadOptions, LoadSummary, RejectedDocument } from './loadDocuments.js';
export { harvestStateFile } from './harvestState.js';
export { recordDeletion, isRecordDeletion } from './recordDeletion.js';
export type { RecordDeletion } from './recordDeletion.js';
export { parseLocalMapping, withMappingFlags, localMarcDocument, withLocalSettings, STOCK_MAPPING } from './localMapping.js';
export type { LocalMappingSettings, LocalFieldSource, MarcFieldSpec, MappingFlags } from './localMapping.js';
export { readJsonLines } from './readers/jsonLinesReader.js';
export { readIso2709 } from '../marc/iso2709Reader.js';
export { readMarcXml, parseMarcXml } from '../marc/marcXmlReader.js';
export type { MarcRecord, MarcField, MarcDataField, MarcControlField, MarcSubfield } from '../marc/marcRecord.js';
export { recordDocumentFromMarc } from './marc/vufindMarcMapping.js';
export { recordDocumentFromDublinCore } from './oai/dublinCoreMapping.js';
export { harvestOai } from './oai/oaiHarvester.js';
export {
  OaiError, OaiRequestError, MalformedOaiResponseError, MalformedMarcError, UnrecognisedRecordFileError, InvalidArgumentError, InvalidCallError,
} from '../errors.js';
export type { OaiHarvest, OaiHarvestOptions, OaiHarvestSummary, HarvestedRecord } from './oai/oaiHarvester.js';
export { harvestedRecordToDocument } from './oai/harvestedRecords.js';
export { detectRecordFormat, harvestFormatFor, RECORD_FORMATS, RECORD_FILE_FORMATS, HARVEST_FORMATS, HARVEST_PREFIXES } from './recordFormats.js';
export type { RecordFormat, RecordFileFormat, RecordBytesReading, HarvestFormat, HarvestMapping } from './recordFormats.js';
export { writerWithDecisions } from '../writerWithDecisions.js';
export { decisionsFromCurationFile, curationFileText } from '../work-keys/curation/curationFile.js';
export type { CurationDecision } from '../work-keys/curation/curationDecisions.js';
