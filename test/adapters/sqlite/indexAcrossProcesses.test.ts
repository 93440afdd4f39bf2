/**
 * The embedded index shared by processes, as a host runs it (docs/deployment.md, "One process per core"):
 * server processes (node:cluster workers, test/support/clusterHost.ts) each open the one file read-only
 * and keep answers of their own; `catalog-versions load` writes into the same file from another process.
 * A load committed there must reach every server process's answers from its next request on.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { fixture } from '../../support/testHost.js';
import { openEmbeddedIndex } from '../../../src/entries/sqlite.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const WORKERS = 2;

interface Answer {
  readonly worker: string;
  readonly etag: string;
  readonly items: number;
}

/** One GET on a connection of its own, so the cluster's primary hands each to the next worker. */
function get(port: number, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path, agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => { body += chunk; });
      response.on('end', () => {
        if (response.statusCode !== 200) reject(new Error(`GET ${path}: HTTP ${response.statusCode} ${body}`));
        else resolve({ worker: String(response.headers['x-worker']), etag: String(response.headers.etag), items: body.split('<item>').length - 1 });
      });
    }).on('error', reject);
  });
}

/** Answers until every worker has sent one (at most 20 requests). */
async function answersFromEveryWorker(port: number, path: string): Promise<Map<string, Answer[]>> {
  const byWorker = new Map<string, Answer[]>();
  for (let i = 0; i < 20 && (byWorker.size < WORKERS || i < 2 * WORKERS); i++) {
    const answer = await get(port, path);
    byWorker.set(answer.worker, [...(byWorker.get(answer.worker) ?? []), answer]);
  }
  return byWorker;
}

function startHost(path: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test', 'support', 'clusterHost.ts'), path, String(WORKERS)],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('\n')) resolve({ child, port: Number(output.trim()) });
    });
    child.once('exit', (code) => reject(new Error(`the host exited (${code}) before listening`)));
  });
}

function load(file: string, db: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli', 'catalogVersions.ts'), 'load', file, '--db', db],
      { cwd: ROOT, timeout: 60_000, env: { ...process.env, NODE_OPTIONS: '' } },
      (error, stdout, stderr) => (error === null ? resolve(stdout) : reject(new Error(`${error.message}\n${stderr}`))));
  });
}

test('a load by another process reaches the kept answers of every read-only server process at their next request', async (t) => {
  const folder = mkdtempSync(join(tmpdir(), 'index-across-processes-'));
  t.teardown(() => rmSync(folder, { recursive: true, force: true }));
  const db = join(folder, 'catalog.sqlite');
  // The thesis from one repository first; its copy in the other repository comes with a later load.
  const [first, second, ...others] = fixture('thesis-in-two-repositories');
  const index = openEmbeddedIndex({ path: db, create: true });
  await index.load([first, ...others]);
  await index.close();

  const { child, port } = await startHost(db);
  t.teardown(() => { child.kill('SIGTERM'); });
  const path = `/Search/Versions?id=${encodeURIComponent(String(first!.id))}&view=rss`;

  const before = await answersFromEveryWorker(port, path);
  t.is(before.size, WORKERS, `answers came from ${[...before.keys()].join(', ')}`);
  const etagBefore = [...before.values()][0]![0]!.etag;
  for (const [worker, answers] of before) {
    t.true(answers.length >= 2, `worker ${worker} answered more than once, so its later answers were kept ones`);
    for (const answer of answers) t.deepEqual([answer.items, answer.etag], [1, etagBefore], `worker ${worker}`);
  }

  const file = join(folder, 'second-repository.jsonl');
  writeFileSync(file, `${JSON.stringify(second)}\n`);
  t.regex(await load(file, db), /1 read: 1 with their own last_indexed, 0 rejected/);

  const after = await answersFromEveryWorker(port, path);
  t.is(after.size, WORKERS);
  for (const [worker, answers] of after) {
    for (const answer of answers) {
      t.is(answer.items, 2, `worker ${worker} answers with the record loaded by the other process`);
      t.not(answer.etag, etagBefore, `worker ${worker} no longer sends the answer it kept`);
    }
  }
});
