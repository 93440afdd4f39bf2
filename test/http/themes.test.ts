import test from 'ava';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as cheerio from 'cheerio';
import supertest from 'supertest';
import { fixture, manyVersions, testHost } from '../support/testHost.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
const PAGE = '/Search/Versions?id=usp%3Atese-2019-0412&search=versions';

test('a host theme overrides one partial and wraps the default layout; the rest stays default', async (t) => {
  const { app } = await testHost(fixture('thesis-in-two-repositories'), {
    themeDirectories: [join(FIXTURES, 'themes-overriding-templates')],
    themes: { standard: 'standard', campus: 'campus', night: 'campus-night' },
  });
  const request = supertest(app.callback());
  for (const ui of ['campus', 'night']) {
    const $ = cheerio.load((await request.get(PAGE).set('Cookie', `ui=${ui}`).expect(200)).text);
    t.is($('html').attr('data-theme'), ui === 'campus' ? 'campus' : 'campus-night');
    t.is($('li.campus-entry').length, 2, 'the overridden entry template');
    t.true($('li.campus-entry').first().text().includes('Published in 2019'));
    t.is($('footer.campus-footer').text(), 'Library Catalog', 'the layout wrapper fills the footer block');
    t.is($('h1').length, 1, 'the default versions template and layout still render the page');
    t.is($('link[rel="alternate"]').length, 1);
    t.deepEqual($('link[rel="stylesheet"]').map((_, e) => $(e).attr('href')).get(), [
      'https://catalog.example.edu/themes/standard/assets/theme.css',
      'https://catalog.example.edu/themes/campus/assets/theme.css',
    ]);
  }
  const standard = cheerio.load((await request.get(PAGE).set('Cookie', 'ui=standard').expect(200)).text);
  t.is(standard('li.campus-entry').length, 0);
  t.is(standard('footer.campus-footer').length, 0);
  await request.get('/themes/campus/assets/theme.css').expect(200).expect(/campus-entry/);
});

test('a theme replaces one part of the entry and inherits the rest from the themes it extends', async (t) => {
  const { app } = await testHost(fixture('thesis-in-two-repositories'), {
    themeDirectories: [join(FIXTURES, 'themes-overriding-templates')],
    themes: { standard: 'standard', mobile: 'mobile', compact: 'campus-compact' },
  });
  const request = supertest(app.callback());
  const entries = async (ui: string) => {
    const $ = cheerio.load((await request.get(`${PAGE}&lng=en`).set('Cookie', `ui=${ui}`).expect(200)).text);
    return $('ol.versions > li').map((_, li) => ({
      classes: $(li).attr('class'),
      parts: $(li).find('[class]').map((_, e) => `${e.tagName}.${$(e).attr('class')}`).get().join(' '),
      author: $(li).find('.version__author').text(),
    })).get();
  };
  const [standard, mobile, compact] = [await entries('standard'), await entries('mobile'), await entries('compact')];
  t.is(compact.length, 2);
  // Its own part: the author line.
  t.deepEqual(compact.map((entry) => entry.author), ['By Pereira, Ana Clara', 'By Pereira, Ana Clara']);
  // Mobile's changes (the compact class, the year as a span), and everything else as the default draws it.
  t.deepEqual(compact.map((entry) => entry.classes), mobile.map((entry) => entry.classes));
  t.true(compact.every((entry) => entry.classes?.includes('version--compact')));
  t.deepEqual(compact.map((entry) => entry.parts), mobile.map((entry) => entry.parts.replace('p.version__author', 'p.version__author campus-author')));
  t.deepEqual(mobile.map((entry) => entry.parts), standard.map((entry) => entry.parts.replace('p.version__published', 'span.version__year')));
});

test('the error page renders through the host theme too', async (t) => {
  const { app } = await testHost(fixture('thesis-in-two-repositories'), {
    themeDirectories: [join(FIXTURES, 'themes-overriding-templates')],
    themes: { standard: 'standard', campus: 'campus' },
  });
  const $ = cheerio.load((await supertest(app.callback()).get('/Search/Versions?id=nope').set('Cookie', 'ui=campus').expect(404)).text);
  t.is($('footer.campus-footer').text(), 'An error has occurred');
  t.is($('html').attr('data-theme'), 'campus');
});

test('bad theme configuration fails at creation naming the option', async (t) => {
  const make = (options: object) => testHost([], options);
  await t.throwsAsync(make({ themes: { standard: 'nope' } }), { message: /Invalid option "themes": theme "nope" does not exist/ });
  await t.throwsAsync(make({ themeDirectories: [join(FIXTURES, 'themes-with-a-cycle')], themes: { standard: 'a' } }), { message: /"themes".*extends itself/ });
  await t.throwsAsync(make({ themeDirectories: ['/no/such/folder'] }), { message: /Invalid option "themeDirectories"/ });
  await t.throwsAsync(make({ themes: { 'bad value!': 'standard' } }), { message: /Invalid option "themes"/ });
  await t.throwsAsync(make({ defaultUi: 'mobile2' }), { message: /Invalid option "defaultUi"/ });
});

test('the mobile theme pages with its compact pager; the standard theme keeps the full one', async (t) => {
  const { request } = await testHost(manyVersions(120));
  const pager = async (ui: string, page: number) => {
    const $ = cheerio.load((await request.get(`/Search/Versions?id=many-001&search=versions&page=${page}&lng=pt-br`).set('Cookie', `ui=${ui}`).expect(200)).text);
    return {
      compact: $('nav.pagination').hasClass('pagination--compact'),
      numbers: $('nav.pagination .pagination__page').map((_, a) => $(a).text().trim()).get(),
      steps: $('nav.pagination .pagination__step').map((_, step) => `${step.tagName}:${$(step).text().trim()}:${$(step).attr('aria-label') ?? ''}`).get(),
    };
  };
  t.deepEqual(await pager('standard', 4), {
    compact: false,
    numbers: ['1', '2', '3', '4', '5', '6'],
    steps: ['a:Ir para a página anterior:', 'a:Ir para a próxima página:'],
  });
  // At most five numbers (the first, the last, the current one's neighbours), and one-word steps named in full.
  t.deepEqual(await pager('mobile', 4), {
    compact: true,
    numbers: ['1', '3', '4', '5', '6'],
    steps: ['a:Anterior:Ir para a página anterior', 'a:Próxima:Ir para a próxima página'],
  });
  // A step that does not apply keeps its place, as text hidden from screen readers.
  t.deepEqual((await pager('mobile', 1)).steps, ['span:Anterior:', 'a:Próxima:Ir para a próxima página']);
  t.deepEqual((await pager('mobile', 1)).numbers, ['1', '2', '6']);
  // Past the end: the numbers around the last page, none current, and the way back.
  t.deepEqual(await pager('mobile', 50), {
    compact: true,
    numbers: ['1', '5', '6'],
    steps: ['a:Anterior:Ir para a página anterior', 'span:Próxima:'],
  });
});

const BRANDED = join(FIXTURES, 'host-branded-themes');

test('one host theme named standard, extending the shipped standard, brands and frames both layouts', async (t) => {
  const { app } = await testHost(fixture('thesis-in-two-repositories'), { themeDirectories: [BRANDED] });
  const request = supertest(app.callback());
  for (const [ui, sheets] of [
    ['standard', ['standard.1', 'standard']],
    ['mobile', ['standard.1', 'standard', 'mobile']],
  ] as const) {
    const $ = cheerio.load((await request.get(`${PAGE}&lng=es`).set('Cookie', `ui=${ui}`).expect(200)).text);
    t.is($('html').attr('data-theme'), ui);
    // The stock stylesheet first, the host's branding over it, the mobile layout's last.
    t.deepEqual($('link[rel="stylesheet"]').map((_, e) => $(e).attr('href')).get(), sheets.map((name) => `https://catalog.example.edu/themes/${name}/assets/theme.css`), ui);
    // The host's frame: its header with its search box, its footer, in the page's language.
    t.is($('header.campus-header form[role="search"] label').text(), 'Buscar en el catálogo', ui);
    t.is($('footer.campus-footer').text(), 'Biblioteca del Campus · Calle de la Biblioteca, 1', ui);
    t.is($('header.campus-header nav.language-switch a').length, 2, `${ui}: the plugin's language switch inside the host's header`);
    // The plugin's own page inside it, and the way back to the record.
    t.is($('main h1').length, 1);
    t.is($('ol.versions > li').length, 2);
    t.deepEqual([$('main .back-link a').attr('href'), $('main .back-link a').text()], ['https://catalog.example.edu/Record/usp:tese-2019-0412', 'Volver al registro del que viene']);
    t.is($('ol.versions > li.version--compact').length, ui === 'mobile' ? 2 : 0, `${ui}: the mobile layout's entry`);
  }
  // The hidden shipped standard is served under standard.1, the host's under standard.
  const stock = (await request.get('/themes/standard.1/assets/theme.css').expect(200)).text;
  const host = (await request.get('/themes/standard/assets/theme.css').expect(200)).text;
  t.regex(stock, /\.version--requested/);
  t.regex(host, /campus-header/);
  await request.get('/themes/standard.2/assets/theme.css').expect(404);
  await request.get('/themes/mobile.1/assets/theme.css').expect(404);
  // The error page has the frame too.
  const error = cheerio.load((await request.get('/Search/Versions?id=nope&lng=en').expect(404)).text);
  t.is(error('footer.campus-footer').text(), 'Campus Library · 1 Library Street');
});

test('a theme that extends its own name with no theme of that name below it is refused at creation', async (t) => {
  await t.throwsAsync(testHost([], { themeDirectories: [BRANDED], themes: { standard: 'lonely' } }), {
    message: /Invalid option "themes": theme "lonely" \(.*lonely\) extends its own name, but no theme of that name lies in a later theme folder/,
  });
});

test('the versions page links back to the requested record in every language', async (t) => {
  const { request } = await testHost(fixture('thesis-in-two-repositories'));
  for (const [lng, label] of [['en', 'Back to the record you came from'], ['pt-br', 'Voltar ao registro de onde você veio'], ['es', 'Volver al registro del que viene']] as const) {
    const $ = cheerio.load((await request.get(`${PAGE}&lng=${lng}`).expect(200)).text);
    t.deepEqual([$('main .back-link a').attr('href'), $('main .back-link a').text()], ['https://catalog.example.edu/Record/usp:tese-2019-0412', label], lng);
  }
});
