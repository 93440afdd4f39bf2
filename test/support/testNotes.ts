/**
 * What a test may say beside its result (a screenshot's path, how many requests a read took, which way a
 * race went): shown only when TEST_NOTES=1 is set, so that a plain run prints results alone
 * (docs/testing.md, "A quiet run"). What a test must hold is asserted, never only noted.
 */
import type { ExecutionContext } from 'ava';

const SHOWN = process.env.TEST_NOTES === '1';

export function note(t: ExecutionContext, text: string): void {
  if (SHOWN) t.log(text);
}
