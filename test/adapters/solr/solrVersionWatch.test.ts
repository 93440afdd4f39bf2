/**
 * The background read behind the Solr adapter's contentVersion() (src/adapters/solr/solrVersionWatch.ts),
 * with probes played by functions: when it reads, how often, what it gives while values agree, change or
 * fail, and that its timer neither outlives stop() nor keeps a process alive (the last test runs the real
 * adapter in a child process against a local HTTP server answering in Solr's format).
 */
import test from 'ava';
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { VersionWatch } from '../../../src/adapters/solr/solrVersionWatch.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Calls current() every `everyMs` until `done()` holds (fails after 15 s), returning what it gave. Driven
 * by conditions rather than durations, so a busy machine makes the test slower, not wrong.
 */
async function askUntil(watch: VersionWatch, done: () => boolean, everyMs = 2): Promise<Array<string | undefined>> {
  const seen: Array<string | undefined> = [];
  for (const until = Date.now() + 15_000; !done(); await sleep(everyMs)) {
    if (Date.now() > until) throw new Error(`not done within 15 s; last answers ${JSON.stringify(seen.slice(-5))}`);
    seen.push(watch.current());
  }
  return seen;
}

test('probes never overlap and start at most once per interval, however often current() is called', async (t) => {
  let running = 0;
  let most = 0;
  const starts: number[] = [];
  const watch = new VersionWatch({
    intervalMs: 30,
    maxStalenessMs: 60_000,
    probe: async () => {
      starts.push(performance.now());
      most = Math.max(most, ++running);
      await sleep(45); // slower than the interval
      running--;
      return 'v1';
    },
  });
  t.teardown(() => watch.stop());
  const seen = await askUntil(watch, () => starts.length >= 5 && running === 0, 1);
  t.is(most, 1, 'one probe at a time');
  for (let i = 1; i < starts.length; i++) t.true((starts[i] ?? 0) - (starts[i - 1] ?? 0) >= 29, 'starts one interval apart or more');
  t.is(seen[0], undefined, 'nothing before two probes agree');
  t.is(watch.current(), 'v1');
});

test('a value only once two probes agree; none while each probe sees another value', async (t) => {
  let n = 0;
  const changing = new VersionWatch({ intervalMs: 5, maxStalenessMs: 60_000, probe: async () => `v${n++}` });
  t.teardown(() => changing.stop());
  t.deepEqual([...new Set(await askUntil(changing, () => n >= 6))], [undefined]);

  const values = ['a', 'b', 'b', 'b', undefined, undefined, 'c', 'c', 'c'];
  let at = 0;
  const watch = new VersionWatch({ intervalMs: 5, maxStalenessMs: 60_000, probe: async () => values[Math.min(at++, values.length - 1)] });
  t.teardown(() => watch.stop());
  const seen = await askUntil(watch, () => at >= values.length + 2, 1);
  const distinct = seen.filter((value, i) => i === 0 || value !== seen[i - 1]);
  // "a" is never confirmed; "b" is, once seen twice; a probe that cannot vouch clears it; then "c".
  t.deepEqual(distinct, [undefined, 'b', undefined, 'c']);
});

test('a failing probe changes nothing but the clock: the value lapses after maxStalenessMs; failures and recovery are reported once', async (t) => {
  let failing = false;
  let probes = 0;
  const failures: unknown[] = [];
  const recoveries: number[] = [];
  const watch = new VersionWatch({
    intervalMs: 10,
    maxStalenessMs: 1000,
    probe: async () => {
      probes++;
      if (failing) throw new Error('connection refused');
      return 'v';
    },
    onFailure: (error) => failures.push(error),
    onRecovery: (count) => recoveries.push(count),
  });
  t.teardown(() => watch.stop());
  await askUntil(watch, () => watch.current() === 'v');
  failing = true;
  const failedAt = Date.now();
  const during = await askUntil(watch, () => watch.current() === undefined);
  const lapsedAfter = Date.now() - failedAt;
  // The last good probe started about one interval before the failure (later on a busy machine).
  t.true(lapsedAfter >= 500 && lapsedAfter < 10_000, `lapsed after ${lapsedAfter} ms`);
  t.true(during.length > 0 && during.every((value) => value === 'v'), 'served until it lapsed');
  t.is(failures.length, 1, 'one report for the run of failures');
  t.regex(String(failures[0]), /connection refused/);
  const failedProbes = probes;
  failing = false;
  await askUntil(watch, () => watch.current() === 'v');
  t.deepEqual(recoveries, [recoveries[0]]);
  t.true((recoveries[0] ?? 0) >= 2 && (recoveries[0] ?? 0) <= failedProbes);
});

test('probes stop when nobody asks, start again when someone does, and never after stop()', async (t) => {
  let probes = 0;
  const watch = new VersionWatch({ intervalMs: 10, maxStalenessMs: 60_000, probe: async () => { probes++; return 'v'; } });
  t.teardown(() => watch.stop());
  await sleep(50);
  t.is(probes, 0, 'no probe before the first call');
  watch.current();
  for (const until = Date.now() + 15_000; probes === 0 && Date.now() < until;) await sleep(2);
  await sleep(80);
  t.is(probes, 1, 'one probe for one call, then quiet');
  await askUntil(watch, () => probes >= 4);
  const asked = probes;
  await sleep(80);
  t.true(probes <= asked + 1, 'at most the probe already due once nobody asks');

  // A probe in flight when stop() comes: its answer is dropped, and no probe follows.
  let release: (() => void) | undefined;
  let blocked = 0;
  const stopping = new VersionWatch({
    intervalMs: 10,
    maxStalenessMs: 60_000,
    probe: async () => {
      blocked++;
      await new Promise<void>((resolve) => { release = resolve; });
      return 'w';
    },
  });
  stopping.current();
  for (const until = Date.now() + 15_000; release === undefined && Date.now() < until;) await sleep(2);
  stopping.stop();
  release?.();
  await sleep(50);
  t.is(stopping.current(), undefined);
  t.is(blocked, 1);
});

test('an adapter asked for its version does not keep the process alive (the timer is unref\'d)', async (t) => {
  let reads = 0;
  const server = http.createServer((_req, res) => {
    reads++;
    res.writeHead(200, { 'content-type': 'application/json' })
      .end('{"responseHeader":{"status":0},"response":{"numFound":1,"start":0,"docs":[{"_version_":1790000000000000000}]}}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  const adapter = fileURLToPath(new URL('../../../src/adapters/solr/solrIndex.ts', import.meta.url));
  // The child keeps asking from an unref'd interval and never closes the adapter: only a ref'd timer or
  // socket of the adapter's could keep it running.
  const script = `
    const { createSolrIndex } = await import(${JSON.stringify(adapter)});
    const index = createSolrIndex({ url: 'http://127.0.0.1:${(server.address() as AddressInfo).port}/solr/biblio', versionCheckMs: 20 });
    setInterval(() => index.contentVersion(), 5).unref();
    setTimeout(() => {}, 300);
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => { stderr += String(chunk); });
  const killer = setTimeout(() => child.kill('SIGKILL'), 8000);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once('exit', (c, s) => resolve([c, s])));
  clearTimeout(killer);
  t.is(signal, null, `the child had to be killed; stderr: ${stderr}`);
  t.is(code, 0, stderr);
  t.true(reads >= 1, 'it did read the version while running');
});
