/**
 * Reads a labelled grouping fixture (test/fixtures/grouping/*.jsonl): one record a line, with the work it
 * belongs to, as MARC fields in shorthand or as Dublin Core elements:
 *
 *   {"id": "pp-1", "work": "austen-pride", "language": "eng", "marc": ["100 1 $aAusten, Jane,$d1775-1817.", "245 10 $aPride and prejudice /"]}
 *   {"id": "thesis-1", "work": "pereira-thesis", "dc": {"title": […], "creator": […], "identifier": […]}}
 *
 * A MARC field is `TAG`, a space, two indicators (a blank is a space or missing), then its subfields each
 * after a `$`; `language` becomes 008/35-37. Each record is keyed under both profiles: `vufind` as the
 * plugin keys it today (marcWorkKeys; for Dublin Core the first title with every creator, as
 * src/ingest/oai/dublinCoreMapping.ts does), `extended` through the WorkStatement adapters.
 *
 * Left to others: the keys themselves (src/), the scores (versionLists.ts).
 */
import { readFileSync } from 'node:fs';
import type { MarcDataField, MarcField, MarcRecord } from '../../src/marc/marcRecord.js';
import { marcWorkKeys } from '../../src/work-keys/marcWorkKeys.js';
import { workStatementFromMarc } from '../../src/work-keys/extended/marcWorkStatement.js';
import { workStatementFromDublinCore } from '../../src/work-keys/extended/dublinCoreWorkStatement.js';
import { extendedWorkKeys } from '../../src/work-keys/extended/extendedWorkKeys.js';
import { workKeysOf } from '../../src/work-keys/workKeys.js';
import type { KeyedRecord } from './versionLists.js';

export interface LabelledLine {
  readonly id: string;
  readonly work: string;
  readonly language?: string;
  readonly marc?: readonly string[];
  readonly dc?: Readonly<Record<string, readonly string[]>>;
}

export interface LabelledRecords {
  readonly workOf: ReadonlyMap<string, string>;
  readonly vufind: KeyedRecord[];
  readonly extended: KeyedRecord[];
}

/** A data field from `245 14 $aThe hobbit /$cJ.R.R. Tolkien.`. */
export function fieldFromShorthand(line: string): MarcField {
  const tag = line.slice(0, 3);
  if (tag < '010') return { tag, value: line.slice(4) };
  const dollar = line.indexOf('$');
  const indicators = line.slice(4, dollar).padEnd(2, ' ');
  const field: MarcDataField = {
    tag,
    ind1: indicators[0] ?? ' ',
    ind2: indicators[1] ?? ' ',
    subfields: line.slice(dollar).split('$').slice(1).map((part) => ({ code: part.slice(0, 1), value: part.slice(1) })),
  };
  return field;
}

export function marcRecordOf(line: LabelledLine): MarcRecord {
  const fixed = `970701s1997    xx            000 1 ${(line.language ?? 'und').padEnd(3).slice(0, 3)} d`;
  return {
    leader: '00000nam a2200000 a 4500',
    fields: [{ tag: '001', value: line.id }, { tag: '008', value: fixed }, ...(line.marc ?? []).map(fieldFromShorthand)],
  };
}

export function readLabelledRecords(path: string): LabelledRecords {
  const lines = readFileSync(path, 'utf8').split('\n').filter((text) => text.trim() !== '').map((text) => JSON.parse(text) as LabelledLine);
  const workOf = new Map(lines.map((line) => [line.id, line.work]));
  const vufind: KeyedRecord[] = [];
  const extended: KeyedRecord[] = [];
  for (const line of lines) {
    if (line.dc !== undefined) {
      const titles = line.dc.title ?? [];
      const creators = line.dc.creator ?? [];
      const title = titles[0] ?? '';
      vufind.push({ id: line.id, title, keys: workKeysOf({ title, author: creators.slice(0, 1), author2: creators.slice(1) }) });
      extended.push({ id: line.id, title, keys: extendedWorkKeys(workStatementFromDublinCore(line.dc)) });
    } else {
      const record = marcRecordOf(line);
      const title = (line.marc ?? []).find((field) => field.startsWith('245')) ?? '';
      vufind.push({ id: line.id, title, keys: marcWorkKeys(record) });
      extended.push({ id: line.id, title, keys: extendedWorkKeys(workStatementFromMarc(record)) });
    }
  }
  return { workOf, vufind, extended };
}
