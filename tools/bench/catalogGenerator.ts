/**
 * A deterministic generator of realistic catalog record documents for the benchmark.
 *
 * Works get sizes with the shape of a real union catalog of theses and books (most works have one record,
 * 99% at most seven, about 1% more than twenty, a few with thousands); each work has a language (pt, es,
 * en), a title, an author and a year, and its records vary the way harvested records do (capitalisation,
 * trailing punctuation, dropped accents, format, date style, links, sometimes a uniform title). Records of
 * one work always share author and normalised title, so the load path computes the keys that group them:
 * the documents carry no `work_keys_str_mv`, because computing keys is part of what loading costs.
 *
 * Everything follows from (records, seed): the same arguments give the same documents in the same order,
 * so a benchmark index can be rebuilt or reused and the sample ids known without reading it back.
 */

/** Bump when the documents change, so an index kept with --keep is not reused across versions. */
export const GENERATOR_VERSION = 1;
export const DEFAULT_SEED = 20240611;

/** A small xorshift generator with a multiplicative output step; good enough for test data, and stable. */
export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    // xorshift must not start at zero; mixing the seed also spreads nearby seeds apart.
    this.state = (Math.imul(seed ^ 0x5bd1e995, 0x27d4eb2d) ^ 0x9e3779b9) >>> 0 || 0x1234567;
  }

  /** A uniform number in [0, 1). */
  next(): number {
    let x = this.state;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.state = x >>> 0;
    return (Math.imul(this.state, 0x2545f491) >>> 0) / 4_294_967_296;
  }

  /** A whole number in [0, n). */
  below(n: number): number {
    return Math.floor(this.next() * n);
  }

  pick<T>(list: readonly T[]): T {
    return list[this.below(list.length)] as T;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }
}

/** A seed for one (seed, a, b) triple, so each work and each record has its own reproducible stream. */
function mix(seed: number, a: number, b = 0): number {
  let h = Math.imul(seed ^ Math.imul(a + 1, 0x85ebca6b), 0xc2b2ae35) ^ Math.imul(b + 1, 0x27d4eb2f);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  return h >>> 0;
}

// ---------------------------------------------------------------------------------------------------
// Work sizes

/** Cumulative probabilities of work sizes 1…7 (the 99% of works with at most seven records). */
const SMALL_SIZES: ReadonlyArray<readonly [number, number]> = [
  [1, 0.78], [2, 0.90], [3, 0.945], [4, 0.967], [5, 0.979], [6, 0.986], [7, 0.99],
];
/** Of the remaining 1%: a few works of 8–20 records, the rest more than twenty. */
const MEDIUM_SHARE = 0.001;
/** Very large works (anthologies, classics, serial reprints), as fractions of the catalog. */
const GIANT_FRACTIONS: readonly number[] = [0.005, 0.003, 0.002, 0.001];
/** Pareto tail of the works with more than twenty records (shape, and the largest size it draws). */
const TAIL_SHAPE = 1.4;
const TAIL_CAP = 600;

function workSize(random: SeededRandom): number {
  const u = random.next();
  for (const [size, upTo] of SMALL_SIZES) if (u < upTo) return size;
  if (u < 0.99 + MEDIUM_SHARE) return 8 + random.below(13);
  // Drawn again above the cap (rather than clipped), so no artificial pile of works sits at the cap.
  for (;;) {
    const tail = Math.floor(21 * Math.pow(1 - random.next(), -1 / TAIL_SHAPE));
    if (tail <= TAIL_CAP) return tail;
  }
}

export interface CatalogPlan {
  readonly records: number;
  readonly seed: number;
  /** Records per work, giants first. */
  readonly workSizes: Int32Array;
  /** The work of each record, in load order (works interleaved, as harvests from many sources are). */
  readonly workOfRecord: Int32Array;
  /** Indexes (in workSizes) of the very large works. */
  readonly giantWorks: readonly number[];
}

/** Which work each of `records` records belongs to; cheap (a few hundred ms for a million). */
export function planCatalog(records: number, seed = DEFAULT_SEED): CatalogPlan {
  if (!Number.isSafeInteger(records) || records < 1) throw new RangeError(`records must be a whole number >= 1, not ${records}`);
  const random = new SeededRandom(mix(seed, 1));
  const sizes: number[] = [];
  let total = 0;
  const giantWorks: number[] = [];
  for (const fraction of GIANT_FRACTIONS) {
    const size = Math.round(records * fraction);
    if (size < 2 || total + size > records) continue;
    giantWorks.push(sizes.length);
    sizes.push(size);
    total += size;
  }
  while (total < records) {
    const size = Math.min(workSize(random), records - total);
    sizes.push(size);
    total += size;
  }
  const workSizes = Int32Array.from(sizes);
  const workOfRecord = new Int32Array(records);
  let slot = 0;
  for (let work = 0; work < workSizes.length; work++) {
    for (let k = 0; k < (workSizes[work] ?? 0); k++) workOfRecord[slot++] = work;
  }
  // Fisher–Yates with the seeded generator: versions of one work arrive spread over the whole load.
  for (let i = records - 1; i > 0; i--) {
    const j = random.below(i + 1);
    const t = workOfRecord[i] as number;
    workOfRecord[i] = workOfRecord[j] as number;
    workOfRecord[j] = t;
  }
  return { records, seed, workSizes, workOfRecord, giantWorks };
}

// ---------------------------------------------------------------------------------------------------
// Words

type Language = 'pt' | 'es' | 'en';

interface Vocabulary {
  readonly articles: readonly string[];
  readonly nouns: readonly string[];
  readonly adjectives: readonly string[];
  readonly joins: readonly string[];
}

const VOCABULARY: Readonly<Record<Language, Vocabulary>> = {
  pt: {
    articles: ['O', 'A', 'Os', 'As', 'Um', 'Uma'],
    nouns: ['ensino', 'ciências', 'escola', 'educação', 'saúde', 'política', 'história', 'memória', 'cidade', 'território',
      'trabalho', 'família', 'linguagem', 'literatura', 'música', 'agricultura', 'água', 'floresta', 'economia', 'reforma',
      'formação', 'professores', 'estudantes', 'comunidade', 'identidade', 'cultura', 'análise', 'avaliação', 'gestão', 'tecnologia',
      'energia', 'solo', 'bacia', 'produção', 'desenvolvimento', 'violência', 'gênero', 'infância', 'poesia', 'romance',
      'arquitetura', 'paisagem', 'direito', 'justiça', 'mercado', 'crise', 'migração', 'fronteira', 'imprensa', 'religião'],
    adjectives: ['pública', 'brasileira', 'rural', 'urbana', 'contemporânea', 'colonial', 'popular', 'sustentável', 'digital',
      'regional', 'social', 'ambiental', 'crítica', 'indígena', 'amazônica', 'nordestina', 'paulista', 'básica', 'superior', 'moderna'],
    joins: ['de', 'da', 'do', 'na', 'no', 'e', 'para', 'em', 'sobre a', 'entre a'],
  },
  es: {
    articles: ['El', 'La', 'Los', 'Las', 'Un', 'Una'],
    nouns: ['enseñanza', 'ciencia', 'escuela', 'educación', 'salud', 'política', 'historia', 'memoria', 'ciudad', 'territorio',
      'trabajo', 'familia', 'lenguaje', 'literatura', 'música', 'agricultura', 'agua', 'bosque', 'economía', 'reforma',
      'formación', 'docentes', 'estudiantes', 'comunidad', 'identidad', 'cultura', 'análisis', 'evaluación', 'gestión', 'tecnología',
      'energía', 'suelo', 'cuenca', 'producción', 'desarrollo', 'violencia', 'género', 'niñez', 'poesía', 'novela',
      'arquitectura', 'paisaje', 'derecho', 'justicia', 'mercado', 'crisis', 'migración', 'frontera', 'prensa', 'religión'],
    adjectives: ['pública', 'mexicana', 'rural', 'urbana', 'contemporánea', 'colonial', 'popular', 'sostenible', 'digital',
      'regional', 'social', 'ambiental', 'crítica', 'indígena', 'andina', 'rioplatense', 'chilena', 'básica', 'superior', 'moderna'],
    joins: ['de', 'del', 'de la', 'en la', 'en el', 'y', 'para', 'en', 'sobre la', 'entre la'],
  },
  en: {
    articles: ['The', 'A', 'An'],
    nouns: ['teaching', 'science', 'school', 'education', 'health', 'policy', 'history', 'memory', 'city', 'territory',
      'labour', 'family', 'language', 'literature', 'music', 'agriculture', 'water', 'forest', 'economy', 'reform',
      'training', 'teachers', 'students', 'community', 'identity', 'culture', 'analysis', 'assessment', 'management', 'technology',
      'energy', 'soil', 'basin', 'production', 'development', 'violence', 'gender', 'childhood', 'poetry', 'novel',
      'architecture', 'landscape', 'law', 'justice', 'market', 'crisis', 'migration', 'border', 'press', 'religion'],
    adjectives: ['public', 'Brazilian', 'rural', 'urban', 'contemporary', 'colonial', 'popular', 'sustainable', 'digital',
      'regional', 'social', 'environmental', 'critical', 'indigenous', 'Amazonian', 'Andean', 'Atlantic', 'basic', 'higher', 'modern'],
    joins: ['of', 'of the', 'in the', 'in', 'and', 'for', 'on', 'between', 'beyond the', 'after the'],
  },
};

const SURNAMES: readonly string[] = [
  'Silva', 'Santos', 'Oliveira', 'Souza', 'Pereira', 'Lima', 'Carvalho', 'Ferreira', 'Rodrigues', 'Almeida', 'Costa', 'Gomes',
  'Martins', 'Araújo', 'Barbosa', 'Ribeiro', 'Rocha', 'Dias', 'Moreira', 'Cardoso', 'Teixeira', 'Correia', 'Mendes', 'Nunes',
  'Soares', 'Vieira', 'Monteiro', 'Freitas', 'Castro', 'Campos', 'González', 'Rodríguez', 'Fernández', 'López', 'Martínez',
  'Sánchez', 'Pérez', 'Gómez', 'Díaz', 'Hernández', 'Muñoz', 'Jiménez', 'Ruiz', 'Álvarez', 'Romero', 'Navarro', 'Torres',
  'Domínguez', 'Vázquez', 'Ramos', 'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Miller', 'Davis', 'Wilson', 'Taylor',
  'Anderson', 'Thomas', 'Moore', 'Martin', 'Thompson', 'White', 'Harris', 'Clark', 'Lewis', 'Walker', 'Hall', 'Young', 'King',
];
const GIVEN_NAMES: readonly string[] = [
  'Ana', 'Maria', 'José', 'João', 'Antônio', 'Francisco', 'Carlos', 'Paulo', 'Pedro', 'Lucas', 'Luiz', 'Marcos', 'Clara',
  'Beatriz', 'Juliana', 'Fernanda', 'Patrícia', 'Aline', 'Camila', 'Rafael', 'Daniel', 'Bruno', 'Eduardo', 'Felipe', 'Gustavo',
  'Helena', 'Isabel', 'Joaquim', 'Lúcia', 'Mariana', 'Natália', 'Otávio', 'Renata', 'Sérgio', 'Tiago', 'Vitória', 'Javier',
  'Alejandro', 'Sofía', 'Lucía', 'Martín', 'Mateo', 'Valentina', 'Diego', 'Andrés', 'Elena', 'Jorge', 'Inés', 'Ramón',
  'Emily', 'James', 'John', 'Robert', 'Michael', 'William', 'David', 'Richard', 'Susan', 'Margaret', 'Elizabeth', 'Sarah',
];
const INSTITUTIONS: readonly string[] = [
  'Universidade de São Paulo', 'Universidade Estadual de Campinas', 'Universidade Federal do Rio Grande do Sul',
  'Universidade Federal de Minas Gerais', 'Universidade Federal de Santa Catarina', 'Universidade de Brasília',
  'Universidade Federal da Bahia', 'Universidad Nacional Autónoma de México', 'Universidad de Buenos Aires',
  'Universidad de Chile', 'Universidad Complutense de Madrid', 'University of Texas at Austin',
];
/** Record-id shapes of the repositories a union catalog harvests; colons and slashes need URL encoding. */
const SOURCES: ReadonlyArray<(serial: number) => string> = [
  (n) => `usp:${n}`,
  (n) => `bdtd:UFRGS_10183/${n}`,
  (n) => `oai:repositorio.unicamp.br:REPOSIP/${n}`,
  (n) => `ufmg:${n.toString(36).toUpperCase()}`,
  (n) => `oai:repositorio.unb.br:10482/${n}`,
  (n) => `scielo:S0101-${n}`,
  (n) => `unam:TES01${n}`,
  (n) => `ebook-vendor:${n}`,
];
const BOOK_FORMATS: readonly string[] = ['Book', 'Book', 'Book', 'eBook', 'Large Print'];
const WORK_FORMATS: readonly string[] = ['Book', 'Book', 'Book', 'Thesis', 'Thesis', 'Dissertation', 'Article', 'eBook', 'Audio Book', 'Video'];

// ---------------------------------------------------------------------------------------------------
// Works and records

interface Work {
  readonly language: Language;
  readonly title: string;
  readonly subtitleAt: number; // index of ':' in title, or -1
  readonly author: string | undefined;
  readonly institution: string | undefined;
  readonly uniformTitle: string | undefined;
  readonly format: string;
  readonly year: number;
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function titleOf(random: SeededRandom, vocabulary: Vocabulary): string {
  const parts: string[] = [];
  if (random.chance(0.5)) parts.push(random.pick(vocabulary.articles), random.pick(vocabulary.nouns));
  else parts.push(capitalise(random.pick(vocabulary.nouns)));
  if (random.chance(0.6)) parts.push(random.pick(vocabulary.adjectives));
  const phrases = 2 + random.below(2);
  for (let i = 0; i < phrases; i++) {
    parts.push(random.pick(vocabulary.joins), random.pick(vocabulary.nouns));
    if (random.chance(0.35)) parts.push(random.pick(vocabulary.adjectives));
  }
  // A serial-like number keeps unrelated works apart even where the words happen to repeat.
  if (random.chance(0.15)) parts.push(String(1 + random.below(40)));
  let title = parts.join(' ');
  if (random.chance(0.3)) title += `: ${random.pick(vocabulary.nouns)} ${random.pick(vocabulary.joins)} ${random.pick(vocabulary.nouns)}`;
  return title;
}

function authorOf(random: SeededRandom): string {
  const given = random.chance(0.5) ? `${random.pick(GIVEN_NAMES)} ${random.pick(GIVEN_NAMES)}` : random.pick(GIVEN_NAMES);
  const surname = random.chance(0.3) ? `${random.pick(SURNAMES)} ${random.pick(SURNAMES)}` : random.pick(SURNAMES);
  return `${surname}, ${given}`;
}

function workOf(seed: number, work: number, size: number): Work {
  const random = new SeededRandom(mix(seed, 2, work));
  const language: Language = random.chance(0.55) ? 'pt' : random.chance(0.5) ? 'es' : 'en';
  const title = titleOf(random, VOCABULARY[language]);
  const format = random.pick(WORK_FORMATS);
  // Big works are classics with uniform titles; a few singletons are anonymous and have no key at all.
  const anonymous = size === 1 ? random.chance(0.02) : random.chance(0.03);
  const uniformTitle = size > 20 || (!anonymous && random.chance(0.1)) || (anonymous && size > 1)
    ? `${title.split(':')[0]?.trim()}. ${capitalise(language === 'pt' ? 'português' : language === 'es' ? 'español' : 'english')}`
    : undefined;
  return {
    language,
    title,
    subtitleAt: title.indexOf(':'),
    author: anonymous ? undefined : authorOf(random),
    institution: format === 'Thesis' || format === 'Dissertation' ? random.pick(INSTITUTIONS) : undefined,
    uniformTitle,
    format,
    year: 1950 + random.below(75),
  };
}

const ACCENTS = /[\u0300-\u036f]/g;

function titleCase(text: string): string {
  return text.replace(/(^|\s)(\p{L})/gu, (_m, space: string, letter: string) => space + letter.toUpperCase());
}

/** How one harvested record writes its work's title: the same letters and digits, other surface. */
function varyTitle(random: SeededRandom, title: string): string {
  const u = random.next();
  let text = u < 0.6 ? title : u < 0.75 ? title.toLowerCase() : u < 0.85 ? title.toUpperCase() : titleCase(title);
  if (random.chance(0.1)) text = text.normalize('NFD').replace(ACCENTS, '').normalize('NFC');
  const v = random.next();
  return v < 0.1 ? `${text} /` : v < 0.2 ? `${text}.` : text;
}

function varyAuthor(random: SeededRandom, author: string): string {
  const u = random.next();
  if (u < 0.1) {
    const [surname = '', given = ''] = author.split(', ');
    return `${surname.toUpperCase()}, ${given}`;
  }
  return u < 0.2 ? `${author}.` : author;
}

const MS_2015 = Date.UTC(2015, 0, 1);
const MS_SPAN = Date.UTC(2025, 5, 30) - MS_2015;

/** The record document of member `member` of `work`, the record at `slot` of the load order. */
function recordDocument(seed: number, plan: CatalogPlan, work: number, member: number, slot: number): Record<string, unknown> {
  const size = plan.workSizes[work] ?? 1;
  const w = workOf(seed, work, size);
  const random = new SeededRandom(mix(seed, 3 + work, member));
  const serial = Math.imul(slot + 1, 0x9e3779b1) >>> 0; // a bijection: unique, but not in load order
  const id = random.pick(SOURCES)(serial);
  const title = varyTitle(random, w.title);
  const document: Record<string, unknown> = { id, title };
  if (w.subtitleAt > 0 && random.chance(0.5)) document.title_short = title.slice(0, w.subtitleAt).trim();
  // An anonymous work is held together by its uniform title alone, so each of its records carries it.
  if (w.uniformTitle !== undefined && (size > 20 || w.author === undefined || random.chance(0.6))) document.title_uniform = w.uniformTitle;
  if (w.author !== undefined) {
    const author = varyAuthor(random, w.author);
    document.author = random.chance(0.1) ? [author, authorOf(random)] : author;
  }
  if (random.chance(0.2)) document.author2 = random.chance(0.5) ? authorOf(random) : [authorOf(random), authorOf(random)];
  if (w.institution !== undefined) document.author_corporate = w.institution;
  const format = w.format === 'Book' && random.chance(0.3) ? random.pick(BOOK_FORMATS) : w.format;
  document.format = random.chance(0.08) ? [format, 'Online'] : format;
  const year = size > 1 && random.chance(0.4) ? w.year + random.below(40) : w.year;
  const style = random.next();
  document.publishDate = style < 0.75 ? String(year) : style < 0.85 ? `c${year}` : style < 0.93 ? `[${year}?]` : `${year}-0${1 + random.below(9)}-1${random.below(10)}`;
  document.last_indexed = new Date(MS_2015 + Math.floor(random.next() * MS_SPAN)).toISOString();
  if (random.chance(0.4)) {
    const handle = `https://repositorio.example.edu.br/handle/${1000 + (serial % 9000)}/${serial}`;
    document.url = random.chance(0.1) ? [handle, `https://doi.example.org/10.1234/${serial.toString(36)}`] : handle;
  }
  return document;
}

/** The record documents of the plan, in load order. A generator: a million documents never sit in memory. */
export function* generateRecords(plan: CatalogPlan): Generator<Record<string, unknown>> {
  const members = new Int32Array(plan.workSizes.length);
  for (let slot = 0; slot < plan.records; slot++) {
    const work = plan.workOfRecord[slot] as number;
    const member = members[work] as number;
    members[work] = member + 1;
    yield recordDocument(plan.seed, plan, work, member, slot);
  }
}

export interface SampleRecord {
  readonly id: string;
  /** Records in its work, as planned (what findVersions should report as its total). */
  readonly workSize: number;
}

export interface CatalogSample {
  /** Records drawn uniformly from the whole catalog (what traffic on record pages looks like). */
  readonly typical: readonly SampleRecord[];
  /** Records of the very large works, spread over them. */
  readonly large: readonly SampleRecord[];
  readonly giantSizes: readonly number[];
  readonly works: number;
  readonly singletonShare: number;
  readonly upToSevenShare: number;
  readonly overTwentyShare: number;
}

/** Ids to query: a uniform sample of records, and records of the giant works; keyless records left out. */
export function sampleCatalog(plan: CatalogPlan, typicalCount: number, largeCount: number): CatalogSample {
  const random = new SeededRandom(mix(plan.seed, 4));
  const wantTypical = new Map<number, number>(); // slot → work
  const giants = new Set(plan.giantWorks);
  const giantSlots: number[] = [];
  for (let slot = 0; slot < plan.records; slot++) if (giants.has(plan.workOfRecord[slot] as number)) giantSlots.push(slot);
  for (let tries = 0; wantTypical.size < Math.min(typicalCount, plan.records) && tries < typicalCount * 20; tries++) {
    const slot = random.below(plan.records);
    wantTypical.set(slot, plan.workOfRecord[slot] as number);
  }
  const wantLarge = new Set<number>();
  for (let tries = 0; wantLarge.size < Math.min(largeCount, giantSlots.length) && tries < largeCount * 20; tries++) {
    wantLarge.add(giantSlots[random.below(giantSlots.length)] as number);
  }
  // Re-derive the wanted documents by replaying member numbering up to each slot.
  const typical: SampleRecord[] = [];
  const large: SampleRecord[] = [];
  const members = new Int32Array(plan.workSizes.length);
  for (let slot = 0; slot < plan.records; slot++) {
    const work = plan.workOfRecord[slot] as number;
    const member = members[work] as number;
    members[work] = member + 1;
    const isTypical = wantTypical.has(slot);
    if (!isTypical && !wantLarge.has(slot)) continue;
    const document = recordDocument(plan.seed, plan, work, member, slot);
    if (document.author === undefined && document.title_uniform === undefined) continue; // no keys: no versions query
    const sample = { id: document.id as string, workSize: plan.workSizes[work] ?? 1 };
    if (isTypical) typical.push(sample);
    else large.push(sample);
  }
  const sizes = plan.workSizes;
  let ones = 0;
  let upToSeven = 0;
  let overTwenty = 0;
  for (const size of sizes) {
    if (size === 1) ones++;
    if (size <= 7) upToSeven++;
    if (size > 20) overTwenty++;
  }
  // Shuffle so that requests do not walk the catalog in load order.
  for (const list of [typical, large]) {
    for (let i = list.length - 1; i > 0; i--) {
      const j = random.below(i + 1);
      [list[i], list[j]] = [list[j] as SampleRecord, list[i] as SampleRecord];
    }
  }
  return {
    typical,
    large,
    giantSizes: plan.giantWorks.map((work) => sizes[work] ?? 0),
    works: sizes.length,
    singletonShare: ones / sizes.length,
    upToSevenShare: upToSeven / sizes.length,
    overTwentyShare: overTwenty / sizes.length,
  };
}

/** Request ids as the benchmark asks for them: mostly records drawn uniformly from the catalog, plus 5% from the very large works, shuffled. */
export function requestIds(sample: CatalogSample, seed: number): string[] {
  const random = new SeededRandom(seed ^ 0x5eed);
  const large = sample.large.map((s) => s.id);
  const ids = sample.typical.map((s) => s.id);
  const extra = Math.round(ids.length / 19);
  for (let i = 0; i < extra && large.length > 0; i++) ids.push(large[i % large.length] as string);
  for (let i = ids.length - 1; i > 0; i--) {
    const j = random.below(i + 1);
    [ids[i], ids[j]] = [ids[j] as string, ids[i] as string];
  }
  return ids;
}
