/**
 * The versions route reads its parameters in one pass (src/http/versionsRequestParameters.ts) instead of through
 * Koa's ctx.query: every value must be what ctx.query (URLSearchParams) gives, for any query string.
 */
import test from 'ava';
import fc from 'fast-check';
import { parametersOfQuerystring } from '../../src/http/versionsRequestParameters.js';

/** What the route read before: Koa's parse (koa/lib/search-params.js), then the first value, or the list of filters. */
function asKoaReadsIt(querystring: string) {
  const params = new URLSearchParams(querystring);
  const first = (name: string) => params.get(name) ?? undefined;
  const brackets = params.getAll('filter[]');
  return { id: first('id'), view: first('view'), lng: first('lng'), page: first('page'), sort: first('sort'), filters: brackets.length > 0 ? brackets : params.getAll('filter') };
}

test('query strings as feed readers and pages send them', (t) => {
  for (const querystring of [
    'id=ebook-vendor%3A2214012561&search=versions&view=rss',
    'id=usp%3Atese-2019-0412&search=versions&lng=pt-BR&page=2&sort=year-asc',
    'id=a&id=b&view=rss&view=html',
    'id=x&filter%5B%5D=format%3A%22Thesis%22&filter[]=language%3Apt&filter=ignored',
    'id=x&filter=format%3ABook&filter=year',
    'id=Caf%C3%A9+au+lait&lng=&page',
    '',
    '&&=&id',
    'i%64=named+by+escape',
  ]) t.deepEqual(parametersOfQuerystring(querystring), asKoaReadsIt(querystring), querystring);
});

test('broken escapes and bad UTF-8 read as URLSearchParams reads them', (t) => {
  for (const querystring of ['id=%', 'id=%zz%4', 'id=%C0%80', 'id=%ED%A0%80x', 'id=\u00c3%A9', 'id=%FF+%41', 'view=rss%', 'id=%E2%82']) {
    t.deepEqual(parametersOfQuerystring(querystring), asKoaReadsIt(querystring), querystring);
  }
});

test('any query string of names, escapes and separators gives what ctx.query gives', (t) => {
  const piece = fc.constantFrom('id', 'view', 'lng', 'page', 'sort', 'filter', 'filter[]', 'filter%5B%5D', '%69d', 'rss', '=', '&', '+', '%', '%2', '%41',
    '%C3%A9', '%C3', '%E2%82%AC', '%F0%9F', 'é', 'x', ' ', '#', '%00', '?', '%26', '%3D');
  fc.assert(fc.property(fc.array(piece, { maxLength: 24 }), (pieces) => {
    const querystring = pieces.join('');
    t.deepEqual(parametersOfQuerystring(querystring), asKoaReadsIt(querystring), querystring);
  }), { numRuns: 3000 });
});
