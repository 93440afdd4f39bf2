/**
 * The demo host as a small catalog front (demo/): its home page, search results and record page in the
 * three languages and both layouts, sharing the plugin's choice of language (lng, session, `language`
 * cookie, Accept-Language) and layout (`ui` cookie) in both directions, with "Show all versions (N)" on
 * its lists; in Chromium with axe-core scans and screenshots. Without Chromium only the checks that need
 * no browser run: the demo imports nothing but the package's public entry points, and hides its search
 * box on an index without search (a Solr core).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import * as cheerio from 'cheerio';
import supertest from 'supertest';
import type { BrowserContext, Page } from 'playwright-core';
import { createDemoHost } from '../../demo/demoHost.js';
import { fixture, openLoadedIndex } from '../support/testHost.js';
import {
  assertAccessible, axeViolations, browserTest, demoDocuments, overflowingElements, screenshot, demoAndChromium, THESIS_ID, watch, type PageWatch,
} from './support.js';
import { note } from '../support/testNotes.js';

const DEMO = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'demo');

test('the demo imports only the package’s public entry points', (t) => {
  const allowed = /^(node:[a-z_/]+|koa|@koa\/router|koa-session|pug|koa-catalog-versions(\/(sqlite|solr|work-keys|ingest))?|\.\/[A-Za-z]+\.js)$/;
  const files = readdirSync(DEMO).filter((name) => name.endsWith('.ts'));
  t.true(files.length >= 3);
  for (const file of files) {
    const source = readFileSync(join(DEMO, file), 'utf8');
    const specifiers = [...source.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]/gm), ...source.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)]
      .map((match) => match[1] ?? '');
    for (const specifier of specifiers) t.regex(specifier, allowed, `${file} imports ${specifier}`);
  }
});

test('without a search engine (a Solr core) the demo hides its search box and says why', async (t) => {
  const index = await openLoadedIndex(fixture('thesis-in-two-repositories'));
  try {
    const request = supertest(createDemoHost({ index, baseUrl: 'http://127.0.0.1', featuredIds: [THESIS_ID] }).callback());
    const $ = cheerio.load((await request.get('/?lng=es').expect(200)).text);
    t.is($('form[role="search"]').length, 0);
    t.regex($('.demo-intro--note').text(), /Solr/);
    t.is($('title').text(), 'Bienvenido al catálogo :: Library Catalog');
    await request.get('/Search/Results?lookfor=ensino').expect(302).expect('Location', '/');
  } finally {
    await index.close();
  }
});

test('the demo’s pages keep markup in record data as text', async (t) => {
  const index = await openLoadedIndex([{ id: 'x<b>', title: '<script>alert(1)</script>', author: 'A & <i>B</i>', format: 'Book', publishDate: '2020' }]);
  try {
    const request = supertest(createDemoHost({ index, baseUrl: 'http://127.0.0.1', featuredIds: ['x<b>'], search: (text, o) => index.searchRecords(text, o) }).callback());
    for (const path of ['/', '/Record/x%3Cb%3E', '/Search/Results?lookfor=%3Cscript%3E', '/Search/Results?lookfor=alert']) {
      const html = (await request.get(path).expect(200)).text;
      t.false(/<script|<i>|<b>/.test(html), path);
    }
    const $ = cheerio.load((await request.get('/Search/Results?lookfor=%3Cscript%3E').expect(200)).text);
    t.is($('input[name="lookfor"]').attr('value'), '<script>');
  } finally {
    await index.close();
  }
});

// ---------------------------------------------------------------------------------------------------------
// In Chromium

const running = demoAndChromium();

async function open(width = 1280, cookies: Array<{ name: string; value: string }> = []): Promise<{ context: BrowserContext; page: Page; seen: PageWatch }> {
  const context = await running.browser!.newContext({ locale: 'en-US', viewport: { width, height: 800 } });
  if (cookies.length > 0) await context.addCookies(cookies.map((cookie) => ({ ...cookie, url: running.demo!.origin })));
  const page = await context.newPage();
  const seen = await watch(context, page);
  return { context, page, seen };
}

const HOME = {
  en: { heading: 'Welcome to the catalog', search: 'Search titles and authors', versions: 'Show all versions (45)' },
  'pt-br': { heading: 'Bem-vindo ao catálogo', search: 'Buscar títulos e autores', versions: 'Mostrar todas as versões (45)' },
  es: { heading: 'Bienvenido al catálogo', search: 'Buscar títulos y autores', versions: 'Mostrar todas las versiones (45)' },
} as const;

for (const lng of ['en', 'pt-br', 'es'] as const) {
  for (const theme of ['standard', 'mobile'] as const) {
    browserTest(`the demo's home in ${lng}, ${theme} layout, at 1280 and 390 px: the site's header, a search box, works with their versions`, async (t) => {
      for (const width of [1280, 390]) {
        const { context, page, seen } = await open(width, [{ name: 'ui', value: theme }]);
        try {
          await page.goto(`${running.demo!.origin}/?lng=${lng}`);
          t.is(await page.getAttribute('html', 'lang'), lng);
          t.is(await page.title(), `${HOME[lng].heading} :: Library Catalog`);
          t.is((await page.locator('header .site-title a').textContent())?.trim(), 'Library Catalog');
          t.is((await page.locator('label[for="lookfor"]').textContent())?.trim(), HOME[lng].search);
          t.is(await page.locator('nav.language-switch a').count(), 2);
          t.is((await page.locator('ol.demo-results a.show-versions').first().textContent())?.trim(), HOME[lng].versions);
          t.deepEqual(await overflowingElements(page), [], `${lng} ${theme} ${width}: nothing wider than the screen`);
          t.deepEqual(await seen.cspViolations(), []);
          t.deepEqual(seen.errors, []);
          note(t, `screenshot: ${await screenshot(page, `demo-home-${lng}-${theme}-${width}`)}`);
        } finally {
          await context.close();
        }
      }
      assertAccessible(t, `demo home ${lng} ${theme}`, await axeViolations(running.browser!, `${running.demo!.origin}/?lng=${lng}`, [{ name: 'ui', value: theme }]));
    });
  }
}

browserTest('searching titles and authors lists records with "Show all versions (N)", in pages', async (t) => {
  const { context, page, seen } = await open(390, [{ name: 'ui', value: 'mobile' }]);
  try {
    await page.goto(`${running.demo!.origin}/?lng=en`);
    await page.locator('input[name="lookfor"]').fill('brás cubas');
    await Promise.all([page.waitForURL(/\/Search\/Results\?lookfor=/), page.locator('button[type="submit"]').click()]);
    t.is((await page.locator('h1').textContent())?.trim(), 'Results for “brás cubas”');
    t.is((await page.locator('p.showing').textContent())?.trim(), 'Showing 1 - 20 of 45');
    t.is(await page.locator('ol.demo-results > li').count(), 20);
    t.deepEqual([...new Set(await page.locator('ol.demo-results a.show-versions').allTextContents())], ['Show all versions (45)']);
    t.is(await page.inputValue('input[name="lookfor"]'), 'brás cubas', 'the box keeps the words');
    note(t, `screenshot: ${await screenshot(page, 'demo-results-en-mobile-390')}`);
    await Promise.all([page.waitForURL(/page=2/), page.locator('nav.demo-pager a[rel="next"]').click()]);
    t.is((await page.locator('p.showing').textContent())?.trim(), 'Showing 21 - 40 of 45');
    await page.locator('input[name="lookfor"]').fill('Assis, Machado');
    await Promise.all([page.waitForURL(/lookfor=Assis/), page.locator('button[type="submit"]').click()]);
    // Every record the demo holds by him: the 45 of one work, the feed-paged work's, and two of the entry-fields fixture.
    const byAssis = demoDocuments().filter((document) => document.author === 'Assis, Machado de').length;
    t.is((await page.locator('p.showing').textContent())?.trim(), `Showing 1 - 20 of ${byAssis}`, 'an author’s name finds every work of his');
    await page.goto(`${running.demo!.origin}/Search/Results?lookfor=nothing+like+this`);
    t.regex((await page.locator('main').textContent()) ?? '', /No records match “nothing like this”/);
    t.deepEqual(await overflowingElements(page), []);
    t.deepEqual(await seen.cspViolations(), []);
    assertAccessible(t, 'demo results', await axeViolations(running.browser!, `${running.demo!.origin}/Search/Results?lookfor=dom+casmurro&lng=pt-br`));
  } finally {
    await context.close();
  }
});

browserTest('the demo and the plugin share the language and the layout, both ways', async (t) => {
  const { context, page, seen } = await open(1280);
  try {
    // Chosen on the host's home page: the versions page follows (its link carries no lng).
    await page.goto(`${running.demo!.origin}/`);
    t.is(await page.getAttribute('html', 'lang'), 'en', 'Accept-Language en-US');
    await Promise.all([page.waitForURL(/lng=es/), page.locator('nav.language-switch a[hreflang="es"]').click()]);
    const versionsLink = page.locator('ol.demo-results a.show-versions').first();
    t.false((await versionsLink.getAttribute('href'))?.includes('lng='));
    await Promise.all([page.waitForURL(/\/Search\/Versions\?/), versionsLink.click()]);
    t.is(await page.getAttribute('html', 'lang'), 'es');
    t.regex((await page.locator('h1').textContent()) ?? '', /^Versiones - /);

    // Chosen on the versions page: the host's pages follow.
    await Promise.all([page.waitForURL(/lng=pt-br/), page.locator('nav.language-switch a[hreflang="pt-br"]').click()]);
    await Promise.all([page.waitForURL(/\/$/), page.locator('header .site-title a').click()]);
    t.is(await page.getAttribute('html', 'lang'), 'pt-br');
    t.is((await page.locator('h1').textContent())?.trim(), 'Bem-vindo ao catálogo');
    await page.goto(`${running.demo!.origin}/Record/${encodeURIComponent(THESIS_ID)}`);
    t.is(await page.getAttribute('html', 'lang'), 'pt-br');
    t.is((await page.locator('a.show-versions').textContent())?.trim(), 'Mostrar todas as versões (2)');

    // The layout: chosen in the host's footer, kept by the plugin's pages.
    await Promise.all([page.waitForURL(/ui=mobile/), page.locator('footer a', { hasText: 'Layout para celular' }).click()]);
    t.is(await page.getAttribute('html', 'data-theme'), 'mobile');
    await Promise.all([page.waitForURL(/\/Search\/Versions\?/), page.locator('a.show-versions').click()]);
    t.is(await page.getAttribute('html', 'data-theme'), 'mobile');
    t.is(await page.getAttribute('html', 'lang'), 'pt-br');
    t.deepEqual(await seen.cspViolations(), []);
    t.deepEqual(seen.errors, []);
  } finally {
    await context.close();
  }
});

const RECORD = {
  en: ['Author', 'Format', 'Published', 'Full text', 'Record id'],
  'pt-br': ['Autor', 'Formato', 'Publicação', 'Texto integral', 'Identificador'],
  es: ['Autor', 'Formato', 'Publicación', 'Texto completo', 'Identificador'],
} as const;

for (const lng of ['en', 'pt-br', 'es'] as const) {
  browserTest(`the demo's record page and its 404 in ${lng}`, async (t) => {
    for (const [theme, width] of [['standard', 1280], ['mobile', 390]] as const) {
      const { context, page, seen } = await open(width, [{ name: 'ui', value: theme }]);
      try {
        const response = await page.goto(`${running.demo!.origin}/Record/${encodeURIComponent(THESIS_ID)}?lng=${lng}`);
        t.is(response?.status(), 200);
        t.is(await page.title(), 'O ensino de ciências na educação básica: práticas e desafios :: Library Catalog');
        t.deepEqual((await page.locator('dl.demo-fields dt').allTextContents()).map((text) => text.trim()), [...RECORD[lng]]);
        t.deepEqual(await overflowingElements(page), [], `record ${lng} ${theme} ${width}`);
        note(t, `screenshot: ${await screenshot(page, `demo-record-${lng}-${theme}-${width}`)}`);
        const missing = await page.goto(`${running.demo!.origin}/Record/no-such-record?lng=${lng}`);
        t.is(missing?.status(), 404);
        t.is(await page.locator('main a[href="/"]').count(), 1);
        t.deepEqual(seen.errors.filter((error) => !/status of 404/.test(error)), []);
        t.deepEqual(await seen.cspViolations(), []);
      } finally {
        await context.close();
      }
      assertAccessible(t, `demo record ${lng} ${theme}`, await axeViolations(running.browser!, `${running.demo!.origin}/Record/${encodeURIComponent(THESIS_ID)}?lng=${lng}`, [{ name: 'ui', value: theme }]));
    }
  });
}

