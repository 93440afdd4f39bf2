/**
 * A work index file's generation: a number in its state table that every change raises (bump), so that a
 * server reading the file sees a sync run by another process. Read at most once an event-loop turn, and
 * the state values read under it (stateThisTurn).
 */
import type Database from 'better-sqlite3';

export interface FileGeneration {
  /** The generation as this open last read it (undefined before any change). */
  current(): string | undefined;
  /** A state value, read again only when the generation changes (every state write changes it). */
  stateThisTurn(name: string): string | undefined;
  /** Raises the generation, in the caller's transaction. */
  bump(): void;
  /** Reads the generation again at its next use (after a transaction that may have rolled back). */
  forgetRead(): void;
}

/** The generation of the file whose state `readState` reads and `writeState` writes. */
export function fileGeneration(readState: Database.Statement, writeState: Database.Statement): FileGeneration {
  // The generation as this open last read it: once an event-loop turn (an answer asks for it several times,
  // and another process's sync shows on the next turn), read again at once after this open's own writes.
  let generationSeen: string | undefined;
  let generationRead = false;
  let forgetScheduled = false;
  const forgetGeneration = () => {
    generationRead = false;
    forgetScheduled = false;
  };
  const generation = (): string | undefined => {
    if (!generationRead) {
      generationSeen = readState.get('generation') as string | undefined;
      generationRead = true;
      if (!forgetScheduled) {
        forgetScheduled = true;
        setImmediate(forgetGeneration);
      }
    }
    return generationSeen;
  };
  // State values read under the generation they were read in: every state write bumps it.
  const stateSeen = new Map<string, string | undefined>();
  let stateGeneration: string | undefined;
  const stateThisTurn = (name: string): string | undefined => {
    const now = generation();
    if (now !== stateGeneration) {
      stateSeen.clear();
      stateGeneration = now;
    }
    if (!stateSeen.has(name)) stateSeen.set(name, readState.get(name) as string | undefined);
    return stateSeen.get(name);
  };
  // The file's generation, kept in the file so that a server reading it sees a sync run by another process.
  const bump = () => {
    writeState.run('generation', String(Number(readState.get('generation') ?? 0) + 1));
    generationRead = false;
  };
  return {
    current: generation,
    stateThisTurn,
    bump,
    forgetRead: () => {
      generationRead = false;
    },
  };
}
