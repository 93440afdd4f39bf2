/**
 * The benchmark's child processes, as runBench.ts and workCollectionCase.ts drive them: waiting for a
 * child's message of one type, and stopping a child (a `stop` message, then SIGKILL after 15 s).
 */
import type { ChildProcess } from 'node:child_process';

/** The first message of `type` from a child; fails if the child exits first or takes too long. */
export function messageFrom<T extends { type: string }>(child: ChildProcess, type: T['type'], timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`no "${type}" message within ${timeoutMs} ms`)), timeoutMs);
    const onMessage = (message: { type?: string }) => {
      if (message.type === type) finish(undefined, message as T);
    };
    const onExit = (code: number | null, signal: string | null) => finish(new Error(`child exited (${signal ?? code}) before sending "${type}"`));
    function finish(error?: Error, message?: T) {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (error !== undefined) reject(error);
      else resolve(message as T);
    }
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/** Asks a child to stop and waits for it to exit (killed after 15 s). */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.send({ type: 'stop' });
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}
