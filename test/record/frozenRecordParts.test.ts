import test from 'ava';
import { frozenRecordParts } from '../../src/record/frozenRecordParts.js';
import { frozenRecord } from '../../src/adapters/sqlite/reusedRecords.js';
import { recordFromDocument, type CatalogRecord } from '../../src/record/catalogRecord.js';

const document = { id: 'dom-casmurro-1899', title: 'Dom Casmurro', author: 'Machado de Assis', publishDate: '1899', format: 'Book' };

/** A part that names its record and variant, counting how many were made. */
function countingParts(isVariantOf?: (kept: string, record: CatalogRecord, input: { language: string }) => boolean) {
  const made: string[] = [];
  const partOf = frozenRecordParts<{ language: string }, string, { text: string }>({
    make: (record, input) => {
      made.push(`${record.id} ${input.language}`);
      return { text: `${record.title} (${input.language})` };
    },
    variantOf: (_record, input) => input.language,
    ...(isVariantOf !== undefined ? { isVariantOf } : {}),
    freeze: Object.freeze,
  });
  return { made, partOf };
}

test('a frozen record\'s part is made once per variant and given frozen', (t) => {
  const { made, partOf } = countingParts();
  const record = frozenRecord(recordFromDocument(document));
  const first = partOf(record, { language: 'en' });
  t.is(partOf(record, { language: 'en' }), first);
  t.true(Object.isFrozen(first));
  t.deepEqual(made, ['dom-casmurro-1899 en']);
  const spanish = partOf(record, { language: 'es' });
  t.is(spanish.text, 'Dom Casmurro (es)');
  t.not(partOf(record, { language: 'en' }), first, 'one variant is kept: the last one asked for');
  t.deepEqual(made, ['dom-casmurro-1899 en', 'dom-casmurro-1899 es', 'dom-casmurro-1899 en']);
});

test('a record that may change gets a new part every time', (t) => {
  const { made, partOf } = countingParts();
  const record = recordFromDocument(document);
  const first = partOf(record, { language: 'en' });
  (record as { title?: string }).title = 'Dom Casmurro: romance';
  const again = partOf(record, { language: 'en' });
  t.is(again.text, 'Dom Casmurro: romance (en)');
  t.false(Object.isFrozen(first));
  t.is(made.length, 2);
});

test('a variant is compared by the view\'s own test when it gives one', (t) => {
  // Languages compared without case: "EN" is the variant "en" was made in.
  const { made, partOf } = countingParts((kept, _record, input) => kept.toLowerCase() === input.language.toLowerCase());
  const record = frozenRecord(recordFromDocument(document));
  const first = partOf(record, { language: 'en' });
  t.is(partOf(record, { language: 'EN' }), first);
  t.not(partOf(record, { language: 'pt-br' }), first);
  t.is(made.length, 2);
});
