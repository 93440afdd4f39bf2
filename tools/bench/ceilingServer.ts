/**
 * Benchmark child process: the ceiling. A bare Koa app that answers every request with one fixed body held
 * in memory (a real feed of typical size, captured from the server under test), with the same content type,
 * on the same kind of socket. What the load generator gets from it is what Koa and Node's HTTP stack can do
 * on this machine at all, so the plugin's throughput is judged as a ratio of it.
 *
 * Usage (from runBench): node ceilingServer.js <body file> [--per-core]
 * With --per-core, one such app per core on a shared port (perCoreServe.ts): the ceiling of a host that
 * runs the plugin on every core.
 */
import { readFileSync } from 'node:fs';
import Koa from 'koa';
import { serveForParent } from './processStats.js';
import { perCoreMode, runPerCorePrimary } from './perCoreServe.js';

const mode = perCoreMode(process.argv.slice(2));
const [bodyFile] = mode.args;
if (bodyFile === undefined) throw new Error('usage: ceilingServer <body file> [--per-core]');
if (mode.primary) runPerCorePrimary();
else serve(bodyFile);

function serve(bodyFile: string): void {
  // A string, as the plugin's feed is: Koa then measures and encodes it on every answer, as it does there.
  const body = readFileSync(bodyFile, 'utf8');

  const app = new Koa();
  app.use((ctx) => {
    ctx.type = 'text/xml; charset=utf-8';
    ctx.body = body;
  });
  serveForParent(app);
}
