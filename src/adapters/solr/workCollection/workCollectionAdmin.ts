/**
 * Makes and removes a work collection on a SolrCloud (docs/solr.md, "The work collection"): `create`
 * uploads the package's configset (workCollectionSchema.ts) through the Configsets API, creates the
 * collection from it through the Collections API, waits until every replica is active and checks that the
 * collection has the schema's fields; `delete` removes a collection only when its schema says it is a work
 * collection, then the configset it was made from. Everything is asked of the node given (any node of the
 * cluster), with the credentials of its URL.
 *
 * Left to others: the configset's zip (configsetZip.ts); writing and reading the collection (the sync and
 * the answers, docs/solr.md says what exists so far).
 */
import { IndexUnavailableError, InvalidOptionError, WorkCollectionError } from '../../../errors.js';
import { isObject, solrErrorOf, snippet } from '../solrFaults.js';
import { basicAuthHeaders, displayOfSolrUrl } from '../solrUrls.js';
import { zipFolder } from './configsetZip.js';
import { WORK_COLLECTION_CONFIGSET, WORK_COLLECTION_CONFIGSET_PREFIX, WORK_COLLECTION_FIELDS, WORK_COLLECTION_SCHEMA_NAME } from './workCollectionSchema.js';
import { join } from 'node:path';

export interface WorkCollectionNode {
  /** Any node of the SolrCloud, its base URL, e.g. http://solr1:8983/solr; user info becomes basic auth. */
  solr: string;
  /** The collection's name (letters, digits, `.`, `_`, `-`; not starting with `-`). */
  name: string;
  /** Deadline of each request in ms (default 180000: a collection's creation waits for its replicas). */
  timeoutMs?: number;
}

export interface WorkCollectionCreateOptions extends WorkCollectionNode {
  /** Shards (default 1). */
  shards?: number;
  /** Replicas of each shard (default 1); more than one lets answers keep coming while a node is down. */
  replicas?: number;
}

/** Where a collection's replicas are, as CLUSTERSTATUS tells. */
export interface WorkCollectionShape {
  /** The collection's URL through the node asked, e.g. http://solr1:8983/solr/versions: what the sync and the answers take. */
  readonly url: string;
  readonly configSet: string;
  readonly shards: ReadonlyArray<{ readonly name: string; readonly replicas: ReadonlyArray<{ readonly node: string; readonly state: string; readonly leader: boolean }> }>;
}

const DEFAULT_TIMEOUT_MS = 180_000;

/** Uploads the configset and creates the collection; its shape once every replica is active. */
export async function createWorkCollection(options: WorkCollectionCreateOptions): Promise<WorkCollectionShape> {
  const node = checkNode(options);
  const shards = wholeOption('shards', options.shards);
  const replicas = wholeOption('replicas', options.replicas);
  const { name } = node;
  if ((await collectionNames(node)).includes(name)) {
    throw new WorkCollectionError(name, `a collection of that name exists already on ${node.display}: choose another name, or delete it first (catalog-versions work-collection delete, which deletes only a work collection)`);
  }
  const configSet = `${WORK_COLLECTION_CONFIGSET_PREFIX}${name}`;
  await askNode(node, 'configset upload', '/admin/configs', [['action', 'UPLOAD'], ['name', configSet], ['overwrite', 'true']], zipFolder(join(WORK_COLLECTION_CONFIGSET, 'conf')));
  try {
    await askNode(node, 'collection create', '/admin/collections', [
      ['action', 'CREATE'], ['name', name], ['numShards', String(shards)], ['replicationFactor', String(replicas)],
      ['collection.configName', configSet], ['waitForFinalState', 'true'],
    ]);
  } catch (error) {
    // A collection not made leaves no configset of its own behind (a half-made one is Solr's to clean: CREATE removes it).
    await askNode(node, 'configset delete', '/admin/configs', [['action', 'DELETE'], ['name', configSet]]).catch(() => undefined);
    throw error;
  }
  await checkSchema(node);
  return shapeOf(node);
}

/**
 * Deletes the collection, refusing one whose schema is not the work collection's (a catalogue's core is
 * never deleted by mistake), then the configset it was made from when that is a work collection's
 * configset no other collection uses. Says whether the configset went too.
 */
export async function deleteWorkCollection(options: WorkCollectionNode): Promise<{ configSetDeleted: boolean; configSet: string }> {
  const node = checkNode(options);
  const { name } = node;
  if (!(await collectionNames(node)).includes(name)) throw new WorkCollectionError(name, `there is no collection of that name on ${node.display}`);
  const schema = await askNode(node, 'schema name', `/${encodeURIComponent(name)}/schema/name`, []);
  if (schema.name !== WORK_COLLECTION_SCHEMA_NAME) {
    throw new WorkCollectionError(name, `is not a work collection (its schema is ${JSON.stringify(schema.name)}, not ${WORK_COLLECTION_SCHEMA_NAME}): work-collection delete deletes no other collection`);
  }
  const { configSet } = await shapeOf(node);
  await askNode(node, 'collection delete', '/admin/collections', [['action', 'DELETE'], ['name', name]]);
  const status = await askNode(node, 'cluster status', '/admin/collections', [['action', 'CLUSTERSTATUS']]);
  const collections = isObject(status.cluster) && isObject(status.cluster.collections) ? Object.values(status.cluster.collections) : [];
  const stillUsed = collections.some((collection) => isObject(collection) && collection.configName === configSet);
  if (!configSet.startsWith(WORK_COLLECTION_CONFIGSET_PREFIX) || stillUsed) return { configSetDeleted: false, configSet };
  await askNode(node, 'configset delete', '/admin/configs', [['action', 'DELETE'], ['name', configSet]]);
  return { configSetDeleted: true, configSet };
}

/** The collection's shards and replicas (CLUSTERSTATUS), and its URL through the node asked. */
export async function workCollectionShape(options: WorkCollectionNode): Promise<WorkCollectionShape> {
  return shapeOf(checkNode(options));
}

async function shapeOf(node: CheckedNode): Promise<WorkCollectionShape> {
  const status = await askNode(node, 'cluster status', '/admin/collections', [['action', 'CLUSTERSTATUS'], ['collection', node.name]]);
  const collection = isObject(status.cluster) && isObject(status.cluster.collections) ? status.cluster.collections[node.name] : undefined;
  if (!isObject(collection) || !isObject(collection.shards)) throw new WorkCollectionError(node.name, `${node.display} gave no cluster status for it`);
  const shards = Object.entries(collection.shards).map(([shard, about]) => ({
    name: shard,
    replicas: Object.values(isObject(about) && isObject(about.replicas) ? about.replicas : {}).filter(isObject).map((replica) => ({
      node: String(replica.node_name), state: String(replica.state), leader: replica.leader === 'true',
    })),
  }));
  return { url: `${node.display}/${node.name}`, configSet: String(collection.configName), shards };
}

interface CheckedNode {
  /** The node's base URL without credentials (requests and messages). */
  display: string;
  name: string;
  headers: Record<string, string>;
  timeoutMs: number;
}

function checkNode(options: WorkCollectionNode): CheckedNode {
  if (typeof options !== 'object' || options === null) throw new InvalidOptionError('options', 'a work collection command needs { solr, name }');
  let url: URL;
  try {
    url = new URL(String(options.solr));
  } catch {
    throw new InvalidOptionError('solr', `is not a URL: ${JSON.stringify(options.solr)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidOptionError('solr', `must be the http(s) URL of a Solr node, e.g. http://localhost:8983/solr, not ${url.protocol}`);
  if (typeof options.name !== 'string' || !/^[A-Za-z0-9._][A-Za-z0-9._-]*$/.test(options.name)) {
    throw new InvalidOptionError('name', `must be a collection name (letters, digits, ".", "_", "-", not starting with "-"), not ${JSON.stringify(options.name)}`);
  }
  return { display: displayOfSolrUrl(url), name: options.name, headers: basicAuthHeaders(url), timeoutMs: wholeOption('timeoutMs', options.timeoutMs, DEFAULT_TIMEOUT_MS) };
}

function wholeOption(name: string, value: unknown, fallback = 1): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw new InvalidOptionError(name, `must be a whole number, at least 1, not ${String(value)}`);
  return value;
}

async function collectionNames(node: CheckedNode): Promise<string[]> {
  const list = await askNode(node, 'collection list', '/admin/collections', [['action', 'LIST']]);
  return Array.isArray(list.collections) ? list.collections.filter((name): name is string => typeof name === 'string') : [];
}

/** Fails unless the collection has every field of the schema with its type (a configset changed by hand, an old one kept). */
async function checkSchema(node: CheckedNode): Promise<void> {
  const answer = await askNode(node, 'schema fields', `/${encodeURIComponent(node.name)}/schema/fields`, []);
  const fields = new Map((Array.isArray(answer.fields) ? answer.fields : []).filter(isObject).map((field) => [String(field.name), field]));
  for (const [field, declared] of Object.entries(WORK_COLLECTION_FIELDS)) {
    const found = fields.get(field);
    if (found === undefined || found.type !== declared.type) {
      throw new WorkCollectionError(node.name, `was made, but its schema has ${found === undefined ? 'no field' : `a field of type ${String(found.type)} for`} ${field}: was the configset ${WORK_COLLECTION_CONFIGSET_PREFIX}${node.name} changed?`);
    }
  }
}

/**
 * One request to the node: a GET, or a POST of `zip`; its JSON answer, which has status 0. Unreachable
 * nodes are IndexUnavailableError; Solr's refusals are WorkCollectionError quoting Solr.
 */
async function askNode(node: CheckedNode, what: string, path: string, params: ReadonlyArray<readonly [string, string]>, zip?: Buffer): Promise<Record<string, unknown>> {
  const query = new URLSearchParams([...params, ['wt', 'json']] as Array<[string, string]>).toString();
  const url = `${node.display}${path}?${query}`;
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method: zip === undefined ? 'GET' : 'POST',
      headers: zip === undefined ? node.headers : { ...node.headers, 'content-type': 'application/octet-stream' },
      ...(zip === undefined ? {} : { body: zip }),
      signal: AbortSignal.timeout(node.timeoutMs),
    });
    text = await response.text();
  } catch (error) {
    throw new IndexUnavailableError(`Solr ${node.display}: ${what} of work collection ${JSON.stringify(node.name)}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    data = undefined;
  }
  const header = isObject(data) && isObject(data.responseHeader) ? data.responseHeader : undefined;
  if (!response.ok || !isObject(data) || (header !== undefined && header.status !== 0) || isObject(data.failure)) {
    const said = solrErrorOf(data) ?? (isObject(data) && data.failure !== undefined ? snippet(JSON.stringify(data.failure)) : snippet(text));
    const hint = response.status === 404 ? ' (is the URL a node\'s base URL, e.g. http://localhost:8983/solr?)' : '';
    throw new WorkCollectionError(node.name, `Solr ${node.display} refused the ${what}: HTTP ${response.status}: ${said}${hint}`);
  }
  return data;
}
