/**
 * A developer's check that a change to the work-key code changed no key: prints, for each source and
 * profile, how many records were keyed, how many keys they made and a sha256 over every record's keys in
 * order. Run it on two builds (this one and another checkout's `dist/`, named with `--root`) and compare
 * the lines: equal digests, equal keys.
 *
 * Sources, each keyed under `vufind` and `extended`:
 * - the benchmark's generated documents (tools/bench/catalogGenerator.ts), `--generated N` of them,
 *   through WORK_KEY_PROFILES' keysOfDocument;
 * - MARC files named as arguments (`.xml` MARCXML, `.mrc` ISO 2709): the keys the MARC mapping writes
 *   (recordDocumentFromMarc with each keyProfile), and keysOfDocument on the mapped document without them;
 * - JSON Lines files of record documents, and folders of them: keysOfDocument on each document, and on
 *   each again with `language` set to each of LANGUAGES (the title rules read it);
 * - a labelled grouping fixture (`{"id", "work", "marc" | "dc"}` lines, test/support/labelledRecords.ts):
 *   its MARC records with their own language and each of LANGUAGES;
 * - a transliteration samples file (`{"samples": [{ "text" }]}`): each text as title and author.
 *
 * Usage: node dist/tools/workKeyDigest.js [--root <a checkout>/dist] [--generated N] [paths…]
 * The repository's tests never need it; the paths are the caller's.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Languages every document and labelled MARC record is also keyed with (articles, "&", "or" differ). */
const LANGUAGES = [undefined, 'eng', 'fre', 'ger', 'spa', 'por', 'ita', 'dut', 'swe', 'cat', 'hun'];

type Keyer = (document: unknown) => string[];
interface Modules {
  readonly profiles: Readonly<Record<'vufind' | 'extended', { keysOfDocument: Keyer }>>;
  readonly generator: { planCatalog(records: number, seed: number): unknown; generateRecords(plan: unknown): Iterable<Record<string, unknown>> };
  readonly ingest: {
    readMarcXml(path: string): AsyncIterable<{ kind: string; record?: unknown }>;
    readIso2709(path: string): AsyncIterable<{ kind: string; record?: unknown }>;
    recordDocumentFromMarc(record: unknown, options: { currentYear: number; keyProfile: string }): Record<string, unknown>;
  };
  readonly labelled: { marcRecordOf(line: unknown): unknown };
  readonly marcStatement: { workStatementFromMarc(record: unknown): unknown };
  readonly extended: { extendedWorkKeys(statement: unknown): string[] };
}

/** One digest: records keyed, keys made, sha256 over each record's keys. */
class KeyDigest {
  private readonly hash = createHash('sha256');
  records = 0;
  keys = 0;

  add(keys: readonly string[]): void {
    this.records++;
    this.keys += keys.length;
    this.hash.update(`${keys.join('\u0001')}\n`);
  }

  line(label: string): string {
    return `${label}: ${this.records} records, ${this.keys} keys, sha256 ${this.hash.digest('hex')}`;
  }
}

async function modulesAt(root: string): Promise<Modules> {
  const load = (path: string) => import(pathToFileURL(join(root, path)).href);
  // A build from before the test helpers left tools/ has the labelled fixture's reader there.
  const labelledReader = ['test/support/labelledRecords', 'tools/grouping/labelledRecords'].find((path) => existsSync(join(root, `${path}.js`)) || existsSync(join(root, `${path}.ts`)));
  return {
    profiles: (await load('src/work-keys/workKeyProfiles.js')).WORK_KEY_PROFILES,
    generator: await load('tools/bench/catalogGenerator.js'),
    ingest: await load('src/ingest/index.js'),
    labelled: await load(`${labelledReader ?? 'test/support/labelledRecords'}.js`),
    // Builds from before src/marc/ kept the MARC work statement in src/ingest/marc/.
    marcStatement: await load('src/work-keys/extended/marcWorkStatement.js').catch(() => load('src/ingest/marc/marcWorkStatement.js')),
    extended: await load('src/work-keys/extended/extendedWorkKeys.js'),
  };
}

const PROFILES = ['vufind', 'extended'] as const;

/** Each document as it is, and with `everyLanguage` again with each of LANGUAGES (undefined: none). */
function digestDocuments(m: Modules, label: string, documents: Iterable<Record<string, unknown>>, everyLanguage: boolean): string[] {
  const digests = PROFILES.map(() => new KeyDigest());
  for (const document of documents) {
    const variants = everyLanguage ? [document, ...LANGUAGES.map((language) => (language === undefined ? withoutLanguage(document) : { ...document, language }))] : [document];
    for (const keyed of variants) PROFILES.forEach((profile, i) => digests[i]?.add(m.profiles[profile].keysOfDocument(keyed)));
  }
  return PROFILES.map((profile, i) => (digests[i] as KeyDigest).line(`${label} [${profile}]`));
}

function withoutLanguage(document: Record<string, unknown>): Record<string, unknown> {
  const { language: _language, ...rest } = document;
  return rest;
}

async function digestMarc(m: Modules, path: string): Promise<string[]> {
  const read = path.endsWith('.xml') ? m.ingest.readMarcXml(path) : m.ingest.readIso2709(path);
  const mapped = PROFILES.map(() => new KeyDigest());
  const documents: Record<string, unknown>[] = [];
  let problems = 0;
  for await (const item of read) {
    if (item.kind !== 'record') {
      problems++;
      continue;
    }
    const record = withControlNumber(item.record as MarcShape, mapped[0]?.records ?? 0);
    PROFILES.forEach((keyProfile, i) => {
      const document = m.ingest.recordDocumentFromMarc(record, { currentYear: 2025, keyProfile });
      mapped[i]?.add(document.work_keys_str_mv as string[]);
      if (keyProfile === 'vufind') {
        const { work_keys_str_mv: _keys, ...withoutKeys } = document;
        documents.push(withoutKeys);
      }
    });
  }
  return [
    ...PROFILES.map((profile, i) => (mapped[i] as KeyDigest).line(`${path} MARC mapping (${problems} unreadable) [${profile}]`)),
    ...digestDocuments(m, `${path} mapped documents, each language`, documents, true),
  ];
}

interface MarcShape {
  readonly leader: string;
  readonly fields: readonly { readonly tag: string; readonly value?: string }[];
}

/** The mapping refuses a record without a 001 (the Concerto file's ids are in 901); keys do not read it. */
function withControlNumber(record: MarcShape, position: number): MarcShape {
  return record.fields.some((field) => field.tag === '001') ? record : { ...record, fields: [{ tag: '001', value: `record ${position + 1}` }, ...record.fields] };
}

function jsonLinesDocuments(path: string): Record<string, unknown>[] {
  return readFileSync(path, 'utf8').split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as Record<string, unknown>);
}

function digestLabelled(m: Modules, path: string, lines: Record<string, unknown>[]): string[] {
  const digest = new KeyDigest();
  for (const line of lines) {
    if (line.marc === undefined) continue;
    for (const language of [line.language as string | undefined, ...LANGUAGES.slice(1)]) {
      digest.add(m.extended.extendedWorkKeys(m.marcStatement.workStatementFromMarc(m.labelled.marcRecordOf({ ...line, language }))));
    }
  }
  return [digest.line(`${path} labelled MARC, each language [extended]`)];
}

async function digestPath(m: Modules, path: string): Promise<string[]> {
  if (statSync(path).isDirectory()) {
    const out: string[] = [];
    for (const name of readdirSync(path).sort()) {
      const inner = join(path, name);
      if (statSync(inner).isDirectory() || /\.(jsonl|mrc)$/.test(name) || name.endsWith('samples.json')) out.push(...(await digestPath(m, inner)));
    }
    return out;
  }
  if (path.endsWith('.mrc') || path.endsWith('.xml')) return digestMarc(m, path);
  if (path.endsWith('.json')) {
    const texts = (JSON.parse(readFileSync(path, 'utf8')) as { samples: { text: string }[] }).samples.map((sample) => sample.text);
    return digestDocuments(m, `${path} texts as title and author`, texts.map((text, i) => ({ id: String(i), title: text, author: text })), true);
  }
  const lines = jsonLinesDocuments(path);
  if (lines.some((line) => line.work !== undefined && (line.marc !== undefined || line.dc !== undefined))) return digestLabelled(m, path, lines);
  return digestDocuments(m, `${path} documents, each language`, lines, true);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const option = (name: string): string | undefined => {
    const at = args.indexOf(name);
    return at >= 0 ? args.splice(at, 2)[1] : undefined;
  };
  const root = option('--root') ?? fileURLToPath(new URL('..', import.meta.url));
  const generated = Number(option('--generated') ?? '0');
  const m = await modulesAt(root);
  const out: string[] = [];
  if (generated > 0) out.push(...digestDocuments(m, `${generated} generated documents`, m.generator.generateRecords(m.generator.planCatalog(generated, 20240611)), false));
  for (const path of args) out.push(...(await digestPath(m, path)));
  process.stdout.write(`${out.join('\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`workKeyDigest: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
