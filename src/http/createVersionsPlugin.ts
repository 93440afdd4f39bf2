/**
 * The plugin factory: parses the options once, loads labels and themes, and returns one Koa middleware
 * (the router's routes and allowed methods composed, with the versions route's own path answered before
 * the router, as it would answer it) that a host app mounts next to its record pages.
 * It reads the request (query, cookies, session), gets the answer from versionsAnswers.ts (built through
 * the core, kept while the index is unchanged) and writes the headers and body; the decisions live in
 * the pure modules (docs/architecture.md, "Core and edges"), the error statuses in errorResponses.ts.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import Router, { type Layer, type MatchResult, type RouterContext } from '@koa/router';
import type { Context, Middleware } from 'koa';
import compose from 'koa-compose';
import { parsePluginOptions, type VersionsPluginOptions } from './pluginOptions.js';
import type { Translate } from '../i18n/labels.js';
import { hostLabels, type HostLabels } from '../i18n/hostLabels.js';
import type { VersionsView } from '../versions/listVersions.js';
import { pageNumberFrom } from '../versions/paging.js';
import { pageSortFrom } from '../versions/versionsSorts.js';
import { filtersFrom } from '../versions/versionsFilters.js';
import { showVersionsUrl } from '../versions/versionsUrls.js';
import { languageResolver, supportedLanguageCode } from '../i18n/resolveLanguage.js';
import type { ThemeModel } from '../page/pageViewModels.js';
import { GENERATOR, LABELS_DIRECTORY, THEMES_DIRECTORY, VIEWS_DIRECTORY } from '../packageFiles.js';
import { respondWithErrorPage } from './errorResponses.js';
import { setFeedSecurityHeaders, setPageSecurityHeaders, setResponseHeader } from './securityHeaders.js';
import { openLabelCatalogs } from '../i18n/labelCatalogs.js';
import { createThemeEngine } from './themeEngine.js';
import { buildFeedStylesheet } from '../page/feedStylesheet.js';
import { createVersionsAnswers, type AnswerRequest, type VersionsAnswer } from './versionsAnswers.js';
import { firstValue, versionsQueryFromParsed, versionsQueryOf, type VersionsQuery } from './versionsQuery.js';
import { checkIndexHealth, watchIndexFile } from './indexHealth.js';
import { InvalidArgumentError } from '../errors.js';
import { checkRecordIds } from '../portArguments.js';

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

// The request headers a versions answer depends on besides its URL (docs/caching-and-security.md).
const PAGE_VARY = ['Accept-Language', 'Cookie'] as const;
const FEED_ADDRESS_VARY = [...PAGE_VARY, 'Sec-Fetch-Mode', 'Sec-Fetch-Dest'] as const;
const varyHeaderOf = new Map<readonly string[], string>([PAGE_VARY, FEED_ADDRESS_VARY].map((fields) => [fields, fields.join(', ')]));

/**
 * Adds `fields` to the response's Vary as ctx.vary does one by one: when the host has set no Vary, that
 * is the fields joined, written at once; otherwise ctx.vary merges them into the host's.
 */
function varyOn(ctx: Context, fields: readonly string[]): void {
  const joined = varyHeaderOf.get(fields);
  if (joined !== undefined && ctx.res.getHeader('Vary') === undefined) {
    setResponseHeader(ctx, 'Vary', joined);
    return;
  }
  for (const field of fields) ctx.vary(field);
}

/**
 * The public address when no baseUrl is configured: the protocol and Host the request came in on (Koa's
 * `ctx.origin` is the Origin *header* since Koa 3, which a client chooses freely), then the path the
 * plugin is mounted under (requestPathPrefix). Parsed as a URL, so a hostile Host header contributes at
 * most a host name.
 */
function requestBaseUrl(ctx: Context): string {
  let origin: string;
  try {
    origin = new URL(`${ctx.protocol}://${ctx.host}`).origin;
  } catch {
    origin = `${ctx.protocol}://localhost`;
  }
  return `${origin}${requestPathPrefix(ctx)}`;
}

/** A path prefix as a proxy or mount gives it: segments of unreserved characters and %-escapes only. */
const PATH_PREFIX = /^(?:\/(?:[A-Za-z0-9._~-]|%[0-9A-Fa-f]{2})+)*\/?$/;

/**
 * The path before the plugin's routes: `X-Forwarded-Prefix` from a reverse proxy that strips it (read only
 * when the host trusts forwarded headers, `app.proxy`, as Koa reads X-Forwarded-Host), then the path the
 * host mounted the plugin under (`ctx.mountPath`, set by koa-mount). A value of another shape is ignored.
 */
function requestPathPrefix(ctx: Context): string {
  const forwarded = ctx.app.proxy ? (ctx.get('X-Forwarded-Prefix').split(',')[0] ?? '') : '';
  const mounted = (ctx as Context & { mountPath?: unknown }).mountPath;
  return [forwarded, typeof mounted === 'string' ? mounted : ''].map((prefix) => {
    const trimmed = prefix.trim();
    return PATH_PREFIX.test(trimmed) ? trimmed.replace(/\/+$/, '') : '';
  }).join('');
}

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

interface RequestSettings {
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

export type { HostLabels };

/** One result's "Show all versions (N)" link, for a host's record page or result list. */
export interface VersionsLink {
  /** Versions of the record's work, itself included. */
  readonly count: number;
  /** The versions page of the record, under the plugin's base URL. */
  readonly href: string;
  /** "Show all versions (N)" in the language. */
  readonly label: string;
}

/**
 * The middleware a host mounts, with helpers for the host's own pages, so that they agree with the
 * versions pages without repeating the plugin's rules or words.
 */
export interface VersionsPlugin extends Middleware {
  /** The language the plugin answers this request in: `lng`, the host session, the `language` cookie, Accept-Language, the default. */
  languageOf(ctx: Context): string;
  /** The plugin's labels in a language (one it was configured with; any other value gives the default language's). */
  labelsFor(language: string): HostLabels;
  /**
   * "Show all versions (N)" links for a host's result list or record page: ONE countVersions call for all
   * these ids, a link for each record whose work has more than one version (`minimum` lowers the bar: 1
   * links every record found). In `language`, default languageOf(ctx). Ids of no record get no link.
   */
  versionsLinks(ctx: Context, ids: readonly string[], options?: { readonly language?: string; readonly minimum?: number }): Promise<Map<string, VersionsLink>>;
}

export function createVersionsPlugin(options: VersionsPluginOptions): VersionsPlugin {
  const config = parsePluginOptions(options);
  const labels = openLabelCatalogs(LABELS_DIRECTORY, config.languages, config.defaultLanguage);
  const themes = createThemeEngine({
    viewsDirectory: VIEWS_DIRECTORY,
    themeDirectories: [...config.themeDirectories, THEMES_DIRECTORY],
    themesByUi: config.themes,
    cacheTemplates: config.cacheTemplates,
  });
  const languageNames = config.languages.map((code) => ({ code, name: labels.translatorFor(code)('language.name') }));
  // The feed's XSL view, with the labels, site name and home it shows filled in (feedStylesheet.ts).
  const feedStylesheet = Buffer.from(buildFeedStylesheet(readFileSync(join(VIEWS_DIRECTORY, 'rss.xsl'), 'utf8'), {
    languages: config.languages.map((code) => ({ code, translate: labels.translatorFor(code) })),
    defaultLanguage: config.defaultLanguage,
    siteTitle: config.siteTitle,
    catalogHomeUrl: config.catalogHomeUrl,
  }));
  // Settings that shape every answer: part of each ETag, so a changed configuration is never answered 304.
  const settingsFingerprint = JSON.stringify([
    GENERATOR, config.siteTitle, config.contact, config.catalogHomeUrl, config.languages, config.themes, config.defaultUi,
  ]);

  const chooseLanguage = languageResolver({ supported: config.languages, fallback: config.defaultLanguage });

  /** The host's helper: a value that is not a request's context is refused (the routes call requestLanguage). */
  function languageOf(ctx: Context): string {
    checkContext('languageOf', ctx);
    return requestLanguage(ctx);
  }

  function requestLanguage(ctx: Context): string {
    return languageFrom(ctx, firstValue(ctx.query.lng), ctx.cookies.get(LANGUAGE_COOKIE, UNSIGNED));
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

  function settingsOf(ctx: Context, query: VersionsQuery): RequestSettings {
    const feedAsked = query.view === 'rss';
    const feedPreview = feedAsked && isBrowserNavigation(ctx);
    const view: VersionsView = feedAsked && !feedPreview ? 'rss' : 'html';
    // Feed readers send no cookies: the cookie jar is then not opened at all.
    const withCookies = Boolean(ctx.req.headers.cookie);
    const languageCookie = withCookies ? ctx.cookies.get(LANGUAGE_COOKIE, UNSIGNED) : undefined;
    const uiCookie = withCookies ? ctx.cookies.get(UI_COOKIE, UNSIGNED) : undefined;
    const language = languageFrom(ctx, query.lng, languageCookie);
    const ui = uiCookie !== undefined && Object.hasOwn(config.themes, uiCookie) ? uiCookie : config.defaultUi;
    const baseUrl = config.baseUrl ?? requestBaseUrl(ctx);
    return {
      view,
      feedPreview,
      baseUrl,
      language,
      explicitLanguage: supportedLanguageCode(query.lng, config.languages),
      translate: labels.translatorFor(language),
      ui,
      theme: themeModelOf(ui, baseUrl),
      languageCookie,
      uiCookie,
    };
  }

  /** HTML responses remember the language and ui, and give a session token (RSS responses set no cookies). */
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

  const answers = createVersionsAnswers({
    index: config.index, themes, cacheBytes: config.answerCacheBytes, settingsFingerprint, siteTitle: config.siteTitle,
    catalogHomeUrl: config.catalogHomeUrl, generator: GENERATOR, languageNames, now: config.now, timeZone: config.timeZone,
  });

  /**
   * The versions route. A kept answer is sent at once, without a promise to wait for; an answer built from
   * the index is sent when ready. Either way the status, headers and body are on ctx when the host's
   * middleware resumes after `await next()`.
   */
  function versionsRoute(ctx: Context): Promise<void> | undefined {
    // Koa keeps the object once someone has read ctx.query: a host may have changed it, so it is read then.
    const query = (ctx.request as { _querycache?: unknown })._querycache === undefined ? versionsQueryOf(ctx.querystring) : versionsQueryFromParsed(ctx.query);
    const settings = settingsOf(ctx, query);
    rememberChoices(ctx, settings);
    let answer: VersionsAnswer | Promise<VersionsAnswer>;
    try {
      const page = pageNumberFrom(query.page);
      const sort = pageSortFrom(query.sort);
      const filters = filtersFrom(query.filters);
      // Written out rather than spread from the settings: a spread of this many properties is the
      // slowest step of sending a kept answer.
      const request: AnswerRequest = {
        id: query.id, page, sort, filters, view: settings.view, language: settings.language, explicitLanguage: settings.explicitLanguage,
        translate: settings.translate, theme: settings.theme, baseUrl: settings.baseUrl, feedPreview: settings.feedPreview,
      };
      answer = answers.keptOrBuilt(request);
      if (!(answer instanceof Promise)) {
        sendAnswer(ctx, settings, answer);
        return undefined;
      }
    } catch (error) {
      return routeFailed(ctx, settings, error);
    }
    return answer.then((built) => sendAnswer(ctx, settings, built)).catch((error: unknown) => routeFailed(ctx, settings, error));
  }

  /** The error page of a failure in the route, in the request's language and theme. */
  function routeFailed(ctx: Context, settings: RequestSettings, error: unknown): Promise<void> {
    return respondWithErrorPage(ctx, error, errorPageSettings(settings.language, settings.theme));
  }

  function sendAnswer(ctx: Context, settings: RequestSettings, answer: VersionsAnswer): void {
    // The feed's address answers browsers and feed readers differently: caches must keep them apart.
    varyOn(ctx, settings.view === 'rss' || settings.feedPreview ? FEED_ADDRESS_VARY : PAGE_VARY);
    ctx.status = 200;
    setResponseHeader(ctx, 'ETag', answer.etag);
    // The text ctx.lastModified would write, formatted once with the answer instead of on every request.
    setResponseHeader(ctx, 'Last-Modified', answer.lastModifiedHeader);
    // Feeds: readers poll, shared caches may keep them a few minutes. Pages: revalidate every time (cookies).
    setResponseHeader(ctx, 'Cache-Control', settings.view === 'rss' ? 'public, max-age=300' : 'private, no-cache');
    if (settings.view === 'rss') setFeedSecurityHeaders(ctx, config.baseUrl);
    else setPageSecurityHeaders(ctx, config.baseUrl);
    // Koa's ctx.fresh copies every response header first; a request without validators is never fresh.
    const conditional = ctx.req.headers['if-none-match'] || ctx.req.headers['if-modified-since'];
    if (conditional && ctx.fresh) {
      ctx.status = 304;
      return;
    }
    // Content-Type as ctx.type would write it, without its lookup in the MIME table on every answer.
    if ('feed' in answer) {
      setResponseHeader(ctx, 'Content-Type', 'text/xml; charset=utf-8');
      ctx.body = answers.feedBody(answer.feed);
    } else {
      setResponseHeader(ctx, 'Content-Type', 'text/html; charset=utf-8');
      ctx.body = answer.html;
    }
  }

  /** What the error page needs besides the error: the same for a route's own failure and for the boundary. */
  function errorPageSettings(language: string, theme: ThemeModel): Parameters<typeof respondWithErrorPage>[2] {
    return {
      language, translate: labels.translatorFor(language), theme, siteTitle: config.siteTitle, contact: config.contact,
      catalogHomeUrl: config.catalogHomeUrl, languages: languageNames, configuredBaseUrl: config.baseUrl, engine: themes, logger: config.logger,
    };
  }

  /** The versions route within its last line of defence: a failure outside the route's own handling still gets the error page. */
  function versionsWithinBoundary(ctx: Context): Promise<void> | undefined {
    let pending: Promise<void> | undefined;
    try {
      pending = versionsRoute(ctx);
    } catch (error) {
      return boundaryFailed(ctx, error);
    }
    return pending?.catch((error: unknown) => boundaryFailed(ctx, error));
  }

  function boundaryFailed(ctx: Context, error: unknown): Promise<void> {
    return respondWithErrorPage(ctx, error, errorPageSettings(config.defaultLanguage, themeModelOf(config.defaultUi, config.baseUrl ?? requestBaseUrl(ctx))));
  }

  // The health check (indexHealth.ts): 200 when the index answers, 503 with the reason when not; never kept.
  const watchedFile = config.indexFile !== undefined ? watchIndexFile(config.indexFile) : undefined;
  async function healthRoute(ctx: Context): Promise<void> {
    const health = await checkIndexHealth(config.index, { ...(watchedFile !== undefined ? { indexFile: await watchedFile } : {}), now: config.now });
    if (health.status !== 'ok') config.logger.warn(`health check: ${health.status}: ${health.problem ?? ''}`, { code: 'HEALTH', status: health.status });
    ctx.status = health.status === 'ok' ? 200 : 503;
    ctx.set('Cache-Control', 'no-store');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = `${JSON.stringify(health)}\n`;
  }

  const router = new Router();
  router.get(VERSIONS_PATH, versionsWithinBoundary);
  router.get('/Search/Versions/health', healthRoute);
  router.get('/themes/root/assets/xsl/rss.xsl', (ctx) => {
    ctx.type = 'text/xsl; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.body = feedStylesheet;
  });
  router.get('/themes/:theme/assets/:file', (ctx) => {
    const file = themes.assetFile(ctx.params.theme ?? '', ctx.params.file ?? '');
    if (file === undefined) return; // not ours: the host's 404
    ctx.type = extname(file);
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.body = readFileSync(file);
  });
  function labelsFor(language: unknown): HostLabels {
    const offered = typeof language === 'string' ? supportedLanguageCode(language, config.languages) : undefined;
    return hostLabels(labels.translatorFor(offered ?? config.defaultLanguage));
  }

  async function versionsLinks(ctx: Context, ids: readonly string[], options: { readonly language?: string; readonly minimum?: number } = {}): Promise<Map<string, VersionsLink>> {
    checkContext('versionsLinks', ctx);
    checkRecordIds('versionsLinks', ids);
    if (typeof options !== 'object' || options === null || Buffer.isBuffer(options) || Array.isArray(options)
      || (options.minimum !== undefined && typeof options.minimum !== 'number')) {
      throw new InvalidArgumentError('versionsLinks', 'options', 'an object ({ language, minimum }) with minimum a number', options);
    }
    const counts = ids.length === 0 ? new Map<string, number>() : await config.index.countVersions(ids);
    const { showAllVersions } = labelsFor(options.language ?? requestLanguage(ctx));
    const baseUrl = config.baseUrl ?? requestBaseUrl(ctx);
    const minimum = options.minimum ?? 2;
    const links = new Map<string, VersionsLink>();
    for (const [id, count] of counts) {
      if (count >= minimum) links.set(id, { count, href: showVersionsUrl(baseUrl, id), label: showAllVersions(count) });
    }
    return links;
  }

  const routes = compose([router.routes() as Middleware, router.allowedMethods() as Middleware]);
  // The versions route as the router matches it for GET and HEAD at its exact path: such requests (nearly
  // all the plugin gets) go to the route directly, with ctx marked as the router marks it, so that a host's
  // middleware sees the same ctx.matched, ctx._matchedRoute, ctx.params... after `await next()`. Any other
  // path, method or spelling (the router ignores case and a trailing slash) goes through the router.
  const versionsMatches = new Map(['GET', 'HEAD'].map((method) => [method, router.match(VERSIONS_PATH, method)]));
  const middleware: Middleware = (ctx, next) => {
    const matched = (ctx as RoutedContext).newRouterPath === undefined ? versionsMatches.get(ctx.method) : undefined;
    const layer = matched?.pathAndMethod.at(-1);
    if (matched === undefined || layer === undefined || ctx.path !== VERSIONS_PATH) return routes(ctx, next);
    markRouted(ctx as RoutedContext, router, matched, layer);
    return versionsWithinBoundary(ctx);
  };
  return Object.assign(middleware, { languageOf, labelsFor, versionsLinks });
}

/** The versions page's and feed's path, under wherever the host mounts the plugin. */
const VERSIONS_PATH = '/Search/Versions';

type RoutedContext = Context & RouterContext & { newRouterPath?: string };

/** What @koa/router (its routes() middleware and the route's layer) writes on ctx when a route matches `ctx.path`. */
function markRouted(ctx: RoutedContext, router: Router, matched: MatchResult, layer: Layer): void {
  if (ctx.matched) ctx.matched.push(...matched.path);
  else ctx.matched = [...matched.path];
  ctx.router = router;
  ctx.routeMatched = matched.route;
  ctx._matchedRoute = layer.path;
  if (layer.name) ctx._matchedRouteName = layer.name;
  ctx.captures = layer.captures(ctx.path);
  ctx.request.params = layer.params(ctx.path, ctx.captures, ctx.params);
  ctx.params = ctx.request.params;
  ctx.routerPath = layer.path as string;
  ctx.routerName = layer.name || undefined;
}

/**
 * Refuses what is not a Koa request context (the host's helpers are called with the `ctx` of a request):
 * undefined, an object, a number. Only what the language choice reads is looked at.
 */
function checkContext(functionName: string, ctx: unknown): asserts ctx is Context {
  const candidate = ctx as Partial<Context> | null | undefined;
  if (typeof candidate !== 'object' || candidate === null || typeof candidate.get !== 'function'
    || typeof candidate.query !== 'object' || candidate.query === null || typeof candidate.cookies?.get !== 'function') {
    throw new InvalidArgumentError(functionName, 'ctx', 'the Koa context of a request (ctx)', ctx);
  }
}
