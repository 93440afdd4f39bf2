/**
 * The one SolrMarc field-specification reader (src/marc/marcFieldSpec.ts), form by form, as
 * SolrMarc's documentation and VuFind's import/marc.properties write them, on one record with repeated
 * fields and subfields. SolrMarc's own rules (`solrMarcValues`) and VuFind's FieldSpecTools
 * (`fieldSpecValues`, which always joins and reads fields in record order) are checked side by side.
 */
import test from 'ava';
import { InvalidArgumentError } from '../../src/errors.js';
import { fieldSpecValues, parseFieldSpec, solrMarcValues } from '../../src/marc/marcFieldSpec.js';
import type { MarcRecord } from '../../src/marc/marcRecord.js';
import { dataField as df } from '../support/marcFields.js';

/** A record of a recording with two 650s, repeated $a and $x, two URLs in 856 and one in 555 before them. */
const recording: MarcRecord = {
  leader: '01234njm a2200301 a 4500',
  fields: [
    { tag: '001', value: 'rec-0042' },
    { tag: '008', value: '950612s1994    nyumun   fi   n     eng d' },
    df('100', '1 ', '$aDavis, Miles,$d1926-1991.$eperformer.'),
    df('245', '10', '$aKind of blue /$cMiles Davis.$bremastered'),
    df('245', '00', '$aSecond 245$bignored by first'),
    df('555', '  ', '$uhttps://finding.example.org/aid'),
    df('650', ' 0', '$aJazz$x1951-1960.$aModal jazz$x$xHistory'),
    df('650', ' 0', '$aTrumpet music'),
    df('856', '40', '$uhttps://a.example.org/1$uhttps://a.example.org/2$zOnline'),
  ],
};

const SOLRMARC_FORMS: ReadonlyArray<readonly [string, string[], string]> = [
  ['245ab', ['Kind of blue / remastered', 'Second 245 ignored by first'], 'several codes: one value per field, subfields in field order'],
  ['245ab, first', ['Kind of blue / remastered'], 'first: the first value only'],
  ['245a, first', ['Kind of blue /'], 'first with one code'],
  ['650a', ['Jazz', 'Modal jazz', 'Trumpet music'], 'one code: each subfield its own value'],
  ['650aa', ['Jazz Modal jazz', 'Trumpet music'], 'one code repeated: the field\'s subfields joined'],
  ['650ax', ['Jazz 1951-1960. Modal jazz  History', 'Trumpet music'], 'an empty subfield keeps its separator'],
  ['650[a-x]', ['Jazz 1951-1960. Modal jazz  History', 'Trumpet music'], 'a bracketed pattern of codes'],
  ['650ax, join(" -- ")', ['Jazz -- 1951-1960. -- Modal jazz --  -- History', 'Trumpet music'], 'join: the separator'],
  ['100', ['Davis, Miles, 1926-1991. performer.'], 'a tag alone: every subfield'],
  ['856u:555u', ['https://a.example.org/1', 'https://a.example.org/2', 'https://finding.example.org/aid'], 'parts in the order named, not record order'],
  ['008[35-37]', ['eng'], 'character positions of a control field'],
  ['000[6]', ['j'], 'one position of the leader'],
  ['001', ['rec-0042'], 'a control field whole'],
  ['700a', [], 'a tag the record lacks'],
];

for (const [spec, expected, rule] of SOLRMARC_FORMS) {
  test(`SolrMarc ${spec}: ${rule}`, (t) => {
    t.deepEqual(solrMarcValues(recording, spec), expected);
  });
}

test('FieldSpecTools (keys and authors): one code is joined too, fields come in record order, each value once', (t) => {
  t.deepEqual(fieldSpecValues(recording, '650a'), ['Jazz Modal jazz', 'Trumpet music']);
  t.deepEqual(fieldSpecValues(recording, '856u:555u'), ['https://finding.example.org/aid', 'https://a.example.org/1 https://a.example.org/2']);
  t.deepEqual(fieldSpecValues(recording, '245a:245a'), ['Kind of blue /', 'Second 245'], 'a tag named twice with the same codes reads once');
  t.deepEqual(fieldSpecValues(recording, '245ab', true), ['Kind of blue / remastered', 'Second 245 ignored by first'], 'ind2 0 cuts nothing');
});

test('parsing: parts, codes by tag, modifiers', (t) => {
  const spec = parseFieldSpec('240anpmr:245abn:245abn:008[35-37], first');
  t.deepEqual(spec.parts.map((part) => part.tag), ['240', '245', '245', '008']);
  t.deepEqual(spec.codesByTag.get('245'), ['abn']);
  t.deepEqual(spec.parts[3]?.positions, { first: 35, last: 37 });
  t.true(spec.first);
  t.is(spec.separator, ' ');
  t.is(parseFieldSpec('600[a-cx]').parts[0]?.codes, 'abcx');
  t.is(parseFieldSpec('245ab, join(", ")').separator, ', ');
});

test('text that is no specification is an InvalidArgumentError naming it', (t) => {
  for (const bad of ['', '24a', '245ab, last', '008[37-35]', '245$a', undefined, 42]) {
    const error = t.throws(() => parseFieldSpec(bad as string), { instanceOf: InvalidArgumentError });
    t.is(error?.code, 'INVALID_ARGUMENT');
    t.is(error?.argument, 'spec');
  }
});
