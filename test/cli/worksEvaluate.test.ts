/**
 * `catalog-versions works evaluate` on real files and a real embedded index: the figures it prints for
 * the fixture records under each profile, both label forms, an index with a merge and a split, and every
 * usage error and failure. The records (test/fixtures/evaluate-grouping/) are three composers' concertos
 * joined by the generic uniform title "Concertos, piano" under vufind, Pride and prejudice with and
 * without the author's dates, three Hobbits with the author spelt two ways (one of them MARCXML), a
 * record without a label, a label naming no record, and an id given twice (the last record kept).
 */
import test from 'ava';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { EXIT_FAILED, EXIT_OK, EXIT_REJECTED_LINES, EXIT_USAGE, runCli } from '../../src/cli/catalogVersions.js';
import { capture, tempDir } from '../support/commandRuns.js';

const fixture = (name: string) => new URL(`../fixtures/evaluate-grouping/${name}`, import.meta.url).pathname;
const JSONL = fixture('concertos-novels-and-a-repeated-id.jsonl');
const MARCXML = fixture('hobbit-and-pride-in-marcxml.xml');
const CSV_LABELS = fixture('works-by-label.csv');
const JSONL_LABELS = fixture('works-by-label.jsonl');

async function evaluate(args: string[]) {
  const c = capture();
  const code = await runCli(['works', 'evaluate', ...args], c.io);
  return { code, out: c.out(), err: c.err() };
}

// Worked by hand over the 8 labelled records (5 works; pairs in the labels: pride 1 + hobbit 3 = 4).
// vufind: "UT concertospiano" links the three concertos (3 wrong pairs); hobbit-1937 (the last of its id,
//   Tolkien's, not the Austen record before it) and hobbit-1995 share "AT tolkienjrr thehobbit" (1 right);
//   the two Prides differ by the dates. Pairwise 1/4, 1/4. B-cubed precision (3·1/3 + 5·1)/8 = 0.750,
//   recall (3·1 + 2·1/2 + 2·2/3 + 1/3)/8 = 17/24 = 0.708, F1 0.729.
// extended: no generic uniform title, no dates in the author: the Prides link (1 right), the Hobbits as
//   before (1 right). Pairwise 2/2, 2/4, F1 0.667. B-cubed precision 1, recall (3 + 2 + 2/3 + 2/3 +
//   1/3)/8 = 20/24 = 0.833, F1 0.909.
const VUFIND = [
  'pairwise: precision 0.250 recall 0.250 F1 0.250 (4 linked pairs, 1 right, 4 in the labels)',
  'b-cubed: precision 0.750 recall 0.708 F1 0.729',
];
const EXTENDED = [
  'pairwise: precision 1.000 recall 0.500 F1 0.667 (2 linked pairs, 2 right, 4 in the labels)',
  'b-cubed: precision 1.000 recall 0.833 F1 0.909',
];

/** The heading and the two figure lines of each profile printed. */
function figures(out: string): string[][] {
  const lines = out.split('\n');
  return lines.flatMap((line, i) => (/ profile, /.test(line) ? [[line, lines[i + 1]!, lines[i + 2]!]] : []));
}

test('files with CSV labels: both profiles by default, wrong groups and split works named', async (t) => {
  const run = await evaluate(['--gold', CSV_LABELS, JSONL, MARCXML]);
  t.is(run.code, EXIT_OK, run.err);
  t.deepEqual(figures(run.out), [
    ['vufind profile, keys computed from 2 files: 8 labelled records of 5 works scored', ...VUFIND],
    ['extended profile, keys computed from 2 files: 8 labelled records of 5 works scored', ...EXTENDED],
  ]);
  t.is(run.out.split('left out: 1 record without a label; 1 label naming no record read (withdrawn-record)\n').length, 3, 'said for each profile');
  const [vufind, extended] = run.out.split('\nextended profile');
  t.true(vufind!.includes(
    '  beethoven-concertos "The five piano concertos" [beethoven-piano-concertos] lists 3, 2 records of other works:\n' +
    '      chopin-concertos "Piano concertos nos. 1 & 2" [chopin-piano-concertos] by UT concertospiano\n' +
    '      rachmaninoff-concertos "The piano concertos" [rachmaninoff-piano-concertos] by UT concertospiano\n'), vufind);
  t.is(vufind!.split(' of other works:').length, 2, 'the concertos listing each other are one wrong group, shown once');
  t.true(vufind!.includes(
    '  [tolkien-hobbit] 3 records, 2 pairs sharing no key:\n' +
    '      hobbit-2012 "The hobbit" leaves out 2: AT tolkienjohnronaldreuel18921973 thehobbit; AT tolkienjohnronaldreuel18921973 hobbit\n'), vufind);
  t.true(vufind!.includes('  [austen-pride] 2 records, 1 pair sharing no key:\n'));
  t.true(extended!.includes('(a record whose versions list holds records of other works, and the keys that joined them):\n  none\n'), extended);
  t.false(extended!.includes('[austen-pride]'), 'extended lists the two Prides together');
  t.regex(run.err, /concertos-novels-and-a-repeated-id\.jsonl:6: id "hobbit-1937" came earlier; this record replaces it/);
  t.is(run.err.split('came earlier').length, 2, 'told once, not once per profile');
});

test('JSON Lines labels and one profile give the same figures', async (t) => {
  const run = await evaluate(['--gold', JSONL_LABELS, '--key-profile', 'extended', JSONL, MARCXML]);
  t.is(run.code, EXIT_OK, run.err);
  t.deepEqual(figures(run.out), [['extended profile, keys computed from 2 files: 8 labelled records of 5 works scored', ...EXTENDED]]);
  const vufind = await evaluate(['--gold', JSONL_LABELS, '--key-profile', 'vufind', JSONL, MARCXML]);
  t.deepEqual(figures(vufind.out).map((lines) => lines.slice(1)), [VUFIND]);
});

test('--db scores the index\'s keys, its merge and split applied', async (t) => {
  const dir = tempDir(t, 'catalog-versions-evaluate-');
  const db = join(dir, 'catalog.sqlite');
  const sources = [JSONL, MARCXML].map((path, i) => {
    const copy = join(dir, `source-${i}${i === 0 ? '.jsonl' : '.xml'}`);
    copyFileSync(path, copy);
    return copy;
  });
  const c = capture();
  t.is(await runCli(['load', ...sources, '--db', db, '--no-progress', '--key-profile', 'vufind'], c.io), EXIT_OK, c.err());
  const before = await evaluate(['--gold', CSV_LABELS, '--db', db]);
  t.deepEqual(figures(before.out), [[`vufind profile, the keys of ${db} (no grouping decisions): 8 labelled records of 5 works scored`, ...VUFIND]], 'the index holds the keys the files give');
  for (const args of [
    ['merge', 'hobbit-1937', 'hobbit-1995', 'hobbit-2012', '--note', 'one novel, the author spelt two ways'],
    ['split', 'chopin-concertos', '--note', '"Concertos, piano" is no work'],
  ]) {
    const decision = capture();
    t.is(await runCli(['works', ...args, '--db', db, '--by', 'anna'], decision.io), EXIT_OK, decision.err());
  }
  // The merge links the three Hobbits (3 right pairs); the split leaves Beethoven and Rachmaninoff
  // linked (1 wrong pair), Chopin alone. Pairwise 3/4, 3/4. B-cubed precision (1/2 + 1/2 + 1 + 1 + 1 +
  // 3·1)/8 = 7/8, recall (1 + 1 + 1 + 1/2 + 1/2 + 3·1)/8 = 7/8.
  const after = await evaluate(['--gold', CSV_LABELS, '--db', db]);
  t.is(after.code, EXIT_OK, after.err);
  t.deepEqual(figures(after.out), [[
    `vufind profile, the keys of ${db} (2 grouping decisions applied): 8 labelled records of 5 works scored`,
    'pairwise: precision 0.750 recall 0.750 F1 0.750 (4 linked pairs, 3 right, 4 in the labels)',
    'b-cubed: precision 0.875 recall 0.875 F1 0.875',
  ]]);
  t.true(after.out.includes('left out: 1 record without a label; 1 label naming no record read (withdrawn-record)\n'), after.out);
  t.true(after.out.includes('      rachmaninoff-concertos "The piano concertos" [rachmaninoff-piano-concertos] by UT concertospiano\n'));
  t.false(after.out.includes('[tolkien-hobbit]'), 'the Hobbits are no longer split');
});

test('a wrong command line is a usage error naming the mistake', async (t) => {
  const cases: Array<[string[], RegExp]> = [
    [[JSONL], /works evaluate needs --gold LABELS/],
    [['--gold', CSV_LABELS], /works evaluate needs record FILEs to key, or --db INDEX/],
    [['--gold', CSV_LABELS, '--key-profile', 'vufnid', JSONL], /--key-profile needs vufind, extended or both, not "vufnid"/],
    [['--gold', CSV_LABELS, '--db', 'catalog.sqlite', JSONL], /works evaluate scores FILE… or --db INDEX, not both/],
    [['--gold', CSV_LABELS, '--db', 'catalog.sqlite', '--key-profile', 'vufind'], /--key-profile applies to FILE… only/],
    [['--gold', CSV_LABELS, '--top', '0', JSONL], /--top needs a whole number of 1 or more/],
    [['--gold', CSV_LABELS, '--note', 'n', JSONL], /--note applies to works merge and split only/],
  ];
  for (const [args, message] of cases) {
    const run = await evaluate(args);
    t.is(run.code, EXIT_USAGE, args.join(' '));
    t.regex(run.err, message);
    t.true(run.err.includes('Usage: catalog-versions works evaluate --gold LABELS'), 'with the usage of evaluate');
  }
  const other = capture();
  t.is(await runCli(['works', 'list', '--db', 'catalog.sqlite', '--gold', CSV_LABELS], other.io), EXIT_USAGE);
  t.regex(other.err(), /--gold applies to works evaluate only/);
  const help = capture();
  t.is(await runCli(['works', 'evaluate', '--help'], help.io), EXIT_OK);
  t.regex(help.out(), /^Usage: catalog-versions works evaluate/);
});

test('failures name the file, the line or the index; rejected records give exit 2', async (t) => {
  const dir = tempDir(t, 'catalog-versions-evaluate-');
  const labels = join(dir, 'labels.csv');
  writeFileSync(labels, 'id,work\nhobbit-1937,tolkien-hobbit\nhobbit-2012;tolkien-hobbit\n');
  let run = await evaluate(['--gold', labels, JSONL]);
  t.is(run.code, EXIT_FAILED);
  t.is(run.err, `catalog-versions: works evaluate: ${labels}:3: 1 field; a line is id,work (WORK_LABELS_INVALID)\n`);
  t.is(run.out, '');
  run = await evaluate(['--gold', join(dir, 'no-such-labels.csv'), JSONL]);
  t.is(run.code, EXIT_FAILED);
  t.regex(run.err, /cannot read the labels .*no-such-labels\.csv: ENOENT/);
  run = await evaluate(['--gold', CSV_LABELS, join(dir, 'no-such-records.mrc')]);
  t.is(run.code, EXIT_FAILED);
  t.regex(run.err, /cannot read .*no-such-records\.mrc/);
  run = await evaluate(['--gold', CSV_LABELS, labels]);
  t.is(run.code, EXIT_FAILED);
  t.is(run.err, `catalog-versions: ${labels} is none of the formats read here (JSON Lines record documents, MARC 21 (ISO 2709), MARCXML)\n`);
  // As load checks its files: a compressed or an empty file says what it is (no --format or --allow-empty here).
  const gzipped = join(dir, 'export.mrc');
  writeFileSync(gzipped, gzipSync(readFileSync(JSONL)));
  run = await evaluate(['--gold', CSV_LABELS, gzipped]);
  t.is(run.code, EXIT_FAILED);
  t.regex(run.err, /export\.mrc is gzip-compressed: decompress it first/);
  const empty = join(dir, 'empty.mrc');
  writeFileSync(empty, '');
  run = await evaluate(['--gold', CSV_LABELS, empty]);
  t.is(run.code, EXIT_FAILED);
  t.is(run.err, `catalog-versions: ${empty} is empty (0 bytes): nothing to load\n`);
  run = await evaluate(['--gold', CSV_LABELS, '--db', join(dir, 'typo.sqlite')]);
  t.is(run.code, EXIT_FAILED);
  t.regex(run.err, /typo\.sqlite does not exist/);

  const withBadLine = join(dir, 'with-a-record-without-id.jsonl');
  writeFileSync(withBadLine, '{"id": "hobbit-1937", "title": "The hobbit", "author": "Tolkien, J. R. R."}\n{"title": "The hobbit", "author": "Tolkien, J. R. R."}\n{"id": "hobbit-2012", "title": "The hobbit", "author": "Tolkien, J. R. R."}\n');
  run = await evaluate(['--gold', CSV_LABELS, withBadLine]);
  t.is(run.code, EXIT_REJECTED_LINES, run.err);
  t.regex(run.err, /with-a-record-without-id\.jsonl:2: /);
  t.is(run.err.split('\n').filter((line) => line !== '').length, 1, 'the rejection told once for both profiles');
  t.true(run.out.includes('pairwise: precision 1.000 recall 1.000 F1 1.000 (1 linked pairs, 1 right, 1 in the labels)'), run.out);
  t.true(run.out.includes('left out: 7 labels naming no record read (beethoven-concertos, chopin-concertos, rachmaninoff-concertos, pride-1813, pride-2003, …)'), run.out);
});
