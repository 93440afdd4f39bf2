import test from 'ava';
import { readFileSync } from 'node:fs';
import * as cheerio from 'cheerio';
import { join } from 'node:path';
import {
  ERROR_DEFINITIONS, IndexFileMissingError, IndexUnavailableError, IngestStoppedError, InvalidArgumentError, InvalidCallError,
  InvalidCurationFileError, InvalidOptionError, InvalidRecordDocumentError, InvalidWorkLabelsError, KeyProfileMismatchError, MalformedMarcError,
  MalformedOaiResponseError, MissingRecordIdError, OaiError, OaiRequestError, RecordNotFoundError, UnknownCuratedRecordError,
  UnknownCurationDecisionError, UnrecognisedRecordFileError, VersionsError, WorkCollectionError, type VersionsErrorCode,
} from '../../src/errors.js';
import { httpStatusOf } from '../../src/http/errorResponses.js';
import { SHIPPED_LANGUAGES } from '../../src/i18n/languages.js';
import { IngestStoppedError as IngestStoppedErrorFromRoot } from '../../src/index.js';
import { IngestStoppedError as IngestStoppedErrorFromIngest } from '../../src/ingest/index.js';
import { IngestStoppedError as IngestStoppedErrorFromPipeline } from '../../src/ingest/pipeline.js';
import { LoadStoppedError } from '../../src/cli/loadRecords.js';
import { LABELS_DIRECTORY } from '../../src/packageFiles.js';
import type { CatalogIndex } from '../../src/ports.js';
import { fixture, hostFor, testHost } from '../support/testHost.js';

const ERROR_LINES = {
  en: ['An error has occurred', 'An error occurred during execution; please try again later.', 'Please contact the Library Reference Department for assistance'],
  'pt-br': ['Erro na aplicação', 'Ocorreu um erro durante a execução; por favor, tente novamente mais tarde.', 'Por favor contate o Library Reference Department para mais ajuda'],
  es: ['Ha ocurrido un error', 'Se produjo un error durante la ejecución; por favor, inténtelo de nuevo más tarde.', 'Por favor, contacte con Library Reference Department para obtener ayuda'],
} as const;

function errorLinesOf(html: string): string[] {
  const $ = cheerio.load(html);
  // The three lines; the advice before them (what to do) is checked on its own below.
  return $('main').find('h1, p').not('.error-page__advice').map((_, e) => $(e).text().trim()).get();
}

/** An index whose engine fails the way the given function says. */
function failingIndex(fail: () => never): CatalogIndex {
  return { getRecord: async () => fail(), findVersions: async () => fail(), countVersions: async () => fail(), close: async () => undefined };
}

for (const [lng, lines] of Object.entries(ERROR_LINES)) {
  test(`a missing record is a 404 error page in ${lng}, for the page and the feed`, async (t) => {
    const { request } = await testHost(fixture('thesis-in-two-repositories'));
    for (const view of ['', '&view=rss']) {
      const response = await request.get(`/Search/Versions?id=no-such-record&search=versions&lng=${lng}${view}`).expect(404);
      t.regex(response.headers['content-type'] ?? '', /^text\/html/);
      t.deepEqual(errorLinesOf(response.text), [...lines]);
      t.is(cheerio.load(response.text)('html').attr('lang'), lng);
      t.false(response.text.includes('no-such-record'), 'the missing id is not echoed');
      t.false(/does not exist|Error:|at .*\(|\/work\/|node_modules/.test(response.text));
    }
  });
}

test('the error page language also follows the language cookie', async (t) => {
  const { request } = await testHost(fixture('thesis-in-two-repositories'));
  const response = await request.get('/Search/Versions?id=nope&view=rss').set('Cookie', 'language=pt-br').expect(404);
  t.deepEqual(errorLinesOf(response.text), [...ERROR_LINES['pt-br']]);
});

test('a missing or empty id is a 400 error page', async (t) => {
  const { request } = await testHost(fixture('thesis-in-two-repositories'));
  for (const query of ['search=versions', 'id=&search=versions', 'id=%20%20&view=rss', 'id[]=x']) {
    const response = await request.get(`/Search/Versions?${query}`);
    t.is(response.status, 400, query);
    t.deepEqual(errorLinesOf(response.text), [...ERROR_LINES.en]);
  }
});

test('the contact line names the configured contact', async (t) => {
  const { request } = await testHost(fixture('thesis-in-two-repositories'), { contact: 'Biblioteca <Central>' });
  const response = await request.get('/Search/Versions?id=nope&lng=pt-br').expect(404);
  t.is(errorLinesOf(response.text)[2], 'Por favor contate o Biblioteca <Central> para mais ajuda');
  t.false(response.text.includes('<Central>'));
});

test('an unavailable index is a 503 error page; the cause goes to the log only', async (t) => {
  const { request, logged } = hostFor(failingIndex(() => {
    throw new IndexUnavailableError('Solr at http://10.0.0.5:8983 refused: ECONNREFUSED secret-detail');
  }));
  for (const view of ['', '&view=rss']) {
    const response = await request.get(`/Search/Versions?id=abc${view}`).expect(503);
    t.deepEqual(errorLinesOf(response.text), [...ERROR_LINES.en]);
    t.false(response.text.includes('secret-detail'));
    t.false(response.text.includes('10.0.0.5'));
    t.is(response.headers['cache-control'], 'no-store');
  }
  t.is(logged.filter((line) => line.level === 'error').length, 2);
  t.regex(logged[0]!.message, /INDEX_UNAVAILABLE.*secret-detail/);
});

test('an unexpected failure is a 500 error page with nothing internal in it', async (t) => {
  const { request, logged } = hostFor(failingIndex(() => {
    throw new TypeError("Cannot read properties of undefined (reading 'docs') at /srv/app/node_modules/x.js:1:1");
  }));
  const response = await request.get('/Search/Versions?id=abc&lng=es').expect(500);
  t.deepEqual(errorLinesOf(response.text), [...ERROR_LINES.es]);
  t.false(/docs|node_modules|TypeError/.test(response.text));
  t.is(logged.length, 1);
  t.is(logged[0]!.level, 'error');
  t.true(logged[0]!.details?.cause instanceof TypeError);
});

test('other methods get 405 with Allow; other paths are left to the host', async (t) => {
  const { request } = await testHost(fixture('thesis-in-two-repositories'));
  const response = await request.post('/Search/Versions?id=x').expect(405);
  t.regex(String(response.headers.allow), /GET/);
  await request.get('/Record/usp:tese-2019-0412').expect(404);
  await request.get('/themes/standard/assets/..%2F..%2Fpackage.json').expect(404);
  await request.get('/themes/nope/assets/theme.css').expect(404);
});

test('theme assets and the feed stylesheet are served', async (t) => {
  const { request } = await testHost(fixture('thesis-in-two-repositories'));
  const css = await request.get('/themes/mobile/assets/theme.css').expect(200);
  t.regex(css.headers['content-type'] ?? '', /text\/css/);
  const xsl = await request.get('/themes/root/assets/xsl/rss.xsl').expect(200);
  t.regex(xsl.headers['content-type'] ?? '', /^text\/xsl/);
  t.regex(xsl.text, /<xsl:stylesheet[^>]+version="1.0"/);
});

const RECORD_MISSING = { en: 'This record is not in the catalog', 'pt-br': 'Este registro não está no catálogo', es: 'Este registro no está en el catálogo' } as const;

test('a missing record says so under the heading; other errors do not', async (t) => {
  const { request } = await testHost(fixture('thesis-in-two-repositories'), { logger: { error: () => undefined, warn: () => undefined } });
  for (const [lng, subject] of Object.entries(RECORD_MISSING)) {
    for (const view of ['', '&view=rss']) {
      const $ = cheerio.load((await request.get(`/Search/Versions?id=no-such-record&lng=${lng}${view}`).expect(404)).text);
      t.is($('main h2').text().trim(), subject, `${lng}${view}`);
      t.is($('main h1').text().trim(), ERROR_LINES[lng as keyof typeof ERROR_LINES][0]);
      t.is($('title').text(), `${ERROR_LINES[lng as keyof typeof ERROR_LINES][0]} - ${subject} :: Library Catalog`);
    }
  }
  const missingId = cheerio.load((await request.get('/Search/Versions?search=versions&lng=en').expect(400)).text);
  t.is(missingId('main h2').text().trim(), 'This address does not name a record', 'a missing id is not a missing record');
  t.is(missingId('title').text(), 'An error has occurred - This address does not name a record :: Library Catalog');
});

// What happened and what to do come first; "try again later" is advice only where it is true (503).
const CATALOG_HOME = { en: 'Catalog home', 'pt-br': 'Início do catálogo', es: 'Inicio del catálogo' } as const;
const TRY_AGAIN = { en: 'try again', 'pt-br': 'tente novamente', es: 'inténtelo de nuevo' } as const;
const ADVICE = {
  404: { en: 'The link may be out of date, or the record was withdrawn. Search the catalog for the title from its home page.', 'pt-br': 'O link pode estar desatualizado ou o registro foi retirado. Procure o título no catálogo a partir da página inicial.', es: 'El enlace puede estar desactualizado o el registro fue retirado. Busque el título en el catálogo desde su página de inicio.' },
  400: { en: 'Open a record in the catalog and follow its “Show all versions” link, or search the catalog from its home page.', 'pt-br': 'Abra um registro no catálogo e siga o link “Mostrar todas as versões”, ou faça uma busca a partir da página inicial do catálogo.', es: 'Abra un registro del catálogo y siga su enlace «Mostrar todas las versiones», o busque en el catálogo desde su página de inicio.' },
  503: { en: 'This is a passing fault: please try again in a few minutes.', 'pt-br': 'É uma falha passageira: por favor, tente novamente em alguns minutos.', es: 'Es un fallo pasajero: por favor, inténtelo de nuevo en unos minutos.' },
} as const;

test('the error page says first what happened and what to do, then the three lines; only a 503 says to try again', async (t) => {
  const { request } = await testHost(fixture('thesis-in-two-repositories'), { logger: { error: () => undefined, warn: () => undefined } });
  const failing = hostFor(failingIndex(() => {
    throw new IndexUnavailableError('down');
  }), { logger: { error: () => undefined, warn: () => undefined } });
  for (const lng of ['en', 'pt-br', 'es'] as const) {
    for (const [status, answer] of [
      [404, () => request.get(`/Search/Versions?id=no-such-record&lng=${lng}`)],
      [400, () => request.get(`/Search/Versions?id=%20&lng=${lng}`)],
      [503, () => failing.request.get(`/Search/Versions?id=usp%3Atese-2019-0412&lng=${lng}`)],
    ] as const) {
      const $ = cheerio.load((await answer().expect(status)).text);
      const lines = ERROR_LINES[lng];
      // In reading order: line 1, what happened, what to do, the way home, then lines 2 and 3.
      t.deepEqual($('main').find('h1, h2, p, a').map((_, e) => $(e).text().trim()).get(), [
        lines[0], $('main h2').text().trim(), ADVICE[status][lng], CATALOG_HOME[lng], lines[1], lines[2],
      ], `${status} ${lng}`);
      t.is($('main .error-page__advice').text().includes(TRY_AGAIN[lng]), status === 503, `${status} ${lng}: "try again" only when true`);
    }
  }
});

test('the error page has the site header, the way home and a language switch that names no record', async (t) => {
  const { request } = await testHost(fixture('thesis-in-two-repositories'), { catalogHomeUrl: '/vufind/' });
  const html = (await request.get('/Search/Versions?id=no-such-record&lng=pt-br').expect(404)).text;
  const $ = cheerio.load(html);
  t.is($('a.skip-link').attr('href'), '#main');
  t.is($('a.skip-link').text().trim(), 'Pular para o conteúdo');
  t.is($('header .site-title a').text().trim(), 'Library Catalog');
  t.is($('header .site-title a').attr('href'), '/vufind/');
  t.deepEqual($('main a').map((_, a) => [[$(a).attr('href'), $(a).text().trim()]]).get(), [['/vufind/', 'Início do catálogo']]);
  // The page has no address of its own to offer in another language (it never names the record): each
  // language leads to the catalog's home in that language.
  t.deepEqual($('nav.language-switch a').map((_, a) => $(a).attr('href')).get(), ['/vufind/?lng=en', '/vufind/?lng=es']);
  t.is($('nav.language-switch [aria-current="true"]').text().trim(), 'Português (Brasil)');
  t.false(html.includes('no-such-record'));
});

test('an absolute catalogHomeUrl keeps its own query in the language links', async (t) => {
  const { request } = await testHost(fixture('thesis-in-two-repositories'), { catalogHomeUrl: 'https://library.example.edu/vufind/?skin=x' });
  const $ = cheerio.load((await request.get('/Search/Versions?id=nope&lng=es').expect(404)).text);
  t.is($('main a.error-page__home').attr('href'), 'https://library.example.edu/vufind/?skin=x');
  t.deepEqual($('nav.language-switch a').map((_, a) => $(a).attr('href')).get(), [
    'https://library.example.edu/vufind/?skin=x&lng=en', 'https://library.example.edu/vufind/?skin=x&lng=pt-br',
  ]);
});

/** A section of docs/errors.md, from its heading to the next heading of the same level or above. */
function docsSection(heading: string): string {
  const docs = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
  const start = docs.indexOf(`${heading}\n`);
  const level = /^#+/.exec(heading)![0];
  const end = docs.slice(start + heading.length).search(new RegExp(`\n#{1,${level.length}} `));
  return end === -1 ? docs.slice(start) : docs.slice(start, start + heading.length + end);
}

/** The cells of a Markdown table's rows whose first cell matches `first`. */
function tableRows(section: string, first: RegExp): string[][] {
  return section.split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) => line.slice(1, -1).split('|').map((cell) => cell.trim()))
    .filter((cells) => first.test(cells[0]!));
}

/** A label's text in one language's label file (i18n/<code>.json, nested by the key's dotted parts). */
function labelText(language: string, key: string): unknown {
  const file = JSON.parse(readFileSync(join(LABELS_DIRECTORY, `${language}.json`), 'utf8')) as Record<string, unknown>;
  return key.split('.').reduce<unknown>((node, part) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[part] : undefined), file);
}

test('docs/errors.md lists exactly the codes of src/errors.ts, each once', (t) => {
  const inSource = Object.keys(ERROR_DEFINITIONS);
  // The table's second column, one code a row.
  const inDocs = tableRows(docsSection('## Named errors'), /^`/)
    .map((cells) => /^`([A-Z_]+)`$/.exec(cells[1]!)?.[1])
    .filter((code): code is string => code !== undefined);
  t.true(inSource.length >= 13, `codes of the table in src/errors.ts: ${inSource.join(', ')}`);
  t.deepEqual([...inDocs].sort(), [...inSource].sort());
  t.is(new Set(inDocs).size, inDocs.length, 'each code documented once');
});

test('docs/errors.md gives each code the status of its definition, in both its tables', (t) => {
  const named = tableRows(docsSection('## Named errors'), /^`/).map((cells) => [cells[1]!.replaceAll('`', ''), Number(cells.at(-1))] as const);
  t.deepEqual(Object.fromEntries(named), Object.fromEntries(Object.entries(ERROR_DEFINITIONS).map(([code, { status }]) => [code, status])));
  // What a client gets: the rows naming one code (the last row, "anything else", names none).
  const client = tableRows(docsSection('## What a client gets'), /./)
    .filter((cells) => /^`[A-Z_]+`$/.test(cells[2]!))
    .map((cells) => [cells[2]!.replaceAll('`', ''), Number(cells[1])] as const);
  // They are the codes the error page explains (those with a page), in the table's order.
  t.deepEqual(client, Object.entries(ERROR_DEFINITIONS).flatMap(([code, definition]) => ('page' in definition ? [[code, definition.status]] : [])));
  t.is(client.length, 3);
});

test('the error page\'s subheading and advice in docs/errors.md are the English labels each definition names', (t) => {
  const documented = tableRows(docsSection('### The error page'), /^\d{3}$/);
  const pages = Object.values(ERROR_DEFINITIONS).flatMap((definition) => ('page' in definition ? [definition] : []));
  t.deepEqual(documented.map((cells) => Number(cells[0])), pages.map(({ status }) => status));
  for (const { status, page } of pages) {
    t.deepEqual(documented.find((cells) => Number(cells[0]) === status)?.slice(1), [labelText('en', page.subject), labelText('en', page.advice)], String(status));
  }
});

test('every label key the error definitions name has a text in every shipped language', (t) => {
  const keys = Object.values(ERROR_DEFINITIONS).flatMap((definition) => ('page' in definition ? [definition.page.subject, definition.page.advice] : []));
  t.is(keys.length, 6);
  for (const language of SHIPPED_LANGUAGES) {
    for (const key of keys) {
      const text = labelText(language, key);
      t.true(typeof text === 'string' && text.trim() !== '', `${language}: ${key}`);
    }
  }
  t.is(labelText('en', 'error.noSuchLabel'), undefined, 'a key the files do not hold is found missing');
});

const STOPPED_SUMMARY = { read: 3, loaded: 2, added: 2, changed: 0, unchanged: 0, notCompared: 0, duplicates: 0, rejected: 0, deleted: 0, deletionsNotHeld: 0, seconds: 0.4 };

// Each class as a thrower makes it: its code, its status should it reach a request, and its message.
const NAMED_ERRORS: ReadonlyArray<readonly [VersionsError, VersionsErrorCode, number, string]> = [
  [new RecordNotFoundError('usp:tese-2019-0412'), 'RECORD_NOT_FOUND', 404, 'Record "usp:tese-2019-0412" does not exist'],
  [new MissingRecordIdError(), 'MISSING_RECORD_ID', 400, 'The request has no record id (query parameter "id")'],
  [new IndexUnavailableError('Solr at http://solr:8983 timed out after 5000 ms'), 'INDEX_UNAVAILABLE', 503, 'Solr at http://solr:8983 timed out after 5000 ms'],
  [new IndexFileMissingError('data/catalog.db', '/srv/app/data/catalog.db', true), 'INDEX_FILE_MISSING', 500,
    'The index file data/catalog.db (/srv/app/data/catalog.db) does not exist: check the path, or load records into it first (catalog-versions load FILE --db data/catalog.db)'],
  [new IndexFileMissingError('/srv/catalog.db', '/srv/catalog.db', false), 'INDEX_FILE_MISSING', 500,
    'The index file /srv/catalog.db does not exist: check the path, or load records into it first (catalog-versions load FILE --db /srv/catalog.db); to start an empty index there, open it with create: true'],
  [new InvalidOptionError('baseUrl', 'must be an absolute http(s) URL, got "catalog"'), 'INVALID_OPTION', 500, 'Invalid option "baseUrl": must be an absolute http(s) URL, got "catalog"'],
  [new InvalidRecordDocumentError('"title" must be a string'), 'INVALID_RECORD_DOCUMENT', 500, 'Invalid record document: "title" must be a string'],
  [new InvalidArgumentError('readIso2709', 'path', 'the path of a file (a non-empty string; bytes in memory are not read here)', Buffer.alloc(26)), 'INVALID_ARGUMENT', 500,
    'readIso2709: path must be the path of a file (a non-empty string; bytes in memory are not read here), got a Buffer of 26 bytes'],
  [new InvalidCallError('The harvest was iterated already'), 'INVALID_CALL', 500, 'The harvest was iterated already'],
  [new MalformedMarcError('Unexpected close tag at line 4'), 'MALFORMED_MARC', 500, 'Unexpected close tag at line 4'],
  [new UnrecognisedRecordFileError('feed.xml', 'MARCXML', 'the root element <rss> and no MARC record'), 'UNRECOGNISED_RECORD_FILE', 500,
    'feed.xml holds no MARCXML records (found the root element <rss> and no MARC record)'],
  [new IngestStoppedError(new Error('SQLITE_FULL: database or disk is full'), STOPPED_SUMMARY), 'INGEST_STOPPED', 500, 'SQLITE_FULL: database or disk is full'],
  [new OaiError('badResumptionToken', '', 'https://repo.example.org/oai?verb=ListRecords&resumptionToken=x'), 'OAI_ERROR', 500,
    'The repository no longer knows the resumption token (tokens expire, and some repositories forget them on restart): run the harvest again with the same from date (OAI-PMH error badResumptionToken; request https://repo.example.org/oai?verb=ListRecords&resumptionToken=x)'],
  [new OaiError('idDoesNotExist', 'no such item', 'https://repo.example.org/oai'), 'OAI_ERROR', 500,
    'The repository answered with OAI-PMH error "idDoesNotExist" (OAI-PMH error idDoesNotExist: no such item; request https://repo.example.org/oai)'],
  [new OaiRequestError('HTTP 502 from https://repo.example.org/oai after 3 attempts', { url: 'https://repo.example.org/oai', status: 502, attempts: 3 }), 'OAI_REQUEST_FAILED', 500,
    'HTTP 502 from https://repo.example.org/oai after 3 attempts'],
  [new MalformedOaiResponseError('The response is not OAI-PMH (root element <html>)'), 'MALFORMED_OAI_RESPONSE', 500, 'The response is not OAI-PMH (root element <html>)'],
  [new KeyProfileMismatchError('catalog.db', 'vufind', 'extended'), 'KEY_PROFILE_MISMATCH', 500,
    "catalog.db is keyed with the vufind work-key profile, not extended: load with --key-profile vufind (keyProfile: 'vufind'), or rebuild: load every file into a new index file with --key-profile extended and serve that one"],
  [new UnknownCuratedRecordError(['usp:1', 'usp:2']), 'CURATION_UNKNOWN_RECORD', 500, 'The index holds no record "usp:1", "usp:2": merge and split name records it holds'],
  [new UnknownCuratedRecordError('usp:1' as never), 'CURATION_UNKNOWN_RECORD', 500, 'The index holds no record "usp:1": merge and split name records it holds'],
  [new UnknownCurationDecisionError('d-7'), 'CURATION_UNKNOWN_DECISION', 500, 'No grouping decision "d-7" (`works list` shows them)'],
  [new InvalidCurationFileError('decisions.json', 1, 'a merge names one record', 12), 'CURATION_FILE_INVALID', 500, 'decisions.json:12: decision 2: a merge names one record'],
  [new InvalidCurationFileError('decisions.json', undefined, 'not JSON'), 'CURATION_FILE_INVALID', 500, 'decisions.json: not JSON'],
  [new InvalidWorkLabelsError('gold.tsv', 4, 'two work labels for usp:1'), 'WORK_LABELS_INVALID', 500, 'gold.tsv:4: two work labels for usp:1'],
  [new InvalidWorkLabelsError('gold.tsv', undefined, 'no labels'), 'WORK_LABELS_INVALID', 500, 'gold.tsv: no labels'],
  [new WorkCollectionError('theses-works', 'a collection of that name exists already'), 'WORK_COLLECTION_REFUSED', 500, 'Work collection "theses-works": a collection of that name exists already'],
];

test('each named error keeps its code, name, status and message', (t) => {
  for (const [error, code, status, message] of NAMED_ERRORS) {
    t.true(error instanceof VersionsError, code);
    t.is(error.code, code);
    t.is(error.name, error.constructor.name);
    t.is(httpStatusOf(error), status, code);
    t.is(error.message, message);
  }
  t.deepEqual(new Set(NAMED_ERRORS.map(([, code]) => code)), new Set(Object.keys(ERROR_DEFINITIONS)), 'every code is made by a class above');
  t.is(httpStatusOf(new VersionsError('A_HOST_CODE' as never, 'the host\'s own')), 500, 'a code the table does not hold');
  t.is(httpStatusOf(new VersionsError('toString' as never, 'not a row')), 500, 'a name every object has is no row');
  t.is(httpStatusOf(new TypeError('x')), 500);
});

test('IngestStoppedError is one class, wherever a host or the command imports it from', (t) => {
  const error = new IngestStoppedError('the source closed', STOPPED_SUMMARY);
  t.is(error.cause, 'the source closed');
  t.is(error.summary, STOPPED_SUMMARY);
  for (const imported of [IngestStoppedErrorFromRoot, IngestStoppedErrorFromIngest, IngestStoppedErrorFromPipeline, LoadStoppedError]) t.is(imported, IngestStoppedError);
});
