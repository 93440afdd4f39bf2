/**
 * Security headers of the plugin's answers. Pages (versions and error pages) run no script at all and
 * load only the themes' stylesheets; the feed needs `script-src` for its stylesheet, because Chromium
 * checks the `<?xml-stylesheet?>` XSLT load against it (and the transformed page inherits the feed's
 * policy, so the XSL output must stay free of inline styles and scripts too).
 */
import type { Context } from 'koa';

/** `'self'` plus the base URL's origin, when the public address differs from the one the request came in on. */
function sources(baseUrl: string): string {
  let origin: string;
  try {
    origin = new URL(baseUrl).origin;
  } catch {
    return "'self'";
  }
  return `'self' ${origin}`;
}

export function setPageSecurityHeaders(ctx: Context, baseUrl: string): void {
  ctx.set('Content-Security-Policy',
    `default-src 'none'; style-src ${sources(baseUrl)}; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'self'`);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'strict-origin-when-cross-origin');
}

export function setFeedSecurityHeaders(ctx: Context, baseUrl: string): void {
  const self = sources(baseUrl);
  ctx.set('Content-Security-Policy', `default-src 'none'; script-src ${self}; style-src ${self}; img-src 'self' data:; base-uri 'none'; frame-ancestors 'self'`);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'strict-origin-when-cross-origin');
}
