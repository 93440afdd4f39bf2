/**
 * What a record document (VuFind field names, as workKeysOf in workKeys.ts takes it) says about its
 * work: `title` (with `title_short` as its title proper when the title starts with it), `title_uniform`,
 * `author` as the main entry, `author2` and `author_corporate` as added entries, `language`, and the DOIs
 * and handles among `url` and `doi_str_mv`. Fields may hold a string or a list of strings; anything else
 * is ignored, and nothing throws.
 *
 * Left to others: the rules (extendedWorkKeys.ts), checking documents (src/record/catalogRecord.ts).
 */
import { KEYED_FIELD_NAMES } from '../../record/recordFields.js';
import { identifierOfText } from './manifestationIdentifiers.js';
import { languageCodeOf } from './titleLanguages.js';
import type { StatedIdentifier, StatedTitle, WorkStatement } from './workStatement.js';

/**
 * The document fields workStatementFromDocument reads, and no other (a keying worker is sent only these):
 * the record table's keyed fields (src/record/recordFields.ts), which the `vufind` profile reads too, and
 * the ones only this reader reads. test/work-keys/workKeyProfiles.test.ts holds each profile's list to its reader.
 */
export const WORK_STATEMENT_FIELDS: readonly string[] = [...KEYED_FIELD_NAMES, 'title_short', 'language', 'url', 'doi_str_mv'];

export function workStatementFromDocument(document: unknown): WorkStatement {
  const doc = typeof document === 'object' && document !== null ? (document as Record<string, unknown>) : {};
  const short = stringsOf(doc.title_short)[0]?.trim();
  const titles: StatedTitle[] = stringsOf(doc.title).map((text) => {
    const proper = short !== undefined && short !== '' && text.startsWith(short) && text.length > short.length ? short : undefined;
    return proper === undefined
      ? { text, nonFiling: 0, role: 'title-statement' }
      : { text, titleProper: proper, subtitle: text.slice(proper.length), nonFiling: 0, role: 'title-statement' };
  });
  const identifiers = [...stringsOf(doc.url), ...stringsOf(doc.doi_str_mv)]
    .map(identifierOfText)
    .filter((identifier): identifier is StatedIdentifier => identifier !== undefined);
  const language = languageCodeOf(stringsOf(doc.language)[0]);
  return {
    mainNames: stringsOf(doc.author).map((name) => ({ name, kind: 'unknown' })),
    addedNames: [
      ...stringsOf(doc.author2).map((name) => ({ name, kind: 'unknown' as const })),
      ...stringsOf(doc.author_corporate).map((name) => ({ name, kind: 'body' as const })),
    ],
    titles,
    uniformTitles: stringsOf(doc.title_uniform).map((text) => ({ text, nonFiling: 0, role: 'own', formAndVersion: [] })),
    ...(language !== undefined ? { language } : {}),
    originals: [],
    identifiers,
  };
}

function stringsOf(value: unknown): string[] {
  // Most fields hold one string or none: no list is made to filter then.
  if (typeof value === 'string') return value.trim() !== '' ? [value] : [];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string' && item.trim() !== '') : [];
}
