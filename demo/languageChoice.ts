/**
 * The demo host's choice of language and layout, made by the plugin's own rules, so that the host's
 * pages and the versions pages always agree: the language is the plugin's languageOf(ctx) (`lng` → the
 * session → the `language` cookie → Accept-Language → English); the layout (theme) comes from the `ui`
 * cookie, which `?ui=` on any host page sets. The host remembers them as the plugin does (the `language` and `ui` cookies, and
 * an explicit `lng` in the session, which the plugin reads through its sessionLanguageKey).
 *
 * Left to others: the words (demoLabels.ts), the pages (demoHost.ts).
 */
import type { Context } from 'koa';
import type { VersionsPlugin } from 'koa-catalog-versions';
import { DEMO_LANGUAGES, type DemoLanguage } from './demoLabels.js';

export const DEMO_UIS = ['standard', 'mobile'] as const;
export type DemoUi = (typeof DEMO_UIS)[number];

/** The key the plugin reads in ctx.session (its sessionLanguageKey option, left at its default). */
export const SESSION_LANGUAGE_KEY = 'language';

// The attributes the plugin gives its cookies, so that either side may set them.
const COOKIE = { path: '/', httpOnly: true, sameSite: 'lax', signed: false, overwrite: true } as const;

function supported(code: unknown): DemoLanguage | undefined {
  if (typeof code !== 'string') return undefined;
  const lower = code.trim().toLowerCase();
  return DEMO_LANGUAGES.find((language) => language === lower);
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

type Session = Record<string, unknown> | null | undefined;

/**
 * The request's language as the plugin chooses it (its languageOf: the rules live there), remembered in
 * the cookie (and, when `lng` chose it, in the session).
 */
export function chooseLanguage(ctx: Context, plugin: Pick<VersionsPlugin, 'languageOf'>): DemoLanguage {
  const session = (ctx as Context & { session?: Session }).session;
  const explicit = supported(first(ctx.query.lng));
  const language = supported(plugin.languageOf(ctx)) ?? 'en';
  if (ctx.cookies.get('language', { signed: false }) !== language) ctx.cookies.set('language', language, COOKIE);
  if (explicit !== undefined && session && session[SESSION_LANGUAGE_KEY] !== explicit) session[SESSION_LANGUAGE_KEY] = explicit;
  return language;
}

/** The layout: `?ui=` when it names one (and then remembered), else the `ui` cookie, else standard. */
export function chooseUi(ctx: Context): DemoUi {
  const asked = DEMO_UIS.find((ui) => ui === first(ctx.query.ui));
  if (asked !== undefined) {
    if (ctx.cookies.get('ui', { signed: false }) !== asked) ctx.cookies.set('ui', asked, COOKIE);
    return asked;
  }
  return DEMO_UIS.find((ui) => ui === ctx.cookies.get('ui', { signed: false })) ?? 'standard';
}
