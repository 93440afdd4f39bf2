/**
 * Reading `works evaluate --gold` labels (src/work-keys/curation/workLabels.ts): both forms, the header
 * line, quoting, line ends, and each refusal naming the file and line.
 */
import test from 'ava';
import { InvalidWorkLabelsError } from '../../../src/errors.js';
import { parseWorkLabels } from '../../../src/work-keys/curation/workLabels.js';

const entries = (text: string) => [...parseWorkLabels(text, 'labels.csv')];

test('CSV: a header line allowed, quoted fields, CRLF, a byte-order mark and blank lines', (t) => {
  t.deepEqual(entries('id,work\nhobbit-1937,tolkien-hobbit\nhobbit-2012,tolkien-hobbit\n'), [['hobbit-1937', 'tolkien-hobbit'], ['hobbit-2012', 'tolkien-hobbit']]);
  t.deepEqual(entries('\uFEFFhobbit-1937,tolkien-hobbit\r\n\r\n"pride, 1813","Austen, ""Pride"""\r\n'), [['hobbit-1937', 'tolkien-hobbit'], ['pride, 1813', 'Austen, "Pride"']]);
  t.deepEqual(entries('ID, Work\n id-1 , w \n'), [['id-1', 'w']], 'the header in any case; fields trimmed');
  t.deepEqual(entries('a,w\na,w\n'), [['a', 'w']], 'the same label twice is one label');
});

test('JSON Lines: id and work, numbers taken as text, other members ignored', (t) => {
  const text = '{"id": "pride-1813", "work": "austen-pride", "title": "Pride and prejudice"}\n\n{"id": 17, "work": 4}\n';
  t.deepEqual([...parseWorkLabels(text, 'labels.jsonl')], [['pride-1813', 'austen-pride'], ['17', '4']]);
});

test('a wrong labels file is refused, naming the file and the line', (t) => {
  const cases: Array<[string, string, RegExp]> = [
    ['labels.jsonl', '{"id": "a", "work": "w"}\n{"id": "b", "work": "w"\n', /^labels\.jsonl:2: not JSON/],
    ['labels.jsonl', '{"id": "a", "work": "w"}\n["b", "w"]\n', /^labels\.jsonl:2: not a JSON object/],
    ['labels.jsonl', '{"id": "a", "work": ""}\n', /^labels\.jsonl:1: "work" must be a non-empty string/],
    ['labels.csv', 'id,work\na,w\nb,w,extra\n', /^labels\.csv:3: 3 fields; a line is id,work/],
    ['labels.csv', 'a\n', /^labels\.csv:1: 1 field; a line is id,work/],
    ['labels.csv', 'a,w\n"b,w\n', /^labels\.csv:2: a quoted field is not closed/],
    ['labels.csv', 'a,"w"x\n', /^labels\.csv:1: text after a quoted field/],
    ['labels.csv', 'a,hamlet\nb,hamlet\na,macbeth\n', /^labels\.csv:3: id "a" is labelled "macbeth" here and "hamlet" on line 1/],
    ['labels.csv', ' \n\n', /^labels\.csv: holds no labels/],
    ['labels.csv', 'id,work\n', /^labels\.csv: holds no labels, only its header line/],
  ];
  for (const [file, text, message] of cases) {
    const error = t.throws(() => parseWorkLabels(text, file), { instanceOf: InvalidWorkLabelsError, message }, text);
    t.is(error?.code, 'WORK_LABELS_INVALID');
    t.is(error?.file, file);
  }
});
