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
  const { supported } = settings;
  const ordered: Array<[LanguageSource, string | undefined]> = [
    ['query', supportedLanguageCode(candidates.query, supported)],
    ['session', supportedLanguageCode(candidates.session, supported)],
    ['cookie', supportedLanguageCode(candidates.cookie, supported)],
    ['header', bestAcceptedLanguage(candidates.acceptLanguage, supported)],
  ];
  for (const [source, language] of ordered) {
    if (language !== undefined) return { language, source };
  }
  return { language: settings.fallback, source: 'default' };
}
