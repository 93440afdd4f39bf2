/**
 * What a request chooses besides its record: the view (a browser opening the feed's address gets the HTML
 * view), the language (`lng`, the host's session, the `language` cookie, Accept-Language, the default), the
 * theme (the `ui` cookie) and the public address; and the cookies and session value an HTML answer leaves
 * so that the next request chooses the same (docs/page.md, "Cookies"; docs/languages.md).
 */
import { randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import type { Translate } from '../i18n/labels.js';
import type { LabelCatalogs } from '../i18n/labelCatalogs.js';
import { languageResolver, supportedLanguageCode } from '../i18n/resolveLanguage.js';
import type { VersionsView } from '../versions/listVersions.js';
import { FEED_VIEW, VERSIONS_PARAMETERS } from '../versions/versionsUrls.js';
import type { ThemeModel } from '../page/pageViewModels.js';
import type { PluginConfig } from './pluginOptions.js';
import type { ThemeEngine } from './themeEngine.js';
import { requestBaseUrl } from './requestAddress.js';
import { firstValue, type VersionsRequestParameters } from './versionsRequestParameters.js';

export const LANGUAGE_COOKIE = 'language';
export const UI_COOKIE = 'ui';
export const SESSION_COOKIE = 'VUFIND_SESSION';

// Attributes of every cookie the plugin sets (docs/page.md, "Cookies"). `signed: false`, because
// a host with app.keys would otherwise sign them and then refuse to read unsigned ones.
const COOKIE_ATTRIBUTES = { path: '/', httpOnly: true, sameSite: 'lax', signed: false, overwrite: true } as const;
const UNSIGNED = { signed: false } as const;
const SESSION_TOKEN = /^[A-Za-z0-9_-]{1,128}$/;
// Theme models remembered per (ui, base address) before starting afresh (Host headers can be anything).
const THEME_MODELS_REMEMBERED = 64;

type HostSession = Record<string, unknown> | null | undefined;

/** The host's session, when the host app has one (koa-session or alike puts it on ctx.session). */
function hostSessionOf(ctx: Context): HostSession {
  const session = (ctx as Context & { session?: unknown }).session;
  return typeof session === 'object' && session !== null ? (session as Record<string, unknown>) : undefined;
}

/**
 * A browser opening the feed's address as a page (a link followed, the address typed): the only requests
 * that send both these headers. Feed readers, fetch() and the XSLT load never do, so they get the feed's
 * bytes unchanged; the browser gets the HTML view with a note on subscribing, readable with or without
 * XSLT (docs/feed.md, "In a browser").
 */
function isBrowserNavigation(ctx: Context): boolean {
  return ctx.req.headers['sec-fetch-mode'] === 'navigate' && ctx.req.headers['sec-fetch-dest'] === 'document';
}

export interface RequestSettings {
  readonly view: VersionsView;
  /** The feed's address opened by a browser: answered with the HTML view and a note (isBrowserNavigation). */
  readonly feedPreview: boolean;
  readonly baseUrl: string;
  readonly language: string;
  /** `lng` as given, when it named a supported language. */
  readonly explicitLanguage: string | undefined;
  readonly translate: Translate;
  readonly ui: string;
  readonly theme: ThemeModel;
  /** The `language` and `ui` cookies as the request sent them (rememberChoices compares). */
  readonly languageCookie: string | undefined;
  readonly uiCookie: string | undefined;
}

export interface RequestChoices {
  /** The settings of a versions request whose parameters are read. */
  settingsOf(ctx: Context, parameters: VersionsRequestParameters): RequestSettings;
  /** HTML responses remember the language and ui, and give a session token (RSS responses set no cookies). */
  rememberChoices(ctx: Context, settings: RequestSettings): void;
  /** The language of any request (the host's helpers ask it for the host's own pages). */
  requestLanguage(ctx: Context): string;
  /** The theme model of a ui at a base address, remembered per pair. */
  themeModelOf(ui: string, baseUrl: string): ThemeModel;
}

export function createRequestChoices(config: PluginConfig, labels: LabelCatalogs, themes: ThemeEngine): RequestChoices {
  const chooseLanguage = languageResolver({ supported: config.languages, fallback: config.defaultLanguage });

  function requestLanguage(ctx: Context): string {
    return languageFrom(ctx, firstValue(ctx.query[VERSIONS_PARAMETERS.language]), ctx.cookies.get(LANGUAGE_COOKIE, UNSIGNED));
  }

  /** The language of a request whose `lng` and `language` cookie are already read. */
  function languageFrom(ctx: Context, lng: string | undefined, languageCookie: string | undefined): string {
    const session = hostSessionOf(ctx);
    return chooseLanguage({
      query: lng,
      session: typeof session?.[config.sessionLanguageKey] === 'string' ? (session[config.sessionLanguageKey] as string) : undefined,
      cookie: languageCookie,
      acceptLanguage: ctx.req.headers['accept-language'] || undefined,
    }).language;
  }

  // The theme model of each (ui, base address): the same for every request of a plugin with a baseUrl;
  // without one the Host header chooses the address, so the models remembered are bounded.
  const themeModels = new Map<string, ThemeModel>();
  function themeModelOf(ui: string, baseUrl: string): ThemeModel {
    const key = `${ui}\u0000${baseUrl}`;
    let model = themeModels.get(key);
    if (model === undefined) {
      if (themeModels.size >= THEME_MODELS_REMEMBERED) themeModels.clear();
      model = themes.themeModel(themes.themeForUi(ui), baseUrl);
      themeModels.set(key, model);
    }
    return model;
  }

  function settingsOf(ctx: Context, parameters: VersionsRequestParameters): RequestSettings {
    const feedAsked = parameters.view === FEED_VIEW;
    const feedPreview = feedAsked && isBrowserNavigation(ctx);
    const view: VersionsView = feedAsked && !feedPreview ? 'rss' : 'html';
    // Feed readers send no cookies: the cookie jar is then not opened at all.
    const withCookies = Boolean(ctx.req.headers.cookie);
    const languageCookie = withCookies ? ctx.cookies.get(LANGUAGE_COOKIE, UNSIGNED) : undefined;
    const uiCookie = withCookies ? ctx.cookies.get(UI_COOKIE, UNSIGNED) : undefined;
    const language = languageFrom(ctx, parameters.lng, languageCookie);
    const ui = uiCookie !== undefined && Object.hasOwn(config.themes, uiCookie) ? uiCookie : config.defaultUi;
    const baseUrl = config.baseUrl ?? requestBaseUrl(ctx);
    return {
      view,
      feedPreview,
      baseUrl,
      language,
      explicitLanguage: supportedLanguageCode(parameters.lng, config.languages),
      translate: labels.translatorFor(language),
      ui,
      theme: themeModelOf(ui, baseUrl),
      languageCookie,
      uiCookie,
    };
  }

  function rememberChoices(ctx: Context, settings: RequestSettings): void {
    if (settings.view === 'rss') return;
    if (settings.languageCookie !== settings.language) ctx.cookies.set(LANGUAGE_COOKIE, settings.language, COOKIE_ATTRIBUTES);
    if (settings.uiCookie !== settings.ui) ctx.cookies.set(UI_COOKIE, settings.ui, COOKIE_ATTRIBUTES);
    const token = ctx.cookies.get(SESSION_COOKIE, UNSIGNED);
    if (token === undefined || !SESSION_TOKEN.test(token)) ctx.cookies.set(SESSION_COOKIE, randomBytes(16).toString('hex'), COOKIE_ATTRIBUTES);
    const session = hostSessionOf(ctx);
    if (session && settings.explicitLanguage !== undefined && session[config.sessionLanguageKey] !== settings.explicitLanguage) {
      session[config.sessionLanguageKey] = settings.explicitLanguage;
    }
  }

  return { settingsOf, rememberChoices, requestLanguage, themeModelOf };
}
