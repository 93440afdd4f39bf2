/**
 * Why each version is listed (issue 19, item 4): on the HTML page, every entry but the requested record's
 * says, in the page's language, which kind of key it shares with the requested record
 * (reasonForSharedKeys, src/work-keys/workKeyKinds.ts); the feed carries no reason.
 * The fixture's records carry their own keys, so the reasons do not depend on a profile's rules.
 */
import test from 'ava';
import * as cheerio from 'cheerio';
import { fixture, testHost } from '../support/testHost.js';

const REQUESTED = 'fables-1668';

async function reasonsOnPage(language: string): Promise<Map<string, string | undefined>> {
  const { request } = await testHost(fixture('versions-with-every-reason'));
  const $ = cheerio.load((await request.get(`/Search/Versions?id=${REQUESTED}&lng=${language}`).expect(200)).text);
  const reasons = new Map<string, string | undefined>();
  $('ol.versions > li.version').each((_, entry) => {
    const id = new URL($(entry).find('.version__title a').attr('href') ?? '', 'https://x.example').searchParams.get('id')
      ?? ($(entry).find('.version__title a').attr('href') ?? '').split('/').pop() ?? '';
    const reason = $(entry).find('.version__reason');
    reasons.set(decodeURIComponent(id), reason.length === 0 ? undefined : reason.text().trim());
  });
  return reasons;
}

const EXPECTED: Record<string, Record<string, string | undefined>> = {
  en: {
    [REQUESTED]: undefined,
    'fables-1694': 'Same author and title',
    'fables-selected-1931': 'Same uniform title',
    'fables-portuguese-1886': 'Translation',
    'fables-scan-2010': 'Same DOI or handle',
    'fables-facsimile-1985': 'Grouped by the library',
  },
  'pt-br': {
    [REQUESTED]: undefined,
    'fables-1694': 'Mesmo autor e título',
    'fables-selected-1931': 'Mesmo título uniforme',
    'fables-portuguese-1886': 'Tradução',
    'fables-scan-2010': 'Mesmo DOI ou handle',
    'fables-facsimile-1985': 'Agrupado pela biblioteca',
  },
  es: {
    [REQUESTED]: undefined,
    'fables-1694': 'Mismo autor y título',
    'fables-selected-1931': 'Mismo título uniforme',
    'fables-portuguese-1886': 'Traducción',
    'fables-scan-2010': 'Mismo DOI o handle',
    'fables-facsimile-1985': 'Agrupado por la biblioteca',
  },
};

for (const [language, expected] of Object.entries(EXPECTED)) {
  test(`each version says why it is listed, in ${language}; the requested record says nothing`, async (t) => {
    const reasons = await reasonsOnPage(language);
    t.deepEqual(Object.fromEntries([...reasons].sort()), Object.fromEntries(Object.entries(expected).sort()));
  });
}

test('the feed carries no reason', async (t) => {
  const { request } = await testHost(fixture('versions-with-every-reason'));
  const feed = (await request.get(`/Search/Versions?id=${REQUESTED}&view=rss`).expect(200)).text;
  t.true(feed.includes('<item>'), 'the feed lists the versions');
  for (const reason of Object.values(EXPECTED.en!)) if (reason !== undefined) t.false(feed.includes(reason), reason);
});

test('a version sharing only a host\'s own kind of key shows no reason', async (t) => {
  const { request } = await testHost(fixture('explicit-work-keys'));
  const $ = cheerio.load((await request.get('/Search/Versions?id=ek-1').expect(200)).text);
  t.true($('ol.versions > li.version').length > 1);
  t.is($('.version__reason').length, 0);
});
