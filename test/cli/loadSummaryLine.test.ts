/**
 * The last line of a load's summary (countsText in src/cli/catalogVersions.ts), the one a cron mail
 * shows: what the records read did to the index, in the same kinds as the `Written:` line before it, so
 * that an index of 999 records loaded from 3000 never reads as "2997 loaded". Each row is the counts of a
 * load and the words it must give.
 */
import test from 'ava';
import { countsText } from '../../src/cli/ingestReport.js';
import { NO_INGEST_COUNTS, type IngestCounts } from '../../src/ingest/pipeline.js';

const ROWS: ReadonlyArray<{ readonly name: string; readonly counts: Partial<IngestCounts>; readonly text: string }> = [
  {
    name: 'a file that repeats its records three times, three of them without an id',
    counts: { read: 3000, loaded: 2997, added: 999, duplicates: 1998, rejected: 3 },
    text: '3000 read: 999 new, 1998 duplicates (last kept), 3 rejected',
  },
  { name: 'the same file reloaded, nothing changed', counts: { read: 999, loaded: 999, unchanged: 999 }, text: '999 read: 999 unchanged, 0 rejected' },
  {
    name: 'an edited export',
    counts: { read: 12, loaded: 11, added: 2, changed: 3, unchanged: 6, rejected: 1 },
    text: '12 read: 2 new, 3 changed, 6 unchanged, 1 rejected',
  },
  {
    name: 'documents that carry their own last_indexed',
    counts: { read: 7, loaded: 7, added: 2, notCompared: 5 },
    text: '7 read: 2 new, 5 with their own last_indexed, 0 rejected',
  },
  {
    name: 'withdrawn records, one the index did not hold',
    counts: { read: 3, deleted: 2, deletionsNotHeld: 1 },
    text: '3 read: 2 deleted (1 more id was not in the index), 0 rejected',
  },
  { name: 'deletions of ids the index never held', counts: { read: 2, deletionsNotHeld: 2 }, text: '2 read: 0 deleted (2 more ids were not in the index), 0 rejected' },
  { name: 'every record rejected', counts: { read: 4, rejected: 4 }, text: '4 read: nothing written, 4 rejected' },
  { name: 'an empty harvest', counts: {}, text: '0 read: nothing written, 0 rejected' },
];

for (const { name, counts, text } of ROWS) {
  test(`load summary: ${name}`, (t) => {
    t.is(countsText({ ...NO_INGEST_COUNTS, ...counts }), text);
  });
}
