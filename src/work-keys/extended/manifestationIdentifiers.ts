/**
 * Identifiers that name one manifestation, DOI and handle, in the one form keys compare: a DOI lower
 * case (DOIs are case-insensitive) without its resolver or `doi:` prefix; a handle without its resolver
 * or `hdl:` prefix. The same thesis in two repositories is then one key however each wrote it
 * (`https://doi.org/10.11606/T.48.2019.tde-0412`, `doi:10.11606/t.48.2019.tde-0412`).
 *
 * Left to others: finding identifiers in a source (the adapters); making keys (extendedWorkKeys.ts).
 */
import type { StatedIdentifier } from './workStatement.js';

const DOI_PREFIX = /^(?:https?:\/\/(?:dx\.)?doi\.org\/|doi:\s*|info:doi\/)/iu;
const DOI = /^10\.\d{4,9}\/\S+$/u;
const HANDLE_PREFIX = /^(?:https?:\/\/hdl\.handle\.net\/|hdl:\s*|info:hdl\/)/iu;
const HANDLE = /^[\p{L}\p{N}.]+\/\S+$/u;

/** The compared form of an identifier, or undefined when it is not a well-formed DOI or handle. */
export function canonicalIdentifier(identifier: StatedIdentifier): string | undefined {
  const trimmed = identifier.value.trim();
  if (identifier.scheme === 'doi') {
    const doi = decodeURIComponentSafely(trimmed.replace(DOI_PREFIX, ''));
    return DOI.test(doi) ? doi.toLowerCase() : undefined;
  }
  const handle = decodeURIComponentSafely(trimmed.replace(HANDLE_PREFIX, ''));
  // A DOI is also a handle: key it as a DOI so both spellings meet.
  if (DOI.test(handle)) return undefined;
  return HANDLE.test(handle) ? handle.toLowerCase() : undefined;
}

/**
 * The DOI or handle an identifier string names, whichever it is (a Dublin Core identifier, a URL):
 * resolver URLs and `doi:`/`hdl:` prefixes, and a bare `10.nnnn/…`; undefined for anything else
 * (a repository's own page is not a handle, even under `/handle/`).
 */
export function identifierOfText(text: string): StatedIdentifier | undefined {
  const trimmed = text.trim();
  if (DOI_PREFIX.test(trimmed) || DOI.test(trimmed)) return { scheme: 'doi', value: trimmed };
  if (HANDLE_PREFIX.test(trimmed)) {
    const handle = trimmed.replace(HANDLE_PREFIX, '');
    return DOI.test(handle) ? { scheme: 'doi', value: handle } : { scheme: 'hdl', value: trimmed };
  }
  return undefined;
}

function decodeURIComponentSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
