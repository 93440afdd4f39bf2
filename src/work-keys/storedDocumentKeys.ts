/**
 * The work keys of one stored Solr document, for the work index beside a core
 * (src/adapters/solr/workIndex/), under a
 * key profile (`vufind` or `extended`, src/work-keys/workKeyProfiles.ts): `keysOf(document, profile)`.
 *
 * - A MARC core (VuFind's `fullrecord`, binary MARC or MARCXML as `record_format` says; without it, text
 *   starting with `<` is MARCXML) is read by the project's MARC readers and keyed as `load` keys MARC:
 *   `vufind` by src/work-keys/marcWorkKeys.ts, `extended` by extendedWorkKeys over
 *   src/work-keys/extended/marcWorkStatement.ts. SolrMarc stores
 *   binary MARC with its three separators written `#29;`, `#30;`, `#31;`; they are read back first.
 * - Any other core is keyed from its stored fields, by a configurable field list (STORED_KEY_FIELDS, names
 *   or `prefix*`): every title and every creator (and for `extended` DOI/handle identifiers and the
 *   language), read as one Dublin Core statement; `vufind` keys them, with uniform titles, through
 *   workKeysOf. Fields named under `workKeys` add the keys they hold as they are.
 *
 * A document that cannot be keyed (no readable fullrecord, no stored title) gives no keys and says why, so
 * the sync reports it with counts. A plain function of the document: it sits with the key profiles, not in
 * the adapter, and reads MARC through src/marc/, so that adapters keep off the ingest modules. Left to
 * others: storing and walking the core
 * (src/adapters/solr/workIndex/workIndexFile.ts, workIndexSync.ts).
 */
import { InvalidOptionError } from '../errors.js';
import { parseIso2709 } from '../marc/iso2709Reader.js';
import type { MarcRecord } from '../marc/marcRecord.js';
import { marcWorkKeys } from './marcWorkKeys.js';
import { workStatementFromMarc } from './extended/marcWorkStatement.js';
import { parseMarcXml } from '../marc/marcXmlReader.js';
import { workStatementFromDublinCore } from './extended/dublinCoreWorkStatement.js';
import { extendedWorkKeys } from './extended/extendedWorkKeys.js';
import type { WorkKeyProfileName } from './workKeyProfiles.js';
import { workKeysOf } from './workKeys.js';

/** Which stored fields hold what, by name or `prefix*` (VuFind's DC imports, an aggregator's `dc.*` fields). */
export interface StoredKeyFields {
  readonly titles: readonly string[];
  /** Uniform titles (`UT` keys under `vufind`). */
  readonly uniformTitles: readonly string[];
  readonly creators: readonly string[];
  readonly identifiers: readonly string[];
  readonly languages: readonly string[];
  /** Fields holding work keys someone else wrote (taken as they are, beside the keys made); none by default. */
  readonly workKeys: readonly string[];
}

export const STORED_KEY_FIELDS: StoredKeyFields = Object.freeze({
  titles: Object.freeze(['title', 'title_short', 'title_full', 'dc.title*']),
  uniformTitles: Object.freeze(['title_uniform']),
  creators: Object.freeze(['author', 'author2', 'dc.creator*']),
  identifiers: Object.freeze(['dc.identifier*']),
  languages: Object.freeze(['dc.language*']),
  workKeys: Object.freeze([]),
});

/** The fields keysOf reads from Solr (`fl`), for a field list: wildcards as Solr's `fl` takes them. */
export function storedFieldsRead(fields: StoredKeyFields = STORED_KEY_FIELDS): string[] {
  return [...new Set(['fullrecord', 'record_format', ...Object.values(fields).flat() as string[]])];
}

/** Checks a field list given as an option; names the option on a wrong one. */
export function checkStoredKeyFields(option: string, value: unknown): StoredKeyFields {
  if (value === undefined) return STORED_KEY_FIELDS;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InvalidOptionError(option, 'must be an object { titles, uniformTitles, creators, identifiers, languages, workKeys } of Solr field names or prefix*');
  const out: Record<string, readonly string[]> = { ...STORED_KEY_FIELDS };
  for (const [part, names] of Object.entries(value)) {
    if (!Object.hasOwn(STORED_KEY_FIELDS, part)) throw new InvalidOptionError(`${option}.${part}`, `is not one of ${Object.keys(STORED_KEY_FIELDS).join(', ')}`);
    if (!Array.isArray(names) || names.some((name) => typeof name !== 'string' || !/^[A-Za-z_][A-Za-z0-9_.]*\*?$/.test(name))) {
      throw new InvalidOptionError(`${option}.${part}`, 'must be a list of Solr field names, each optionally ending in *');
    }
    out[part] = Object.freeze([...names as string[]]);
  }
  return Object.freeze(out) as unknown as StoredKeyFields;
}

/** A document's keys, or why it has none it could be given. */
export interface DocumentKeys {
  readonly keys: string[];
  /** Set when the document could not be keyed at all (as opposed to keyed with no keys). */
  readonly unkeyable?: string;
}

export function keysOf(document: Readonly<Record<string, unknown>>, profile: WorkKeyProfileName, fields: StoredKeyFields = STORED_KEY_FIELDS): DocumentKeys {
  const fullrecord = firstString(document.fullrecord);
  if (fullrecord !== undefined) {
    const record = marcOf(fullrecord, firstString(document.record_format));
    if (typeof record === 'string') return { keys: [], unkeyable: record };
    return { keys: profile === 'extended' ? extendedWorkKeys(workStatementFromMarc(record)) : marcWorkKeys(record) };
  }
  const given = valuesOf(document, fields.workKeys);
  const titles = valuesOf(document, fields.titles);
  if (titles.length === 0) return given.length > 0 ? { keys: given } : { keys: [], unkeyable: 'no stored title (and no fullrecord)' };
  const creators = valuesOf(document, fields.creators);
  const made = profile === 'vufind'
    ? workKeysOf({ title: titles as unknown as string, title_uniform: valuesOf(document, fields.uniformTitles), author: creators })
    : extendedWorkKeys(workStatementFromDublinCore({
      title: titles, creator: creators, identifier: valuesOf(document, fields.identifiers), language: valuesOf(document, fields.languages),
    }));
  return { keys: [...new Set([...made, ...given])] };
}

/** The MARC record of a stored fullrecord, or why it cannot be read. */
function marcOf(fullrecord: string, format: string | undefined): MarcRecord | string {
  const xml = format === undefined ? fullrecord.trimStart().startsWith('<') : /xml/i.test(format);
  try {
    if (xml) {
      const [record] = parseMarcXml(fullrecord);
      return record ?? 'fullrecord holds no MARCXML record';
    }
    const bytes = Buffer.from(fullrecord.replaceAll('#29;', '\x1d').replaceAll('#30;', '\x1e').replaceAll('#31;', '\x1f'), 'utf8');
    const item = parseIso2709(bytes, 'fullrecord')[0];
    if (item?.kind === 'record') return item.record;
    return `fullrecord is not readable MARC${item?.kind === 'problem' ? ` (${item.reason})` : ''}`;
  } catch (error) {
    return `fullrecord is not readable ${xml ? 'MARCXML' : 'MARC'} (${error instanceof Error ? error.message : String(error)})`;
  }
}

/** The distinct non-blank strings of the fields named (`prefix*` matches every field starting so), in list then document order. */
function valuesOf(document: Readonly<Record<string, unknown>>, names: readonly string[]): string[] {
  const values = new Set<string>();
  const add = (value: unknown) => {
    for (const item of Array.isArray(value) ? value : [value]) if (typeof item === 'string' && item.trim() !== '') values.add(item);
  };
  for (const name of names) {
    if (!name.endsWith('*')) { add(document[name]); continue; }
    const prefix = name.slice(0, -1);
    for (const [field, value] of Object.entries(document)) if (field.startsWith(prefix)) add(value);
  }
  return [...values];
}

function firstString(value: unknown): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' && first !== '' ? first : undefined;
}
