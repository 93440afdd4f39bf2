/**
 * `npm start`: opens an in-memory embedded index, loads the demo catalog (or CATALOG_RECORDS), and
 * listens. Environment: PORT (default 3000), BASE_URL (default http://localhost:PORT), CATALOG_RECORDS
 * (a JSON Lines file of record documents to load instead of the demo catalog).
 */
import { join } from 'node:path';
import { openEmbeddedIndex } from '../index/embeddedIndex.js';
import { readJsonLines } from '../jsonLines.js';
import { PACKAGE_ROOT } from '../packageRoot.js';
import { workKeysOfDocument } from '../core/workKeys.js';
import { createDemoHost } from './demoHost.js';

const port = Number(process.env.PORT ?? 3000);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number, got ${JSON.stringify(process.env.PORT)}`);
  process.exit(1);
}
const baseUrl = (process.env.BASE_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
const catalogFile = process.env.CATALOG_RECORDS ?? join(PACKAGE_ROOT, 'src', 'demo', 'demo-catalog.jsonl');

const started = Date.now();
const index = openEmbeddedIndex({ path: ':memory:' });
const lineOf: number[] = [];
const groups = new Map<string, string[]>();
let problems = 0;
const report = (line: number | undefined, reason: string) => {
  problems += 1;
  console.warn(`${catalogFile}:${line ?? '?'}: skipped: ${reason}`);
};

async function* documents() {
  for await (const { line, value } of readJsonLines(catalogFile, (problem) => report(problem.line, problem.reason))) {
    lineOf.push(line);
    const doc = value as { id?: unknown; work_keys_str_mv?: unknown };
    if (typeof doc?.id === 'string') {
      // Remember which records share a key, to suggest records with many versions on the home page.
      try {
        const keys = Array.isArray(doc.work_keys_str_mv) ? doc.work_keys_str_mv : workKeysOfDocument(value as never);
        for (const key of keys) groups.set(String(key), [...(groups.get(String(key)) ?? []), doc.id]);
      } catch { /* the index reports the bad document */ }
    }
    yield value;
  }
}

try {
  const summary = await index.load(documents(), { onRejected: ({ position, reason }) => report(lineOf[position - 1], reason) });
  const featured = [...groups.values()]
    .sort((a, b) => b.length - a.length)
    .map((ids) => ids[0] as string)
    .filter((id, i, all) => all.indexOf(id) === i)
    .slice(0, 12);
  const app = createDemoHost({ index, baseUrl, featuredIds: featured });
  const server = app.listen(port, () => {
    console.log(`Loaded ${summary.loaded} records from ${catalogFile}${problems > 0 ? ` (${problems} skipped)` : ''} in ${Date.now() - started} ms`);
    const first = featured[0];
    console.log(`Demo catalog listening on ${baseUrl}/`);
    if (first !== undefined) {
      console.log(`Open first: ${baseUrl}/Search/Versions?${new URLSearchParams({ id: first, search: 'versions' })}`);
    }
  });
  const stop = () => server.close(() => void index.close().then(() => process.exit(0)));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (error) {
  console.error(`Could not start the demo: ${(error as Error).message}`);
  process.exit(1);
}
