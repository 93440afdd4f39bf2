/**
 * What `catalog-versions load` draws while it runs: on a terminal, a bar with the share of the input's
 * bytes read (for MARC and MARCXML as for JSON Lines, over all the files of a load) and a line for the
 * writer's final step; without a terminal on stderr (cron), nothing but the summary line.
 */
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXIT_OK, runCli } from '../../src/cli/catalogVersions.js';
import { writeIso2709 } from '../support/writeIso2709.js';
import type { MarcRecord } from '../../src/marc/marcRecord.js';

function tempDir(t: { teardown(fn: () => unknown): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-versions-progress-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function capture(isTTY: boolean) {
  let out = '';
  let err = '';
  return {
    io: { stdout: { write: (text: string) => (out += text) }, stderr: { isTTY, columns: 100, write: (text: string) => (err += text) } },
    out: () => out,
    err: () => err,
  };
}

function book(i: number): MarcRecord {
  return {
    leader: '00000cam a2200000 a 4500',
    fields: [
      { tag: '001', value: `b${i}` },
      { tag: '100', ind1: '1', ind2: ' ', subfields: [{ code: 'a', value: `Author ${i % 37}` }] },
      { tag: '245', ind1: '1', ind2: '0', subfields: [{ code: 'a', value: `Title number ${i % 101} /` }] },
    ],
  };
}

function marcXml(from: number, to: number): string {
  const records = [];
  for (let i = from; i < to; i += 1) {
    records.push(`<record><leader>00000cam a2200000 a 4500</leader><controlfield tag="001">x${i}</controlfield>` +
      `<datafield tag="245" ind1="1" ind2="0"><subfield code="a">XML title ${i % 53}</subfield></datafield></record>`);
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<collection xmlns="http://www.loc.gov/MARC21/slim">\n${records.join('\n')}\n</collection>\n`;
}

/** The percentages drawn, in order. */
function percentages(stderr: string): number[] {
  return [...stderr.matchAll(/\r\x1b\[2K\[[#.]+\] +(\d+)% record \d+ +\d+ records\/s/g)].map((match) => Number(match[1]));
}

test('MARC and MARCXML loads draw a percentage of the bytes read, then a line for the final step', async (t) => {
  const dir = tempDir(t);
  const mrc = join(dir, 'books.mrc');
  // 64 KB chunks: the file must span several, so the bar has somewhere to go between 0 and 100.
  writeFileSync(mrc, writeIso2709(Array.from({ length: 6000 }, (_, i) => book(i))));
  const xml = join(dir, 'more.xml');
  writeFileSync(xml, marcXml(0, 3000));
  const run = capture(true);
  t.is(await runCli(['load', mrc, xml, '--db', join(dir, 'c.sqlite'), '--batch-size', '200'], run.io), EXIT_OK, run.err());
  const shown = percentages(run.err());
  t.true(shown.length >= 1, `the bar was drawn (${shown.length} times; at most ten a second)`);
  t.true(shown.some((p) => p > 0 && p < 100), `a share between 0 and 100 was shown: ${shown.join(' ')}`);
  t.deepEqual([...shown].sort((a, b) => a - b), shown, 'the share never goes back');
  t.regex(run.err(), /\r\x1b\[2Kfinishing: making the records durable and visible in the embedded index [^\r]*c\.sqlite…/);
  t.true(run.err().endsWith('\r\x1b[2K'), 'the bar is gone at the end');
  t.regex(run.out(), /^Written: 9000 new, 0 changed, 0 unchanged\.\n2 files → embedded index .* in [\d.]+ s \(\d+ records\/s\)\. 9000 read: 9000 new, 0 rejected\.\n$/);
});

test('without a terminal on stderr a load prints its summary line and no progress', async (t) => {
  const dir = tempDir(t);
  const jsonl = join(dir, 'records.jsonl');
  writeFileSync(jsonl, Array.from({ length: 3000 }, (_, i) => JSON.stringify({ id: `r${i}`, title: `T ${i % 9}`, author: 'A' })).join('\n'));
  const run = capture(false);
  t.is(await runCli(['load', jsonl, '--db', join(dir, 'c.sqlite'), '--batch-size', '100'], run.io), EXIT_OK);
  t.is(run.err(), '', 'nothing on stderr: no bar, no final-step line');
  t.regex(run.out(), /^Written: 3000 new, 0 changed, 0 unchanged\.\n[^\n]*records\.jsonl → embedded index [^\n]* in [\d.]+ s \(\d+ lines\/s\)\. 3000 read: 3000 new, 0 rejected\.\n$/, 'the summary: what was written, then the totals');
});
