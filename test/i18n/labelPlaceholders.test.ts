import test from 'ava';
import { fillPlaceholders } from '../../src/i18n/labels.js';
import { openLabelCatalogs } from '../../src/i18n/labelCatalogs.js';
import { LABELS_DIRECTORY } from '../../src/packageFiles.js';

test('placeholders are filled with their values; unknown ones and other braces stay as written', (t) => {
  const cases: Array<[string, Record<string, string | number>, string]> = [
    ['Showing {first} - {last} results of {total}', { first: 1, last: 20, total: 42 }, 'Showing 1 - 20 results of 42'],
    ['{count} of {total} versions', { count: 0, total: 3 }, '0 of 3 versions'],
    ['{a}{a}{b}', { a: 'x', b: 'y' }, 'xxy'],
    ['{known} and {unknown}', { known: 'k' }, 'k and {unknown}'],
    ['{{nested}} {} { spaced } {with-dash}', { nested: 'n', spaced: 's', 'with-dash': 'd' }, '{n} {} { spaced } {with-dash}'],
    ['no placeholders', { a: 1 }, 'no placeholders'],
    ['', { a: 1 }, ''],
    ['{toString} {constructor}', {}, '{toString} {constructor}'],
    ['{value}', { value: '$& {other} $1' , other: 'not again' }, '$& {other} $1'],
  ];
  for (const [template, params, expected] of cases) t.is(fillPlaceholders(template, params), expected, template);
});

test('a label is filled anew with each request\'s values', (t) => {
  const translate = openLabelCatalogs(LABELS_DIRECTORY, ['en'], 'en').translatorFor('en');
  const first = translate('results.showing', { first: 1, last: 20, total: 42 });
  const second = translate('results.showing', { first: 21, last: 40, total: 42 });
  t.true(first.includes('42') && first.includes('20'));
  t.true(second.includes('21') && second.includes('40'));
  t.not(first, second);
  t.is(translate('results.showing', { first: 1, last: 20, total: 42 }), first);
});
