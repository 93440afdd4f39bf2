/**
 * Finished answers of the versions route, kept for the requests that follow: feed readers poll the same
 * feeds all day, and a popular record's page is asked for again and again, while building an answer reads
 * the index and writes the feed or page anew, many times the cost of sending a kept one (docs/benchmarks.md).
 *
 * Each answer is kept with the index's content version it was built from (CatalogIndex.contentVersion);
 * when the index reports another version, every kept answer is dropped at once, so no answer outlives the
 * data it shows. Within a byte budget, the least recently used answers go first. What an answer is and
 * what its key holds is the plugin's business (versionsAnswers.ts); this module only keeps them.
 */

export interface AnswerCache<T> {
  /** The answer kept under `key`, if it was built from content `version`. */
  get(key: string, version: string): T | undefined;
  /** Keeps an answer built from content `version`; `bytes` is what it holds in memory. */
  set(key: string, version: string, answer: T, bytes: number): void;
  /** Bytes held (answers and keys), and how many answers: for tests. */
  readonly bytes: number;
  readonly size: number;
}

interface Entry<T> {
  readonly answer: T;
  readonly bytes: number;
}

// What a Map entry and its key cost beyond their text, roughly; keeps many tiny answers within budget.
const ENTRY_OVERHEAD_BYTES = 96;

export function createAnswerCache<T>(maxBytes: number): AnswerCache<T> {
  // A Map iterates in insertion order: an entry is moved to the end when used, so the first is the least
  // recently used.
  const entries = new Map<string, Entry<T>>();
  let contentVersion: string | undefined;
  let bytes = 0;

  const forgetAll = (version: string) => {
    entries.clear();
    bytes = 0;
    contentVersion = version;
  };

  return {
    get(key, version) {
      if (version !== contentVersion) {
        forgetAll(version);
        return undefined;
      }
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      entries.delete(key);
      entries.set(key, entry);
      return entry.answer;
    },

    set(key, version, answer, answerBytes) {
      if (version !== contentVersion) forgetAll(version);
      const entryBytes = answerBytes + 2 * key.length + ENTRY_OVERHEAD_BYTES;
      // An answer larger than the whole budget would only push everything else out and then itself.
      if (entryBytes > maxBytes) return;
      const previous = entries.get(key);
      if (previous !== undefined) {
        entries.delete(key);
        bytes -= previous.bytes;
      }
      entries.set(key, { answer, bytes: entryBytes });
      bytes += entryBytes;
      for (const [oldestKey, oldest] of entries) {
        if (bytes <= maxBytes) break;
        entries.delete(oldestKey);
        bytes -= oldest.bytes;
      }
    },

    get bytes() {
      return bytes;
    },
    get size() {
      return entries.size;
    },
  };
}
