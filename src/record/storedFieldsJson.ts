/**
 * The JSON of a prepared document's stored fields, made where the document was mapped: the fields the
 * embedded index keeps in its `document` column (recordFields.ts, the `stored` column), in that table's
 * order, each value as JSON.stringify writes it, in one JSON object. A mapping worker's document comes as
 * JSON text that holds them already (src/ingest/mappingOutcomeTexts.ts, storedFieldRuns), so the ingest side
 * remembers that text for the very object parsed from it, which nothing changes before it is written (a
 * copy, as a grouping decision makes, has none and is written from its fields). The embedded index's
 * writer (src/adapters/sqlite/tableWriters.ts) takes it when there is one. Kept here, in the record's
 * shared core, because both sides read it and neither may import the other.
 */
const storedFieldsJson = new WeakMap<object, string>();

export function rememberStoredFieldsJson(document: object, json: string): void {
  storedFieldsJson.set(document, json);
}

/** The JSON of the document's stored fields made where it was mapped, when it was (rememberStoredFieldsJson). */
export function storedFieldsJsonOf(document: object): string | undefined {
  return storedFieldsJson.get(document);
}
