/**
 * One version entry, two renderers: the page's (views/includes/version-entry.pug, whose parts the mobile
 * theme changes) and the feed's browser view (views/rss.xsl, applied by xsltproc, as a browser applies it,
 * to the feed of the same records). Both must show the same fields, in the same order, with the same
 * words, but for the fields the feed does not carry (PAGE_ONLY). A field added to one and not the other
 * fails here; so does a field the fixture gives no value to, since it could not be compared.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import test from 'ava';
import * as cheerio from 'cheerio';
import type { AnyNode, Element } from 'domhandler';
import { fixture, testHost } from '../support/testHost.js';

const XSLTPROC = '/usr/bin/xsltproc';
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const WORK = 'versions-showing-every-entry-field';
const REQUESTED_ID = 'dom-casmurro-1899';

/** Page fields the feed has no element for (docs/feed.md), so its browser view cannot show them. */
const PAGE_ONLY = new Set(['version__reason', 'version__details', 'version__source', 'version__links']);
/** Elements that only group fields: their children are the fields. */
const CONTAINERS = new Set(['version__meta']);

interface Field {
  /** The element's class (what a stylesheet and a reader's eye know the field by), or its tag when it has none. */
  readonly field: string;
  readonly text: string;
  readonly href?: string;
}

/** The fields of each entry of `ol.versions`, in document order, in the order of the entries. */
function entriesOf(html: string): Field[][] {
  const $ = cheerio.load(html);
  const fieldsIn = (element: Element): Field[] => $(element).children().toArray().flatMap((child): Field[] => {
    const field = $(child).attr('class') ?? child.tagName;
    if (CONTAINERS.has(field)) return fieldsIn(child);
    const href = $(child).find('a').first().attr('href');
    // A list's items one by one: the page's markup has no space between them, the view's may.
    const parts = $(child).children('li').length > 0 ? $(child).children('li').toArray() : [child];
    const text = parts.map((part) => $(part).text().replace(/\s+/g, ' ').trim()).join(' | ');
    return [{ field, text, ...(href !== undefined ? { href } : {}) }];
  });
  return $('ol.versions > li').toArray().map((li) => {
    const body = $(li).children('article').toArray()[0];
    return body === undefined ? [] : fieldsIn(body);
  });
}

/** The field classes a template's source names (`.version__author` in Pug, `class="version__author"` in XSL). */
function fieldClassesIn(source: string): string[] {
  const classes = [...source.matchAll(/(?:\.|class="|')(version__[a-z][a-z-]*|badges)\b/g)].map((match) => match[1] ?? '');
  return [...new Set(classes)].filter((name) => name !== 'version__body' && !CONTAINERS.has(name));
}

const run = promisify(execFile);
async function xsltproc(name: string, feed: string, stylesheet: string): Promise<string> {
  const directory = join(ROOT, 'test-artifacts', 'xslt');
  mkdirSync(directory, { recursive: true });
  writeFileSync(join(directory, `${name}.xml`), feed);
  writeFileSync(join(directory, `${name}.xsl`), stylesheet);
  const { stdout } = await run(XSLTPROC, ['--nonet', join(directory, `${name}.xsl`), join(directory, `${name}.xml`)], { maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

const xsltprocTest = existsSync(XSLTPROC) ? test : test.skip;
const skipNote = existsSync(XSLTPROC) ? '' : ` (skipped: no ${XSLTPROC}; install Debian's xsltproc package)`;

xsltprocTest(`the feed's browser view shows each entry's fields as the page does, in the same order and words${skipNote}`, async (t) => {
  const { request, index } = await testHost(fixture(WORK));
  t.teardown(() => index.close());
  const stylesheet = (await request.get('/themes/root/assets/xsl/rss.xsl').expect(200)).text;
  for (const lng of ['en', 'pt-br', 'es']) {
    const path = `/Search/Versions?id=${REQUESTED_ID}&search=versions&lng=${lng}`;
    const page = entriesOf((await request.get(path).set('Cookie', 'ui=standard').expect(200)).text);
    const view = entriesOf(await xsltproc(`entry-fields-${lng}`, (await request.get(`${path}&view=rss`).expect(200)).text, stylesheet));
    t.is(page.length, fixture(WORK).length, `${lng}: every record is an entry of the page`);
    // The feed lists newest first, the page by id (docs/page.md): entries are paired by their record link.
    const recordOf = (fields: Field[]) => fields.find(({ field }) => field === 'version__title')?.href ?? '(no title link)';
    const pageEntries = new Map(page.map((fields) => [recordOf(fields), fields.filter(({ field }) => !PAGE_ONLY.has(field))]));
    t.deepEqual(view.map(recordOf).sort(), [...pageEntries.keys()].sort(), `${lng}: the same records`);
    for (const fields of view) t.deepEqual(fields, pageEntries.get(recordOf(fields)), `${lng} ${recordOf(fields)}: the page's fields, without ${[...PAGE_ONLY].join(' and ')}`);
  }
});

test('the fixture gives every field of both entry templates a value, so that the comparison above sees them all', async (t) => {
  const { request, index } = await testHost(fixture(WORK));
  t.teardown(() => index.close());
  const shown = new Set(entriesOf((await request.get(`/Search/Versions?id=${REQUESTED_ID}&search=versions`).expect(200)).text).flat().map(({ field }) => field));
  const entryTemplate = readFileSync(join(ROOT, 'views', 'includes', 'version-entry.pug'), 'utf8');
  const xsl = readFileSync(join(ROOT, 'views', 'rss.xsl'), 'utf8');
  const itemTemplate = xsl.slice(xsl.indexOf('<xsl:template match="item">'), xsl.indexOf('</xsl:template>', xsl.indexOf('<xsl:template match="item">')));
  const named = [...fieldClassesIn(entryTemplate), ...fieldClassesIn(itemTemplate)];
  t.true(named.length >= 5, `the field classes were found in the templates: ${named.join(', ')}`);
  for (const field of named) t.true(shown.has(field), `no record of test/fixtures/${WORK}.jsonl shows ${field}: give one a value for it`);
  for (const field of PAGE_ONLY) t.true(shown.has(field), `${field} (page only) is shown`);
});
