/**
 * The feed's address followed in Chromium with XSLT and in Chromium without it (`--disable-features=XSLT`,
 * as browsers will be once XSLT is removed): both show the HTML view with the note that it stands for the
 * feed and the feed's address (docs/feed.md, "In a browser"), with no CSP violation, within the screen
 * and accessible (axe-core: no serious or critical violation at 320, 390 and 1280 px in en, pt-br, es).
 * The flag is checked to matter: the feed's own bytes, given to the XSLT-less browser, stay raw XML.
 */
import type { Browser } from 'playwright-core';
import {
  assertAccessible, axeViolations, browserTest, demoAndChromium, feedAsXml, launchChromium, overflowingElements,
  PAGED_WORK_ID, viewportScreenshot, watch, XSLT_OFF,
} from './support.js';
import { note } from '../support/testNotes.js';

const running = demoAndChromium();
const NOTE_START = { en: 'This is the RSS feed of this list', 'pt-br': 'Este é o feed RSS desta lista', es: 'Este es el canal RSS de esta lista' } as const;

const feedUrl = (extra: string) => `${running.demo!.origin}/Search/Versions?id=${PAGED_WORK_ID}&search=versions&view=rss${extra}`;

async function withBrowserWithoutXslt<T>(use: (browser: Browser) => Promise<T>): Promise<T> {
  const browser = await launchChromium(XSLT_OFF);
  try {
    return await use(browser);
  } finally {
    await browser.close();
  }
}

browserTest('without the fix, Chromium with XSLT turned off shows the feed as raw XML (the flag works)', async (t) => {
  await withBrowserWithoutXslt(async (browser) => {
    const context = await browser.newContext();
    await feedAsXml(context);
    const page = await context.newPage();
    await page.goto(feedUrl('&lng=en'));
    t.is(await page.evaluate('typeof XSLTProcessor'), 'undefined');
    t.is(await page.locator('main ol.versions > li').count(), 0, 'no transformed list');
    t.regex(await page.evaluate('document.documentElement.textContent') as string, /Results for Versions - many-001/);
    note(t, `screenshot: ${await viewportScreenshot(page, 'feed-raw-xml-without-xslt')}`);
    await context.close();
  });
});

for (const xslt of ['on', 'off'] as const) {
  browserTest(`following the feed's address with XSLT ${xslt}: the HTML view with the feed note, in three languages, within the screen at 320, 390 and 1280 px`, async (t) => {
    const check = async (browser: Browser) => {
      t.is(await (await browser.newPage()).evaluate('typeof XSLTProcessor'), xslt === 'on' ? 'function' : 'undefined', 'the browser runs XSLT or not, as asked');
      for (const lng of ['en', 'pt-br', 'es'] as const) {
        for (const width of [320, 390, 1280]) {
          const context = await browser.newContext({ locale: 'en-US', viewport: { width, height: 800 } });
          try {
            const page = await context.newPage();
            const seen = await watch(context, page);
            const response = await page.goto(feedUrl(`&lng=${lng}`));
            const what = `XSLT ${xslt} ${lng} ${width}`;
            t.is(response?.status(), 200, what);
            t.regex(response?.headers()['content-type'] ?? '', /^text\/html/, what);
            t.is(await page.getAttribute('html', 'lang'), lng, what);
            t.true((await page.locator('.feed-preview__notice').textContent())?.startsWith(NOTE_START[lng]), what);
            t.true((await page.inputValue('#feed-preview-address')).endsWith(`&view=rss&id=${PAGED_WORK_ID}&search=versions&lng=${lng}`), what);
            t.is(await page.locator('ol.versions > li').count(), 20, what);
            t.is(await page.locator('xslt-warning-banner').count(), 0, `${what}: no XSLT, so no deprecation banner`);
            t.deepEqual(await overflowingElements(page), [], `${what}: nothing wider than the screen`);
            t.deepEqual(await seen.cspViolations(), [], what);
            t.deepEqual(seen.errors, [], what);
            if (width === 390) note(t, `screenshot: ${await viewportScreenshot(page, `feed-in-browser-xslt-${xslt}-${lng}-${width}`)}`);
          } finally {
            await context.close();
          }
        }
      }
    };
    if (xslt === 'on') await check(running.browser!);
    else await withBrowserWithoutXslt(check);
  });
}

browserTest('the feed\'s browser page passes axe at 320, 390 and 1280 px in three languages', async (t) => {
  for (const lng of ['en', 'pt-br', 'es'] as const) {
    for (const width of [320, 390, 1280]) {
      // A plain navigation, as a patron follows "RSS Feed" (not the feed's bytes through feedAsXml).
      assertAccessible(t, `feed page ${lng} ${width}`, await axeViolations(running.browser!, feedUrl(`&lng=${lng}`), [], [], { width, height: 800 }, true));
    }
  }
});
