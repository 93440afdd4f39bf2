/**
 * Takes the README's picture of the versions page (docs/images/versions-page.png): the demo host on the
 * demo catalog, in this process on a free loopback port, opened by the real Chromium (/usr/bin/chromium)
 * at a given width, its first screenful (or the whole page) saved as PNG.
 *
 *   npx tsx tools/screenshots/versionsPageScreenshot.ts [--id ID] [--width PX] [--height PX] [--ui standard|mobile] [--full] [--out FILE]
 *
 * Defaults: the record "Pride and prejudice : a novel" of the demo catalog, 1280 × 1200, the standard
 * layout, docs/images/versions-page.png.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { openEmbeddedCatalog } from '../../demo/demoCatalog.js';
import { createDemoHost } from '../../demo/demoHost.js';

const { values } = parseArgs({
  options: {
    id: { type: 'string', default: 'hathi:nyp.33433074811234' },
    width: { type: 'string', default: '1280' },
    height: { type: 'string', default: '1200' },
    ui: { type: 'string', default: 'standard' },
    full: { type: 'boolean', default: false },
    out: { type: 'string', default: fileURLToPath(new URL('../../docs/images/versions-page.png', import.meta.url)) },
  },
});

const catalog = await openEmbeddedCatalog({ records: fileURLToPath(new URL('../../demo/demo-catalog.jsonl', import.meta.url)) });
const server: Server = createServer();
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
server.on('request', createDemoHost({ index: catalog.index, baseUrl: origin, featuredIds: catalog.featured }).callback());
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
try {
  const context = await browser.newContext({ viewport: { width: Number(values.width), height: Number(values.height) }, colorScheme: 'light' });
  await context.addCookies([{ name: 'ui', value: values.ui, url: origin }]);
  const page = await context.newPage();
  await page.goto(`${origin}/Search/Versions?${new URLSearchParams({ id: values.id, search: 'versions', lng: 'en' })}`);
  await page.screenshot({ path: values.out, fullPage: values.full });
  console.log(`${values.out}: ${values.width} px wide, ${values.ui} layout`);
} finally {
  await browser.close();
  server.close();
  await catalog.index.close();
}
