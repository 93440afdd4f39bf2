/**
 * The demo host: a small catalog app, built as a value (createDemoHost returns a Koa app without
 * listening), with its own minimal record page and home page, and the versions plugin mounted beside
 * them. server.ts starts it; tests drive it with supertest.
 */
import Koa from 'koa';
import Router from '@koa/router';
import { createVersionsPlugin } from '../src/http/createVersionsPlugin.js';
import { escapeHtml } from '../src/http/errorResponses.js';
import { mainAuthorOf, shortTitleOf, yearOf } from '../src/record/catalogRecord.js';
import { recordUrl } from '../src/versions/versionsUrls.js';
import type { CatalogIndex } from '../src/versions/catalogIndex.js';
import type { VersionsPluginOptions } from '../src/http/pluginOptions.js';

export interface DemoHostOptions {
  readonly index: CatalogIndex;
  readonly baseUrl: string;
  /** Record ids the home page suggests opening. */
  readonly featuredIds?: readonly string[];
  readonly plugin?: Partial<VersionsPluginOptions>;
}


function versionsHref(id: string): string {
  return `/Search/Versions?${new URLSearchParams({ id, search: 'versions' })}`;
}


function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} :: Demo Library Catalog</title>
<link rel="stylesheet" href="/themes/standard/assets/theme.css"></head>
<body><main class="main demo-host">${body}</main></body></html>
`;
}

export function createDemoHost(options: DemoHostOptions): Koa {
  const app = new Koa();
  const router = new Router();

  router.get('/', async (ctx) => {
    // A result list, as a host shows one: all its "versions (N)" counts come from one countVersions call.
    const ids = options.featuredIds ?? [];
    const counts = await options.index.countVersions(ids);
    const items: string[] = [];
    for (const id of ids) {
      const record = counts.has(id) ? await options.index.getRecord(id) : undefined;
      if (record === undefined) continue;
      const title = shortTitleOf(record) ?? id;
      items.push(`<li><a href="${escapeHtml(recordUrl('', id))}">${escapeHtml(title)}</a> <a href="${escapeHtml(versionsHref(id))}">Show all versions (${counts.get(id)})</a></li>`);
    }
    ctx.type = 'html';
    ctx.body = page('Home', `<h1>Demo Library Catalog</h1><p>Records with several versions:</p><ul>${items.join('')}</ul>`);
  });

  router.get('/Record/:id', async (ctx) => {
    const record = await options.index.getRecord(ctx.params.id ?? '');
    if (record === undefined) {
      ctx.status = 404;
      ctx.type = 'html';
      ctx.body = page('Record not found', '<h1>Record not found</h1><p><a href="/">Back to the catalog</a></p>');
      return;
    }
    const title = record.title ?? shortTitleOf(record) ?? record.id;
    const author = mainAuthorOf(record);
    const year = yearOf(record);
    const fields = [
      author !== undefined ? `<dt>Author</dt><dd>${escapeHtml(author)}</dd>` : '',
      record.formats.length > 0 ? `<dt>Format</dt><dd>${record.formats.map(escapeHtml).join(', ')}</dd>` : '',
      year !== undefined ? `<dt>Year</dt><dd>${escapeHtml(year)}</dd>` : '',
      record.urls.length > 0 ? `<dt>Full text</dt><dd>${record.urls.map((url) => `<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>`).join('<br>')}</dd>` : '',
    ].join('');
    const count = (await options.index.countVersions([record.id])).get(record.id) ?? 1;
    ctx.type = 'html';
    ctx.body = page(title, `<h1>${escapeHtml(title)}</h1><dl>${fields}</dl>
<p><a class="show-versions" href="${escapeHtml(versionsHref(record.id))}">Show all versions (${count})</a></p>`);
  });

  app.use(router.routes());
  app.use(createVersionsPlugin({ index: options.index, baseUrl: options.baseUrl, ...options.plugin }));
  return app;
}
