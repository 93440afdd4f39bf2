/**
 * Shared pieces of the browser tests (issue item 5): Debian's Chromium driven by playwright-core, the demo
 * host app listening on 127.0.0.1 with a base URL equal to its own origin (so the pages' stylesheets and
 * the feed's XSL are same-origin, as in a real deployment, and the strict CSP allows them), axe-core for
 * accessibility scans, and screenshots kept under test-artifacts/screenshots/ for people to look at.
 *
 * No Chromium at /usr/bin/chromium: every browser test is registered as skipped, with the reason in its
 * title, so a run without a browser says so instead of passing quietly. `.ci/run` installs Chromium.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test, { type ExecutionContext, type ImplementationFn } from 'ava';
import { chromium, type Browser, type BrowserContext, type ConsoleMessage, type Page } from 'playwright-core';
import { createDemoHost } from '../../demo/demoHost.js';
import type { EmbeddedIndex, VersionsPluginOptions } from '../../src/index.js';
import { fixture, manyVersions, openLoadedIndex } from '../support/testHost.js';
import { describeLogged, recordingLogger, type RecordingLogger } from '../support/recordingLogger.js';
import { note } from '../support/testNotes.js';

export const CHROMIUM = '/usr/bin/chromium';
export const XSLTPROC = '/usr/bin/xsltproc';
export const hasChromium = existsSync(CHROMIUM);

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const ARTIFACTS = join(ROOT, 'test-artifacts');
export const SCREENSHOTS = join(ARTIFACTS, 'screenshots');

/** A browser test, or a skipped one (reason in the title) when Chromium is not installed. */
export function browserTest(title: string, implementation: ImplementationFn<[]>): void {
  if (hasChromium) test.serial(title, implementation);
  else test.skip(`${title} (skipped: no Chromium at ${CHROMIUM}; install Debian's chromium package)`, implementation);
}

/** `extraArgs`: e.g. XSLT_OFF, for a Chromium as browsers will be once XSLT is removed. */
export async function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', ...extraArgs],
  });
}

/** Chromium without XSLT: no XSLTProcessor, and an `<?xml-stylesheet?>` feed drawn as raw XML (Chromium 156). */
export const XSLT_OFF = ['--disable-features=XSLT'];

// ---------------------------------------------------------------------------------------------------------
// The demo host on a port of its own

/** Works the browser tests use: one with three HTML pages (45 versions), one with two feed pages (60). */
export const PAGED_WORK_ID = 'many-001';
export const FEED_PAGED_WORK_ID = 'sixty-001';
export const FEED_PAGED_WORK_SIZE = 60;
export const THESIS_ID = 'usp:tese-2019-0412';
export const HOSTILE_TITLE_ID = 'hostile-title';
export const HOSTILE_TITLE = '<script>alert(1)</script> & "quoted" <b>bold</b>';

export interface DemoServer {
  readonly origin: string;
  readonly index: EmbeddedIndex;
  /** What the plugin logged (its `logger` option), kept for the tests to assert instead of printed. */
  readonly logger: RecordingLogger;
  close(): Promise<void>;
}

/**
 * The demo host app (demo/demoHost.ts) on an in-memory index with test fixtures, listening on
 * 127.0.0.1 port 0. The port is known only after listening, so the app is built then, with baseUrl = origin.
 */
/** The demo server and Chromium a browser test file shares, once its `before` hook has run. */
export interface RunningDemo {
  demo: DemoServer | undefined;
  browser: Browser | undefined;
}

/**
 * Starts the demo and Chromium before a test file's tests (when Chromium is installed; the demo also when
 * `demoWithoutChromium` says so) and stops both after them.
 */
export function demoAndChromium(demoWithoutChromium = false, plugin: Partial<VersionsPluginOptions> = {}): RunningDemo {
  const running: RunningDemo = { demo: undefined, browser: undefined };
  test.before(async () => {
    if (hasChromium || demoWithoutChromium) running.demo = await startDemo(plugin);
    if (hasChromium) running.browser = await launchChromium();
  });
  // Tests run one at a time (browserTest), so each takes what it provoked (loggedSince); an entry left over
  // is one no test expected.
  test.after('the plugin logged nothing that no test asserted', (t) => {
    t.deepEqual(running.demo?.logger.logged.map(describeLogged) ?? [], []);
  });
  test.after.always(async () => {
    await running.browser?.close();
    await running.demo?.close();
  });
  return running;
}

/**
 * What the plugin logged since the last call (every entry then forgotten), as distinct `level message`
 * lines in the order first logged: a page, its reload and its accessibility scan log the same entry.
 */
export function loggedSince(running: RunningDemo): string[] {
  return [...new Set(running.demo!.logger.take().map(describeLogged))];
}

/** `plugin`: options of the plugin besides the demo's own (a host's themes, say). */
/**
 * The records the demo serves to the browser tests. The feed-paged work is its own work, "Quincas Borba":
 * a second "Dom Casmurro" by the same author would be keyed alike (the `extended` profile's author-and-title
 * key) and join the three records of versions-showing-every-entry-field, which the tests read as one
 * work of three.
 */
export function demoDocuments(): Record<string, unknown>[] {
  return [
    ...fixture('thesis-in-two-repositories'),
    ...fixture('title-with-ampersand'),
    ...fixture('versions-showing-every-entry-field'),
    ...manyVersions(45),
    ...manyVersions(FEED_PAGED_WORK_SIZE, 'sixty').map((doc) => ({ ...doc, title: 'Quincas Borba', author: 'Assis, Machado de' })),
    { id: HOSTILE_TITLE_ID, title: HOSTILE_TITLE, author: 'Tester, <i>Eve</i>', format: 'Book', publishDate: '2024' },
  ];
}

export async function startDemo(plugin: Partial<VersionsPluginOptions> = {}): Promise<DemoServer> {
  const index = await openLoadedIndex(demoDocuments());
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const logger = recordingLogger();
  const app = createDemoHost({
    index, baseUrl: origin, featuredIds: [PAGED_WORK_ID, THESIS_ID], search: (text, options) => index.searchRecords(text, options), plugin: { logger, ...plugin },
  });
  server.on('request', app.callback());
  return {
    origin,
    index,
    logger,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await index.close();
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// What a page told the browser

export interface PageWatch {
  /** Console errors (CSP refusals are logged as errors too) and uncaught page errors. */
  readonly errors: string[];
  /** Content-Security-Policy violations reported to the page. */
  cspViolations(): Promise<string[]>;
}

// Installed before any page script (and unaffected by the page's CSP): records each violation event.
const RECORD_CSP_VIOLATIONS = `
  window.__cspViolations = [];
  document.addEventListener('securitypolicyviolation', (event) => {
    window.__cspViolations.push(event.violatedDirective + ' ' + event.blockedURI);
  });
`;

export async function watch(context: BrowserContext, page: Page): Promise<PageWatch> {
  await context.addInitScript({ content: RECORD_CSP_VIOLATIONS });
  const errors: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    // The demo host has no favicon; the browser's request for it is none of the plugin's business.
    if (/\/favicon\.ico$/.test(message.location().url)) return;
    if (message.type() === 'error' || /Content Security Policy/i.test(message.text())) errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
  return {
    errors,
    cspViolations: async () => ((await page.evaluate('window.__cspViolations || []')) as string[]),
  };
}

// ---------------------------------------------------------------------------------------------------------
// The feed's own bytes in a browser

/**
 * Opening a feed address, a browser gets the HTML view (docs/feed.md, "In a browser"), because it sends
 * `Sec-Fetch-Mode: navigate`. To see what it makes of the feed itself (the XSL view, or raw XML without
 * XSLT), the context's feed requests are sent again without the navigation's headers, as a feed reader
 * sends them, and the browser is given that answer (its status, headers and bytes) for the navigation.
 */
export async function feedAsXml(context: BrowserContext): Promise<void> {
  await context.route(/\/Search\/Versions\?(.*&)?view=rss(&|$)/, async (route) => {
    const headers = { ...(await route.request().allHeaders()) };
    for (const name of Object.keys(headers)) if (/^sec-fetch-/i.test(name)) delete headers[name];
    await route.fulfill({ response: await route.fetch({ headers }) });
  });
}

// ---------------------------------------------------------------------------------------------------------
// Screenshots and accessibility

export async function screenshot(page: Page, name: string): Promise<string> {
  return captured(page, name, true);
}

/**
 * Chromium now and then refuses one capture with "Unable to capture screenshot" and takes the same picture
 * when asked again a moment later (one clean-clone CI run failed on it). Only that
 * refusal is asked again, up to three times 250 ms apart; any other error, or a fourth refusal, fails the test.
 */
async function captured(page: Page, name: string, fullPage: boolean): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const file = join(SCREENSHOTS, `${name}.png`);
  for (let attempt = 1; ; attempt += 1) {
    try {
      await page.screenshot({ path: file, fullPage });
      return file;
    } catch (error) {
      if (attempt > 3 || !/Unable to capture screenshot/.test(String((error as Error)?.message))) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

const requireFromHere = createRequire(import.meta.url);
const axeSource = readFileSync(requireFromHere.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly nodes: number;
}

/**
 * axe-core's violations on `url`. The pages forbid inline script, so axe is injected in a context of its
 * own with bypassCSP (the CSP itself is checked in normal contexts by `watch`).
 */
export async function axeViolations(
  browser: Browser, url: string, cookies: Array<{ name: string; value: string }> = [], exclude: readonly string[] = [],
  viewport?: { width: number; height: number }, feedAsBrowsersGetIt = false,
): Promise<AxeViolation[]> {
  const browserContext = await browser.newContext({ bypassCSP: true, ...(viewport !== undefined ? { viewport } : {}) });
  try {
    // A feed address is scanned as the browser draws the feed's own bytes, its XSL view (see feedAsXml),
    // unless the scan is of the page a browser gets for it.
    if (/[?&]view=rss(&|$)/.test(url) && !feedAsBrowsersGetIt) await feedAsXml(browserContext);
    if (cookies.length > 0) await browserContext.addCookies(cookies.map((cookie) => ({ ...cookie, url })));
    const page = await browserContext.newPage();
    await page.goto(url);
    await page.addScriptTag({ content: axeSource });
    const context = exclude.length > 0 ? `{ exclude: ${JSON.stringify(exclude.map((selector) => [selector]))} }` : 'document';
    const result = await page.evaluate(`axe.run(${context}, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({
      id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length })))`) as AxeViolation[];
    return result;
  } finally {
    await browserContext.close();
  }
}

/** No serious or critical violation; the milder ones go to the test log. */
export function assertAccessible(t: ExecutionContext, what: string, violations: readonly AxeViolation[]): void {
  const severe = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const mild = violations.filter((v) => !severe.includes(v));
  if (mild.length > 0) note(t, `${what}: axe (minor/moderate): ${mild.map((v) => `${v.id} (${v.impact}, ${v.nodes})`).join(', ')}`);
  t.deepEqual(severe.map((v) => `${v.id} (${v.impact}): ${v.help} [${v.nodes} element(s)]`), [], `${what}: serious or critical accessibility violations`);
}

// ---------------------------------------------------------------------------------------------------------
// Layout checks on element boxes (issue items 5 and 6)

/** Elements that stick out of the viewport sideways (and whether the page scrolls sideways at all). */
export async function overflowingElements(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const width = document.documentElement.clientWidth;
    const describe = (element) => element.tagName.toLowerCase() + (element.id ? '#' + element.id : '')
      + Array.from(element.classList).map((name) => '.' + name).join('');
    const found = [];
    if (document.documentElement.scrollWidth > width + 1) found.push('the page scrolls sideways: ' + document.documentElement.scrollWidth + ' > ' + width);
    for (const element of document.body.querySelectorAll('*')) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      if (box.left < -1 || box.right > width + 1) found.push(describe(element) + ' [' + Math.round(box.left) + ', ' + Math.round(box.right) + '] in ' + width);
    }
    return found.slice(0, 20);
  })()`) as Promise<string[]>;
}

/**
 * What covers the items of a list: for every item inside the viewport, the element the browser hits at
 * its centre and near its corners (document.elementFromPoint, which sees top-layer popovers such as
 * Chromium's XSLT notice) must belong to that item.
 */
export async function listItemsCovered(page: Page, itemSelector: string): Promise<string[]> {
  return page.evaluate(`(() => {
    const width = document.documentElement.clientWidth;
    const height = document.documentElement.clientHeight;
    const describe = (element) => element === null ? 'nothing' : element.tagName.toLowerCase()
      + Array.from(element.classList || []).map((name) => '.' + name).join('');
    const found = [];
    let checked = 0;
    for (const item of document.querySelectorAll(${JSON.stringify(itemSelector)})) {
      const box = item.getBoundingClientRect();
      const top = Math.max(box.top + 4, 0), bottom = Math.min(box.bottom - 4, height - 1);
      const left = Math.max(box.left + 4, 0), right = Math.min(box.right - 4, width - 1);
      if (top >= bottom || left >= right) continue;
      checked += 1;
      const points = [[(left + right) / 2, (top + bottom) / 2], [left, top], [right, top], [left, bottom], [right, bottom]];
      for (const [x, y] of points) {
        const hit = document.elementFromPoint(x, y);
        if (hit === null || !item.contains(hit)) found.push('item ' + (checked) + ' at ' + Math.round(x) + ',' + Math.round(y) + ' is covered by ' + describe(hit));
      }
    }
    if (checked === 0) found.push('no item of ' + ${JSON.stringify(itemSelector)} + ' is in the viewport');
    return found.slice(0, 20);
  })()`) as Promise<string[]>;
}

/** The items of a container grouped into rows by their top edge: how many on each row. */
export async function itemsPerRow(page: Page, itemSelector: string): Promise<number[]> {
  return page.evaluate(`(() => {
    const rows = new Map();
    for (const item of document.querySelectorAll(${JSON.stringify(itemSelector)})) {
      const box = item.getBoundingClientRect();
      if (box.width === 0) continue;
      const top = Math.round(box.top / 4) * 4;
      rows.set(top, (rows.get(top) || 0) + 1);
    }
    return [...rows.entries()].sort((a, b) => a[0] - b[0]).map(([, count]) => count);
  })()`) as Promise<number[]>;
}

/** A screenshot of the viewport only (a long list at 390 px is unreadable as one full page). */
export async function viewportScreenshot(page: Page, name: string): Promise<string> {
  return captured(page, name, false);
}
