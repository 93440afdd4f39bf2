/**
 * The feed's XSL view. In Chromium, opening a feed URL applies /themes/root/assets/xsl/rss.xsl under the
 * feed's own Content-Security-Policy: the items must show as a page like the HTML view (the site's header,
 * "Versions - <title of the work>", "Published in", translated formats, styled paging links), with no CSP
 * violation, and with nothing over the list: Chromium's own XSLT-deprecation notice, which the policy lets
 * it style, must render legibly and leave the list free (element boxes and elementFromPoint over every item
 * in view, at 1280, 390 and 320 px). Independently of any browser, xsltproc (libxslt, Debian's xsltproc
 * package) turns real feeds from the app into HTML that shows every item as a link.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import test, { type ExecutionContext, type ImplementationFn } from 'ava';
import * as cheerio from 'cheerio';
import type { Page } from 'playwright-core';
import { channelOf, itemsOf, parseFeed, textOf } from '../support/parseFeed.js';
import { fixture, testHost } from '../support/testHost.js';
import {
  ARTIFACTS, assertAccessible, feedAsXml, axeViolations, browserTest, FEED_PAGED_WORK_ID, FEED_PAGED_WORK_SIZE, hasChromium, HOSTILE_TITLE, HOSTILE_TITLE_ID,
  launchChromium, listItemsCovered, overflowingElements, PAGED_WORK_ID, screenshot, demoAndChromium, THESIS_ID, viewportScreenshot, watch, XSLTPROC,
  type PageWatch,
} from './support.js';
import { note } from '../support/testNotes.js';

const run = promisify(execFile);
const hasXsltproc = existsSync(XSLTPROC);

/** Whether this Chromium runs XSLT (browsers are retiring it), asked once before the tests are declared. */
const chromiumRunsXslt = hasChromium && await (async () => {
  const browser = await launchChromium();
  try {
    return await (await browser.newPage()).evaluate('typeof XSLTProcessor') === 'function';
  } finally {
    await browser.close();
  }
})();

// The demo serves xsltproc's test too, even without Chromium.
const running = demoAndChromium(hasXsltproc);

/**
 * A test of Chromium's XSL view: reported as skipped, with the reason, in a Chromium without XSLT, where
 * only xsltproc's tests below can check the view (and feedInBrowser.test.ts the HTML view it then gets).
 */
function xslViewTest(title: string, implementation: ImplementationFn<[]>): void {
  if (hasChromium && !chromiumRunsXslt) test.skip(`${title} (skipped: this Chromium has no XSLT; the view is checked with xsltproc only)`, implementation);
  else browserTest(title, implementation);
}

/**
 * No CSP violation at all: not by the XSL output, which has no inline style or handlers of its own (the
 * policy's allowance for style attributes is for the browser's notice only), and not by Chromium's
 * XSLT-deprecation notice (<xslt-warning-banner>: style attributes, and a close handler allowed by its hash;
 * a new Chromium that words the handler otherwise shows here first).
 */
async function assertNoCspViolation(t: ExecutionContext, page: Page, seen: PageWatch): Promise<void> {
  const inlineOutsideBanner = await page.evaluate(`Array.from(document.querySelectorAll('body *'))
    .filter((element) => !element.closest('xslt-warning-banner'))
    .filter((element) => Array.from(element.attributes).some((attribute) => /^on|^style$/i.test(attribute.name))).length`);
  t.is(inlineOutsideBanner, 0, 'the XSL output has no inline style or event handlers');
  t.deepEqual(await seen.cspViolations(), [], 'CSP violations');
  t.deepEqual(seen.errors, [], 'console errors');
}

/** Chromium's notice, when this Chromium adds one: styled (so legible), clear of the page's header and list. */
async function assertNoticeLegibleAndAside(t: ExecutionContext, page: Page, what: string): Promise<void> {
  const banner = page.locator('xslt-warning-banner');
  if (await banner.count() === 0) {
    note(t, `${what}: this Chromium adds no XSLT notice`);
    return;
  }
  const look = await banner.evaluate((element) => {
    const style = (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string; color: string; display: string } }).getComputedStyle(element);
    return { background: style.backgroundColor, color: style.color, display: style.display };
  });
  t.not(look.background, 'rgba(0, 0, 0, 0)', `${what}: the notice is styled as Chromium means it (its style attributes apply)`);
  t.not(look.background, look.color, `${what}: its text stands out from its background`);
  const notice = await banner.boundingBox();
  const header = await page.locator('header.site-header').boundingBox();
  t.truthy(notice && header);
  if (notice && header) t.true(notice.y + notice.height <= header.y + 0.5, `${what}: the notice ends (${notice.y + notice.height}) above the site header (${header.y})`);
}

const feedUrl = (id: string, extra = '') => `${running.demo!.origin}/Search/Versions?id=${encodeURIComponent(id)}&search=versions&view=rss${extra}`;

xslViewTest('Chromium shows the feed through its XSL stylesheet, every item visible, no CSP violation', async (t) => {
  const context = await running.browser!.newContext({ locale: 'en-US' });
  try {
    await feedAsXml(context);
    const page = await context.newPage();
    const seen = await watch(context, page);
    const response = await page.goto(feedUrl(PAGED_WORK_ID, '&lng=en'));
    t.is(response?.status(), 200);
    t.regex(response?.headers()['content-type'] ?? '', /^text\/xml/);
    const items = await page.locator('main ol > li').count();
    t.is(items, 45, 'the transformed page lists every item');
    const titles = await page.locator('main ol > li h2 a').allTextContents();
    t.true(titles.every((title) => /Memórias póstumas de Brás Cubas/i.test(title)), JSON.stringify(titles.slice(0, 3)));
    t.true(await page.locator('main ol > li').first().isVisible());
    // The heading names the work, as the HTML page does (it was the channel title, "Results for Versions - many-001",
    // which now links to the HTML page beside the "Showing" line).
    t.is((await page.locator('h1').textContent())?.trim(), 'Versions - Memórias póstumas de Brás Cubas');
    t.is((await page.locator('.feed-view__page-link a').textContent())?.trim(), 'Results for Versions - many-001');
    t.is(await page.getAttribute('html', 'lang'), 'en');
    t.is((await page.locator('.site-title a').textContent())?.trim(), 'Library Catalog');
    t.is((await page.locator('main ol > li.version--requested .version__flag').textContent())?.trim(), 'The record you came from');
    t.is((await page.locator('main ol > li .version__published').first().textContent())?.trim(), 'Published in 1925');
    await assertNoCspViolation(t, page, seen);
    note(t, `screenshot: ${await screenshot(page, 'feed-xsl-view')}`);
    // Chromium's own deprecation banner is not part of the view (and the CSP keeps it hidden outside this scan).
    assertAccessible(t, 'feed XSL view', await axeViolations(running.browser!, feedUrl(PAGED_WORK_ID, '&lng=en'), [], ['xslt-warning-banner']));
  } finally {
    await context.close();
  }
});

xslViewTest('the XSL view of a second feed page numbers from 51 and links the other pages', async (t) => {
  const context = await running.browser!.newContext({ locale: 'en-US' });
  try {
    await feedAsXml(context);
    const page = await context.newPage();
    const seen = await watch(context, page);
    await page.goto(feedUrl(FEED_PAGED_WORK_ID, '&lng=pt-br&page=2'));
    t.is(await page.getAttribute('main ol', 'start'), '51');
    t.is(await page.locator('main ol > li').count(), FEED_PAGED_WORK_SIZE - 50, 'the rest of the work after the first 50');
    t.deepEqual((await page.locator('nav.pagination a').allTextContents()).map((text) => text.trim()),
      ['Ir para a primeira página', 'Ir para a página anterior', 'Ir para a última página']);
    t.is(await page.getAttribute('html', 'lang'), 'pt-br');
    // Styled as the HTML page's paging steps, on one row at this width.
    const steps = await page.locator('nav.pagination a.pagination__step').evaluateAll((links) => links.map((link) => {
      const box = link.getBoundingClientRect();
      return { top: Math.round(box.top), border: (globalThis as unknown as { getComputedStyle(e: unknown): { borderTopStyle: string } }).getComputedStyle(link).borderTopStyle };
    }));
    t.is(steps.length, 3);
    t.true(steps.every((step) => step.top === steps[0]?.top && step.border === 'solid'), JSON.stringify(steps));
    t.deepEqual(await page.locator('main ol > li .badge').first().textContent(), 'Livro', 'format labels translated');
    // The language switch names the same feed page in the other languages.
    t.deepEqual(await page.locator('nav.language-switch a').evaluateAll((links) => links.map((link) => new URL((link as unknown as { href: string }).href).search)), [
      '?sort=last_indexed+desc&limit=50&view=rss&id=sixty-001&search=versions&lng=en&page=2',
      '?sort=last_indexed+desc&limit=50&view=rss&id=sixty-001&search=versions&lng=es&page=2',
    ]);
    await assertNoCspViolation(t, page, seen);
  } finally {
    await context.close();
  }
});

const WORK_TITLES = { [PAGED_WORK_ID]: 'Memórias póstumas de Brás Cubas', [THESIS_ID]: 'O ensino de ciências na educação básica: práticas e desafios' } as const;
const VERSIONS = { en: 'Versions', 'pt-br': 'Versões', es: 'Versiones' } as const;

for (const lng of ['en', 'pt-br', 'es'] as const) {
  xslViewTest(`the XSL view in ${lng} at 1280, 390 and 320 px: the HTML page's look, nothing over the list, the notice legible`, async (t) => {
    for (const width of [1280, 390, 320]) {
      const context = await running.browser!.newContext({ locale: 'en-US', viewport: { width, height: 800 } });
      try {
        await feedAsXml(context);
    const page = await context.newPage();
        const seen = await watch(context, page);
        for (const id of [PAGED_WORK_ID, THESIS_ID] as const) {
          await page.goto(feedUrl(id, `&lng=${lng}`));
          const what = `${id} ${lng} ${width}`;
          t.is((await page.locator('h1').textContent())?.trim(), `${VERSIONS[lng]} - ${WORK_TITLES[id]}`, what);
          const sheets = await page.evaluate(`Array.from(document.styleSheets).map((sheet) => sheet.cssRules.length)`) as number[];
          t.true(sheets.length === 1 && (sheets[0] ?? 0) > 0, `${what}: the standard theme applies`);
          await assertNoticeLegibleAndAside(t, page, what);
          t.deepEqual(await listItemsCovered(page, 'main ol.versions > li'), [], `${what}: nothing over the list`);
          t.deepEqual(await overflowingElements(page), [], `${what}: nothing wider than the screen`);
          note(t, `screenshot: ${await viewportScreenshot(page, `feed-xsl-${lng}-${width}-${id === THESIS_ID ? 'thesis' : 'top'}`)}`);
        }
        await page.goto(feedUrl(PAGED_WORK_ID, `&lng=${lng}`));
        note(t, `screenshot: ${await screenshot(page, `feed-xsl-${lng}-${width}`)}`);
        // Scrolled into the list, the notice (which scrolls away with the page) still covers nothing.
        await page.evaluate('window.scrollTo(0, 1200)');
        t.deepEqual(await listItemsCovered(page, 'main ol.versions > li'), [], `${lng} ${width}: nothing over the list, scrolled`);
        await assertNoCspViolation(t, page, seen);
      } finally {
        await context.close();
      }
    }
  });
}

xslViewTest('Chromium’s notice closes with its own button, and the page closes up', async (t) => {
  const context = await running.browser!.newContext({ locale: 'en-US', viewport: { width: 390, height: 800 } });
  try {
    await feedAsXml(context);
    const page = await context.newPage();
    const seen = await watch(context, page);
    await page.goto(feedUrl(PAGED_WORK_ID, '&lng=es'));
    if (await page.locator('xslt-warning-banner').count() === 0) {
      note(t, 'this Chromium adds no XSLT notice');
      return;
    }
    const before = (await page.locator('header.site-header').boundingBox())?.y ?? 0;
    await page.locator('xslt-warning-banner').getByRole('button').click();
    t.is(await page.locator('xslt-warning-banner').count(), 0, 'its close handler ran (allowed by its hash)');
    t.is((await page.locator('header.site-header').boundingBox())?.y, 0, `the header moved up from ${before}`);
    t.deepEqual(await listItemsCovered(page, 'main ol.versions > li'), []);
    await assertNoCspViolation(t, page, seen);
  } finally {
    await context.close();
  }
});

xslViewTest('the XSL view of a feed page past the end says so and links to the last page', async (t) => {
  const context = await running.browser!.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
  try {
    await feedAsXml(context);
    const page = await context.newPage();
    const seen = await watch(context, page);
    await page.goto(feedUrl(FEED_PAGED_WORK_ID, '&lng=es&page=9'));
    t.is(await page.locator('main ol > li').count(), 0);
    t.regex((await page.locator('.past-end').textContent()) ?? '', /^No hay resultados en la página 9; la última página es la 2\.\s+Ir a la última página$/);
    t.true((await page.locator('.past-end a').getAttribute('href'))?.endsWith('&lng=es&page=2'));
    t.is((await page.locator('h1').textContent())?.trim(), 'Resultados para Versiones - sixty-001', 'no item names the work: the channel title');
    note(t, `screenshot: ${await viewportScreenshot(page, 'feed-xsl-past-end')}`);
    await assertNoCspViolation(t, page, seen);
  } finally {
    await context.close();
  }
});

/** A feed from the app and the stylesheet, saved side by side, turned into HTML by xsltproc. */
async function transformWithXsltproc(name: string, url: string): Promise<{ feed: string; html: string }> {
  const directory = join(ARTIFACTS, 'xslt');
  mkdirSync(directory, { recursive: true });
  const feed = await (await fetch(url)).text();
  const stylesheet = await (await fetch(`${running.demo!.origin}/themes/root/assets/xsl/rss.xsl`)).text();
  // One stylesheet copy per feed: the tests run concurrently and must not rewrite a file xsltproc is reading.
  writeFileSync(join(directory, `${name}.xml`), feed);
  writeFileSync(join(directory, `${name}.xsl`), stylesheet);
  const { stdout } = await run(XSLTPROC, ['--nonet', join(directory, `${name}.xsl`), join(directory, `${name}.xml`)], { maxBuffer: 16 * 1024 * 1024 });
  writeFileSync(join(directory, `${name}.html`), stdout);
  return { feed, html: stdout };
}

/** A feed and a stylesheet (as texts) turned into HTML by xsltproc. */
async function xsltproc(name: string, feed: string, stylesheet: string): Promise<string> {
  const directory = join(ARTIFACTS, 'xslt');
  mkdirSync(directory, { recursive: true });
  writeFileSync(join(directory, `${name}.xml`), feed);
  writeFileSync(join(directory, `${name}.xsl`), stylesheet);
  const { stdout } = await run(XSLTPROC, ['--nonet', join(directory, `${name}.xsl`), join(directory, `${name}.xml`)], { maxBuffer: 16 * 1024 * 1024 });
  writeFileSync(join(directory, `${name}.html`), stdout);
  return stdout;
}

const xsltprocTest = hasXsltproc ? test : test.skip;
const skipNote = hasXsltproc ? '' : ` (skipped: no ${XSLTPROC}; install Debian's xsltproc package)`;

xsltprocTest(`xsltproc turns a real feed into HTML that shows every item as a link${skipNote}`, async (t) => {
  for (const [name, url] of [
    ['feed-en', feedUrl(PAGED_WORK_ID, '&lng=en')],
    ['feed-pt-br-page-1', feedUrl(FEED_PAGED_WORK_ID, '&lng=pt-br')],
    ['feed-es-page-2', feedUrl(FEED_PAGED_WORK_ID, '&lng=es&page=2')],
  ] as const) {
    const { feed, html } = await transformWithXsltproc(name, url);
    const items = itemsOf(parseFeed(feed));
    t.true(items.length > 0, name);
    const $ = cheerio.load(html);
    const links = $('main ol > li h2 a').toArray().map((a) => ({ href: $(a).attr('href'), text: $(a).text() }));
    t.deepEqual(links, items.map((item) => ({ href: textOf(item, 'link'), text: textOf(item, 'title') })), `${name}: every item, in order, as a link`);
    const lng = /lng=([a-z-]+)/.exec(url)?.[1] as keyof typeof VERSIONS;
    t.is($('html').attr('lang'), lng, `${name}: lang`);
    // The heading names the work (the first item's title here: the requested record is on another page or
    // is the first item); the channel title links to the HTML page.
    t.is($('h1').text().trim(), `${VERSIONS[lng]} - ${items[0] ? textOf(items[0], 'title') : ''}`, `${name}: heading`);
    const channel = channelOf(parseFeed(feed));
    t.is($('.feed-view__page-link a').text().trim(), textOf(channel, 'title') ?? '(no channel title)', `${name}: channel title`);
    t.is($('.feed-view__page-link a').attr('href'), textOf(channel, 'link'), `${name}: channel link`);
  }
});

xsltprocTest(`xsltproc output speaks the feed's language: "Published in", format labels, the requested record${skipNote}`, async (t) => {
  for (const [lng, publishedIn, book, requested] of [
    ['en', 'Published in', 'Book', 'The record you came from'],
    ['pt-br', 'Publicado em', 'Livro', 'O registro de onde você veio'],
    ['es', 'Publicado en', 'Libro', 'El registro del que viene'],
  ] as const) {
    const { html } = await transformWithXsltproc(`feed-labels-${lng}`, feedUrl(PAGED_WORK_ID, `&lng=${lng}`));
    const $ = cheerio.load(html);
    t.is($('main ol > li .version__published').first().text().replace(/\s+/g, ' ').trim(), `${publishedIn} 1925`, lng);
    t.is($('main ol > li .badge').first().text(), book, lng);
    const flagged = $('main ol > li.version--requested');
    t.is(flagged.length, 1, lng);
    t.is(flagged.find('.version__flag').text(), requested);
    t.true(flagged.find('h2 a').attr('href')?.endsWith('/Record/many-001'));
    t.is(flagged.find('h2 a').attr('aria-current'), 'true');
    t.is($('a.skip-link').attr('href'), '#main');
    t.is($('main#main').length, 1);
    t.is($('style, script, [style]').length, 0);
  }
});

xsltprocTest(`xsltproc output keeps markup in record data as text${skipNote}`, async (t) => {
  const { html } = await transformWithXsltproc('feed-hostile-title', feedUrl(HOSTILE_TITLE_ID, '&lng=en'));
  const $ = cheerio.load(html);
  t.is($('script, b, i').length, 0, 'no element comes from the data');
  t.is($('main ol > li h2 a').text(), HOSTILE_TITLE);
  t.is($('main ol > li p').first().text(), 'Tester, <i>Eve</i>');
});

xsltprocTest(`the served stylesheet carries the plugin's own languages, site title and home${skipNote}`, async (t) => {
  const { request } = await testHost([...fixture('thesis-in-two-repositories')], {
    languages: ['es', 'pt-br'], defaultLanguage: 'es', siteTitle: 'Biblioteca <Central> & Co', catalogHomeUrl: '/vufind/?a=1&b=2',
  });
  const stylesheet = (await request.get('/themes/root/assets/xsl/rss.xsl').expect(200)).text;
  t.false(stylesheet.includes('The record you came from'), 'no label of a language the plugin does not offer');
  for (const [lng, publishedIn] of [['pt-br', 'Publicado em'], ['es', 'Publicado en']] as const) {
    const feed = (await request.get(`/Search/Versions?id=usp%3Atese-2019-0412&search=versions&view=rss&lng=${lng}`).expect(200)).text;
    const $ = cheerio.load(await xsltproc(`feed-configured-${lng}`, feed, stylesheet));
    t.is($('.site-title a').text(), 'Biblioteca <Central> & Co');
    t.is($('.site-title a').attr('href'), '/vufind/?a=1&b=2');
    t.deepEqual($('nav.language-switch li').map((_, li) => $(li).text().trim()).get(), ['Español', 'Português (Brasil)'], 'the offered languages, in order');
    t.is($('nav.language-switch [aria-current="true"]').attr('lang'), lng);
    t.true($('main .version__published').first().text().replace(/\s+/g, ' ').trim().startsWith(publishedIn), lng);
    t.deepEqual($('main .badge').map((_, badge) => $(badge).text()).get(), lng === 'es' ? ['Tesis', 'Electrónico', 'Tesis'] : ['Tese', 'Eletrônico', 'Tese']);
  }
  // A feed whose lng names no offered language reads in the default one.
  const feed = (await request.get('/Search/Versions?id=usp%3Atese-2019-0412&search=versions&view=rss&lng=pt-br').expect(200)).text.replace(/lng=pt-br/g, 'lng=xx');
  const $ = cheerio.load(await xsltproc('feed-configured-unknown-language', feed, stylesheet));
  t.true($('main .version__published').first().text().includes('Publicado en'));
});
