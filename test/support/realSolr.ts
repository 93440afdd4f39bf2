/**
 * Where the Solr test files find a real Solr, and how each makes its own cores, so that ava's parallel
 * files never share data. tools/solr/start.sh starts one and sets:
 *   SOLR_TEST_URL        a core of a standalone Solr (…/solr/biblio)
 *   SOLR_CLOUD_TEST_URL  a collection of a SolrCloud (…/solr/biblio)
 * Beside them a test file makes cores (standalone) and two-shard collections (SolrCloud) from the
 * configsets that Solr knows: `catalog-versions` (src/adapters/solr/configset) and `vufind-biblio`
 * (test/solr-configsets/vufind-biblio, with its two schemas). A core or collection already there (a
 * rerun against a Solr kept running) is reused; each file empties its own before use.
 * With neither variable set, solrTargets() is empty and each file registers one skipped test saying so.
 */
import type { TestFn } from 'ava';

export interface SolrTarget {
  /** `standalone` or `solrcloud`, for test titles. */
  readonly name: 'standalone' | 'solrcloud';
  /** The Solr's base URL, `http://host:port/solr`. */
  readonly base: string;
}

/** The schemas of the test configsets. */
export const SOLR_SCHEMAS = {
  /** The plugin's own configset (src/adapters/solr/configset). */
  plugin: { configSet: 'catalog-versions' },
  /** A MARC core as VuFind 7.1.1 to 11 declare it: `_version_` without docValues. */
  vufind: { configSet: 'vufind-biblio' },
  /** An OAI-PMH aggregator's Dublin Core core: no keys, no last_indexed; no sort possible on `_version_`. */
  aggregator: { configSet: 'vufind-biblio', schema: 'aggregator-schema.xml' },
} as const;

export type SolrSchemaName = keyof typeof SOLR_SCHEMAS;

const baseOf = (url: string | undefined): string | undefined => {
  const trimmed = url?.trim().replace(/\/+$/, '');
  return trimmed === undefined || trimmed === '' ? undefined : trimmed.replace(/\/[^/]+$/, '');
};

/** The Solrs named by the environment: standalone first, then SolrCloud. */
export function solrTargets(): SolrTarget[] {
  const targets: SolrTarget[] = [];
  const standalone = baseOf(process.env.SOLR_TEST_URL);
  const cloud = baseOf(process.env.SOLR_CLOUD_TEST_URL);
  if (standalone !== undefined) targets.push({ name: 'standalone', base: standalone });
  if (cloud !== undefined) targets.push({ name: 'solrcloud', base: cloud });
  return targets;
}

/** Registers one skipped test naming what was not tested, when no Solr is named; true when it did. */
export function skippedWithoutSolr(test: TestFn, what: string): boolean {
  if (solrTargets().length > 0) return false;
  test.skip(`${what} against a real Solr (no SOLR_TEST_URL / SOLR_CLOUD_TEST_URL: run tools/solr/start.sh, see docs/testing.md)`, () => {});
  return true;
}

async function askSolr(url: string): Promise<Record<string, unknown>> {
  const response = await fetch(url, { signal: AbortSignal.timeout(120_000) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}: ${text.slice(0, 600)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/**
 * The URL of a core (standalone) or two-shard collection (SolrCloud) named `name` with that schema, made
 * when missing, with `replicas` replicas of each shard (SolrCloud only; default 1). Names must be unique
 * among the test files.
 */
export async function solrCore(target: SolrTarget, name: string, schema: SolrSchemaName, replicas = 1): Promise<string> {
  const { configSet, schema: schemaFile } = SOLR_SCHEMAS[schema] as { configSet: string; schema?: string };
  const q = encodeURIComponent;
  if (target.name === 'standalone') {
    const status = await askSolr(`${target.base}/admin/cores?action=STATUS&core=${q(name)}&wt=json`);
    const known = (status.status as Record<string, Record<string, unknown>> | undefined)?.[name];
    if (known === undefined || Object.keys(known).length === 0) {
      await askSolr(`${target.base}/admin/cores?action=CREATE&name=${q(name)}&configSet=${q(configSet)}`
        + `${schemaFile === undefined ? '' : `&schema=${q(schemaFile)}`}&wt=json`);
    }
  } else {
    const list = await askSolr(`${target.base}/admin/collections?action=LIST&wt=json`);
    if (!((list.collections as string[] | undefined) ?? []).includes(name)) {
      await askSolr(`${target.base}/admin/collections?action=CREATE&name=${q(name)}&numShards=2&replicationFactor=${replicas}`
        + `&collection.configName=${q(configSet)}${schemaFile === undefined ? '' : `&property.schema=${q(schemaFile)}`}`
        + '&waitForFinalState=true&wt=json');
    }
  }
  return `${target.base}/${name}`;
}

/** Posts JSON to a core's /update (documents, or a command object) and commits. */
export async function updateSolr(url: string, body: unknown): Promise<void> {
  const response = await fetch(`${url}/update?commit=true&wt=json`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(60_000),
  });
  if (!response.ok) throw new Error(`${url}/update answered HTTP ${response.status}: ${(await response.text()).slice(0, 600)}`);
}
