/**
 * Benchmark child process: the server under test. A minimal host app (Koa) with the versions plugin mounted
 * on the embedded index file, opened read-only as a production server would open a prebuilt index. It
 * listens on 127.0.0.1 on a free port and tells the parent which; a "stop" message closes it and exits
 * normally, so that a --cpu-prof profile gets written.
 *
 * Usage (from runBench): node versionsServer.js <index path> <base URL>
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { createVersionsPlugin } from '../http/createVersionsPlugin.js';
import { openEmbeddedIndex } from '../index/embeddedIndex.js';
import { reportToParent } from './processStats.js';

export interface ListeningReport {
  readonly type: 'listening';
  readonly port: number;
}

const [path, baseUrl] = process.argv.slice(2);
if (path === undefined || baseUrl === undefined) throw new Error('usage: versionsServer <index path> <base URL>');

const index = openEmbeddedIndex({ path, readOnly: true });
let errorsLogged = 0;
// The plugin logs causes of 5xx answers; a benchmark shows only the first few, the parent counts statuses.
const logger = {
  error(message: string, details?: unknown) {
    if (errorsLogged++ < 5) process.stderr.write(`versionsServer error: ${message} ${details instanceof Error ? details.stack : JSON.stringify(details)}\n`);
  },
  warn(message: string) {
    if (errorsLogged++ < 5) process.stderr.write(`versionsServer warning: ${message}\n`);
  },
};

const app = new Koa();
app.use(createVersionsPlugin({ index, baseUrl, logger }));
const server: Server = app.listen(0, '127.0.0.1', () => {
  const report: ListeningReport = { type: 'listening', port: (server.address() as AddressInfo).port };
  void reportToParent(report);
});
// Keep-alive connections from the load generator stay open between cases; do not let Node cut them.
server.keepAliveTimeout = 60_000;

process.on('message', (message: { type?: string }) => {
  if (message.type !== 'stop') return;
  server.closeAllConnections();
  server.close(() => {
    void index.close().then(() => process.exit(0));
  });
});
process.on('disconnect', () => process.exit(0));
