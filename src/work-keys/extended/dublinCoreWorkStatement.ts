/**
 * What a harvested Dublin Core record says about its work: every `dc:title` is a title statement and
 * every `dc:creator` a main entry (so keys pair every title with every creator, as VuFind's own Dublin
 * Core import stylesheets do); `dc:language` gives the articles; DOIs and handles among
 * `dc:identifier` become identifiers. `dc:contributor` (advisers, examiners) names no work.
 *
 * The input is the record's Dublin Core elements by local name, values in document order, as
 * src/ingest/oai/dublinCoreMapping.ts reads them from oai_dc.
 *
 * Left to others: parsing oai_dc (src/ingest/oai/dublinCoreMapping.ts), the rules (extendedWorkKeys.ts).
 */
import { identifierOfText } from './manifestationIdentifiers.js';
import { languageCodeOf } from './titleLanguages.js';
import type { StatedIdentifier, WorkStatement } from './workStatement.js';

/** Dublin Core elements by local name (`title`, `creator`, `identifier`, `language`). */
export type DublinCoreElements = ReadonlyMap<string, readonly string[]> | Readonly<Record<string, readonly string[] | undefined>>;

export function workStatementFromDublinCore(elements: DublinCoreElements): WorkStatement {
  const valuesOf = (name: string): string[] => {
    const values: readonly string[] | undefined = elements instanceof Map
      ? (elements as ReadonlyMap<string, readonly string[]>).get(name)
      : (elements as Readonly<Record<string, readonly string[] | undefined>>)[name];
    // Anything but a list of strings is no value: a caller's bad input gives an empty statement, never a TypeError.
    if (!Array.isArray(values)) return [];
    return values.filter((value): value is string => typeof value === 'string').map((value) => value.replace(/\s+/g, ' ').trim()).filter((value) => value !== '');
  };
  const language = valuesOf('language').map(languageCodeOf).find((code) => code !== undefined);
  return {
    mainNames: valuesOf('creator').map((name) => ({ name, kind: 'unknown' })),
    addedNames: [],
    titles: valuesOf('title').map((text) => ({ text, nonFiling: 0, role: 'title-statement' })),
    uniformTitles: [],
    ...(language !== undefined ? { language } : {}),
    originals: [],
    identifiers: valuesOf('identifier').map(identifierOfText).filter((identifier): identifier is StatedIdentifier => identifier !== undefined),
  };
}
