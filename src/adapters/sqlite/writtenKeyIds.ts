/**
 * The key ids a writer of the embedded index stores for a document's work keys (keyIdsFinder), used by
 * the replacing writer (tableWriters.ts) and the staged load (stagedLoad.ts).
 */
import type Database from 'better-sqlite3';
import { IndexUnavailableError } from '../../errors.js';
import { firstKeyIdOf, KEYS_PER_HASH } from './indexTables.js';

/**
 * The id of each key of a document, adding the keys the index does not have yet: the first free number of
 * the key's hash (indexTables.ts), held by no record yet (its total 0; the caller counts the rows it adds).
 */
export function keyIdsFinder(db: Database.Database): (keys: readonly string[]) => number[] {
  const ofHash = db.prepare<[number, number], [number, string]>('SELECT key_id, key FROM work_keys WHERE key_id BETWEEN ? AND ?').raw();
  const add = db.prepare<[number, string]>('INSERT INTO work_keys (key_id, key, records) VALUES (?, ?, 0)');
  return (keys) => keys.map((key) => {
    const first = firstKeyIdOf(key);
    const taken = ofHash.all(first, first + KEYS_PER_HASH - 1);
    const found = taken.find(([, text]) => text === key);
    if (found !== undefined) return found[0];
    const id = taken.length === 0 ? first : Math.max(...taken.map(([keyId]) => keyId)) + 1;
    if (id >= first + KEYS_PER_HASH) {
      throw new IndexUnavailableError(`Embedded index: more than ${KEYS_PER_HASH} different work keys share the hash of ${JSON.stringify(key)}`);
    }
    add.run(id, key);
    return id;
  });
}
