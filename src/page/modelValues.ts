/**
 * The shared values of the page's view model: the one empty list, deep freezing for parts made once and
 * given to many pages, and a writable view of a model type for building it property by property.
 */
// What an entry without any of a list's values holds: one list for all of them, as nothing changes it.
export const NONE: readonly never[] = Object.freeze([]);

export type Writable<T> = { -readonly [K in keyof T]: T[K] };

/** Freezes a value and everything it holds (for model parts kept and given to several pages). */
export function deepFrozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFrozen(inner);
    Object.freeze(value);
  }
  return value;
}
