/**
 * For tests that run `catalog-versions` in-process (runCli): a temporary directory removed after the
 * test, and an io pair that captures standard output and standard error.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type Teardown = { teardown(fn: () => unknown): void };

export function tempDir(t: Teardown, prefix = 'catalog-versions-ingest-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export function capture() {
  let out = '';
  let err = '';
  return {
    io: { stdout: { write: (text: string) => (out += text) }, stderr: { write: (text: string) => (err += text) } },
    out: () => out,
    err: () => err,
  };
}
