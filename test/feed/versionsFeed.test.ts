import test from 'ava';
import { atomLinks, channelOf, childElements, itemsOf, NS, parseFeed, textOf } from '../support/parseFeed.js';
import { BASE_URL, fixture, manyVersions, testHost } from '../support/testHost.js';

const feedPath = (id: string, extra = '') => `/Search/Versions?id=${encodeURIComponent(id)}&search=versions&view=rss${extra}`;

test('the feed starts with the XML declaration and the stylesheet instruction', async (t) => {
  const { request } = await testHost(fixture('thesis-in-two-repositories'));
  const response = await request.get(feedPath('usp:tese-2019-0412')).expect(200);
  t.regex(response.headers['content-type'] ?? '', /^text\/xml; charset=utf-8$/);
  const lines = response.text.split('\n');
  t.is(lines[0], '<?xml version="1.0" encoding="UTF-8"?>');
  t.is(lines[1], `<?xml-stylesheet type="text/xsl" href="${BASE_URL}/themes/root/assets/xsl/rss.xsl"?>`);
  const document = parseFeed(response.text);
  const rss = document.documentElement!;
  t.is(rss.tagName, 'rss');
  t.is(rss.getAttribute('version'), '2.0');
  for (const [prefix, uri] of Object.entries(NS)) t.is(rss.getAttribute(`xmlns:${prefix}`), uri);
  t.is(childElements(rss).length, 1);
});

test('channel children come in the contract order, with totals, query and links', async (t) => {
  const { request } = await testHost(fixture('thesis-in-two-repositories'));
  const document = parseFeed((await request.get(feedPath('usp:tese-2019-0412', '&lng=en')).expect(200)).text);
  const channel = channelOf(document);
  const names = childElements(channel).map((e) => (e.tagName === 'atom:link' ? `atom:link[${e.getAttribute('rel')}]` : e.tagName));
  t.deepEqual(names, [
    'title', 'description', 'generator', 'link', 'opensearch:totalResults', 'opensearch:startIndex',
    'opensearch:itemsPerPage', 'opensearch:Query', 'atom:link[first]', 'atom:link[last]', 'atom:link[self]', 'item', 'item',
  ]);
  t.is(textOf(channel, 'title'), 'Results for Versions - usp:tese-2019-0412');
  t.is(textOf(channel, 'description'), 'Showing 1 - 2 results of 2');
  t.regex(textOf(channel, 'generator') ?? '', /^koa-catalog-versions \d+\.\d+\.\d+/);
  t.is(textOf(channel, 'link'), `${BASE_URL}/Search/Versions?sort=last_indexed+desc&limit=50&id=usp%3Atese-2019-0412&search=versions&lng=en`);
  t.is(textOf(channel, 'opensearch:totalResults'), '2');
  t.is(textOf(channel, 'opensearch:startIndex'), '0');
  t.is(textOf(channel, 'opensearch:itemsPerPage'), '50');
  const query = childElements(channel).find((e) => e.tagName === 'opensearch:Query')!;
  t.is(query.namespaceURI, NS.opensearch);
  t.deepEqual([query.getAttribute('role'), query.getAttribute('searchTerms'), query.getAttribute('startIndex')], ['request', 'usp:tese-2019-0412', '0']);
  t.is(query.childNodes.length, 0);
  const feedUrl = `${BASE_URL}/Search/Versions?sort=last_indexed+desc&limit=50&view=rss&id=usp%3Atese-2019-0412&search=versions&lng=en`;
  const links = atomLinks(document).map((e) => ({ rel: e.getAttribute('rel'), type: e.getAttribute('type'), title: e.getAttribute('title'), href: e.getAttribute('href') }));
  t.deepEqual(links, [
    { rel: 'first', type: 'application/rss+xml', title: 'Go to First Page', href: feedUrl },
    { rel: 'last', type: 'application/rss+xml', title: 'Go to Last Page', href: `${feedUrl}&page=1` },
    { rel: 'self', type: 'application/rss+xml', title: null, href: feedUrl },
  ]);
  t.false(atomLinks(document).some((e) => e.hasAttribute('title') && e.getAttribute('rel') === 'self'));
});

test('the raw link text escapes ampersands', async (t) => {
  const { request } = await testHost(fixture('thesis-in-two-repositories'));
  const { text } = await request.get(feedPath('usp:tese-2019-0412')).expect(200);
  t.true(text.includes('<link>https://catalog.example.edu/Search/Versions?sort=last_indexed+desc&amp;limit=50&amp;id=usp%3Atese-2019-0412&amp;search=versions&amp;lng=en</link>'));
});

test('items carry the contract children in order, with RFC 822 pubDate from the record year', async (t) => {
  const { request } = await testHost(fixture('thesis-in-two-repositories'));
  const items = itemsOf(parseFeed((await request.get(feedPath('usp:tese-2019-0412')).expect(200)).text));
  t.deepEqual(items.map((item) => textOf(item, 'guid')), [
    `${BASE_URL}/Record/bdtd:USP_4f9a2c`, // last indexed 2025-04-02, newer first
    `${BASE_URL}/Record/usp:tese-2019-0412`,
  ]);
  const [first] = items;
  t.deepEqual(childElements(first!).map((e) => e.tagName), [
    'title', 'pubDate', 'link', 'guid', 'author', 'dc:format', 'dc:format', 'dc:date', 'dc:creator', 'slash:comments',
  ]);
  t.is(textOf(first!, 'title'), 'O ensino de ciências na educação básica: práticas e desafios');
  t.is(textOf(first!, 'pubDate'), 'Tue, 01 Jan 2019 14:03:27 -0300');
  t.is(textOf(first!, 'link'), textOf(first!, 'guid'));
  t.is(textOf(first!, 'author'), 'Pereira, Ana Clara');
  t.is(textOf(first!, 'dc:creator'), 'Pereira, Ana Clara');
  t.deepEqual(childElements(first!).filter((e) => e.tagName === 'dc:format').map((e) => e.textContent), ['Thesis', 'Electronic']);
  t.is(textOf(first!, 'dc:date'), '2019');
  t.is(textOf(first!, 'slash:comments'), '0');
});

test('labels follow the language: pt-br and es', async (t) => {
  const { request } = await testHost(fixture('thesis-in-two-repositories'));
  const expectations = [
    { lng: 'pt-br', title: 'Resultados para Versões - usp:tese-2019-0412', description: 'Mostrando 1 - 2 resultados de 2', first: 'Ir para a primeira página', last: 'Ir para a última página' },
    { lng: 'es', title: 'Resultados para Versiones - usp:tese-2019-0412', description: 'Mostrando 1 - 2 resultados de 2', first: 'Ir a la primera página', last: 'Ir a la última página' },
  ];
  for (const expected of expectations) {
    const document = parseFeed((await request.get(feedPath('usp:tese-2019-0412', `&lng=${expected.lng}`)).expect(200)).text);
    const channel = channelOf(document);
    t.is(textOf(channel, 'title'), expected.title);
    t.is(textOf(channel, 'description'), expected.description);
    t.true(textOf(channel, 'link')?.endsWith(`&lng=${expected.lng}`));
    const titles = Object.fromEntries(atomLinks(document).map((e) => [e.getAttribute('rel'), e.getAttribute('title')]));
    t.is(titles.first, expected.first);
    t.is(titles.last, expected.last);
  }
});

test('equal last_indexed times are ordered by id ascending', async (t) => {
  const { request } = await testHost(fixture('ties-in-last-indexed'));
  const items = itemsOf(parseFeed((await request.get(feedPath('tie-a')).expect(200)).text));
  t.deepEqual(items.map((item) => textOf(item, 'link')?.split('/').pop()), ['tie-newest', 'tie-a', 'tie-b', 'tie-c', 'tie-oldest']);
});

test('the feed pages by 50: page 2 of 60 versions has previous, last and self with page', async (t) => {
  const { request } = await testHost(manyVersions(60));
  const page1 = parseFeed((await request.get(feedPath('many-001')).expect(200)).text);
  t.is(itemsOf(page1).length, 50);
  t.is(textOf(channelOf(page1), 'description'), 'Showing 1 - 50 results of 60');
  t.deepEqual(atomLinks(page1).map((e) => e.getAttribute('rel')), ['first', 'next', 'last', 'self']);
  const next = atomLinks(page1).find((e) => e.getAttribute('rel') === 'next')!;
  t.true(next.getAttribute('href')!.endsWith('&lng=en&page=2'));
  t.is(next.getAttribute('title'), 'Go to Next Page');

  const page2 = parseFeed((await request.get(feedPath('many-001', '&page=2')).expect(200)).text);
  const channel = channelOf(page2);
  t.is(itemsOf(page2).length, 10);
  t.is(textOf(channel, 'description'), 'Showing 51 - 60 results of 60');
  t.is(textOf(channel, 'opensearch:startIndex'), '50');
  t.is(textOf(channel, 'opensearch:totalResults'), '60');
  t.is(childElements(channel).find((e) => e.tagName === 'opensearch:Query')!.getAttribute('startIndex'), '50');
  const hrefs = Object.fromEntries(atomLinks(page2).map((e) => [e.getAttribute('rel'), e.getAttribute('href')]));
  t.deepEqual(Object.keys(hrefs), ['first', 'previous', 'last', 'self']);
  t.false(hrefs.first!.includes('page='));
  t.true(hrefs.previous!.endsWith('&page=1'));
  t.true(hrefs.last!.endsWith('&page=2'));
  t.true(hrefs.self!.endsWith('&page=2'));
  // rows 51..60 in last_indexed order: the 10 oldest
  t.is(textOf(itemsOf(page2)[0]!, 'guid'), `${BASE_URL}/Record/many-010`);
});

test('a page past the end is an empty channel with the right totals; a bad page is page 1', async (t) => {
  const { request } = await testHost(manyVersions(3));
  const past = parseFeed((await request.get(feedPath('many-001', '&page=7')).expect(200)).text);
  t.is(itemsOf(past).length, 0);
  t.is(textOf(channelOf(past), 'opensearch:totalResults'), '3');
  t.is(textOf(channelOf(past), 'opensearch:startIndex'), '300');
  for (const page of ['0', '-3', 'abc', '', '1e3']) {
    const document = parseFeed((await request.get(feedPath('many-001', `&page=${page}`)).expect(200)).text);
    t.is(textOf(channelOf(document), 'opensearch:startIndex'), '0', `page=${page}`);
    t.is(itemsOf(document).length, 3);
  }
});

test('a record without author or year has no author, creator, pubDate or date', async (t) => {
  const { request } = await testHost([...fixture('record-without-author'), ...fixture('record-without-year')]);
  // No author and no uniform title: no work keys, so the record lists itself alone.
  const anonymous = itemsOf(parseFeed((await request.get(feedPath('anonymous-1')).expect(200)).text));
  t.is(anonymous.length, 1);
  for (const item of anonymous) {
    t.is(textOf(item, 'author'), undefined);
    t.is(textOf(item, 'dc:creator'), undefined);
  }
  const corporate = itemsOf(parseFeed((await request.get(feedPath('corp-only-1')).expect(200)).text));
  t.deepEqual(corporate.map((item) => textOf(item, 'author')), ['Biblioteca Nacional (Brasil)', 'Biblioteca Nacional (Brasil)']);
  const undated = corporate.find((item) => textOf(item, 'link')?.endsWith('corp-only-2'))!;
  t.is(textOf(undated, 'pubDate'), undefined);
  t.is(textOf(undated, 'dc:date'), undefined);
  t.deepEqual(childElements(undated).map((e) => e.tagName), ['title', 'link', 'guid', 'author', 'dc:format', 'dc:creator', 'slash:comments']);
  const noYear = itemsOf(parseFeed((await request.get(feedPath('no-year-1')).expect(200)).text));
  t.is(textOf(noYear.find((i) => textOf(i, 'link')!.endsWith('no-year-1'))!, 'pubDate'), undefined);
});

test('titles, authors, formats and links with markup characters are escaped and round-trip', async (t) => {
  const { request } = await testHost(fixture('title-with-ampersand'));
  const response = await request.get(feedPath('amp-1')).expect(200);
  t.false(response.text.includes('<abridged>'));
  const items = itemsOf(parseFeed(response.text));
  const titles = items.map((item) => textOf(item, 'title')).sort();
  t.deepEqual(titles, ['Crime & punishment <abridged> "new" translation', 'crime & punishment <abridged> "new" translation']);
  t.true(items.every((item) => textOf(item, 'author') === 'Dostoyevsky, Fyodor & Others'));
  t.true(items.some((item) => textOf(item, 'dc:format') === 'Book & Map'));
});

test('awkward ids: encoded in links, verbatim in title and query, found again by their link', async (t) => {
  const { request } = await testHost(fixture('awkward-ids'));
  for (const id of ['oai:repositorio.example.br:123/4567', 'id with space', `id<angle>&amp"quote'`, 'ru-Война-1', '..']) {
    const response = await request.get(feedPath(id)).expect(200);
    const document = parseFeed(response.text);
    const channel = channelOf(document);
    t.is(textOf(channel, 'title'), `Results for Versions - ${id}`);
    t.is(childElements(channel).find((e) => e.tagName === 'opensearch:Query')!.getAttribute('searchTerms'), id);
    t.is(new URL(textOf(channel, 'link')!).searchParams.get('id'), id);
    const links = itemsOf(document).map((item) => textOf(item, 'link')!);
    t.is(links.length, 5);
    // WHATWG URL parsers resolve even an encoded "%2E%2E" segment, so the id ".." is checked as text below.
    for (const link of links.filter((l) => !l.endsWith('/%2E%2E'))) {
      const url = new URL(link);
      t.is(url.origin + url.pathname, link, `${link} survives URL normalisation`);
      t.true(url.pathname.startsWith('/Record/'));
      t.false(url.pathname.slice('/Record/'.length).includes('/'));
    }
    const own = links.map((link) => decodeURIComponent(link.slice(`${BASE_URL}/Record/`.length)));
    t.true(own.includes(id));
  }
});

test('the record link keeps path-safe characters and encodes the rest', async (t) => {
  const { request } = await testHost(fixture('awkward-ids'));
  const links = itemsOf(parseFeed((await request.get(feedPath('..')).expect(200)).text)).map((item) => textOf(item, 'link'));
  t.true(links.includes(`${BASE_URL}/Record/oai:repositorio.example.br:123%2F4567`));
  t.true(links.includes(`${BASE_URL}/Record/id%20with%20space`));
  t.true(links.includes(`${BASE_URL}/Record/id%3Cangle%3E&amp%22quote'`));
  t.true(links.includes(`${BASE_URL}/Record/%2E%2E`));
});

test('explicit work keys are kept; a record with no keys lists itself alone', async (t) => {
  const { request } = await testHost(fixture('explicit-work-keys'));
  const custom = itemsOf(parseFeed((await request.get(feedPath('ek-1')).expect(200)).text));
  t.deepEqual(custom.map((item) => textOf(item, 'link')?.split('/').pop()).sort(), ['ek-1', 'ek-2']);
  const computed = itemsOf(parseFeed((await request.get(feedPath('ek-3')).expect(200)).text));
  t.deepEqual(computed.map((item) => textOf(item, 'link')?.split('/').pop()), ['ek-3']);
  const alone = parseFeed((await request.get(feedPath('ek-none')).expect(200)).text);
  t.is(textOf(channelOf(alone), 'opensearch:totalResults'), '1');
  t.deepEqual(itemsOf(alone).map((item) => textOf(item, 'link')?.split('/').pop()), ['ek-none']);
});

test('uniform titles group translations; keys compare after normalisation', async (t) => {
  const { request } = await testHost(fixture('uniform-titles'));
  const ids = async (id: string) => itemsOf(parseFeed((await request.get(feedPath(id)).expect(200)).text)).map((item) => textOf(item, 'link')?.split('/').pop()).sort();
  // Under the embedded index's default `extended` profile a uniform title is keyed with the main author,
  // so the original (whose title is the uniform title) joins its translations; VuFind's keys leave it out.
  t.deepEqual(await ids('ut-pt'), ['ut-en', 'ut-es', 'ut-pt']);
  t.deepEqual(await ids('ut-es'), ['ut-en', 'ut-es', 'ut-pt']);
  t.deepEqual(await ids('ut-bible'), ['ut-bible', 'ut-bible-2']);
});

test('the RSS view sets no cookies and says it varies by language inputs', async (t) => {
  const { request } = await testHost(fixture('thesis-in-two-repositories'));
  const response = await request.get(feedPath('usp:tese-2019-0412', '&lng=es')).expect(200);
  t.is(response.headers['set-cookie'], undefined);
  t.regex(String(response.headers.vary), /Accept-Language/);
});

test('HEAD answers like GET without a body', async (t) => {
  const { request } = await testHost(fixture('thesis-in-two-repositories'));
  const response = await request.head(feedPath('usp:tese-2019-0412')).expect(200);
  t.regex(response.headers['content-type'] ?? '', /text\/xml/);
  t.falsy(response.text);
});

test('text that looks like entity references or holds CR is written so that it reads back unchanged', async (t) => {
  const id = 'amp&amp;e&e;n&#0;x&#x1F;\rcr';
  const { request } = await testHost([{ id, title: 'T &lt; \r\n', author: 'A &amp; B', last_indexed: '2025-01-01T00:00:00Z' }]);
  const document = parseFeed((await request.get(feedPath(id)).expect(200)).text);
  const channel = channelOf(document);
  t.is(textOf(channel, 'title'), `Results for Versions - ${id}`);
  t.is(childElements(channel).find((e) => e.tagName === 'opensearch:Query')!.getAttribute('searchTerms'), id);
  const [item] = itemsOf(document);
  t.is(textOf(item!, 'title'), 'T &lt; \r\n');
  t.is(textOf(item!, 'author'), 'A &amp; B');
});
