/**
 * The paths the plugin answers (docs/options.md, "Routes it answers"), as one Koa middleware: @koa/router's
 * routes and allowed methods. Everything else, and a theme asset that is not one, passes to the host.
 */
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import compose from 'koa-compose';
import { FEED_STYLESHEET_PATH, HEALTH_PATH, THEME_ASSET_ROUTE, VERSIONS_PATH } from '../versions/versionsUrls.js';
import { checkIndexHealth, watchIndexFile } from './indexHealth.js';
import type { PluginConfig } from './pluginOptions.js';
import type { ThemeEngine } from './themeEngine.js';

export interface PluginRouteHandlers {
  /** The versions page and feed (versionsRoute.ts). */
  readonly versions: (ctx: Context) => Promise<void> | undefined;
  /** The feed's XSLT stylesheet, made once (page/feedStylesheet.ts). */
  readonly feedStylesheet: Buffer;
}

// Static files: the same bytes until the package is upgraded, so caches may keep them a day.
function sendStatic(ctx: Context, type: string, body: Buffer): void {
  ctx.type = type;
  ctx.set('Cache-Control', 'public, max-age=86400');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.body = body;
}

export function pluginRoutes(config: PluginConfig, themes: ThemeEngine, handlers: PluginRouteHandlers): Middleware {
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
  router.get(VERSIONS_PATH, handlers.versions);
  router.get(HEALTH_PATH, healthRoute);
  router.get(FEED_STYLESHEET_PATH, (ctx) => sendStatic(ctx, 'text/xsl; charset=utf-8', handlers.feedStylesheet));
  router.get(THEME_ASSET_ROUTE, (ctx) => {
    const file = themes.assetFile(ctx.params.theme ?? '', ctx.params.file ?? '');
    if (file === undefined) return; // not ours: the host's 404
    sendStatic(ctx, extname(file), readFileSync(file));
  });
  const routes = router.routes() as Middleware;
  const routesAndMethods = compose([routes, router.allowedMethods() as Middleware]);
  // The versions path, nearly every request the plugin gets, is answered by the router alone: allowedMethods
  // acts only on a request no route answered, and the versions route answers every request it matches.
  return (ctx, next) => (ctx.path === VERSIONS_PATH && (ctx.method === 'GET' || ctx.method === 'HEAD') ? routes(ctx, next) : routesAndMethods(ctx, next));
}
