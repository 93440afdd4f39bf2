/**
 * Who goes into `author`, `author2` and `author_corporate` (and their `_role` lists), as VuFind 7.1.1's
 * CreatorTools (`getAuthorsFilteredByRelator`, `getRelatorsFilteredByRelator`) sorts names by relator,
 * with the role lists and relator synonyms of VuFind's author-classification.ini.
 *
 * The stock calls (marc.properties, 7.1.1):
 *   author           100abcd:700abcd                 no relator needed: 100        roles: firstAuthorRoles
 *   author2          100abcd:700abcd                 no relator needed: 700        roles: secondAuthorRoles
 *   author_corporate 110ab:111abc:710ab:711ab         no relator needed: all four   roles: first|second
 * and in each the tags that "need no relator" are also the tags whose UNKNOWN relators are accepted.
 *
 * The rules, field by field in record order:
 * - A field with no $e and no $4 counts once, with role "", when its tag needs no relator; otherwise not
 *   at all. So a 100 without relator is an author, a 700 without relator a secondary author.
 * - Otherwise each $e, then each $4, is normalised (trimmed, lower-cased, ASCII punctuation removed:
 *   "Illustrator." → "illustrator"); one that is a permitted code, or a synonym of one, adds that code
 *   ("illustrator" → ill, "prf." → prf). Then, for the tags that need no relator, the relators that
 *   author-classification.ini does not know at all are added as written (trimmed): from $e, or from $4
 *   when no $e was unknown. A known relator that is not permitted ("film producer", "publisher") adds
 *   nothing, so that name is left out.
 * - The name is added once per role it got (a screenwriter and actor is listed twice, as VuFind lists
 *   it): its subfields with the named codes in field order, each trimmed, joined with one space, as
 *   FieldSpecTools joins them (src/marc/marcFieldSpec.ts)
 *   (`Polskie Radio. Wielka Orkiestra Symfonicza`; later VuFind versions put ", " before $b, $c and $g
 *   and keep the subfields untrimmed).
 * - 880 fields are not read (the specifications name no `LNK` tags).
 *
 * Left to others: trimming display punctuation (vufindMarcMapping.ts), work keys (src/work-keys/marcWorkKeys.ts).
 */
import { fieldsNamedBy, joinedSubfields, parseFieldSpec, trimAsJavaDoes, type FieldSpec } from '../../marc/marcFieldSpec.js';
import type { MarcDataField, MarcRecord, MarcSubfield } from '../../marc/marcRecord.js';

/** author-classification.ini [AuthorRoles] firstAuthorRoles. */
export const FIRST_AUTHOR_ROLES: readonly string[] = ['adp', 'aut', 'cmp', 'cre', 'dub', 'inv'];

/** author-classification.ini [AuthorRoles] secondAuthorRoles ("ar" is in VuFind's list as it stands). */
export const SECOND_AUTHOR_ROLES: readonly string[] = (
  'act,anm,ann,arr,acp,ar,ard,aft,aud,aui,aus,bjd,bpd,cll,ctg,chr,cng,clb,clr,cmm,cwt,com,cpl,cpt,cpe,ccp,cnd,cos,'
  + 'cot,coe,cts,ctt,cte,ctb,crp,cst,cov,cur,dnc,dtc,dto,dfd,dft,dfe,dln,dpc,dsr,drt,dis,drm,edt,elt,egr,etr,fac,'
  + 'fld,flm,frg,ilu,ill,ins,itr,ivr,ldr,lsa,led,lil,lit,lie,lel,let,lee,lbt,lgd,ltg,lyr,mrb,mte,msd,mus,nrt,opn,'
  + 'org,pta,pth,prf,pht,ptf,ptt,pte,prt,pop,prm,pro,pmn,prd,prg,pdr,pbd,ppt,ren,rpt,rth,rtm,res,rsp,rst,rse,rpy,'
  + 'rsg,rev,rbr,sce,sad,scr,scl,spy,std,sng,sds,spk,stm,str,stl,sht,ths,trl,tyd,tyg,vdg,voc,wde,wdc,wam'
).split(',');

/**
 * author-classification.ini [RelatorSynonyms]: relator code → its term(s), `|` between synonyms. A relator
 * that is neither a code nor a term here is "unknown".
 */
export const RELATOR_SYNONYMS: Readonly<Record<string, string>> = {
  abr: 'Abridger', acp: 'Art copyist', act: 'Actor', adi: 'Art director', adp: 'Adapter',
  aft: 'Author of afterword, colophon, etc.', anl: 'Analyst', anm: 'Animator', ann: 'Annotator',
  ant: 'Bibliographic antecedent', ape: 'Appellee', apl: 'Appellant', app: 'Applicant',
  aqt: 'Author in quotations or text abstracts', arc: 'Architect', ard: 'Artistic director', arr: 'Arranger',
  art: 'Artist', asg: 'Assignee', asn: 'Associated name', ato: 'Autographer', att: 'Attributed name',
  auc: 'Auctioneer', aud: 'Author of dialog', aui: 'Author of introduction, etc.', aus: 'Screenwriter',
  aut: 'Author', bdd: 'Binding designer', bjd: 'Bookjacket designer', bkd: 'Book designer',
  bkp: 'Book producer', blw: 'Blurb writer', bnd: 'Binder', bpd: 'Bookplate designer', brd: 'Broadcaster',
  brl: 'Braille embosser', bsl: 'Bookseller', cas: 'Caster', ccp: 'Conceptor', chr: 'Choreographer',
  clb: 'Collaborator', cli: 'Client', cll: 'Calligrapher', clr: 'Colorist', clt: 'Collotyper',
  cmm: 'Commentator', cmp: 'Composer', cmt: 'Compositor', cnd: 'Conductor', cng: 'Cinematographer',
  cns: 'Censor', coe: 'Contestant-appellee', col: 'Collector', com: 'Compiler', con: 'Conservator',
  cor: 'Collection registrar', cos: 'Contestant', cot: 'Contestant-appellant', cou: 'Court governed',
  cov: 'Cover designer', cpc: 'Copyright claimant', cpe: 'Complainant-appellee', cph: 'Copyright holder',
  cpl: 'Complainant', cpt: 'Complainant-appellant', cre: 'Creator', crp: 'Correspondent', crr: 'Corrector',
  crt: 'Court reporter', csl: 'Consultant', csp: 'Consultant to a project', cst: 'Costume designer',
  ctb: 'Contributor', cte: 'Contestee-appellee', ctg: 'Cartographer', ctr: 'Contractor', cts: 'Contestee',
  ctt: 'Contestee-appellant', cur: 'Curator', cwt: 'Commentator for written text', dbp: 'Distribution place',
  dfd: 'Defendant', dfe: 'Defendant-appellee', dft: 'Defendant-appellant', dgg: 'Degree granting institution',
  dgs: 'Degree supervisor', dir: 'Conductor', dis: 'Dissertant', dln: 'Delineator', dnc: 'Dancer',
  dnr: 'Donor', dpc: 'Depicted', dpt: 'Depositor', drm: 'Draftsman', drt: 'Director', dsr: 'Designer',
  dst: 'Distributor', dtc: 'Data contributor', dte: 'Dedicatee', dtm: 'Data manager', dto: 'Dedicator',
  dub: 'Dubious author', edc: 'Editor of compilation', edm: 'Editor of moving image work', edt: 'Editor',
  egr: 'Engraver', elg: 'Electrician', elt: 'Electrotyper', eng: 'Engineer', enj: 'Enacting jurisdiction',
  etr: 'Etcher', evp: 'Event place', exp: 'Expert', fac: 'Facsimilist', fds: 'Film distributor',
  fld: 'Field director', flm: 'Film editor', fmd: 'Film director', fmk: 'Filmmaker', fmo: 'Former owner',
  fmp: 'Film producer', fnd: 'Funder', fpy: 'First party', frg: 'Forger',
  gis: 'Geographic information specialist', grt: 'Graphic technician', his: 'Host institution',
  hnr: 'Honoree', hst: 'Host', Ill: 'Illustrator', ill: 'Illustrator', ilu: 'Illuminator', ins: 'Inscriber',
  inv: 'Inventor', isb: 'Issuing body', itr: 'Instrumentalist', ive: 'Interviewee', ivr: 'Interviewer',
  jud: 'Judge', jug: 'Jurisdiction governed', kad: 'Cadential author', lbr: 'Laboratory', lbt: 'Librettist',
  ldr: 'Laboratory director', led: 'Lead', lee: 'Libelee-appellee', lel: 'Libelee', len: 'Lender',
  let: 'Libelee-appellant', lgd: 'Lighting designer', lie: 'Libelant-appellee', lil: 'Libelant',
  lit: 'Libelant-appellant', lsa: 'Landscape architect', lse: 'Licensee', lso: 'Licensor',
  ltg: 'Lithographer', lyr: 'Lyricist', mcp: 'Music copyist', mdc: 'Metadata contact', med: 'Medium',
  mfp: 'Manufacture place', mfr: 'Manufacturer', mod: 'Moderator', mon: 'Monitor', mrb: 'Marbler',
  mrk: 'Markup editor', msd: 'Musical director', mte: 'Metal-engraver', mtk: 'Minute taker', mus: 'Musician',
  nrt: 'Narrator', opn: 'Opponent', org: 'Originator', orm: 'Organizer', osp: 'Onscreen presenter',
  oth: 'Other', own: 'Owner', pan: 'Panelist', pat: 'Patron', pbd: 'Publishing director', pbl: 'Publisher',
  pdr: 'Project director', pfr: 'Proofreader', pht: 'Photographer', plt: 'Platemaker',
  pma: 'Permitting agency', pmn: 'Production manager', pop: 'Printer of plates', ppm: 'Papermaker',
  ppt: 'Puppeteer', pra: 'Praeses', prc: 'Process contact', prd: 'Production personnel', pre: 'Presenter',
  prf: 'Performer', prg: 'Programmer', prm: 'Printmaker', prn: 'Production company', pro: 'Producer',
  prp: 'Production place', prs: 'Production designer', prt: 'Printer', prv: 'Provider',
  pta: 'Patent applicant', pte: 'Plaintiff-appellee', ptf: 'Plaintiff', pth: 'Patent holder',
  ptt: 'Plaintiff-appellant', pup: 'Publication place', rbr: 'Rubricator', rcd: 'Recordist',
  rce: 'Recording engineer', rcp: 'Addressee', rdd: 'Radio director', red: 'Redactor', ren: 'Renderer',
  res: 'Researcher', rev: 'Reviewer', rpc: 'Radio producer', rps: 'Repository', rpt: 'Reporter',
  rpy: 'Responsible party', rse: 'Respondent-appellee', rsg: 'Restager', rsp: 'Respondent',
  rsr: 'Restorationist', rst: 'Respondent-appellant', rth: 'Research team head',
  rtm: 'Research team member', sad: 'Scientific advisor', sce: 'Scenarist', scl: 'Sculptor', scr: 'Scribe',
  sds: 'Sound designer', sec: 'Secretary', sgd: 'Stage director', sgn: 'Signer', sht: 'Supporting host',
  sll: 'Seller', sng: 'Singer', spk: 'Speaker', spn: 'Sponsor', spy: 'Second party', srv: 'Surveyor',
  std: 'Set designer', stg: 'Setting', stl: 'Storyteller', stm: 'Stage manager', stn: 'Standards body',
  str: 'Stereotyper', tcd: 'Technical director', tch: 'Teacher', ths: 'Thesis advisor',
  tld: 'Television director', tlp: 'Television producer', trc: 'Transcriber', trl: 'Translator',
  tyd: 'Type designer', tyg: 'Typographer', uvp: 'University place', vac: 'Voice actor', vdg: 'Videographer',
  voc: 'Vocalist', wac: 'Writer of added commentary', wal: 'Writer of added lyrics',
  wam: 'Writer of accompanying material', wat: 'Writer of added text', wdc: 'Woodcutter',
  wde: 'Wood engraver', win: 'Writer of introduction', wit: 'Witness', wpr: 'Writer of preface',
  wst: 'Writer of supplementary textual content',
};

/** How one VuFind author field is filled. */
export interface RelatorFilter {
  /** SolrMarc field specification, e.g. `100abcd:700abcd`. */
  readonly fieldSpec: string;
  /** Tags taken without a relator; their unknown relators are accepted too (VuFind's stock calls). */
  readonly acceptWithoutRelator: readonly string[];
  /** Permitted relator codes. */
  readonly permittedRoles: readonly string[];
}

export const AUTHOR_FILTER: RelatorFilter = {
  fieldSpec: '100abcd:700abcd', acceptWithoutRelator: ['100'], permittedRoles: FIRST_AUTHOR_ROLES,
};
export const SECONDARY_AUTHOR_FILTER: RelatorFilter = {
  fieldSpec: '100abcd:700abcd', acceptWithoutRelator: ['700'], permittedRoles: SECOND_AUTHOR_ROLES,
};
export const CORPORATE_AUTHOR_FILTER: RelatorFilter = {
  fieldSpec: '110ab:111abc:710ab:711ab',
  acceptWithoutRelator: ['110', '111', '710', '711'],
  permittedRoles: [...FIRST_AUTHOR_ROLES, ...SECOND_AUTHOR_ROLES],
};

/** Names and roles as VuFind lists them: `roles` has one entry per accepted role of each field. */
export interface NamesAndRoles {
  readonly names: string[];
  readonly roles: string[];
}

export interface VufindAuthorFields {
  readonly author: NamesAndRoles;
  readonly author2: NamesAndRoles;
  readonly author_corporate: NamesAndRoles;
}

/** Trimmed, lower case, Java's `\p{Punct}` (ASCII punctuation) removed. */
export function normaliseRelator(relator: string): string {
  return trimAsJavaDoes(relator).toLowerCase().replace(/[!-/:-@[-`{-~]+/g, '');
}

function synonymsOf(code: string): string[] {
  const terms = RELATOR_SYNONYMS[code];
  return terms === undefined || terms === '' ? [] : terms.split('|');
}

/** Every normalised code and term of [RelatorSynonyms]. */
const KNOWN_RELATORS: ReadonlySet<string> = new Set(
  Object.entries(RELATOR_SYNONYMS).flatMap(([code, terms]) => [code, ...terms.split('|')].map(normaliseRelator)),
);

/** Normalised term → code, for the codes of both role lists (VuFind fills this as it loads the lists). */
const CODE_OF_TERM: ReadonlyMap<string, string> = new Map(
  [...FIRST_AUTHOR_ROLES, ...SECOND_AUTHOR_ROLES].flatMap((code) =>
    synonymsOf(code).map((term): [string, string] => [normaliseRelator(term), code])),
);

function permittedRelators(codes: readonly string[]): Set<string> {
  return new Set(codes.flatMap((code) => [code, ...synonymsOf(code)].map(normaliseRelator)));
}

// A filter's field spec and permitted relators are the same for every record: worked out once per filter
// (building them per record was most of the mapping's time in the benchmark's profile of a MARC load).
const preparedFilters = new WeakMap<RelatorFilter, { spec: FieldSpec; permitted: Set<string> }>();
function preparedFilter(filter: RelatorFilter): { spec: FieldSpec; permitted: Set<string> } {
  let prepared = preparedFilters.get(filter);
  if (prepared === undefined) {
    prepared = { spec: parseFieldSpec(filter.fieldSpec), permitted: permittedRelators(filter.permittedRoles) };
    preparedFilters.set(filter, prepared);
  }
  return prepared;
}

function relatorsOf(field: MarcDataField, filter: RelatorFilter, permitted: ReadonlySet<string>): string[] {
  const acceptedWithout = filter.acceptWithoutRelator.includes(field.tag);
  // Most name fields have no relator: told in one pass, before any list is made.
  if (!field.subfields.some(isRelatorSubfield)) return acceptedWithout ? [''] : [];
  const terms = field.subfields.filter((subfield) => subfield.code === 'e');
  const codes = field.subfields.filter((subfield) => subfield.code === '4');
  const roles = new Set<string>();
  for (const subfield of [...terms, ...codes]) {
    const relator = normaliseRelator(subfield.value);
    if (permitted.has(relator)) roles.add(CODE_OF_TERM.get(relator) ?? relator);
  }
  if (acceptedWithout) {
    const unknownIn = (subfields: typeof terms): string[] => subfields
      .map((subfield) => trimAsJavaDoes(subfield.value))
      .filter((relator) => relator !== '' && !KNOWN_RELATORS.has(normaliseRelator(relator)));
    const unknownTerms = unknownIn(terms);
    for (const relator of unknownTerms.length > 0 ? unknownTerms : unknownIn(codes)) roles.add(relator);
  }
  return [...roles];
}

function isRelatorSubfield(subfield: MarcSubfield): boolean {
  return subfield.code === 'e' || subfield.code === '4';
}

/** The names and roles one VuFind author field gets from a record. */
export function authorsFilteredByRelator(record: MarcRecord, filter: RelatorFilter): NamesAndRoles {
  const { spec, permitted } = preparedFilter(filter);
  const names: string[] = [];
  const roles: string[] = [];
  for (const field of fieldsNamedBy(record, spec)) {
    const fieldRoles = relatorsOf(field, filter, permitted);
    roles.push(...fieldRoles);
    for (let i = 0; i < fieldRoles.length; i++) {
      for (const codes of spec.codesByTag.get(field.tag) ?? []) {
        const name = joinedSubfields(field, codes);
        if (name !== undefined) names.push(name);
      }
    }
  }
  return { names, roles };
}

/** `author`, `author2` and `author_corporate` with their roles, as VuFind 7.1.1 indexes them. */
export function vufindAuthorFields(record: MarcRecord): VufindAuthorFields {
  return {
    author: authorsFilteredByRelator(record, AUTHOR_FILTER),
    author2: authorsFilteredByRelator(record, SECONDARY_AUTHOR_FILTER),
    author_corporate: authorsFilteredByRelator(record, CORPORATE_AUTHOR_FILTER),
  };
}
