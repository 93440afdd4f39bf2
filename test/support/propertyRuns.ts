/**
 * A fast-check property's outcome as ava assertions: the property held, and in every run asked for (a
 * property whose runs were cut short or skipped by its preconditions did not check what it says).
 * A failure reports fast-check's counterexample, its seed and the error it raised.
 */
import type { ExecutionContext } from 'ava';
import fc from 'fast-check';

export function assertPropertyHeld<Ts>(t: ExecutionContext, details: fc.RunDetails<Ts>, runs: number): void {
  t.false(details.failed, fc.defaultReportMessage(details) ?? 'the property failed');
  t.false(details.interrupted, 'the property was interrupted before its runs were made');
  t.is(details.numRuns, runs, 'the property ran as many times as asked');
}
