/**
 * The public address of a request when no baseUrl is configured: the protocol and Host it came in on, then
 * the path the plugin is mounted under. Every link of an answer starts with it (docs/options.md, baseUrl).
 */
import type { Context } from 'koa';

/**
 * The public address when no baseUrl is configured: the protocol and Host the request came in on (Koa's
 * `ctx.origin` is the Origin *header* since Koa 3, which a client chooses freely), then the path the
 * plugin is mounted under (requestPathPrefix). Parsed as a URL, so a hostile Host header contributes at
 * most a host name.
 */
export function requestBaseUrl(ctx: Context): string {
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
