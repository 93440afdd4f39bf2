/**
 * Every page issue 21 touched, scanned by axe-core (no serious or critical violation) at 320, 390 and
 * 1280 px in en, pt-br and es: the versions page with its back link in both layouts, the error pages that
 * now explain a 404 and a 400, and both layouts framed and branded by a host theme
 * (test/fixtures/host-branded-themes, docs/themes.md "Branding both layouts"), which must also stay
 * within the screen.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  assertAccessible, axeViolations, browserTest, demoAndChromium, loggedSince, overflowingElements, PAGED_WORK_ID, viewportScreenshot,
} from './support.js';
import { note } from '../support/testNotes.js';

const BRANDED = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'host-branded-themes');
const running = demoAndChromium(false, { themeDirectories: [BRANDED] });
const WIDTHS = [320, 390, 1280];

for (const [lng, ui] of ['en', 'pt-br', 'es'].flatMap((code) => (['standard', 'mobile'] as const).map((layout) => [code, layout] as const))) {
  browserTest(`pages in ${lng}, host-branded, ${ui} layout, at 320, 390 and 1280 px: framed, within the screen, accessible`, async (t) => {
    const origin = running.demo!.origin;
    const pages = [
      ['versions', `${origin}/Search/Versions?id=${PAGED_WORK_ID}&search=versions&lng=${lng}`],
      ['error-404', `${origin}/Search/Versions?id=no-such-record&lng=${lng}`],
      ['error-400', `${origin}/Search/Versions?search=versions&lng=${lng}`],
    ] as const;
    for (const width of WIDTHS) {
      const context = await running.browser!.newContext({ viewport: { width, height: 800 } });
      await context.addCookies([{ name: 'ui', value: ui, url: origin }]);
      const page = await context.newPage();
      for (const [name, url] of pages) {
        const what = `${name} ${lng} ${ui} ${width}`;
        await page.goto(url);
        t.is(await page.locator('header.campus-header form[role="search"]').count(), 1, `${what}: the host's header and search box`);
        t.is(await page.locator('footer.campus-footer').count(), 1, `${what}: the host's footer`);
        t.deepEqual(await overflowingElements(page), [], `${what}: nothing wider than the screen`);
        if (name === 'versions') t.is(await page.locator('main .back-link a').count(), 1, `${what}: the way back`);
        if (width === 320) note(t, `screenshot: ${await viewportScreenshot(page, `branded-${name}-${lng}-${ui}-${width}`)}`);
        assertAccessible(t, what, await axeViolations(running.browser!, url, [{ name: 'ui', value: ui }], [], { width, height: 800 }));
      }
      await context.close();
    }
    t.deepEqual(loggedSince(running), [
      'warn RECORD_NOT_FOUND: Record "no-such-record" does not exist',
      'warn MISSING_RECORD_ID: The request has no record id (query parameter "id")',
    ], 'each error page\'s cause is logged as a warning, the missing record by its id');
  });
}
