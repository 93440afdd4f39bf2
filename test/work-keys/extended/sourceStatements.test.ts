import test from 'ava';
import { workStatementFromDocument } from '../../../src/work-keys/extended/documentWorkStatement.js';
import { workStatementFromDublinCore } from '../../../src/work-keys/extended/dublinCoreWorkStatement.js';
import { extendedWorkKeys } from '../../../src/work-keys/extended/extendedWorkKeys.js';
import { WORK_KEY_PROFILES } from '../../../src/work-keys/workKeyProfiles.js';
import { workKeysOf } from '../../../src/work-keys/workKeys.js';

const documentRows: [string, Record<string, unknown>, string[]][] = [
  [
    'title_short is the title proper; dates leave the name',
    { id: '1', title: 'Three in blue : jazz preludes', title_short: 'Three in blue', author: 'Southam, Ann, 1937-2010' },
    ['AT southamann threeinbluejazzpreludes', 'AT southamann threeinblue'],
  ],
  [
    'a uniform title goes with the main author, noted',
    { id: 'ut-pt', title: 'Cem anos de solidão', title_uniform: 'Cien años de soledad', author: 'García Márquez, Gabriel', language: 'Portuguese' },
    ['AT garciamarquezgabriel cemanosdesolidao', 'AT garciamarquezgabriel cienanosdesoledad', 'UA garciamarquezgabriel cienanosdesoledad'],
  ],
  [
    'a uniform title alone without an author',
    { id: 'ut-bible', title: 'Bíblia sagrada', title_uniform: 'Bible. Portuguese. 1990' },
    ['UT bibleportuguese1990'],
  ],
  [
    'added names only without a main author; a DOI among the urls',
    { id: 't', title: 'Relatório anual', author2: ['Souza, Maria'], author_corporate: 'Universidade de São Paulo', url: ['https://doi.org/10.1000/XYZ'] },
    ['AT souzamaria relatorioanual', 'AT universidadedesaopaulo relatorioanual', 'DOI 10.1000/xyz'],
  ],
];
for (const [name, document, expected] of documentRows) {
  test(`record document, extended: ${name}`, (t) => {
    const keys = extendedWorkKeys(workStatementFromDocument(document));
    for (const key of expected) t.true(keys.includes(key), `${key} is missing from ${JSON.stringify(keys)}`);
  });
}

test('record document: anything not an object has no keys, as workKeysOf', (t) => {
  for (const value of [null, undefined, 42, 'x']) t.deepEqual(extendedWorkKeys(workStatementFromDocument(value)), []);
});

test('Dublin Core: every title with every creator, and the DOI', (t) => {
  const keys = extendedWorkKeys(workStatementFromDublinCore({
    title: ['O ensino de ciências na educação básica: práticas e desafios', 'Science teaching in basic education'],
    creator: ['Pereira, Ana Clara', 'Lima, João'],
    identifier: ['https://repositorio.usp.example.br/handle/123/4412', 'doi:10.11606/T.48.2019.tde-0412'],
    language: ['pt-BR'],
  }));
  for (const key of [
    'AT pereiraanaclara oensinodecienciasnaeducacaobasicapraticasedesafios',
    'AT pereiraanaclara ensinodecienciasnaeducacaobasica',
    'AT limajoao oensinodecienciasnaeducacaobasicapraticasedesafios',
    'AT pereiraanaclara scienceteachinginbasiceducation',
    'AT limajoao scienceteachinginbasiceducation',
    'DOI 10.11606/t.48.2019.tde-0412',
  ]) t.true(keys.includes(key), `${key} is missing from ${JSON.stringify(keys)}`);
});

test('Dublin Core: the same thesis typed differently in two repositories shares its handle', (t) => {
  const first = extendedWorkKeys(workStatementFromDublinCore(new Map([
    ['title', ['Avaliação da aprendizagem']], ['creator', ['Costa, Rita']], ['identifier', ['http://hdl.handle.net/1884/34520']],
  ])));
  const second = extendedWorkKeys(workStatementFromDublinCore(new Map([
    ['title', ['Avaliaçao de aprendizagem no ensino médio']], ['creator', ['Costa, R.']], ['identifier', ['hdl:1884/34520']],
  ])));
  t.deepEqual(first.filter((key) => second.includes(key)), ['HDL 1884/34520']);
});

test('profiles: two, each named as its key, and vufind keys documents as workKeysOf', (t) => {
  t.deepEqual(Object.keys(WORK_KEY_PROFILES), ['vufind', 'extended']);
  for (const [key, profile] of Object.entries(WORK_KEY_PROFILES)) t.is(profile.name as string, key);
  const document = { id: '1', title: 'The Hobbit', author: 'Tolkien, J. R. R.', author2: 'Baynes, Pauline' };
  t.deepEqual(WORK_KEY_PROFILES.vufind.keysOfDocument(document), workKeysOf(document));
  t.deepEqual(WORK_KEY_PROFILES.extended.keysOfDocument(document), ['AT tolkienjrr thehobbit', 'AT tolkienjrr hobbit']);
});

test('Dublin Core: values that are not lists of strings are left out, never a TypeError', (t) => {
  const elements = { title: 'Not a list', creator: [42, 'Costa, Rita'], identifier: undefined } as unknown as Record<string, string[]>;
  t.deepEqual(extendedWorkKeys(workStatementFromDublinCore(elements)), []);
  t.deepEqual(workStatementFromDublinCore(elements).mainNames, [{ name: 'Costa, Rita', kind: 'unknown' }]);
});
