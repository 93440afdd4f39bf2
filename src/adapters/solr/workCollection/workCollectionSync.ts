/**
 * Keeps a work collection (workCollectionAdmin.ts made it) in step with a catalogue's core, reading the
 * core only (docs/solr.md, "The work collection"), as workIndexSync.ts keeps a work index file:
 *
 * - The first run walks the whole core with `cursorMark` (sort `id asc`) and writes each page's documents
 *   (workCollectionDocument below) while the next page is read, with at most two update requests out
 *   (pageWriter below). A page is confirmed once its request and every earlier one succeeded; the state
 *   document, with the cursor after the pages confirmed so far, rides in the next page's request (a
 *   request that fails part-way, each shard answering for itself, records nothing it did not write), and
 *   a run stopped by an error records the cursor it reached: a run stopped anywhere resumes from the page
 *   after the last one recorded (a page written twice is the same documents again).
 *   Before the walk it reads the core's highest `_version_` (solrVersionWatch.ts, no sort on `_version_`);
 *   later runs start from it, so documents changed during the walk are taken again.
 * - Later runs take the documents whose `_version_` is above W (`_version_:{W TO V]`, V the core's highest
 *   when the run starts), then move W to V; then compare counts, and when the core holds a different
 *   number an id sweep of both deletes from the collection the documents the core no longer holds.
 * - The collection records, in its state document, the core it follows and the key profile it is keyed
 *   with (the one asked for by the first run, else `vufind`); a run asking for another is refused.
 * - Grouping decisions given to a run rewrite every document's keys; when they differ from the last run's,
 *   the records either names are taken again from the core by id first (workCollectionGrouping.ts).
 * Every run ends with a commit, so what it wrote is what the collection answers.
 *
 * Left to others: keys (src/work-keys/storedDocumentKeys.ts), the decisions' rewrite of them
 * (src/work-keys/curation/curationDecisions.ts), the core's requests (../workIndex/syncReads.ts),
 * facet values (../workIndex/documentFacets.ts), the order time (../workIndex/documentOrder.ts), the
 * collection's requests and the page writer (workCollectionWrites.ts).
 */
import { IndexUnavailableError, InvalidOptionError } from '../../../errors.js';
import { checkKeyProfile, DEFAULT_WORK_KEY_PROFILE, type WorkKeyProfileName } from '../../../work-keys/workKeyProfiles.js';
import { checkStoredKeyFields, keysOf, storedFieldsRead, type StoredKeyFields } from '../../../work-keys/storedDocumentKeys.js';
import { isObject, snippet } from '../solrFaults.js';
import { DEFAULT_SOLR_FIELDS } from '../solrIndexOptions.js';
import { solrIndexVersionProbe } from '../solrVersionWatch.js';
import { facetFieldNamesOf, facetValuesOfDocument, type FacetFieldNames } from '../workIndex/documentFacets.js';
import { orderTimeOf, solrVersionOf } from '../workIndex/documentOrder.js';
import { cursorPages, selectOn, withExactVersions } from '../workIndex/syncReads.js';
import { checkFacetFieldNames, type WorkIndexSyncOptions, type WorkIndexSyncSummary } from '../workIndex/workIndexSync.js';
import { checkCurationDecisions, type CurationDecision, type CurationRules } from '../../../work-keys/curation/curationDecisions.js';
import { groupingOfRun, type RecordedGrouping } from './workCollectionGrouping.js';
import { WORK_COLLECTION_ID_FIELD, WORK_COLLECTION_KEYS_FIELD, WORK_COLLECTION_ORDER_FIELD, WORK_COLLECTION_STATE_ID } from './workCollectionSchema.js';
import { endpointOf, exchange, pageWriter, updateOn, type Endpoint } from './workCollectionWrites.js';

/**
 * The work index sync's options (the core's `url`, `keyProfile`, `storedFields`, `fields`, `rows`,
 * `timeoutMs`, `onProgress`), with the work collection in place of the file: what they say of a new file
 * and its profile, they say of a new collection.
 */
export type WorkCollectionSyncOptions = Omit<WorkIndexSyncOptions, 'path'> & {
  /** The work collection, e.g. http://solr1:8983/solr/catalog-versions-works; user info becomes basic auth. */
  workCollection: { url: string };
  /**
   * The library's grouping decisions (as decisionsFromCurationFile reads them from a file `works export`
   * wrote), applied to every document's keys. The collection records which records they name: a run
   * given other decisions re-keys the records either names; a run given none on a collection synced
   * with some is refused (workCollectionGrouping.ts).
   */
  decisions?: readonly CurationDecision[];
};

/** What a run did, as a work index file's sync says it (`held`: records the collection holds, its state document aside), and the collection's profile. */
export type WorkCollectionSyncSummary = WorkIndexSyncSummary & {
  readonly keyProfile: WorkKeyProfileName;
  /** Records taken again from the core because the grouping decisions differ from the last run's. */
  readonly regrouped: number;
};

/** What the state document records, as JSON in its `state` field. */
interface CollectionState {
  core?: string;
  key_profile?: WorkKeyProfileName;
  walk_done?: boolean;
  cursor?: string;
  walk_done_count?: number;
  walk_start_version?: string;
  highest_version?: string;
  grouping?: RecordedGrouping;
}

const DEFAULT_ROWS = 5000;
const SWEEP_ROWS = 10_000;
/** Ids per request when records are taken again from the core by id (below Solr's 1024 boolean clauses). */
const RETAKE_IDS = 500;

/**
 * A document of the work collection for one stored document of the core (as Solr returns it, `_version_`
 * as exact digits), or why it is refused; `unkeyable` says why it has no keys when it could not be keyed.
 */
export function workCollectionDocument(
  document: Readonly<Record<string, unknown>>, keyProfile: WorkKeyProfileName, storedFields: StoredKeyFields, facetNames: FacetFieldNames,
  rules?: CurationRules,
): { document: Record<string, unknown>; unkeyable?: string } | { refused: string } {
  const id = typeof document.id === 'string' && document.id.trim() !== '' ? document.id : undefined;
  if (id === undefined || id === WORK_COLLECTION_STATE_ID) return { refused: 'no usable id' };
  const orderedAt = orderTimeOf(document);
  if (orderedAt === undefined) return { refused: 'neither last_indexed nor _version_ to order it by' };
  const keyed = keysOf(document, keyProfile, storedFields);
  const out: Record<string, unknown> = { [WORK_COLLECTION_ID_FIELD]: id, [WORK_COLLECTION_ORDER_FIELD]: orderedAt };
  const keys = [...new Set(rules === undefined ? keyed.keys : rules.curatedKeysOf(id, keyed.keys))];
  if (keys.length > 0) out[WORK_COLLECTION_KEYS_FIELD] = keys;
  const version = solrVersionOf(document);
  if (version !== undefined) out.source_version = String(version);
  // Each facet field has a field of its own name in the collection (workCollectionSchema.ts).
  for (const [field, value] of facetValuesOfDocument(document, facetNames)) ((out[field] ??= []) as string[]).push(value);
  return keyed.unkeyable === undefined ? { document: out } : { document: out, unkeyable: keyed.unkeyable };
}

/**
 * The parameters of one page of a walk of the core: sort `id asc` for the cursor, and on a SolrCloud
 * collection every field in the first pass (`distrib.singlePass`): each shard sends its page whole
 * instead of being asked again for the fields of the documents kept, one round less per page (a
 * standalone core ignores it).
 */
export function walkReadParams(query: string, fl: string, rows: number, cursor: string): Array<[string, string]> {
  return [['q', query], ['fl', fl], ['sort', 'id asc'], ['rows', String(rows)], ['cursorMark', cursor], ['distrib.singlePass', 'true']];
}

export async function syncWorkCollection(options: WorkCollectionSyncOptions): Promise<WorkCollectionSyncSummary> {
  const started = Date.now();
  const checked = checkOptions(options);
  const { core, collection, rows } = checked;
  const select = selectOn(core);
  const selectCollection = selectOn(collection);
  const update = updateOn(collection);

  let state = await readState(collection);
  if (state.core !== undefined && state.core !== core.display) {
    throw new InvalidOptionError('url', `${collection.display} is the work collection of ${state.core}, not of ${core.display}`);
  }
  const recorded = state.key_profile === undefined ? undefined : checkKeyProfile(state.key_profile, `key_profile (recorded in ${collection.display})`);
  if (recorded !== undefined && checked.keyProfile !== undefined && checked.keyProfile !== recorded) {
    throw new InvalidOptionError('keyProfile', `${collection.display} is keyed with the ${recorded} profile, not ${checked.keyProfile}: leave keyProfile (--key-profile) out to use the collection's, or sync into a new work collection for ${checked.keyProfile}`);
  }
  const keyProfile = recorded ?? checked.keyProfile ?? DEFAULT_WORK_KEY_PROFILE;
  const { rules, grouping, retake } = groupingOfRun(state.grouping, checked.decisions, collection.display);
  const stateDocument = (next: CollectionState) => ({ id: WORK_COLLECTION_STATE_ID, state: JSON.stringify(next) });
  const saveState = async (next: CollectionState) => {
    await update([stateDocument(next)], 'state');
    state = next;
  };

  // One state write for what a run records before it writes any record.
  const walking = state.walk_done !== true;
  let opening: CollectionState = state.core === undefined || state.key_profile === undefined ? { ...state, core: core.display, key_profile: keyProfile } : state;
  if (walking && state.walk_start_version === undefined) {
    const version = await solrIndexVersionProbe(select, core.display)();
    if (version === undefined) throw new IndexUnavailableError(`Solr ${core.display}: partial results while reading the core's version; sync not started`);
    opening = { ...opening, walk_start_version: version.split('/')[1] || '0', walk_done_count: 0 };
  }
  // Before any page is recorded a walk starts from the first page, with these decisions: nothing to re-key.
  const anyWritten = state.walk_done === true || state.cursor !== undefined;
  if (!anyWritten) opening = { ...opening, grouping };
  if (opening !== state) await saveState(opening);

  const fl = [...new Set(['id', '_version_', 'last_indexed', ...storedFieldsRead(checked.storedFields), ...Object.values(checked.facetNames)])].join(',');
  const unkeyable: Record<string, number> = {};
  let fetched = 0;
  let refused = 0;
  const documentsOf = (docs: ReadonlyArray<Record<string, unknown>>) => {
    const out: Array<Record<string, unknown>> = [];
    for (const doc of docs) {
      const made = workCollectionDocument(doc, keyProfile, checked.storedFields, checked.facetNames, rules);
      if ('refused' in made) {
        refused++;
        continue;
      }
      if (made.unkeyable !== undefined) unkeyable[made.unkeyable] = (unkeyable[made.unkeyable] ?? 0) + 1;
      out.push(made.document);
    }
    fetched += docs.length;
    return out;
  };
  const writer = pageWriter(update);

  // Decisions that differ from the recorded ones: the records either names are taken again from the core.
  let regrouped = 0;
  if (anyWritten && retake.length > 0) {
    // Recorded first without a fingerprint: a run stopped before the end takes all of them again.
    await saveState({ ...state, grouping: { records: retake } });
    await writer.run(async (send) => {
      for (let at = 0; at < retake.length; at += RETAKE_IDS) {
        const ids = retake.slice(at, at + RETAKE_IDS);
        const found = await select([['q', ids.map((id) => `id:${JSON.stringify(id)}`).join(' OR ')], ['fl', fl], ['rows', String(ids.length)]], 'work collection regrouping');
        const docs = documentsOf(withExactVersions(found));
        regrouped += docs.length;
        await send(docs, () => undefined);
      }
    });
    await saveState({ ...state, grouping });
  }

  if (walking) {
    let confirmed = { cursor: state.cursor, done: state.walk_done_count ?? 0 };
    let recordedCursor = state.cursor;
    let taken = confirmed.done;
    const pages = cursorPages(select, core.display, state.cursor ?? '*', 'work collection walk', (cursor) => walkReadParams('*:*', fl, rows, cursor));
    await writer.run(async (send) => {
      for await (const { page, next } of pages) {
        const docs = documentsOf(withExactVersions(page));
        // A page's request records the cursor of the pages confirmed before it is sent, never its own: a
        // request that fails part-way (shards answer alone) records nothing it did not write.
        const withState = confirmed.cursor !== recordedCursor ? [...docs, stateDocument({ ...state, cursor: confirmed.cursor, walk_done_count: confirmed.done })] : docs;
        recordedCursor = confirmed.cursor;
        taken += page.docs.length;
        const done = taken;
        await send(withState, () => { confirmed = { cursor: next, done }; });
        checked.onProgress?.({ phase: 'walk', done: confirmed.done, total: page.numFound });
      }
    }, async () => {
      // Stopped: what was confirmed is recorded, if the collection takes it, so the next run resumes there.
      await saveState({ ...state, cursor: confirmed.cursor, walk_done_count: confirmed.done }).catch(() => undefined);
    });
    const { cursor: _cursor, walk_done_count: _count, walk_start_version: from, ...rest } = state;
    await saveState({ ...rest, walk_done: true, ...(from !== undefined ? { highest_version: from } : {}) });
  } else {
    const since = state.highest_version ?? '0';
    const newer = await select([['q', `_version_:{${since} TO *]`], ['rows', '0']], 'work collection changes count');
    if (newer.numFound > 0) {
      const upTo = (await solrIndexVersionProbe(select, core.display)())?.split('/')[1];
      if (upTo === undefined || upTo === '') throw new IndexUnavailableError(`Solr ${core.display}: partial results while reading the core's version; no changes taken`);
      let done = 0;
      const pages = cursorPages(select, core.display, '*', 'work collection changes', (cursor) => walkReadParams(`_version_:{${since} TO ${upTo}]`, fl, rows, cursor));
      await writer.run(async (send) => {
        for await (const { page } of pages) {
          const docs = documentsOf(withExactVersions(page));
          const total = page.numFound;
          await send(docs, () => { done += page.docs.length; });
          checked.onProgress?.({ phase: 'changes', done, total });
        }
      });
      // A stopped run leaves W where it was: the next one takes the same range again.
      await saveState({ ...state, highest_version: upTo });
    }
  }
  await update({ commit: {} }, 'commit');

  // Deletions: a count check, and an id sweep of both only when the counts differ.
  const records = [['q', '*:*'], ['fq', `-id:${JSON.stringify(WORK_COLLECTION_STATE_ID)}`]] as const;
  const inCore = (await select([['q', '*:*'], ['rows', '0']], 'work collection count')).numFound;
  let held = (await selectCollection([...records, ['rows', '0']], 'work collection held')).numFound;
  let removed = 0;
  let swept = false;
  if (inCore !== held) {
    swept = true;
    const coreIds = new Set<string>();
    for await (const { page } of cursorPages(select, core.display, '*', 'work collection id sweep', (cursor) => [['q', '*:*'], ['fl', 'id'], ['sort', 'id asc'], ['rows', String(SWEEP_ROWS)], ['cursorMark', cursor]])) {
      for (const doc of page.docs) if (typeof doc.id === 'string') coreIds.add(doc.id);
      checked.onProgress?.({ phase: 'sweep', done: coreIds.size, total: page.numFound });
    }
    for await (const { page } of cursorPages(selectCollection, collection.display, '*', 'work collection id sweep', (cursor) => [...records, ['fl', 'id'], ['sort', 'id asc'], ['rows', String(SWEEP_ROWS)], ['cursorMark', cursor]])) {
      const gone = page.docs.map((doc) => doc.id).filter((id): id is string => typeof id === 'string' && !coreIds.has(id));
      if (gone.length > 0) await update({ delete: gone }, 'deletions');
      removed += gone.length;
    }
    await update({ commit: {} }, 'commit');
    held = (await selectCollection([...records, ['rows', '0']], 'work collection held')).numFound;
  }
  return { mode: walking ? 'walk' : 'changes', keyProfile, fetched, removed, held, inCore, unkeyable, refused, swept, regrouped, elapsedMs: Date.now() - started };
}

function checkOptions(options: WorkCollectionSyncOptions) {
  if (typeof options !== 'object' || options === null) throw new InvalidOptionError('options', 'the work collection sync needs { url, workCollection: { url } }');
  const whole = (name: string, value: unknown, fallback: number) => {
    if (value === undefined) return fallback;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw new InvalidOptionError(name, `must be a whole number, at least 1, not ${String(value)}`);
    return value;
  };
  const timeoutMs = whole('timeoutMs', options.timeoutMs, 60_000);
  if (typeof options.workCollection !== 'object' || options.workCollection === null) throw new InvalidOptionError('workCollection', 'must be { url } of the work collection');
  const core = endpointOf('url', options.url, timeoutMs);
  const collection = endpointOf('workCollection.url', options.workCollection.url, timeoutMs);
  if (collection.display === core.display) throw new InvalidOptionError('workCollection.url', 'names the catalogue\'s core: the work collection is one of its own (catalog-versions work-collection create)');
  return {
    core, collection, rows: whole('rows', options.rows, DEFAULT_ROWS),
    keyProfile: options.keyProfile === undefined ? undefined : checkKeyProfile(options.keyProfile),
    storedFields: checkStoredKeyFields('storedFields', options.storedFields),
    facetNames: facetFieldNamesOf({ ...DEFAULT_SOLR_FIELDS, ...checkFacetFieldNames(options.fields) }),
    ...(options.onProgress !== undefined ? { onProgress: options.onProgress } : {}),
    ...(options.decisions !== undefined ? { decisions: checkedDecisions(options.decisions) } : {}),
  };
}

function checkedDecisions(decisions: unknown): readonly CurationDecision[] {
  checkCurationDecisions(decisions, 'syncWorkCollection');
  return decisions;
}

/** The state document's record, by real-time get (it needs no commit); empty for a new collection. */
async function readState(collection: Endpoint): Promise<CollectionState> {
  const data = await exchange(collection, `get?id=${encodeURIComponent(WORK_COLLECTION_STATE_ID)}&wt=json`, undefined, 'state');
  const doc = isObject(data) ? data.doc : undefined;
  if (!isObject(doc)) return {};
  try {
    const state = JSON.parse(String(doc.state)) as unknown;
    if (isObject(state)) return state as CollectionState;
  } catch {
    // Fall through to the error below.
  }
  throw new IndexUnavailableError(`Solr ${collection.display}: the work collection's state document holds no readable state: ${snippet(String(doc.state))}`);
}
