/**
 * The `format` of a MARC record as VuFind 7.1.1 indexes it: stock marc.properties says
 * `format = custom, getFormats, format_map.properties, unique`, and in 7.x `getFormats` is the
 * multi-valued calculator (MultiFormatCalculator in import/index_java). This module holds its rules and
 * the label table of `import/translation_maps/format_map.properties`.
 *
 * The rules, in the order VuFind applies them (each adds a format code; the list keeps the first of
 * each code):
 * 1. Special cases: an 086 (SuDoc number) → GovernmentDocument; a 502 (dissertation note) → Thesis; the
 *    first 245's first $h containing "[electronic resource]" (any case) → Electronic; a 111 or 711 →
 *    ConferenceProceeding.
 * 2. Each 007 in record order: its category (position 0) and specific material (1) give a physical
 *    format (sound disc, VHS, DVD/Blu-ray by 007/04 …; see formatFrom007); a video adds Video before its
 *    kind; filmstrips, pictures, films and videos (g, k, m, v) mean "not a book". 007 `cr` (remote
 *    computer resource) adds nothing, so that links alone never make a record Electronic.
 * 3. Leader/06 (type of record): scores, maps, sound and music recordings, pictures, kits, objects,
 *    manuscripts (not when there is a 502). Music recordings (j), objects (r) and computer files whose
 *    008/26 is numeric data (a) are not books.
 * 4. Leader/07 (bibliographic level): a monograph that could still be a book is an eBook when the LAST
 *    007 read was a computer file (c), else a Book; component parts; integrating resources; serials by
 *    008/21 (n newspaper, p journal, else Serial unless it is a conference).
 * 5. Nothing found: Kit for a collection (Leader/07 c), else Unknown.
 * Labels then come from format_map.properties; a code the map does not list (IntegratingResource) is
 * dropped, as SolrMarc drops unmapped values, and labels are de-duplicated (`unique`): SoundRecording
 * and MusicRecording are both "Audio".
 *
 * Where VuFind 7.1.1 would throw (a serial or computer file without an 008, so that SolrMarc loses the
 * field), the missing 008 position reads as blank here instead: a serial with no 008 is a Serial.
 *
 * Left to others: the rest of the record document (vufindMarcMapping.ts).
 */
import { controlFieldOf, isDataField, type MarcDataField, type MarcRecord } from '../../marc/marcRecord.js';

/** `import/translation_maps/format_map.properties`: VuFind's format code → the label it indexes. */
export const VUFIND_FORMAT_LABELS: Readonly<Record<string, string>> = {
  Atlas: 'Map',
  Book: 'Book',
  BookComponentPart: 'Book Chapter',
  Braille: 'Braille',
  BRDisc: 'Blu-ray Disc',
  CDROM: 'Software',
  Chart: 'Photo',
  ChipCartridge: 'Software',
  Collage: 'Photo',
  ConferenceProceeding: 'Conference Proceeding',
  DiscCartridge: 'Software',
  Drawing: 'Photo',
  eBook: 'eBook',
  Electronic: 'Electronic',
  Filmstrip: 'Video',
  FlashCard: 'Photo',
  FloppyDisk: 'Software',
  Globe: 'Globe',
  GovernmentDocument: 'Government Document',
  Journal: 'Journal',
  Kit: 'Kit',
  Manuscript: 'Manuscript',
  Map: 'Map',
  Microfilm: 'Microfilm',
  MotionPicture: 'Video',
  MusicalScore: 'Musical Score',
  MusicRecording: 'Audio',
  Newspaper: 'Newspaper',
  Painting: 'Photo',
  Photonegative: 'Photo',
  Photo: 'Photo',
  PhysicalObject: 'Physical Object',
  Print: 'Photo',
  SensorImage: 'Sensor Image',
  SerialComponentPart: 'Article',
  Serial: 'Serial',
  Slide: 'Slide',
  Software: 'Software',
  SoundCassette: 'Cassette',
  SoundDisc: 'CD',
  SoundRecording: 'Audio',
  TapeCartridge: 'Software',
  TapeCassette: 'Software',
  TapeReel: 'Software',
  Thesis: 'Thesis',
  Transparency: 'Slide',
  Unknown: 'Unknown',
  VideoCartridge: 'Video',
  VideoCassette: 'VHS',
  VideoDisc: 'DVD',
  VideoOnline: 'Video',
  VideoReel: 'Video',
  Video: 'Video',
};

/** 007 categories that cannot be a book: projected graphics, nonprojected graphics, films, videos. */
const NOT_A_BOOK_007 = new Set(['G', 'K', 'M', 'V']);

const SOFTWARE_BY_007_1: Readonly<Record<string, string>> = {
  A: 'TapeCartridge', B: 'ChipCartridge', C: 'DiscCartridge', F: 'TapeCassette', H: 'TapeReel', J: 'FloppyDisk',
  M: 'CDROM', O: 'CDROM',
};
const PICTURE_BY_007_1: Readonly<Record<string, string>> = {
  C: 'Collage', D: 'Drawing', E: 'Painting', F: 'Print', G: 'Photonegative', J: 'Print', L: 'Drawing',
  O: 'FlashCard', N: 'Chart',
};
const VIDEO_BY_007_1: Readonly<Record<string, string>> = { C: 'VideoCartridge', F: 'VideoCassette', R: 'VideoReel' };

/** The format code one 007 gives ('' when it gives none); positions are upper-cased as VuFind does. */
export function formatFrom007(category: string, material: string, position4: string): string {
  switch (category) {
    case 'A': return material === 'D' ? 'Atlas' : 'Map';
    case 'C': return material === 'R' ? '' : SOFTWARE_BY_007_1[material] ?? 'Software';
    case 'D': return 'Globe';
    case 'F': return 'Braille';
    case 'G': return material === 'C' || material === 'D' ? 'Filmstrip' : material === 'T' ? 'Transparency' : 'Slide';
    case 'H': return 'Microfilm';
    case 'K': return PICTURE_BY_007_1[material] ?? 'Photo';
    case 'M': return material === 'F' ? 'VideoCassette' : material === 'R' ? 'Filmstrip' : 'MotionPicture';
    case 'O': return 'Kit';
    case 'Q': return 'MusicalScore';
    case 'R': return 'SensorImage';
    case 'S': return material === 'D' ? 'SoundDisc' : material === 'S' ? 'SoundCassette' : 'SoundRecording';
    case 'V':
      if (material === 'D') return position4 === 'S' ? 'BRDisc' : 'VideoDisc';
      // VuFind takes any other video to be online.
      return VIDEO_BY_007_1[material] ?? 'VideoOnline';
    default: return '';
  }
}

function formatFromRecordType(recordType: string, hasThesisNote: boolean): string {
  switch (recordType) {
    case 'C': case 'D': return 'MusicalScore';
    case 'E': case 'F': return 'Map';
    // Projected media (g) are left to the 007.
    case 'I': return 'SoundRecording';
    case 'J': return 'MusicRecording';
    case 'K': return 'Photo';
    case 'O': case 'P': return 'Kit';
    case 'R': return 'PhysicalObject';
    case 'T': return hasThesisNote ? '' : 'Manuscript';
    default: return '';
  }
}

function notABookByRecordType(recordType: string, fixedFields: string): boolean {
  if (recordType === 'J' || recordType === 'R') return true;
  return recordType === 'M' && charAt(fixedFields, 26) === 'A';
}

function formatFromBibLevel(
  bibLevel: string, last007Category: string, fixedFields: string, couldBeBook: boolean, isConference: boolean,
): string {
  switch (bibLevel) {
    case 'M': return couldBeBook ? (last007Category === 'C' ? 'eBook' : 'Book') : '';
    case 'A': return 'BookComponentPart';
    case 'B': return 'SerialComponentPart';
    case 'I': return 'IntegratingResource';
    case 'S': {
      const continuingResourceType = charAt(fixedFields, 21);
      if (continuingResourceType === 'N') return 'Newspaper';
      if (continuingResourceType === 'P') return 'Journal';
      return isConference ? '' : 'Serial';
    }
    default: return '';
  }
}

/** Upper-cased character at a position, blank when the string is too short (as for a missing 008). */
function charAt(value: string, position: number): string {
  return (value[position] ?? ' ').toUpperCase();
}

function firstDataField(record: MarcRecord, tag: string): MarcDataField | undefined {
  return record.fields.find((field): field is MarcDataField => isDataField(field) && field.tag === tag);
}

function hasField(record: MarcRecord, tag: string): boolean {
  return record.fields.some((field) => field.tag === tag);
}

function isElectronicByTitle(record: MarcRecord): boolean {
  const medium = firstDataField(record, '245')?.subfields.find((subfield) => subfield.code === 'h');
  return medium !== undefined && medium.value.toLowerCase().includes('[electronic resource]');
}

/** VuFind's format codes for a record (GovernmentDocument, SoundDisc, Book …), before labelling. */
export function vufindFormatCodes(record: MarcRecord): string[] {
  const codes: string[] = [];
  const add = (code: string): void => {
    if (code !== '' && !codes.includes(code)) codes.push(code);
  };
  const fixedFields = controlFieldOf(record, '008') ?? '';
  const hasThesisNote = hasField(record, '502');
  const isConference = hasField(record, '111') || hasField(record, '711');
  let couldBeBook = true;

  if (hasField(record, '086')) add('GovernmentDocument');
  if (hasThesisNote) add('Thesis');
  if (isElectronicByTitle(record)) add('Electronic');
  if (isConference) add('ConferenceProceeding');

  let last007Category = ' ';
  for (const field of record.fields) {
    if (field.tag !== '007' || isDataField(field)) continue;
    const physical = field.value.toUpperCase();
    last007Category = physical[0] ?? ' ';
    if (NOT_A_BOOK_007.has(last007Category)) couldBeBook = false;
    if (last007Category === 'V') add('Video');
    add(formatFrom007(last007Category, physical[1] ?? ' ', physical[4] ?? ' '));
  }

  const recordType = charAt(record.leader, 6);
  if (notABookByRecordType(recordType, fixedFields)) couldBeBook = false;
  add(formatFromRecordType(recordType, hasThesisNote));

  const bibLevel = charAt(record.leader, 7);
  add(formatFromBibLevel(bibLevel, last007Category, fixedFields, couldBeBook, isConference));

  if (codes.length === 0) add(bibLevel === 'C' ? 'Kit' : 'Unknown');
  return codes;
}

/** The `format` values VuFind 7.1.1 indexes for a record: labelled, unmapped codes dropped, no repeats. */
export function vufindFormats(record: MarcRecord): string[] {
  const labels: string[] = [];
  for (const code of vufindFormatCodes(record)) {
    const label = VUFIND_FORMAT_LABELS[code];
    if (label !== undefined && !labels.includes(label)) labels.push(label);
  }
  return labels;
}
