/**
 * Solr documents read back as record documents (toRecordDocument), and the plain texts of a stored field's
 * values; also how a record id is quoted in a message.
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
