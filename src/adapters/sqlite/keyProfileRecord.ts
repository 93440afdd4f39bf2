/**
 * The work-key profile an embedded index file was keyed with, kept in the file (a row of `index_meta`),
 * so that every load into it keys records the same way: keys of two profiles do not meet, and a file
 * keyed half one way would split every work.
 *
 * - A new file takes the profile of its first load (the option `keyProfile`, else `extended`).
 * - A file that predates profiles (no row) and holds records was keyed as VuFind keys: `vufind`.
 * - A load asking for another profile than the file's is refused (KeyProfileMismatchError), with the
 *   way to rebuild in its message.
 *
 * Left to others: the profiles themselves (src/work-keys/workKeyProfiles.ts); keying records with them
 * (the ingest pipeline and mappings, given the writer's `keyProfile`).
 */
import type Database from 'better-sqlite3';
import { KeyProfileMismatchError } from '../../errors.js';
import { checkKeyProfile, type WorkKeyProfileName } from '../../work-keys/workKeyProfiles.js';
import { holdsRecords } from './indexTables.js';

const META_SCHEMA = 'CREATE TABLE IF NOT EXISTS index_meta (name TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID';
const PROFILE_ROW = 'key_profile';

/** The profile a new index is keyed with when none is asked for. */
export const DEFAULT_EMBEDDED_KEY_PROFILE: WorkKeyProfileName = 'extended';

export interface KeyProfileRecord {
  /** The profile loads into this index key records with. */
  readonly profile: WorkKeyProfileName;
  /** Writes the profile into the file if it holds none yet (called when a load begins). */
  record(): void;
}

/** The file's recorded profile: its row, else `vufind` for a file of records from before profiles. */
function recordedProfileOf(db: Database.Database): WorkKeyProfileName | undefined {
  const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'index_meta'").get() !== undefined;
  const value = hasTable ? db.prepare<[string], string>('SELECT value FROM index_meta WHERE name = ?').pluck().get(PROFILE_ROW) : undefined;
  if (value !== undefined) return checkKeyProfile(value, `${PROFILE_ROW} (recorded in the index file)`);
  return holdsRecords(db) ? 'vufind' : undefined;
}

/**
 * The profile of the index in `db` (named `description` in messages), checked against the one asked for
 * (already checked to be a profile's name).
 */
export function keyProfileRecordOn(db: Database.Database, description: string, asked: WorkKeyProfileName | undefined, readOnly: boolean): KeyProfileRecord {
  const recorded = recordedProfileOf(db);
  if (recorded !== undefined && asked !== undefined && asked !== recorded) throw new KeyProfileMismatchError(description, recorded, asked);
  const profile = recorded ?? asked ?? DEFAULT_EMBEDDED_KEY_PROFILE;
  return {
    profile,
    record() {
      if (readOnly) return;
      db.exec(META_SCHEMA);
      db.prepare('INSERT OR IGNORE INTO index_meta (name, value) VALUES (?, ?)').run(PROFILE_ROW, profile);
    },
  };
}
