/**
 * The demo host: a small but real catalog front with the versions plugin mounted in it, built as a value
 * (createDemoHost returns a Koa app without listening); server.ts starts it, the browser tests drive it.
 *
 * Its pages (templates in demo/views/, Pug, so every value is escaped by default): a home page with a
 * search box (title and author words, through the embedded index's searchRecords), what the catalog is
 * (the demo records, or a library's own catalog: its file, records, works and key profile), its largest
 * works and a few records alone in theirs; search results; a record page. Every list shows "Show all versions (N)" with the
 * counts of the whole list from one countVersions call, as a host's result list would. The header, the
 * language (lng → session → `language` cookie → Accept-Language) and the layout (`ui` cookie) are the
 * plugin's own, so a patron moves between the host's pages and the versions pages without noticing the seam.
 *
 * It imports only the package's public entry points, as any host would. Left to others: loading the
 * catalog and choosing the index (server.ts), the choice of language and layout (languageChoice.ts), the
 * words (demoLabels.ts).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Koa, { type Context } from 'koa';
import Router from '@koa/router';
import session from 'koa-session';
import pug from 'pug';
import { createVersionsPlugin, type CatalogIndex, type CatalogRecord, type HostLabels, type VersionsPluginOptions } from 'koa-catalog-versions';
import { DEMO_LABELS, DEMO_LANGUAGES, demoLabel, type DemoLabels, type DemoLanguage } from './demoLabels.js';
import { chooseLanguage, chooseUi, DEMO_UIS, type DemoUi } from './languageChoice.js';
import type { CatalogFacts } from './demoCatalog.js';

/** Title and author search: the embedded index's searchRecords, or any function with its shape. */
export type DemoSearch = (text: string, options: { readonly limit: number; readonly offset: number }) =>
  Promise<{ readonly total: number; readonly records: readonly CatalogRecord[] }>;

export interface DemoHostOptions {
  readonly index: CatalogIndex;
  readonly baseUrl: string;
  /** Record ids the home page suggests opening (one of each of the largest works). */
  readonly featuredIds?: readonly string[];
  /** Record ids the home page shows as alone in their work, each with its (one-entry) versions link. */
  readonly aloneIds?: readonly string[];
  /**
   * A library's own catalog (CATALOG_RECORDS, CATALOG_INDEX): the home page describes it (file, records,
   * works, key profile) instead of the demo records.
   */
  readonly catalogFacts?: CatalogFacts;
  /** The search box's engine; without it (a Solr core) the box is hidden and the home page says why. */
  readonly search?: DemoSearch;
  /** The site's name in every header and page title, the plugin's pages included. */
  readonly siteTitle?: string;
  /** Keys that sign the session cookie; default: random ones, new at each start. */
  readonly sessionKeys?: readonly string[];
  readonly plugin?: Partial<VersionsPluginOptions>;
}

export const DEMO_SITE_TITLE = 'Library Catalog';
const RESULTS_PER_PAGE = 20;

/** A folder shipped beside this module: demo/<name> from source, two folders up from dist/demo/ when built. */
function demoFolder(name: string): string {
  const beside = fileURLToPath(new URL(`./${name}`, import.meta.url));
  return existsSync(beside) ? beside : fileURLToPath(new URL(`../../demo/${name}`, import.meta.url));
}

const VIEWS = demoFolder('views');
const DEMO_STYLESHEET = readFileSync(join(demoFolder('assets'), 'demo.css'));
const templates = Object.fromEntries(['home', 'results', 'record', 'missing'].map((name) =>
  [name, pug.compileFile(join(VIEWS, `${name}.pug`), { basedir: VIEWS })])) as Record<'home' | 'results' | 'record' | 'missing', pug.compileTemplate>;

// The pages' policy: the plugin's own (no script at all), with the search form allowed to submit here.
const SECURITY_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'self'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
};

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

const nonBlank = (value: string | undefined) => (value !== undefined && value.trim() !== '' ? value : undefined);

/** What a list or a record page shows of a record (the plugin's page shows the same, its own way). */
function recordFacts(record: CatalogRecord, t: DemoLabels, labels: HostLabels) {
  const year = /\d{4}/.exec(record.publishDates[0] ?? '')?.[0];
  return {
    id: record.id,
    title: nonBlank(record.title) ?? t.titleMissing,
    href: `/Record/${encodeURIComponent(record.id)}`,
    author: nonBlank(record.authors[0]) ?? nonBlank(record.corporateAuthors[0]),
    otherAuthors: [...record.authors.slice(1), ...record.secondaryAuthors],
    year,
    publishedIn: year === undefined ? undefined : demoLabel(t, 'publishedIn', { year }),
    formats: record.formats.map((format) => labels.format(format)),
    sources: [...new Set([...record.institutions ?? [], ...record.buildings ?? []])],
    fullText: record.urls.map((url) => url.trim()).filter((url) => /^https?:\/\/\S+$/i.test(url)),
  };
}


export function createDemoHost(options: DemoHostOptions): Koa {
  const app = new Koa();
  app.keys = [...(options.sessionKeys ?? [randomBytes(32).toString('hex')])];
  const siteTitle = options.siteTitle ?? DEMO_SITE_TITLE;
  const router = new Router();
  // Created first: the host's pages choose their language and borrow labels through it.
  const plugin = createVersionsPlugin({ index: options.index, baseUrl: options.baseUrl, siteTitle, catalogHomeUrl: '/', ...options.plugin });

  /** The locals every page shares: labels, header, language and layout switches, stylesheets. */
  function frame(ctx: Context, language: DemoLanguage, ui: DemoUi, heading: string) {
    const t = DEMO_LABELS[language];
    const linkWith = (name: string, value: string) => {
      const params = new URLSearchParams(ctx.querystring);
      params.set(name, value);
      return `${ctx.path}?${params}`;
    };
    return {
      t, language, ui, siteTitle, heading,
      documentTitle: `${heading} :: ${siteTitle}`,
      stylesheets: ['/themes/standard/assets/theme.css', ...(ui === 'mobile' ? ['/themes/mobile/assets/theme.css'] : []), '/demo/assets/demo.css'],
      languages: DEMO_LANGUAGES.map((code) => ({ code, name: DEMO_LABELS[code].languageName, href: linkWith('lng', code), isCurrent: code === language })),
      layouts: DEMO_UIS.map((code) => ({ code, name: code === 'mobile' ? t.layoutMobile : t.layoutStandard, href: linkWith('ui', code), isCurrent: code === ui })),
      searchEnabled: options.search !== undefined,
      query: '',
    };
  }

  function send(ctx: Context, html: string, status = 200): void {
    ctx.status = status;
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Cache-Control', 'private, no-cache');
    ctx.set(SECURITY_HEADERS);
    ctx.body = html;
  }

  /**
   * Records as list items, each with "Show all versions (N)" when its work has more than one: the plugin's
   * versionsLinks, one countVersions call for the list (docs/deployment.md shows the same recipe).
   */
  async function listItems(ctx: Context, records: readonly CatalogRecord[], t: DemoLabels, language: DemoLanguage, minimum = 2) {
    const links = await plugin.versionsLinks(ctx, records.map((record) => record.id), { language, minimum });
    return records.map((record) => {
      const link = links.get(record.id);
      return { ...recordFacts(record, t, plugin.labelsFor(language)), ...(link !== undefined ? { versions: { href: link.href, label: link.label } } : {}) };
    });
  }

  router.get('/', async (ctx) => {
    const language = chooseLanguage(ctx, plugin);
    const ui = chooseUi(ctx);
    const t = DEMO_LABELS[language];
    const facts = options.catalogFacts;
    const count = new Intl.NumberFormat(language);
    send(ctx, templates.home({
      ...frame(ctx, language, ui, t.homeHeading),
      intro: facts === undefined ? t.homeIntro : t.homeIntroOwn,
      facts: facts === undefined ? undefined : demoLabel(t, 'catalogFacts', {
        file: basename(facts.file), records: count.format(facts.records), works: count.format(facts.works),
        several: count.format(facts.worksOfSeveral), profile: facts.keyProfile,
      }),
      featuredNone: facts === undefined ? t.featuredNone : t.featuredNoneOwn,
      items: await listItems(ctx, await recordsOf(options.featuredIds), t, language),
      // A record alone in its work still has its versions page (itself): the link is offered from one version.
      alone: await listItems(ctx, await recordsOf(options.aloneIds), t, language, 1),
    }));
  });

  /** The records of these ids the index holds, in their order. */
  async function recordsOf(ids: readonly string[] = []): Promise<CatalogRecord[]> {
    const records: CatalogRecord[] = [];
    for (const id of ids) {
      const record = await options.index.getRecord(id);
      if (record !== undefined) records.push(record);
    }
    return records;
  }

  router.get('/Search/Results', async (ctx) => {
    const language = chooseLanguage(ctx, plugin);
    const ui = chooseUi(ctx);
    const t = DEMO_LABELS[language];
    if (options.search === undefined) {
      ctx.redirect('/');
      return;
    }
    const query = (first(ctx.query.lookfor) ?? '').slice(0, 500);
    const pageValue = Number.parseInt(first(ctx.query.page) ?? '1', 10);
    const page = Number.isSafeInteger(pageValue) && pageValue >= 1 && pageValue <= 10_000 ? pageValue : 1;
    const offset = (page - 1) * RESULTS_PER_PAGE;
    const found = query.trim() === '' ? { total: 0, records: [] } : await options.search(query, { limit: RESULTS_PER_PAGE, offset });
    const lastPage = Math.max(1, Math.ceil(found.total / RESULTS_PER_PAGE));
    const pageHref = (n: number) => `/Search/Results?${new URLSearchParams({ lookfor: query, page: String(n) })}`;
    send(ctx, templates.results({
      ...frame(ctx, language, ui, query.trim() === '' ? t.resultsTitle : demoLabel(t, 'resultsHeading', { query })),
      query,
      emptyQuery: query.trim() === '',
      none: query.trim() !== '' && found.records.length === 0 ? demoLabel(t, 'resultsNone', { query }) : undefined,
      showing: found.records.length > 0 ? demoLabel(t, 'resultsShowing', { first: offset + 1, last: offset + found.records.length, total: found.total }) : undefined,
      listStart: offset + 1,
      items: await listItems(ctx, found.records, t, language),
      previous: page > 1 ? pageHref(Math.min(page - 1, lastPage)) : undefined,
      next: page < lastPage ? pageHref(page + 1) : undefined,
    }));
  });

  router.get('/Record/:id', async (ctx) => {
    const language = chooseLanguage(ctx, plugin);
    const ui = chooseUi(ctx);
    const t = DEMO_LABELS[language];
    const record = await options.index.getRecord(ctx.params.id ?? '');
    if (record === undefined) {
      send(ctx, templates.missing(frame(ctx, language, ui, t.recordMissingTitle)), 404);
      return;
    }
    const item = recordFacts(record, t, plugin.labelsFor(language));
    // The record page always offers its versions, even a work of one (the list then shows it alone).
    const link = (await plugin.versionsLinks(ctx, [record.id], { language, minimum: 1 })).get(record.id);
    send(ctx, templates.record({
      ...frame(ctx, language, ui, item.title ?? record.id),
      record: item,
      ...(link !== undefined ? { versions: { href: link.href, label: link.label } } : {}),
    }));
  });

  router.get('/demo/assets/demo.css', (ctx) => {
    ctx.type = 'text/css; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.body = DEMO_STYLESHEET;
  });

  // The session: the plugin stores an explicit `lng` there and reads it back (its sessionLanguageKey).
  app.use(session({ key: 'demo.session', httpOnly: true, sameSite: 'lax', maxAge: 'session' }, app));
  app.use(router.routes());
  app.use(plugin);
  return app;
}
