/**
 * A record's languages as a reader sees them. The `language` field holds what the catalog gives: MARC
 * language codes (`por`, `fre`: MARC's bibliographic codes, which Intl's data knows beside ISO 639's), ISO
 * 639-1 codes from Dublin Core (`pt`), or, as in a VuFind core (its language_map), English names
 * (`Portuguese`). `languageNameIn` names any of them in the page's language through Intl.DisplayNames
 * (`por` → "Portuguese" / "português" / "portugués"); `englishLanguageNameOf` gives the MARC mapping
 * VuFind's kind of value.
 *
 * Left to others: which languages the plugin's own words are in (src/i18n/languages.ts).
 */

/**
 * ISO 639-1 codes, and the ISO 639-2 codes of languages catalogs often name that have none (Latin's `la`
 * is here; Ancient Greek, Old English … are not), so an English name can be turned back into a code.
 */
const KNOWN_LANGUAGE_CODES = (
  'aa ab ae af ak am an ar as av ay az ba be bg bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es et eu '
  + 'fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km '
  + 'kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om '
  + 'or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr '
  + 'ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu '
  + 'grc ang enm fro frm gmh goh pro syc cop egy akk sux haw yid mul'
).split(' ');

/** Codes that name no language of a text (undetermined, no linguistic content, MARC's fill characters). */
const NOT_A_LANGUAGE = new Set(['und', 'zxx', 'mis', '|||', '']);

const displayNames = new Map<string, Intl.DisplayNames | null>();
function displayNamesIn(language: string): Intl.DisplayNames | null {
  let names = displayNames.get(language);
  if (names === undefined) {
    try {
      names = new Intl.DisplayNames([language, 'en'], { type: 'language', fallback: 'none' });
    } catch {
      names = null;
    }
    displayNames.set(language, names);
  }
  return names;
}

function nameOfCode(code: string, language: string): string | undefined {
  if (!/^[a-z]{2,3}$/.test(code) || NOT_A_LANGUAGE.has(code)) return undefined;
  try {
    const name = displayNamesIn(language)?.of(code);
    return name === undefined || name === code || name === 'root' ? undefined : name;
  } catch {
    return undefined;
  }
}

let codeOfEnglishName: ReadonlyMap<string, string> | undefined;
function codeOfName(name: string): string | undefined {
  codeOfEnglishName ??= new Map(KNOWN_LANGUAGE_CODES.flatMap((code) => {
    const english = nameOfCode(code, 'en');
    return english === undefined ? [] : [[english.toLowerCase(), code] as const];
  }));
  return codeOfEnglishName.get(name.toLowerCase());
}

/** VuFind's kind of value for a MARC language code (`por` → `Portuguese`); undefined for no language or an unknown code. */
export function englishLanguageNameOf(code: string): string | undefined {
  return nameOfCode(code.trim().toLowerCase(), 'en');
}

/**
 * A `language` value named in `language` (a BCP 47 tag: `pt-br`): a code or an English name Intl knows
 * is named there, with a capital first letter (Intl gives "português"); anything else stays as written.
 */
export function languageNameIn(value: string, language: string): string {
  const key = `${language}\u0000${value}`;
  let name = namesGiven.get(key);
  if (name === undefined) {
    // Intl.DisplayNames.of asks ICU each time, which cost more than the rest of a page's facets: a page names
    // the same few values again and again. The values come from the catalog, so the memory is bounded.
    if (namesGiven.size >= NAMES_KEPT) namesGiven.clear();
    name = nameIn(value, language);
    namesGiven.set(key, name);
  }
  return name;
}

const NAMES_KEPT = 10_000;
const namesGiven = new Map<string, string>();

function nameIn(value: string, language: string): string {
  const trimmed = value.trim();
  const folded = trimmed.toLowerCase();
  const code = /^[a-z]{2,3}$/.test(folded) ? folded : codeOfName(trimmed);
  const name = code === undefined ? undefined : nameOfCode(code, language);
  if (name === undefined) return trimmed;
  return name.charAt(0).toLocaleUpperCase(language) + name.slice(1);
}
