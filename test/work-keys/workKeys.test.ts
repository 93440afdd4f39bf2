import test from 'ava';
import fc from 'fast-check';
import { normaliseForWorkKey, workKeysOfRecord, workKeysOf } from '../../src/work-keys/workKeys.js';
import { transliterateToLatin } from '../../src/work-keys/transliterateToLatin.js';
import { recordFromDocument, type CatalogRecord, type RecordDocument } from '../../src/record/catalogRecord.js';
import { assertPropertyHeld } from '../support/propertyRuns.js';

type Parts = Pick<CatalogRecord, 'title' | 'uniformTitles' | 'authors' | 'secondaryAuthors' | 'corporateAuthors'>;

function record(parts: Partial<Parts>): Parts {
  return { uniformTitles: [], authors: [], secondaryAuthors: [], corporateAuthors: [], ...parts };
}

// Expected normalised forms of non-Latin text were checked with ICU 72:
// uconv -x ':: NFD; :: Lower; :: Any-Latin; :: [^[:letter:][:number:]] Remove; :: NFKC; :: Lower;'

test('normalising: the examples of the spec', (t) => {
  t.is(normaliseForWorkKey('Tolkien, J. R. R.'), 'tolkienjrr');
  t.is(normaliseForWorkKey('The Hobbit'), 'thehobbit');
  t.is(normaliseForWorkKey('O ensino de ciências'), 'oensinodeciencias');
  t.is(normaliseForWorkKey('Bible. Portuguese. 1990'), 'bibleportuguese1990');
  t.is(normaliseForWorkKey('Война и мир'), 'vojnaimir');
  t.is(normaliseForWorkKey('Ὀδύσσεια'), 'odysseia');
});

test('normalising drops accents but keeps letters that have no decomposition', (t) => {
  t.is(normaliseForWorkKey('Ação, Pão & Café'), 'acaopaocafe');
  t.is(normaliseForWorkKey('Œuvres complètes'), 'œuvrescompletes');
  t.is(normaliseForWorkKey('Æsop'), 'æsop');
  t.is(normaliseForWorkKey('Straße'), 'straße');
  t.is(normaliseForWorkKey('STRASSE'), 'strasse');
  t.is(normaliseForWorkKey('ẞ'), 'ß');
  t.is(normaliseForWorkKey('Ørsted, Łódź'), 'ørstedłodz');
});

test('normalising folds compatibility forms after the filter, then lower-cases again', (t) => {
  t.is(normaliseForWorkKey('ﬁnal'), 'final');
  // Black-letter H and mathematical bold A are capitals without a lower case of their own: only the
  // last lower-casing, after NFKC has made them H and A, folds them.
  t.is(normaliseForWorkKey('ℌ𝐀'), 'ha');
  t.is(normaliseForWorkKey('x²'), 'x2');
  // ½ is a number, so the filter keeps it; NFKC then spells it 1⁄2 with a fraction slash, as in ICU.
  t.is(normaliseForWorkKey('½'), '1\u20442');
});

test('normalising removes spaces and punctuation and keeps digits', (t) => {
  t.is(normaliseForWorkKey('  Hello,   World! — «x» (2nd ed.) '), 'helloworldx2nded');
  t.is(normaliseForWorkKey('1984'), '1984');
  t.is(normaliseForWorkKey('C++ / C#: 3ª edição'), 'cc3aedicao');
});

test('normalising empty, blank or punctuation-only text gives the empty string', (t) => {
  t.is(normaliseForWorkKey(''), '');
  t.is(normaliseForWorkKey(' \t\n '), '');
  t.is(normaliseForWorkKey('— ... !?'), '');
});

test('normalising Cyrillic: Russian, Ukrainian, Serbian', (t) => {
  t.is(normaliseForWorkKey('Толстой, Лев Николаевич'), 'tolstojlevnikolaevič');
  // The soft sign becomes ʹ (U+02B9), a modifier letter, which the letter filter keeps.
  t.is(normaliseForWorkKey('Мать'), 'matʹ');
  // і is written í by the rules themselves, so its accent is part of the letter and stays.
  t.is(normaliseForWorkKey('Україна'), 'ukraína');
  t.is(normaliseForWorkKey('Ђорђе Јовановић'), 'đorđeǰovanović');
  // ѓ and ќ arrive as г/к + acute after NFD; the acute is dropped like any other accent.
  t.is(normaliseForWorkKey('Ѓорѓи Ќерка Ѕвезда'), 'gorgikerkaẑvezda');
});

test('normalising Greek with accents and breathings', (t) => {
  t.is(normaliseForWorkKey('Ἡ Ὀδύσσεια τοῦ Ὁμήρου'), 'hēodysseiatoûhomērou');
  t.is(normaliseForWorkKey('Τὰ εἰς ἑαυτόν'), 'taeisheauton');
  t.is(normaliseForWorkKey('Περὶ ψυχῆς'), 'peripsychēs');
  t.is(normaliseForWorkKey('ᾠδή'), 'ōidē');
  t.is(normaliseForWorkKey('ΣΟΦΟΚΛΗΣ'), 'sophoklēs');
});

test('normalising Han gives ICU\'s toned pinyin, whatever the spacing and punctuation', (t) => {
  const key = normaliseForWorkKey('战争与和平');
  t.is(key, 'zhànzhēngyǔhépíng');
  t.is(normaliseForWorkKey('战争 与 和平。'), key);
});

test('normalising keeps at most 255 code points', (t) => {
  t.is(normaliseForWorkKey('a'.repeat(300)), 'a'.repeat(255));
  t.is(normaliseForWorkKey('𝐀'.repeat(300)), 'a'.repeat(255));
});

test('the 255 limit counts astral characters once and never splits them', (t) => {
  // U+10107 AEGEAN NUMBER ONE: a number, two UTF-16 units, unchanged by NFKC.
  const one = '\u{10107}';
  const key = normaliseForWorkKey('a'.repeat(254) + one.repeat(3));
  t.is(key, 'a'.repeat(254) + one);
  t.is(key.length, 256);
  const astral = normaliseForWorkKey(one.repeat(300));
  t.is(Array.from(astral).length, 255);
  t.is(astral, one.repeat(255));
});

test('keys: the examples of the spec', (t) => {
  t.deepEqual(workKeysOfRecord(record({ title: 'The Hobbit', authors: ['Tolkien, J. R. R.'] })), [
    'AT tolkienjrr thehobbit',
    'AT tolkienjrr hobbit',
  ]);
  t.deepEqual(workKeysOfRecord(record({ title: 'O ensino de ciências', authors: ['Pereira, Ana Clara'] })), [
    'AT pereiraanaclara oensinodeciencias',
  ]);
  t.deepEqual(workKeysOfRecord(record({ uniformTitles: ['Bible. Portuguese. 1990'] })), ['UT bibleportuguese1990']);
  t.deepEqual(workKeysOfRecord(record({ title: 'Война и мир', authors: ['Толстой, Лев'] })), ['AT tolstojlev vojnaimir']);
});

test('keys: no author and no uniform title gives none', (t) => {
  t.deepEqual(workKeysOfRecord(record({ title: 'The Hobbit' })), []);
  t.deepEqual(workKeysOfRecord(record({})), []);
});

test('keys: no title gives uniform-title keys only', (t) => {
  t.deepEqual(workKeysOfRecord(record({ authors: ['Homer'], uniformTitles: ['Odyssey'] })), ['UT odyssey']);
  t.deepEqual(workKeysOfRecord(record({ authors: ['Homer'] })), []);
});

test('keys: only one leading English article is removed, as a whole word', (t) => {
  const titlesOf = (title: string) => workKeysOfRecord(record({ title, authors: ['X'] })).map((key) => key.slice('AT x '.length));
  t.deepEqual(titlesOf('the hobbit'), ['thehobbit', 'hobbit']);
  t.deepEqual(titlesOf('  THE HOBBIT'), ['thehobbit', 'hobbit']);
  t.deepEqual(titlesOf('A tale of two cities'), ['ataleoftwocities', 'taleoftwocities']);
  t.deepEqual(titlesOf('An essay'), ['anessay', 'essay']);
  t.deepEqual(titlesOf('The The'), ['thethe', 'the']);
  t.deepEqual(titlesOf('A An Apple'), ['aanapple', 'anapple']);
  t.deepEqual(titlesOf('The: a story'), ['theastory', 'astory']);
  t.deepEqual(titlesOf('Theory of everything'), ['theoryofeverything']);
  t.deepEqual(titlesOf('Anatomy'), ['anatomy']);
  t.deepEqual(titlesOf('An'), ['an']);
  t.deepEqual(titlesOf('Hobbit, The'), ['hobbitthe']);
  t.deepEqual(titlesOf('Os Lusíadas'), ['oslusiadas']);
  t.deepEqual(titlesOf('Die Blechtrommel'), ['dieblechtrommel']);
});

test('keys: a title that is only an article and punctuation gives no key for its stripped form', (t) => {
  t.deepEqual(workKeysOfRecord(record({ title: 'The ...', authors: ['X'] })), ['AT x the']);
});

test('keys: every author of every kind, title by title, in field order', (t) => {
  const keys = workKeysOfRecord(record({
    title: 'The Lord of the Rings',
    uniformTitles: ['Lord of the rings', 'Herr der Ringe'],
    authors: ['Tolkien, J. R. R.'],
    secondaryAuthors: ['Carroll, Wolfgang Krege'],
    corporateAuthors: ['Allen & Unwin'],
  }));
  t.deepEqual(keys, [
    'UT lordoftherings',
    'UT herrderringe',
    'AT tolkienjrr thelordoftherings',
    'AT carrollwolfgangkrege thelordoftherings',
    'AT allenunwin thelordoftherings',
    'AT tolkienjrr lordoftherings',
    'AT carrollwolfgangkrege lordoftherings',
    'AT allenunwin lordoftherings',
  ]);
});

test('keys: duplicates are dropped', (t) => {
  const keys = workKeysOfRecord(record({
    title: 'Hobbit',
    uniformTitles: ['Hobbit.', 'HOBBIT', 'Bible'],
    authors: ['Tolkien, J. R. R.', 'Tolkien, J.R.R.'],
    secondaryAuthors: ['TOLKIEN, J R R'],
  }));
  t.deepEqual(keys, ['UT hobbit', 'UT bible', 'AT tolkienjrr hobbit']);
});

test('keys: a record with very many names and uniform titles keeps each key once, in first-seen order', (t) => {
  // Past a few dozen names the distinct values are kept in a set beside the list: both must agree.
  const names = Array.from({ length: 90 }, (_, i) => `Author ${i % 60}`);
  const uniformTitles = Array.from({ length: 80 }, (_, i) => (i % 2 === 0 ? `Work ${i % 50}` : `WORK ${i % 50}.`));
  const keys = workKeysOfRecord(record({ title: 'The Collected Papers', uniformTitles, authors: names.slice(0, 45), corporateAuthors: names.slice(45) }));
  const expectedUniform = [...new Set(uniformTitles.map((title) => `UT ${normaliseForWorkKey(title)}`))];
  const expectedAuthors = [...new Set(names.map(normaliseForWorkKey))];
  const expected = [...expectedUniform, ...['thecollectedpapers', 'collectedpapers'].flatMap((title) => expectedAuthors.map((author) => `AT ${author} ${title}`))];
  t.is(expectedUniform.length, 50);
  t.is(expectedAuthors.length, 60);
  t.deepEqual(keys, expected);
});

test('keys: authors, titles and uniform titles that normalise to nothing are skipped', (t) => {
  t.deepEqual(workKeysOfRecord(record({ title: 'Dom Casmurro', authors: ['', ' — '], corporateAuthors: ['Garnier'] })), [
    'AT garnier domcasmurro',
  ]);
  t.deepEqual(workKeysOfRecord(record({ title: '...', authors: ['Assis'], uniformTitles: [' ', 'Dom Casmurro'] })), [
    'UT domcasmurro',
  ]);
});

test('keys: Greek and Cyrillic records meet their transliterated versions', (t) => {
  const greek = workKeysOfRecord(record({ title: 'Πέρσαι', authors: ['Αἰσχύλος'] }));
  t.deepEqual(greek, ['AT aischylos persai']);
  t.deepEqual(workKeysOfRecord(record({ title: 'Persai', authors: ['Aischylos'] })), greek);
  const russian = workKeysOfRecord(record({ title: 'Война и мир', authors: ['Толстой, Лев'] }));
  t.deepEqual(workKeysOfRecord(record({ title: 'Vojna i mir', authors: ['Tolstoj, Lev'] })), russian);
});

test('keys: letters the transliteration writes with a diacritic keep it, as with ICU', (t) => {
  // η comes out as ē, composed, so it passes the letter filter; a Latin ē is decomposed by the first
  // NFD and loses its macron. The two spellings do not meet, in ICU (VuFind) either.
  t.is(normaliseForWorkKey('Ὅμηρος'), 'homēros');
  t.is(normaliseForWorkKey('Homēros'), 'homeros');
});

test('keys from a document are the keys of the record it becomes', (t) => {
  const documents: RecordDocument[] = [
    { id: '1', title: 'The Hobbit', author: 'Tolkien, J. R. R.' },
    {
      id: '2',
      title: 'A Lord of the Rings',
      title_uniform: ['Lord of the rings', ''],
      author: ['Tolkien, J. R. R.', 'Tolkien, J.R.R.'],
      author2: 'Krege, Wolfgang',
      author_corporate: ['Allen & Unwin'],
    },
    { id: '3', title_uniform: 'Bible. Portuguese. 1990' },
    { id: '4' },
  ];
  for (const doc of documents) t.deepEqual(workKeysOf(doc), workKeysOfRecord(recordFromDocument(doc)), doc.id);
  t.deepEqual(workKeysOf(documents[0]!), ['AT tolkienjrr thehobbit', 'AT tolkienjrr hobbit']);
});

test('keys from a document skip values that are not strings', (t) => {
  const doc = { id: '5', title: 'Dom Casmurro', author: ['Assis, Machado de', 7, null] } as unknown as RecordDocument;
  t.deepEqual(workKeysOf(doc), ['AT assismachadode domcasmurro']);
});

test('text of the Latin blocks (U+0000–U+024F) takes a short path that gives the key the Unicode steps give', (t) => {
  const byDefinition = (s: string) => {
    const folded = transliterateToLatin(s.normalize('NFD').toLowerCase()).replace(/[^\p{L}\p{N}]/gu, '').normalize('NFKC').toLowerCase();
    return Array.from(folded).slice(0, 255).join('');
  };
  const latin = fc.integer({ min: 0, max: 0x24f }).map((code) => String.fromCharCode(code));
  // Mostly letters of the Latin-1 and Extended blocks, often beside ASCII letters and each other.
  const text = fc.array(fc.oneof(latin, fc.constantFrom('a', 'Z', ' ', '-', '0', 'ǅ', 'İ', 'ß', 'ŉ', 'ǰ', '½', 'µ', 'ª')), { maxLength: 300 }).map((units) => units.join(''));
  fc.assert(fc.property(text, (s) => normaliseForWorkKey(s) === byDefinition(s)), { numRuns: 3000 });
  for (let code = 0x80; code < 0x250; code++) {
    const s = `x${String.fromCharCode(code)}y${String.fromCharCode(code).toUpperCase()}`;
    t.is(normaliseForWorkKey(s), byDefinition(s), `U+${code.toString(16)}`);
  }
});

test('ASCII text takes a short path that gives the key the Unicode steps give', (t) => {
  // For ASCII, transliteration is the identity, so the definition reduces to these steps.
  const byDefinition = (s: string) => s.normalize('NFD').toLowerCase().replace(/[^\p{L}\p{N}]/gu, '').normalize('NFKC').toLowerCase().slice(0, 255);
  const runs = 2000;
  assertPropertyHeld(t, fc.check(fc.property(fc.string({ unit: 'binary-ascii', maxLength: 300 }), (s) => normaliseForWorkKey(s) === byDefinition(s)), { numRuns: runs }), runs);
  for (const s of ['Dom Casmurro', 'O Guarani: romance brasileiro', ' \t1984 \u007f', 'A-B_C.d']) t.is(normaliseForWorkKey(s), byDefinition(s), JSON.stringify(s));
});
