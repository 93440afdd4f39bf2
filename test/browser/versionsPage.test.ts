/**
 * The versions page in a real browser: Debian's Chromium shows it in the three languages and both themes,
 * at 1280 and 390 px, under its Content-Security-Policy (no violation, stylesheets applied, nothing wider
 * than the screen), pages by clicking, keeps a language chosen with the switch in the `language` cookie, is
 * reached from the record page's "Show all versions" link, says so on a page past the end, and shows the
 * localised error page with the site's header. The mobile theme is laid out at 320–414 px: its compact
 * pager never leaves a lone item on a row, and the highlighted entry fits. Every page gets an axe-core scan
 * (no serious or critical violation) and a screenshot in test-artifacts/screenshots/.
 */
import type { BrowserContext, Page } from 'playwright-core';
import {
  assertAccessible, axeViolations, browserTest, itemsPerRow, loggedSince, overflowingElements, PAGED_WORK_ID, screenshot,
  demoAndChromium, THESIS_ID, viewportScreenshot, watch, type PageWatch,
} from './support.js';
import test from 'ava';
import { note } from '../support/testNotes.js';

const HEADINGS = { en: 'Versions', 'pt-br': 'Versões', es: 'Versiones' } as const;
const SHOWING_FIRST_PAGE = { en: 'Showing 1 - 20 results of 45', 'pt-br': 'Mostrando 1 - 20 resultados de 45', es: 'Mostrando 1 - 20 resultados de 45' } as const;
const ERROR_LINES = {
  en: ['An error has occurred', 'An error occurred during execution; please try again later.', 'Please contact the Library Reference Department for assistance'],
  'pt-br': ['Erro na aplicação', 'Ocorreu um erro durante a execução; por favor, tente novamente mais tarde.', 'Por favor contate o Library Reference Department para mais ajuda'],
  es: ['Ha ocurrido un error', 'Se produjo un error durante la ejecución; por favor, inténtelo de nuevo más tarde.', 'Por favor, contacte con Library Reference Department para obtener ayuda'],
} as const;
/** What the plugin logs for the error page of the record no-such-record: a warning naming the record. */
const MISSING_RECORD_LOGGED = 'warn RECORD_NOT_FOUND: Record "no-such-record" does not exist';
const WORK_TITLE = 'Memórias póstumas de Brás Cubas';

const running = demoAndChromium();

const versionsUrl = (id: string, extra = '') => `${running.demo!.origin}/Search/Versions?id=${encodeURIComponent(id)}&search=versions${extra}`;

/** A fresh browser context (own cookies) with a watched page. */
async function open(cookies: Array<{ name: string; value: string }> = [], width = 1024): Promise<{ context: BrowserContext; page: Page; seen: PageWatch }> {
  const context = await running.browser!.newContext({ locale: 'en-US', viewport: { width, height: width < 600 ? 800 : 768 } });
  if (cookies.length > 0) await context.addCookies(cookies.map((cookie) => ({ ...cookie, url: running.demo!.origin })));
  const page = await context.newPage();
  const seen = await watch(context, page);
  return { context, page, seen };
}

const texts = (page: Page, selector: string) => page.locator(selector).allTextContents().then((all) => all.map((text) => text.trim()));

const SKIP = { en: 'Skip to content', 'pt-br': 'Pular para o conteúdo', es: 'Saltar al contenido' } as const;

for (const lng of ['en', 'pt-br', 'es'] as const) {
  for (const theme of ['standard', 'mobile'] as const) {
    for (const width of [1280, 390]) {
      browserTest(`the versions page in ${lng}, ${theme} theme, ${width} px: localised, styled, within the screen, no CSP violation, accessible`, async (t) => {
        const { context, page, seen } = await open([{ name: 'ui', value: theme }], width);
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
          t.true(sheets.every((sheet) => sheet.rules > 0 && sheet.href.startsWith(running.demo!.origin)), JSON.stringify(sheets));

          t.is((await page.locator('a.skip-link').textContent())?.trim(), SKIP[lng]);
          t.deepEqual(await overflowingElements(page), [], 'nothing wider than the screen');

          t.deepEqual(await seen.cspViolations(), []);
          t.deepEqual(seen.errors, []);
          note(t, `screenshot: ${await screenshot(page, `versions-${lng}-${theme}-${width}`)}`);
          note(t, `screenshot: ${await viewportScreenshot(page, `versions-${lng}-${theme}-${width}-top`)}`);
          assertAccessible(t, `versions ${lng} ${theme} ${width}`, await axeViolations(running.browser!, versionsUrl(PAGED_WORK_ID, `&lng=${lng}`), [{ name: 'ui', value: theme }]));
        } finally {
          await context.close();
        }
      });
    }
  }
}

/** Where "Narrow versions" and the list are drawn, and whether the facet values can be seen. */
async function facetsPlace(page: Page) {
  const panel = await page.locator('details.facets-panel').boundingBox();
  const list = await page.locator('ol.versions').boundingBox();
  return { panel: panel!, list: list!, valuesShown: await page.locator('nav.facets a.facets__value').first().isVisible() };
}

browserTest('"Narrow versions" at 1280 px: a column beside the list, open; at 390 px: above the list, folded, opened by its summary; the mobile theme folds it at 1280 px too', async (t) => {
  const wide = await open([], 1280);
  try {
    await wide.page.goto(versionsUrl(PAGED_WORK_ID));
    const { panel, list, valuesShown } = await facetsPlace(wide.page);
    t.true(valuesShown, 'the values are shown without a click');
    t.false(await wide.page.locator('summary.facets-panel__toggle').isVisible(), 'no summary to open on a wide screen');
    t.true(panel.x + panel.width <= list.x, `beside the list, to its left (${JSON.stringify({ panel, list })})`);
    t.true(Math.abs(panel.y - list.y) < 40, `level with the top of the list (${panel.y} and ${list.y})`);
    t.true(list.width >= 700, `the list keeps its measure (${list.width} px)`);
    t.true(await wide.page.locator('nav.facets h2').isVisible(), 'the heading "Narrow versions" is shown');
    t.deepEqual(await wide.seen.cspViolations(), []);
  } finally {
    await wide.context.close();
  }

  const phone = await open([], 390);
  try {
    await phone.page.goto(versionsUrl(PAGED_WORK_ID));
    const before = await facetsPlace(phone.page);
    t.false(before.valuesShown, 'folded');
    t.true(before.panel.y + before.panel.height <= before.list.y, 'above the list');
    t.true(before.panel.height < 80, `only its summary takes room (${before.panel.height} px)`);
    t.deepEqual(await overflowingElements(phone.page), []);
    await phone.page.locator('summary.facets-panel__toggle').click();
    t.true(await phone.page.locator('nav.facets a.facets__value').first().isVisible(), 'opened by its summary');
    t.false(await phone.page.locator('details.facets__more a').first().isVisible(), 'the older years stay folded');
    await phone.page.locator('summary.facets__more-toggle').click();
    t.true(await phone.page.locator('details.facets__more a').first().isVisible(), '"More years" opens');
    t.deepEqual(await overflowingElements(phone.page), [], 'opened, still within the screen');
    note(t, `screenshot: ${await viewportScreenshot(phone.page, 'facets-opened-390')}`);
  } finally {
    await phone.context.close();
  }

  const mobileTheme = await open([{ name: 'ui', value: 'mobile' }], 1280);
  try {
    await mobileTheme.page.goto(versionsUrl(PAGED_WORK_ID));
    const { panel, list, valuesShown } = await facetsPlace(mobileTheme.page);
    t.false(valuesShown, 'folded in the mobile theme');
    t.true(panel.y + panel.height <= list.y, 'above the list');
  } finally {
    await mobileTheme.context.close();
  }
});

/** The compact pager's rows and the highlighted entry's box, at one width. */
async function assertMobileLayout(t: import('ava').ExecutionContext, page: Page, what: string): Promise<void> {
  t.deepEqual(await overflowingElements(page), [], `${what}: nothing wider than the screen`);
  const pager = page.locator('nav.pagination');
  if (await pager.count() > 0) {
    t.is(await pager.getAttribute('class'), 'pagination pagination--compact', `${what}: the mobile theme's compact pager`);
    const numberRows = await itemsPerRow(page, 'nav.pagination .pagination__pages > li');
    t.is(numberRows.length, 1, `${what}: the page numbers hold one row (${JSON.stringify(numberRows)})`);
    t.true(numberRows.every((count) => count >= 2), `${what}: no lone page number (${JSON.stringify(numberRows)})`);
    t.deepEqual(await itemsPerRow(page, 'nav.pagination .pagination__step'), [2], `${what}: previous and next side by side`);
  }
  const requested = page.locator('ol.versions > li.version--requested');
  if (await requested.count() > 0) {
    const entry = await requested.boundingBox();
    const flag = await requested.locator('.version__flag').boundingBox();
    const width = page.viewportSize()?.width ?? 0;
    t.truthy(entry && flag, `${what}: the highlighted entry and its label are shown`);
    if (entry && flag) {
      t.true(entry.x >= 0 && entry.x + entry.width <= width + 0.5, `${what}: the highlighted entry fits (${entry.x}+${entry.width} in ${width})`);
      t.true(flag.x >= entry.x && flag.x + flag.width <= entry.x + entry.width + 0.5, `${what}: its label stays inside it`);
    }
  }
}

for (const width of [320, 360, 390, 414]) {
  browserTest(`the mobile theme at ${width} px: compact pager without lone items, highlighted entry inside the screen`, async (t) => {
    const { context, page, seen } = await open([{ name: 'ui', value: 'mobile' }], width);
    try {
      for (const [name, url] of [
        ['page-1', versionsUrl(PAGED_WORK_ID, '&lng=pt-br')],
        ['page-2', versionsUrl(PAGED_WORK_ID, '&lng=es&page=2')],
        ['page-3', versionsUrl(PAGED_WORK_ID, '&lng=en&page=3')],
        ['thesis', versionsUrl(THESIS_ID, '&lng=pt-br')],
        ['past-end', versionsUrl(PAGED_WORK_ID, '&lng=es&page=99')],
      ] as const) {
        await page.goto(url);
        await assertMobileLayout(t, page, `${name} at ${width}`);
        await page.evaluate('window.scrollTo(0, document.body.scrollHeight)');
        note(t, `screenshot: ${await viewportScreenshot(page, `mobile-${width}-${name}-end`)}`);
        await page.evaluate('window.scrollTo(0, 0)');
        note(t, `screenshot: ${await viewportScreenshot(page, `mobile-${width}-${name}-top`)}`);
      }
      // The step that does not apply keeps its place: on page 1, "previous" is there, greyed, not a link.
      await page.goto(versionsUrl(PAGED_WORK_ID, '&lng=en'));
      t.is(await page.locator('nav.pagination a[rel="prev"]').count(), 0);
      t.is(await page.locator('nav.pagination .pagination__step--off').getAttribute('aria-hidden'), 'true');
      t.is((await page.locator('nav.pagination a[rel="next"]').textContent())?.trim(), 'Next');
      t.is(await page.locator('nav.pagination a[rel="next"]').getAttribute('aria-label'), 'Go to Next Page');
      t.deepEqual(await seen.cspViolations(), []);
      t.deepEqual(seen.errors, []);
    } finally {
      await context.close();
    }
  });
}

/** The left edge of the first line of text of each entry's title and author (a Range over the text, not the box). */
async function textLeftEdges(page: Page): Promise<Array<{ requested: boolean; title: number; author: number | null }>> {
  return page.evaluate(`Array.from(document.querySelectorAll('ol.versions > li')).map((li) => {
    const left = (element) => {
      if (!element) return null;
      const range = document.createRange();
      range.selectNodeContents(element);
      const first = range.getClientRects()[0];
      return first ? Math.round(first.left * 10) / 10 : null;
    };
    return { requested: li.classList.contains('version--requested'), title: left(li.querySelector('.version__title a')), author: left(li.querySelector('.version__author')) };
  })`) as Promise<Array<{ requested: boolean; title: number; author: number | null }>>;
}

for (const width of [320, 414]) {
  browserTest(`the mobile theme at ${width} px: the requested record is marked without moving its text`, async (t) => {
    const { context, page } = await open([{ name: 'ui', value: 'mobile' }], width);
    try {
      for (const [name, url] of [['many', versionsUrl(PAGED_WORK_ID, '&lng=en')], ['thesis', versionsUrl(THESIS_ID, '&lng=es')]] as const) {
        await page.goto(url);
        const edges = await textLeftEdges(page);
        const requested = edges.filter((entry) => entry.requested);
        const others = edges.filter((entry) => !entry.requested);
        t.is(requested.length, 1, `${name}: one requested record`);
        t.true(others.length > 0, name);
        const otherLefts = new Set(others.flatMap((entry) => [entry.title, entry.author]).filter((left) => left !== null));
        t.is(otherLefts.size, 1, `${name}: every other entry's text starts at one edge (${[...otherLefts].join(', ')})`);
        const [edge] = [...otherLefts];
        t.is(requested[0]?.title, edge, `${name}: the requested record's title starts there too`);
        if (requested[0]?.author !== null) t.is(requested[0]?.author, edge, `${name}: and its author`);
        // Still marked: its bar and tint.
        const look = await page.locator('ol.versions > li.version--requested').evaluate((li) => {
          const style = (globalThis as unknown as { getComputedStyle(e: unknown): { borderLeftWidth: string; backgroundColor: string } }).getComputedStyle(li);
          return { bar: style.borderLeftWidth, background: style.backgroundColor };
        });
        t.not(look.bar, '0px', `${name}: the bar`);
        t.not(look.background, 'rgba(0, 0, 0, 0)', `${name}: the tint`);
        t.deepEqual(await overflowingElements(page), [], `${name}: nothing wider than the screen`);
        note(t, `screenshot: ${await viewportScreenshot(page, `mobile-${width}-${name}-requested-aligned`)}`);
      }
    } finally {
      await context.close();
    }
  });
}

browserTest('a page past the end says so, and its links lead back to the last page', async (t) => {
  for (const theme of ['standard', 'mobile'] as const) {
    const { context, page, seen } = await open([{ name: 'ui', value: theme }], theme === 'mobile' ? 390 : 1280);
    try {
      await page.goto(versionsUrl(PAGED_WORK_ID, '&lng=pt-br&page=99'));
      t.is((await page.locator('.past-end__message').textContent())?.trim(), 'Nenhum resultado na página 99; a última página é a 3.');
      t.false((await page.locator('body').textContent())?.includes('Mostrando'));
      note(t, `screenshot: ${await screenshot(page, `versions-past-end-${theme}`)}`);
      await Promise.all([page.waitForURL(/[?&]page=3(&|$)/), page.locator('a.past-end__link').click()]);
      t.true((await page.locator('body').textContent())?.includes('Mostrando 41 - 45 resultados de 45'));
      await page.goto(versionsUrl(PAGED_WORK_ID, '&lng=pt-br&page=99'));
      await Promise.all([page.waitForURL(/[?&]page=2(&|$)/), page.locator('nav.pagination a.pagination__page', { hasText: /^2$/ }).click()]);
      t.true((await page.locator('body').textContent())?.includes('Mostrando 21 - 40 resultados de 45'));
      t.deepEqual(await seen.cspViolations(), []);
      assertAccessible(t, `past the end ${theme}`, await axeViolations(running.browser!, versionsUrl(PAGED_WORK_ID, '&lng=pt-br&page=99'), [{ name: 'ui', value: theme }]));
    } finally {
      await context.close();
    }
  }
});

browserTest('the skip link appears on focus and leads to the content', async (t) => {
  const { context, page } = await open();
  try {
    await page.goto(versionsUrl(PAGED_WORK_ID, '&lng=es'));
    await page.keyboard.press('Tab');
    const skip = page.locator('a.skip-link');
    t.true(await skip.evaluate((element) => element === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement));
    const box = await skip.boundingBox();
    t.true(box !== null && box.y >= 0, 'shown inside the screen when focused');
    await page.keyboard.press('Enter');
    t.is(await page.evaluate('document.activeElement && document.activeElement.id'), 'main');
  } finally {
    await context.close();
  }
});

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
    note(t, `screenshot: ${await screenshot(page, 'versions-en-page-3')}`);

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
    const cookie = (await context.cookies(running.demo!.origin)).find((c) => c.name === 'language');
    t.is(cookie?.value, 'pt-br');
    t.true(cookie?.httpOnly);
    t.is(cookie?.sameSite, 'Lax');

    // Without lng, the cookie decides: on the page, on another page of it, and on the error page.
    await page.goto(versionsUrl(PAGED_WORK_ID, '&page=2'));
    t.is(await page.getAttribute('html', 'lang'), 'pt-br');
    t.true((await page.locator('body').textContent())?.includes('Mostrando 21 - 40 resultados de 45'));
    const error = await page.goto(versionsUrl('no-such-record'));
    t.is(error?.status(), 404);
    t.deepEqual(await texts(page, 'main h1, main .error-page__lines p'), [...ERROR_LINES['pt-br']]);
    t.deepEqual(loggedSince(running), [MISSING_RECORD_LOGGED]);

    await page.goto(versionsUrl(PAGED_WORK_ID));
    await Promise.all([page.waitForURL(/lng=es/), page.locator('nav.language-switch a[hreflang="es"]').click()]);
    t.is(await page.getAttribute('html', 'lang'), 'es');
    t.is((await context.cookies(running.demo!.origin)).find((c) => c.name === 'language')?.value, 'es');
    t.deepEqual(await seen.cspViolations(), []);
  } finally {
    await context.close();
  }
});

browserTest('the record page links to the versions of its work', async (t) => {
  const { context, page, seen } = await open();
  try {
    const record = await page.goto(`${running.demo!.origin}/Record/${encodeURIComponent(THESIS_ID)}`);
    t.is(record?.status(), 200);
    const link = page.locator('a.show-versions');
    t.is((await link.textContent())?.trim(), 'Show all versions (2)');
    note(t, `screenshot: ${await screenshot(page, 'record-page')}`);
    assertAccessible(t, 'record page (the demo host’s)', await axeViolations(running.browser!, page.url()));

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

const RECORD_MISSING = { en: 'This record is not in the catalog', 'pt-br': 'Este registro não está no catálogo', es: 'Este registro no está en el catálogo' } as const;
const RECORD_MISSING_ADVICE = {
  en: 'The link may be out of date, or the record was withdrawn. Search the catalog for the title from its home page.',
  'pt-br': 'O link pode estar desatualizado ou o registro foi retirado. Procure o título no catálogo a partir da página inicial.',
  es: 'El enlace puede estar desactualizado o el registro fue retirado. Busque el título en el catálogo desde su página de inicio.',
} as const;
const CATALOG_HOME = { en: 'Catalog home', 'pt-br': 'Início do catálogo', es: 'Inicio del catálogo' } as const;

for (const lng of ['en', 'pt-br', 'es'] as const) {
  browserTest(`the error page in ${lng}: 404, the site's header, three localised lines, the way home, no CSP violation, accessible`, async (t) => {
    for (const [theme, width] of [['standard', 1280], ['mobile', 390]] as const) {
      const { context, page, seen } = await open([{ name: 'ui', value: theme }], width);
      try {
        for (const view of ['', '&view=rss']) {
          const response = await page.goto(versionsUrl('no-such-record', `&lng=${lng}${view}`));
          t.is(response?.status(), 404);
          t.is(await page.getAttribute('html', 'lang'), lng);
          t.deepEqual(await texts(page, 'main h1, main .error-page__lines p'), [...ERROR_LINES[lng]]);
          t.is((await page.locator('main h2').textContent())?.trim(), RECORD_MISSING[lng], 'the missing record is said under the heading');
          t.is((await page.locator('main p.error-page__advice').textContent())?.trim(), RECORD_MISSING_ADVICE[lng], 'then what to do');
          t.is((await page.locator('header .site-title a').textContent())?.trim(), 'Library Catalog');
          t.is((await page.locator('main a.error-page__home').textContent())?.trim(), CATALOG_HOME[lng]);
          t.is(await page.locator('nav.language-switch a').count(), 2);
          const html = await page.content();
          t.false(html.includes('no-such-record'), 'the missing id is not echoed');
          t.false(/RECORD_NOT_FOUND|does not exist/.test(html), 'the logged cause stays in the log');
        }
        t.deepEqual(await overflowingElements(page), [], 'nothing wider than the screen');
        t.deepEqual(await seen.cspViolations(), []);
        t.deepEqual(seen.errors.filter((error) => !/status of 404/.test(error)), [], 'nothing but the 404 itself in the console');
        note(t, `screenshot: ${await screenshot(page, `error-${lng}-${theme}-${width}`)}`);
        // The way home and the language switch lead to the host's home page, in the chosen language.
        const other = lng === 'es' ? 'en' : 'es';
        await Promise.all([page.waitForURL(new RegExp(`/\\?lng=${other}$`)), page.locator(`nav.language-switch a[hreflang="${other}"]`).click()]);
        t.is(await page.getAttribute('html', 'lang'), other);
        await page.goBack();
        await Promise.all([page.waitForURL(/\/$/), page.locator('main a.error-page__home').click()]);
        t.is(new URL(page.url()).pathname, '/');
        assertAccessible(t, `error page ${lng} ${theme}`, await axeViolations(running.browser!, versionsUrl('no-such-record', `&lng=${lng}`), [{ name: 'ui', value: theme }]));
      } finally {
        await context.close();
      }
    }
    t.deepEqual(loggedSince(running), [MISSING_RECORD_LOGGED], 'each 404 is logged as a warning naming the record');
  });
}

for (const theme of ['standard', 'mobile'] as const) {
  for (const width of [320, 1280]) {
    browserTest(`entry details and a sorted page, ${theme} theme, ${width} px: shown, within the screen, sort chosen with the form, accessible`, async (t) => {
      const { context, page } = await open([{ name: 'ui', value: theme }], width);
      try {
        await page.goto(versionsUrl('dom-casmurro-1899', '&lng=pt-br'));
        t.deepEqual(await texts(page, 'ol.versions > li:first-child .version__details dd'), ['Português', '1.a ed.', 'Rio de Janeiro: H. Garnier', 'v, 310 p.']);
        t.deepEqual(await overflowingElements(page), []);
        await page.selectOption('select[name="sort"]', 'year');
        await Promise.all([page.waitForURL(/sort=year/), page.click('.sort-form button[type="submit"]')]);
        // Newest first: the 2008 e-book, then 1899; the record without a year last.
        t.deepEqual((await page.locator('ol.versions > li .version__title a').evaluateAll((links) => links.map((a) => a.getAttribute('href')))).map((href) => href?.split('/Record/')[1]),
          ['dom-casmurro-2008-ebook', 'dom-casmurro-1899', 'dom-casmurro-undated-anonymous']);
        assertAccessible(t, `details and sort ${theme} ${width}`, await axeViolations(running.browser!, versionsUrl('dom-casmurro-1899', '&lng=pt-br&sort=year'), [{ name: 'ui', value: theme }]));
        for (const filter of ['language:"Portuguese"', 'format:"Map"']) {
          const filtered = versionsUrl('dom-casmurro-1899', `&lng=es&filter[]=${encodeURIComponent(filter)}`);
          assertAccessible(t, `filtered ${filter} ${theme} ${width}`, await axeViolations(running.browser!, filtered, [{ name: 'ui', value: theme }]));
        }
      } finally {
        await context.close();
      }
    });
  }
}
