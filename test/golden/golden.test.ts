/**
 * Golden files: one feed and one page, byte for byte. A change to them must be deliberate:
 * regenerate with `UPDATE_GOLDEN=1 npx ava test/golden/golden.test.ts` and review the diff.
 */
import test from 'ava';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixture, testHost } from '../support/testHost.js';

const GOLDEN = dirname(fileURLToPath(import.meta.url));

function compareWithGolden(t: import('ava').ExecutionContext, name: string, actual: string): void {
  const file = join(GOLDEN, name);
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(file, actual);
  t.true(existsSync(file), `${name} is missing: run with UPDATE_GOLDEN=1 once`);
  t.is(actual, readFileSync(file, 'utf8'));
}

test('the feed of a thesis deposited in two repositories, in Portuguese', async (t) => {
  const { request } = await testHost([...fixture('thesis-in-two-repositories'), ...fixture('title-with-ampersand')]);
  const response = await request.get('/Search/Versions?id=usp%3Atese-2019-0412&search=versions&view=rss&lng=pt-br').expect(200);
  compareWithGolden(t, 'thesis-feed-pt-br.xml', response.text);
});

test('the page of a thesis deposited in two repositories, in Spanish, mobile theme', async (t) => {
  const { request } = await testHost(fixture('thesis-in-two-repositories'));
  const response = await request.get('/Search/Versions?id=usp%3Atese-2019-0412&search=versions&lng=es').set('Cookie', 'ui=mobile').expect(200);
  compareWithGolden(t, 'thesis-page-es-mobile.html', response.text);
});
