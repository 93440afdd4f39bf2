import test from 'ava';
import { filterParameter, filtersFrom } from '../../src/versions/versionsFilters.js';

test('VuFind filter[] values: field:"value", several, each once; unknown fields and unquoted values left out', (t) => {
  t.deepEqual(filtersFrom(['language:"Portuguese"', 'format:"Book"', 'language:"Portuguese"', 'isbn:"123"', 'language:Portuguese', 'building:""']), [
    { field: 'language', value: 'Portuguese' },
    { field: 'format', value: 'Book' },
  ]);
  t.deepEqual(filtersFrom(['institution:"Biblioteca \\"Mário\\""']), [{ field: 'institution', value: 'Biblioteca "Mário"' }]);
});

test('a filter written back reads the same', (t) => {
  const filter = { field: 'institution', value: 'A "quoted" \\ name' } as const;
  t.deepEqual(filtersFrom([filterParameter(filter)]), [filter]);
  t.is(filterParameter(filter), 'institution:"A \\"quoted\\" \\\\ name"');
  t.is(filterParameter({ field: 'format', value: 'Book' }), 'format:"Book"');
  t.is(filterParameter({ field: 'building', value: 'end\\' }), 'building:"end\\\\"');
});
