/**
 * The health check a deployment's monitor asks (`GET /Search/Versions/health`, or checkIndexHealth from
 * code): whether the index answers a read now, the content version it reports, and for an embedded index
 * whose file the host named (the plugin's `indexFile` option), whether that file is still the one open.
 *
 * Statuses, each with the reason in `problem` (docs/deployment.md, "Health check"):
 *   ok          the index answered a read (and, when it can tell, holds records);
 *   empty       the index answered but holds no record (the port's optional hasRecords): every versions
 *               page would be a 404, as from a server opened on the wrong file or before the first load;
 *   locked      SQLite said the file is locked (another process holds it exclusively) and the read gave up;
 *   missing     the index is not there: the file was removed or replaced since the server opened it (the
 *               server still reads the old one until it restarts), or the engine says the core or table
 *               does not exist;
 *   unavailable anything else: an engine that is down, times out or fails.
 *
 * Left to others: reading (the index adapters), routing and the HTTP answer (pluginRoutes.ts).
 */
import { stat } from 'node:fs/promises';
import { InvalidArgumentError } from '../errors.js';
import type { CatalogIndex } from '../ports.js';

export type IndexHealthStatus = 'ok' | 'empty' | 'locked' | 'missing' | 'unavailable';

export interface IndexHealth {
  readonly status: IndexHealthStatus;
  /** The index's contentVersion() when it reports one and answered; null otherwise. */
  readonly contentVersion: string | null;
  /** When the check ran (ISO 8601). */
  readonly checkedAt: string;
  /** How long the read took, in milliseconds. */
  readonly milliseconds: number;
  /** Why the status is not `ok`. */
  readonly problem?: string;
}

/** The file an embedded index was opened on, as it was when the plugin started: to tell it was replaced. */
export interface WatchedIndexFile {
  readonly path: string;
  /** Device and inode of the file at start; undefined when it could not be read then. */
  readonly identity: string | undefined;
}

export interface IndexHealthOptions {
  readonly indexFile?: WatchedIndexFile;
  readonly now?: () => Date;
}

/** An id no catalog uses: the probe reads the index's tables without finding a record. */
const PROBE_ID = '\u0000koa-catalog-versions health check';

/** Remembers which file is at `path` now (for a later check), without failing when there is none. */
export async function watchIndexFile(path: string): Promise<WatchedIndexFile> {
  if (typeof path !== 'string' || path === '') throw new InvalidArgumentError('watchIndexFile', 'path', 'the path of the index file (a non-empty string)', path);
  return { path, identity: await fileIdentity(path) };
}

/** The report; what is not an index or options is refused (InvalidArgumentError), never reported as a failing index. */
export async function checkIndexHealth(index: CatalogIndex, options: IndexHealthOptions = {}): Promise<IndexHealth> {
  if (typeof index !== 'object' || index === null || typeof index.countVersions !== 'function') {
    throw new InvalidArgumentError('checkIndexHealth', 'index', 'a CatalogIndex (with countVersions), such as openEmbeddedIndex or createSolrIndex gives', index);
  }
  const given = options?.indexFile as Partial<WatchedIndexFile> | null | undefined;
  if (typeof options !== 'object' || options === null || (options.now !== undefined && typeof options.now !== 'function')
    || (given !== undefined && (typeof given !== 'object' || given === null || typeof given.path !== 'string'))) {
    throw new InvalidArgumentError('checkIndexHealth', 'options', 'an object ({ indexFile: await watchIndexFile(path), now })', options);
  }
  const now = options.now ?? (() => new Date());
  const checkedAt = now().toISOString();
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let holdsRecords: boolean;
  try {
    await index.countVersions([PROBE_ID]);
    holdsRecords = typeof index.hasRecords === 'function' ? await index.hasRecords() : true;
  } catch (error) {
    return { status: statusOfFailure(error), contentVersion: null, checkedAt, milliseconds: elapsed(), problem: messageOf(error) };
  }
  const milliseconds = elapsed();
  const contentVersion = index.contentVersion?.() ?? null;
  const file = options.indexFile;
  if (!holdsRecords) {
    const where = file === undefined ? 'the index' : `the index file ${file.path}`;
    return { status: 'empty', contentVersion, checkedAt, milliseconds, problem: `${where} holds no records, so every versions page is a 404: load records into it, or check that the server opened the index the loads write` };
  }
  if (file !== undefined) {
    const identity = await fileIdentity(file.path);
    if (identity === undefined) {
      return { status: 'missing', contentVersion, checkedAt, milliseconds, problem: `the index file ${file.path} is gone; the server still reads the file it opened until it restarts` };
    }
    if (file.identity !== undefined && identity !== file.identity) {
      return { status: 'missing', contentVersion, checkedAt, milliseconds, problem: `the index file ${file.path} was replaced since the server opened it; restart the server to read the new one` };
    }
  }
  return { status: 'ok', contentVersion, checkedAt, milliseconds };
}

async function fileIdentity(path: string): Promise<string | undefined> {
  try {
    const info = await stat(path);
    return `${info.dev}:${info.ino}`;
  } catch {
    return undefined;
  }
}

/** The failure's own words and those of its causes (an adapter wraps the engine's error). */
function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function statusOfFailure(error: unknown): IndexHealthStatus {
  const codes: string[] = [];
  const texts: string[] = [];
  for (let current: unknown = error, depth = 0; current !== undefined && current !== null && depth < 5; depth += 1) {
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string') codes.push(code);
    if (typeof message === 'string') texts.push(message);
    current = cause;
  }
  const text = texts.join('\n');
  if (codes.some((code) => code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) || /database (table )?is locked/i.test(text)) return 'locked';
  if (codes.some((code) => code.startsWith('SQLITE_CANTOPEN') || code === 'ENOENT') || /no such table|unable to open database|\b404\b|not ?found/i.test(text)) return 'missing';
  return 'unavailable';
}
