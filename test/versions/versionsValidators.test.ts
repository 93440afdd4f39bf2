import test from 'ava';
import { recordFromDocument } from '../../src/record/catalogRecord.js';
import { versionsValidators } from '../../src/versions/versionsValidators.js';

const record = (id: string, lastIndexed: string) => recordFromDocument({ id, last_indexed: lastIndexed });
const a = record('a', '2025-01-01T00:00:00Z');
const b = record('b', '2025-03-01T00:00:00Z');
const base = { variant: ['rss', 'en', '1'], requestedRecord: a, versions: { total: 2, records: [b, a] } };

test('the same data gives the same weak ETag; Last-Modified is the newest last_indexed', (t) => {
  const first = versionsValidators(base);
  t.regex(first.etag, /^W\/"[A-Za-z0-9_-]{27}"$/);
  t.is(versionsValidators(base).etag, first.etag);
  t.is(first.lastModified.toISOString(), '2025-03-01T00:00:00.000Z');
});

test('a re-indexed version, another total, page, language or order changes the ETag', (t) => {
  const etag = versionsValidators(base).etag;
  const variants = [
    { ...base, versions: { total: 2, records: [record('b', '2025-03-02T00:00:00Z'), a] } },
    { ...base, versions: { total: 3, records: [b, a] } },
    { ...base, versions: { total: 2, records: [a, b] } },
    { ...base, variant: ['rss', 'es', '1'] },
    { ...base, variant: ['rss', 'en', '2'] },
    { ...base, variant: ['rss', 'en1', ''] },
  ];
  for (const variant of variants) t.not(versionsValidators(variant).etag, etag);
});
