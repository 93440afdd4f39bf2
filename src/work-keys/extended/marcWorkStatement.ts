/**
 * What a MARC 21 record says about its work, for the `extended` work-key profile
 * (src/work-keys/extended/): field by field,
 *
 * - main entry names: 100 $a$b, 110 $a$b, 111 $a$c (VuFind's subfields); the 100's first indicator says
 *   whether the name is inverted (1) or a forename (0); of a heading with several $a (converted records:
 *   "$aDaudet, Alphonse$aextraits") only the one that is the name;
 * - added entry names: 700 $a$b, 710 $a$b, 711 $a$c, except name-title entries ($t) and analytical
 *   entries (second indicator 2), which name a work the record contains, not its own. A record with no
 *   main entry, no 130 or 240, and one name-title entry that is neither analytical nor a relationship ($i), and
 *   that is not a film (leader/06 g, whose entry names the work it is based on), names its own work there (an audiobook of "The hobbit" with `700 $a Tolkien, J. R. R. $t Hobbit`): its name is
 *   taken as the main entry and its title ($t$k$m$n$o$p$r) as the record's uniform title;
 * - titles: 245 as VuFind reads it ($a$b$n) with its title proper ($a$n$p), subtitle ($b) and non-filing
 *   count (second indicator), and its statement of responsibility ($c) where it may say an adaptation; 246 and 247 ($a$b$n) as variants;
 * - uniform titles: $a$k$m$n$o$p$r of 130 and 240 (the record's own work) and of 730. A 730 is the
 *   record's own work only when it is the one 730, there is no 130 or 240, it is not an analytical entry
 *   (second indicator 2) and has no relationship ($i: "Container of", "Based on"); otherwise a record
 *   listing several works is a compilation, not a version of each. $k and $s are kept apart to find
 *   "Selections"; $l (a translation's language) is noted;
 * - language: 008/35-37, else (a converted record without a usable 008) the first 041 $a;
 * - originals of translations: 765 $t with 765 $a, and the title a 500 note names ("Translation of:
 *   Cien años de soledad.", "Traduction de :", "Tradução de:", "Título original:", "Originaltitel:"), the
 *   way AACR2 records name it; in the language 041 $h names;
 * - identifiers: 024 with first indicator 7 and $2 `doi`, `hdl` or `handle`;
 * - whether the record is a book: leader/06 `a` or `t` and /07 `m`.
 *
 * Left to others: the rules (src/work-keys/extended/extendedWorkKeys.ts); the VuFind profile's keys
 * (src/marc/marcFieldSpec.ts, whose field helpers this reads with).
 */
import type { StatedIdentifier, StatedName, StatedOriginal, StatedTitle, StatedUniformTitle, WorkStatement } from './workStatement.js';
import { mayNameAnAdaptation } from './titleForms.js';
import { controlFieldOf, isDataField, type MarcDataField, type MarcRecord } from '../../marc/marcRecord.js';
import { joinedSubfields, nonFilingCharacterCount, trimAsJavaDoes } from '../../marc/marcFieldSpec.js';

const NAME_SUBFIELDS: Readonly<Record<string, string>> = { '00': 'ab', '10': 'ab', '11': 'ac' };
const NAME_KINDS: Readonly<Record<string, StatedName['kind']>> = { '00': 'person', '10': 'body', '11': 'meeting' };
const UNIFORM_TITLE_SUBFIELDS = 'akmnopr';

export function workStatementFromMarc(record: MarcRecord): WorkStatement {
  const mainNames: StatedName[] = [];
  const addedNames: StatedName[] = [];
  const titles: StatedTitle[] = [];
  const ownUniformTitles: MarcDataField[] = [];
  const relatedUniformTitles: MarcDataField[] = [];
  // The fields read after this pass, gathered in it (one pass over the record's fields, not one per tag).
  const nameTitles: MarcDataField[] = [];
  const translations: MarcDataField[] = [];
  const notes: MarcDataField[] = [];
  const identifierFields: MarcDataField[] = [];
  let originalLanguageField: MarcDataField | undefined;
  let languageField: MarcDataField | undefined;
  for (const anyField of record.fields) {
    if (!isDataField(anyField)) continue;
    const field = anyField;
    const tag = field.tag;
    if (tag === '100' || tag === '110' || tag === '111') {
      const name = nameOf(field);
      if (name !== undefined) mainNames.push(name);
    } else if (tag === '700' || tag === '710' || tag === '711') {
      if (hasSubfield(field, 't')) {
        nameTitles.push(field);
      } else if (field.ind2 !== '2') {
        const name = nameOf(field);
        if (name !== undefined) addedNames.push(name);
      }
    } else if (tag === '765') {
      translations.push(field);
    } else if (tag === '500') {
      notes.push(field);
    } else if (tag === '024') {
      if (field.ind1 === '7') identifierFields.push(field);
    } else if (tag === '041') {
      languageField ??= field;
      if (originalLanguageField === undefined && hasSubfield(field, 'h')) originalLanguageField = field;
    } else if (tag === '245') {
      const title = titleStatementOf(field);
      if (title !== undefined) titles.push(title);
    } else if (tag === '246' || tag === '247') {
      const text = joinedSubfields(field, 'abn');
      if (text !== undefined) titles.push({ text, nonFiling: 0, role: 'variant' });
    } else if (tag === '130' || tag === '240') {
      ownUniformTitles.push(field);
    } else if (tag === '730') {
      relatedUniformTitles.push(field);
    }
  }
  // Not a film's (leader/06 g): its name-title entry is the work it is based on ("Kandukondain kandukondain"
  // with `700 $a Austen, Jane. $t Sense and sensibility.`), not its own.
  const ownNameTitle = mainNames.length === 0 && ownUniformTitles.length === 0 && nameTitles.length === 1 && nameTitles[0]!.ind2 !== '2' && !hasSubfield(nameTitles[0]!, 'i') && record.leader.charCodeAt(6) !== 0x67 ? nameTitles[0] : undefined;
  if (ownNameTitle !== undefined) {
    const name = nameOf(ownNameTitle);
    if (name !== undefined) mainNames.push(name);
  }
  const lone730 = relatedUniformTitles.length === 1 && ownUniformTitles.length === 0 ? relatedUniformTitles[0] : undefined;
  const uniformTitles: StatedUniformTitle[] = [];
  if (ownNameTitle !== undefined) {
    const uniformTitle = uniformTitleOf(ownNameTitle, true, 'tkmnopr');
    if (uniformTitle !== undefined) uniformTitles.push(uniformTitle);
  }
  for (const field of ownUniformTitles) {
    const uniformTitle = uniformTitleOf(field, true);
    if (uniformTitle !== undefined) uniformTitles.push(uniformTitle);
  }
  for (const field of relatedUniformTitles) {
    const uniformTitle = uniformTitleOf(field, field === lone730 && field.ind2 !== '2' && !hasSubfield(field, 'i'));
    if (uniformTitle !== undefined) uniformTitles.push(uniformTitle);
  }
  const language = languageOf(record, languageField);
  const originalLanguage = originalLanguageField?.subfields.find((s) => s.code === 'h')?.value.trim().toLowerCase().slice(0, 3);
  // Most records have no translation, note or identifier field: their lists are made without the steps below.
  const originals = translations.length === 0 && notes.length === 0 ? [] : originalsOf(translations, notes, originalLanguage);
  const identifiers = identifierFields.length === 0 ? [] : identifiersOf(identifierFields);
  const isBook = isBookLeader(record.leader);
  return language !== undefined
    ? { mainNames, addedNames, titles, uniformTitles, language, originals, identifiers, isBook }
    : { mainNames, addedNames, titles, uniformTitles, originals, identifiers, isBook };
}

/** Leader/06 `a` (language material) or `t` (manuscript language material), /07 `m` (a monograph). */
function isBookLeader(leader: string): boolean {
  const type = leader.charCodeAt(6);
  return (type === 0x61 || type === 0x74) && leader.charCodeAt(7) === 0x6d;
}

/** The originals that 765 fields and translation notes (500) name. */
function originalsOf(translations: readonly MarcDataField[], notes: readonly MarcDataField[], originalLanguage: string | undefined): StatedOriginal[] {
  return [
    ...translations.flatMap((field) => {
      const title = joinedSubfields(field, 't');
      if (title === undefined) return [];
      const name = joinedSubfields(field, 'a');
      return [{ title, ...(name !== undefined ? { name } : {}), ...(originalLanguage ? { language: originalLanguage } : {}) }];
    }),
    ...notes.flatMap((field) => {
      const title = originalTitleInNote(joinedSubfields(field, 'a') ?? '');
      return title === undefined ? [] : [{ title, ...(originalLanguage ? { language: originalLanguage } : {}) }];
    }),
  ];
}

/** The DOIs and handles of 024 fields with first indicator 7. */
function identifiersOf(identifierFields: readonly MarcDataField[]): StatedIdentifier[] {
  return identifierFields.flatMap((field) => {
    const source = field.subfields.find((subfield) => subfield.code === '2')?.value.trim().toLowerCase();
    const scheme = source === 'doi' ? 'doi' : source === 'hdl' || source === 'handle' ? 'hdl' : undefined;
    const value = joinedSubfields(field, 'a');
    return scheme !== undefined && value !== undefined ? [{ scheme, value }] : [];
  });
}

function hasSubfield(field: MarcDataField, code: string): boolean {
  return field.subfields.some((subfield) => subfield.code === code && subfield.value.trim() !== '');
}

function nameOf(field: MarcDataField): StatedName | undefined {
  const type = field.tag.slice(1);
  const written = hasRepeatedName(field) ? nameOfRepeatedA(field, NAME_SUBFIELDS[type] ?? 'a') : joinedSubfields(field, NAME_SUBFIELDS[type] ?? 'a');
  if (written === undefined) return undefined;
  const name = written.includes('/') ? firstOfJoinedNames(written) : written;
  const kind = NAME_KINDS[type] ?? 'unknown';
  // Objects written out, not spread: a spread of an optional member costs more than reading the field.
  if (kind === 'person' && (field.ind1 === '1' || field.ind1 === '0')) return { name, kind, surnameFirst: field.ind1 === '1' };
  return { name, kind };
}

/** The field has more than one $a (records converted from UNIMARC or older systems). */
function hasRepeatedName(field: MarcDataField): boolean {
  let count = 0;
  for (const subfield of field.subfields) if (subfield.code === 'a' && ++count > 1) return true;
  return false;
}

/**
 * The name of a heading with several $a, where a converted record put a part designation ("extraits")
 * or a stray subtitle beside the name: the first $a written as an inverted name (with a comma), else the
 * first $a, with the field's other name subfields ($b, $c). One bad subfield does not cost the record its
 * author, nor does it become a part of the author's name.
 */
export function nameOfRepeatedA(field: MarcDataField, codes: string): string | undefined {
  const names = field.subfields.filter((subfield) => subfield.code === 'a' && subfield.value.trim() !== '');
  const chosen = names.find((subfield) => subfield.value.includes(',')) ?? names[0];
  if (chosen === undefined) return undefined;
  const others = joinedSubfields(field, codes.replace('a', ''));
  const name = trimAsJavaDoes(chosen.value);
  return others === undefined ? name : `${name} ${others}`;
}

/**
 * The first of several names an older system wrote into one heading, joined by a slash ("Lovecraft, H.
 * P./ Herrmann, Edward (NRT)": the author and the reader of an audiobook) — the first is the main entry.
 */
export function firstOfJoinedNames(name: string): string {
  const first = name.slice(0, name.indexOf('/')).trim();
  return first === '' ? name : first;
}

function titleStatementOf(field: MarcDataField): StatedTitle | undefined {
  const text = joinedSubfields(field, 'abn');
  if (text === undefined) return undefined;
  const titleProper = joinedSubfields(field, 'anp');
  const subtitle = joinedSubfields(field, 'b');
  const nonFiling = nonFilingCharacterCount(field);
  const title: StatedTitle = titleProper !== undefined
    ? subtitle !== undefined
      ? { text, titleProper, subtitle, nonFiling, role: 'title-statement' }
      : { text, titleProper, nonFiling, role: 'title-statement' }
    : subtitle !== undefined ? { text, subtitle, nonFiling, role: 'title-statement' } : { text, nonFiling, role: 'title-statement' };
  // Most title statements' $c names the author only: it is read only when it may say an adaptation.
  const mayAdapt = field.subfields.some((subfield) => subfield.code === 'c' && mayNameAnAdaptation(subfield.value));
  const responsibility = mayAdapt ? joinedSubfields(field, 'c') : undefined;
  return responsibility !== undefined ? { ...title, responsibility } : title;
}

function uniformTitleOf(field: MarcDataField, own: boolean, codes = UNIFORM_TITLE_SUBFIELDS): StatedUniformTitle | undefined {
  const text = joinedSubfields(field, codes);
  if (text === undefined) return undefined;
  const language = joinedSubfields(field, 'l');
  return {
    text,
    // A name-title entry's $t has no non-filing indicator.
    nonFiling: codes === UNIFORM_TITLE_SUBFIELDS ? nonFilingCharacterCount(field) : 0,
    role: own ? 'own' : 'related',
    formAndVersion: field.subfields.filter((subfield) => subfield.code === 'k' || subfield.code === 's').map((subfield) => trimAsJavaDoes(subfield.value)),
    ...(language !== undefined ? { language } : {}),
  };
}

/** A note that names the original of a translation, in the languages catalogues write notes in. */
const TRANSLATION_NOTE = /^\s*(?:translation of|translated from|traduction de|trad(?:ucción|ução) de|título original|titre original|originaltitel|originalt(?:itel)?|einheitssacht\.?|übers(?:etzung|\.) (?:von|aus)|traduzione di)\s*:\s*/iu;

/** The original title a 500 note names: "Translation of: Cien años de soledad." → "Cien años de soledad". */
export function originalTitleInNote(note: string): string | undefined {
  const match = TRANSLATION_NOTE.exec(note);
  if (match === null) return undefined;
  // The title ends where the note goes on to its edition or publisher (". ", " / ") or at its last period.
  const rest = note.slice(match[0].length);
  const title = (rest.split(/\.\s|\s\/\s/u)[0] ?? '').replace(/[\s.;,]+$/u, '').trim();
  return title === '' ? undefined : title;
}

/**
 * 008/35-37, when it is a code (not blanks, `|||`, `und`, `mul`, `zxx`); else, for a record converted
 * without a usable 008, the first language of the text in 041 $a.
 */
function languageOf(record: MarcRecord, languageField: MarcDataField | undefined): string | undefined {
  const code = languageCode(controlFieldOf(record, '008')?.slice(35, 38));
  if (code !== undefined || languageField === undefined) return code;
  return languageCode(languageField.subfields.find((subfield) => subfield.code === 'a')?.value.slice(0, 3));
}

function languageCode(text: string | undefined): string | undefined {
  const code = text?.trim().toLowerCase();
  return code !== undefined && /^[a-z]{3}$/.test(code) && !['und', 'mul', 'zxx'].includes(code) ? code : undefined;
}
