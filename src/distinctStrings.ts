/**
 * One small collection the key code and the MARC field-specification reader share: distinct non-empty
 * strings in the order first added (DistinctStrings). It sits at the root, below src/marc/ and
 * src/work-keys/, because both use it and neither may import the other's way.
 */

/**
 * Distinct non-empty strings in the order first added. A record's few titles, names and keys are
 * searched in a list: hashing each string into a Set cost more than making the key itself
 * (docs/benchmarks.md, "Figures behind choices in the code"). A record with very many names gets a Set beside the list. The MARC mapping's
 * keys (src/work-keys/marcWorkKeys.ts) and the field-specification values (src/marc/marcFieldSpec.ts) are gathered in these too.
 */
export class DistinctStrings {
  readonly values: string[] = [];
  private seen: Set<string> | undefined;

  add(value: string): void {
    if (value === '') return;
    if (this.seen !== undefined) {
      if (this.seen.has(value)) return;
      this.seen.add(value);
    } else if (this.values.includes(value)) {
      return;
    } else if (this.values.length >= SEARCHED_STRINGS) {
      this.seen = new Set(this.values).add(value);
    }
    this.values.push(value);
  }
}
const SEARCHED_STRINGS = 32;
