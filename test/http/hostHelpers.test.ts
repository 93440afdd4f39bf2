/**
 * The helpers the plugin gives a host's own pages: languageOf(ctx) chooses as the versions pages do, and
 * labelsFor(language) words "Show all versions (N)" and format labels as they do.
 */
import test from 'ava';
import Koa from 'koa';
import supertest from 'supertest';
import { createVersionsPlugin } from '../../src/index.js';
import { openEmbeddedIndex } from '../../src/entries/sqlite.js';

function hostWithLanguageRoute() {
  const index = openEmbeddedIndex({ path: ':memory:' });
  const plugin = createVersionsPlugin({ index, languages: ['en', 'pt-br', 'es'] });
  const app = new Koa();
  app.use(async (ctx, next) => {
    if (ctx.path !== '/host-page') return next();
    ctx.body = plugin.languageOf(ctx);
  });
  app.use(plugin);
  return { plugin, request: supertest(app.callback()), index };
}

test('languageOf follows lng, then the language cookie, then Accept-Language, then the default', async (t) => {
  const { request, index } = hostWithLanguageRoute();
  t.teardown(() => index.close());
  t.is((await request.get('/host-page?lng=es').set('Cookie', 'language=pt-br')).text, 'es');
  t.is((await request.get('/host-page?lng=xx').set('Cookie', 'language=pt-br')).text, 'pt-br');
  t.is((await request.get('/host-page').set('Accept-Language', 'pt-PT, en;q=0.5')).text, 'pt-br');
  t.is((await request.get('/host-page').set('Accept-Language', 'de')).text, 'en');
});

test('labelsFor words the show-all-versions link and format labels as the versions page does', async (t) => {
  const { plugin, index } = hostWithLanguageRoute();
  t.teardown(() => index.close());
  t.is(plugin.labelsFor('pt-br').showAllVersions(3), 'Mostrar todas as versões (3)');
  t.is(plugin.labelsFor('es').showAllVersions(12), 'Mostrar todas las versiones (12)');
  t.is(plugin.labelsFor('en').showAllVersions(2), 'Show all versions (2)');
  t.is(plugin.labelsFor('es').format('Thesis'), 'Tesis');
  t.is(plugin.labelsFor('pt-br').format('Something local'), 'Something local', 'unknown formats as written');
  t.is(plugin.labelsFor('fr').showAllVersions(4), 'Show all versions (4)', 'a language not offered gives the default');
});

test('labelsFor answers values of the wrong kind with its documented empty answer, not an error from inside', async (t) => {
  const { plugin, index } = hostWithLanguageRoute();
  t.teardown(() => index.close());
  const spanish = plugin.labelsFor('es');
  const wrongKinds: unknown[] = [undefined, null, {}, 42, Buffer.from('Thesis'), ['Thesis']];
  for (const value of wrongKinds) t.is(spanish.format(value as string), '', `format(${String(value)})`);
  for (const count of [undefined, null, {}, -1, 2.5, Number.NaN, '3', Buffer.from('3')]) {
    t.is(spanish.showAllVersions(count as number), '', `showAllVersions(${String(count)})`);
  }
  t.is(spanish.showAllVersions(0), 'Mostrar todas las versiones (0)');
  // A language that is not a string is one the plugin does not offer: the default language's labels.
  for (const language of [undefined, {}, 7, Buffer.from('es')]) t.is(plugin.labelsFor(language as string).format('Thesis'), 'Thesis', String(language));
});
