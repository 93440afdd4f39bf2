/**
 * A MARC 21 bibliographic record as the readers give it (ISO 2709 and MARCXML alike): the leader and the
 * fields in record order, text already decoded to Unicode (NFC). Mapping a record to a record document is
 * src/ingest/marc/vufindMarcMapping.ts's job.
 */

export interface MarcSubfield {
  readonly code: string;
  readonly value: string;
}

/** 001–009: a tag and a value. */
export interface MarcControlField {
  readonly tag: string;
  readonly value: string;
}

/** 010–999: a tag, two indicators (a blank is ' ') and subfields in the order they stand. */
export interface MarcDataField {
  readonly tag: string;
  readonly ind1: string;
  readonly ind2: string;
  readonly subfields: readonly MarcSubfield[];
}

export type MarcField = MarcControlField | MarcDataField;

export interface MarcRecord {
  /** 24 characters. */
  readonly leader: string;
  readonly fields: readonly MarcField[];
}

export function isDataField(field: MarcField): field is MarcDataField {
  return 'subfields' in field;
}

/** The value of the first control field with this tag (e.g. 001, 008). */
export function controlFieldOf(record: MarcRecord, tag: string): string | undefined {
  for (const field of record.fields) if (field.tag === tag && !isDataField(field)) return field.value;
  return undefined;
}

/** Text that may change under NFC: a quick test, so that most values skip normalize(). */
export const MAY_CHANGE_UNDER_NFC = /[\u0300-\uffff]/;

/** Text in NFC, as record fields are given. */
export function toNfc(text: string): string {
  return MAY_CHANGE_UNDER_NFC.test(text) ? text.normalize('NFC') : text;
}
