import test from 'ava';
import {
  encodePathSegment, recordUrl, versionsFeedUrl, versionsFeedUrls, versionsLanguageHref, versionsLanguageHrefs, versionsLinkUrl, versionsPageHref, versionsPageHrefs,
} from '../../src/versions/versionsUrls.js';

test('feed and link URLs carry the parameters in the contract order, form-encoded', (t) => {
  const address = { id: 'oai:x/1 2', language: 'pt-br' };
  t.is(versionsLinkUrl('https://c.example/', address), 'https://c.example/Search/Versions?sort=last_indexed+desc&limit=50&id=oai%3Ax%2F1+2&search=versions&lng=pt-br');
  t.is(versionsFeedUrl('https://c.example', address), 'https://c.example/Search/Versions?sort=last_indexed+desc&limit=50&view=rss&id=oai%3Ax%2F1+2&search=versions&lng=pt-br');
  t.is(versionsFeedUrl('https://c.example/vufind', address, 3), 'https://c.example/vufind/Search/Versions?sort=last_indexed+desc&limit=50&view=rss&id=oai%3Ax%2F1+2&search=versions&lng=pt-br&page=3');
});

test('page links keep lng only when given', (t) => {
  t.is(versionsPageHref('a&b', 2), '?id=a%26b&search=versions&page=2');
  t.is(versionsPageHref('a', 2, 'es'), '?id=a&search=versions&page=2&lng=es');
});

test('the links of one feed or page, their shared part written once, are the addresses each is alone', (t) => {
  const ids = ['oai:x/1 2', 'a&b=c', 'é 😀', 'a\uD800b'];
  const filterLists = [[], ['format:"Book"'], ['format:"E-book & more"', 'language:"por"']];
  for (const id of ids) {
    const feedUrl = versionsFeedUrls('https://c.example/vufind/', { id, language: 'pt-br' });
    for (const page of [undefined, 1, 2, 50_000, 1_000_001, 1.5, -3]) t.is(feedUrl(page), versionsFeedUrl('https://c.example/vufind/', { id, language: 'pt-br' }, page));
    for (const [language, sort] of [[undefined, undefined], ['es', 'year-desc'], ['en', 'relevance']] as const) {
      const pageHref = versionsPageHrefs(id, language, sort);
      for (const filters of filterLists) {
        for (const page of [1, 2, 1_000_000, 0.5]) t.is(pageHref(page, filters), versionsPageHref(id, page, language, sort, filters));
        for (const page of [1, 3]) {
          const languageHref = versionsLanguageHrefs(id, page, sort, filters);
          for (const code of ['en', 'pt-br']) t.is(languageHref(code), versionsLanguageHref(id, page, code, sort, filters));
        }
      }
      t.is(pageHref(4), versionsPageHref(id, 4, language, sort));
    }
  }
});

test('record URLs percent-encode path-unsafe characters only', (t) => {
  t.is(recordUrl('https://c.example/', 'oai:repo:1/2'), 'https://c.example/Record/oai:repo:1%2F2');
  t.is(encodePathSegment('a b?c#d%e<f>"g'), 'a%20b%3Fc%23d%25e%3Cf%3E%22g');
  t.is(encodePathSegment("$&+,;=:@!'()*-._~"), "$&+,;=:@!'()*-._~");
  t.is(encodePathSegment('Война'), '%D0%92%D0%BE%D0%B9%D0%BD%D0%B0');
  t.is(encodePathSegment('..'), '%2E%2E');
  t.is(encodePathSegment('.'), '%2E');
  t.is(encodePathSegment('a..b'), 'a..b');
  for (const id of ['x/y', 'a b', '100%', 'é', '😀', '?#[]']) t.is(decodeURIComponent(encodePathSegment(id)), id);
  t.is(encodePathSegment('a\uD800b'), 'a%EF%BF%BDb', 'a lone surrogate becomes U+FFFD, as in query strings');
  // Every ASCII character, inside a value and around a character beyond ASCII: what encodeURIComponent
  // writes, but for the sub-delims, ':' and '@' that a path segment holds as they are.
  for (let code = 0; code < 128; code++) {
    const character = String.fromCharCode(code);
    const expected = "$&+,;=:@".includes(character) ? character : encodeURIComponent(character);
    t.is(encodePathSegment(`a${character}b`), `a${expected}b`, `U+${code.toString(16)}`);
    t.is(encodePathSegment(`é${character}`), `%C3%A9${expected}`, `U+${code.toString(16)} after é`);
  }
});

test('query values are written as URLSearchParams writes them, every ASCII character and beyond', (t) => {
  const values = ['é 😀', 'a\uD800b', 'Война & мир', ''];
  for (let code = 0; code < 128; code++) values.push(`a${String.fromCharCode(code)}b`, `${String.fromCharCode(code)}é`);
  for (const value of values) {
    const expected = new URLSearchParams([['id', value], ['search', 'versions'], ['page', '2']]).toString();
    t.is(versionsPageHref(value, 2), `?${expected}`, JSON.stringify(value));
  }
});
