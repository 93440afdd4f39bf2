/**
 * Which interface language a request gets (docs/languages.md). First match wins:
 * `lng` query parameter → the host session's stored language → `language` cookie → `Accept-Language`
 * → the default. Unknown codes are skipped, never an error. Reading cookies, the session and headers is
 * the HTTP adapter's job; this module only decides.
 */

export type LanguageSource = 'query' | 'session' | 'cookie' | 'header' | 'default';

export interface LanguageCandidates {
  readonly query?: string | undefined;
  readonly session?: string | undefined;
  readonly cookie?: string | undefined;
  readonly acceptLanguage?: string | undefined;
}

export interface LanguageSettings {
  /** Supported codes, lower case (`en`, `pt-br`, `es`). */
  readonly supported: readonly string[];
  readonly fallback: string;
}

export interface ResolvedLanguage {
  readonly language: string;
  readonly source: LanguageSource;
}

/** The supported code equal to `code` ignoring case (`pt-BR` → `pt-br`), else undefined. */
export function supportedLanguageCode(code: string | undefined, supported: readonly string[]): string | undefined {
  if (code === undefined) return undefined;
  const wanted = code.trim().toLowerCase();
  return supported.find((candidate) => candidate === wanted);
}

interface WeightedTag {
  readonly tag: string;
  readonly quality: number;
  readonly position: number;
}

function parseAcceptLanguage(header: string): WeightedTag[] {
  const tags: WeightedTag[] = [];
  header.split(',').forEach((part, position) => {
    const [rawTag = '', ...parameters] = part.split(';');
    const tag = rawTag.trim().toLowerCase();
    if (!/^(\*|[a-z]{1,8}(-[a-z0-9]{1,8})*)$/.test(tag)) return;
    let quality = 1;
    for (const parameter of parameters) {
      const match = /^\s*q\s*=\s*([01](\.\d{0,3})?)\s*$/i.exec(parameter);
      if (match?.[1] !== undefined) quality = Number(match[1]);
    }
    if (quality > 0) tags.push({ tag, quality, position });
  });
  // Highest quality first; equal qualities keep the client's order.
  return tags.sort((a, b) => b.quality - a.quality || a.position - b.position);
}

/**
 * The best supported language for an `Accept-Language` header: an exact match, else the first supported
 * code with the same primary subtag (`pt` and `pt-PT` → `pt-br`, `es-MX` → `es`).
 */
export function bestAcceptedLanguage(header: string | undefined, supported: readonly string[]): string | undefined {
  if (header === undefined || header.length > 4096) return undefined;
  for (const { tag } of parseAcceptLanguage(header)) {
    if (tag === '*') continue;
    const exact = supportedLanguageCode(tag, supported);
    if (exact !== undefined) return exact;
    const primary = tag.split('-')[0];
    const related = supported.find((code) => code.split('-')[0] === primary);
    if (related !== undefined) return related;
  }
  return undefined;
}

export function resolveLanguage(candidates: LanguageCandidates, settings: LanguageSettings): ResolvedLanguage {
  return resolveWith(candidates, settings, (header) => bestAcceptedLanguage(header, settings.supported));
}

/** The candidates in order, each looked at only when none before it named a supported language. */
function resolveWith(candidates: LanguageCandidates, settings: LanguageSettings, accepted: (header: string | undefined) => string | undefined): ResolvedLanguage {
  const { supported } = settings;
  const query = supportedLanguageCode(candidates.query, supported);
  if (query !== undefined) return { language: query, source: 'query' };
  const session = supportedLanguageCode(candidates.session, supported);
  if (session !== undefined) return { language: session, source: 'session' };
  const cookie = supportedLanguageCode(candidates.cookie, supported);
  if (cookie !== undefined) return { language: cookie, source: 'cookie' };
  const header = accepted(candidates.acceptLanguage);
  if (header !== undefined) return { language: header, source: 'header' };
  return { language: settings.fallback, source: 'default' };
}

// How many Accept-Language values a resolver remembers before it starts afresh, and the longest it
// remembers. Browsers send a few short values over and over, but any client can send any value, so the
// memory is bounded.
const HEADERS_REMEMBERED = 256;
const LONGEST_HEADER_REMEMBERED = 256;

/**
 * resolveLanguage for one set of settings (a plugin's), remembering the language each Accept-Language
 * value gave: parsing and sorting the header is the costly step, and feed readers, which send no cookie,
 * reach it on every request.
 */
export function languageResolver(settings: LanguageSettings): (candidates: LanguageCandidates) => ResolvedLanguage {
  const byHeader = new Map<string, string | null>();
  const accepted = (header: string | undefined): string | undefined => {
    if (header === undefined || header.length > LONGEST_HEADER_REMEMBERED) return bestAcceptedLanguage(header, settings.supported);
    let language = byHeader.get(header);
    if (language === undefined) {
      language = bestAcceptedLanguage(header, settings.supported) ?? null;
      if (byHeader.size >= HEADERS_REMEMBERED) byHeader.clear();
      byHeader.set(header, language);
    }
    return language ?? undefined;
  };
  return (candidates) => resolveWith(candidates, settings, accepted);
}
