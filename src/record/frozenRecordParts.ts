/**
 * What a view makes of a frozen record, made once per variant and kept as long as the record is. A frozen
 * record cannot change (the embedded index gives the records it keeps for later answers frozen:
 * src/adapters/sqlite/reusedRecords.ts), and the pages of one large work list mostly the same records, so
 * the part a view makes of one (a feed item, feedModel.ts; an entry's record part, src/page/versionEntries.ts) is made
 * once, frozen, and given again while the view asks in the same variant (its language, base URL, …).
 * What a part is, and what its variant holds, is the view's; this module keeps one part per record, the
 * last variant's, in a weak map, and makes a record that may change a new part every time.
 */
import type { CatalogRecord } from './catalogRecord.js';

export interface FrozenRecordPartsSpec<Input, Variant, Part> {
  /** The part of a record for this input, made afresh. */
  make(record: CatalogRecord, input: Input): Part;
  /** What else than the record the part is made of, for this input. */
  variantOf(record: CatalogRecord, input: Input): Variant;
  /**
   * Whether a part made in `kept` is the part for this input, asked before a variant is made (a variant
   * holding several values need not be made to be compared); without it, `kept === variantOf(...)`.
   */
  isVariantOf?(kept: Variant, record: CatalogRecord, input: Input): boolean;
  /** Freezes a part made for a frozen record before it is kept. */
  freeze(part: Part): Part;
}

/** The part of a record for an input: a frozen record's kept one when made in the same variant. */
export function frozenRecordParts<Input, Variant, Part>(spec: FrozenRecordPartsSpec<Input, Variant, Part>): (record: CatalogRecord, input: Input) => Part {
  const isVariantOf = spec.isVariantOf ?? ((variant: Variant, record: CatalogRecord, input: Input) => variant === spec.variantOf(record, input));
  const kept = new WeakMap<CatalogRecord, { readonly variant: Variant; readonly part: Part }>();
  return (record, input) => {
    if (!Object.isFrozen(record)) return spec.make(record, input);
    const earlier = kept.get(record);
    if (earlier !== undefined && isVariantOf(earlier.variant, record, input)) return earlier.part;
    const part = spec.freeze(spec.make(record, input));
    kept.set(record, { variant: spec.variantOf(record, input), part });
    return part;
  };
}
