import test from 'ava';
import { InvalidCurationFileError } from '../../../src/errors.js';
import { CURATION_FILE_FORMAT, curationFileText, decisionsFromCurationFile } from '../../../src/work-keys/curation/curationFile.js';
import type { CurationDecision } from '../../../src/work-keys/curation/curationDecisions.js';

const MERGE: CurationDecision = { id: 'm1', action: 'merge', records: ['hobbit-1937', 'hobbit-2012'], by: 'anna', at: '2026-11-25T15:00:00.000Z', note: 'same novel, name spelt two ways' };
const SPLIT: CurationDecision = { id: 's2', action: 'split', records: ['chopin-concertos'], by: 'rui', at: '2026-11-25T16:30:00.000Z', note: '"Concertos, piano" is not a work' };
const LATER: CurationDecision = { id: 'm10', action: 'merge', records: ['a', 'b'], by: 'anna', at: '2026-11-26T09:00:00.000Z', note: 'n' };

test('the file holds decisions in the order taken, one record per line, and reads back the same', (t) => {
  const text = curationFileText([LATER, SPLIT, MERGE]);
  t.is(text, curationFileText([MERGE, LATER, SPLIT]), 'the same decisions give the same bytes');
  t.deepEqual(decisionsFromCurationFile(text, 'decisions.json'), [MERGE, SPLIT, LATER]);
  t.true(text.includes('\n        "hobbit-1937",\n        "hobbit-2012"\n'));
  t.true(text.endsWith('}\n'));
  t.deepEqual(decisionsFromCurationFile(curationFileText([]), 'empty.json'), []);
});

const entry = (fields: Record<string, unknown>) => JSON.stringify({ format: CURATION_FILE_FORMAT, decisions: [MERGE, { ...SPLIT, ...fields }] });

const MALFORMED: Array<{ name: string; text: string; entry: number | undefined; says: RegExp }> = [
  { name: 'not JSON', text: '{"format": ', entry: undefined, says: /not JSON/ },
  { name: 'another format', text: JSON.stringify({ decisions: [] }), entry: undefined, says: /not a grouping decisions file/ },
  { name: 'decisions not a list', text: JSON.stringify({ format: CURATION_FILE_FORMAT, decisions: {} }), entry: undefined, says: /"decisions" must be a list/ },
  { name: 'an unknown action', text: entry({ action: 'join' }), entry: 1, says: /"action" must be "merge" or "split"/ },
  { name: 'a merge id on a split', text: entry({ id: 'm2' }), entry: 1, says: /"id" of a split must be "s"/ },
  { name: 'a merge of one record', text: entry({ id: 'm2', action: 'merge', records: ['a', 'a'] }), entry: 1, says: /at least two different records/ },
  { name: 'a split of two records', text: entry({ records: ['a', 'b'] }), entry: 1, says: /exactly one record/ },
  { name: 'a record id that is not a string', text: entry({ records: [7] }), entry: 1, says: /list of record ids/ },
  { name: 'no note', text: entry({ note: '' }), entry: 1, says: /"note" must be a non-empty string/ },
  { name: 'a date that is not an instant', text: entry({ at: 'yesterday' }), entry: 1, says: /"at" must be an ISO 8601 instant/ },
  { name: 'an id given twice', text: entry({ id: 'm1', action: 'merge', records: ['a', 'b'] }), entry: 1, says: /given twice/ },
];

for (const { name, text, entry: at, says } of MALFORMED) {
  test(`a malformed decisions file is refused, naming the file and the decision: ${name}`, (t) => {
    const error = t.throws(() => decisionsFromCurationFile(text, 'groups.json'), { instanceOf: InvalidCurationFileError });
    t.is(error?.code, 'CURATION_FILE_INVALID');
    t.is(error?.entry, at);
    t.regex(error?.message ?? '', says);
    t.true(error?.message.startsWith(at === undefined ? 'groups.json: ' : `groups.json:1: decision ${at + 1}: `), error?.message);
  });
}

test('a decision at fault is named by the line it starts on, in the file as export writes it', (t) => {
  const text = curationFileText([MERGE, { ...SPLIT, note: 'a "quoted" note, with [brackets] and {braces}' }, LATER])
    .replace('"b"\n', '7\n');
  const error = t.throws(() => decisionsFromCurationFile(text, 'groups.json'), { instanceOf: InvalidCurationFileError });
  const line = text.split('\n').findIndex((l) => l.includes('"m10"')); // 0-based index of the id line: the 1-based line of its "{"
  t.is(error?.line, line);
  t.is(error?.entry, 2);
  t.true(error?.message.startsWith(`groups.json:${line}: decision 3: "records" must be a list of record ids`), error?.message);
});
