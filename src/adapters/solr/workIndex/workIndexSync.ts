/**
 * Keeps the work index beside a Solr core (workIndexFile.ts) in step with the core, reading only
 * (docs/solr.md, "The work index beside the core"): `syncWorkIndex` once, `keepWorkIndexInStep` at an
 * interval inside a server process.
 *
 * - The first run walks the whole core with `cursorMark` (sort `id asc`), a page per transaction that also
 *   saves the next cursor, so a run stopped anywhere resumes from the page after the last one written and
 *   the file is never half-written. The next page is asked for while this one is keyed and stored. The
 *   walk's key links are staged and moved into the answers' table, sorted, when the walk ends
 *   (workIndexFile.ts): until then the file answers every record as a work of its own. Then the file
 *   is compacted (the staging table's pages given back). Before the walk it reads the core's highest `_version_` (the version
 *   read of solrVersionWatch.ts, which never sorts on `_version_`); once the walk is done, later runs start
 *   from that value, so documents changed during the walk are taken again.
 * - Later runs take the documents whose `_version_` is above W, where the last run stopped
 *   (`_version_:{W TO V]`, V the core's highest when the run starts: a range query, which works on point
 *   fields without docValues), and only then move W to V; then they compare counts; when the core holds
 *   a different number than the file, an id sweep (every id of the core, by cursorMark) removes the
 *   documents the core no longer holds.
 * `_version_` values are read as digits from the answer's text: JSON.parse would round them.
 *
 * Every document's facet values (documentFacets.ts) are stored with it, read from the `fields` named (the
 * same option as createSolrIndex's); the file's state `facet_fields` records those names once every
 * document's values are in. A file made before 0.2.0 kept none: its next run first walks the core once
 * more for them (fl: the id and the facet fields; resumable by its own cursor), then takes changes as usual.
 *
 * Left to others: keys (src/work-keys/storedDocumentKeys.ts), storing (workIndexFile.ts), answering (workIndexAnswers.ts),
 * the requests to the core (syncReads.ts).
 */
import { IndexUnavailableError, InvalidOptionError } from '../../../errors.js';
import { checkKeyProfile, type WorkKeyProfileName } from '../../../work-keys/workKeyProfiles.js';
import { solrIndexVersionProbe } from '../solrVersionWatch.js';
import { checkStoredKeyFields, keysOf, storedFieldsRead, type StoredKeyFields } from '../../../work-keys/storedDocumentKeys.js';
import { keyProfileOfWorkIndex, openWorkIndex, type WorkIndex } from './workIndexFile.js';
import { DEFAULT_SOLR_FIELDS, type SolrFieldMap } from '../solrIndexOptions.js';
import { cursorPages, selectOn, withExactVersions } from './syncReads.js';
import { describeFacetFieldNames, facetFieldNamesOf, facetValuesOfDocument, type FacetFieldNames } from './documentFacets.js';

export interface WorkIndexSyncOptions {
  /** The core (or collection) URL, e.g. http://localhost:8983/solr/biblio; user info becomes basic auth. */
  url: string;
  /** The work index file. */
  path: string;
  /**
   * `vufind` or `extended`: the profile a new file is made with (default `vufind`). A file keeps the one it
   * was first made with, which a sync without this option takes; one given that differs is refused.
   */
  keyProfile?: WorkKeyProfileName;
  /** The stored fields non-MARC documents are keyed from (src/work-keys/storedDocumentKeys.ts STORED_KEY_FIELDS). */
  storedFields?: Partial<StoredKeyFields>;
  /** Solr field names where they differ from VuFind's biblio names, as createSolrIndex's `fields`: the facet fields' are read. */
  fields?: Partial<SolrFieldMap>;
  /** Documents per request and per transaction (default 5000). */
  rows?: number;
  /** Deadline of each request in ms (default 60000). */
  timeoutMs?: number;
  /** Called after every page with how far the run got. */
  onProgress?: (progress: WorkIndexSyncProgress) => void;
}

export interface WorkIndexSyncProgress {
  readonly phase: 'walk' | 'facets' | 'changes' | 'sweep';
  /** Documents taken so far in this phase (for the walk, resumed runs included). */
  readonly done: number;
  /** Documents the phase will take in all, as Solr counted them when it started. */
  readonly total: number;
}

export interface WorkIndexSyncSummary {
  readonly mode: 'walk' | 'changes';
  /** Documents fetched and stored (or refused) in this run. */
  readonly fetched: number;
  readonly removed: number;
  /** Documents held by the file at the end. */
  readonly held: number;
  /** Documents the core holds (at the count check). */
  readonly inCore: number;
  /** Documents stored without keys because they could not be keyed, by reason (this run). */
  readonly unkeyable: Readonly<Record<string, number>>;
  /** Documents not stored (no id, nothing to order them by), this run. */
  readonly refused: number;
  readonly swept: boolean;
  readonly elapsedMs: number;
}

const DEFAULT_ROWS = 5000;
const SWEEP_ROWS = 10_000;

export async function syncWorkIndex(options: WorkIndexSyncOptions): Promise<WorkIndexSyncSummary> {
  const checked = checkSyncOptions(options);
  // The file's profile once it is open (nothing is keyed before).
  let keyProfile = checked.keyProfile === undefined ? 'vufind' : checkKeyProfile(checked.keyProfile);
  const index = openWorkIndex({
    path: checked.path,
    keysOf: (document) => keysOf(document, keyProfile, checked.fields),
    facetsOf: (document) => facetValuesOfDocument(document, checked.facetNames),
  });
  try {
    keyProfile = keyProfileOfWorkIndex(index, checked.path, 'keyProfile', checked.keyProfile);
    return await syncOpened(index, { ...checked, keyProfile });
  } finally {
    index.close();
  }
}

/**
 * Runs syncWorkIndex now and then every `intervalMs` (never two at once) until stopped; a failed run is
 * reported to onError and retried at the next interval. A change committed in the core shows in the
 * answers after at most `intervalMs` plus one run's time (docs/solr.md).
 */
export function keepWorkIndexInStep(options: WorkIndexSyncOptions & { intervalMs: number; onError?: (error: unknown) => void; onRun?: (summary: WorkIndexSyncSummary) => void }): { stop(): Promise<void> } {
  checkSyncOptions(options);
  const { intervalMs } = options;
  if (typeof intervalMs !== 'number' || !Number.isInteger(intervalMs) || intervalMs < 1000) throw new InvalidOptionError('intervalMs', `must be a whole number of milliseconds, at least 1000, not ${String(intervalMs)}`);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const run = () => {
    running = syncWorkIndex(options).then((summary) => options.onRun?.(summary), (error) => options.onError?.(error)).finally(() => {
      if (!stopped) timer = setTimeout(run, intervalMs).unref();
    });
  };
  run();
  return { async stop() { stopped = true; clearTimeout(timer); await running; } };
}

interface CheckedSyncOptions {
  /** `keyProfile`: as asked until the file is open, then the file's (keyProfileOfWorkIndex). */
  url: URL; display: string; path: string; keyProfile: WorkKeyProfileName | undefined; fields: StoredKeyFields; facetNames: FacetFieldNames; rows: number; timeoutMs: number;
  onProgress?: (progress: WorkIndexSyncProgress) => void;
}

/** The `fields` option: an object of Solr field names (only the facet fields' are read here). */
export function checkFacetFieldNames(fields: unknown): Partial<SolrFieldMap> {
  if (fields === undefined) return {};
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) throw new InvalidOptionError('fields', 'must be an object of Solr field names, as createSolrIndex\'s');
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(value)) throw new InvalidOptionError(`fields.${name}`, `must be a Solr field name, not ${JSON.stringify(value)}`);
  }
  return fields as Partial<SolrFieldMap>;
}

function checkSyncOptions(options: WorkIndexSyncOptions): CheckedSyncOptions {
  if (typeof options !== 'object' || options === null) throw new InvalidOptionError('options', 'the work index sync needs { url, path }');
  let url: URL;
  try {
    url = new URL(String(options.url));
  } catch {
    throw new InvalidOptionError('url', `is not a URL: ${JSON.stringify(options.url)}`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname.replace(/\/+$/, '') === '') throw new InvalidOptionError('url', 'must be the http(s) URL of the core, e.g. http://localhost:8983/solr/biblio');
  if (typeof options.path !== 'string' || options.path === '') throw new InvalidOptionError('path', 'must name the work index file');
  const whole = (name: string, value: unknown, fallback: number, least: number) => {
    if (value === undefined) return fallback;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < least) throw new InvalidOptionError(name, `must be a whole number, at least ${least}, not ${String(value)}`);
    return value;
  };
  return {
    url, display: `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`, path: options.path,
    keyProfile: options.keyProfile === undefined ? undefined : checkKeyProfile(options.keyProfile),
    fields: checkStoredKeyFields('storedFields', options.storedFields),
    facetNames: facetFieldNamesOf({ ...DEFAULT_SOLR_FIELDS, ...checkFacetFieldNames(options.fields) }),
    rows: whole('rows', options.rows, DEFAULT_ROWS, 1), timeoutMs: whole('timeoutMs', options.timeoutMs, 60_000, 1),
    ...(options.onProgress !== undefined ? { onProgress: options.onProgress } : {}),
  };
}

async function syncOpened(index: WorkIndex, options: CheckedSyncOptions & { keyProfile: WorkKeyProfileName }): Promise<WorkIndexSyncSummary> {
  const started = Date.now();
  const select = selectOn(options);
  const made = index.state('key_profile');
  const core = index.state('core');
  if (core !== undefined && core !== options.display) throw new InvalidOptionError('url', `${options.path} is the work index of ${core}, not of ${options.display}`);
  if (made === undefined || core === undefined) index.setState({ key_profile: options.keyProfile, core: options.display });

  const facetFl = [...new Set(Object.values(options.facetNames))];
  const fl = [...new Set(['id', '_version_', 'last_indexed', ...storedFieldsRead(options.fields), ...facetFl])].join(',');
  const facetFields = describeFacetFieldNames(options.facetNames);
  const unkeyable: Record<string, number> = {};
  let fetched = 0;
  let refused = 0;
  const take = (docs: Array<Record<string, unknown>>, state: Record<string, string | undefined>, staged = false) => index.transaction(() => {
    const summary = index.put(docs, { staged });
    index.setState(state);
    for (const [reason, count] of Object.entries(summary.unkeyable)) unkeyable[reason] = (unkeyable[reason] ?? 0) + count;
    refused += summary.refused.length;
    fetched += docs.length;
  });

  const walking = index.state('walk_done') !== 'true';
  if (walking) {
    if (index.state('walk_start_version') === undefined) {
      // What the core holds before the walk: later runs take everything above it again.
      const version = await solrIndexVersionProbe(select, options.display)();
      if (version === undefined) throw new IndexUnavailableError(`Solr ${options.display}: partial results while reading the core's version; sync not started`);
      // A walk stores every document's facet values: they are complete, from these fields, when it ends.
      index.setState({ walk_start_version: version.split('/')[1] || '0', walk_done_count: '0', facet_walk_fields: facetFields });
    }
    let done = Number(index.state('walk_done_count') ?? 0);
    const pages = cursorPages(select, options.display, index.state('cursor') ?? '*', 'work index walk', (cursor) => [['q', '*:*'], ['fl', fl], ['sort', 'id asc'], ['rows', String(options.rows)], ['cursorMark', cursor]]);
    for await (const { page, next } of pages) {
      const docs = withExactVersions(page);
      done += docs.length;
      take(docs, { cursor: next, walk_done_count: String(done) }, true);
      options.onProgress?.({ phase: 'walk', done, total: page.numFound });
    }
    index.transaction(() => {
      index.moveStagedKeys();
      index.setState({
        walk_done: 'true', cursor: undefined, walk_done_count: undefined, highest_version: index.state('walk_start_version'), walk_start_version: undefined,
        facet_fields: index.state('facet_walk_fields'), facet_walk_fields: undefined,
      });
    });
    index.compact();
  } else {
    if (index.state('facet_fields') !== facetFields) {
      // A file made before facet values were kept, or from other fields: every document's values are
      // read again (the changes below take what changed meanwhile, facets included).
      if (index.state('facet_walk_fields') !== facetFields) index.setState({ facet_walk_fields: facetFields, facet_cursor: undefined, facet_done_count: '0' });
      let done = Number(index.state('facet_done_count') ?? 0);
      const pages = cursorPages(select, options.display, index.state('facet_cursor') ?? '*', 'work index facet walk', (cursor) => [['q', '*:*'], ['fl', ['id', ...facetFl].join(',')], ['sort', 'id asc'], ['rows', String(options.rows)], ['cursorMark', cursor]]);
      for await (const { page, next } of pages) {
        index.transaction(() => {
          index.putFacets(page.docs);
          index.setState({ facet_cursor: next, facet_done_count: String(done + page.docs.length) });
        });
        done += page.docs.length;
        options.onProgress?.({ phase: 'facets', done, total: page.numFound });
      }
      index.setState({ facet_fields: facetFields, facet_walk_fields: undefined, facet_cursor: undefined, facet_done_count: undefined });
    }
    const since = index.highestVersion() ?? '0';
    const newer = await select([['q', `_version_:{${since} TO *]`], ['rows', '0']], 'work index changes count');
    if (newer.numFound > 0) {
      // The changes are taken by id, not by version: W rises only once all of them are in, to the core's
      // highest _version_ read before asking (so a run stopped halfway is run again, and documents
      // changed while it runs are taken by the next).
      const upTo = (await solrIndexVersionProbe(select, options.display)())?.split('/')[1];
      if (upTo === undefined || upTo === '') throw new IndexUnavailableError(`Solr ${options.display}: partial results while reading the core's version; no changes taken`);
      let done = 0;
      const pages = cursorPages(select, options.display, '*', 'work index changes', (cursor) => [['q', `_version_:{${since} TO ${upTo}]`], ['fl', fl], ['sort', 'id asc'], ['rows', String(options.rows)], ['cursorMark', cursor]]);
      for await (const { page } of pages) {
        const docs = withExactVersions(page);
        done += docs.length;
        if (docs.length > 0) take(docs, { highest_version: since });
        options.onProgress?.({ phase: 'changes', done, total: page.numFound });
      }
      index.setState({ highest_version: upTo });
    }
  }

  // Deletions: a count check, and an id sweep only when the counts differ.
  const counted = await select([['q', '*:*'], ['rows', '0']], 'work index count');
  let removed = 0;
  let swept = false;
  if (counted.numFound !== index.count()) {
    swept = true;
    const inCore = new Set<string>();
    const pages = cursorPages(select, options.display, '*', 'work index id sweep', (cursor) => [['q', '*:*'], ['fl', 'id'], ['sort', 'id asc'], ['rows', String(SWEEP_ROWS)], ['cursorMark', cursor]]);
    for await (const { page } of pages) {
      for (const doc of page.docs) if (typeof doc.id === 'string') inCore.add(doc.id);
      options.onProgress?.({ phase: 'sweep', done: inCore.size, total: page.numFound });
    }
    let after = '';
    for (;;) {
      const ids = index.idsAfter(after, SWEEP_ROWS);
      if (ids.length === 0) break;
      const gone = ids.filter((id) => !inCore.has(id));
      if (gone.length > 0) removed += index.remove(gone);
      after = ids[ids.length - 1]!;
    }
  }
  return {
    mode: walking ? 'walk' : 'changes', fetched, removed, held: index.count(), inCore: counted.numFound, unkeyable, refused, swept,
    elapsedMs: Date.now() - started,
  };
}
