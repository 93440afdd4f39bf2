/**
 * Record documents as Solr documents (toSolrDocument, for the writer, solrWriter.ts) and Solr documents
 * read back as record documents (toRecordDocument), and the plain texts of a stored field's values; also
 * how a record id is quoted in a message.
 */
import type { RecordDocument } from '../../record/catalogRecord.js';
import { SINGLE_VALUED_FIELDS } from '../../record/recordFields.js';
import type { SolrFieldMap } from './solrIndexOptions.js';
export function describeId(id: string): string {
  return JSON.stringify(id.length > 120 ? `${id.slice(0, 120)}…` : id);
}

export function textsOf(value: unknown): string[] {
  const list = value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];
  return list.map(scalarText).filter((item): item is string => typeof item === 'string');
}

export function firstText(value: unknown): string | undefined {
  return textsOf(value)[0];
}

/**
 * A Solr document as a record document: each configured Solr field is read back under its record-field
 * name. Schemas differ in which fields are multi-valued, so single-valued record fields take the first of
 * several values, and numbers or booleans become strings; anything stranger is left for
 * recordFromDocument to refuse.
 */
export function toRecordDocument(doc: Readonly<Record<string, unknown>>, fields: Readonly<SolrFieldMap>): RecordDocument {
  const out: Record<string, unknown> = {};
  for (const [name, solrName] of Object.entries(fields) as Array<[keyof SolrFieldMap, string]>) {
    const value = doc[solrName];
    if (value === undefined || value === null) continue;
    if (SINGLE_VALUED_FIELDS.has(name)) {
      const first = Array.isArray(value) ? value[0] : value;
      if (first !== undefined && first !== null) out[name] = scalarText(first);
    } else {
      out[name] = Array.isArray(value) ? value.map(scalarText) : scalarText(value);
    }
  }
  return out as RecordDocument;
}

function scalarText(value: unknown): unknown {
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
}

/** Solr's reserved field names (`_version_`, `_root_` …), which a written document never sets. */
const RESERVED_FIELD = /^_.*_$/;

/**
 * A record document as a Solr document: record fields under their mapped Solr names (a one-element list
 * in a single-valued field becomes its element), other fields under their own names when their values
 * are plain (strings, numbers, booleans or lists of them). Objects are left out, as Solr would read them
 * as atomic updates or child documents, and so are Solr's reserved `_name_` fields and empty values.
 */
export function toSolrDocument(document: Readonly<RecordDocument>, fields: Readonly<SolrFieldMap>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const mappedNames = new Set(Object.values(fields));
  for (const [name, value] of Object.entries(document)) {
    if (Object.hasOwn(fields, name) || mappedNames.has(name) || RESERVED_FIELD.test(name) || !isPlain(value)) continue;
    out[name] = value;
  }
  for (const [name, solrName] of Object.entries(fields) as Array<[keyof SolrFieldMap, string]>) {
    let value = document[name];
    if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) continue;
    if (SINGLE_VALUED_FIELDS.has(name) && Array.isArray(value)) value = value[0];
    out[solrName] = value;
  }
  return out;
}

function isPlain(value: unknown): boolean {
  const scalar = (item: unknown) => typeof item === 'string' || typeof item === 'boolean' || (typeof item === 'number' && Number.isFinite(item));
  return scalar(value) || (Array.isArray(value) && value.length > 0 && value.every(scalar));
}
