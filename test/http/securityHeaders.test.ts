/**
 * Security headers (issue item 3). The versions page and every error page run under a Content-Security-
 * Policy without script, with `nosniff` and a Referrer-Policy; the feed gets `nosniff` and a policy that
 * still lets a browser apply the feed's XSL stylesheet (test/browser checks that in Chromium itself).
 *
 * The policy is compared directive by directive (order and spacing are not the contract), and the pages
 * are checked to need nothing the policy forbids: no inline script or style, no event-handler attributes,
 * stylesheets only from the allowed origins.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import * as cheerio from 'cheerio';
import type supertest from 'supertest';
import { IndexUnavailableError } from '../../src/errors.js';
import type { CatalogIndex } from '../../src/ports.js';
import { BASE_URL, fixture, hostFor, testHost } from '../support/testHost.js';

const PAGE = '/Search/Versions?id=usp%3Atese-2019-0412&search=versions';
const FEED = `${PAGE}&view=rss`;
const BASE_ORIGIN = new URL(BASE_URL).origin;
const QUIET = { logger: { error: () => undefined, warn: () => undefined } };

type Policy = Map<string, string[]>;

/** A CSP header as directive → sources (names lower-cased; a repeated directive is ignored, as browsers do). */
function parsePolicy(header: string | undefined): Policy {
  const policy: Policy = new Map();
  for (const part of (header ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name && !policy.has(name.toLowerCase())) policy.set(name.toLowerCase(), sources);
  }
  return policy;
}

/** Sources that would let script run or content load from anywhere. */
const UNSAFE_SOURCES = /^('unsafe-inline'|'unsafe-eval'|'unsafe-hashes'|'wasm-unsafe-eval'|\*|https?:|data:|blob:|'strict-dynamic')$/i;

/** Whether `sources` (a CSP source list) allows loading `url` into a document served from `documentOrigin`. */
function allows(sources: readonly string[] | undefined, url: string, documentOrigin: string): boolean {
  if (sources === undefined) return true;
  const origin = new URL(url, documentOrigin).origin;
  return sources.some((source) => (source === "'self'" && origin === documentOrigin) || source.replace(/\/$/, '') === origin);
}

function header(response: supertest.Response, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The planned page policy; style-src may name the base URL's origin besides 'self' (a proxy's public address). */
function assertPagePolicy(t: import('ava').ExecutionContext, response: supertest.Response, what: string): void {
  const policy = parsePolicy(header(response, 'content-security-policy'));
  t.deepEqual([...policy.keys()].sort(), ['base-uri', 'default-src', 'form-action', 'frame-ancestors', 'img-src', 'style-src'], `${what}: directives`);
  t.deepEqual(policy.get('default-src'), ["'none'"], `${what}: default-src`);
  t.deepEqual(policy.get('img-src')?.slice().sort(), ["'self'", 'data:'], `${what}: img-src`);
  t.deepEqual(policy.get('form-action'), ["'self'"], `${what}: form-action`);
  t.deepEqual(policy.get('base-uri'), ["'none'"], `${what}: base-uri`);
  t.deepEqual(policy.get('frame-ancestors'), ["'self'"], `${what}: frame-ancestors`);
  const styles = policy.get('style-src') ?? [];
  t.true(styles.includes("'self'"), `${what}: style-src has 'self'`);
  t.deepEqual(styles.filter((source) => source !== "'self'" && source.replace(/\/$/, '') !== BASE_ORIGIN), [], `${what}: style-src allows nothing else`);
  t.is(header(response, 'x-content-type-options'), 'nosniff', `${what}: nosniff`);
  t.is(header(response, 'referrer-policy'), 'strict-origin-when-cross-origin', `${what}: Referrer-Policy`);
}

/**
 * The page needs nothing its policy forbids. The one form allowed is the versions page's sort selector
 * (docs/page.md): a GET of the page's own address (no `action`, so `form-action 'self'` holds), and only
 * where `sortForms` says it belongs (1 on a versions page, 0 on an error page).
 */
function assertNeedsNothingForbidden(t: import('ava').ExecutionContext, response: supertest.Response, what: string, sortForms = 0): void {
  const $ = cheerio.load(response.text);
  t.is($('script, style, base, iframe, object, embed').length, 0, `${what}: no script, style, base or frames`);
  const forms = $('form').toArray().map((form) => ({ class: $(form).attr('class'), method: $(form).attr('method'), action: $(form).attr('action') }));
  t.deepEqual(forms, Array.from({ length: sortForms }, () => ({ class: 'sort-form', method: 'get', action: undefined })), `${what}: no form but the sort selector's GET of the page itself`);
  const inline = $('*').toArray().flatMap((element) => Object.keys((element as { attribs?: Record<string, string> }).attribs ?? {})
    .filter((name) => /^on|^style$/i.test(name)).map((name) => `${(element as { name?: string }).name}[${name}]`));
  t.deepEqual(inline, [], `${what}: no inline handlers or style attributes`);
  const policy = parsePolicy(header(response, 'content-security-policy'));
  // The document's origin in a browser is the base URL's (the tests' host serves as catalog.example.edu).
  for (const link of $('link[rel="stylesheet"]').toArray()) {
    const href = $(link).attr('href') ?? '';
    t.true(allows(policy.get('style-src') ?? policy.get('default-src'), href, BASE_ORIGIN), `${what}: stylesheet ${href} is allowed`);
  }
  t.false($('[href^="javascript:" i], [src]').length > 0, `${what}: no javascript: links or loaded sources`);
}

test('the versions page: CSP without script, nosniff and Referrer-Policy, in every language and theme', async (t) => {
  const { request } = await testHost(fixture('thesis-in-two-repositories'));
  for (const lng of ['en', 'pt-br', 'es']) {
    for (const ui of ['standard', 'mobile']) {
      const response = await request.get(`${PAGE}&lng=${lng}`).set('Cookie', `ui=${ui}`).expect(200);
      const what = `page ${lng} ${ui}`;
      assertPagePolicy(t, response, what);
      assertNeedsNothingForbidden(t, response, what, 1);
      t.true(cheerio.load(response.text)('link[rel="stylesheet"]').length >= (ui === 'mobile' ? 2 : 1), `${what}: the theme's stylesheets are linked`);
    }
  }
});

test('HEAD gets the same headers as GET', async (t) => {
  const { request } = await testHost(fixture('thesis-in-two-repositories'));
  const get = await request.get(PAGE).expect(200);
  const head = await request.head(PAGE).expect(200);
  for (const name of ['content-security-policy', 'x-content-type-options', 'referrer-policy']) t.is(header(head, name), header(get, name), name);
});

test('error pages (400, 404, also for view=rss) carry the page headers', async (t) => {
  const { request } = await testHost(fixture('thesis-in-two-repositories'));
  for (const [path, status] of [
    ['/Search/Versions?search=versions', 400],
    ['/Search/Versions?id=&view=rss', 400],
    ['/Search/Versions?id=no-such-record', 404],
    ['/Search/Versions?id=no-such-record&view=rss&lng=pt-br', 404],
  ] as const) {
    const response = await request.get(path).expect(status);
    assertPagePolicy(t, response, path);
    assertNeedsNothingForbidden(t, response, path);
  }
});

/** An index whose engine fails the way the given function says. */
function failingIndex(fail: () => never): CatalogIndex {
  return { getRecord: async () => fail(), findVersions: async () => fail(), countVersions: async () => fail(), close: async () => undefined };
}

test('error pages for an unavailable index (503) and an unexpected failure (500) carry the page headers', async (t) => {
  const unavailable = hostFor(failingIndex(() => { throw new IndexUnavailableError('down'); }), QUIET);
  const failing = hostFor(failingIndex(() => { throw new TypeError('boom'); }), QUIET);
  for (const [request, status] of [[unavailable.request, 503], [failing.request, 500]] as const) {
    for (const path of [PAGE, FEED]) {
      const response = await request.get(path).expect(status);
      assertPagePolicy(t, response, `${status} ${path}`);
      assertNeedsNothingForbidden(t, response, `${status} ${path}`);
    }
  }
});

test('a failure before the route runs (the host session throws) still gets the headers', async (t) => {
  const { request } = await testHost(fixture('thesis-in-two-repositories'), QUIET, (app) => {
    app.use(async (ctx, next) => {
      Object.defineProperty(ctx, 'session', { get: () => { throw new Error('session store down'); } });
      await next();
    });
  });
  const response = await request.get(PAGE);
  t.true(response.status >= 500, `status ${response.status}`);
  assertPagePolicy(t, response, 'error boundary');
  assertNeedsNothingForbidden(t, response, 'error boundary');
});

test('the plain error page used when the themed one fails to render carries the headers too', async (t) => {
  // A theme whose error template cannot compile, so the plugin falls back to its built-in page.
  const themes = mkdtempSync(join(tmpdir(), 'broken-theme-'));
  mkdirSync(join(themes, 'broken'));
  writeFileSync(join(themes, 'broken', 'theme.json'), '{"extends": "standard"}');
  writeFileSync(join(themes, 'broken', 'error.pug'), 'extends no-such-layout\n');
  const { request } = await testHost(fixture('thesis-in-two-repositories'), { ...QUIET, themeDirectories: [themes], themes: { standard: 'broken' } });
  const response = await request.get('/Search/Versions?id=no-such-record').expect(404);
  t.regex(response.text, /An error has occurred/);
  t.is(cheerio.load(response.text)('html').attr('data-theme'), undefined, 'the built-in page, not the theme’s');
  assertPagePolicy(t, response, 'plain error page');
  assertNeedsNothingForbidden(t, response, 'plain error page');
});

/**
 * What the feed's policy grants the browser's own notice on its XSL view (issue item 6): Chromium's
 * XSLT-deprecation popover is styled by `style` attributes and closed by one inline handler. Style
 * attributes are allowed (they cannot run script; rss.xsl writes none, checked below), and only that
 * handler, by its hash.
 */
const NOTICE_CLOSE_HANDLER = 'this.getRootNode().host.remove();';
const BROWSER_NOTICE_GRANTS: Record<string, string[]> = {
  'style-src-attr': ["'unsafe-inline'"],
  'script-src-attr': ["'unsafe-hashes'", `'sha256-${createHash('sha256').update(NOTICE_CLOSE_HANDLER).digest('base64')}'`],
};

test('the feed: nosniff, and a policy with no inline script that still allows its own XSL stylesheet', async (t) => {
  const { request } = await testHost(fixture('thesis-in-two-repositories'));
  const response = await request.get(FEED).expect(200);
  t.is(header(response, 'x-content-type-options'), 'nosniff');
  const csp = header(response, 'content-security-policy');
  const policy = parsePolicy(csp);
  for (const [directive, sources] of policy) {
    if (Object.hasOwn(BROWSER_NOTICE_GRANTS, directive)) {
      t.deepEqual(sources, BROWSER_NOTICE_GRANTS[directive], `feed ${directive}: the browser notice's grant and nothing more`);
      continue;
    }
    t.deepEqual(sources.filter((source) => UNSAFE_SOURCES.test(source) && !(directive === 'img-src' && source === 'data:')), [], `feed ${directive}`);
  }
  // Inline <script> and <style> stay forbidden: script-src and style-src name origins only.
  for (const directive of ['script-src', 'style-src']) t.true((policy.get(directive) ?? []).every((source) => !UNSAFE_SOURCES.test(source)), directive);
  // Chromium loads the <?xml-stylesheet?> through the script-src checks (default-src when absent).
  const stylesheet = /<\?xml-stylesheet[^>]*href="([^"]+)"/.exec(response.text)?.[1]?.replaceAll('&amp;', '&');
  t.is(stylesheet, `${BASE_URL}/themes/root/assets/xsl/rss.xsl`);
  if (csp !== undefined) t.true(allows(policy.get('script-src') ?? policy.get('default-src'), stylesheet ?? '', BASE_ORIGIN), `the XSL is allowed by ${csp}`);
  t.true(allows(policy.get('style-src') ?? policy.get('default-src'), `${BASE_URL}/themes/standard/assets/theme.css`, BASE_ORIGIN), 'same-origin styles are allowed');
});

test('the XSL stylesheet and the theme assets are served with their types and nosniff', async (t) => {
  const { request } = await testHost(fixture('thesis-in-two-repositories'));
  const xsl = await request.get('/themes/root/assets/xsl/rss.xsl').expect(200);
  // Its output lives under the feed's policy, which allows style attributes for the browser's notice only.
  t.false(/\sstyle\s*=|<xsl:attribute\s+name="(style|on[a-z]+)"|\son[a-z]+\s*=|<script|<style/i.test(xsl.text), 'no inline style or script in the XSL view');
  t.regex(header(xsl, 'content-type') ?? '', /^text\/xsl/);
  t.is(header(xsl, 'x-content-type-options'), 'nosniff');
  const css = await request.get('/themes/standard/assets/theme.css').expect(200);
  t.regex(header(css, 'content-type') ?? '', /^text\/css/);
  t.is(header(css, 'x-content-type-options'), 'nosniff');
});

test('answers the plugin does not give (the host’s routes, unknown paths) get none of its headers', async (t) => {
  const { request } = await testHost(fixture('thesis-in-two-repositories'), {}, (app) => {
    app.use(async (ctx, next) => {
      if (ctx.path !== '/host-page') return next();
      ctx.type = 'html';
      ctx.body = '<!DOCTYPE html><title>Host</title><script>hostScript()</script>';
    });
  });
  for (const path of ['/host-page', '/Record/usp:tese-2019-0412', '/themes/standard/assets/no-such-file.css']) {
    const response = await request.get(path);
    t.is(header(response, 'content-security-policy'), undefined, path);
    t.is(header(response, 'referrer-policy'), undefined, path);
  }
});
