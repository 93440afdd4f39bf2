/**
 * Where a harvest keeps the response date of its last successful run (the HarvestState port, src/ports.ts),
 * so the next run asks only for what changed since. An embedded index keeps it in its own file
 * (its `harvestState`, src/adapters/sqlite/harvestTable.ts); a Solr core does not, since a state document
 * in the catalog's core would show up in its searches, so Solr harvests keep it in a JSON file of the
 * operator's choosing, written here.
 *
 * Left to others: harvesting (oai/oaiHarvester.ts), choosing the storage for a command line
 * (src/cli/loadRecords.ts).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { InvalidArgumentError, InvalidOptionError } from '../errors.js';
import type { HarvestState } from '../ports.js';

/** Harvest state in a JSON file (`{ "<harvest key>": "<response date>" }`), created at the first harvest. */
export function harvestStateFile(path: string): HarvestState {
  if (typeof path !== 'string' || path === '') throw new InvalidArgumentError('harvestStateFile', 'path', 'the path of a JSON file (a non-empty string)', path);
  const readAll = async (): Promise<Record<string, string>> => {
    try {
      const parsed: unknown = JSON.parse(await readFile(path, 'utf8'));
      return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, string>) : {};
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw new InvalidOptionError('stateFile', `cannot read the harvest state file ${path}: ${(error as Error).message}`);
    }
  };
  return {
    async get(key) {
      if (typeof key !== 'string') throw new InvalidArgumentError('harvestState.get', 'key', 'a harvest key (a string)', key);
      return (await readAll())[key];
    },
    async set(key, responseDate) {
      if (typeof key !== 'string') throw new InvalidArgumentError('harvestState.set', 'key', 'a harvest key (a string)', key);
      if (typeof responseDate !== 'string') throw new InvalidArgumentError('harvestState.set', 'responseDate', 'the response date of the harvest (a string)', responseDate);
      const all = await readAll();
      all[key] = responseDate;
      await writeFile(path, `${JSON.stringify(all, null, 2)}\n`);
    },
  };
}
