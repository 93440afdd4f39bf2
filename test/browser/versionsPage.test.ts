/**
 * The versions page in a real browser (issue item 5): Debian's Chromium shows it in the three languages
 * and both themes under its Content-Security-Policy (no violation, stylesheets applied), pages by clicking,
 * keeps a language chosen with the switch in the `language` cookie, is reached from the record page's
 * "Show all versions" link, and shows the localised error page. Every page gets an axe-core scan (no
 * serious or critical violation) and a screenshot in test-artifacts/screenshots/.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  assertAccessible, axeViolations, browserTest, hasChromium, launchChromium, PAGED_WORK_ID, screenshot, startDemo, THESIS_ID, watch,
  type DemoServer, type PageWatch,
} from './support.js';
import test from 'ava';

const HEADINGS = { en: 'Versions', 'pt-br': 'Versões', es: 'Versiones' } as const;
const SHOWING_FIRST_PAGE = { en: 'Showing 1 - 20 results of 45', 'pt-br': 'Mostrando 1 - 20 resultados de 45', es: 'Mostrando 1 - 20 resultados de 45' } as const;
const ERROR_LINES = {
  en: ['An error has occurred', 'An error occurred during execution; please try again later.', 'Please contact the Library Reference Department for assistance'],
  'pt-br': ['Erro na aplicação', 'Ocorreu um erro durante a execução; por favor, tente novamente mais tarde.', 'Por favor contate o Library Reference Department para mais ajuda'],
  es: ['Ha ocurrido un error', 'Se produjo un error durante la ejecución; por favor, inténtelo de nuevo más tarde.', 'Por favor, contacte con Library Reference Department para obtener ayuda'],
} as const;
const WORK_TITLE = 'Memórias póstumas de Brás Cubas';

let demo: DemoServer | undefined;
let browser: Browser | undefined;

test.before(async () => {
  if (!hasChromium) return;
  demo = await startDemo();
  browser = await launchChromium();
});

test.after.always(async () => {
  await browser?.close();
  await demo?.close();
});

const versionsUrl = (id: string, extra = '') => `${demo!.origin}/Search/Versions?id=${encodeURIComponent(id)}&search=versions${extra}`;

/** A fresh browser context (own cookies) with a watched page. */
async function open(cookies: Array<{ name: string; value: string }> = []): Promise<{ context: BrowserContext; page: Page; seen: PageWatch }> {
  const context = await browser!.newContext({ locale: 'en-US', viewport: { width: 1024, height: 768 } });
  if (cookies.length > 0) await context.addCookies(cookies.map((cookie) => ({ ...cookie, url: demo!.origin })));
  const page = await context.newPage();
  const seen = await watch(context, page);
  return { context, page, seen };
}

const texts = (page: Page, selector: string) => page.locator(selector).allTextContents().then((all) => all.map((text) => text.trim()));

for (const lng of ['en', 'pt-br', 'es'] as const) {
  for (const theme of ['standard', 'mobile'] as const) {
    browserTest(`the versions page in ${lng}, ${theme} theme: localised, styled, no CSP violation, accessible`, async (t) => {
      const { context, page, seen } = await open([{ name: 'ui', value: theme }]);
      try {
        const response = await page.goto(versionsUrl(PAGED_WORK_ID, `&lng=${lng}`));
        t.is(response?.status(), 200);
        t.is(await page.getAttribute('html', 'lang'), lng);
        t.is(await page.getAttribute('html', 'data-theme'), theme);
        t.is((await page.locator('h1').textContent())?.trim(), `${HEADINGS[lng]} - ${WORK_TITLE}`);
        t.true((await page.locator('body').textContent())?.includes(SHOWING_FIRST_PAGE[lng]));
        t.is(await page.locator('ol.versions > li').count(), 20);
        t.true(await page.locator('ol.versions > li').first().isVisible());

        // Every linked stylesheet loaded and applies (a CSP refusal would leave a sheet without rules).
        const sheets = await page.evaluate(`Array.from(document.styleSheets).map((sheet) => ({ href: sheet.href, rules: sheet.cssRules.length }))`) as Array<{ href: string; rules: number }>;
        t.is(sheets.length, await page.locator('link[rel="stylesheet"]').count());
        t.true(sheets.length >= (theme === 'mobile' ? 2 : 1), `stylesheets: ${JSON.stringify(sheets)}`);
        t.true(sheets.every((sheet) => sheet.rules > 0 && sheet.href.startsWith(demo!.origin)), JSON.stringify(sheets));

        t.deepEqual(await seen.cspViolations(), []);
        t.deepEqual(seen.errors, []);
        t.log(`screenshot: ${await screenshot(page, `versions-${lng}-${theme}`)}`);
        assertAccessible(t, `versions ${lng} ${theme}`, await axeViolations(browser!, versionsUrl(PAGED_WORK_ID, `&lng=${lng}`), [{ name: 'ui', value: theme }]));
      } finally {
        await context.close();
      }
    });
  }
}

browserTest('paging by clicking the page numbers and the next and previous links', async (t) => {
  const { context, page, seen } = await open();
  try {
    await page.goto(versionsUrl(PAGED_WORK_ID, '&lng=en'));
    t.is((await texts(page, 'nav.pagination [aria-current="page"]'))[0], '1');

    await Promise.all([page.waitForURL(/[?&]page=2(&|$)/), page.locator('nav.pagination a', { hasText: /^2$/ }).click()]);
    t.true((await page.locator('body').textContent())?.includes('Showing 21 - 40 results of 45'));
    t.is(await page.getAttribute('ol.versions', 'start'), '21');
    t.is((await texts(page, 'nav.pagination [aria-current="page"]'))[0], '2');

    await Promise.all([page.waitForURL(/[?&]page=3(&|$)/), page.locator('nav.pagination a[rel="next"]').click()]);
    t.true((await page.locator('body').textContent())?.includes('Showing 41 - 45 results of 45'));
    t.is(await page.locator('ol.versions > li').count(), 5);
    t.is(await page.locator('nav.pagination a[rel="next"]').count(), 0, 'no next link on the last page');
    t.log(`screenshot: ${await screenshot(page, 'versions-en-page-3')}`);

    await Promise.all([page.waitForURL(/[?&]page=2(&|$)/), page.locator('nav.pagination a[rel="prev"]').click()]);
    t.true((await page.locator('body').textContent())?.includes('Showing 21 - 40 results of 45'));
    t.is(new URL(page.url()).searchParams.get('lng'), 'en', 'the page links keep lng');
    t.deepEqual(await seen.cspViolations(), []);
    t.deepEqual(seen.errors, []);
  } finally {
    await context.close();
  }
});

browserTest('the language switch changes the language and the language cookie keeps the choice', async (t) => {
  const { context, page, seen } = await open();
  try {
    await page.goto(versionsUrl(PAGED_WORK_ID));
    t.is(await page.getAttribute('html', 'lang'), 'en', 'Accept-Language en-US gives English');

    await Promise.all([page.waitForURL(/lng=pt-br/), page.locator('nav.language-switch a[hreflang="pt-br"]').click()]);
    t.is(await page.getAttribute('html', 'lang'), 'pt-br');
    t.is((await page.locator('h1').textContent())?.trim(), `${HEADINGS['pt-br']} - ${WORK_TITLE}`);
    const cookie = (await context.cookies(demo!.origin)).find((c) => c.name === 'language');
    t.is(cookie?.value, 'pt-br');
    t.true(cookie?.httpOnly);
    t.is(cookie?.sameSite, 'Lax');

    // Without lng, the cookie decides: on the page, on another page of it, and on the error page.
    await page.goto(versionsUrl(PAGED_WORK_ID, '&page=2'));
    t.is(await page.getAttribute('html', 'lang'), 'pt-br');
    t.true((await page.locator('body').textContent())?.includes('Mostrando 21 - 40 resultados de 45'));
    const error = await page.goto(versionsUrl('no-such-record'));
    t.is(error?.status(), 404);
    t.deepEqual(await texts(page, 'main h1, main p'), [...ERROR_LINES['pt-br']]);

    await page.goto(versionsUrl(PAGED_WORK_ID));
    await Promise.all([page.waitForURL(/lng=es/), page.locator('nav.language-switch a[hreflang="es"]').click()]);
    t.is(await page.getAttribute('html', 'lang'), 'es');
    t.is((await context.cookies(demo!.origin)).find((c) => c.name === 'language')?.value, 'es');
    t.deepEqual(await seen.cspViolations(), []);
  } finally {
    await context.close();
  }
});

browserTest('the record page links to the versions of its work', async (t) => {
  const { context, page, seen } = await open();
  try {
    const record = await page.goto(`${demo!.origin}/Record/${encodeURIComponent(THESIS_ID)}`);
    t.is(record?.status(), 200);
    const link = page.locator('a.show-versions');
    t.is((await link.textContent())?.trim(), 'Show all versions (2)');
    t.log(`screenshot: ${await screenshot(page, 'record-page')}`);
    assertAccessible(t, 'record page (the demo host’s)', await axeViolations(browser!, page.url()));

    await Promise.all([page.waitForURL(/\/Search\/Versions\?/), link.click()]);
    t.is(new URL(page.url()).searchParams.get('id'), THESIS_ID);
    t.is(await page.locator('ol.versions > li').count(), 2);
    const requested = page.locator('ol.versions a[aria-current="true"]');
    t.is(await requested.count(), 1);
    t.true((await requested.getAttribute('href'))?.endsWith(`/Record/${THESIS_ID}`));
    t.deepEqual(await seen.cspViolations(), []);
  } finally {
    await context.close();
  }
});

for (const lng of ['en', 'pt-br', 'es'] as const) {
  browserTest(`the error page in ${lng}: 404, three localised lines, no CSP violation, accessible`, async (t) => {
    const { context, page, seen } = await open();
    try {
      for (const view of ['', '&view=rss']) {
        const response = await page.goto(versionsUrl('no-such-record', `&lng=${lng}${view}`));
        t.is(response?.status(), 404);
        t.is(await page.getAttribute('html', 'lang'), lng);
        t.deepEqual(await texts(page, 'main h1, main p'), [...ERROR_LINES[lng]]);
      }
      t.deepEqual(await seen.cspViolations(), []);
      t.deepEqual(seen.errors.filter((error) => !/status of 404/.test(error)), [], 'nothing but the 404 itself in the console');
      t.log(`screenshot: ${await screenshot(page, `error-${lng}`)}`);
      assertAccessible(t, `error page ${lng}`, await axeViolations(browser!, versionsUrl('no-such-record', `&lng=${lng}`)));
    } finally {
      await context.close();
    }
  });
}
