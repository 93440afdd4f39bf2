/**
 * Writes a versions answer onto the response: status, validators, Vary, caching and security headers, then
 * the body, or 304 when the request's validators still hold (docs/caching-and-security.md).
 */
import type { Context } from 'koa';
import { setFeedSecurityHeaders, setPageSecurityHeaders, setResponseHeader } from './securityHeaders.js';
import type { RequestSettings } from './requestSettings.js';
import type { VersionsAnswer, VersionsAnswers } from './versionsAnswers.js';

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
 * Sends `answer`. `configuredBaseUrl` is the baseUrl option (the security headers name it when given);
 * `answers` makes a kept feed's body with the current dates.
 */
export function sendAnswer(ctx: Context, settings: RequestSettings, answer: VersionsAnswer, answers: VersionsAnswers, configuredBaseUrl: string | undefined): void {
  // The feed's address answers browsers and feed readers differently: caches must keep them apart.
  varyOn(ctx, settings.view === 'rss' || settings.feedPreview ? FEED_ADDRESS_VARY : PAGE_VARY);
  ctx.status = 200;
  setResponseHeader(ctx, 'ETag', answer.etag);
  // The text ctx.lastModified would write, formatted once with the answer instead of on every request.
  setResponseHeader(ctx, 'Last-Modified', answer.lastModifiedHeader);
  // Feeds: readers poll, shared caches may keep them a few minutes. Pages: revalidate every time (cookies).
  setResponseHeader(ctx, 'Cache-Control', settings.view === 'rss' ? 'public, max-age=300' : 'private, no-cache');
  if (settings.view === 'rss') setFeedSecurityHeaders(ctx, configuredBaseUrl);
  else setPageSecurityHeaders(ctx, configuredBaseUrl);
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
