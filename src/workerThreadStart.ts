/**
 * Starting a worker thread on a module of this package, the same way under tsx (the tests run the
 * TypeScript sources) and from dist: the worker's file is the sibling of the calling module, .ts beside
 * .ts and .js beside .js, and it gets the process's Node options but --input-type. Used by the embedded
 * index's staged load (src/adapters/sqlite/stagedLoadOffThread.ts) and the ingest pipeline's mapping
 * threads (src/ingest/mappingPool.ts).
 *
 * Left to others: what the workers do and the messages they exchange.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * The process's Node options for a worker (under tsx they carry its loader), all but --input-type: it is
 * for the code of -e, -p or stdin, and a worker given it refuses to load its file
 * (ERR_INPUT_TYPE_NOT_ALLOWED), as it did in a test run through `node --import tsx --input-type=module -e`.
 */
function workerExecArgv(): string[] {
  const kept: string[] = [];
  for (let i = 0; i < process.execArgv.length; i++) {
    const arg = process.execArgv[i]!;
    if (arg === '--input-type') i += 1;
    else if (!arg.startsWith('--input-type=')) kept.push(arg);
  }
  return kept;
}

/**
 * Where tsx's module API (`tsx/esm/api`, its `import` form) is, found from the calling module. A module tsx
 * runs as a CommonJS copy (one `require`d from an ES module: the package root's deprecated adapter names
 * load theirs so, src/deprecatedExports.ts) has no `import.meta.resolve`, and a `require` from it finds
 * the API's CommonJS form, whose `register` fails in a worker; tsx's package.json `exports` name the other.
 */
function tsxModuleApiUrl(callerUrl: string): string {
  if (typeof import.meta.resolve === 'function') return import.meta.resolve('tsx/esm/api');
  const packageJson = createRequire(callerUrl).resolve('tsx/package.json');
  const { exports } = JSON.parse(readFileSync(packageJson, 'utf8')) as { exports: { './esm/api': { import: { default: string } } } };
  return new URL(exports['./esm/api'].import.default, pathToFileURL(packageJson)).href;
}

/**
 * Starts the worker module `stem` (a file name without extension) that lies beside the module whose
 * `import.meta.url` is `callerUrl`.
 */
export function startWorkerThread(callerUrl: string, stem: string, options: Omit<WorkerOptions, 'eval' | 'execArgv'>): Worker {
  const runningSources = callerUrl.endsWith('.ts');
  const workerUrl = new URL(`./${stem}${runningSources ? '.ts' : '.js'}`, callerUrl);
  const withArgv = { ...options, execArgv: workerExecArgv() };
  if (!runningSources) return new Worker(workerUrl, withArgv);
  // The worker inherits `--import tsx`, but on Node 20 tsx registers its hooks on the main thread only
  // (the worker then refuses the .ts file: ERR_UNKNOWN_FILE_EXTENSION), so it registers them itself first.
  // Only when running the sources, which tsx (a dev dependency) is there for; without tsx (a Node that
  // strips types itself) the worker loads its file as the main thread did.
  let tsx: string;
  try {
    tsx = tsxModuleApiUrl(callerUrl);
  } catch {
    return new Worker(workerUrl, withArgv);
  }
  return new Worker(
    `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(workerUrl.href)}); });`,
    { ...withArgv, eval: true },
  );
}
