/**
 * A SolrCloud of a test's own, for what must not be done to the shared one of tools/solr/start.sh: stopping
 * a node. It runs the same launcher (tools/solr/src/main/java/.../SolrTestLauncher.java), found through
 * SOLR_LAUNCHER_CLASSPATH (start.sh prints it), with `--cloud-only --control-stdin`: only the SolrCloud,
 * with the test configsets (realSolr.ts SOLR_SCHEMAS), and its nodes stopped and started again by lines on
 * its stdin. Closing it ends its stdin, so the launcher stops and deletes its data; a test process that
 * dies closes it too.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

export interface OwnSolrCloud {
  /** Every node's base URL, `http://127.0.0.1:PORT/solr`, in the launcher's order (node 0 first). */
  readonly nodes: readonly string[];
  /** Stops node `index` and resolves once ZooKeeper no longer lists it as live. */
  stopNode(index: number): Promise<void>;
  /** Starts node `index` again on its port and resolves once it is live. */
  startNode(index: number): Promise<void>;
  /** Stops the whole cluster and deletes its data. */
  close(): Promise<void>;
}

/** The launcher's classpath, or why a SolrCloud of one's own cannot be started here. */
export function solrLauncher(): { classpath: string } | { missing: string } {
  const classpath = process.env.SOLR_LAUNCHER_CLASSPATH?.trim();
  if (classpath === undefined || classpath === '') return { missing: 'no SOLR_LAUNCHER_CLASSPATH: run tools/solr/start.sh, see docs/testing.md' };
  return { classpath };
}

/** Starts a SolrCloud of `nodes` nodes (default 2) and resolves when every node answers. */
export async function startOwnSolrCloud(options: { nodes?: number; heap?: string; timeoutMs?: number } = {}): Promise<OwnSolrCloud> {
  const launcher = solrLauncher();
  if ('missing' in launcher) throw new Error(launcher.missing);
  const folder = mkdtempSync(join(tmpdir(), 'catalog-versions-own-solrcloud-'));
  const child = spawn('java', [
    `-Xmx${options.heap ?? '768m'}`, '-XX:+UseSerialGC', `-Dsolr.log.dir=${join(folder, 'logs')}`,
    '-cp', launcher.classpath, 'org.koacatalogversions.solrtest.SolrTestLauncher',
    '--work', join(folder, 'solr'), '--out', join(folder, 'urls'),
    '--configset', `catalog-versions=${join(REPO, 'src/adapters/solr/configset')}`,
    '--configset', `vufind-biblio=${join(REPO, 'test/solr-configsets/vufind-biblio')}`,
    '--cloud-nodes', String(options.nodes ?? 2), '--cloud-only', '--control-stdin',
  ], { stdio: ['pipe', 'pipe', 'pipe'] });
  // Both outputs are read to the end, so that the launcher never blocks on a full pipe; the last lines say why it failed.
  const said: string[] = [];
  const keep = (line: string) => {
    said.push(line);
    if (said.length > 40) said.shift();
  };
  createInterface({ input: child.stderr }).on('line', keep);
  const waiting: Array<{ prefix: string; resolve: (line: string) => void }> = [];
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let exitCode: number | null | undefined;
  void exited.then((code) => {
    exitCode = code;
  });
  createInterface({ input: child.stdout }).on('line', (line) => {
    keep(line);
    const waiter = waiting.findIndex((w) => line.startsWith(w.prefix));
    if (waiter >= 0) waiting.splice(waiter, 1)[0]!.resolve(line);
  });
  const lineStarting = (prefix: string, what: string, timeoutMs: number) => new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`own SolrCloud: ${what}: no answer within ${timeoutMs} ms; it said:\n${said.join('\n')}`)), timeoutMs);
    waiting.push({ prefix, resolve: (line) => { clearTimeout(timer); resolve(line); } });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`own SolrCloud: ${what}: the launcher exited (${String(code)}); it said:\n${said.join('\n')}`));
    });
  });

  const close = async () => {
    if (exitCode === undefined) {
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(folder, { recursive: true, force: true });
  };
  child.on('error', (error) => keep(`spawn: ${error.message}`));

  let nodes: string[];
  try {
    // The launcher prints its facts after READY, the nodes among them.
    nodes = (await lineStarting('SOLR_CLOUD_NODE_BASES=', 'start', options.timeoutMs ?? 180_000)).slice('SOLR_CLOUD_NODE_BASES='.length).split(',');
  } catch (error) {
    await close();
    throw error;
  }
  const command = async (line: string, done: string) => {
    const answer = lineStarting('CONTROL ', line, 180_000);
    child.stdin.write(`${line}\n`);
    const got = await answer;
    if (got !== `CONTROL ${done}`) throw new Error(`own SolrCloud: ${line}: ${got}`);
  };
  return {
    nodes,
    stopNode: (index) => command(`stop-node ${index}`, `stopped-node ${index}`),
    startNode: (index) => command(`start-node ${index}`, `started-node ${index}`),
    close,
  };
}
