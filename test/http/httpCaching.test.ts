import test from 'ava';
import supertest from 'supertest';
import { fixture, testHost } from '../support/testHost.js';

const FEED = '/Search/Versions?id=usp%3Atese-2019-0412&search=versions&view=rss&lng=en';
const PAGE = '/Search/Versions?id=usp%3Atese-2019-0412&search=versions&lng=en';

/** A clock that moves a minute and a few seconds on every call, as time passes between feed polls. */
function movingClock(): () => Date {
  let tick = 0;
  return () => new Date(Date.UTC(2026, 4, 4, 17, tick++, tick % 60));
}

test('the feed carries a weak ETag, Last-Modified from last_indexed and a public max-age', async (t) => {
  const { request } = await testHost(fixture('thesis-in-two-repositories'));
  const response = await request.get(FEED).expect(200);
  t.regex(response.headers.etag ?? '', /^W\/".+"$/);
  t.is(response.headers['last-modified'], 'Wed, 02 Apr 2025 08:30:00 GMT');
  t.is(response.headers['cache-control'], 'public, max-age=300');
});

test('a feed reader polling with If-None-Match gets 304 although pubDate times moved on', async (t) => {
  const { request } = await testHost(fixture('thesis-in-two-repositories'), { now: movingClock() });
  const first = await request.get(FEED).expect(200);
  const second = await request.get(FEED).expect(200);
  t.not(first.text, second.text, 'the bodies differ in the pubDate time of day');
  t.is(second.headers.etag, first.headers.etag);
  const conditional = await request.get(FEED).set('If-None-Match', first.headers.etag!).expect(304);
  t.is(conditional.text, '');
  t.is(conditional.headers.etag, first.headers.etag);
  await request.get(FEED).set('If-None-Match', 'W/"something-else"').expect(200);
});

test('If-Modified-Since at or after Last-Modified gets 304, before it gets the feed', async (t) => {
  const { request } = await testHost(fixture('thesis-in-two-repositories'));
  const statusFor = async (since: string) => (await request.get(FEED).set('If-Modified-Since', since)).status;
  t.is(await statusFor('Wed, 02 Apr 2025 08:30:00 GMT'), 304);
  t.is(await statusFor('Thu, 03 Apr 2025 00:00:00 GMT'), 304);
  t.is(await statusFor('Tue, 01 Apr 2025 00:00:00 GMT'), 200);
});

test('a re-indexed version or another language changes the ETag', async (t) => {
  const { request, index } = await testHost(fixture('thesis-in-two-repositories'));
  const before = (await request.get(FEED).expect(200)).headers.etag!;
  t.not((await request.get(FEED.replace('lng=en', 'lng=es')).expect(200)).headers.etag, before);
  await index.load([{ ...fixture('thesis-in-two-repositories')[0], format: 'Thesis (revised)', last_indexed: '2025-05-01T00:00:00Z' }]);
  const after = await request.get(FEED).set('If-None-Match', before).expect(200);
  t.not(after.headers.etag, before);
  t.is(after.headers['last-modified'], 'Thu, 01 May 2025 00:00:00 GMT');
});

test('pages revalidate every time and answer 304 when unchanged; errors are never stored', async (t) => {
  const { app } = await testHost(fixture('thesis-in-two-repositories'));
  const request = supertest(app.callback());
  const page = await request.get(PAGE).expect(200);
  t.is(page.headers['cache-control'], 'private, no-cache');
  t.is((await request.get(PAGE).set('If-None-Match', page.headers.etag!)).status, 304);
  t.not((await request.get(PAGE).set('Cookie', 'ui=mobile')).headers.etag, page.headers.etag, 'the theme is part of the ETag');
  const missing = await request.get('/Search/Versions?id=nope&view=rss').set('If-None-Match', page.headers.etag!).expect(404);
  t.is(missing.headers.etag, undefined);
  t.is(missing.headers['last-modified'], undefined);
  t.is(missing.headers['cache-control'], 'no-store');
});

test('the ui cookie does not change a feed ETag', async (t) => {
  const { app } = await testHost(fixture('thesis-in-two-repositories'));
  const request = supertest(app.callback());
  const standard = await request.get(FEED).set('Cookie', 'ui=standard').expect(200);
  const mobile = await request.get(FEED).set('Cookie', 'ui=mobile').expect(200);
  t.is(mobile.headers.etag, standard.headers.etag);
});
