/**
 * Benchmark child process: the server under test. A minimal host app (Koa) with the versions plugin mounted
 * on the embedded index file, opened read-only as a production server would open a prebuilt index. It
 * listens on 127.0.0.1 on a free port and tells the parent which; a "stop" message closes it and exits
 * normally, so that a --cpu-prof profile gets written.
 *
 * Usage (from runBench): node versionsServer.js <index path> <base URL> [--per-core]
 * With --per-core, one such server per core, each with its own read-only open (perCoreServe.ts).
 */
import Koa from 'koa';
import { createVersionsPlugin } from '../../src/http/createVersionsPlugin.js';
import { openEmbeddedIndex } from '../../src/entries/sqlite.js';
import { serveForParent } from './processStats.js';
import { perCoreMode, runPerCorePrimary } from './perCoreServe.js';

const mode = perCoreMode(process.argv.slice(2));
const [path, baseUrl] = mode.args;
if (path === undefined || baseUrl === undefined) throw new Error('usage: versionsServer <index path> <base URL> [--per-core]');
if (mode.primary) runPerCorePrimary();
else serve(path, baseUrl);

function serve(path: string, baseUrl: string): void {
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
  serveForParent(app, () => index.close());
}
