/**
 * Label lookup as the core sees it: a function from a semantic key (and placeholder values) to text in
 * one language. Where the text comes from (the i18n/ files, loaded through koa-i18n) is the HTTP
 * adapter's business (src/http/labelCatalogs.ts).
 */

export const LABEL_KEYS = [
  'versions.label',
  'results.for',
  'results.showing',
  'paging.label',
  'paging.first',
  'paging.previous',
  'paging.next',
  'paging.last',
  'record.publishedIn',
  'record.fullText',
  'record.titleMissing',
  'record.showAllVersions',
  'feed.rssLink',
  'language.name',
  'language.switchLabel',
  'error.heading',
  'error.message',
  'error.contact',
] as const;

export type LabelKey = (typeof LABEL_KEYS)[number];

export type LabelParams = Readonly<Record<string, string | number>>;

export type Translate = (key: LabelKey, params?: LabelParams) => string;

/** Replaces each `{name}` in `template` by its value; unknown placeholders stay as written. */
export function fillPlaceholders(template: string, params: LabelParams = {}): string {
  return template.replace(/\{([A-Za-z0-9_]+)\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}

/** The `{name}` placeholders a label uses, sorted: the parity test compares them across languages. */
export function placeholdersOf(template: string): string[] {
  return [...new Set([...template.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((match) => match[1] ?? ''))].sort();
}
