/**
 * The one place where errors meet HTTP: each named error gets the status and page problem its code's row
 * of src/errors.ts gives, the cause goes to the log, and every failure shows the localised error page
 * (also for `view=rss`). No message, stack, path or record-missing text ever reaches the client.
 */
import type { Context } from 'koa';
import { errorDefinitionOf, VersionsError, type ErrorDefinition } from '../errors.js';
import { buildErrorPageModel } from '../page/errorModel.js';
import type { Translate } from '../i18n/labels.js';
import type { ErrorPageModel, ThemeModel } from '../page/pageViewModels.js';
import type { PluginLogger } from './pluginOptions.js';
import { setPageSecurityHeaders } from './securityHeaders.js';
import type { ThemeEngine } from './themeEngine.js';

/** The table's row for a named error; undefined for any other failure, or a code of the host's own. */
function definitionOf(error: unknown): ErrorDefinition | undefined {
  return error instanceof VersionsError ? errorDefinitionOf(error.code) : undefined;
}

export function httpStatusOf(error: unknown): number {
  return definitionOf(error)?.status ?? 500;
}

export interface ErrorPageSettings {
  readonly language: string;
  readonly translate: Translate;
  readonly theme: ThemeModel;
  readonly siteTitle: string;
  readonly contact: string;
  /** The catalog's home (the catalogHomeUrl option): the error page's way out. */
  readonly catalogHomeUrl: string;
  /** Every offered language with its own name, for the language switch. */
  readonly languages: ReadonlyArray<{ readonly code: string; readonly name: string }>;
  /** The plugin's baseUrl option (undefined: the request's own origin). */
  readonly configuredBaseUrl: string | undefined;
  readonly engine: ThemeEngine;
  readonly logger: PluginLogger;
}

/** Text for HTML written without a template (the plain error page below). */
export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** The same three lines without the theme, for when rendering the themed page itself failed. */
function plainErrorPage(model: ErrorPageModel): string {
  return `<!DOCTYPE html>\n<html lang="${escapeHtml(model.language)}"><head><meta charset="utf-8"><title>${escapeHtml(model.documentTitle)}</title></head>`
    + `<body><main><h1>${escapeHtml(model.heading)}</h1>${model.subject !== undefined ? `<h2>${escapeHtml(model.subject)}</h2>` : ''}`
    + `${model.advice !== undefined ? `<p>${escapeHtml(model.advice)}</p>` : ''}<p>${escapeHtml(model.message)}</p><p>${escapeHtml(model.contactLine)}</p>`
    + `<nav><a href="${escapeHtml(model.homeLink.href)}">${escapeHtml(model.homeLink.label)}</a></nav></main></body></html>\n`;
}

export async function respondWithErrorPage(ctx: Context, error: unknown, settings: ErrorPageSettings): Promise<void> {
  const status = httpStatusOf(error);
  const code = error instanceof VersionsError ? error.code : 'INTERNAL';
  const details = { code, status, method: ctx.method, url: ctx.originalUrl, cause: error };
  if (status >= 500) settings.logger.error(`${code}: ${(error as Error)?.message ?? String(error)}`, details);
  else settings.logger.warn(`${code}: ${(error as Error)?.message ?? String(error)}`, { code, status, method: ctx.method, url: ctx.originalUrl });

  // A missing record, a missing id and an index not answering are explained, with what to do (the
  // patron can follow another link, search, or wait); other causes stay behind the contract's three lines
  // and go to the log.
  const definition = definitionOf(error);
  const problem = definition !== undefined && 'page' in definition ? definition.page.problem : undefined;
  const model = buildErrorPageModel({ ...settings, ...(problem !== undefined ? { problem } : {}) });
  let html: string;
  try {
    html = await settings.engine.render('error', settings.theme.name, { error: model, theme: settings.theme });
  } catch (renderError) {
    settings.logger.error('The error page template failed; sent the plain error page', { cause: renderError });
    html = plainErrorPage(model);
  }
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Cache-Control', 'no-store');
  setPageSecurityHeaders(ctx, settings.configuredBaseUrl);
  ctx.remove('ETag');
  ctx.remove('Last-Modified');
  ctx.body = html;
}
