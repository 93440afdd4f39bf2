import test from 'ava';
import { englishLanguageNameOf, languageNameIn } from '../../src/record/recordLanguages.js';

const cases: ReadonlyArray<readonly [value: string, en: string, ptBr: string, es: string]> = [
  ['por', 'Portuguese', 'Português', 'Portugués'],
  ['pt', 'Portuguese', 'Português', 'Portugués'],
  ['Portuguese', 'Portuguese', 'Português', 'Portugués'],
  // MARC's bibliographic codes, where ISO 639-2/T differs.
  ['fre', 'French', 'Francês', 'Francés'],
  ['ger', 'German', 'Alemão', 'Alemán'],
  ['Ancient Greek', 'Ancient Greek', 'Grego arcaico', 'Griego antiguo'],
  // Not a language Intl knows: as the catalog wrote it.
  ['Klingon (invented)', 'Klingon (invented)', 'Klingon (invented)', 'Klingon (invented)'],
  ['xyz', 'xyz', 'xyz', 'xyz'],
];

for (const [value, en, ptBr, es] of cases) {
  test(`${value} is named ${en} / ${ptBr} / ${es}`, (t) => {
    t.is(languageNameIn(value, 'en'), en);
    t.is(languageNameIn(value, 'pt-br'), ptBr);
    t.is(languageNameIn(value, 'es'), es);
  });
}

test('the MARC mapping\'s English names: codes named, no language and unknown codes left out', (t) => {
  t.is(englishLanguageNameOf('por'), 'Portuguese');
  t.is(englishLanguageNameOf(' SPA '), 'Spanish');
  t.is(englishLanguageNameOf('und'), undefined);
  t.is(englishLanguageNameOf('zxx'), undefined);
  t.is(englishLanguageNameOf('|||'), undefined);
  t.is(englishLanguageNameOf('qqq'), undefined);
});
