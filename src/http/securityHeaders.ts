/**
 * Security headers of the plugin's answers. Pages (versions and error pages) run no script at all and
 * load only the themes' stylesheets; the feed needs `script-src` for its stylesheet, because Chromium
 * checks the `<?xml-stylesheet?>` XSLT load against it (and the transformed page inherits the feed's
 * policy, so the XSL output must stay free of inline styles and scripts too).
 */
import type { Context } from 'koa';

/**
 * `'self'` plus the configured base URL's origin, which may differ from the one the request came in on
 * (a proxy). Without a configured base URL, links and stylesheets use the request's own origin: `'self'`.
 */
function sources(configuredBaseUrl: string | undefined): string {
  let list = sourcesOf.get(configuredBaseUrl);
  if (list === undefined) {
    list = configuredBaseUrl === undefined ? "'self'" : `'self' ${new URL(configuredBaseUrl).origin}`;
    sourcesOf.set(configuredBaseUrl, list);
  }
  return list;
}
// Worked out once per configured base URL (a plugin has one), not parsed again on every answer.
const sourcesOf = new Map<string | undefined, string>();

const pagePolicy = (self: string) => `default-src 'none'; style-src ${self}; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'self'`;
const feedPolicy = (self: string) => `default-src 'none'; script-src ${self}; style-src ${self}; ${BROWSER_NOTICE_SOURCES}; img-src 'self' data:; base-uri 'none'; frame-ancestors 'self'`;

// Each policy text made once per configured base URL, as the sources are.
const pagePolicies = new Map<string | undefined, string>();
const feedPolicies = new Map<string | undefined, string>();
function policyOf(made: Map<string | undefined, string>, configuredBaseUrl: string | undefined, policy: (self: string) => string): string {
  let text = made.get(configuredBaseUrl);
  if (text === undefined) {
    text = policy(sources(configuredBaseUrl));
    made.set(configuredBaseUrl, text);
  }
  return text;
}

/**
 * A header with a string value, as `ctx.set(name, value)` writes it: nothing once the headers are sent,
 * else Node's setHeader. Koa 3's ctx.set makes two arrays on every call to handle objects and lists; a
 * kept answer sets eight headers.
 */
export function setResponseHeader(ctx: Context, name: string, value: string): void {
  if (!ctx.res.headersSent) ctx.res.setHeader(name, value);
}

export function setPageSecurityHeaders(ctx: Context, configuredBaseUrl: string | undefined): void {
  setResponseHeader(ctx, 'Content-Security-Policy', policyOf(pagePolicies, configuredBaseUrl, pagePolicy));
  setResponseHeader(ctx, 'X-Content-Type-Options', 'nosniff');
  setResponseHeader(ctx, 'Referrer-Policy', 'strict-origin-when-cross-origin');
}

/**
 * What the browser's own notices need on the feed's page. Chromium (since version 138 or so) adds a notice
 * that XSLT is deprecated to every XSLT result: a popover whose look is set in `style` attributes, with a
 * close button whose handler is `this.getRootNode().host.remove();`. Without these two sources the notice
 * shows unstyled, floating over the list, and cannot be closed. Style attributes cannot run script, and
 * rss.xsl writes none (the browser test checks that), so allowing them lets only the browser style its
 * notice; the handler is allowed by its hash alone, so no other inline script can run.
 */
const BROWSER_NOTICE_SOURCES = "script-src-attr 'unsafe-hashes' 'sha256-TXA+6usvAyONGFuiE99/kgV7JxYXAtQaottQ4sJDSIw='; style-src-attr 'unsafe-inline'";

export function setFeedSecurityHeaders(ctx: Context, configuredBaseUrl: string | undefined): void {
  setResponseHeader(ctx, 'Content-Security-Policy', policyOf(feedPolicies, configuredBaseUrl, feedPolicy));
  setResponseHeader(ctx, 'X-Content-Type-Options', 'nosniff');
  setResponseHeader(ctx, 'Referrer-Policy', 'strict-origin-when-cross-origin');
}
