/**
 * The command line of the MARC load's cost tools run code against code (marcMappingCost.ts,
 * marcStagingCost.ts): the ISO 2709 file, how many of its records, rounds, the key profile, and the built
 * trees to compare (`--tree label=/path/to/dist`, given once per tree). Read by node:util's parser, which
 * refuses unknown options.
 *
 * Not part of the package, nor of `npm run bench`.
 */
import { parseArgs } from 'node:util';

/** A built tree of this project (its `dist/`), named for the output. */
export interface Tree {
  readonly label: string;
  readonly dist: string;
}

export interface CostOptions {
  readonly trees: readonly Tree[];
  readonly file: string;
  readonly records: number;
  readonly rounds: number;
  readonly keyProfile: string;
}

export function costOptionsOf(argv: readonly string[], defaultRecords: number): CostOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      file: { type: 'string' }, records: { type: 'string', default: String(defaultRecords) }, rounds: { type: 'string', default: '3' },
      'key-profile': { type: 'string', default: 'extended' }, tree: { type: 'string', multiple: true, default: [] },
    },
  });
  const trees: Tree[] = values.tree.map((given) => {
    const [label, ...dist] = given.split('=');
    return { label: label!, dist: dist.join('=') };
  });
  if (values.file === undefined || trees.length === 0) throw new Error('give --file and at least one --tree label=dist');
  return { trees, file: values.file, records: Number(values.records), rounds: Number(values.rounds), keyProfile: values['key-profile'] };
}
