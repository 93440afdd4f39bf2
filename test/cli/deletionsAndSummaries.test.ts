/**
 * Deletions, local mapping and summaries through the command, in-process (src/cli/catalogVersions.ts):
 * `delete` by ids and by --ids-file on the embedded index and a Solr core; MARC records marked withdrawn
 * (Leader/05 d) deleted by load; OAI deletions of a marc21 harvest whose records are stored under their
 * 001 (and an id prefix), on both backends, with the loopback provider (test/support/oaiProvider.ts);
 * a mapping file and flags for load, convert and harvest; summaries that keep new, changed, unchanged,
 * duplicate, deleted and rejected apart; no index file left behind by a harvest that failed.
 */
import test from 'ava';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, runCli } from '../../src/cli/catalogVersions.js';
import { writeIso2709 } from '../support/writeIso2709.js';
import { capture, tempDir, type Teardown } from '../support/commandRuns.js';
import { startOaiProvider, type ProvidedRecord } from '../support/oaiProvider.js';
import { openEmbeddedIndex } from '../../src/entries/sqlite.js';
import type { MarcRecord } from '../../src/marc/marcRecord.js';

async function run(args: string[]) {
  const io = capture();
  const code = await runCli(args, io.io);
  return { code, out: io.out(), err: io.err() };
}

/** A book with a 001 (or none), a 035, a title and a 852 $b; `status` is Leader/05. */
function book(controlNumber: string | undefined, oclc: string, title: string, status = 'n', building = 'Music Library'): MarcRecord {
  return {
    leader: `00000${status}am a2200000 a 4500`,
    fields: [
      ...(controlNumber === undefined ? [] : [{ tag: '001', value: controlNumber }]),
      { tag: '035', ind1: ' ', ind2: ' ', subfields: [{ code: 'a', value: oclc }] },
      { tag: '100', ind1: '1', ind2: ' ', subfields: [{ code: 'a', value: 'Bach, Johann Sebastian.' }] },
      { tag: '245', ind1: '1', ind2: '0', subfields: [{ code: 'a', value: title }] },
      { tag: '852', ind1: ' ', ind2: ' ', subfields: [{ code: 'b', value: building }] },
    ],
  };
}

async function idsIn(db: string): Promise<string[]> {
  const index = openEmbeddedIndex({ path: db, readOnly: true });
  try {
    const found = await index.searchRecords('bach', { limit: 100 });
    return found.records.map((record) => record.id).sort();
  } finally {
    await index.close();
  }
}

test('delete: ids on the command line and in a file leave the embedded index; ids it does not hold are counted apart', async (t) => {
  const dir = tempDir(t, 'catalog-versions-deletions-');
  const db = join(dir, 'catalog.sqlite');
  const file = join(dir, 'catalog.mrc');
  writeFileSync(file, writeIso2709(['a1', 'a2', 'a3', 'a4'].map((id) => book(id, `(OCoLC)${id}`, `Suite ${id}`))));
  t.is((await run(['load', file, '--db', db])).code, EXIT_OK);

  const byArgs = await run(['delete', 'a1', 'no-such-id', '--db', db]);
  t.is(byArgs.code, EXIT_OK, byArgs.err);
  t.regex(byArgs.out, /2 ids → embedded index .* in [\d.]+ s \(\d+ ids\/s\)\. 2 read: 1 deleted \(1 more id was not in the index\), 0 rejected\./);

  const idsFile = join(dir, 'withdrawn.txt');
  writeFileSync(idsFile, 'a2\n\n  a3  \n');
  const byFile = await run(['delete', '--ids-file', idsFile, '--db', db]);
  t.is(byFile.code, EXIT_OK, byFile.err);
  t.regex(byFile.out, /2 read: 2 deleted, 0 rejected\./);
  t.deepEqual(await idsIn(db), ['a4']);

  const missing = join(dir, 'missing.sqlite');
  const none = await run(['delete', 'a4', '--db', missing]);
  t.is(none.code, EXIT_FAILED);
  t.regex(none.err, /no embedded index .*missing\.sqlite/);
  t.false(existsSync(missing), 'delete never creates an index');
  t.is((await run(['delete', '--db', db])).code, EXIT_USAGE);
  t.is((await run(['delete', 'a4', '--ids-file', idsFile, '--db', db])).code, EXIT_USAGE);
});

test('load: a record marked withdrawn (Leader/05 d) is deleted by its id; convert says so instead of printing it', async (t) => {
  const dir = tempDir(t, 'catalog-versions-deletions-');
  const db = join(dir, 'catalog.sqlite');
  const first = join(dir, 'first.mrc');
  writeFileSync(first, writeIso2709([book('w1', '(OCoLC)1', 'Partita'), book('w2', '(OCoLC)2', 'Toccata')]));
  t.is((await run(['load', first, '--db', db])).code, EXIT_OK);
  const update = join(dir, 'update.mrc');
  writeFileSync(update, writeIso2709([book('w1', '(OCoLC)1', 'Partita', 'd'), book('w3', '(OCoLC)3', 'Fugue', 'd')]));
  const loaded = await run(['load', update, '--db', db]);
  t.is(loaded.code, EXIT_OK, loaded.err);
  t.regex(loaded.out, /2 read: 1 deleted \(1 more id was not in the index\), 0 rejected\./);
  t.deepEqual(await idsIn(db), ['w2']);

  const converted = await run(['convert', update]);
  t.is(converted.out, '', 'a withdrawn record is no document');
  t.regex(converted.err, /withdrawn \(load deletes it\): "w1"/);
  t.regex(converted.err, /2 read, 0 converted, 0 rejected, 2 withdrawn/);
});

test('summary: a file repeated counts its duplicates apart (the last one wins, each named); reloading it counts it unchanged; an edit counts changed', async (t) => {
  const dir = tempDir(t, 'catalog-versions-deletions-');
  const db = join(dir, 'catalog.sqlite');
  const once = [book('d1', '(OCoLC)1', 'Invention'), book('d2', '(OCoLC)2', 'Sinfonia'), book(undefined, '(OCoLC)3', 'No id')];
  const file = join(dir, 'repeated.mrc');
  writeFileSync(file, writeIso2709([...once, ...once, ...once]));

  const first = await run(['load', file, '--db', db]);
  t.regex(first.out, /Written: 2 new, 0 changed, 0 unchanged, 4 duplicates \(ids that came earlier in this run/);
  t.regex(first.out, /9 read: 2 new, 4 duplicates \(last kept\), 3 rejected\.\n$/);
  t.is(first.err.match(/id "d1" came earlier in this run; this record replaces it/g)?.length, 2, first.err);
  t.regex(first.err, /repeated\.mrc:record 4 \(001 d1\): id "d1" came earlier/);
  t.deepEqual(await idsIn(db), ['d1', 'd2']);

  const again = await run(['load', file, '--db', db]);
  t.regex(again.out, /Written: 0 new, 0 changed, 2 unchanged, 4 duplicates/);
  t.regex(again.out, /9 read: 2 unchanged, 4 duplicates \(last kept\), 3 rejected\.\n$/, 'the last line says the reload changed nothing');

  const edited = join(dir, 'edited.mrc');
  writeFileSync(edited, writeIso2709([book('d1', '(OCoLC)1', 'Invention in C'), book('d2', '(OCoLC)2', 'Sinfonia'), book('d9', '(OCoLC)9', 'New')]));
  const third = await run(['load', edited, '--db', db]);
  t.regex(third.out, /Written: 1 new, 1 changed, 1 unchanged\./);
  t.regex(third.out, /3 read: 1 new, 1 changed, 1 unchanged, 0 rejected\.\n$/);
});

test('local mapping: ids from 035 with a prefix, institution and building, for load and convert; flags over the file', async (t) => {
  const dir = tempDir(t, 'catalog-versions-deletions-');
  const db = join(dir, 'catalog.sqlite');
  const mapping = join(dir, 'local.properties');
  writeFileSync(mapping, '# ids from the OCLC number\nid = 035a\nid_prefix = lib1:\ninstitution = "Library One"\nbuilding = 852b\n');
  const file = join(dir, 'catalog.mrc');
  writeFileSync(file, writeIso2709([book(undefined, '(OCoLC)41', 'Chaconne'), book('x', '(OCoLC)42', 'Sarabande', 'n', 'Annex')]));

  const loaded = await run(['load', file, '--db', db, '--mapping', mapping]);
  t.is(loaded.code, EXIT_OK, loaded.err);
  t.deepEqual(await idsIn(db), ['lib1:(OCoLC)41', 'lib1:(OCoLC)42']);
  const index = openEmbeddedIndex({ path: db, readOnly: true });
  const record = await index.getRecord('lib1:(OCoLC)42');
  await index.close();
  t.deepEqual(record?.institutions, ['Library One']);
  t.deepEqual(record?.buildings, ['Annex']);

  const converted = await run(['convert', file, '--mapping', mapping, '--id-prefix', 'lib2:', '--institution', 'Library Two']);
  const documents = converted.out.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
  t.deepEqual(documents.map((d) => [d.id, d.institution]), [['lib2:(OCoLC)41', ['Library Two']], ['lib2:(OCoLC)42', ['Library Two']]]);

  const bad = join(dir, 'bad.properties');
  writeFileSync(bad, 'id = 035a\nbuilding = Main Library\n');
  const refused = await run(['load', file, '--db', join(dir, 'other.sqlite'), '--mapping', bad]);
  t.is(refused.code, EXIT_FAILED);
  t.regex(refused.err, /bad\.properties:2: "building" needs a "quoted constant"/);
  t.false(existsSync(join(dir, 'other.sqlite')));
  t.is((await run(['load', file, '--db', db, '--id-field', 'OCLC'])).code, EXIT_USAGE);
});

const marcXml = (id: string, title: string) => `<record xmlns="http://www.loc.gov/MARC21/slim"><leader>00000cam a2200000 a 4500</leader>`
  + `<controlfield tag="001">${id}</controlfield><datafield tag="100" ind1="1" ind2=" "><subfield code="a">Bach, J. S.</subfield></datafield>`
  + `<datafield tag="245" ind1="1" ind2="0"><subfield code="a">${title}</subfield></datafield></record>`;

/** A Solr core for the writer: adds, deletes by id, commits and id lookups, kept in memory. */
async function fakeSolr(t: Teardown) {
  const docs = new Map<string, Record<string, unknown>>();
  const deletes: string[][] = [];
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      let body: unknown = { responseHeader: { status: 0 } };
      if (url.pathname.endsWith('/update')) {
        const update = JSON.parse(text) as unknown;
        if (Array.isArray(update)) for (const doc of update as Array<Record<string, unknown>>) docs.set(String(doc.id), doc);
        else if (Array.isArray((update as { delete?: unknown }).delete)) {
          const ids = (update as { delete: string[] }).delete;
          deletes.push(ids);
          for (const id of ids) docs.delete(id);
        }
      } else {
        const q = new URLSearchParams(text).get('q') ?? '';
        const ids = q.replace(/^\{![^}]*\}/, '').split('\u001f');
        const found = ids.flatMap((id) => (docs.has(id) ? [docs.get(id)!] : []));
        body = { responseHeader: { status: 0 }, response: { numFound: found.length, start: 0, docs: found } };
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/solr/biblio`, docs, deletes };
}

for (const backend of ['embedded index', 'Solr core'] as const) {
  test(`harvest marc21 into the ${backend}: a deleted header deletes the record stored under its 001 and the id prefix`, async (t) => {
    const dir = tempDir(t, 'catalog-versions-deletions-');
    let now = new Date('2026-02-01T00:00:00Z');
    const records: ProvidedRecord[] = [
      { identifier: 'oai:lib:aaa', datestamp: '2026-01-20T10:00:00Z', marcXml: marcXml('b1001', 'Goldberg variations') },
      { identifier: 'oai:lib:bbb', datestamp: '2026-01-21T10:00:00Z', marcXml: marcXml('b1002', 'Art of fugue') },
    ];
    const provider = await startOaiProvider({ records, clock: () => now });
    t.teardown(() => provider.close());
    const solr = backend === 'Solr core' ? await fakeSolr(t) : undefined;
    const db = join(dir, 'harvest.sqlite');
    const target = solr === undefined ? ['--db', db] : ['--solr', solr.url, '--state', join(dir, 'state.json')];
    const harvest = () => run(['harvest', provider.baseUrl, '--prefix', 'marc21', ...target, '--id-prefix', 'lib.', '--institution', 'Lib']);

    const first = await harvest();
    t.is(first.code, EXIT_OK, first.err);
    t.regex(first.out, /2 read: 2 new, 0 rejected\./);

    records[0] = { identifier: 'oai:lib:aaa', datestamp: '2026-02-02T10:00:00Z', deleted: true };
    now = new Date('2026-02-03T00:00:00Z');
    const second = await harvest();
    t.is(second.code, EXIT_OK, second.err);
    t.regex(second.out, /1 read: 1 deleted, 0 rejected\./);
    if (solr !== undefined) {
      t.deepEqual(solr.deletes, [['lib.b1001']]);
      t.deepEqual([...solr.docs.keys()], ['lib.b1002']);
      t.deepEqual(solr.docs.get('lib.b1002')?.institution, ['Lib']);
      t.regex(readFileSync(join(dir, 'state.json'), 'utf8'), /oai-identifiers/);
    } else {
      t.deepEqual(await idsIn(db), ['lib.b1002']);
    }
  });
}

test('delete from a Solr core: one delete request with the ids, counted against what the core held', async (t) => {
  const dir = tempDir(t, 'catalog-versions-deletions-');
  const solr = await fakeSolr(t);
  solr.docs.set('s1', { id: 's1', title: 'One' });
  solr.docs.set('s2', { id: 's2', title: 'Two' });
  const idsFile = join(dir, 'ids.txt');
  writeFileSync(idsFile, 's1\ns9\n');
  const deleted = await run(['delete', '--ids-file', idsFile, '--solr', solr.url]);
  t.is(deleted.code, EXIT_OK, deleted.err);
  t.regex(deleted.out, /2 read: 1 deleted \(1 more id was not in the index\), 0 rejected\./);
  t.deepEqual(solr.deletes, [['s1', 's9']]);
  t.deepEqual([...solr.docs.keys()], ['s2']);
});

test('a harvest of an unreachable repository leaves no index file behind', async (t) => {
  const dir = tempDir(t, 'catalog-versions-deletions-');
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  const db = join(dir, 'never.sqlite');
  const failed = await run(['harvest', `http://127.0.0.1:${port}/oai`, '--prefix', 'oai_dc', '--db', db]);
  t.is(failed.code, EXIT_FAILED);
  t.false(existsSync(db), 'no empty index file');
  t.false(existsSync(`${db}-wal`));
});
