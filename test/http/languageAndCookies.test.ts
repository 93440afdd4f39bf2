import test from 'ava';
import * as cheerio from 'cheerio';
import session from 'koa-session';
import supertest from 'supertest';
import { fixture, testHost } from '../support/testHost.js';

const PATH = '/Search/Versions?id=usp%3Atese-2019-0412&search=versions';
const langOf = (html: string) => cheerio.load(html)('html').attr('lang');

function cookiesOf(response: supertest.Response): Record<string, string> {
  const header = response.headers['set-cookie'] as unknown as string[] | undefined;
  return Object.fromEntries((header ?? []).map((line) => [line.split('=')[0]!, line]));
}

test('language precedence: lng, then cookie, then Accept-Language, then default', async (t) => {
  const { app } = await testHost(fixture('thesis-in-two-repositories'));
  const plain = supertest(app.callback());
  t.is(langOf((await plain.get(PATH)).text), 'en');
  t.is(langOf((await plain.get(PATH).set('Accept-Language', 'es-MX,es;q=0.9')).text), 'es');
  t.is(langOf((await plain.get(PATH).set('Accept-Language', 'fr, pt;q=0.5')).text), 'pt-br');
  t.is(langOf((await plain.get(PATH).set('Accept-Language', 'fr-CA, de')).text), 'en');
  t.is(langOf((await plain.get(PATH).set('Cookie', 'language=es').set('Accept-Language', 'pt-BR')).text), 'es');
  t.is(langOf((await plain.get(`${PATH}&lng=pt-br`).set('Cookie', 'language=es').set('Accept-Language', 'es')).text), 'pt-br');
  t.is(langOf((await plain.get(`${PATH}&lng=PT-BR`)).text), 'pt-br', 'codes match case-insensitively');
  t.is(langOf((await plain.get(`${PATH}&lng=xx`).set('Cookie', 'language=es')).text), 'es', 'an unknown lng is ignored');
  t.is(langOf((await plain.get(PATH).set('Cookie', 'language=klingon').set('Accept-Language', 'pt-BR')).text), 'pt-br');
});

test('HTML answers set language, ui and session cookies only when needed, with the right attributes', async (t) => {
  const { app } = await testHost(fixture('thesis-in-two-repositories'));
  const plain = supertest(app.callback());
  const first = cookiesOf(await plain.get(`${PATH}&lng=es`).expect(200));
  t.regex(first.language ?? '', /^language=es; path=\/; samesite=lax; httponly$/i);
  t.regex(first.ui ?? '', /^ui=standard; path=\/; samesite=lax; httponly$/i);
  t.regex(first.VUFIND_SESSION ?? '', /^VUFIND_SESSION=[0-9a-f]{32}; path=\/; samesite=lax; httponly$/i);
  t.false(Object.values(first).some((line) => /expires|max-age/i.test(line)));

  const again = cookiesOf(await plain.get(`${PATH}&lng=es`).set('Cookie', 'language=es; ui=standard; VUFIND_SESSION=abc123').expect(200));
  t.deepEqual(Object.keys(again), [], 'nothing to change, nothing set');

  const changed = cookiesOf(await plain.get(`${PATH}&lng=pt-br`).set('Cookie', 'language=es; ui=standard; VUFIND_SESSION=abc123').expect(200));
  t.deepEqual(Object.keys(changed), ['language']);
  t.regex(changed.language ?? '', /^language=pt-br;/);
});

test('an unknown or hostile ui cookie gets the default theme and is replaced', async (t) => {
  const { app } = await testHost(fixture('thesis-in-two-repositories'));
  const plain = supertest(app.callback());
  const response = await plain.get(PATH).set('Cookie', 'ui=%0D%0ASet-Cookie:%20evil=1; language=en; VUFIND_SESSION=abc').expect(200);
  t.is(cheerio.load(response.text)('html').attr('data-theme'), 'standard');
  const cookies = cookiesOf(response);
  t.deepEqual(Object.keys(cookies), ['ui']);
  t.regex(cookies.ui ?? '', /^ui=standard;/);
});

test('the ui cookie picks the theme; the mobile theme overrides entries and adds its stylesheet', async (t) => {
  const { app } = await testHost(fixture('thesis-in-two-repositories'));
  const plain = supertest(app.callback());
  const standard = cheerio.load((await plain.get(PATH).set('Cookie', 'ui=standard').expect(200)).text);
  const mobile = cheerio.load((await plain.get(PATH).set('Cookie', 'ui=mobile').expect(200)).text);
  t.is(standard('html').attr('data-theme'), 'standard');
  t.is(mobile('html').attr('data-theme'), 'mobile');
  const sheets = (page: cheerio.CheerioAPI) => page('link[rel="stylesheet"]').map((_, e) => page(e).attr('href')).get();
  t.deepEqual(sheets(standard), ['https://catalog.example.edu/themes/standard/assets/theme.css']);
  t.deepEqual(sheets(mobile), ['https://catalog.example.edu/themes/standard/assets/theme.css', 'https://catalog.example.edu/themes/mobile/assets/theme.css']);
  t.not(mobile('ol.versions').html(), standard('ol.versions').html(), 'the mobile entry template differs');
  t.is(mobile('h1').text().trim(), standard('h1').text().trim());
});

test('the host session stores an explicit choice and outranks the cookie', async (t) => {
  const { app } = await testHost(fixture('thesis-in-two-repositories'), {}, (host) => {
    host.keys = ['test-secret'];
    host.use(session({ signed: true }, host));
  });
  const plain = supertest(app.callback());
  const chosen = await plain.get(`${PATH}&lng=pt-br`).expect(200);
  const sessionCookies = ((chosen.headers['set-cookie'] as unknown as string[]) ?? [])
    .map((line) => line.split(';')[0]!)
    .filter((pair) => pair.startsWith('koa.sess'));
  t.is(sessionCookies.length, 2, 'the host session was saved (cookie and signature)');
  // Same session, but a language cookie and a header that say otherwise: the session's pt-br wins.
  const later = await plain.get(PATH).set('Cookie', [...sessionCookies, 'language=es'].join('; ')).set('Accept-Language', 'es');
  t.is(langOf(later.text), 'pt-br');
  // Without the session, the cookie decides.
  t.is(langOf((await plain.get(PATH).set('Cookie', 'language=es')).text), 'es');
});
