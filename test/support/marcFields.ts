/**
 * MARC records written in tests' shorthand: `dataField('245', '14', '$aThe hobbit /$cJ.R.R. Tolkien.')` is
 * a data field with its indicators and each subfield after a `$`.
 */
import type { MarcDataField, MarcField, MarcRecord } from '../../src/marc/marcRecord.js';

export function dataField(tag: string, indicators: string, subfields: string): MarcDataField {
  return {
    tag,
    ind1: indicators[0] ?? ' ',
    ind2: indicators[1] ?? ' ',
    subfields: subfields.split('$').slice(1).map((part) => ({ code: part.slice(0, 1), value: part.slice(1) })),
  };
}

/** A book record (leader `nam`) with these fields, in this order. */
export function bookRecord(...fields: MarcField[]): MarcRecord {
  return { leader: '00000nam a2200000 a 4500', fields };
}
