import test from 'ava';
import { canonicalIdentifier, identifierOfText } from '../../../src/work-keys/extended/manifestationIdentifiers.js';
import type { StatedIdentifier } from '../../../src/work-keys/extended/workStatement.js';

const canonical: [string, StatedIdentifier, string | undefined][] = [
  ['a bare DOI, lower-cased', { scheme: 'doi', value: '10.11606/T.48.2019.tde-0412' }, '10.11606/t.48.2019.tde-0412'],
  ['a DOI resolver URL', { scheme: 'doi', value: 'https://doi.org/10.11606/T.48.2019.tde-0412' }, '10.11606/t.48.2019.tde-0412'],
  ['an old resolver and a doi: prefix', { scheme: 'doi', value: 'doi:10.1000/182' }, '10.1000/182'],
  ['a URL-encoded DOI', { scheme: 'doi', value: 'https://dx.doi.org/10.1000%2F182' }, '10.1000/182'],
  ['not a DOI', { scheme: 'doi', value: 'ISBN 9780395071229' }, undefined],
  ['a handle', { scheme: 'hdl', value: 'hdl:1884/34520' }, '1884/34520'],
  ['a handle resolver URL', { scheme: 'hdl', value: 'http://hdl.handle.net/1884/34520' }, '1884/34520'],
  ['a DOI given as a handle is keyed as a DOI only', { scheme: 'hdl', value: '10.1000/182' }, undefined],
];
for (const [name, identifier, expected] of canonical) {
  test(`canonicalIdentifier: ${name}`, (t) => t.is(canonicalIdentifier(identifier), expected));
}

const texts: [string, string, StatedIdentifier | undefined][] = [
  ['a DOI URL', 'https://doi.org/10.11606/T.48.2019.tde-0412', { scheme: 'doi', value: 'https://doi.org/10.11606/T.48.2019.tde-0412' }],
  ['a handle URL', 'https://hdl.handle.net/1884/34520', { scheme: 'hdl', value: 'https://hdl.handle.net/1884/34520' }],
  ['a DOI behind the handle resolver', 'https://hdl.handle.net/10.1000/182', { scheme: 'doi', value: '10.1000/182' }],
  ["a repository's own page", 'https://repositorio.usp.example.br/handle/123/4412', undefined],
  ['a URN', 'urn:nbn:de:101:1-2019', undefined],
];
for (const [name, text, expected] of texts) {
  test(`identifierOfText: ${name}`, (t) => t.deepEqual(identifierOfText(text), expected));
}
