import { LRUCache } from "lru-cache";

/**
 * Values cached by key and kept while a version read from the database is unchanged
 * (docs/decisions/0013-report-totals.md): a value is stored with the version read *before* it was
 * computed and served only while that version is still the current one. Requests that miss at the
 * same time for the same key and version share one computation; a failed one is not kept. At most
 * `size` keys, the least recently used going first.
 *
 * No database here: the report totals (app/features/reports/report-totals.server.ts) and the test
 * links' form contents (app/features/submissions/form-content-cache.server.ts) use it.
 */
export class VersionedCache<T> {
  private readonly entries: LRUCache<string, { version: string; value: Promise<T> }>;

  constructor(size: number) {
    this.entries = new LRUCache({ max: size });
  }

  get count(): number {
    return this.entries.size;
  }

  async get(key: string, version: string, compute: () => Promise<T>): Promise<T> {
    const cached = this.entries.get(key);
    if (cached?.version === version) return cached.value;
    const entry = { version, value: compute() };
    this.entries.set(key, entry);
    try {
      return await entry.value;
    } catch (error) {
      if (this.entries.peek(key) === entry) this.entries.delete(key);
      throw error;
    }
  }
}
