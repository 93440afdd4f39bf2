/**
 * The classes of work size the side-by-side tools report answers by (indexSideBySide.ts, freshAnswers.ts):
 * a record's work of one record, a few, up to a page's worth, and the large works whose pages are cut from
 * remembered lists.
 */
export const SIZE_CLASSES = [[1, '1'], [7, '2-7'], [20, '8-20'], [100, '21-100'], [256, '101-256'], [Number.POSITIVE_INFINITY, '> 256']] as const;

/** The name of the class of a work of `size` records. */
export const sizeClassOf = (size: number): string => SIZE_CLASSES.find(([upTo]) => size <= upTo)![1];
