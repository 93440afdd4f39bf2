import test from 'ava';
import { transliterateToLatin } from '../../src/work-keys/transliterateToLatin.js';

// Expected strings for Cyrillic, Greek, Han, kana, Hangul, Arabic and Hebrew were produced with ICU 72
// (`uconv -x Any-Latin`), the transform this module stands in for. (For kana and Han, uconv must be given
// the text as \uXXXX escapes and ':: Hex-Any; :: Any-Latin;': see tools/transliteration/generateScriptTables.ts.)

test('Latin text comes back unchanged, in the normalisation form it came in', (t) => {
  t.is(transliterateToLatin('O ensino de ciências'), 'O ensino de ciências');
  const decomposed = 'Œuvres complètes; Straße — ½ « naïve »'.normalize('NFD');
  t.is(transliterateToLatin(decomposed), decomposed);
  t.is(transliterateToLatin('ab; cd'), 'ab; cd');
  t.is(transliterateToLatin(''), '');
  t.is(transliterateToLatin('  \t '), '  \t ');
});

test('Russian follows CLDR Cyrillic-Latin (ISO 9)', (t) => {
  t.is(transliterateToLatin('Война и мир'), 'Vojna i mir');
  t.is(transliterateToLatin('Преступление и наказание'), 'Prestuplenie i nakazanie');
  t.is(
    transliterateToLatin('Ёлка йод хлеб цирк чай шум щит жук юг яма эхо объём мать ы'),
    'Ëlka jod hleb cirk čaj šum ŝit žuk ûg âma ého obʺëm matʹ y',
  );
});

test('Cyrillic capitals keep their case; capital hard and soft signs get a macron below', (t) => {
  t.is(transliterateToLatin('ОБЪЁМ МАТЬ'), 'OBʺ̱ËM MATʹ̱');
  t.is(transliterateToLatin('Толстой, Лев Николаевич'), 'Tolstoj, Lev Nikolaevič');
});

test('Ukrainian, Belarusian, Serbian and Macedonian letters', (t) => {
  t.is(transliterateToLatin('Україна Їжак єдність ґанок'), 'Ukraí̈na Í̈žak êdnístʹ g̀anok');
  t.is(transliterateToLatin('Щедрість'), 'Ŝedrístʹ');
  t.is(transliterateToLatin('Ўладзімір'), 'Ŭladzímír');
  t.is(transliterateToLatin('Љубав Њ Ћ Џ Ј ђ Ђорђе'), 'L̂ubav N̂ Ć D̂ J̌ đ Đorđe');
  t.is(transliterateToLatin('Ѓорѓи Ќерка Ѕвезда'), 'Ǵorǵi Ḱerka Ẑvezda');
});

test('a mark that arrives on its own stays apart from the Latin letter, as in ICU', (t) => {
  // ѓ is г + acute. Precomposed, the acute is part of the letter (ǵ); as a separate mark it is outside
  // CLDR's filter, so ICU leaves it uncomposed. Breve and diaeresis are inside the filter: й is still j.
  t.is(transliterateToLatin('ѓ'.normalize('NFD')), 'g\u0301');
  t.is(transliterateToLatin('Война'.normalize('NFD')), 'Vojna');
  t.is(transliterateToLatin('ёж'.normalize('NFD')), 'ëž');
});

test('Cyrillic letters outside the CLDR table stay as they are', (t) => {
  t.is(transliterateToLatin('ң ө ү һ'), 'ң ө ү һ');
});

test('Greek with accents and breathings', (t) => {
  t.is(transliterateToLatin('Ὀδύσσεια'), 'Odýsseia');
  t.is(transliterateToLatin('Ὀδύσσεια'.normalize('NFD')), 'Ody\u0301sseia');
  t.is(transliterateToLatin('ὁ οἱ Αὐτός εὑρίσκω ῥήτωρ Ῥόδος'), 'ho hoi Autós heurískō rhḗtōr Rhódos');
  t.is(transliterateToLatin('Ἑλλάς ἙΛΛΑΣ Ὁ ΟἹ Οἱ'), 'Hellás HELLAS HO HOI Hoi');
  // A capital with rough breathing and no lower case after it is written all in capitals.
  t.is(transliterateToLatin('Ἡ Ὀδύσσεια τοῦ Ὁμήρου'), 'HĒ Odýsseia toû Homḗrou');
});

test('Greek nasal gamma, diphthongs and β', (t) => {
  t.is(transliterateToLatin('ἄγγελος Ἄγκυρα σφίγξ ἔλεγχος'), 'ángelos Ánkyra sphínx élenchos');
  // CLDR writes υ as u only right after a vowel letter; η is written ē, so ηυ gives ēy.
  t.is(transliterateToLatin('αυ ευ ηυ ου'), 'au eu ēy ou');
  // CLDR Greek-Latin is the classical scheme: β is b, not the modern v.
  t.is(transliterateToLatin('βιβλίον'), 'biblíon');
});

test('Greek iota subscript and capital digraphs', (t) => {
  t.is(transliterateToLatin('ᾳ τῷ ᾅ ᾼ'), 'āi tō̂i hā́i ĀI');
  t.is(
    transliterateToLatin('Θεός ΘΕΟΣ Φίλιππος Χάος ΧΑΟΣ Ψαλμοί ΨΑΛΜΟΙ'),
    'Theós THEOS Phílippos Cháos CHAOS Psalmoí PSALMOI',
  );
});

test('Greek sigmas and punctuation', (t) => {
  t.is(transliterateToLatin('λόγος'), 'lógos');
  t.is(transliterateToLatin('Πσ'), "P's̱");
  t.is(transliterateToLatin('Τί\u037E'), 'Tí?');
  // ICU hands the punctuation between two runs to the Greek run after it too.
  t.is(transliterateToLatin('Tolkien; Ὀδύσσεια'), 'Tolkien? Odýsseia');
});

test('mixed scripts keep their order and the Latin parts', (t) => {
  t.is(transliterateToLatin('Tolstoj: Война и мир (1869)'), 'Tolstoj: Vojna i mir (1869)');
  t.is(transliterateToLatin('Homer, Ὀδύσσεια, Одиссея'), 'Homer, Odýsseia, Odisseâ');
});

test('Han follows ICU Han-Latin: toned pinyin, a space between syllables', (t) => {
  t.is(transliterateToLatin('战争与和平'), 'zhàn zhēng yǔ hé píng');
  t.is(transliterateToLatin('Murakami, Haruki 村上春樹'), 'Murakami, Haruki cūn shàng chūn shù');
  t.is(transliterateToLatin('漢字「文」'), 'hàn zì 「wén」');
  // Characters ICU has no reading for stay as they are.
  t.is(transliterateToLatin('𠁞'), '𠁞');
});

test('Han pairs ICU reads differently, and enclosed ideographs folded inside a Han run', (t) => {
  t.is(transliterateToLatin('藏'), 'cáng');
  t.is(transliterateToLatin('西藏文学'), 'xī zàng wén xué');
  t.is(transliterateToLatin('重庆 重要'), 'chóng qìng zhòng yào');
  t.is(transliterateToLatin('秘鲁'), 'bì lǔ');
  t.is(transliterateToLatin('中㊥ 一㈠'), 'zhōng zhōng yī (yī)');
});

test('kana follow ICU Katakana-Latin: long vowels, small tsu, small ya/yu/yo, iteration marks', (t) => {
  t.is(transliterateToLatin('コーヒー'), 'kōhī');
  t.is(transliterateToLatin('きっぷ'), 'kippu');
  t.is(transliterateToLatin('ちゃんと'), 'chanto');
  t.is(transliterateToLatin('いすゞ こゝろ'), 'isuzu kokoro');
  t.is(transliterateToLatin('ンア'), "n'a");
  t.is(transliterateToLatin('ヴァイオリン'), 'vu~aiorin');
  t.is(transliterateToLatin('ノルウェイの森'), 'noruu~eino sēn');
  // Half-width katakana are read as full-width ones.
  t.is(transliterateToLatin('ﾊﾟｰﾃｨｰ'), 'pātī');
  // A hiragana letter completed by the katakana after it, across the two runs, as ICU reads it.
  t.is(transliterateToLatin('きャ'), 'kya');
});

test('kana quirks ICU has on NFD text are kept: its hiragana filter leaves out the semi-voiced mark', (t) => {
  t.is(transliterateToLatin('ぱ'), 'pa');
  t.is(transliterateToLatin('ぱ'.normalize('NFD')), 'ha\u309A');
  t.is(transliterateToLatin('きっぷ'.normalize('NFD')), 'kipfu\u309A');
});

test('Hangul follows ICU Hangul-Latin, without the hyphens ICU puts between some syllables', (t) => {
  // ICU writes jeonjaeng-gwa and hangug-eo; work keys drop the hyphen either way.
  t.is(transliterateToLatin('전쟁과 평화'), 'jeonjaenggwa pyeonghwa');
  t.is(transliterateToLatin('한국어'.normalize('NFD')), 'hangugeo');
  t.is(transliterateToLatin('ㄱㄴㄷ'), 'gnd');
});

test('Arabic follows ICU Arabic-Latin, with long vowels and Arabic-Indic digits', (t) => {
  t.is(transliterateToLatin('مرحبا'), 'mrḥbạ');
  t.is(transliterateToLatin('كِتَابٌ'), 'kitābuⁿ');
  t.is(transliterateToLatin('ألف ليلة وليلة'), 'ạ̉lf lylẗ wlylẗ');
  t.is(transliterateToLatin('١٩٩٩'), '1999');
  // Extended (Persian, Urdu) digits carry a macron below, as in ICU.
  t.is(transliterateToLatin('۱۳۹۹'), '1\u03313\u03319\u03319\u0331');
});

test('Hebrew follows ICU Hebrew-Latin, with and without points', (t) => {
  t.is(transliterateToLatin('ספר הזוהר'), 'spr hzwhr');
  t.is(transliterateToLatin('שָׁלוֹם'), 'şá̌lwòm');
  t.is(transliterateToLatin('שָׁלוֹם'.normalize('NFD')), 'şá̌lwòm');
});

test('scripts ICU has no transliterator for stay as they are, as in ICU', (t) => {
  for (const text of ['བོད་ཡིག', 'ខ្មែរ', 'ᏣᎳᎩ']) t.is(transliterateToLatin(text), text);
  t.is(transliterateToLatin('ខ្មែរ / 中'), 'ខ្មែរ / zhōng');
});

test('other scripts ICU transliterates go through the any-ascii fallback, whatever their normalisation form', (t) => {
  for (const text of ['Հայաստան', 'საქართველო', 'हिन्दी', 'ภาษาไทย']) {
    const latin = transliterateToLatin(text);
    t.regex(latin, /^[A-Za-z' ]+$/, text);
    t.is(transliterateToLatin(text.normalize('NFD')), latin, text);
  }
});
