import test from 'ava';
import { bestAcceptedLanguage, languageResolver, resolveLanguage } from '../../src/i18n/resolveLanguage.js';

const settings = { supported: ['en', 'pt-br', 'es'], fallback: 'en' };

test('first match wins: query, session, cookie, header, default', (t) => {
  const all = { query: 'es', session: 'pt-br', cookie: 'en', acceptLanguage: 'pt-BR' };
  t.deepEqual(resolveLanguage(all, settings), { language: 'es', source: 'query' });
  t.deepEqual(resolveLanguage({ ...all, query: undefined }, settings), { language: 'pt-br', source: 'session' });
  t.deepEqual(resolveLanguage({ ...all, query: undefined, session: undefined }, settings), { language: 'en', source: 'cookie' });
  t.deepEqual(resolveLanguage({ acceptLanguage: 'pt-BR' }, settings), { language: 'pt-br', source: 'header' });
  t.deepEqual(resolveLanguage({}, settings), { language: 'en', source: 'default' });
});

test('unknown codes are skipped, never an error; case does not matter', (t) => {
  t.deepEqual(resolveLanguage({ query: 'de', cookie: 'ES' }, settings), { language: 'es', source: 'cookie' });
  t.deepEqual(resolveLanguage({ query: '', session: 'x'.repeat(10_000) }, settings), { language: 'en', source: 'default' });
  t.is(resolveLanguage({}, { supported: ['pt-br', 'es'], fallback: 'pt-br' }).language, 'pt-br');
});

test('Accept-Language: quality order, exact match, then same primary subtag', (t) => {
  t.is(bestAcceptedLanguage('pt-BR,pt;q=0.9,en;q=0.8', settings.supported), 'pt-br');
  t.is(bestAcceptedLanguage('pt', settings.supported), 'pt-br');
  t.is(bestAcceptedLanguage('pt-PT', settings.supported), 'pt-br');
  t.is(bestAcceptedLanguage('es-AR', settings.supported), 'es');
  t.is(bestAcceptedLanguage('en;q=0.2, es;q=0.8', settings.supported), 'es');
  t.is(bestAcceptedLanguage('fr, de;q=0.9', settings.supported), undefined);
  t.is(bestAcceptedLanguage('es;q=0, en;q=0.1', settings.supported), 'en', 'q=0 means not acceptable');
  t.is(bestAcceptedLanguage('*', settings.supported), undefined);
  t.is(bestAcceptedLanguage('<script>, ;;;, es', settings.supported), 'es');
  t.is(bestAcceptedLanguage('', settings.supported), undefined);
});

test('a plugin\'s resolver decides as resolveLanguage does, also for headers it has seen before or past its memory', (t) => {
  const resolve = languageResolver(settings);
  const headers = ['pt-BR,pt;q=0.9,en;q=0.8', 'es-AR', 'fr, de;q=0.9', '*', '', `${'x-'.repeat(200)}es`, ...Array.from({ length: 300 }, (_, i) => `fr;q=0.${i % 10}, es;q=0.${(i + 1) % 10}, en-${i}`)];
  for (const round of [1, 2]) {
    for (const acceptLanguage of headers) {
      for (const candidates of [{ acceptLanguage }, { cookie: 'ES', acceptLanguage }, { query: 'xx', session: 'pt-br', acceptLanguage }]) {
        t.deepEqual(resolve(candidates), resolveLanguage(candidates, settings), `round ${round}: ${JSON.stringify(candidates)}`);
      }
    }
  }
  t.deepEqual(resolve({}), { language: 'en', source: 'default' });
});
