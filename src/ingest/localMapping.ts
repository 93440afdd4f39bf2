/**
 * A library's local mapping, as VuFind's marc_local.properties or a traject settings file: where a
 * record's id comes from (fields tried in order, e.g. 001, then 035$a, then 907$a), a prefix for the ids
 * of one source (so two catalogues can share one index), `institution` and `building` as constants or
 * MARC fields, per-field overrides of the stock mapping, and whether a MARC record marked withdrawn
 * (Leader/05 `d`) is deleted. The settings are read from a small `key = value` file (parseLocalMapping;
 * docs/marc-mapping.md#local-mapping describes it) and from command-line flags (withMappingFlags), and
 * applied by pure functions of a record and the settings (localMarcDocument, withLocalSettings).
 *
 * JSON Lines documents are not touched: they are record documents already (`convert`'s output loaded
 * again with the same settings must not get its prefix twice).
 *
 * Left to others: the stock mapping (marc/vufindMarcMapping.ts, oai/dublinCoreMapping.ts), reading the
 * file from disk and the flags (src/cli/), deleting (the pipeline, recordDeletion.ts).
 */
import { describeValue, InvalidArgumentError, InvalidOptionError, InvalidRecordDocumentError } from '../errors.js';
import type { RecordDocument } from '../record/catalogRecord.js';
import { isDataField, type MarcRecord } from '../marc/marcRecord.js';
import { fieldSpecPartValues, parseFieldSpec, trimAsJavaDoes, type FieldSpecPart } from '../marc/marcFieldSpec.js';
import { checkMappingOptions, checkMarcRecord, documentOfCheckedMarc, type VufindMappingOptions } from './marc/vufindMarcMapping.js';
import { trimTrailingIsbdPunctuation } from './marc/isbdPunctuation.js';
import { recordDeletion, type RecordDeletion } from './recordDeletion.js';

/**
 * One part of a SolrMarc field specification (`001`, `035a`, `245abnp`, `008[35-37]`), as the one
 * specification reader (src/marc/marcFieldSpec.ts) parses it.
 */
export type MarcFieldSpec = FieldSpecPart;

/** Where a document field's values come from. */
export type LocalFieldSource =
  | { readonly kind: 'constant'; readonly value: string }
  | { readonly kind: 'marc'; readonly specs: readonly MarcFieldSpec[]; readonly first: boolean };

/** The document fields a local mapping may set or override. */
export const LOCAL_MAPPING_FIELDS = [
  'institution', 'building', 'title', 'title_short', 'title_uniform', 'author', 'author2', 'author_corporate',
  'format', 'publishDate', 'url',
] as const;
export type LocalMappingField = (typeof LOCAL_MAPPING_FIELDS)[number];

const SINGLE_VALUED: ReadonlySet<string> = new Set(['title', 'title_short']);
/** Fields the stock mapping trims of trailing ISBD punctuation; overrides are trimmed alike. */
const ISBD_TRIMMED: ReadonlySet<string> = new Set(['title', 'title_short', 'author', 'author2', 'author_corporate']);

export interface LocalMappingSettings {
  /** Tried in order; the first non-empty value is the id (default: 001, as the stock mapping). */
  readonly idSpecs: readonly MarcFieldSpec[];
  /** Put before every id of this source (default none). */
  readonly idPrefix: string;
  /** A MARC record with Leader/05 `d` is deleted by its id instead of loaded (default true). */
  readonly deleteWithdrawn: boolean;
  /** Set or overridden document fields. */
  readonly fields: ReadonlyMap<LocalMappingField, LocalFieldSource>;
}

export const STOCK_MAPPING: LocalMappingSettings = {
  idSpecs: [{ tag: '001', codes: '' }],
  idPrefix: '',
  deleteWithdrawn: true,
  fields: new Map(),
};

/**
 * Refuses what is not settings as parseLocalMapping gives them, naming the function called: the shape
 * only (a few comparisons, as each record is mapped with them), not each field specification.
 */
function checkSettings(settings: unknown, functionName: string): asserts settings is LocalMappingSettings {
  const candidate = settings as Partial<LocalMappingSettings> | null | undefined;
  if (typeof candidate !== 'object' || candidate === null || !Array.isArray(candidate.idSpecs) || typeof candidate.idPrefix !== 'string'
    || typeof candidate.deleteWithdrawn !== 'boolean' || !(candidate.fields instanceof Map)) {
    throw new InvalidArgumentError(functionName, 'settings', 'local mapping settings ({ idSpecs, idPrefix, deleteWithdrawn, fields }) as parseLocalMapping gives them, or STOCK_MAPPING', settings);
  }
}

/** Whether these settings change anything the stock mapping does. */
export function isStockMapping(settings: LocalMappingSettings): boolean {
  return settings.idPrefix === '' && settings.deleteWithdrawn && settings.fields.size === 0
    && settings.idSpecs.length === 1 && settings.idSpecs[0]!.tag === '001' && settings.idSpecs[0]!.positions === undefined;
}

/**
 * `001:035a:907a` → its parts, read by the one specification reader; undefined when the text is not a
 * field specification (a `, first` is taken off before, by the caller).
 */
export function parseFieldSpecs(text: string): MarcFieldSpec[] | undefined {
  try {
    return [...parseFieldSpec(text).parts];
  } catch {
    return undefined;
  }
}

/**
 * Reads a mapping file's text. `source` names the file in errors, which name the line too:
 * `InvalidOptionError` with option `local.properties:3`.
 */
export function parseLocalMapping(text: string, source: string): LocalMappingSettings {
  if (typeof text !== 'string') throw new InvalidArgumentError('parseLocalMapping', 'text', 'the text of a mapping file (a string)', text);
  if (typeof source !== 'string' || source === '') throw new InvalidArgumentError('parseLocalMapping', 'source', 'the name of the mapping file, for messages (a non-empty string)', source);
  let idSpecs = STOCK_MAPPING.idSpecs;
  let idPrefix = STOCK_MAPPING.idPrefix;
  let deleteWithdrawn = STOCK_MAPPING.deleteWithdrawn;
  const fields = new Map<LocalMappingField, LocalFieldSource>();
  const seen = new Map<string, number>();
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((raw, index) => {
    const lineNumber = index + 1;
    const fail = (problem: string): never => {
      throw new InvalidOptionError(`${source}:${lineNumber}`, problem);
    };
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith('!')) return;
    const equals = line.indexOf('=');
    if (equals < 0) fail(`expected "key = value", not ${JSON.stringify(line)}`);
    const key = line.slice(0, equals).trim();
    const value = line.slice(equals + 1).trim();
    if (seen.has(key)) fail(`"${key}" is set again (first on line ${seen.get(key)})`);
    seen.set(key, lineNumber);
    if (value === '') fail(`"${key}" has no value`);
    switch (key) {
      case 'id': {
        const specs = parseFieldSpecs(stripFirst(value));
        if (specs === undefined) fail(`"id" needs MARC fields such as 001:035a:907a, not ${JSON.stringify(value)}`);
        idSpecs = specs!;
        return;
      }
      case 'id_prefix':
        if (/\s/.test(unquoted(value))) fail('"id_prefix" cannot hold white space');
        idPrefix = unquoted(value);
        return;
      case 'delete_withdrawn':
        if (value !== 'true' && value !== 'false') fail(`"delete_withdrawn" is true or false, not ${JSON.stringify(value)}`);
        deleteWithdrawn = value === 'true';
        return;
      default: {
        if (!(LOCAL_MAPPING_FIELDS as readonly string[]).includes(key)) {
          fail(`unknown key "${key}" (the keys are id, id_prefix, delete_withdrawn, ${LOCAL_MAPPING_FIELDS.join(', ')})`);
        }
        const sourceOfField = fieldSourceOf(value);
        if (sourceOfField === undefined) {
          fail(`"${key}" needs a "quoted constant" or MARC fields such as 852b or 245abnp:246a, not ${JSON.stringify(value)}`);
        }
        fields.set(key as LocalMappingField, sourceOfField!);
      }
    }
  });
  return { idSpecs, idPrefix, deleteWithdrawn, fields };
}

function stripFirst(value: string): string {
  return value.replace(/,\s*first$/, '');
}

function unquoted(value: string): string {
  return /^".*"$/.test(value) ? value.slice(1, -1) : value;
}

function fieldSourceOf(value: string): LocalFieldSource | undefined {
  if (/^".*"$/.test(value)) {
    const constant = value.slice(1, -1).trim();
    return constant === '' ? undefined : { kind: 'constant', value: constant };
  }
  const first = /,\s*first$/.test(value);
  const specs = parseFieldSpecs(stripFirst(value));
  return specs === undefined ? undefined : { kind: 'marc', specs, first };
}

/** The command-line flags for the common cases; each replaces what a mapping file says. */
export interface MappingFlags {
  /** `001:035a:907a` */
  readonly idFields?: string;
  readonly idPrefix?: string;
  /** Constants. */
  readonly institution?: string;
  readonly building?: string;
}

/** Settings with the flags applied over them; throws InvalidOptionError naming the flag. */
export function withMappingFlags(settings: LocalMappingSettings, flags: MappingFlags): LocalMappingSettings {
  checkSettings(settings, 'withMappingFlags');
  if (typeof flags !== 'object' || flags === null) throw new InvalidArgumentError('withMappingFlags', 'flags', 'an object ({ idFields, idPrefix, institution, building })', flags);
  for (const [name, flag] of [['idFields', '--id-field'], ['idPrefix', '--id-prefix'], ['institution', '--institution'], ['building', '--building']] as const) {
    if (flags[name] !== undefined && typeof flags[name] !== 'string') throw new InvalidOptionError(flag, `needs text, not ${describeValue(flags[name])}`);
  }
  let { idSpecs, idPrefix } = settings;
  const fields = new Map(settings.fields);
  if (flags.idFields !== undefined) {
    const specs = parseFieldSpecs(flags.idFields);
    if (specs === undefined) throw new InvalidOptionError('--id-field', `needs MARC fields such as 001:035a:907a, not ${JSON.stringify(flags.idFields)}`);
    idSpecs = specs;
  }
  if (flags.idPrefix !== undefined) {
    if (/\s/.test(flags.idPrefix)) throw new InvalidOptionError('--id-prefix', 'cannot hold white space');
    idPrefix = flags.idPrefix;
  }
  for (const name of ['institution', 'building'] as const) {
    const value = flags[name]?.trim();
    if (value === undefined) continue;
    if (value === '') throw new InvalidOptionError(`--${name}`, 'needs a value');
    fields.set(name, { kind: 'constant', value });
  }
  return { ...settings, idSpecs, idPrefix, fields };
}

/** The values of field specifications in a record, SolrMarc's way (src/marc/marcFieldSpec.ts), trimmed. */
export function marcValues(record: MarcRecord, specs: readonly MarcFieldSpec[]): string[] {
  const values: string[] = [];
  for (const spec of specs) values.push(...specValuesOf(record, spec));
  return values;
}

function specValuesOf(record: MarcRecord, spec: MarcFieldSpec): string[] {
  return fieldSpecPartValues(record, spec).map(trimAsJavaDoes).filter((value) => value !== '');
}

/** A MARC record's id under these settings (prefix included); throws InvalidRecordDocumentError when none. */
export function localIdOf(record: MarcRecord, settings: LocalMappingSettings): string {
  for (const spec of settings.idSpecs) {
    const values = specValuesOf(record, spec);
    // Of several 001s the last, as the stock mapping (marc4j keeps the last 001 a record has).
    const value = spec.tag === '001' && spec.positions === undefined ? values.at(-1) : values[0];
    if (value !== undefined) return settings.idPrefix + value;
  }
  const named = settings.idSpecs.map(describeSpec).join(', ');
  throw new InvalidRecordDocumentError(settings.idSpecs.length === 1 && settings.idSpecs[0]!.tag === '001' && settings.idSpecs[0]!.positions === undefined
    ? 'the MARC record has no 001 (control number), so it has no id (a local mapping can take it from another field: --id-field)'
    : `the MARC record has none of the id fields (${named}), so it has no id`);
}

function describeSpec(spec: MarcFieldSpec): string {
  if (spec.positions !== undefined) return `${spec.tag}[${spec.positions.first}-${spec.positions.last}]`;
  return spec.codes === '' ? spec.tag : `${spec.tag}$${spec.codes.split('').join('$')}`;
}

/**
 * A MARC record to a record document under the local settings: the stock VuFind mapping with the id from
 * the id fields (and prefix), then the local fields set or overridden. A record marked withdrawn
 * (Leader/05 `d`) is answered as a deletion of that id when the settings say so.
 */
export function localMarcDocument(record: MarcRecord, settings: LocalMappingSettings, options: VufindMappingOptions = {}): RecordDocument | RecordDeletion {
  checkMarcRecord(record, 'localMarcDocument');
  checkSettings(settings, 'localMarcDocument');
  checkMappingOptions(options, 'localMarcDocument');
  const id = localIdOf(record, settings);
  if (settings.deleteWithdrawn && record.leader.charAt(5) === 'd') return recordDeletion(id);
  // The stock mapping takes its id from the last 001: give it the local id there (the rest of it never
  // reads 001), unless that is where the id came from (most records: one 001, no prefix).
  const withId: MarcRecord = stockIdOf(record) === id ? record : { leader: record.leader, fields: [{ tag: '001', value: id }, ...record.fields.filter((field) => field.tag !== '001')] };
  const document = documentOfCheckedMarc(withId, options);
  for (const [field, source] of settings.fields) setField(document, field, source.kind === 'constant' ? [source.value] : marcValues(record, source.specs), source);
  return document;
}

/** The id the stock mapping reads (its last 001 control field, trimmed), or undefined without one. */
function stockIdOf(record: MarcRecord): string | undefined {
  for (let i = record.fields.length - 1; i >= 0; i--) {
    const field = record.fields[i]!;
    if (field.tag === '001' && !isDataField(field)) return trimAsJavaDoes(field.value);
  }
  return undefined;
}

function setField(document: RecordDocument, field: LocalMappingField, found: readonly string[], source: LocalFieldSource): void {
  let values = ISBD_TRIMMED.has(field) ? found.map(trimTrailingIsbdPunctuation).filter((value) => value !== '') : [...found];
  values = [...new Set(values)];
  if (source.kind === 'marc' && source.first) values = values.slice(0, 1);
  delete document[field];
  if (values.length === 0) return;
  (document as Record<string, unknown>)[field] = SINGLE_VALUED.has(field) ? values[0]! : values;
}

/**
 * A document mapped from something other than MARC (Dublin Core) under the local settings: the id prefix,
 * and the constants among the local fields (MARC field sources do not apply to it).
 */
export function withLocalSettings(document: RecordDocument, settings: LocalMappingSettings): RecordDocument {
  if (typeof document !== 'object' || document === null || typeof document.id !== 'string') {
    throw new InvalidArgumentError('withLocalSettings', 'document', 'a record document with an id (a string)', document);
  }
  checkSettings(settings, 'withLocalSettings');
  const local: RecordDocument = { ...document, id: settings.idPrefix + document.id };
  for (const [field, source] of settings.fields) if (source.kind === 'constant') setField(local, field, [source.value], source);
  return local;
}
