import test from 'ava';
import * as cheerio from 'cheerio';
import { BASE_URL, fixture, manyVersions, testHost } from '../support/testHost.js';

const pagePath = (id: string, extra = '') => `/Search/Versions?id=${encodeURIComponent(id)}&search=versions${extra}`;

test('the page has the localised title, heading, showing line and lang', async (t) => {
  const { request } = await testHost(fixture('thesis-in-two-repositories'));
  const response = await request.get(pagePath('usp:tese-2019-0412')).expect(200);
  t.regex(response.headers['content-type'] ?? '', /^text\/html; charset=utf-8/);
  const $ = cheerio.load(response.text);
  t.is($('html').attr('lang'), 'en');
  t.is($('title').text(), 'Versions - O ensino de ciências na educação básica :: Library Catalog');
  t.is($('h1').length, 1);
  t.is($('h1').text().trim(), 'Versions - O ensino de ciências na educação básica');
  t.true($('body').text().includes('Showing 1 - 2 results of 2'));

  const pt = cheerio.load((await request.get(pagePath('usp:tese-2019-0412', '&lng=pt-br')).expect(200)).text);
  t.is(pt('html').attr('lang'), 'pt-br');
  t.is(pt('title').text(), 'Versões - O ensino de ciências na educação básica :: Library Catalog');
  t.true(pt('body').text().includes('Mostrando 1 - 2 resultados de 2'));
  t.true(pt('body').text().includes('Publicado em 2019'));

  const es = cheerio.load((await request.get(pagePath('usp:tese-2019-0412', '&lng=es')).expect(200)).text);
  t.is(es('html').attr('lang'), 'es');
  t.is(es('h1').text().trim(), 'Versiones - O ensino de ciências na educação básica');
  t.true(es('body').text().includes('Obtener el texto completo'));
});

test('the site title is configurable and not translated', async (t) => {
  const { request } = await testHost(fixture('thesis-in-two-repositories'), { siteTitle: 'Biblioteca Central' });
  const $ = cheerio.load((await request.get(pagePath('usp:tese-2019-0412', '&lng=pt-br')).expect(200)).text);
  t.is($('title').text(), 'Versões - O ensino de ciências na educação básica :: Biblioteca Central');
});

test('each version shows its title link, year, formats and full-text links', async (t) => {
  const { request } = await testHost(fixture('thesis-in-two-repositories'));
  const $ = cheerio.load((await request.get(pagePath('usp:tese-2019-0412')).expect(200)).text);
  const list = $('ol[start]').filter((_, e) => $(e).find(`a[href^="${BASE_URL}/Record/"]`).length > 0);
  t.is(list.length, 1);
  t.is(list.attr('start'), '1');
  const entries = list.children('li');
  t.is(entries.length, 2);
  // relevance order: every match scores alike, so id ascending
  const hrefs = entries.map((_, e) => $(e).find(`a[href^="${BASE_URL}/Record/"]`).attr('href')).get();
  t.deepEqual(hrefs, [`${BASE_URL}/Record/bdtd:USP_4f9a2c`, `${BASE_URL}/Record/usp:tese-2019-0412`]);
  const bdtd = entries.first();
  t.true(bdtd.text().includes('Published in 2019'));
  t.true(bdtd.text().includes('Thesis'));
  t.true(bdtd.text().includes('Electronic'));
  const fullText = bdtd.find('a').filter((_, a) => $(a).text().trim() === 'Get full text').map((_, a) => $(a).attr('href')).get();
  t.deepEqual(fullText, ['https://bdtd.example.br/vufind/Record/USP_4f9a2c', 'https://doi.org/10.11606/T.48.2019.tde-0412']);
});

test('the feed is linked and announced for autodiscovery', async (t) => {
  const { request } = await testHost(fixture('thesis-in-two-repositories'));
  const $ = cheerio.load((await request.get(pagePath('usp:tese-2019-0412', '&lng=es')).expect(200)).text);
  const feedUrl = `${BASE_URL}/Search/Versions?sort=last_indexed+desc&limit=50&view=rss&id=usp%3Atese-2019-0412&search=versions&lng=es`;
  t.is($('link[rel="alternate"][type="application/rss+xml"]').attr('href'), feedUrl);
  const visible = $(`body a[href="${feedUrl}"]`);
  t.is(visible.length, 1);
  t.is(visible.text().trim(), 'Canal RSS');
});

test('20 rows per page, with numbered page links that keep lng', async (t) => {
  const { request } = await testHost(manyVersions(45));
  const $ = cheerio.load((await request.get(pagePath('many-001', '&lng=pt-br')).expect(200)).text);
  const entries = $('ol[start] > li').filter((_, e) => $(e).find(`a[href^="${BASE_URL}/Record/"]`).length > 0);
  t.is(entries.length, 20);
  t.true($('body').text().includes('Mostrando 1 - 20 resultados de 45'));
  const pageLinks = $('a[href^="?id="]').map((_, a) => $(a).attr('href')).get();
  t.true(pageLinks.includes('?id=many-001&search=versions&page=2&lng=pt-br'));
  t.true(pageLinks.includes('?id=many-001&search=versions&page=3&lng=pt-br'));
  t.is($('[aria-current="page"]').text().trim(), '1');

  const third = cheerio.load((await request.get(pagePath('many-001', '&page=3')).expect(200)).text);
  t.is(third('ol[start="41"] > li').length, 5);
  // no lng now: the language cookie set by the previous answer keeps Portuguese
  t.true(third('body').text().includes('Mostrando 41 - 45 resultados de 45'));
  t.true(third('a[href="?id=many-001&search=versions&page=2"]').length > 0, 'no lng in links when none was given');
  // id order on the page: many-041 .. many-045
  t.is(third(`ol[start="41"] > li a[href="${BASE_URL}/Record/many-041"]`).length, 1);
});

test('a page past the end says so, links to the last page, and keeps its paging', async (t) => {
  // Was "Showing 161 - 160 results of 5": the issue asked for a plain message and a way back instead.
  const { request } = await testHost(manyVersions(5));
  const $ = cheerio.load((await request.get(pagePath('many-001', '&page=9&lng=en')).expect(200)).text);
  t.is($(`a[href^="${BASE_URL}/Record/"]`).not('.back-link a').length, 0, 'no entry: only the way back to the record');
  t.false($('body').text().includes('Showing'), 'no "Showing 161 - 160" line');
  t.is($('.past-end__message').text().trim(), 'No results on page 9; the last page is 1.');
  t.is($('a.past-end__link').attr('href'), '?id=many-001&search=versions&page=1&lng=en');
  t.is($('a.past-end__link').text().trim(), 'Go to Last Page');
  t.is($('nav.pagination').length, 0, 'one page: no navigation, the message leads back');

  const { request: larger } = await testHost(manyVersions(30));
  for (const [lng, message] of [
    ['en', 'No results on page 99; the last page is 2.'],
    ['pt-br', 'Nenhum resultado na página 99; a última página é a 2.'],
    ['es', 'No hay resultados en la página 99; la última página es la 2.'],
  ] as const) {
    const page = cheerio.load((await larger.get(pagePath('many-001', `&page=99&lng=${lng}`)).expect(200)).text);
    t.is(page('.past-end__message').text().trim(), message, lng);
    t.is(page('a.past-end__link').attr('href'), `?id=many-001&search=versions&page=2&lng=${lng}`);
    // The navigation still leads to every page, none of them current, and back to the last one.
    t.deepEqual(page('nav.pagination .pagination__page').map((_, a) => page(a).text().trim()).get(), ['1', '2']);
    t.is(page('nav.pagination [aria-current="page"]').length, 0);
    t.is(page('nav.pagination a[rel="prev"]').attr('href'), `?id=many-001&search=versions&page=2&lng=${lng}`);
    t.is(page('nav.pagination a[rel="next"]').length, 0);
  }
  // The last page itself is an ordinary page.
  const last = cheerio.load((await larger.get(pagePath('many-001', '&page=2&lng=en')).expect(200)).text);
  t.true(last('body').text().includes('Showing 21 - 30 results of 30'));
  t.is(last('.past-end').length, 0);
});

test('markup in titles and ids is escaped, never interpreted', async (t) => {
  const { request } = await testHost([...fixture('title-with-ampersand'), ...fixture('awkward-ids')]);
  const html = (await request.get(pagePath('amp-1')).expect(200)).text;
  t.false(html.includes('<abridged>'));
  const $ = cheerio.load(html);
  t.is($('h1').text().trim(), 'Versions - Crime & punishment <abridged> "new" translation');
  const awkward = (await request.get(pagePath(`id<angle>&amp"quote'`)).expect(200)).text;
  t.false(awkward.includes('<angle>'));
  const languageLink = cheerio.load(awkward)('a[href$="&lng=pt-br"]').attr('href') ?? '';
  t.is(new URLSearchParams(languageLink.slice(1)).get('id'), `id<angle>&amp"quote'`);
});

test('a record without a title gets the localised placeholder', async (t) => {
  const { request } = await testHost(fixture('record-without-year'));
  const $ = cheerio.load((await request.get(pagePath('no-title-1', '&lng=pt-br')).expect(200)).text);
  t.is($('h1').text().trim(), 'Versões - Título não disponível');
});

test('the language switch offers every language with its own name', async (t) => {
  const { request } = await testHost(fixture('thesis-in-two-repositories'));
  const $ = cheerio.load((await request.get(pagePath('usp:tese-2019-0412', '&lng=es')).expect(200)).text);
  t.true($('a[href="?id=usp%3Atese-2019-0412&search=versions&lng=en"]').text().includes('English'));
  t.true($('a[href="?id=usp%3Atese-2019-0412&search=versions&lng=pt-br"]').text().includes('Português (Brasil)'));
  t.is($('a[href="?id=usp%3Atese-2019-0412&search=versions&lng=es"]').length, 0, 'the current language is not a link');
});

test('only web addresses become full-text links', async (t) => {
  const { request } = await testHost([{
    id: 'u1', title: 'Links', author: 'A', last_indexed: '2025-01-01T00:00:00Z',
    url: ['javascript:alert(1)', 'data:text/html,<b>x</b>', ' https://ok.example/a ', 'HTTP://OK.EXAMPLE/B', 'ftp-ish'],
  }]);
  const $ = cheerio.load((await request.get(pagePath('u1')).expect(200)).text);
  const hrefs = $('a').filter((_, a) => $(a).text().trim() === 'Get full text').map((_, a) => $(a).attr('href')).get();
  t.deepEqual(hrefs, ['https://ok.example/a', 'HTTP://OK.EXAMPLE/B']);
});

test('format labels are translated; the catalog’s other values are shown as written', async (t) => {
  const { request } = await testHost([
    { id: 'f1', title: 'Formats', author: 'A', format: ['SoundRecording', 'Book & Map', 'Large Print'], last_indexed: '2025-01-01T00:00:00Z' },
  ]);
  const badges = async (lng: string) => {
    const $ = cheerio.load((await request.get(pagePath('f1', `&lng=${lng}`)).expect(200)).text);
    return $('ol.versions .badge').map((_, badge) => $(badge).text().trim()).get();
  };
  t.deepEqual(await badges('en'), ['Sound Recording', 'Book & Map', 'Large Print']);
  t.deepEqual(await badges('pt-br'), ['Gravação sonora', 'Book & Map', 'Letra ampliada']);
  t.deepEqual(await badges('es'), ['Grabación sonora', 'Book & Map', 'Letra grande']);
  // The feed keeps the catalog's own values (docs/feed.md; docs/page.md, "Format labels").
  const feed = (await request.get(pagePath('f1', '&view=rss&lng=pt-br')).expect(200)).text;
  t.deepEqual([...feed.matchAll(/<dc:format>([^<]*)<\/dc:format>/g)].map((match) => match[1]), ['SoundRecording', 'Book &amp; Map', 'Large Print']);
});

test('on an English page the demo catalog’s formats read as the catalog wrote them', async (t) => {
  // English labels are the catalogs' own words: a page in English shows what the record says.
  const values = ['Book', 'eBook', 'Audio Book', 'Large Print', 'DVD', 'Dissertation', 'Thesis', 'Map', 'Atlas', 'Score', 'Sound Recording', 'Article', 'Manuscript', 'Electronic'];
  const { request } = await testHost([{ id: 'f2', title: 'Formats', author: 'A', format: values, last_indexed: '2025-01-01T00:00:00Z' }]);
  const $ = cheerio.load((await request.get(pagePath('f2', '&lng=en')).expect(200)).text);
  t.deepEqual($('ol.versions .badge').map((_, badge) => $(badge).text().trim()).get(), values);
});

test('the requested record is labelled in words; the skip link says where it goes', async (t) => {
  const { request } = await testHost(fixture('thesis-in-two-repositories'));
  for (const [lng, label, skip] of [
    ['en', 'The record you came from', 'Skip to content'],
    ['pt-br', 'O registro de onde você veio', 'Pular para o conteúdo'],
    ['es', 'El registro del que viene', 'Saltar al contenido'],
  ] as const) {
    for (const ui of ['standard', 'mobile']) {
      const $ = cheerio.load((await request.get(pagePath('usp:tese-2019-0412', `&lng=${lng}`)).set('Cookie', `ui=${ui}`).expect(200)).text);
      const flags = $('ol.versions .version__flag');
      t.is(flags.length, 1, `${lng} ${ui}`);
      t.is(flags.text().trim(), label);
      t.is(flags.closest('li').find('.version__title a').attr('aria-current'), 'true', 'the label is on the requested record');
      t.is($('a.skip-link').text().trim(), skip);
      t.is($('a.skip-link').attr('href'), '#main');
      t.is($('main#main').length, 1);
    }
  }
});

test('each version shows its institution or source when the record has one', async (t) => {
  const { request } = await testHost([
    { id: 's1', title: 'Sources', author: 'A', institution: ['Universidade de São Paulo'], building: ['Biblioteca Central', 'Universidade de São Paulo'], last_indexed: '2025-01-01T00:00:00Z' },
    { id: 's2', title: 'Sources', author: 'A', building: 'Hemeroteca', last_indexed: '2025-01-02T00:00:00Z' },
    { id: 's3', title: 'Sources', author: 'A', last_indexed: '2025-01-03T00:00:00Z' },
  ]);
  const $ = cheerio.load((await request.get(pagePath('s1', '&lng=pt-br')).expect(200)).text);
  const sourceOf = (id: string) => $(`ol.versions a[href="${BASE_URL}/Record/${id}"]`).closest('li').find('.version__source');
  t.is(sourceOf('s1').text().trim(), 'Fonte: Universidade de São Paulo · Biblioteca Central');
  t.is(sourceOf('s2').text().trim(), 'Fonte: Hemeroteca');
  t.is(sourceOf('s3').length, 0);
});

test('the site name leads to the catalog home (catalogHomeUrl, default /)', async (t) => {
  const { request } = await testHost(fixture('thesis-in-two-repositories'));
  const $ = cheerio.load((await request.get(pagePath('usp:tese-2019-0412')).expect(200)).text);
  t.is($('header .site-title a').attr('href'), '/');
  t.is($('header .site-title a').text().trim(), 'Library Catalog');
  const { request: configured } = await testHost(fixture('thesis-in-two-repositories'), { catalogHomeUrl: 'https://library.example.edu/' });
  const other = cheerio.load((await configured.get(pagePath('usp:tese-2019-0412')).expect(200)).text);
  t.is(other('header .site-title a').attr('href'), 'https://library.example.edu/');
});

test('each entry tells its version apart: languages named in the page\'s language, edition, place and publisher, physical description', async (t) => {
  const { request, index } = await testHost(fixture('versions-showing-every-entry-field'));
  t.teardown(() => index.close());
  const detailsIn = async (lng: string) => {
    const $ = cheerio.load((await request.get(`/Search/Versions?id=dom-casmurro-1899&lng=${lng}`).expect(200)).text);
    return $('ol.versions > li').toArray().map((li) => $(li).find('.version__details > div').toArray()
      .map((pair) => `${$(pair).find('dt').text()}=${$(pair).find('dd').text()}`));
  };
  const [english, portuguese, spanish] = [await detailsIn('en'), await detailsIn('pt-br'), await detailsIn('es')];
  t.deepEqual(english[0], ['Language=Portuguese', 'Edition=1.a ed.', 'Publisher=Rio de Janeiro: H. Garnier', 'Description=v, 310 p.']);
  // A MARC code (`por`) and a VuFind core's English name (`Portuguese`) are both named in the page's language.
  t.deepEqual(portuguese[0]?.[0], 'Idioma=Português');
  t.deepEqual(portuguese[1], ['Idioma=Português, Inglês']);
  t.deepEqual(spanish[1], ['Idioma=Portugués, Inglés']);
  t.deepEqual(english[2], [], 'a record without these fields shows no details list');
});

test('sort as VuFind\'s result pages: a labelled GET selector, newest first by `sort=year`, kept by page and language links', async (t) => {
  const { request } = await testHost(manyVersions(45));
  const first = cheerio.load((await request.get(pagePath('many-001', '&lng=es')).expect(200)).text);
  const select = first('form.sort-form select[name="sort"]');
  t.is(first(`label[for="${select.attr('id')}"]`).text(), 'Ordenar');
  t.deepEqual(select.find('option').map((_, o) => first(o).attr('value')).get(), ['relevance', 'year', 'year asc', 'title', 'author']);
  t.is(select.find('option[selected]').attr('value'), 'relevance', 'the specified default');
  t.deepEqual(first('form.sort-form input[type="hidden"]').map((_, i) => `${first(i).attr('name')}=${first(i).attr('value')}`).get(), ['id=many-001', 'search=versions', 'lng=es']);

  const newest = cheerio.load((await request.get(pagePath('many-001', '&sort=year&page=2')).expect(200)).text);
  // 45 years, 1881 + i: newest first, the second page starts at the 21st newest (many-025, 1905).
  t.is(newest('ol[start="21"] > li').first().find(`a[href="${BASE_URL}/Record/many-025"]`).length, 1);
  t.is(newest('select[name="sort"] option[selected]').attr('value'), 'year');
  t.true(newest('a[href="?id=many-001&search=versions&sort=year&page=3"]').length > 0, 'paging keeps the sort');
  t.true(newest('a[href="?id=many-001&search=versions&sort=year&page=2&lng=en"]').length > 0, 'the language switch keeps it');

  const oldest = cheerio.load((await request.get(pagePath('many-001', '&sort=year+asc')).expect(200)).text);
  t.is(oldest('ol[start="1"] > li').first().find(`a[href="${BASE_URL}/Record/many-001"]`).length, 1);
  // The feed's own link to the page names `last_indexed desc`, which the page does not offer: the default.
  const fromFeed = cheerio.load((await request.get(pagePath('many-001', '&sort=last_indexed+desc')).expect(200)).text);
  t.is(fromFeed('select[name="sort"] option[selected]').attr('value'), 'relevance');
});

test('the feed keeps its specified order whatever `sort` says', async (t) => {
  const { request } = await testHost(manyVersions(5));
  const plain = (await request.get('/Search/Versions?id=many-001&search=versions&view=rss').expect(200)).text;
  const sorted = (await request.get('/Search/Versions?id=many-001&search=versions&view=rss&sort=title').expect(200)).text;
  const guids = (feed: string) => [...feed.matchAll(/<guid[^>]*>([^<]*)<\/guid>/g)].map((m) => m[1]);
  t.deepEqual(guids(sorted), guids(plain));
  t.true(guids(plain).length === 5);
});

test('filters as VuFind\'s filter[]: "N of M versions", kept by paging and sort, a filter matching nothing says so and offers to clear it; the feed takes them too', async (t) => {
  const { request, index } = await testHost(fixture('versions-showing-every-entry-field'));
  t.teardown(() => index.close());
  const portuguese = encodeURIComponent('language:"Portuguese"');
  const $ = cheerio.load((await request.get(pagePath('dom-casmurro-1899', `&filter[]=${portuguese}&lng=en`)).expect(200)).text);
  // `por` and `Portuguese` are one language to a patron, but the filter takes the value as the index holds it.
  t.is($('.filtered__message').text(), '1 of 3 versions');
  t.deepEqual($('ol.versions > li .version__title a').map((_, a) => $(a).attr('href')?.split('/Record/')[1]).get(), ['dom-casmurro-2008-ebook']);
  t.is($('a[hreflang="pt-br"]').attr('href'), `?id=dom-casmurro-1899&search=versions&filter%5B%5D=${encodeURIComponent('language:"Portuguese"').replace(/%20/g, '+')}&lng=pt-br`, 'the language switch keeps the filter');
  t.is($('.filtered__clear').attr('href'), '?id=dom-casmurro-1899&search=versions&page=1&lng=en');

  const none = cheerio.load((await request.get(pagePath('dom-casmurro-1899', `&filter[]=${encodeURIComponent('format:"Map"')}&lng=es`)).expect(200)).text);
  t.is(none('.filtered__message').text(), 'Ninguna versión coincide con estos filtros (3 en total).');
  t.is(none('ol.versions > li').length, 0);
  t.is(none('.filtered__clear').text(), 'Quitar filtros');

  const feed = (await request.get(`/Search/Versions?id=dom-casmurro-1899&search=versions&view=rss&filter[]=${portuguese}`).expect(200)).text;
  t.deepEqual([...feed.matchAll(/<guid[^>]*>([^<]*)<\/guid>/g)].map((m) => m[1]?.split('/Record/')[1]), ['dom-casmurro-2008-ebook']);
});

test('"Narrow versions" comes before the list, folded in a <details> whose summary names it; without facets the list stands alone', async (t) => {
  const alonePamphlet = { id: 'pamphlet-1950', title: 'Notes on a local flood', author: 'Ribeiro, Ana', format: 'Book', publishDate: '1950' };
  const { request, index } = await testHost([...fixture('versions-showing-every-entry-field'), alonePamphlet]);
  t.teardown(() => index.close());
  const $ = cheerio.load((await request.get(pagePath('dom-casmurro-1899', '&lng=es')).expect(200)).text);
  const body = $('main .versions-body.versions-body--with-facets');
  t.deepEqual(body.children().map((_, child) => $(child).attr('class')).get(), ['facets-panel', 'versions-body__list']);
  const panel = body.children('details.facets-panel');
  t.is(panel.attr('open'), undefined, 'folded until opened');
  t.is(panel.children('summary').text(), 'Filtrar versiones');
  t.is(panel.find('nav.facets h2').text(), 'Filtrar versiones');
  t.is(body.find('.versions-body__list > ol.versions > li').length, 3);

  const alone = cheerio.load((await request.get(pagePath('pamphlet-1950')).expect(200)).text);
  t.is(alone('details.facets-panel').length, 0, 'a record alone in its work has nothing to narrow');
  t.is(alone('.versions-body--with-facets').length, 0);
});

test('beyond the 30 newest years, the older ones are folded under "More years (N)", never dropped; it opens when one of them is applied', async (t) => {
  // 45 versions published 1881-1925, one a year.
  const { request, index } = await testHost(manyVersions(45));
  t.teardown(() => index.close());
  const $ = cheerio.load((await request.get(pagePath('many-001')).expect(200)).text);
  const years = $('nav.facets h3').filter((_, h) => $(h).text() === 'Year of Publication');
  const shown = years.next('ul').find('a').map((_, a) => $(a).text()).get();
  t.is(shown.length, 30);
  t.deepEqual([shown[0], shown.at(-1)], ['1925 (1)', '1896 (1)']);
  const more = years.nextAll('details.facets__more').first();
  t.is(more.children('summary').text(), 'More years (15)');
  t.is(more.attr('open'), undefined);
  const older = more.find('a').map((_, a) => $(a).text()).get();
  t.deepEqual([older.length, older[0], older.at(-1)], [15, '1895 (1)', '1881 (1)']);

  const pt = cheerio.load((await request.get(pagePath('many-001', '&lng=pt-br')).expect(200)).text);
  t.is(pt('details.facets__more > summary').text(), 'Mais anos (15)');
  t.is(cheerio.load((await request.get(pagePath('many-001', '&lng=es')).expect(200)).text)('details.facets__more > summary').text(), 'Más años (15)');
});

test('a folded year that is applied opens "More years"', async (t) => {
  // Reprints dated by their printing (1881-1925) and by the first edition (1850): 46 years, 1850 the oldest.
  const { request, index } = await testHost(manyVersions(45).map((document) => ({ ...document, publishDate: [document.publishDate as string, '1850'] })));
  t.teardown(() => index.close());
  const $ = cheerio.load((await request.get(pagePath('many-001', `&filter[]=${encodeURIComponent('publishDate:"1850"')}`)).expect(200)).text);
  t.is($('.filtered__message').text(), '45 of 45 versions');
  const more = $('details.facets__more');
  t.is(more.attr('open'), 'open');
  t.is(more.children('summary').text(), 'More years (16)');
  t.is(more.find('a[aria-current="true"]').text(), '1850 (45) ✕');
});

test('facets beside the list: values with counts in the page\'s language, each adding its filter; an applied one removes it', async (t) => {
  const { request, index } = await testHost(fixture('versions-showing-every-entry-field'));
  t.teardown(() => index.close());
  const $ = cheerio.load((await request.get(pagePath('dom-casmurro-1899', '&lng=pt-br')).expect(200)).text);
  const field = (label: string) => $('nav.facets h3').filter((_, h) => $(h).text() === label).next('ul').find('a').map((_, a) => $(a).text()).get();
  // `por` and `Portuguese` are two values in the index, both named "Português" (the filter keeps the index's value).
  t.deepEqual(field('Idioma'), ['Inglês (1)', 'Português (1)', 'Português (1)']);
  t.deepEqual(field('Ano de publicação'), ['2008 (1)', '1899 (1)'], 'years newest first');
  const english = $('nav.facets a').filter((_, a) => $(a).text() === 'Inglês (1)').attr('href') ?? '';
  t.is(english, `?id=dom-casmurro-1899&search=versions&filter%5B%5D=${encodeURIComponent('language:"English"').replace(/%20/g, '+')}&page=1&lng=pt-br`);
  const narrowed = cheerio.load((await request.get(`/Search/Versions${english}`).expect(200)).text);
  t.is(narrowed('.filtered__message').text(), '1 de 3 versões');
  const applied = narrowed('nav.facets a[aria-current="true"]');
  t.is(applied.attr('href'), '?id=dom-casmurro-1899&search=versions&page=1&lng=pt-br', 'an applied value\'s link removes its filter');
});
