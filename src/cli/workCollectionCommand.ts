/**
 * `catalog-versions work-collection create|delete --solr NODE_URL --name NAME [--shards N] [--replicas M]`:
 * makes or removes the plugin's own SolrCloud collection for work keys (docs/solr.md, "The work
 * collection") through createWorkCollection and deleteWorkCollection. Prints one line saying what was done
 * (for create: the shards, where their replicas are, and the collection's URL). Exit status: 0 done,
 * 1 failed (named on stderr, with the error's code), 64 wrong command line (with the usage).
 *
 * Left to others: the Solr requests (src/adapters/solr/workCollection/workCollectionAdmin.ts).
 */
import { VersionsError } from '../errors.js';
import { createWorkCollection, deleteWorkCollection, type WorkCollectionShape } from '../adapters/solr/workCollection/workCollectionAdmin.js';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, parseArguments, UsageError, wholeNumber, type CliIo, type OwnLineCommand } from './commandLine.js';

export const WORK_COLLECTION_USAGE = `Usage: catalog-versions work-collection create --solr NODE_URL --name NAME [--shards N] [--replicas M]
       catalog-versions work-collection delete --solr NODE_URL --name NAME

A work collection is the plugin's own collection in the host's SolrCloud, holding
every document's work keys for a catalogue whose core carries none. Where the keys
live, and when to choose this:
  - in the core, as VuFind's importer (or catalog-versions load --solr) writes them:
    nothing to make;
  - in a work index file beside one app server (catalog-versions sync --work-index);
  - in a work collection, when several app servers (or servers started from an image)
    answer for one catalogue: one copy in SolrCloud, replicated, kept by one sync.
The catalogue's core is never written. create uploads the package's configset
(Configsets API) as catalog-versions-work-NAME and creates the collection from it
(Collections API), waiting until every replica is active; delete deletes only a
collection made from that configset, then the configset. docs/solr.md, "The work
collection", has the same steps for an admin with curl.

Options:
  --solr NODE_URL   any node of the SolrCloud, e.g. http://localhost:8983/solr
  --name NAME       the collection's name, e.g. catalog-versions-works
  --shards N        shards (default 1; create only)
  --replicas M      replicas of each shard (default 1; 2 or more keep answers coming
                    while a node is down; create only)
`;

/** `work-collection`: its row in the table of commands (catalogVersions.ts). */
export const workCollectionCommand: OwnLineCommand = {
  name: 'work-collection',
  synopsis: 'work-collection create|delete --solr NODE_URL --name NAME   (work-collection --help)',
  run: (argv, io) => runWorkCollectionCommand(argv, io),
};

export async function runWorkCollectionCommand(argv: readonly string[], io: CliIo): Promise<number> {
  let command: { action: 'create' | 'delete'; solr: string; name: string; shards?: number; replicas?: number };
  try {
    const { values, positionals } = parseArguments(argv, {
      solr: { type: 'string' }, name: { type: 'string' }, shards: { type: 'string' }, replicas: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help === true) {
      io.stdout.write(WORK_COLLECTION_USAGE);
      return EXIT_OK;
    }
    const [action, ...rest] = positionals;
    if (action !== 'create' && action !== 'delete') throw new UsageError(action === undefined ? 'work-collection needs create or delete' : `work-collection needs create or delete, not ${JSON.stringify(action)}`);
    if (rest.length > 0) throw new UsageError(`work-collection ${action} takes no further words (got ${JSON.stringify(rest[0])})`);
    if (typeof values.solr !== 'string') throw new UsageError(`work-collection ${action} needs --solr NODE_URL`);
    if (!/^https?:\/\/[^/]/.test(values.solr)) throw new UsageError(`--solr needs the http(s) URL of a Solr node, e.g. http://localhost:8983/solr, not ${JSON.stringify(values.solr)}`);
    if (typeof values.name !== 'string' || values.name === '') throw new UsageError(`work-collection ${action} needs --name NAME`);
    const shards = wholeNumber(values.shards as string | undefined, '--shards');
    const replicas = wholeNumber(values.replicas as string | undefined, '--replicas');
    if (action === 'delete' && (shards !== undefined || replicas !== undefined)) throw new UsageError('--shards and --replicas apply to create only');
    command = { action, solr: values.solr, name: values.name, ...(shards !== undefined ? { shards } : {}), ...(replicas !== undefined ? { replicas } : {}) };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`catalog-versions: ${error.message}\n\n${WORK_COLLECTION_USAGE}`);
    return EXIT_USAGE;
  }
  try {
    if (command.action === 'create') {
      io.stdout.write(`${createdLine(await createWorkCollection(command), command.name)}\n`);
    } else {
      const { configSetDeleted, configSet } = await deleteWorkCollection(command);
      io.stdout.write(`deleted work collection ${command.name}${configSetDeleted ? ` and its configset ${configSet}` : ` (its configset ${configSet} is kept: another collection uses it, or it is not a work collection's)`}\n`);
    }
    return EXIT_OK;
  } catch (error) {
    const code = error instanceof VersionsError ? ` [${error.code}]` : '';
    io.stderr.write(`catalog-versions: work-collection ${command.action} ${command.name}: ${(error as Error).message}${code}\n`);
    return EXIT_FAILED;
  }
}

/** `created work collection versions (configset …): 2 shards × 2 replicas; shard1 on a, b; …; its URL: …` */
function createdLine(shape: WorkCollectionShape, name: string): string {
  const replicas = Math.max(0, ...shape.shards.map((shard) => shard.replicas.length));
  const where = shape.shards.map((shard) => `${shard.name} on ${shard.replicas.map((replica) => replica.node).join(', ')}`).join('; ');
  return `created work collection ${name} (configset ${shape.configSet}): ${shape.shards.length} shard${shape.shards.length === 1 ? '' : 's'} × ${replicas} replica${replicas === 1 ? '' : 's'}; ${where}; its URL: ${shape.url}`;
}
