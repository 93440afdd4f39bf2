/**
 * Opening the embedded index on a path where no file is: refused with IndexFileMissingError naming the
 * path (a server started on a wrong path must not serve an empty index it made there), unless the caller
 * says `create: true`, as the loader does. The refused open leaves nothing behind (no file, no -wal or
 * -shm). The health check's answer for an index without records is in test/http/deployment.test.ts.
 */
import test from 'ava';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { IndexFileMissingError, InvalidOptionError, VersionsError } from '../../../src/index.js';
import { openEmbeddedIndex } from '../../../src/entries/sqlite.js';

const folder = mkdtempSync(join(tmpdir(), 'index-file-missing-'));
test.after.always(() => rmSync(folder, { recursive: true, force: true }));

const CASES = [
  { name: 'a server that loads (writable)', options: { readOnly: false }, offersCreate: true },
  { name: 'a server that only reads', options: { readOnly: true }, offersCreate: false },
  { name: 'no readOnly given', options: {}, offersCreate: true },
] as const;

for (const { name, options, offersCreate } of CASES) {
  test(`a missing index file is refused naming its path, and nothing is created: ${name}`, (t) => {
    const path = join(folder, `wrong-path-${name.replace(/\W+/g, '-')}.sqlite`);
    const error = t.throws(() => openEmbeddedIndex({ path, ...options }), { instanceOf: IndexFileMissingError });
    t.true(error instanceof VersionsError);
    t.is(error!.code, 'INDEX_FILE_MISSING');
    t.is(error!.path, path);
    t.true(error!.message.startsWith(`The index file ${path} does not exist: check the path, or load records into it first (catalog-versions load FILE --db ${path})`), error!.message);
    t.is(error!.message.includes('create: true'), offersCreate, error!.message);
    t.deepEqual(readdirSync(folder).filter((file) => file.startsWith('wrong-path-')), [], 'no file, -wal or -shm');
  });
}

test('a relative path is also named from the root, since it is read from the working folder', (t) => {
  const path = relative(process.cwd(), join(folder, 'relative.sqlite'));
  const error = t.throws(() => openEmbeddedIndex({ path, readOnly: true }), { instanceOf: IndexFileMissingError });
  t.is(error!.path, path);
  t.true(error!.message.startsWith(`The index file ${path} (${resolve(path)}) does not exist`), error!.message);
});

test('create: true makes the file, which later opens find without it', async (t) => {
  const path = join(folder, 'created.sqlite');
  const made = openEmbeddedIndex({ path, create: true });
  t.true(existsSync(path));
  await made.load([{ id: 'h1', title: 'The Hobbit', author: 'Tolkien, J. R. R.' }]);
  await made.close();
  for (const readOnly of [false, true]) {
    const again = openEmbeddedIndex({ path, readOnly });
    t.is(await again.count(), 1);
    t.true(await again.hasRecords());
    await again.close();
  }
});

test('hasRecords answers whether the index holds a record, and nothing else', async (t) => {
  const index = openEmbeddedIndex({ path: ':memory:' });
  t.false(await index.hasRecords(), 'a new in-memory index needs no create');
  await index.load([{ id: 'a', title: 'A', author: 'Author' }]);
  t.true(await index.hasRecords());
  await index.close();
});

test('create is true or false, and not with readOnly', (t) => {
  const path = join(folder, 'options.sqlite');
  for (const [options, problem] of [
    [{ path, create: 'yes' }, /give true or false, not "yes"/],
    [{ path, create: 1 }, /give true or false, not 1/],
    [{ path, create: true, readOnly: true }, /a read-only open cannot create the index file/],
  ] as const) {
    const error = t.throws(() => openEmbeddedIndex(options as never), { instanceOf: InvalidOptionError });
    t.is(error!.option, 'create');
    t.regex(error!.message, problem);
  }
  t.false(existsSync(path), 'the refused opens create nothing');
});
