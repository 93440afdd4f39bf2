/**
 * The OAI-PMH harvester against a real HTTP repository on 127.0.0.1 (test/support/oaiProvider.ts):
 * paging, sets, dates, deletions, the protocol's errors, and retries, with a sleep that returns at once
 * and records the waits it was asked for.
 */
import test from 'ava';
import { DOMParser, type Element } from '@xmldom/xmldom';
import { harvestOai, OaiError, OaiRequestError, type HarvestedRecord, type OaiHarvestOptions } from '../../src/ingest/oai/oaiHarvester.js';
import { recordDocumentFromDublinCore } from '../../src/ingest/oai/dublinCoreMapping.js';
import type { SourceItem } from '../../src/record/sourceRecord.js';
import { InvalidOptionError } from '../../src/errors.js';
import { startOaiProvider, type OaiProvider, type OaiProviderOptions, type ProvidedRecord } from '../support/oaiProvider.js';

const OAI_DC = 'http://www.openarchives.org/OAI/2.0/oai_dc/';
const DC = 'http://purl.org/dc/elements/1.1/';
const MARC = 'http://www.loc.gov/MARC21/slim';

function article(n: number, extra: Partial<ProvidedRecord> = {}): ProvidedRecord {
  return {
    identifier: `oai:repo.example:${n}`,
    datestamp: `2024-01-${String(n).padStart(2, '0')}T10:00:00Z`,
    sets: ['articles'],
    dublinCore: { title: [`Article ${n}`], creator: ['Silva, Ana'], date: ['2020'] },
    ...extra,
  };
}

const sevenArticles = Array.from({ length: 7 }, (_, i) => article(i + 1));

async function withProvider(
  t: { teardown: (fn: () => Promise<void>) => void },
  options: OaiProviderOptions,
): Promise<OaiProvider> {
  const provider = await startOaiProvider(options);
  t.teardown(() => provider.close());
  return provider;
}

function recordingSleep(): { waits: number[]; sleep: (ms: number) => Promise<void> } {
  const waits: number[] = [];
  return { waits, sleep: async (ms) => { waits.push(ms); } };
}

async function collect(options: OaiHarvestOptions): Promise<SourceItem<HarvestedRecord>[]> {
  const items: SourceItem<HarvestedRecord>[] = [];
  for await (const item of harvestOai(options)) items.push(item);
  return items;
}

function idsOf(items: readonly SourceItem<HarvestedRecord>[]): string[] {
  return items.map((item) => (item.kind === 'record' ? item.record.identifier : item.kind === 'deleted' ? `deleted ${item.id}` : `problem ${item.reason}`));
}

test('follows resumption tokens across pages: Identify once, then ListRecords, then the token alone', async (t) => {
  const provider = await withProvider(t, { records: sevenArticles, pageSize: 3 });
  const harvest = harvestOai({ baseUrl: provider.baseUrl, metadataPrefix: 'oai_dc' });
  const items: SourceItem<HarvestedRecord>[] = [];
  for await (const item of harvest) items.push(item);

  t.deepEqual(idsOf(items), sevenArticles.map((record) => record.identifier));
  t.deepEqual(items.map((item) => item.position.recordNumber), [1, 2, 3, 4, 5, 6, 7]);
  t.deepEqual(items[4]?.position, { source: provider.baseUrl, recordNumber: 5, id: 'oai:repo.example:5' });
  const fifth = items[4];
  t.is(fifth?.kind, 'record');
  if (fifth?.kind === 'record') {
    t.is(fifth.record.datestamp, '2024-01-05T10:00:00Z');
    t.deepEqual(fifth.record.setSpecs, ['articles']);
  }
  t.deepEqual(provider.requests.map((request) => request.params), [
    { verb: 'Identify' },
    { verb: 'ListRecords', metadataPrefix: 'oai_dc' },
    { verb: 'ListRecords', resumptionToken: 'token-1' },
    { verb: 'ListRecords', resumptionToken: 'token-2' },
  ]);
  t.like(harvest.summary(), { granularity: 'YYYY-MM-DDThh:mm:ssZ', earliestDatestamp: '2024-01-01T10:00:00Z', records: 7, deleted: 0, problems: 0, pages: 3 });
});

test('a last page without any resumptionToken element also ends the harvest', async (t) => {
  const provider = await withProvider(t, { records: sevenArticles, pageSize: 4, lastPage: 'no-token' });
  const items = await collect({ baseUrl: provider.baseUrl, metadataPrefix: 'oai_dc' });
  t.is(items.length, 7);
  t.is(provider.requests.length, 3);
});

test('reports the responseDate of the first response, not of later pages', async (t) => {
  let tick = 0;
  const clock = (): Date => new Date(Date.UTC(2024, 4, 1, 12, 0, tick++));
  const provider = await withProvider(t, { records: sevenArticles, pageSize: 3, clock });
  const harvest = harvestOai({ baseUrl: provider.baseUrl, metadataPrefix: 'oai_dc' });
  t.throws(() => harvest.summary(), { message: /not finished/ });
  for await (const item of harvest) t.truthy(item);
  t.is(harvest.summary().responseDate, '2024-05-01T12:00:00Z');
  t.is(tick, 4);
});

test('harvests one set (with its subsets) and sends set on the first request only', async (t) => {
  const records = [
    article(1, { sets: ['theses'] }),
    article(2, { sets: ['articles'] }),
    article(3, { sets: ['theses:physics'] }),
    article(4, { sets: ['articles', 'theses'] }),
  ];
  const provider = await withProvider(t, { records, pageSize: 2 });
  const items = await collect({ baseUrl: provider.baseUrl, metadataPrefix: 'oai_dc', set: 'theses' });
  t.deepEqual(idsOf(items), ['oai:repo.example:1', 'oai:repo.example:3', 'oai:repo.example:4']);
  t.deepEqual(provider.requests[1]?.params, { verb: 'ListRecords', metadataPrefix: 'oai_dc', set: 'theses' });
  t.deepEqual(provider.requests[2]?.params, { verb: 'ListRecords', resumptionToken: 'token-1' });
});

test('from and until select records by datestamp and are sent as given to a repository with seconds', async (t) => {
  const provider = await withProvider(t, { records: sevenArticles });
  const items = await collect({ baseUrl: provider.baseUrl, metadataPrefix: 'oai_dc', from: '2024-01-03T10:00:00Z', until: '2024-01-05T09:59:59Z' });
  t.deepEqual(idsOf(items), ['oai:repo.example:3', 'oai:repo.example:4']);
  t.deepEqual(provider.requests[1]?.params, { verb: 'ListRecords', metadataPrefix: 'oai_dc', from: '2024-01-03T10:00:00Z', until: '2024-01-05T09:59:59Z' });
});

test('a day beside a time is widened to its first or last second, since both must share a granularity', async (t) => {
  const provider = await withProvider(t, { records: sevenArticles });
  const items = await collect({ baseUrl: provider.baseUrl, metadataPrefix: 'oai_dc', from: '2024-01-06', until: '2024-01-07T00:00:00Z' });
  t.deepEqual(idsOf(items), ['oai:repo.example:6']);
  t.like(provider.requests[1]?.params, { from: '2024-01-06T00:00:00Z', until: '2024-01-07T00:00:00Z' });

  const later = await collect({ baseUrl: provider.baseUrl, metadataPrefix: 'oai_dc', from: '2024-01-05T10:00:00Z', until: '2024-01-06' });
  t.deepEqual(idsOf(later), ['oai:repo.example:5', 'oai:repo.example:6']);
  t.like(provider.requests.at(-1)?.params, { from: '2024-01-05T10:00:00Z', until: '2024-01-06T23:59:59Z' });
});

test('a day-granularity repository (learnt from Identify) gets day dates', async (t) => {
  const provider = await withProvider(t, { records: sevenArticles, granularity: 'YYYY-MM-DD' });
  const harvest = harvestOai({ baseUrl: provider.baseUrl, metadataPrefix: 'oai_dc', from: '2024-01-06T15:30:00Z', until: '2024-01-07T01:00:00Z' });
  const items: SourceItem<HarvestedRecord>[] = [];
  for await (const item of harvest) items.push(item);
  t.deepEqual(provider.requests[1]?.params, { verb: 'ListRecords', metadataPrefix: 'oai_dc', from: '2024-01-06', until: '2024-01-07' });
  t.deepEqual(idsOf(items), ['oai:repo.example:6', 'oai:repo.example:7']);
  t.is(harvest.summary().granularity, 'YYYY-MM-DD');
  t.regex(harvest.summary().responseDate, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
});

test('malformed dates, from after until and bad options are refused before any request', (t) => {
  const base = { baseUrl: 'http://127.0.0.1:9/oai', metadataPrefix: 'oai_dc' };
  for (const from of ['2024-1-5', '2024-01-05T10:00Z', '2024-01-05T10:00:00+01:00', '2024-02-30', '2024-01-05T24:00:00Z', 'yesterday']) {
    const error = t.throws(() => harvestOai({ ...base, from }), { instanceOf: InvalidOptionError });
    t.is(error?.option, 'from', from);
  }
  t.throws(() => harvestOai({ ...base, from: '2024-02-01', until: '2024-01-31T23:59:59Z' }), { instanceOf: InvalidOptionError, message: /until.*before from/ });
  t.notThrows(() => harvestOai({ ...base, from: '2024-02-01T10:00:00Z', until: '2024-02-01' }));
  t.throws(() => harvestOai({ ...base, baseUrl: 'ftp://repo.example/oai' }), { instanceOf: InvalidOptionError });
  t.throws(() => harvestOai({ ...base, metadataPrefix: ' ' }), { instanceOf: InvalidOptionError });
  t.throws(() => harvestOai({ ...base, set: '' }), { instanceOf: InvalidOptionError });
  t.throws(() => harvestOai({ ...base, retry: { maxAttempts: 0 } }), { instanceOf: InvalidOptionError });
});

test('deleted records come out as deletions; a record without identifier is a problem and the rest go on', async (t) => {
  const records: ProvidedRecord[] = [
    article(1),
    { identifier: 'oai:repo.example:2', datestamp: '2024-01-02T10:00:00Z', deleted: true },
    { datestamp: '2024-01-03T10:00:00Z', dublinCore: { title: ['Nameless'] } },
    article(4),
  ];
  const provider = await withProvider(t, { records, pageSize: 10 });
  const harvest = harvestOai({ baseUrl: provider.baseUrl, metadataPrefix: 'oai_dc' });
  const items: SourceItem<HarvestedRecord>[] = [];
  for await (const item of harvest) items.push(item);
  t.deepEqual(items[1], { kind: 'deleted', position: { source: provider.baseUrl, recordNumber: 2, id: 'oai:repo.example:2' }, id: 'oai:repo.example:2' });
  const problem = items[2];
  t.is(problem?.kind, 'problem');
  t.deepEqual(problem?.position, { source: provider.baseUrl, recordNumber: 3 });
  if (problem?.kind === 'problem') t.regex(problem.reason, /no identifier/);
  t.is(items[3]?.kind, 'record');
  t.like(harvest.summary(), { records: 2, deleted: 1, problems: 1 });
});

test('noRecordsMatch is a successful, empty harvest', async (t) => {
  const provider = await withProvider(t, { records: sevenArticles });
  const harvest = harvestOai({ baseUrl: provider.baseUrl, metadataPrefix: 'oai_dc', from: '2025-01-01' });
  const items: SourceItem<HarvestedRecord>[] = [];
  for await (const item of harvest) items.push(item);
  t.deepEqual(items, []);
  t.like(harvest.summary(), { records: 0, deleted: 0, problems: 0, pages: 1 });
  t.is(provider.requests.at(-1)?.answer, 'oai-error:noRecordsMatch');
});

test('badResumptionToken throws OaiError telling to run the harvest again; no summary', async (t) => {
  const provider = await withProvider(t, { records: sevenArticles, pageSize: 3 });
  const harvest = harvestOai({ baseUrl: provider.baseUrl, metadataPrefix: 'oai_dc' });
  const seen: string[] = [];
  const error = await t.throwsAsync(async () => {
    for await (const item of harvest) {
      seen.push(item.position.id ?? '');
      if (seen.length === 3) provider.forgetTokens();
    }
  }, { instanceOf: OaiError });
  t.is(error?.oaiCode, 'badResumptionToken');
  t.regex(error?.message ?? '', /run the harvest again/);
  t.regex(error?.message ?? '', /resumptionToken=token-1/);
  t.is(seen.length, 3);
  t.throws(() => harvest.summary());
});

test('cannotDisseminateFormat, noSetHierarchy and badArgument throw OaiError with their codes', async (t) => {
  const provider = await withProvider(t, { records: sevenArticles, supportsSets: false });
  const format = await t.throwsAsync(collect({ baseUrl: provider.baseUrl, metadataPrefix: 'mods' }), { instanceOf: OaiError });
  t.is(format?.oaiCode, 'cannotDisseminateFormat');
  t.regex(format?.message ?? '', /metadataPrefix/);
  const sets = await t.throwsAsync(collect({ baseUrl: provider.baseUrl, metadataPrefix: 'oai_dc', set: 'x' }), { instanceOf: OaiError });
  t.is(sets?.oaiCode, 'noSetHierarchy');
  provider.injectFault({ on: 'ListRecords', fault: { kind: 'oai-error', code: 'badArgument', message: 'illegal argument' } });
  const argument = await t.throwsAsync(collect({ baseUrl: provider.baseUrl, metadataPrefix: 'oai_dc' }), { instanceOf: OaiError });
  t.is(argument?.oaiCode, 'badArgument');
  t.is(argument?.repositoryMessage, 'illegal argument');
});

test('an OAI-PMH error sent with a 4xx status is read as the OAI-PMH error it is', async (t) => {
  const provider = await withProvider(t, { records: sevenArticles });
  const body = '<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>2024-01-01T00:00:00Z</responseDate>'
    + '<request>x</request><error code="noRecordsMatch">nothing</error></OAI-PMH>';
  provider.injectFault({ on: 'ListRecords', fault: { kind: 'status', status: 404, body } });
  t.deepEqual(await collect({ baseUrl: provider.baseUrl, metadataPrefix: 'oai_dc' }), []);
});

test('503 with Retry-After in seconds is honoured, then the harvest goes on', async (t) => {
  const provider = await withProvider(t, { records: sevenArticles, pageSize: 3 });
  provider.injectFault({ on: 'resumption', times: 2, fault: { kind: 'status', status: 503, retryAfter: '7' } });
  const { waits, sleep } = recordingSleep();
  const items = await collect({ baseUrl: provider.baseUrl, metadataPrefix: 'oai_dc', sleep });
  t.is(items.length, 7);
  t.deepEqual(waits, [7000, 7000]);
  t.deepEqual(provider.requests.map((request) => request.answer), ['ok', 'ok', 'status:503', 'status:503', 'ok', 'ok']);
});

test('Retry-After as an HTTP date is honoured too', async (t) => {
  const provider = await withProvider(t, { records: sevenArticles });
  provider.injectFault({ on: 'Identify', fault: { kind: 'status', status: 503, retryAfter: new Date(Date.now() + 30_000).toUTCString() } });
  const { waits, sleep } = recordingSleep();
  await collect({ baseUrl: provider.baseUrl, metadataPrefix: 'oai_dc', sleep });
  t.is(waits.length, 1);
  t.true(waits[0]! > 25_000 && waits[0]! <= 30_000, String(waits[0]));
});

test('dropped connections and 5xx are retried with exponential backoff, and no record is given twice', async (t) => {
  const provider = await withProvider(t, { records: sevenArticles, pageSize: 3 });
  provider.injectFault({ on: 'ListRecords', fault: { kind: 'drop', when: 'before-response' } });
  provider.injectFault({ on: 'resumption', fault: { kind: 'drop', when: 'mid-body' } });
  provider.injectFault({ on: 'resumption', fault: { kind: 'status', status: 500 } });
  provider.injectFault({ on: 'resumption', fault: { kind: 'status', status: 502 } });
  const { waits, sleep } = recordingSleep();
  const requested: string[] = [];
  const items = await collect({ baseUrl: provider.baseUrl, metadataPrefix: 'oai_dc', sleep, onRequest: (url) => requested.push(url) });
  t.deepEqual(idsOf(items), sevenArticles.map((record) => record.identifier));
  t.deepEqual(items.map((item) => item.position.recordNumber), [1, 2, 3, 4, 5, 6, 7]);
  t.deepEqual(waits, [1000, 1000, 2000, 4000]);
  t.deepEqual(provider.requests.map((request) => request.answer), ['ok', 'drop:before-response', 'ok', 'drop:mid-body', 'status:500', 'status:502', 'ok', 'ok']);
  t.is(requested.length, provider.requests.length);
  t.is(requested[3], requested[6]);
});

test('a page that breaks after records were handed out continues where it stopped', async (t) => {
  const provider = await withProvider(t, { records: sevenArticles, pageSize: 7 });
  provider.injectFault({ on: 'ListRecords', fault: { kind: 'drop', when: 'mid-body' } });
  const { sleep } = recordingSleep();
  const items: SourceItem<HarvestedRecord>[] = [];
  let handedOutBeforeTheDrop = 0;
  for await (const item of harvestOai({ baseUrl: provider.baseUrl, metadataPrefix: 'oai_dc', sleep })) {
    items.push(item);
    if (provider.requests.length === 2) handedOutBeforeTheDrop = items.length;
  }
  t.true(handedOutBeforeTheDrop > 0, 'the first half of the page was handed out before it broke');
  t.deepEqual(idsOf(items), sevenArticles.map((record) => record.identifier));
});

test('when the attempts run out, the error says so and names the request', async (t) => {
  const provider = await withProvider(t, { records: sevenArticles });
  provider.injectFault({ on: 'ListRecords', times: 10, fault: { kind: 'status', status: 500 } });
  const { waits, sleep } = recordingSleep();
  const error = await t.throwsAsync(collect({ baseUrl: provider.baseUrl, metadataPrefix: 'oai_dc', sleep, retry: { maxAttempts: 4, initialDelayMs: 10 } }), { instanceOf: OaiRequestError });
  t.regex(error?.message ?? '', /Gave up on http:\/\/127\.0\.0\.1:\d+\/oai\?verb=ListRecords&metadataPrefix=oai_dc after 4 attempts; the last failed with HTTP 500/);
  t.is(error?.status, 500);
  t.is(error?.attempts, 4);
  t.deepEqual(waits, [10, 20, 40]);
});

test('a Retry-After beyond the total retry budget fails at once instead of waiting', async (t) => {
  const provider = await withProvider(t, { records: sevenArticles });
  provider.injectFault({ on: 'ListRecords', times: 10, fault: { kind: 'status', status: 503, retryAfter: '120' } });
  const { waits, sleep } = recordingSleep();
  const error = await t.throwsAsync(collect({ baseUrl: provider.baseUrl, metadataPrefix: 'oai_dc', sleep, retry: { maxTotalMs: 300_000 } }), { instanceOf: OaiRequestError });
  t.deepEqual(waits, [120_000, 120_000]);
  t.regex(error?.message ?? '', /after 3 attempts: waiting 120 s more would exceed the retry budget of 300 s/);
  t.is(error?.status, 503);
});

test('backoff waits are capped at maxDelayMs', async (t) => {
  const provider = await withProvider(t, { records: sevenArticles });
  provider.injectFault({ on: 'Identify', times: 5, fault: { kind: 'drop', when: 'before-response' } });
  const { waits, sleep } = recordingSleep();
  await collect({ baseUrl: provider.baseUrl, metadataPrefix: 'oai_dc', sleep, retry: { initialDelayMs: 1000, maxDelayMs: 3000 } });
  t.deepEqual(waits, [1000, 2000, 3000, 3000, 3000]);
});

test('503 without Retry-After backs off like other 5xx; 429 is honoured like 503', async (t) => {
  const provider = await withProvider(t, { records: sevenArticles });
  provider.injectFault({ on: 'ListRecords', fault: { kind: 'status', status: 503 } });
  provider.injectFault({ on: 'ListRecords', fault: { kind: 'status', status: 429, retryAfter: '5' } });
  provider.injectFault({ on: 'ListRecords', fault: { kind: 'status', status: 503 } });
  const { waits, sleep } = recordingSleep();
  t.is((await collect({ baseUrl: provider.baseUrl, metadataPrefix: 'oai_dc', sleep })).length, 7);
  t.deepEqual(waits, [1000, 5000, 4000]);
});

test('a repository that goes silent is given up on after idleTimeoutMs and asked again', async (t) => {
  const provider = await withProvider(t, { records: sevenArticles, pageSize: 3 });
  provider.injectFault({ on: 'ListRecords', fault: { kind: 'stall', when: 'before-response' } });
  provider.injectFault({ on: 'resumption', fault: { kind: 'stall', when: 'mid-body' } });
  const { waits, sleep } = recordingSleep();
  // Long enough that a loaded test machine answering slowly is not taken for silence (1 s was not, once,
  // with the whole suite and a database rebuild running beside it).
  const items = await collect({ baseUrl: provider.baseUrl, metadataPrefix: 'oai_dc', sleep, idleTimeoutMs: 2500 });
  t.deepEqual(idsOf(items), sevenArticles.map((record) => record.identifier));
  t.deepEqual(waits, [1000, 1000]);
  t.deepEqual(provider.requests.map((request) => request.answer), ['ok', 'stall:before-response', 'ok', 'stall:mid-body', 'ok', 'ok']);
});

test('a slow consumer does not count against the idle timeout', async (t) => {
  const provider = await withProvider(t, { records: sevenArticles.slice(0, 2), pageSize: 3 });
  const items: SourceItem<HarvestedRecord>[] = [];
  for await (const item of harvestOai({ baseUrl: provider.baseUrl, metadataPrefix: 'oai_dc', idleTimeoutMs: 2500 })) {
    items.push(item);
    await new Promise((resolve) => { setTimeout(resolve, 2800); });
  }
  t.is(items.length, 2);
  t.is(provider.requests.length, 2);
});

test('a page of several megabytes streams in many pieces and comes out whole, accents included', async (t) => {
  const records = Array.from({ length: 4000 }, (_, i) => article(i + 1, {
    datestamp: '2024-02-01T00:00:00Z',
    dublinCore: { title: [`Memórias póstumas, ação nº ${i + 1} — ${'ç'.repeat(300)}`], creator: ['Assis, Machado de'] },
  }));
  const provider = await withProvider(t, { records, pageSize: 4000 });
  let count = 0;
  for await (const item of harvestOai({ baseUrl: provider.baseUrl, metadataPrefix: 'oai_dc' })) {
    count += 1;
    if (item.kind !== 'record') return t.fail(`record ${count} is a ${item.kind}`);
    const doc = recordDocumentFromDublinCore(item.record.metadataXml, item.record.identifier);
    if (doc.title !== `Memórias póstumas, ação nº ${count} — ${'ç'.repeat(300)}`) return t.fail(`record ${count}: ${doc.title}`);
  }
  t.is(count, 4000);
});

test('other 4xx fail at once, without retrying', async (t) => {
  const provider = await withProvider(t, { records: sevenArticles });
  provider.injectFault({ on: 'ListRecords', fault: { kind: 'status', status: 403, body: 'Forbidden for harvesters' } });
  const { waits, sleep } = recordingSleep();
  const error = await t.throwsAsync(collect({ baseUrl: provider.baseUrl, metadataPrefix: 'oai_dc', sleep }), { instanceOf: OaiRequestError });
  t.is(error?.status, 403);
  t.regex(error?.message ?? '', /HTTP 403 .*Forbidden for harvesters/);
  t.deepEqual(waits, []);
  t.is(provider.requests.length, 2);
});

test('an answer that is not OAI-PMH is an OaiRequestError naming what it was', async (t) => {
  const provider = await withProvider(t, { records: sevenArticles });
  provider.injectFault({ on: 'Identify', fault: { kind: 'status', status: 200, body: '<html><body>Welcome</body></html>' } });
  const error = await t.throwsAsync(collect({ baseUrl: provider.baseUrl, metadataPrefix: 'oai_dc' }), { instanceOf: OaiRequestError });
  t.regex(error?.message ?? '', /not a usable OAI-PMH response: not an OAI-PMH response: the root element is <html>/);
});

test('metadata is serialised with the namespaces it uses, so it parses standalone', async (t) => {
  const records: ProvidedRecord[] = [
    article(1, { dublinCore: { title: ['Ciências & <Letras>'], creator: ['Silva, Ana'], identifier: ['https://repo.example/1'] } }),
    article(2, { marcXml: '<marc:record><marc:leader>00000nam a2200000 a 4500</marc:leader><marc:datafield tag="245" ind1="1" ind2="0"><marc:subfield code="a">Dom Casmurro</marc:subfield></marc:datafield></marc:record>' }),
  ];
  const provider = await withProvider(t, { records, namespaceDeclarations: 'response' });

  const dc = await collect({ baseUrl: provider.baseUrl, metadataPrefix: 'oai_dc' });
  const first = dc[0];
  if (first?.kind !== 'record') return t.fail('expected a record');
  const dcRoot = parseStandalone(first.record.metadataXml);
  t.is(dcRoot.namespaceURI, OAI_DC);
  t.is(dcRoot.localName, 'dc');
  t.is(dcRoot.getElementsByTagNameNS(DC, 'title')[0]?.textContent, 'Ciências & <Letras>');
  t.is(dcRoot.getAttributeNS('http://www.w3.org/2001/XMLSchema-instance', 'schemaLocation')?.startsWith(OAI_DC), true);
  // Only what the element uses is declared: not the OAI-PMH default namespace, nor marc.
  t.false(first.record.metadataXml.includes('xmlns="'));
  t.false(first.record.metadataXml.includes('xmlns:marc'));
  t.like(recordDocumentFromDublinCore(first.record.metadataXml, first.record.identifier), {
    id: 'oai:repo.example:1', title: 'Ciências & <Letras>', author: ['Silva, Ana'], url: ['https://repo.example/1'],
  });

  const marc = await collect({ baseUrl: provider.baseUrl, metadataPrefix: 'marc21' });
  t.is(marc.length, 1);
  const marcRecord = marc[0];
  if (marcRecord?.kind !== 'record') return t.fail('expected a record');
  const marcRoot = parseStandalone(marcRecord.record.metadataXml);
  t.is(marcRoot.namespaceURI, MARC);
  t.is(marcRoot.getElementsByTagNameNS(MARC, 'subfield')[0]?.textContent, 'Dom Casmurro');
  t.is(marcRoot.getElementsByTagNameNS(MARC, 'datafield')[0]?.getAttribute('tag'), '245');
});

test('unprefixed metadata in the OAI-PMH default namespace keeps that namespace when read alone', async (t) => {
  const records: ProvidedRecord[] = [article(1, { marcXml: '<record><leader>x</leader></record>' }), article(2, { marcXml: `<record xmlns="${MARC}"><leader>y</leader></record>` })];
  const provider = await withProvider(t, { records });
  const items = await collect({ baseUrl: provider.baseUrl, metadataPrefix: 'marc21' });
  const [inherited, own] = items.map((item) => (item.kind === 'record' ? parseStandalone(item.record.metadataXml) : undefined));
  t.is(inherited?.namespaceURI, 'http://www.openarchives.org/OAI/2.0/');
  t.is(own?.namespaceURI, MARC);
  t.is(own?.getElementsByTagNameNS(MARC, 'leader')[0]?.textContent, 'y');
});

test('stopping early ends the download, and a harvest can be iterated only once', async (t) => {
  const provider = await withProvider(t, { records: sevenArticles, pageSize: 3 });
  const harvest = harvestOai({ baseUrl: provider.baseUrl, metadataPrefix: 'oai_dc' });
  for await (const item of harvest) {
    t.is(item.position.recordNumber, 1);
    break;
  }
  t.is(provider.requests.length, 2);
  t.throws(() => harvest[Symbol.asyncIterator](), { message: /already been iterated/ });
  t.throws(() => harvest.summary());
});

function parseStandalone(xml: string): Element {
  const problems: string[] = [];
  const document = new DOMParser({ onError: (level, message) => { if (level !== 'warning') problems.push(message); } })
    .parseFromString(xml, 'text/xml');
  if (problems.length > 0) throw new Error(`not standalone XML: ${problems.join('; ')}\n${xml}`);
  const root = document.documentElement;
  if (root === null) throw new Error('no root element');
  return root;
}
