/**
 * Large works' orders and facet tallies kept in memory by a work index file's reads (workIndexReads.ts)
 * while the file's generation stays the same (fileGeneration.ts).
 */
import type { FacetTally } from '../../../record/recordFacets.js';
import type { EngineOrder } from './documentWork.js';

/**
 * Works of at least this many documents have their orders and facet tally kept in memory while the file
 * stays the same (KeptWorks), up to KEPT_IDS ids in all.
 */
export const KEPT_WORK_LEAST_DOCUMENTS = 50;
const KEPT_IDS = 400_000;

/** What is kept of one large work: its ids in each order the file sorts, and its facet tally. */
export interface KeptWork {
  orders: Partial<Record<EngineOrder, string[]>>;
  tally?: FacetTally;
  ids: number;
}

/**
 * Large works' orders and tallies (by their key-id list), kept while the file's generation stays the same:
 * every record of such a work asked for (a crawler walking the catalog asks for each) has the same page
 * order and facets, and sorting and counting the work were most of its answer. Oldest dropped first.
 */
export class KeptWorks {
  private readonly works = new Map<string, KeptWork>();
  private generation: string | undefined;
  private ids = 0;

  constructor(private readonly generationNow: () => string | undefined) {}

  /** The work kept for these keys, when the file is still as it was. */
  current(keys: string): KeptWork | undefined {
    this.follow();
    return this.works.get(keys);
  }

  /** Adds to what is kept of a work; `add` says how many ids it added. */
  keep(keys: string, add: (work: KeptWork) => number): void {
    this.follow();
    const work = this.works.get(keys) ?? { orders: {}, ids: 0 };
    const added = add(work);
    work.ids += added;
    this.ids += added;
    this.works.delete(keys);
    this.works.set(keys, work);
    for (const [oldest, kept] of this.works) {
      if (this.ids <= KEPT_IDS || oldest === keys) break;
      this.works.delete(oldest);
      this.ids -= kept.ids;
    }
  }

  private follow(): void {
    const generation = this.generationNow();
    if (generation === this.generation) return;
    this.generation = generation;
    this.works.clear();
    this.ids = 0;
  }
}
