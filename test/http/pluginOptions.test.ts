import test from 'ava';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createVersionsPlugin, InvalidOptionError, openEmbeddedIndex } from '../../src/index.js';
import { PLUGIN_OPTION_NAMES } from '../../src/http/pluginOptions.js';

const index = openEmbeddedIndex({ path: ':memory:' });

test('bad options fail at creation with a message naming the option', (t) => {
  const cases: Array<[object, RegExp]> = [
    [{}, /"index"/],
    [{ index: {} }, /"index"/],
    [{ index, baseUrl: 'catalog.example.edu' }, /"baseUrl": must be an absolute http\(s\) URL/],
    [{ index, baseUrl: 'ftp://catalog.example.edu' }, /"baseUrl": must use http or https/],
    [{ index, baseUrl: 'https://c.example/?x=1' }, /"baseUrl": must not carry a query/],
    [{ index, siteTitle: '' }, /"siteTitle"/],
    [{ index, contact: 42 }, /"contact"/],
    [{ index, languages: [] }, /"languages"/],
    [{ index, languages: ['en', 'fr'] }, /"languages": unknown language "fr"/],
    [{ index, languages: ['pt-br'], defaultLanguage: 'en' }, /"defaultLanguage"/],
    [{ index, logger: { error() {} } }, /"logger"/],
    [{ index, cacheTemplates: 'yes' }, /"cacheTemplates"/],
    [{ index, answerCacheMegabytes: -1 }, /"answerCacheMegabytes"/],
    [{ index, answerCacheMegabytes: '64' }, /"answerCacheMegabytes"/],
    [{ index, answerCacheMegabytes: Number.NaN }, /"answerCacheMegabytes"/],
    [{ index, baseurl: 'https://typo.example' }, /"baseurl": is not an option/],
    [{ index, catalogHomeUrl: '' }, /"catalogHomeUrl": must be an absolute http\(s\) URL or a path/],
    [{ index, catalogHomeUrl: 'home' }, /"catalogHomeUrl": must be an absolute http\(s\) URL or a path/],
    [{ index, catalogHomeUrl: '//evil.example/' }, /"catalogHomeUrl".*leaves the site/],
    [{ index, catalogHomeUrl: 'javascript:alert(1)' }, /"catalogHomeUrl": must use http or https/],
    [{ index, catalogHomeUrl: '/a b' }, /"catalogHomeUrl"/],
    [{ index, catalogHomeUrl: '/a\nb' }, /"catalogHomeUrl"/],
    [{ index, catalogHomeUrl: 42 }, /"catalogHomeUrl"/],
  ];
  for (const [options, message] of cases) {
    const error = t.throws(() => createVersionsPlugin(options as never), { instanceOf: InvalidOptionError });
    t.regex(error!.message, message, JSON.stringify(options));
  }
});

test('good options give a middleware; codes are normalised to lower case', (t) => {
  const middleware = createVersionsPlugin({ index, languages: ['PT-BR', 'es'], defaultLanguage: 'pt-BR', baseUrl: 'https://c.example/vufind/' });
  t.is(typeof middleware, 'function');
});

test('catalogHomeUrl takes a path on the site or an absolute http(s) URL', (t) => {
  for (const catalogHomeUrl of ['/', '/vufind/', '/vufind/?lng=es', 'https://catalog.example.edu/', 'http://c.example/home#top']) {
    t.is(typeof createVersionsPlugin({ index, catalogHomeUrl }), 'function', catalogHomeUrl);
  }
});

test('plugin.json and the README list exactly the options the plugin accepts', (t) => {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const manifest = JSON.parse(readFileSync(join(root, 'plugin.json'), 'utf8')) as { options: Record<string, unknown> };
  t.deepEqual(Object.keys(manifest.options).sort(), [...PLUGIN_OPTION_NAMES].sort());
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const table = readme.slice(readme.indexOf('### Options'), readme.indexOf('### Exports'));
  const documented = [...table.matchAll(/^\| `(\w+)` \|/gm)].map((match) => match[1]);
  t.deepEqual(documented.sort(), [...PLUGIN_OPTION_NAMES].sort());
});
