/**
 * The facet values of a stored Solr document, as the versions page counts them (src/record/recordFacets.ts
 * facetValuesOf), for the work index beside a core: workIndexFile.ts keeps them per document at sync time,
 * so that a work's facets are counted from the file instead of from all its records read from Solr. They
 * are read as the record reads its fields (solrDocuments.ts toRecordDocument, then catalogRecord.ts): the
 * configured Solr field of each facet field, one value or a list, numbers and booleans as their text.
 *
 * Left to others: which Solr names the fields have (createSolrIndex's and syncWorkIndex's `fields`),
 * storing (workIndexFile.ts) and counting (workIndexReads.ts).
 */
import { FACET_FIELDS, facetValuesOfList, type FacetField } from '../../../record/recordFacets.js';

/** The Solr field each facet field is read from (VuFind's biblio names by default: the same names). */
export type FacetFieldNames = Readonly<Record<FacetField, string>>;

/** One value a document carries in one facet field. */
export type DocumentFacetValue = readonly [FacetField, string];

/** The facet fields' Solr names out of a whole field map (createSolrIndex's `fields`, checked). */
export function facetFieldNamesOf(fields: Readonly<Record<FacetField, string>>): FacetFieldNames {
  return Object.freeze(Object.fromEntries(FACET_FIELDS.map((field) => [field, fields[field]])) as Record<FacetField, string>);
}

/** The file's record of which names its values were read from (its state `facet_fields`). */
export function describeFacetFieldNames(names: FacetFieldNames): string {
  return JSON.stringify(FACET_FIELDS.map((field) => names[field]));
}

/** Each facet field's values of the document, each once, as facetValuesOf gives them for its record. */
export function facetValuesOfDocument(document: Readonly<Record<string, unknown>>, names: FacetFieldNames): DocumentFacetValue[] {
  const out: DocumentFacetValue[] = [];
  for (const field of FACET_FIELDS) {
    const raw = document[names[field]];
    if (raw === undefined || raw === null) continue;
    const list: string[] = [];
    for (const item of Array.isArray(raw) ? raw : [raw]) {
      if (typeof item === 'string') list.push(item);
      else if (typeof item === 'number' || typeof item === 'boolean') list.push(String(item));
    }
    for (const value of facetValuesOfList(field, list)) out.push([field, value]);
  }
  return out;
}
