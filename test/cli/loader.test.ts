/**
 * The loader command (`catalog-versions load`, src/cli/) end to end.
 *
 * With the embedded index: bad lines reported with their line numbers while the rest loads, keys computed
 * or kept, last_indexed from the file's modification time, the same file loaded twice leaving the same
 * index, the command line's usage errors and exit codes. Most tests call runCli in-process with captured
 * output; two spawn the real command to check the process's exit code and streams.
 *
 * With Solr: a local HTTP server plays a small Solr core. It records every update request (Solr's JSON
 * update format), applies adds in order and stops at a refused document as Solr does, makes documents
 * visible only on commit, returns stored fields the way a schema would (multi-valued fields as lists,
 * dates without zero milliseconds) and answers the loader's id lookups. Other handlers play a Solr that is
 * down, silent or broken. No real Solr is involved (test/adapters/solr/solrIndex.shared.test.ts runs against one).
 */
import test from 'ava';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { recordFromDocument, type CatalogRecord, type RecordDocument } from '../../src/record/catalogRecord.js';
import { IndexUnavailableError, InvalidOptionError } from '../../src/errors.js';
import { openEmbeddedIndex } from '../../src/entries/sqlite.js';
import { DEFAULT_SOLR_FIELDS } from '../../src/adapters/solr/solrIndexOptions.js';
import { toRecordDocument } from '../../src/adapters/solr/solrDocuments.js';
import { createSolrWriter } from '../../src/adapters/solr/solrWriter.js';
import { EXIT_FAILED, EXIT_OK, EXIT_REJECTED_LINES, EXIT_USAGE, runCli } from '../../src/cli/catalogVersions.js';
import { loadRecordFiles, type LoadProgress } from '../../src/cli/loadRecords.js';
import { recordFormatNamed } from '../../src/ingest/recordFormats.js';
import { curationFileText } from '../../src/work-keys/curation/curationFile.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const MTIME = new Date('2025-06-01T12:00:00.000Z');
const LATER = new Date('2025-07-15T08:30:00.000Z');

type Teardown = { teardown(fn: () => unknown): void };

function tempDir(t: Teardown): string {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-versions-loader-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Writes lines to a file and sets its modification time (the loader's clock). */
function writeLines(path: string, lines: readonly string[], mtime = MTIME): string {
  writeFileSync(path, `${lines.join('\n')}\n`);
  utimesSync(path, mtime, mtime);
  return path;
}

const json = (value: unknown) => JSON.stringify(value);

/** A catalog with good lines and one of each kind of bad line; comments give line numbers. */
const CATALOG: readonly string[] = [
  /* 1 */ json({ id: 'hobbit-1', title: 'The Hobbit', author: 'Tolkien, J. R. R.', format: 'Book', publishDate: '1937' }),
  /* 2 */ json({ id: 'hobbit-2', title: 'The hobbit', author: ['Tolkien, J. R. R.'], format: ['Book', 'eBook'], publishDate: '2012', last_indexed: '2024-02-03T04:05:06Z' }),
  /* 3 */ '{"id": "broken", "title": ',
  /* 4 */ json({ title: 'No id at all' }),
  /* 5 */ json({ id: 'wrong-type', title: 'Numbers', author: 42 }),
  /* 6 */ '',
  /* 7 */ json(['not', 'an', 'object']),
  /* 8 */ json({ id: 'bad-date', title: 'When?', last_indexed: 'yesterday' }),
  /* 9 */ json({ id: 'explicit-a', title: 'One', author: 'A', work_keys_str_mv: ['SHARED x'] }),
  /* 10 */ json({ id: 'explicit-b', title: 'Two', author: 'B', work_keys_str_mv: 'SHARED x' }),
  /* 11 */ json({ id: 'ключ-1', title: 'Война и мир', author: 'Толстой, Лев', title_uniform: 'Voĭna i mir', url: 'http://example.org/wp' }),
  /* 12 */ json({ id: 'oai:repo.example:123/456 x', title: 'No author', format: 'Thesis', extra_field: 'kept as is' }),
];
const GOOD_IDS = ['hobbit-1', 'hobbit-2', 'explicit-a', 'explicit-b', 'ключ-1', 'oai:repo.example:123/456 x'];

interface Captured {
  readonly io: Parameters<typeof runCli>[1];
  readonly out: () => string;
  readonly err: () => string;
}

function capture(isTTY = false): Captured {
  let out = '';
  let err = '';
  return {
    io: {
      stdout: { write: (text: string) => (out += text) },
      stderr: { isTTY, columns: 100, write: (text: string) => (err += text) },
    },
    out: () => out,
    err: () => err,
  };
}

/** Every record of an embedded index file, for the given ids. */
async function embeddedRecords(path: string, ids: readonly string[]): Promise<{ count: number; records: Array<CatalogRecord | undefined> }> {
  const index = openEmbeddedIndex({ path, readOnly: true });
  try {
    return { count: await index.count(), records: await Promise.all(ids.map((id) => index.getRecord(id))) };
  } finally {
    await index.close();
  }
}

// ---------------------------------------------------------------------------------------------------------
// The embedded index

test('bad lines are reported as FILE:LINE: reason, the rest loads, exit code 2', async (t) => {
  const dir = tempDir(t);
  const file = writeLines(join(dir, 'catalog.jsonl'), CATALOG);
  const db = join(dir, 'catalog.sqlite');
  const run = capture();
  t.is(await runCli(['load', file, '--db', db], run.io), EXIT_REJECTED_LINES);
  const lines = run.err().trimEnd().split('\n');
  t.is(lines.length, 5, run.err());
  t.regex(lines[0] ?? '', new RegExp(`^${escapeRegExp(file)}:3: not valid JSON \\(`));
  t.is(lines[1], `${file}:4: field "id" is missing`);
  t.is(lines[2], `${file}:5: field "author" must be a string, not a number (record "wrong-type")`);
  t.is(lines[3], `${file}:7: a record document must be a JSON object, not an array`);
  t.is(lines[4], `${file}:8: field "last_indexed" must be an ISO 8601 date-time, not "yesterday" (record "bad-date")`);
  t.regex(run.out(), / in \d+\.\d+ s \(\d+ lines\/s\)\. 11 read: 5 new, 1 with their own last_indexed, 5 rejected\.\n$/);
  const { count, records } = await embeddedRecords(db, GOOD_IDS);
  t.is(count, 6);
  t.deepEqual(records.map((r) => r?.id), GOOD_IDS);
});

test('keys are computed when absent and kept when given; last_indexed is the file time unless given', async (t) => {
  const dir = tempDir(t);
  const file = writeLines(join(dir, 'catalog.jsonl'), CATALOG);
  const db = join(dir, 'catalog.sqlite');
  t.is(await runCli(['load', file, '--db', db, '--key-profile', 'vufind'], capture().io), EXIT_REJECTED_LINES);
  const [hobbit1, hobbit2, explicitA, explicitB, war, noAuthor] = (await embeddedRecords(db, GOOD_IDS)).records;
  t.deepEqual(hobbit1?.workKeys, ['AT tolkienjrr thehobbit', 'AT tolkienjrr hobbit']);
  t.is(hobbit1?.lastIndexed, MTIME.toISOString());
  t.is(hobbit2?.lastIndexed, '2024-02-03T04:05:06.000Z');
  t.deepEqual(explicitA?.workKeys, ['SHARED x']);
  t.deepEqual(explicitB?.workKeys, ['SHARED x'], 'a single key given as a string becomes a list');
  t.deepEqual(war?.workKeys, ['UT voinaimir', 'AT tolstojlev vojnaimir']);
  t.deepEqual(noAuthor?.workKeys, [], 'no author, no uniform title: no keys');
});

test('loading the same file twice leaves the same index, every record and last_indexed included', async (t) => {
  const dir = tempDir(t);
  const file = writeLines(join(dir, 'catalog.jsonl'), CATALOG);
  const db = join(dir, 'catalog.sqlite');
  t.is(await runCli(['load', file, '--db', db], capture().io), EXIT_REJECTED_LINES);
  const first = await embeddedRecords(db, GOOD_IDS);
  t.is(await runCli(['load', file, '--db', db, '--batch-size', '2'], capture().io), EXIT_REJECTED_LINES);
  t.deepEqual(await embeddedRecords(db, GOOD_IDS), first);
});

test('an edited file loaded again moves last_indexed of the changed records only', async (t) => {
  const dir = tempDir(t);
  const db = join(dir, 'catalog.sqlite');
  const file = writeLines(join(dir, 'catalog.jsonl'), CATALOG);
  await runCli(['load', file, '--db', db], capture().io);
  const edited = CATALOG.map((line) => line.replace('"title":"No author"', '"title":"No author (2nd ed.)"'));
  writeLines(file, edited, LATER);
  await runCli(['load', file, '--db', db], capture().io);
  const { records } = await embeddedRecords(db, ['hobbit-1', 'oai:repo.example:123/456 x']);
  t.is(records[0]?.lastIndexed, MTIME.toISOString(), 'unchanged content keeps its time');
  t.is(records[1]?.title, 'No author (2nd ed.)');
  t.is(records[1]?.lastIndexed, LATER.toISOString(), 'changed content gets the new file time');
});

test('--db creates the index file; an unreadable input file fails with exit 1 and creates nothing', async (t) => {
  const dir = tempDir(t);
  const file = writeLines(join(dir, 'good.jsonl'), [json({ id: 'only', title: 'Only' })]);
  const db = join(dir, 'new.sqlite');
  t.false(existsSync(db));
  const run = capture();
  t.is(await runCli(['load', file, '--db', db], run.io), EXIT_OK);
  t.true(existsSync(db));
  t.is(run.err(), '');
  t.regex(run.out(), /embedded index .*new\.sqlite in [\d.]+ s \(\d+ lines\/s\)\. 1 read: 1 new, 0 rejected\.\n$/);

  const missing = capture();
  const otherDb = join(dir, 'other.sqlite');
  t.is(await runCli(['load', join(dir, 'nope.jsonl'), '--db', otherDb], missing.io), EXIT_FAILED);
  t.regex(missing.err(), /^catalog-versions: cannot read .*nope\.jsonl: ENOENT/);
  t.false(existsSync(otherDb));

  const folder = capture();
  t.is(await runCli(['load', dir, '--db', otherDb], folder.io), EXIT_FAILED);
  t.regex(folder.err(), /cannot read .*: not a file/);

  const noFolder = capture();
  t.is(await runCli(['load', file, '--db', join(dir, 'missing-dir', 'x.sqlite')], noFolder.io), EXIT_FAILED);
  t.regex(noFolder.err(), /cannot open the embedded index .*missing-dir/);
});

test('wrong command lines get one line naming the mistake and --help, and exit code 64', async (t) => {
  const dir = tempDir(t);
  const file = writeLines(join(dir, 'catalog.jsonl'), CATALOG);
  const cases: Array<[string[], RegExp]> = [
    [[], /no command given/],
    [['import', file, '--db', 'x'], /unknown command "import"/],
    [['load', '--db', 'x.sqlite'], /needs the JSON Lines file/],
    [['load', file], /exactly one target/],
    [['load', file, '--db', 'x.sqlite', '--solr', 'http://localhost:8983/solr/biblio'], /exactly one target/],
    [['load', file, '--db'], /--db/],
    [['load', file, '--db', 'x.sqlite', '--batch-size', '0'], /--batch-size needs a whole number of 1 or more, not "0"/],
    [['load', file, '--db', 'x.sqlite', '--batch-size', 'ten'], /--batch-size needs a whole number/],
    [['load', file, '--db', 'x.sqlite', '--workers', 'two'], /--workers needs a whole number of 0 or more, not "two"/],
    [['harvest', 'https://repo.example/oai', '--prefix', 'marc21', '--db', 'x.sqlite', '--workers', '1'], /--workers applies to load or convert only/],
    [['load', file, '--db', 'x.sqlite', '--timeout-ms', '100'], /--timeout-ms applies to --solr only/],
    [['load', file, '--solr', 'localhost:8983/solr/biblio'], /--solr needs an http\(s\) URL|--solr needs the URL of a core/],
    [['load', file, '--solr', 'not a url'], /--solr needs the URL of a core/],
    [['load', file, '--db', 'x.sqlite', '--verbose'], /Unknown option '--verbose'/],
  ];
  for (const [argv, message] of cases) {
    const run = capture();
    t.is(await runCli(argv, run.io), EXIT_USAGE, argv.join(' '));
    t.regex(run.err(), message, argv.join(' '));
    t.regex(run.err(), /^catalog-versions: [^\n]+ \(catalog-versions --help shows the usage\)\n$/, `${argv.join(' ')}: one line, pointing at --help`);
    t.is(run.out(), '');
  }
  t.false(existsSync('x.sqlite'), 'no usage error opens a target');

  const help = capture();
  t.is(await runCli(['--help'], help.io), EXIT_OK);
  t.regex(help.out(), /^Usage: catalog-versions load/);
  for (const code of [0, 1, 2, 64, 130]) t.regex(help.out(), new RegExp(`\\n  ${code} +\\S`), `--help explains exit code ${code}`);
  const docs = /Documentation, in this package \((.+)\):\n((?: {2}\S+\.md .*\n)+)/.exec(help.out());
  t.truthy(docs, 'names the docs folder of the package');
  t.is(docs?.[1], join(ROOT, 'docs') + sep, 'the folder the package was installed in, not a repository path');
  for (const [, name] of docs?.[2]?.matchAll(/ {2}(\S+\.md)/g) ?? []) t.true(existsSync(join(ROOT, 'docs', name!)), `docs/${name} exists`);
  const version = capture();
  t.is(await runCli(['--version'], version.io), EXIT_OK);
  t.regex(version.out(), /^koa-catalog-versions \d+\.\d+\.\d+\n$/);
});

test('a progress bar is drawn on a terminal only, and cleared before each message', async (t) => {
  const dir = tempDir(t);
  const lines = Array.from({ length: 3000 }, (_, i) => json({ id: `r${i}`, title: `Title ${i % 50}`, author: `Author ${i % 7}` }));
  lines.splice(1500, 0, '{oops');
  const file = writeLines(join(dir, 'big.jsonl'), lines);
  const tty = capture(true);
  t.is(await runCli(['load', file, '--db', join(dir, 'a.sqlite'), '--batch-size', '100'], tty.io), EXIT_REJECTED_LINES);
  t.regex(tty.err(), /\r\x1b\[2K\[#*\.*\] +\d+% line \d+ +\d+ lines\/s/);
  t.regex(tty.err(), /\r\x1b\[2K[^\r]*big\.jsonl:1501: not valid JSON/, 'the bar is cleared before the message');
  t.true(tty.err().endsWith('\r\x1b[2K'), 'the bar is gone at the end');
  const pipe = capture(false);
  await runCli(['load', file, '--db', join(dir, 'b.sqlite'), '--batch-size', '100'], pipe.io);
  t.false(pipe.err().includes('\r'));
  const quiet = capture(true);
  await runCli(['load', file, '--db', join(dir, 'c.sqlite'), '--no-progress'], quiet.io);
  t.false(quiet.err().includes('\r'));
});

test('loadRecordFiles writes in batches and reports progress after each', async (t) => {
  const dir = tempDir(t);
  const file = writeLines(join(dir, 'catalog.jsonl'), CATALOG);
  const index = openEmbeddedIndex({ path: ':memory:' });
  const progress: LoadProgress[] = [];
  const rejected: number[] = [];
  const summary = await loadRecordFiles({
    files: [{ path: file, format: recordFormatNamed('jsonl')! }], writer: index.openWriter(), batchSize: 2,
    onProgress: (p) => progress.push(p), onRejected: (p) => rejected.push(p.position.line!),
  });
  t.like(summary, { read: 11, loaded: 6, rejected: 5 });
  t.deepEqual(rejected, [3, 4, 5, 7, 8]);
  t.deepEqual(progress.map((p) => p.loaded), [2, 4, 6, 6], 'three batches of two, then the end');
  t.is(progress.at(-1)?.position?.line, 12);
  t.is(await index.count(), 6);
  await index.close();
});

test('the command as a process: exit codes and streams', async (t) => {
  const dir = tempDir(t);
  const file = writeLines(join(dir, 'catalog.jsonl'), CATALOG);
  const loaded = await runProcess(['load', file, '--db', join(dir, 'p.sqlite')]);
  t.is(loaded.code, EXIT_REJECTED_LINES, loaded.stderr);
  t.is(loaded.stderr.split('\n').filter((line) => line.startsWith(`${file}:`)).length, 5);
  t.regex(loaded.stdout, /11 read: 5 new, 1 with their own last_indexed, 5 rejected\./);
  const usage = await runProcess(['load', file]);
  t.is(usage.code, EXIT_USAGE);
  t.regex(usage.stderr, /exactly one target/);
});

// ---------------------------------------------------------------------------------------------------------
// Solr (a recording fake core)

interface UpdateRequest {
  path: string;
  query: URLSearchParams;
  contentType: string;
  body: unknown;
}

const MULTI_VALUED = new Set(['title_uniform', 'author', 'author2', 'author_corporate', 'format', 'publishDate', 'url', 'work_keys_str_mv']);
const SCHEMA_FIELDS = new Set([...Object.values(DEFAULT_SOLR_FIELDS), 'title_full']);

interface FakeSolr {
  url: string;
  updates: UpdateRequest[];
  selects: URLSearchParams[];
  /** The documents a search sees (the last commit), as Solr stores them. */
  committed: Map<string, Record<string, unknown>>;
  commits: number;
}

/**
 * A Solr core in miniature: adds are applied in order until a refused document (title containing REFUSE,
 * like an immense term), which fails the request with 400 as Solr does; deletes by query `*:*`; commits
 * make the pending state visible. Stored values follow a schema like src/adapters/solr/configset's.
 */
async function fakeSolr(t: Teardown): Promise<FakeSolr> {
  const pending = new Map<string, Record<string, unknown>>();
  const state: FakeSolr = { url: '', updates: [], selects: [], committed: new Map(), commits: 0 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const text = Buffer.concat(chunks).toString('utf8');
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json;charset=utf-8' }).end(JSON.stringify(body));
      };
      if (req.method === 'POST' && url.pathname === '/solr/biblio/update') {
        const body = JSON.parse(text) as unknown;
        state.updates.push({ path: url.pathname, query: url.searchParams, contentType: String(req.headers['content-type']), body });
        if (Array.isArray(body)) {
          for (const doc of body as Array<Record<string, unknown>>) {
            if (String(doc.title ?? '').includes('REFUSE')) {
              send(400, { responseHeader: { status: 400, QTime: 1 }, error: { msg: `ERROR: [doc=${String(doc.id)}] Error adding field 'title'='${String(doc.title)}' msg=immense term`, code: 400 } });
              return;
            }
            pending.set(String(doc.id), stored(doc));
          }
        } else if (isObject(body) && isObject(body.delete) && body.delete.query === '*:*') {
          pending.clear();
        } else if (isObject(body) && isObject(body.commit)) {
          state.committed = new Map(pending);
          state.commits += 1;
        } else {
          send(400, { responseHeader: { status: 400 }, error: { msg: 'Unknown command', code: 400 } });
          return;
        }
        send(200, { responseHeader: { status: 0, QTime: 2 } });
        return;
      }
      if (req.method === 'POST' && url.pathname === '/solr/biblio/select') {
        const params = new URLSearchParams(text);
        for (const [name, value] of url.searchParams) params.append(name, value);
        state.selects.push(params);
        const terms = /^\{!terms f=id separator="\u001f"\}([\s\S]*)$/.exec(params.get('q') ?? '');
        if (terms === null || params.get('wt') !== 'json') {
          send(400, { responseHeader: { status: 400 }, error: { msg: 'this fake answers id lookups only', code: 400 } });
          return;
        }
        const fl = (params.get('fl') ?? '*').split(',');
        const docs = (terms[1] ?? '').split('\u001f').flatMap((id) => {
          const doc = state.committed.get(id);
          return doc === undefined ? [] : [Object.fromEntries(Object.entries(doc).filter(([name]) => fl.includes('*') || fl.includes(name)))];
        });
        send(200, { responseHeader: { status: 0 }, response: { numFound: docs.length, start: 0, docs: docs.slice(0, Number(params.get('rows') ?? 10)) } });
        return;
      }
      res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body><h2>HTTP ERROR 404 Not Found</h2></body></html>');
    });
  });
  await listen(t, server);
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/solr/biblio`;
  return state;
}

/** What a search returns for an added document: schema fields only, lists for multi-valued fields,
 * dates as Solr writes them. */
function stored(doc: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(doc)) {
    if (!SCHEMA_FIELDS.has(name)) continue;
    if (name === 'last_indexed') out[name] = new Date(String(value)).toISOString().replace('.000Z', 'Z');
    else out[name] = MULTI_VALUED.has(name) && !Array.isArray(value) ? [value] : value;
  }
  out._version_ = 1_800_000_000_000_000_000;
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function listen(t: Teardown, server: http.Server): Promise<void> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  }));
}

/** A server that answers every request with this handler (for broken Solrs). */
async function brokenSolr(t: Teardown, handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  await listen(t, server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/solr/biblio`;
}

/** The records a fake Solr core holds, read back the way the Solr adapter reads them. */
function solrRecords(solr: FakeSolr, ids: readonly string[]): Array<CatalogRecord | undefined> {
  return ids.map((id) => {
    const doc = solr.committed.get(id);
    return doc === undefined ? undefined : recordFromDocument(toRecordDocument(doc, DEFAULT_SOLR_FIELDS));
  });
}

const addBodies = (solr: FakeSolr) => solr.updates.filter((u) => Array.isArray(u.body)).map((u) => u.body as Array<Record<string, unknown>>);

test('Solr: documents go in batches of JSON update lists with commitWithin, then one commit', async (t) => {
  const solr = await fakeSolr(t);
  const dir = tempDir(t);
  const file = writeLines(join(dir, 'catalog.jsonl'), CATALOG);
  const run = capture();
  t.is(await runCli(['load', file, '--solr', solr.url, '--batch-size', '4'], run.io), EXIT_REJECTED_LINES, run.err());
  t.is(run.err().trimEnd().split('\n').length, 5, 'the same five bad lines as with the embedded index');
  t.regex(run.out(), new RegExp(`→ Solr core ${escapeRegExp(solr.url)} in [\\d.]+ s \\(\\d+ lines/s\\)\\. 11 read: 5 new, 1 with their own last_indexed, 5 rejected\\.`));

  const adds = addBodies(solr);
  t.deepEqual(adds.map((docs) => docs.map((doc) => doc.id)), [
    ['hobbit-1', 'hobbit-2', 'explicit-a', 'explicit-b'],
    ['ключ-1', 'oai:repo.example:123/456 x'],
  ]);
  for (const update of solr.updates.filter((u) => Array.isArray(u.body))) {
    t.is(update.query.get('commitWithin'), '10000');
    t.is(update.query.get('wt'), 'json');
    t.regex(update.contentType, /^application\/json/);
  }
  t.deepEqual(solr.updates.at(-1)?.body, { commit: {} }, 'a commit ends the load');
  t.is(solr.commits, 1);
  // Before each add, one lookup of the stored copies of the documents stamped with the file's time.
  t.is(solr.selects.length, 2);
  t.deepEqual(solr.selects[0]?.get('q')?.split('}')[1]?.split('\u001f'), ['hobbit-1', 'explicit-a', 'explicit-b']);

  const [hobbit1, hobbit2, , explicitB, war, noAuthor] = adds.flat();
  t.deepEqual(hobbit1, {
    id: 'hobbit-1', title: 'The Hobbit', author: 'Tolkien, J. R. R.', format: 'Book', publishDate: '1937',
    work_keys_str_mv: ['AT tolkienjrr thehobbit', 'AT tolkienjrr hobbit'], last_indexed: MTIME.toISOString(),
  });
  t.is(hobbit2?.last_indexed, '2024-02-03T04:05:06.000Z');
  t.deepEqual(explicitB?.work_keys_str_mv, ['SHARED x']);
  t.deepEqual(war?.url, 'http://example.org/wp');
  t.is(noAuthor?.extra_field, 'kept as is', 'other plain fields are sent under their own names');
  t.false('work_keys_str_mv' in (noAuthor ?? {}), 'an empty key list is not sent');
});

test('Solr and the embedded index hold the same records after the same loads, also after an edited file', async (t) => {
  const solr = await fakeSolr(t);
  const dir = tempDir(t);
  const db = join(dir, 'side.sqlite');
  const file = writeLines(join(dir, 'catalog.jsonl'), CATALOG);
  // One profile for both: a Solr core is keyed as VuFind keys unless told otherwise, a new embedded index with `extended`.
  for (const target of [['--db', db, '--key-profile', 'vufind'], ['--solr', solr.url]]) await runCli(['load', file, ...target], capture().io);
  const embedded = await embeddedRecords(db, GOOD_IDS);
  t.deepEqual(solrRecords(solr, GOOD_IDS), embedded.records);
  t.is(solr.committed.size, embedded.count);

  // The same file again: the same index in both (Solr's stored documents compared field by field).
  const before = structuredClone([...solr.committed]);
  await runCli(['load', file, '--solr', solr.url], capture().io);
  t.deepEqual([...solr.committed], before);

  // An edited, newer file: only the changed record moves, in both.
  writeLines(file, CATALOG.map((line) => line.replace('"title":"The Hobbit"', '"title":"The Hobbit, or There and Back Again"')), LATER);
  // One profile for both: a Solr core is keyed as VuFind keys unless told otherwise, a new embedded index with `extended`.
  for (const target of [['--db', db, '--key-profile', 'vufind'], ['--solr', solr.url]]) await runCli(['load', file, ...target], capture().io);
  const after = await embeddedRecords(db, GOOD_IDS);
  t.deepEqual(solrRecords(solr, GOOD_IDS), after.records);
  t.is(after.records[0]?.lastIndexed, LATER.toISOString());
  t.is(after.records[2]?.lastIndexed, MTIME.toISOString());
});

test('Solr: a document Solr refuses is reported with its line, the rest of its batch is written', async (t) => {
  const solr = await fakeSolr(t);
  const dir = tempDir(t);
  const lines = Array.from({ length: 10 }, (_, i) => json({ id: `doc-${i + 1}`, title: i === 6 ? 'REFUSE me' : `Title ${i + 1}` }));
  const file = writeLines(join(dir, 'catalog.jsonl'), lines);
  const run = capture();
  t.is(await runCli(['load', file, '--solr', solr.url, '--batch-size', '8'], run.io), EXIT_REJECTED_LINES);
  t.is(run.err(), `${file}:7: ERROR: [doc=doc-7] Error adding field 'title'='REFUSE me' msg=immense term (code 400) (record "doc-7")\n`);
  t.deepEqual([...solr.committed.keys()].sort(), ['doc-1', 'doc-10', 'doc-2', 'doc-3', 'doc-4', 'doc-5', 'doc-6', 'doc-8', 'doc-9']);
  t.regex(run.out(), /10 read: 9 new, 1 rejected\./);
});

test('Solr: a core that refuses every document stops the load instead of trying each one', async (t) => {
  const solr = await fakeSolr(t);
  const dir = tempDir(t);
  const file = writeLines(join(dir, 'catalog.jsonl'), Array.from({ length: 300 }, (_, i) => json({ id: `d${i}`, title: `REFUSE ${i}` })));
  const run = capture();
  t.is(await runCli(['load', file, '--solr', solr.url], run.io), EXIT_FAILED);
  t.regex(run.err(), /stopped: Solr .*: refused the last 100 documents one by one/);
  t.true(solr.updates.length < 300, `${solr.updates.length} update requests`);
});

test('Solr writer: field names follow the map; reserved fields and objects are not sent', async (t) => {
  const solr = await fakeSolr(t);
  const writer = createSolrWriter({ url: solr.url, fields: { title: 'title_full' }, commitWithinMs: 0 });
  t.teardown(() => writer.close());
  const document = {
    id: 'm-1', title: ['Mapped'], author: 'A', work_keys_str_mv: ['K 1'], last_indexed: '2025-01-01T00:00:00.000Z',
    _version_: 5, nested: { set: 'x' }, mixed: ['a', { b: 1 }], count: 3, title_full: 'shadowed',
  } as unknown as RecordDocument;
  t.deepEqual(await writer.add([document]), { added: 1, rejected: [] });
  const update = solr.updates[0];
  t.is(update?.query.get('commitWithin'), null, 'commitWithinMs 0 sends none');
  t.deepEqual(update?.body, [{ count: 3, id: 'm-1', title_full: 'Mapped', author: 'A', last_indexed: '2025-01-01T00:00:00.000Z', work_keys_str_mv: ['K 1'] }]);
  await writer.commit();
  await writer.deleteAll();
  t.deepEqual(solr.updates.slice(1).map((u) => u.body), [{ commit: {} }, { delete: { query: '*:*' } }]);
  t.throws(() => createSolrWriter({ url: solr.url, fields: { title: 'bad name' } }), { instanceOf: InvalidOptionError, message: /fields\.title/ });
  t.throws(() => createSolrWriter({ url: 'http://localhost:8983' }), { instanceOf: InvalidOptionError, message: /"url"/ });
  t.throws(() => createSolrWriter({ url: solr.url, commitWithinMs: -1 }), { instanceOf: InvalidOptionError, message: /commitWithinMs/ });
});

test('Solr down: connection refused → exit 1 with the cause, nothing hangs', async (t) => {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  const dir = tempDir(t);
  const file = writeLines(join(dir, 'catalog.jsonl'), CATALOG);
  const url = `http://127.0.0.1:${port}/solr/biblio`;
  const started = Date.now();
  const result = await runProcess(['load', file, '--solr', url]);
  t.is(result.code, EXIT_FAILED, result.stderr);
  t.regex(result.stderr, new RegExp(`stopped: Solr POST ${escapeRegExp(url)}/select lookup of 5 stored documents: .*ECONNREFUSED`));
  t.regex(result.stdout, /^Stopped after \d+\.\d+ s\. 11 read: nothing written, 5 rejected/);
  t.true(Date.now() - started < 15_000);
});

test('Solr silent: every request has a deadline → exit 1 after it', async (t) => {
  const url = await brokenSolr(t, () => { /* never answers */ });
  const dir = tempDir(t);
  const file = writeLines(join(dir, 'catalog.jsonl'), [json({ id: 'x', title: 'X', last_indexed: '2025-01-01T00:00:00Z' })]);
  const run = capture();
  const started = Date.now();
  t.is(await runCli(['load', file, '--solr', url, '--timeout-ms', '300'], run.io), EXIT_FAILED);
  const elapsed = Date.now() - started;
  t.true(elapsed >= 250 && elapsed < 5000, `${elapsed} ms`);
  t.regex(run.err(), /stopped: Solr POST .*\/update add of 1 document: no answer within 300 ms/);
});

test('Solr broken: HTTP errors and answers that are not Solr\'s stop the load with what Solr said', async (t) => {
  const dir = tempDir(t);
  const file = writeLines(join(dir, 'catalog.jsonl'), [json({ id: 'x', title: 'X', last_indexed: '2025-01-01T00:00:00Z' })]);
  const cases: Array<[http.RequestListener, RegExp]> = [
    [(_req, res) => res.writeHead(500, { 'content-type': 'application/json' }).end(json({ error: { msg: 'java.lang.OutOfMemoryError', code: 500 } })),
      /HTTP 500, Solr error: java\.lang\.OutOfMemoryError \(code 500\)/],
    [(_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body><h2>HTTP ERROR 404 Not Found</h2></body></html>'),
      /HTTP 404 \(text\/html\), not a Solr answer: HTTP ERROR 404 Not Found/],
    [(_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>proxy login</html>'),
      /HTTP 200 with a body that is not JSON \(text\/html\): proxy login/],
    [(_req, res) => res.writeHead(503, { 'content-type': 'text/plain' }).end('Service Unavailable'),
      /HTTP 503 \(text\/plain\), not a Solr answer: Service Unavailable/],
    [(req, res) => { req.socket.destroy(); res.end(); }, /socket hang up|ECONNRESET/],
  ];
  for (const [handler, message] of cases) {
    const url = await brokenSolr(t, handler);
    const run = capture();
    t.is(await runCli(['load', file, '--solr', url], run.io), EXIT_FAILED, String(message));
    t.regex(run.err(), message);
  }
  await t.throwsAsync(createSolrWriter({ url: await brokenSolr(t, (_q, res) => res.writeHead(500).end()) }).commit(), { instanceOf: IndexUnavailableError, message: /commit: HTTP 500/ });
});

// ---------------------------------------------------------------------------------------------------------

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Runs the command as its own process (through tsx, from the sources). */
function runProcess(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli', 'catalogVersions.ts'), ...args],
      { cwd: ROOT, timeout: 30_000, env: { ...process.env, NODE_OPTIONS: '' } },
      (error, stdout, stderr) => resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr }));
  });
}

test('Solr with --grouping: the decisions of an exported file rewrite the keys a load sends; --grouping needs --solr', async (t) => {
  const solr = await fakeSolr(t);
  const dir = tempDir(t);
  const file = writeLines(join(dir, 'catalog.jsonl'), CATALOG);
  const grouping = join(dir, 'grouping.json');
  writeFileSync(grouping, curationFileText([
    { id: 'm1', action: 'merge', records: ['hobbit-1', 'ключ-1'], by: 'anna', at: '2026-11-25T15:00:00.000Z', note: 'a test merge' },
    { id: 's2', action: 'split', records: ['explicit-b'], by: 'anna', at: '2026-11-25T15:00:00.000Z', note: 'a test split' },
  ]));
  const run = capture();
  t.is(await runCli(['load', file, '--solr', solr.url, '--grouping', grouping], run.io), EXIT_REJECTED_LINES, run.err());
  const keys = new Map(addBodies(solr).flat().map((doc) => [doc.id, doc.work_keys_str_mv]));
  t.deepEqual(keys.get('hobbit-1'), ['AT tolkienjrr thehobbit', 'AT tolkienjrr hobbit', 'GL m1']);
  t.deepEqual(keys.get('ключ-1'), ['UT voinaimir', 'AT tolstojlev vojnaimir', 'GL m1']);
  t.true(keys.has('explicit-b'));
  t.is(keys.get('explicit-b'), undefined, 'split: sent without keys (Solr stores no empty list)');
  t.deepEqual(keys.get('explicit-a'), ['SHARED x'], 'a record no decision names is untouched');

  const onDb = capture();
  t.is(await runCli(['load', file, '--db', join(dir, 'x.sqlite'), '--grouping', grouping], onDb.io), EXIT_USAGE);
  t.regex(onDb.err(), /--grouping applies to --solr only/);
});
