/**
 * Work-key profiles chosen per index and recorded in it (issue 19, item 1): the option `keyProfile` is
 * checked at creation; the embedded index keys under the profile it was first loaded with (a file from
 * before profiles counts as `vufind`) and refuses another; documents that carry keys keep them; the MARC
 * and Dublin Core mappings key under the profile they are given; `--key-profile` on the command line.
 */
import test from 'ava';
import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KeyProfileMismatchError, InvalidOptionError } from '../../src/errors.js';
import { recordDocumentFromMarc } from '../../src/ingest/marc/vufindMarcMapping.js';
import { recordDocumentFromDublinCore } from '../../src/ingest/oai/dublinCoreMapping.js';
import { harvestedRecordToDocument } from '../../src/ingest/oai/harvestedRecords.js';
import type { HarvestedRecord } from '../../src/ingest/oai/oaiHarvester.js';
import { extendedWorkKeys } from '../../src/work-keys/extended/extendedWorkKeys.js';
import { checkKeyProfile, WORK_KEY_PROFILES } from '../../src/work-keys/workKeyProfiles.js';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, runCli } from '../../src/cli/catalogVersions.js';
import { capture, tempDir } from '../support/commandRuns.js';
import { openEmbeddedIndex } from '../../src/entries/sqlite.js';
import { marcWorkKeys } from '../../src/work-keys/marcWorkKeys.js';
import { workStatementFromMarc } from '../../src/work-keys/extended/marcWorkStatement.js';
import type { MarcRecord } from '../../src/marc/marcRecord.js';

/** Keyed differently by the two profiles: VuFind keys the subtitle with the title and every added entry. */
const SUBTITLED = { id: 'emma-norton', title: 'Emma : an authoritative text, backgrounds, reviews, and criticism', author: 'Austen, Jane', author2: ['Parrish, Stephen Maxfield'] };
const PLAIN = { id: 'emma-1816', title: 'Emma', author: 'Austen, Jane' };
const OWN_KEYS = { id: 'emma-own-keys', title: 'Emma', author: 'Austen, Jane', work_keys_str_mv: ['CUSTOM emma'] };

test('keyProfile names a profile; anything else is refused at creation, naming the profiles', (t) => {
  for (const name of ['vufind', 'extended'] as const) t.is(checkKeyProfile(name), name);
  for (const bad of ['Extended', 'aspen', '', undefined, null, 42, 'toString']) {
    const error = t.throws(() => checkKeyProfile(bad), { instanceOf: InvalidOptionError }, String(bad));
    t.is(error?.option, 'keyProfile');
    t.regex(error?.message ?? '', /use 'vufind' or 'extended'/);
    // An index given no profile (undefined) takes its own; any other value is refused.
    if (bad !== undefined) t.throws(() => openEmbeddedIndex({ path: ':memory:', keyProfile: bad as 'vufind' }), { instanceOf: InvalidOptionError }, String(bad));
  }
});

const keysIn = async (path: string, id: string) => (await (async () => {
  const index = openEmbeddedIndex({ path, readOnly: true });
  try {
    return (await index.getRecord(id))?.workKeys;
  } finally {
    await index.close();
  }
})());

// Each row: how the file was made, the profile asked for at the next open, what happens.
const CHOICES: Array<{ name: string; first: 'vufind' | 'extended' | undefined; predates?: boolean; then: 'vufind' | 'extended' | undefined; gives: 'vufind' | 'extended' | 'refused' }> = [
  { name: 'a new index keys with extended', first: undefined, then: undefined, gives: 'extended' },
  { name: 'a new index asked for vufind keys with vufind', first: 'vufind', then: undefined, gives: 'vufind' },
  { name: 'an extended index reopened without a profile stays extended', first: 'extended', then: undefined, gives: 'extended' },
  { name: 'an extended index reopened asking for extended', first: 'extended', then: 'extended', gives: 'extended' },
  { name: 'an extended index asked for vufind refuses', first: 'extended', then: 'vufind', gives: 'refused' },
  { name: 'a vufind index asked for extended refuses', first: 'vufind', then: 'extended', gives: 'refused' },
  { name: 'a file from before profiles counts as vufind', first: 'vufind', predates: true, then: undefined, gives: 'vufind' },
  { name: 'a file from before profiles asked for extended refuses', first: 'vufind', predates: true, then: 'extended', gives: 'refused' },
];

for (const row of CHOICES) {
  test(`embedded index: ${row.name}`, async (t) => {
    const path = join(tempDir(t), 'catalog.sqlite');
    const first = openEmbeddedIndex({ path, create: true, ...(row.first !== undefined ? { keyProfile: row.first } : {}) });
    await first.load([PLAIN]);
    await first.close();
    if (row.predates === true) {
      const db = new Database(path);
      db.exec('DROP TABLE index_meta');
      db.close();
    }
    const open = () => openEmbeddedIndex({ path, create: true, ...(row.then !== undefined ? { keyProfile: row.then } : {}) });
    if (row.gives === 'refused') {
      const error = t.throws(open, { instanceOf: KeyProfileMismatchError });
      t.is(error?.code, 'KEY_PROFILE_MISMATCH');
      t.is<string | undefined, string | undefined>(error?.requestedProfile, row.then);
      t.regex(error?.message ?? '', new RegExp(`${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is keyed with the ${error?.indexProfile} .*new index file with --key-profile ${row.then}`));
      return;
    }
    const index = open();
    t.is(index.keyProfile, row.gives);
    await index.load([SUBTITLED, OWN_KEYS]);
    await index.close();
    t.deepEqual(await keysIn(path, SUBTITLED.id), WORK_KEY_PROFILES[row.gives].keysOfDocument(SUBTITLED));
    t.deepEqual(await keysIn(path, OWN_KEYS.id), ['CUSTOM emma'], 'a document\'s own keys are kept');
  });
}

test('the two profiles key the subtitled edition differently (so the table above can tell them apart)', (t) => {
  t.notDeepEqual(WORK_KEY_PROFILES.vufind.keysOfDocument(SUBTITLED), WORK_KEY_PROFILES.extended.keysOfDocument(SUBTITLED));
});

const NORTON: MarcRecord = {
  leader: '00000cam a2200000 a 4500',
  fields: [
    { tag: '001', value: 'emma-norton-2000' },
    { tag: '008', value: '000101s2000    nyu           000 1 eng d' },
    { tag: '100', ind1: '1', ind2: ' ', subfields: [{ code: 'a', value: 'Austen, Jane,' }, { code: 'd', value: '1775-1817.' }] },
    { tag: '245', ind1: '1', ind2: '0', subfields: [{ code: 'a', value: 'Emma :' }, { code: 'b', value: 'an authoritative text, backgrounds, reviews, and criticism /' }] },
    { tag: '700', ind1: '1', ind2: ' ', subfields: [{ code: 'a', value: 'Parrish, Stephen Maxfield.' }] },
  ],
};

test('MARC mapping: vufind (the default) keys as VuFind does, extended by the record\'s work statement', (t) => {
  t.deepEqual(recordDocumentFromMarc(NORTON).work_keys_str_mv, marcWorkKeys(NORTON));
  t.deepEqual(recordDocumentFromMarc(NORTON, { keyProfile: 'vufind' }).work_keys_str_mv, marcWorkKeys(NORTON));
  const extended = recordDocumentFromMarc(NORTON, { keyProfile: 'extended' }).work_keys_str_mv;
  t.deepEqual(extended, extendedWorkKeys(workStatementFromMarc(NORTON)));
  t.true((extended as string[]).includes('AT austenjane emma'), String(extended));
  t.false((extended as string[]).some((key) => key.includes('parrish')), 'no added entry beside a main entry');
  t.throws(() => recordDocumentFromMarc(NORTON, { keyProfile: 'aspen' as 'vufind' }), { instanceOf: InvalidOptionError });
});

const THESIS = '<oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/">'
  + '<dc:title>Redes de sensores sem fio</dc:title><dc:title>Wireless sensor networks</dc:title>'
  + '<dc:creator>Souza, Ana Paula</dc:creator><dc:identifier>https://doi.org/10.11606/T.3.2019.tde-1</dc:identifier>'
  + '<dc:language>por</dc:language></oai_dc:dc>';

test('Dublin Core mapping: vufind keys the first title; extended every title with every creator, and the DOI', (t) => {
  const vufind = recordDocumentFromDublinCore(THESIS, 'oai:teses:1').work_keys_str_mv as string[];
  t.false(vufind.some((key) => key.includes('wireless')), String(vufind));
  const extended = recordDocumentFromDublinCore(THESIS, 'oai:teses:1', { keyProfile: 'extended' }).work_keys_str_mv as string[];
  t.true(extended.some((key) => key.includes('wirelesssensornetworks')), String(extended));
  t.true(extended.some((key) => key.startsWith('DOI ')), String(extended));
});

test('a harvest keys under the profile its mapping is given (the writer\'s, in the command)', (t) => {
  const record: HarvestedRecord = { identifier: 'oai:teses:1', metadataXml: THESIS, datestamp: '2025-01-01', setSpecs: [] };
  const keysBy = (keyProfile?: 'vufind' | 'extended') => (harvestedRecordToDocument(record, { prefix: 'oai_dc', ...(keyProfile ? { keyProfile } : {}) }) as { work_keys_str_mv: string[] }).work_keys_str_mv;
  t.deepEqual(keysBy('vufind'), keysBy());
  t.deepEqual(keysBy('extended'), recordDocumentFromDublinCore(THESIS, 'oai:teses:1', { keyProfile: 'extended' }).work_keys_str_mv);
  t.notDeepEqual(keysBy('extended'), keysBy('vufind'));
});

test('CLI: load --key-profile extended, then --key-profile vufind into the same file, is refused with how to rebuild', async (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'emma.jsonl');
  writeFileSync(file, `${JSON.stringify(PLAIN)}\n${JSON.stringify(SUBTITLED)}\n`);
  const db = join(dir, 'catalog.sqlite');
  t.is(await runCli(['load', file, '--db', db, '--key-profile', 'extended'], capture().io), EXIT_OK);
  const again = capture();
  t.is(await runCli(['load', file, '--db', db, '--key-profile', 'vufind'], again.io), EXIT_FAILED);
  t.regex(again.err(), /keyed with the extended work-key profile, not vufind: load with --key-profile extended .*rebuild: load every file into a new index file with --key-profile vufind/);
  t.is(await runCli(['load', file, '--db', db], capture().io), EXIT_OK, 'without --key-profile the index keeps its own');
  t.deepEqual(await keysIn(db, SUBTITLED.id), WORK_KEY_PROFILES.extended.keysOfDocument(SUBTITLED));
});

test('CLI: convert keys with extended unless told; a wrong --key-profile and one on delete are usage errors', async (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'emma.jsonl');
  writeFileSync(file, `${JSON.stringify(SUBTITLED)}\n`);
  for (const [args, profile] of [[[], 'extended'], [['--key-profile', 'vufind'], 'vufind'], [['--key-profile', 'extended'], 'extended']] as const) {
    const run = capture();
    t.is(await runCli(['convert', file, ...args], run.io), EXIT_OK, run.err());
    t.deepEqual((JSON.parse(run.out()) as { work_keys_str_mv: string[] }).work_keys_str_mv, WORK_KEY_PROFILES[profile].keysOfDocument(SUBTITLED), profile);
  }
  const wrong = capture();
  t.is(await runCli(['load', file, '--db', join(dir, 'x.sqlite'), '--key-profile', 'aspen'], wrong.io), EXIT_USAGE);
  t.regex(wrong.err(), /--key-profile needs vufind or extended, not "aspen"/);
  const onDelete = capture();
  t.is(await runCli(['delete', 'x', '--db', join(dir, 'x.sqlite'), '--key-profile', 'vufind'], onDelete.io), EXIT_USAGE);
  t.regex(onDelete.err(), /--key-profile applies to load, convert or harvest only/);
});
