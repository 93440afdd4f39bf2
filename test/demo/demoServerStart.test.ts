/**
 * `npm start` (demo/server.ts) on a port another program holds: one sentence naming the port and what to
 * set instead, no stack trace, a non-zero exit. The demo runs from source in a child process, as it would
 * after `npm start`'s build.
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A port held by a listener of this test (on every address, as the demo listens), closed after the test. */
async function busyPort(t: { teardown(fn: () => unknown): void }): Promise<number> {
  const holder: Server = createServer();
  await new Promise<void>((resolve) => holder.listen(0, resolve));
  t.teardown(() => new Promise<void>((resolve) => holder.close(() => resolve())));
  return (holder.address() as AddressInfo).port;
}

interface Run { code: number | null; stdout: string; stderr: string }

/** The demo started with these settings (and none of the caller's SOLR_URL, CATALOG_* or BASE_URL). */
function startDemo(settings: Record<string, string>): Promise<Run> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(SOLR_URL|CATALOG_|BASE_URL|FEATURED_IDS|PORT$)/.test(name)));
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', join(ROOT, 'demo', 'server.ts')], { cwd: ROOT, env: { ...env, ...settings }, timeout: 50_000 },
      (error, stdout, stderr) => resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr }));
  });
}

test('on a busy port the demo says which port and what to set, without a stack trace, and exits 1', async (t) => {
  const port = await busyPort(t);
  const run = await startDemo({ PORT: String(port) });
  t.is(run.code, 1, run.stderr);
  t.is(run.stderr, `Could not start the demo: port ${port} is already in use (another program listens there). Stop it, or set another port: PORT=${port + 1} npm start\n`);
  t.is(run.stdout, '', 'nothing claims the demo is listening');
});

test('with BASE_URL set, the busy-port message says to set it to match the new port', async (t) => {
  const port = await busyPort(t);
  const run = await startDemo({ PORT: String(port), BASE_URL: `http://catalog.example:${port}` });
  t.is(run.code, 1, run.stderr);
  t.regex(run.stderr, new RegExp(`^Could not start the demo: port ${port} is already in use .* PORT=${port + 1} npm start, and BASE_URL to match\\n$`));
  t.notRegex(run.stderr, /^\s+at /m, 'no stack trace');
});
