import test from 'ava';
import { readFileSync } from 'node:fs';
import * as cheerio from 'cheerio';
import { IndexUnavailableError } from '../../src/errors.js';
import type { CatalogIndex } from '../../src/ports.js';
import { fixture, hostFor, testHost } from '../support/testHost.js';

const ERROR_LINES = {
  en: ['An error has occurred', 'An error occurred during execution; please try again later.', 'Please contact the Library Reference Department for assistance'],
  'pt-br': ['Erro na aplicação', 'Ocorreu um erro durante a execução; por favor, tente novamente mais tarde.', 'Por favor contate o Library Reference Department para mais ajuda'],
  es: ['Ha ocurrido un error', 'Se produjo un error durante la ejecución; por favor, inténtelo de nuevo más tarde.', 'Por favor, contacte con Library Reference Department para obtener ayuda'],
} as const;

function errorLinesOf(html: string): string[] {
  const $ = cheerio.load(html);
  // The three lines; the advice before them (what to do) is checked on its own below.
  return $('main').find('h1, p').not('.error-page__advice').map((_, e) => $(e).text().trim()).get();
}

/** An index whose engine fails the way the given function says. */
function failingIndex(fail: () => never): CatalogIndex {
  return { getRecord: async () => fail(), findVersions: async () => fail(), countVersions: async () => fail(), close: async () => undefined };
}

for (const [lng, lines] of Object.entries(ERROR_LINES)) {
  test(`a missing record is a 404 error page in ${lng}, for the page and the feed`, async (t) => {
    const { request } = await testHost(fixture('thesis-in-two-repositories'));
    for (const view of ['', '&view=rss']) {
      const response = await request.get(`/Search/Versions?id=no-such-record&search=versions&lng=${lng}${view}`).expect(404);
      t.regex(response.headers['content-type'] ?? '', /^text\/html/);
      t.deepEqual(errorLinesOf(response.text), [...lines]);
      t.is(cheerio.load(response.text)('html').attr('lang'), lng);
      t.false(response.text.includes('no-such-record'), 'the missing id is not echoed');
      t.false(/does not exist|Error:|at .*\(|\/work\/|node_modules/.test(response.text));
    }
  });
}

test('the error page language also follows the language cookie', async (t) => {
  const { request } = await testHost(fixture('thesis-in-two-repositories'));
  const response = await request.get('/Search/Versions?id=nope&view=rss').set('Cookie', 'language=pt-br').expect(404);
  t.deepEqual(errorLinesOf(response.text), [...ERROR_LINES['pt-br']]);
});

test('a missing or empty id is a 400 error page', async (t) => {
  const { request } = await testHost(fixture('thesis-in-two-repositories'));
  for (const query of ['search=versions', 'id=&search=versions', 'id=%20%20&view=rss', 'id[]=x']) {
    const response = await request.get(`/Search/Versions?${query}`);
    t.is(response.status, 400, query);
    t.deepEqual(errorLinesOf(response.text), [...ERROR_LINES.en]);
  }
});

test('the contact line names the configured contact', async (t) => {
  const { request } = await testHost(fixture('thesis-in-two-repositories'), { contact: 'Biblioteca <Central>' });
  const response = await request.get('/Search/Versions?id=nope&lng=pt-br').expect(404);
  t.is(errorLinesOf(response.text)[2], 'Por favor contate o Biblioteca <Central> para mais ajuda');
  t.false(response.text.includes('<Central>'));
});

test('an unavailable index is a 503 error page; the cause goes to the log only', async (t) => {
  const { request, logged } = hostFor(failingIndex(() => {
    throw new IndexUnavailableError('Solr at http://10.0.0.5:8983 refused: ECONNREFUSED secret-detail');
  }));
  for (const view of ['', '&view=rss']) {
    const response = await request.get(`/Search/Versions?id=abc${view}`).expect(503);
    t.deepEqual(errorLinesOf(response.text), [...ERROR_LINES.en]);
    t.false(response.text.includes('secret-detail'));
    t.false(response.text.includes('10.0.0.5'));
    t.is(response.headers['cache-control'], 'no-store');
  }
  t.is(logged.filter((line) => line.level === 'error').length, 2);
  t.regex(logged[0]!.message, /INDEX_UNAVAILABLE.*secret-detail/);
});

test('an unexpected failure is a 500 error page with nothing internal in it', async (t) => {
  const { request, logged } = hostFor(failingIndex(() => {
    throw new TypeError("Cannot read properties of undefined (reading 'docs') at /srv/app/node_modules/x.js:1:1");
  }));
  const response = await request.get('/Search/Versions?id=abc&lng=es').expect(500);
  t.deepEqual(errorLinesOf(response.text), [...ERROR_LINES.es]);
  t.false(/docs|node_modules|TypeError/.test(response.text));
  t.is(logged.length, 1);
  t.is(logged[0]!.level, 'error');
  t.true(logged[0]!.details?.cause instanceof TypeError);
});

test('other methods get 405 with Allow; other paths are left to the host', async (t) => {
  const { request } = await testHost(fixture('thesis-in-two-repositories'));
  const response = await request.post('/Search/Versions?id=x').expect(405);
  t.regex(String(response.headers.allow), /GET/);
  await request.get('/Record/usp:tese-2019-0412').expect(404);
  await request.get('/themes/standard/assets/..%2F..%2Fpackage.json').expect(404);
  await request.get('/themes/nope/assets/theme.css').expect(404);
});

test('theme assets and the feed stylesheet are served', async (t) => {
  const { request } = await testHost(fixture('thesis-in-two-repositories'));
  const css = await request.get('/themes/mobile/assets/theme.css').expect(200);
  t.regex(css.headers['content-type'] ?? '', /text\/css/);
  const xsl = await request.get('/themes/root/assets/xsl/rss.xsl').expect(200);
  t.regex(xsl.headers['content-type'] ?? '', /^text\/xsl/);
  t.regex(xsl.text, /<xsl:stylesheet[^>]+version="1.0"/);
});

const RECORD_MISSING = { en: 'This record is not in the catalog', 'pt-br': 'Este registro não está no catálogo', es: 'Este registro no está en el catálogo' } as const;

test('a missing record says so under the heading; other errors do not', async (t) => {
  const { request } = await testHost(fixture('thesis-in-two-repositories'), { logger: { error: () => undefined, warn: () => undefined } });
  for (const [lng, subject] of Object.entries(RECORD_MISSING)) {
    for (const view of ['', '&view=rss']) {
      const $ = cheerio.load((await request.get(`/Search/Versions?id=no-such-record&lng=${lng}${view}`).expect(404)).text);
      t.is($('main h2').text().trim(), subject, `${lng}${view}`);
      t.is($('main h1').text().trim(), ERROR_LINES[lng as keyof typeof ERROR_LINES][0]);
      t.is($('title').text(), `${ERROR_LINES[lng as keyof typeof ERROR_LINES][0]} - ${subject} :: Library Catalog`);
    }
  }
  const missingId = cheerio.load((await request.get('/Search/Versions?search=versions&lng=en').expect(400)).text);
  t.is(missingId('main h2').text().trim(), 'This address does not name a record', 'a missing id is not a missing record');
  t.is(missingId('title').text(), 'An error has occurred - This address does not name a record :: Library Catalog');
});

// What happened and what to do come first; "try again later" is advice only where it is true (503).
const CATALOG_HOME = { en: 'Catalog home', 'pt-br': 'Início do catálogo', es: 'Inicio del catálogo' } as const;
const TRY_AGAIN = { en: 'try again', 'pt-br': 'tente novamente', es: 'inténtelo de nuevo' } as const;
const ADVICE = {
  404: { en: 'The link may be out of date, or the record was withdrawn. Search the catalog for the title from its home page.', 'pt-br': 'O link pode estar desatualizado ou o registro foi retirado. Procure o título no catálogo a partir da página inicial.', es: 'El enlace puede estar desactualizado o el registro fue retirado. Busque el título en el catálogo desde su página de inicio.' },
  400: { en: 'Open a record in the catalog and follow its “Show all versions” link, or search the catalog from its home page.', 'pt-br': 'Abra um registro no catálogo e siga o link “Mostrar todas as versões”, ou faça uma busca a partir da página inicial do catálogo.', es: 'Abra un registro del catálogo y siga su enlace «Mostrar todas las versiones», o busque en el catálogo desde su página de inicio.' },
  503: { en: 'This is a passing fault: please try again in a few minutes.', 'pt-br': 'É uma falha passageira: por favor, tente novamente em alguns minutos.', es: 'Es un fallo pasajero: por favor, inténtelo de nuevo en unos minutos.' },
} as const;

test('the error page says first what happened and what to do, then the three lines; only a 503 says to try again', async (t) => {
  const { request } = await testHost(fixture('thesis-in-two-repositories'), { logger: { error: () => undefined, warn: () => undefined } });
  const failing = hostFor(failingIndex(() => {
    throw new IndexUnavailableError('down');
  }), { logger: { error: () => undefined, warn: () => undefined } });
  for (const lng of ['en', 'pt-br', 'es'] as const) {
    for (const [status, answer] of [
      [404, () => request.get(`/Search/Versions?id=no-such-record&lng=${lng}`)],
      [400, () => request.get(`/Search/Versions?id=%20&lng=${lng}`)],
      [503, () => failing.request.get(`/Search/Versions?id=usp%3Atese-2019-0412&lng=${lng}`)],
    ] as const) {
      const $ = cheerio.load((await answer().expect(status)).text);
      const lines = ERROR_LINES[lng];
      // In reading order: line 1, what happened, what to do, the way home, then lines 2 and 3.
      t.deepEqual($('main').find('h1, h2, p, a').map((_, e) => $(e).text().trim()).get(), [
        lines[0], $('main h2').text().trim(), ADVICE[status][lng], CATALOG_HOME[lng], lines[1], lines[2],
      ], `${status} ${lng}`);
      t.is($('main .error-page__advice').text().includes(TRY_AGAIN[lng]), status === 503, `${status} ${lng}: "try again" only when true`);
    }
  }
});

test('the error page has the site header, the way home and a language switch that names no record', async (t) => {
  const { request } = await testHost(fixture('thesis-in-two-repositories'), { catalogHomeUrl: '/vufind/' });
  const html = (await request.get('/Search/Versions?id=no-such-record&lng=pt-br').expect(404)).text;
  const $ = cheerio.load(html);
  t.is($('a.skip-link').attr('href'), '#main');
  t.is($('a.skip-link').text().trim(), 'Pular para o conteúdo');
  t.is($('header .site-title a').text().trim(), 'Library Catalog');
  t.is($('header .site-title a').attr('href'), '/vufind/');
  t.deepEqual($('main a').map((_, a) => [[$(a).attr('href'), $(a).text().trim()]]).get(), [['/vufind/', 'Início do catálogo']]);
  // The page has no address of its own to offer in another language (it never names the record): each
  // language leads to the catalog's home in that language.
  t.deepEqual($('nav.language-switch a').map((_, a) => $(a).attr('href')).get(), ['/vufind/?lng=en', '/vufind/?lng=es']);
  t.is($('nav.language-switch [aria-current="true"]').text().trim(), 'Português (Brasil)');
  t.false(html.includes('no-such-record'));
});

test('an absolute catalogHomeUrl keeps its own query in the language links', async (t) => {
  const { request } = await testHost(fixture('thesis-in-two-repositories'), { catalogHomeUrl: 'https://library.example.edu/vufind/?skin=x' });
  const $ = cheerio.load((await request.get('/Search/Versions?id=nope&lng=es').expect(404)).text);
  t.is($('main a.error-page__home').attr('href'), 'https://library.example.edu/vufind/?skin=x');
  t.deepEqual($('nav.language-switch a').map((_, a) => $(a).attr('href')).get(), [
    'https://library.example.edu/vufind/?skin=x&lng=en', 'https://library.example.edu/vufind/?skin=x&lng=pt-br',
  ]);
});

test('docs/errors.md lists exactly the codes of src/errors.ts, each once', (t) => {
  const source = readFileSync(new URL('../../src/errors.ts', import.meta.url), 'utf8');
  // The union's codes, and those of the unions it names (`| CurationErrorCode`, kept beside their errors).
  const unionOf = (name: string): string => new RegExp(`export type ${name} =([^;]+);`).exec(source)?.[1] ?? '';
  const union = unionOf('VersionsErrorCode');
  const named = [...union.matchAll(/\|\s*([A-Z][A-Za-z]+ErrorCode)\b/g)].map((match) => unionOf(match[1]!));
  const inSource = [union, ...named].flatMap((text) => [...text.matchAll(/'([A-Z_]+)'/g)].map((match) => match[1]!));
  const docs = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
  const section = docs.slice(docs.indexOf('## Named errors'), docs.indexOf('\n## ', docs.indexOf('## Named errors') + 1));
  // The table's second column, one code a row.
  const inDocs = section.split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => /^\|[^|]*\|\s*`([A-Z_]+)`\s*\|/.exec(line)?.[1])
    .filter((code): code is string => code !== undefined);
  t.true(inSource.length >= 13, `codes read from src/errors.ts: ${inSource.join(', ')}`);
  t.deepEqual([...inDocs].sort(), [...inSource].sort());
  t.is(new Set(inDocs).size, inDocs.length, 'each code documented once');
});
