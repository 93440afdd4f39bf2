import test from 'ava';
import { dataField } from '../support/marcFields.js';
import type { MarcDataField, MarcField, MarcRecord } from '../../src/marc/marcRecord.js';
import { formatFrom007, vufindFormatCodes, vufindFormats } from '../../src/ingest/marc/vufindFormats.js';

// Expected labels are what VuFind 7.1.1 indexes: its multi-valued getFormats, then format_map.properties,
// then `unique`.

const df = (tag: string, subfields: string): MarcDataField => dataField(tag, '  ', subfields);

/** A record whose Leader/06-07 are `typeAndLevel` ('am' = language material, monograph). */
function record(typeAndLevel: string, ...fields: MarcField[]): MarcRecord {
  return { leader: `00000n${typeAndLevel} a2200000 a 4500`, fields: [{ tag: '001', value: 'test' }, ...fields] };
}

const physical = (value: string): MarcField => ({ tag: '007', value });
/** An 008 whose position 21 (serials), 26 (computer files) can be set. */
function fixedFields(positions: Record<number, string>): MarcField {
  const value = Array.from('970701s1989    xx            000 0 eng d');
  for (const [position, char] of Object.entries(positions)) value[Number(position)] = char;
  return { tag: '008', value: value.join('') };
}

const cases: [string, MarcRecord, string[]][] = [
  ['printed book', record('am'), ['Book']],
  ['ebook: the last 007 is a remote computer file (cr adds nothing itself)', record('am', physical('cr |||||||||||')), ['eBook']],
  ['electronic by 245$h', record('am', df('245', '$aTitle$h[Electronic resource] /')), ['Electronic', 'Book']],
  ['electronic ebook', record('am', physical('cr'), df('245', '$aTitle$h[electronic resource]')), ['Electronic', 'eBook']],
  ['only the first $h of the first 245 counts', record('am', df('245', '$aT$hprint$h[electronic resource]')), ['Book']],
  ['thesis by 502', record('am', df('502', '$aThesis (Ph.D.)')), ['Thesis', 'Book']],
  ['government document by 086', record('am', df('086', '$aI 19.3:1234')), ['Government Document', 'Book']],
  ['conference proceeding by 111', record('am', df('111', '$aSymposium')), ['Conference Proceeding', 'Book']],
  ['conference proceeding by 711', record('am', df('711', '$aSymposium')), ['Conference Proceeding', 'Book']],
  ['audiobook on CD: non-musical sound recording can still be a book', record('im', physical('sd fsngnnmmned')), ['CD', 'Audio', 'Book']],
  ['music CD: music recordings are not books', record('jm', physical('sd fsngnnmmned')), ['CD', 'Audio']],
  ['music recording without 007', record('jm'), ['Audio']],
  ['sound cassette', record('im', physical('ss lsnjlcmpnue')), ['Cassette', 'Audio', 'Book']],
  ['other sound recording', record('jm', physical('sz')), ['Audio']],
  ['printed score', record('cm'), ['Musical Score', 'Book']],
  ['manuscript score', record('dm'), ['Musical Score', 'Book']],
  ['score by 007 q', record('am', physical('qu')), ['Musical Score', 'Book']],
  ['DVD', record('gm', physical('vd cvaizq')), ['Video', 'DVD']],
  ['Blu-ray: 007/04 s', record('gm', physical('vd csaizq')), ['Video', 'Blu-ray Disc']],
  ['VHS', record('gm', physical('vf cbahou')), ['Video', 'VHS']],
  ['video cartridge and reel', record('gm', physical('vc'), physical('vr')), ['Video']],
  ['other video is taken to be online', record('gm', physical('vz')), ['Video']],
  ['projected medium without 007 gets nothing but Book', record('gm'), ['Book']],
  ['film', record('gm', physical('mr')), ['Video']],
  ['filmstrip', record('gm', physical('gd')), ['Video']],
  ['slide', record('gm', physical('gs')), ['Slide']],
  ['transparency', record('gm', physical('gt')), ['Slide']],
  ['map', record('em', physical('aj canzn')), ['Map', 'Book']],
  ['atlas', record('em', physical('ad')), ['Map', 'Book']],
  ['manuscript map', record('fm'), ['Map', 'Book']],
  ['globe', record('em', physical('d')), ['Globe', 'Map', 'Book']],
  ['braille', record('am', physical('fb')), ['Braille', 'Book']],
  ['microfilm', record('am', physical('hd')), ['Microfilm', 'Book']],
  ['photo by leader', record('km'), ['Photo', 'Book']],
  ['photo by 007: pictures are not books', record('km', physical('kh')), ['Photo']],
  ['drawing, painting, print, chart, flash card, collage, negative by 007', record('km', physical('kd'), physical('ke'), physical('kf'), physical('kn'), physical('ko'), physical('kc'), physical('kg')), ['Photo']],
  ['kit by leader', record('om'), ['Kit', 'Book']],
  ['mixed materials', record('pm'), ['Kit', 'Book']],
  ['kit by 007', record('am', physical('ou')), ['Kit', 'Book']],
  ['physical object: not a book', record('rm'), ['Physical Object']],
  ['manuscript', record('tm'), ['Manuscript', 'Book']],
  ['manuscript thesis', record('tm', df('502', '$aThesis')), ['Thesis', 'Book']],
  ['sensor image', record('am', physical('r')), ['Sensor Image', 'Book']],
  ['journal: serial with 008/21 p', record('as', fixedFields({ 21: 'p' })), ['Journal']],
  ['newspaper: serial with 008/21 n', record('as', fixedFields({ 21: 'n' })), ['Newspaper']],
  ['other serial', record('as', fixedFields({ 21: ' ' })), ['Serial']],
  ['serial without an 008 (VuFind 7.1.1 would throw)', record('as'), ['Serial']],
  ['conference serial is not also a Serial', record('as', fixedFields({ 21: 'm' }), df('111', '$aCongress')), ['Conference Proceeding']],
  ['book chapter', record('aa'), ['Book Chapter']],
  ['article', record('ab'), ['Article']],
  ['integrating resource: VuFind 7.1.1 has no label for it', record('ai'), []],
  ['collection with nothing else is a kit', record('ac'), ['Kit']],
  ['nothing recognised', record('zz'), ['Unknown']],
  ['computer file with a CD-ROM: software ebook', record('mm', physical('co cga'), fixedFields({ 26: 'b' })), ['Software', 'eBook']],
  ['computer file of numeric data is not a book', record('mm', fixedFields({ 26: 'a' })), ['Unknown']],
  ['disc cartridge, floppy and tape software', record('mm', physical('cc'), physical('cj'), physical('ch')), ['Software', 'eBook']],
  ['the LAST 007 decides eBook: sound disc after computer file', record('im', physical('cz'), physical('sz')), ['Software', 'Audio', 'Book']],
  ['the LAST 007 decides eBook: computer file after sound', record('im', physical('sz'), physical('cs')), ['Audio', 'Software', 'eBook']],
  ['codes are read case-insensitively', record('JM', physical('SD')), ['CD', 'Audio']],
];

for (const [name, input, expected] of cases) {
  test(`format: ${name}`, (t) => {
    t.deepEqual(vufindFormats(input), expected);
  });
}

test('codes before labelling keep VuFind\'s order and detail', (t) => {
  t.deepEqual(vufindFormatCodes(record('jm', physical('sd'))), ['SoundDisc', 'MusicRecording']);
  t.deepEqual(vufindFormatCodes(record('gm', physical('vd csaizq'))), ['Video', 'BRDisc']);
  t.deepEqual(
    vufindFormatCodes(record('am', df('086', '$a1'), df('502', '$at'), df('245', '$h[electronic resource]'), df('711', '$am'))),
    ['GovernmentDocument', 'Thesis', 'Electronic', 'ConferenceProceeding', 'Book'],
  );
  t.deepEqual(vufindFormatCodes(record('ai')), ['IntegratingResource']);
});

test('formatFrom007 reads category, specific material and position 4', (t) => {
  t.is(formatFrom007('C', 'R', ' '), '');
  t.is(formatFrom007('C', 'Z', ' '), 'Software');
  t.is(formatFrom007('V', 'D', 'S'), 'BRDisc');
  t.is(formatFrom007('V', 'D', 'V'), 'VideoDisc');
  t.is(formatFrom007('Z', ' ', ' '), '');
});
