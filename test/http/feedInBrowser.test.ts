/**
 * The feed's address opened by a browser (docs/feed.md, "In a browser"): a top-level navigation
 * (`Sec-Fetch-Mode: navigate`, `Sec-Fetch-Dest: document`) gets the HTML view with a note and the feed's
 * address; every other request (a feed reader, fetch(), a navigation header alone) gets the feed's bytes,
 * the same as without the headers, and both answers say they vary by those headers.
 */
import test from 'ava';
import * as cheerio from 'cheerio';
import { fixture, testHost } from '../support/testHost.js';

const FEED = '/Search/Versions?id=usp%3Atese-2019-0412&search=versions&view=rss&lng=pt-br';
const NAVIGATION = { 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'document', Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

test('feed readers get the feed byte for byte; a browser navigation gets the page with the feed note', async (t) => {
  const fixed = new Date('2026-03-01T12:00:00Z');
  const { request } = await testHost(fixture('thesis-in-two-repositories'), { now: () => fixed });
  const plain = await request.get(FEED).expect(200);
  for (const headers of [
    { Accept: 'application/rss+xml, application/xml;q=0.9, */*;q=0.8' },
    { 'Sec-Fetch-Mode': 'cors', 'Sec-Fetch-Dest': 'empty' },
    { 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'iframe' },
    { 'Sec-Fetch-Mode': 'no-cors', 'Sec-Fetch-Dest': 'document' },
  ]) {
    const reader = await request.get(FEED).set(headers).expect(200);
    t.is(reader.headers['content-type'], 'text/xml; charset=utf-8', JSON.stringify(headers));
    t.is(reader.text, plain.text, `${JSON.stringify(headers)}: the same bytes`);
    t.is(reader.headers.etag, plain.headers.etag);
    t.is(reader.headers['set-cookie'], undefined);
  }
  t.regex(String(plain.headers.vary), /Sec-Fetch-Mode.*Sec-Fetch-Dest/);

  const browser = await request.get(FEED).set(NAVIGATION).expect(200);
  t.is(browser.headers['content-type'], 'text/html; charset=utf-8');
  t.regex(String(browser.headers.vary), /Sec-Fetch-Mode.*Sec-Fetch-Dest/);
  t.is(browser.headers['cache-control'], 'private, no-cache');
  t.not(browser.headers.etag, plain.headers.etag);
  const $ = cheerio.load(browser.text);
  t.is($('html').attr('lang'), 'pt-br');
  t.is($('.feed-preview__notice').text(), 'Este é o feed RSS desta lista, mostrado como página porque um navegador o abriu. Para acompanhar novas versões, copie o endereço dele em um leitor de feeds.');
  t.is($('.feed-preview label').text(), 'Endereço do feed');
  t.is($('#feed-preview-address').attr('value'), 'https://catalog.example.edu/Search/Versions?sort=last_indexed+desc&limit=50&view=rss&id=usp%3Atese-2019-0412&search=versions&lng=pt-br');
  t.is($('ol.versions > li').length, 2);
  // The ordinary page has no such note, and a feed page beyond the first is named with its page.
  t.is(cheerio.load((await request.get(FEED.replace('&view=rss', '')).set(NAVIGATION).expect(200)).text)('.feed-preview').length, 0);
  const second = cheerio.load((await request.get(`${FEED}&page=2`).set(NAVIGATION).expect(200)).text);
  t.true(second('#feed-preview-address').attr('value')?.endsWith('&lng=pt-br&page=2'));
});
