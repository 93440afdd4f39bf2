/**
 * The two work-key profiles, one table: `vufind` (VuFind 7.1.1's keys, byte for byte) and `extended`
 * (src/work-keys/extended/). Each row names the profile, says what it is, the kinds of key it makes
 * (workKeyKinds.ts), the document fields it reads, and keys a record document;
 * MARC records are keyed by src/work-keys/marcWorkKeys.ts (vufind) and extended/marcWorkStatement.ts with
 * extendedWorkKeys (extended). docs/work-keys.md states every rule of both.
 *
 * WORK_KEY_PROFILE_NAMES is the one list of names (the type and the table follow it), and
 * DEFAULT_WORK_KEY_PROFILE the profile a document is keyed with where none is named, as VuFind's importer
 * keys it. checkKeyProfile refuses any other name where a profile is chosen (the indexes' and writers'
 * option `keyProfile`, the CLI's `--key-profile`).
 *
 * Left to others: recording the profile an index was keyed with (src/adapters/sqlite/embeddedIndex.ts),
 * keying MARC and Dublin Core records (the mappings in src/ingest/).
 */
import { InvalidOptionError } from '../errors.js';
import { KEYED_FIELD_NAMES } from '../record/recordFields.js';
import { workStatementFromDocument, WORK_STATEMENT_FIELDS } from './extended/documentWorkStatement.js';
import { extendedWorkKeys } from './extended/extendedWorkKeys.js';
import type { WorkKeyPrefix } from './workKeyKinds.js';
import { workKeysOf } from './workKeys.js';

/** The profiles' names, in the order they are listed everywhere. */
export const WORK_KEY_PROFILE_NAMES = ['vufind', 'extended'] as const;

export type WorkKeyProfileName = (typeof WORK_KEY_PROFILE_NAMES)[number];

/** The profile a document is keyed with when no profile is named (a writer's, a mapping's, Solr's). */
export const DEFAULT_WORK_KEY_PROFILE: WorkKeyProfileName = 'vufind';

export interface WorkKeyProfile {
  readonly name: WorkKeyProfileName;
  readonly description: string;
  /** The kinds of key it makes (a librarian's `GL` keys come under either). */
  readonly kinds: readonly WorkKeyPrefix[];
  /** The keys of a record document (VuFind field names); never throws. */
  readonly keysOfDocument: (document: unknown) => string[];
  /** The document fields keysOfDocument reads: a document holding only these has the same keys. */
  readonly keyedFields: readonly string[];
}

export const WORK_KEY_PROFILES: Readonly<Record<WorkKeyProfileName, WorkKeyProfile>> = {
  vufind: {
    name: 'vufind',
    description: "VuFind 7.1.1's work keys, byte for byte: UT <uniform title> and AT <author> <title> for every author and title form, as VuFind's importer writes work_keys_str_mv.",
    kinds: ['UT', 'AT'],
    keysOfDocument: (document) => workKeysOf(document as Parameters<typeof workKeysOf>[0]),
    keyedFields: KEYED_FIELD_NAMES,
  },
  extended: {
    name: 'extended',
    description: "VuFind's title forms with the main author, plus titles without subtitle, article or author's name, '&' read; no generic uniform titles and no added-entry names beside a main entry; translations and DOI/handle keys.",
    kinds: ['UT', 'AT', 'UA', 'TR', 'DOI', 'HDL'],
    keysOfDocument: (document) => extendedWorkKeys(workStatementFromDocument(document)),
    keyedFields: WORK_STATEMENT_FIELDS,
  },
};

/** The profile name given, or InvalidOptionError naming the option and the profiles there are. */
export function checkKeyProfile(value: unknown, option = 'keyProfile'): WorkKeyProfileName {
  if (typeof value === 'string' && Object.hasOwn(WORK_KEY_PROFILES, value)) return value as WorkKeyProfileName;
  const named = typeof value === 'string' ? JSON.stringify(value) : String(value);
  throw new InvalidOptionError(option, `${named} is not a work-key profile; use ${WORK_KEY_PROFILE_NAMES.map((name) => `'${name}'`).join(' or ')}`);
}
