/**
 * A host as docs/deployment.md ("One process per core") tells one to run it: node:cluster forks N
 * workers, each opening the one index file read-only and serving the plugin on the port they share.
 * Each answer names the worker that sent it (X-Worker: its pid), so a test can tell the processes apart.
 * The primary prints the port once every worker listens, and stops its workers on SIGTERM.
 *
 * Usage: node --import tsx clusterHost.ts <index file> <workers>
 */
import cluster from 'node:cluster';
import Koa from 'koa';
import { createVersionsPlugin } from '../../src/index.js';
import { openEmbeddedIndex } from '../../src/entries/sqlite.js';

const [path, workerCount] = process.argv.slice(2);
if (path === undefined || workerCount === undefined) throw new Error('usage: clusterHost <index file> <workers>');

if (cluster.isPrimary) {
  let listening = 0;
  cluster.on('listening', (_worker, address) => {
    if (++listening === Number(workerCount)) process.stdout.write(`${address.port}\n`);
  });
  for (let i = 0; i < Number(workerCount); i++) cluster.fork();
  process.on('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill();
    process.exit(0);
  });
} else {
  const index = openEmbeddedIndex({ path, readOnly: true });
  const app = new Koa();
  app.use(async (ctx, next) => {
    ctx.set('X-Worker', String(process.pid));
    await next();
  });
  app.use(createVersionsPlugin({ index, baseUrl: 'https://catalog.example.edu', answerCacheMegabytes: 8 }));
  app.listen(0, '127.0.0.1');
}
