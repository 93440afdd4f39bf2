/**
 * The demo's embedded catalog: the demo records, a library's own record file, or an index file it already
 * has. server.ts picks the source from the environment (CATALOG_RECORDS, CATALOG_INDEX); this module opens
 * it and says what it opened.
 *
 * - A record file (JSON Lines, MARC 21 in ISO 2709, MARCXML) is recognised from its content by the same
 *   table `catalog-versions load` uses (detectRecordFormat), read by that format's reader and mapping, and
 *   loaded into an in-memory index.
 * - An index file (made by `catalog-versions load … --db FILE`) is opened read-only, as a production
 *   server opens it; nothing is loaded.
 *
 * Either way the home page suggests records of the index itself (the largest works, a few records alone in
 * theirs) and describes it (records, works, key profile), from the index's works overview
 * (`curation.overview`); FEATURED_IDS, when set, replaces the suggested works (server.ts).
 *
 * Left to others: the host's pages (demoHost.ts), listening and the Solr choice (server.ts).
 */
import { existsSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type { CatalogIndex } from 'koa-catalog-versions';
import { describeRejection, detectRecordFormat, RECORD_FILE_FORMATS, runIngest } from 'koa-catalog-versions/ingest';
import { openEmbeddedIndex, type EmbeddedIndex, type EmbeddedIndexOptions } from 'koa-catalog-versions/sqlite';
import type { DemoSearch } from './demoHost.js';

export interface DemoCatalog {
  readonly index: CatalogIndex;
  /** Records the home page suggests: one of each of the largest works. */
  readonly featured: readonly string[];
  /** Records the home page shows as alone in their work. */
  readonly alone?: readonly string[];
  /** What the home page says of the catalog; absent on a Solr core. */
  readonly facts?: CatalogFacts;
  /** What to say once listening, e.g. how many records were loaded. */
  readonly startMessage: string;
  /** The search box's engine; a Solr core has none here (the demo hides the box and says so). */
  readonly search?: DemoSearch;
}

/** What the home page says of an embedded catalog: where it comes from, its records and works, its key profile. */
export interface CatalogFacts {
  /** The file it was loaded or opened from. */
  readonly file: string;
  readonly records: number;
  readonly works: number;
  /** Works of two records or more. */
  readonly worksOfSeveral: number;
  readonly keyProfile: DemoKeyProfile;
}

/** Works the home page suggests, and records alone in their work it shows. */
const SUGGESTED_WORKS = 12;
const SUGGESTED_ALONE = 4;

/** A work-key profile's name, as openEmbeddedIndex takes it (`extended` or `vufind`). */
export type DemoKeyProfile = NonNullable<EmbeddedIndexOptions['keyProfile']>;

/**
 * Where the embedded catalog comes from: a record file to load (keyed with `keyProfile`, default
 * `extended`), or an index file to read (keyed as it was loaded).
 */
export type EmbeddedSource = { readonly records: string; readonly keyProfile?: DemoKeyProfile } | { readonly indexFile: string };

/** A start-up problem the demo reports in one sentence (and exits), rather than as a stack trace. */
export class DemoCatalogError extends Error {
  override readonly name = 'DemoCatalogError';
}

const SQLITE_HEADER = 'SQLite format 3\0';

export async function openEmbeddedCatalog(source: EmbeddedSource, warn: (message: string) => void = console.warn): Promise<DemoCatalog> {
  if ('indexFile' in source) return openIndexFile(source.indexFile);
  const file = source.records;
  const started = Date.now();
  let format;
  try {
    format = await detectRecordFormat(file);
  } catch (error) {
    throw new DemoCatalogError(`cannot read CATALOG_RECORDS ${file}: ${(error as Error).message}`);
  }
  if (format === undefined) {
    const hint = (await startsWith(file, SQLITE_HEADER)) ? '; it is an index file: give it as CATALOG_INDEX' : '';
    throw new DemoCatalogError(`CATALOG_RECORDS ${file} is none of the formats read here (${RECORD_FILE_FORMATS.map((f) => f.label).join(', ')})${hint}`);
  }
  let index;
  try {
    index = openEmbeddedIndex({ path: ':memory:', keyProfile: source.keyProfile ?? 'extended' });
  } catch (error) {
    throw new DemoCatalogError(`CATALOG_KEY_PROFILE: ${(error as Error).message}`);
  }
  let problems = 0;
  const summary = await runIngest({
    items: format.read(file),
    toDocument: (record, position, keyProfile) => format.toDocument(record, position, undefined, keyProfile),
    writer: index.openWriter(),
    now: () => new Date(),
    onRejected: (rejection) => {
      problems += 1;
      warn(describeRejection(rejection.position, `skipped: ${rejection.reason}`));
    },
  });
  if (summary.loaded === 0) {
    await index.close();
    throw new DemoCatalogError(`CATALOG_RECORDS ${file} (read as ${format.label}) holds no record the demo could load${problems > 0 ? ` (${problems} skipped)` : ''}`);
  }
  return {
    index,
    ...suggestionsOf(index, file, warn),
    search: (text, options) => index.searchRecords(text, options),
    startMessage: `Loaded ${summary.loaded} records from ${file} (${format.label})${problems > 0 ? ` (${problems} skipped)` : ''} in ${Date.now() - started} ms`,
  };
}

async function openIndexFile(path: string): Promise<DemoCatalog> {
  if (!existsSync(path)) throw new DemoCatalogError(`CATALOG_INDEX ${path} does not exist (make it with: npx catalog-versions load FILE --db ${path})`);
  if (!(await startsWith(path, SQLITE_HEADER))) {
    throw new DemoCatalogError(`CATALOG_INDEX ${path} is not an embedded index file (make one with: npx catalog-versions load FILE --db ${path})`);
  }
  let index;
  try {
    index = openEmbeddedIndex({ path, readOnly: true });
  } catch (error) {
    throw new DemoCatalogError(`cannot open CATALOG_INDEX ${path}: ${(error as Error).message}`);
  }
  const opened = index;
  return {
    index: opened,
    ...suggestionsOf(opened, path, console.warn),
    search: (text, options) => opened.searchRecords(text, options),
    startMessage: `Reading the index file ${path} (${await opened.count()} records, read-only)`,
  };
}

/**
 * The home page's suggestions and facts, from the index's works overview. An index file of an earlier
 * layout, which the overview cannot read, is served without them (and the start says so).
 */
function suggestionsOf(index: EmbeddedIndex, file: string, warn: (message: string) => void): Pick<DemoCatalog, 'featured' | 'alone' | 'facts'> {
  let overview;
  try {
    overview = index.curation.overview({ top: SUGGESTED_WORKS });
  } catch (error) {
    warn(`the home page suggests no records: the works of ${file} could not be read (${(error as Error).message})`);
    return { featured: [] };
  }
  return {
    featured: overview.largestWorks.map((work) => work.example.id),
    alone: overview.recordsAlone.slice(0, SUGGESTED_ALONE).map((record) => record.id),
    facts: { file, records: overview.records, works: overview.works, worksOfSeveral: overview.worksOfSeveral, keyProfile: index.keyProfile },
  };
}

/** Whether the file begins with these bytes; false when it cannot be read (the caller's message says why). */
async function startsWith(path: string, header: string): Promise<boolean> {
  try {
    const file = await open(path, 'r');
    try {
      const buffer = Buffer.alloc(header.length);
      const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
      return bytesRead === header.length && buffer.toString('latin1') === header;
    } finally {
      await file.close();
    }
  } catch {
    return false;
  }
}
