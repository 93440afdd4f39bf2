/**
 * The work-key profiles' table (src/work-keys/workKeyProfiles.ts) is held to the facts it names: its rows
 * are the listed names, in their order; each profile makes only keys of the kinds it lists
 * (src/work-keys/workKeyKinds.ts); and it reads no document field outside its `keyedFields`, so a keying
 * worker handed only those fields makes the same keys. docs/work-keys.md's table of kinds says the same.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { keyKindOf, WORK_KEY_KINDS } from '../../src/work-keys/workKeyKinds.js';
import { DEFAULT_WORK_KEY_PROFILE, WORK_KEY_PROFILE_NAMES, WORK_KEY_PROFILES } from '../../src/work-keys/workKeyProfiles.js';

/** Documents that between them fill every field either profile reads, with a DOI and a handle among the links. */
const DOCUMENTS: readonly Readonly<Record<string, unknown>>[] = [
  {
    id: 'hobbit-annotated', title: 'The annotated Hobbit : the hobbit, or, There and back again', title_short: 'The annotated Hobbit',
    title_uniform: ['Hobbit'], author: 'Tolkien, J. R. R.', author2: ['Anderson, Douglas A.'], author_corporate: ['Houghton Mifflin'],
    language: ['eng'], url: ['https://doi.org/10.1000/hobbit.2002'], doi_str_mv: ['10.1000/hobbit.2002'], format: ['Book'], publishDate: ['2002'],
  },
  {
    id: 'cem-anos-teses', title: 'Cem anos de solidão', title_uniform: ['Cien años de soledad'], author: ['García Márquez, Gabriel'],
    language: 'por', url: ['http://hdl.handle.net/1884/34520'], format: ['Thesis'],
  },
  { id: 'bible-1990', title: 'Bíblia sagrada', title_uniform: ['Bible. Portuguese. 1990'], author_corporate: 'Sociedade Bíblica do Brasil' },
  { id: 'anonymous-beowulf', title: 'Beowulf', author2: ['Heaney, Seamus'] },
];

test('the table has a row for each listed name, in the list\'s order, and the default is one of them', (t) => {
  t.deepEqual(Object.keys(WORK_KEY_PROFILES), [...WORK_KEY_PROFILE_NAMES]);
  for (const name of WORK_KEY_PROFILE_NAMES) t.is(WORK_KEY_PROFILES[name].name, name);
  t.true((WORK_KEY_PROFILE_NAMES as readonly string[]).includes(DEFAULT_WORK_KEY_PROFILE));
});

for (const name of WORK_KEY_PROFILE_NAMES) {
  test(`the ${name} profile makes keys of its own kinds only`, (t) => {
    const profile = WORK_KEY_PROFILES[name];
    const made = new Set<string>();
    for (const document of DOCUMENTS) {
      for (const key of profile.keysOfDocument(document)) {
        const prefix = keyKindOf(key)?.prefix;
        t.true(prefix !== undefined && profile.kinds.includes(prefix as never), `${document.id}: ${key}`);
        made.add(prefix as string);
      }
    }
    // The documents key by author and title and by uniform title under both profiles.
    t.true(made.has('AT') && made.has('UT'), [...made].join(' '));
  });

  test(`the ${name} profile reads no document field outside its keyedFields`, (t) => {
    const profile = WORK_KEY_PROFILES[name];
    for (const document of DOCUMENTS) {
      const read = new Set<string>();
      const watched = new Proxy(document, {
        get(target, property, receiver) {
          if (typeof property === 'string') read.add(property);
          return Reflect.get(target, property, receiver) as unknown;
        },
      });
      t.true(profile.keysOfDocument(watched).length > 0, String(document.id));
      t.deepEqual([...read].filter((field) => !profile.keyedFields.includes(field)), [], String(document.id));
    }
  });
}

test('docs/work-keys.md lists every kind with an example of it, the profiles that make it and its reason', (t) => {
  const docs = readFileSync(new URL('../../docs/work-keys.md', import.meta.url), 'utf8');
  const section = docs.slice(docs.indexOf('### Key kinds'), docs.indexOf('\n#', docs.indexOf('### Key kinds') + 1));
  const rows = section.split('\n').filter((line) => line.startsWith('| `'));
  t.is(rows.length, WORK_KEY_KINDS.length, rows.join('\n'));
  for (const kind of WORK_KEY_KINDS) {
    const row = rows.find((line) => line.startsWith(`| \`${kind.prefix} `));
    if (row === undefined) {
      t.fail(`no row for ${kind.prefix}`);
      continue;
    }
    const [, example, madeBy, reason] = row.split(' | ').map((cell) => cell.trim());
    t.is(keyKindOf((example ?? '').replaceAll('`', '')), kind, row);
    const makers = WORK_KEY_PROFILE_NAMES.filter((name) => WORK_KEY_PROFILES[name].kinds.includes(kind.prefix as never));
    const said = makers.length === WORK_KEY_PROFILE_NAMES.length ? 'both' : makers.length === 1 ? makers[0] : "a librarian's merge";
    t.true(madeBy?.startsWith(said as string), `${kind.prefix}: ${madeBy} (the profiles: ${makers.join(', ') || 'none'})`);
    t.true(reason?.includes(`\`${kind.reason}\``), `${kind.prefix}: ${reason}`);
  }
});
