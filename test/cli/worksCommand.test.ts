/**
 * `catalog-versions works …` on a real embedded index file: merges and splits take effect at once, hold
 * through a reload of the same file, are undone, survive export → rebuild from the source file → import,
 * and the errors name what is wrong. `works report` finds the generic uniform title. The records are
 * test/fixtures/groups-to-correct.jsonl: three composers' concertos joined by the uniform title
 * "Concertos, piano", one novel whose author is spelt two ways, and a record without an author.
 */
import test from 'ava';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, runCli } from '../../src/cli/catalogVersions.js';
import { runWorksCommand } from '../../src/cli/worksCommand.js';
import { capture } from '../support/commandRuns.js';
import { openEmbeddedIndex } from '../../src/entries/sqlite.js';

const SOURCE = new URL('../fixtures/groups-to-correct.jsonl', import.meta.url);
const CLOCK = () => new Date('2026-11-25T15:00:00Z');

/** A temporary folder with the source file and an index loaded from it. */
async function loadedIndex(t: { teardown(fn: () => unknown): void }) {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-versions-works-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const source = join(dir, 'catalog.jsonl');
  copyFileSync(SOURCE, source);
  const db = join(dir, 'catalog.sqlite');
  const load = async () => {
    const c = capture();
    // VuFind's keys: the groups to correct are the ones they make (the extended profile already leaves generic uniform titles out).
    const code = await runCli(['load', source, '--db', db, '--no-progress', '--key-profile', 'vufind'], c.io);
    if (code !== EXIT_OK) throw new Error(`load failed: ${c.err()}`);
  };
  await load();
  return { dir, db, source, load };
}

async function works(args: string[]) {
  const c = capture();
  const code = await runWorksCommand(args, c.io, CLOCK);
  return { code, out: c.out(), err: c.err() };
}

/** Each record's versions list, as ids, and its last_indexed, read from the file. */
async function groupsOf(db: string): Promise<Record<string, { versions: string[]; lastIndexed: string }>> {
  const index = openEmbeddedIndex({ path: db, readOnly: true });
  try {
    const groups: Record<string, { versions: string[]; lastIndexed: string }> = {};
    for (const line of readFileSync(SOURCE, 'utf8').trim().split('\n')) {
      const { id } = JSON.parse(line) as { id: string };
      const record = await index.getRecord(id);
      if (record === undefined) throw new Error(`${id} missing`);
      // A record without keys lists itself alone (docs/work-keys.md); the port is never asked with none.
      const listed = record.workKeys.length === 0 ? [id]
        : (await index.findVersions({ workKeys: record.workKeys, order: 'last-indexed', offset: 0, limit: 50 })).records.map((r) => r.id);
      groups[id] = { versions: listed.sort(), lastIndexed: record.lastIndexed };
    }
    return groups;
  } finally {
    await index.close();
  }
}

const versions = (groups: Awaited<ReturnType<typeof groupsOf>>, id: string) => groups[id]?.versions;
const CONCERTOS = ['beethoven-concertos', 'chopin-concertos', 'rachmaninoff-concertos'];

test('a split and a merge apply at once, hold through a reload, and are undone', async (t) => {
  const { db, load } = await loadedIndex(t);
  const before = await groupsOf(db);
  t.deepEqual(versions(before, 'beethoven-concertos'), CONCERTOS, 'the generic uniform title joins three composers');
  t.deepEqual(versions(before, 'hobbit-2012'), ['hobbit-2012']);

  let run = await works(['split', 'chopin-concertos', '--db', db, '--note', '"Concertos, piano" is no work', '--by', 'anna']);
  t.is(run.code, EXIT_OK, run.err);
  t.regex(run.out, /^s1 {2}split chopin-concertos {2}— by anna, 2026-11-25T15:00:00\.000Z: "Concertos, piano" is no work\n1 record of the index rewritten\.\n$/);
  run = await works(['merge', 'hobbit-1937', 'hobbit-2012', '--db', db, '--note', 'same novel, the author spelt two ways', '--by', 'rui']);
  t.is(run.code, EXIT_OK, run.err);

  const curated = await groupsOf(db);
  t.deepEqual(versions(curated, 'chopin-concertos'), ['chopin-concertos'], 'split: listed only with itself');
  t.deepEqual(versions(curated, 'beethoven-concertos'), ['beethoven-concertos', 'rachmaninoff-concertos']);
  t.deepEqual(versions(curated, 'hobbit-2012'), ['hobbit-1937', 'hobbit-2012'], 'merged with 1937 only: versions are not transitive');
  t.deepEqual(versions(curated, 'hobbit-1937'), ['hobbit-1937', 'hobbit-1966', 'hobbit-2012']);
  t.deepEqual(versions(curated, 'hobbit-1966'), ['hobbit-1937', 'hobbit-1966']);
  t.deepEqual(Object.fromEntries(Object.entries(curated).map(([id, g]) => [id, g.lastIndexed])),
    Object.fromEntries(Object.entries(before).map(([id, g]) => [id, g.lastIndexed])), 'a decision moves no record in its feeds');

  run = await works(['list', '--db', db]);
  t.is(run.out, 's1  split chopin-concertos  — by anna, 2026-11-25T15:00:00.000Z: "Concertos, piano" is no work\n' +
    'm2  merge hobbit-1937, hobbit-2012  — by rui, 2026-11-25T15:00:00.000Z: same novel, the author spelt two ways\n');

  await load();
  t.deepEqual(await groupsOf(db), curated, 'loading the same file again applies the decisions, and keeps every last_indexed');

  run = await works(['undo', 's1', '--db', db]);
  t.is(run.code, EXIT_OK, run.err);
  t.regex(run.out, /^Undone: s1 {2}split chopin-concertos/);
  const undone = await groupsOf(db);
  t.deepEqual(versions(undone, 'chopin-concertos'), CONCERTOS, 'the split record has its own keys back');
  t.deepEqual(versions(undone, 'hobbit-2012'), versions(curated, 'hobbit-2012'), 'the merge stays');
  run = await works(['undo', 'm2', '--db', db]);
  t.deepEqual(await groupsOf(db), before);
});

test('decisions survive export, a rebuild from the source file and import; the file is stable', async (t) => {
  const { dir, db, load } = await loadedIndex(t);
  await works(['merge', 'hobbit-2012', 'hobbit-1937', 'dom-casmurro', '--db', db, '--note', 'a test of three', '--by', 'anna']);
  await works(['split', 'rachmaninoff-concertos', '--db', db, '--note', 'generic uniform title', '--by', 'anna']);
  const curated = await groupsOf(db);
  const file = join(dir, 'grouping.json');
  t.is((await works(['export', file, '--db', db])).code, EXIT_OK);
  const exported = readFileSync(file, 'utf8');
  const again = await works(['export', '-', '--db', db]);
  t.is(again.out, exported, 'the same decisions, the same bytes');

  rmSync(db);
  for (const suffix of ['-wal', '-shm']) rmSync(`${db}${suffix}`, { force: true });
  await load();
  t.deepEqual(versions(await groupsOf(db), 'dom-casmurro'), ['dom-casmurro'], 'the rebuilt index has no decisions');
  const imported = await works(['import', file, '--db', db]);
  t.is(imported.code, EXIT_OK, imported.err);
  t.is(imported.out, `${file}: 2 decisions imported; 4 records of the index rewritten.\n`);
  t.deepEqual(await groupsOf(db), curated);
  t.is((await works(['export', '-', '--db', db])).out, exported);

  // Imported before the records are loaded: the load applies them.
  rmSync(db);
  for (const suffix of ['-wal', '-shm']) rmSync(`${db}${suffix}`, { force: true });
  openEmbeddedIndex({ path: db, create: true }).close();
  t.is((await works(['import', file, '--db', db])).code, EXIT_OK);
  await load();
  t.deepEqual(await groupsOf(db), curated);
});

test('errors name the record, the decision or the file entry; a wrong command line is a usage error', async (t) => {
  const { dir, db } = await loadedIndex(t);
  let run = await works(['merge', 'hobbit-1937', 'no-such-record', 'nor-this', '--db', db, '--note', 'n']);
  t.is(run.code, EXIT_FAILED);
  t.regex(run.err, /no record "no-such-record", "nor-this".*\(CURATION_UNKNOWN_RECORD\)/);
  t.is((await works(['list', '--db', db])).out, 'No grouping decisions.\n', 'nothing kept from a refused merge');
  run = await works(['undo', 'm9', '--db', db]);
  t.is(run.code, EXIT_FAILED);
  t.regex(run.err, /No grouping decision "m9".*\(CURATION_UNKNOWN_DECISION\)/);
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, JSON.stringify({
    format: 'catalog-versions grouping decisions 1',
    decisions: [
      { id: 'm1', action: 'merge', records: ['a', 'b'], by: 'anna', at: '2026-11-25T15:00:00Z', note: 'n' },
      { id: 's2', action: 'split', records: ['a'], by: 'anna', at: '2026-11-25T15:00:00Z' },
    ],
  }));
  run = await works(['import', bad, '--db', db]);
  t.is(run.code, EXIT_FAILED);
  t.true(run.err.includes(`${bad}:1: decision 2: "note" must be a non-empty string (CURATION_FILE_INVALID)`), run.err);

  for (const args of [
    ['split', 'chopin-concertos', '--db', db],
    ['merge', 'hobbit-1937', '--db', db, '--note', 'n'],
    ['split', 'a', 'b', '--db', db, '--note', 'n'],
    ['list'],
    ['list', '--db', db, '--note', 'n'],
    ['frobnicate', '--db', db],
  ]) {
    run = await works(args);
    t.is(run.code, EXIT_USAGE, args.join(' '));
  }
  const missing = await works(['list', '--db', join(dir, 'typo.sqlite')]);
  t.is(missing.code, EXIT_FAILED);
  t.regex(missing.err, /cannot open the embedded index/);

  // Through the command itself.
  const c = capture();
  t.is(await runCli(['works', 'list', '--db', db], c.io), EXIT_OK);
  t.is(c.out(), 'No grouping decisions.\n');
});

test('works report finds the generic uniform title and the largest lists', async (t) => {
  const { db } = await loadedIndex(t);
  const run = await works(['report', '--db', db, '--top', '3']);
  t.is(run.code, EXIT_OK, run.err);
  t.regex(run.out, /^Index of 7 records\.\n/);
  const [lists, joining, generic] = run.out.split('\n\n').slice(1);
  t.regex(lists ?? '', /\n {6}3 {2}(beethoven|chopin|rachmaninoff)-concertos "/);
  t.regex(joining ?? '', /\n {6}3 {5}3 {2}UT concertospiano {2}\[generic title\]\n/);
  t.regex(generic ?? '', /UT concertospiano {2}\[generic title\]/);
  t.notRegex(generic ?? '', /hobbit/);
  await works(['split', 'chopin-concertos', '--db', db, '--note', 'n']);
  await works(['split', 'rachmaninoff-concertos', '--db', db, '--note', 'n']);
  const after = await works(['report', '--db', db]);
  t.notRegex(after.out, /concertospiano/, 'once split, the generic key joins no two records');
});
