/**
 * Which record id each OAI identifier of a repository was stored under, so that a deleted header, which
 * names only the OAI identifier, deletes the right record for every metadata prefix: with `marc21` the
 * record is stored under its MARC id (001, or the local mapping's id fields) and any id prefix, with
 * `oai_dc` under the identifier and the prefix.
 *
 * Only identifiers whose record id differs from the one the fallback gives (id prefix + identifier) are
 * kept, so an `oai_dc` harvest keeps nothing. The memory is one JSON value per base URL and prefix in the
 * target's harvest state (the embedded index's harvest table; with Solr, the --state file), read when a
 * harvest starts and written when it went to the end, beside its response date. A harvest that did not
 * finish does not move its starting point, so the next run sees the same records and deletions again.
 *
 * Left to others: where the state is kept (the target), mapping records (harvestedRecords.ts), deleting
 * (the pipeline).
 */
import type { SourceItem } from '../../record/sourceRecord.js';

/** Where harvest state is kept: text values by key. */
export interface HarvestStateStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
}

export function harvestedIdentifiersKey(baseUrl: string, metadataPrefix: string): string {
  return JSON.stringify(['oai-identifiers', baseUrl, metadataPrefix]);
}

export class HarvestedIdentifiers {
  private changed = false;

  private constructor(private readonly recordIds: Map<string, string>, private readonly idPrefix: string) {}

  /** The memory kept under this key (empty when there is none, or no store). */
  static async load(store: HarvestStateStore | undefined, key: string, idPrefix: string): Promise<HarvestedIdentifiers> {
    const text = store === undefined ? undefined : await store.get(key);
    const recordIds = new Map<string, string>();
    if (text !== undefined) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new Error(`the harvest state under ${key} is not the JSON it should be; remove it to start the memory of OAI identifiers afresh`);
      }
      if (typeof parsed === 'object' && parsed !== null) {
        for (const [identifier, id] of Object.entries(parsed)) if (typeof id === 'string') recordIds.set(identifier, id);
      }
    }
    return new HarvestedIdentifiers(recordIds, idPrefix);
  }

  get size(): number {
    return this.recordIds.size;
  }

  /** The record id stored for this identifier: remembered, else the id prefix and the identifier. */
  recordIdOf(identifier: string): string {
    return this.recordIds.get(identifier) ?? this.idPrefix + identifier;
  }

  remember(identifier: string, recordId: string): void {
    if (recordId === this.idPrefix + identifier) {
      if (this.recordIds.delete(identifier)) this.changed = true;
      return;
    }
    if (this.recordIds.get(identifier) === recordId) return;
    this.recordIds.set(identifier, recordId);
    this.changed = true;
  }

  forget(identifier: string): void {
    if (this.recordIds.delete(identifier)) this.changed = true;
  }

  /** Writes the memory back when it changed. */
  async save(store: HarvestStateStore, key: string): Promise<void> {
    if (!this.changed) return;
    await store.set(key, JSON.stringify(Object.fromEntries(this.recordIds)));
    this.changed = false;
  }

  /** The harvest's items with each deletion's OAI identifier replaced by the record id it was stored under. */
  async *translateDeletions<T>(items: AsyncIterable<SourceItem<T>>): AsyncGenerator<SourceItem<T>> {
    for await (const item of items) {
      if (item.kind !== 'deleted') {
        yield item;
        continue;
      }
      const id = this.recordIdOf(item.id);
      this.forget(item.id);
      yield { ...item, id };
    }
  }
}
