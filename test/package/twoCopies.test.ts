/**
 * Two copies of the package in one process: a host may bundle it beside the installed one, and tsx, which
 * runs these tests, makes a copy of its own of a module `require`d from an ES module (the root's deprecated
 * adapter names load their entry so: src/deprecatedExports.ts). An error of either copy answers
 * `instanceof` for its class and for the family in the other (src/errors.ts, VersionsError), and nothing
 * else passes for one. The root's deprecated adapter names serve the root's plugin end to end, a first
 * load into an empty file (which runs in a worker thread) included.
 */
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Koa from 'koa';
import supertest from 'supertest';
import * as errors from '../../src/errors.js';
import * as root from '../../src/index.js';

/** src/errors.ts again, as a second copy: tsx runs a module `require`d from here apart from the imported one. */
const otherCopy = createRequire(import.meta.url)('../../src/errors.js') as typeof errors;

type ErrorClasses = typeof errors;
/** The names of the error classes among the module's exports. */
type ErrorClassName = { [Name in keyof ErrorClasses]: ErrorClasses[Name] extends abstract new (...args: never[]) => Error ? Name : never }[keyof ErrorClasses];

/** Errors as the package throws them, each made by the copy given. */
const ERRORS: ReadonlyArray<readonly [ErrorClassName, (copy: ErrorClasses) => Error]> = [
  ['RecordNotFoundError', (copy) => new copy.RecordNotFoundError('ocm-00012345')],
  ['IndexUnavailableError', (copy) => new copy.IndexUnavailableError('Solr at http://solr.example:8983/solr/biblio did not answer within 5000 ms')],
  ['IndexFileMissingError', (copy) => new copy.IndexFileMissingError('catalog.sqlite', '/srv/catalog/catalog.sqlite', true)],
  ['InvalidOptionError', (copy) => new copy.InvalidOptionError('baseUrl', 'must be an absolute http(s) URL, got "catalog"')],
  ['MalformedMarcError', (copy) => new copy.MalformedMarcError('records.xml:12: the datafield 245 has no tag')],
  ['OaiError', (copy) => new copy.OaiError('badResumptionToken', 'The token has expired', 'https://repository.example/oai?verb=ListRecords')],
  ['KeyProfileMismatchError', (copy) => new copy.KeyProfileMismatchError('catalog.sqlite', 'vufind', 'extended')],
];

test('the other copy is a copy: its classes are not these', (t) => {
  t.not(otherCopy.VersionsError, errors.VersionsError);
  t.not(otherCopy.RecordNotFoundError, errors.RecordNotFoundError);
});

for (const [name, make] of ERRORS) {
  for (const [direction, maker, asker] of [['another copy\'s', otherCopy, errors], ['this copy\'s', errors, otherCopy]] as const) {
    test(`${direction} ${name} is an instance of its class and of the family in the other copy, and of no other class`, (t) => {
      const error = make(maker);
      t.true(error instanceof asker[name], `instanceof ${name}`);
      t.true(error instanceof asker.VersionsError, 'instanceof VersionsError');
      t.true(error instanceof Error);
      for (const [otherName] of ERRORS) {
        if (otherName !== name) t.false(error instanceof asker[otherName], `not instanceof ${otherName}`);
      }
    });
  }
}

test('what only looks like an error of the family is not one', (t) => {
  const named = Object.assign(new Error('Record "ocm-00012345" does not exist'), { name: 'RecordNotFoundError', code: 'RECORD_NOT_FOUND' });
  class RecordNotFoundError extends Error {
    readonly code = 'RECORD_NOT_FOUND';
  }
  const lookalikes: ReadonlyArray<readonly [string, unknown]> = [
    ['an Error with the name and code', named],
    ['an error of a class of the same name outside the family', new RecordNotFoundError('gone')],
    ['a plain object with the name, code and a constructor of that name', { name: 'RecordNotFoundError', code: 'RECORD_NOT_FOUND', constructor: RecordNotFoundError }],
    ['the class name as a string', 'RecordNotFoundError'],
    ['null', null],
    ['undefined', undefined],
  ];
  for (const [what, value] of lookalikes) {
    t.false(value instanceof errors.RecordNotFoundError, `${what}: not instanceof RecordNotFoundError`);
    t.false(value instanceof errors.VersionsError, `${what}: not instanceof VersionsError`);
  }
});

test('a host\'s own subclass keeps its meaning: its errors are of it, the package\'s of the parent are not', (t) => {
  class CatalogDownError extends errors.IndexUnavailableError {}
  const own = new CatalogDownError('the catalog server is down for maintenance');
  t.true(own instanceof CatalogDownError);
  t.true(own instanceof otherCopy.IndexUnavailableError);
  t.true(own instanceof otherCopy.VersionsError);
  t.false(new otherCopy.IndexUnavailableError('timed out') instanceof CatalogDownError);
  t.false(new errors.IndexUnavailableError('timed out') instanceof CatalogDownError);
});

const HOBBITS = [
  { id: 'h1', title: 'The Hobbit', author: 'Tolkien, J. R. R.', format: 'Book', publishDate: '1937' },
  { id: 'h2', title: 'Hobbit', author: 'Tolkien, J.R.R.', format: 'eBook', publishDate: '2012' },
  { id: 'f1', title: 'Farmer Giles of Ham', author: 'Tolkien, J. R. R.', format: 'Book', publishDate: '1949' },
];

test('the root\'s deprecated adapter names serve the root\'s plugin end to end, their errors answered as the plugin\'s own', async (t) => {
  const folder = mkdtempSync(join(tmpdir(), 'two-copies-'));
  t.teardown(() => rmSync(folder, { recursive: true, force: true }));
  const path = join(folder, 'catalog.sqlite');

  t.throws(() => root.openEmbeddedIndex({ path, readOnly: true }), { instanceOf: root.IndexFileMissingError, code: 'INDEX_FILE_MISSING' });
  const loading = root.openEmbeddedIndex({ path, create: true, keyProfile: 'vufind' });
  const summary = await loading.load(HOBBITS, { now: () => new Date('2025-01-01T00:00:00Z') });
  await loading.close();
  t.is(summary.loaded, 3);

  const index = root.openEmbeddedIndex({ path, readOnly: true });
  const app = new Koa();
  app.use(root.createVersionsPlugin({ index, baseUrl: 'https://catalog.example.edu' }));
  const request = supertest(app.callback());
  const feed = await request.get('/Search/Versions?id=h1&view=rss');
  t.is(feed.status, 200);
  t.deepEqual([...feed.text.matchAll(/<guid[^>]*>[^<]*\/Record\/([^<]*)</g)].map(([, id]) => id).sort(), ['h1', 'h2']);
  t.is((await request.get('/Search/Versions?id=ocm-00012345')).status, 404);
  await index.close();
  // The closed index throws its IndexUnavailableError, which the plugin answers as one: 503, not 500.
  t.is((await request.get('/Search/Versions?id=h1')).status, 503);
});
