/**
 * Values cached by key and kept while a version read from the database is unchanged
 * (docs/decisions/0013-report-totals.md): a value is stored with the version read *before* it was
 * computed and served only while that version is still the current one. Requests that miss at the
 * same time for the same key and version share one computation; a failed one is not kept. At most
 * `size` keys, the least recently used going first.
 *
 * No database here: the app's report totals (report-totals.server.ts) use it, and so does the
 * bench's baseline, so that both cache the same way.
 */
export class VersionedCache<T> {
  private readonly entries = new Map<string, { version: string; value: Promise<T> }>();

  constructor(private readonly size: number) {}

  get count(): number {
    return this.entries.size;
  }

  async get(key: string, version: string, compute: () => Promise<T>): Promise<T> {
    const cached = this.entries.get(key);
    if (cached?.version === version) {
      // Most recently used last, so the first key is the one to evict.
      this.entries.delete(key);
      this.entries.set(key, cached);
      return cached.value;
    }
    const entry = { version, value: compute() };
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > this.size) this.entries.delete(this.entries.keys().next().value!);
    try {
      return await entry.value;
    } catch (error) {
      if (this.entries.get(key) === entry) this.entries.delete(key);
      throw error;
    }
  }
}

/** How many totals one process keeps; the least recently used one goes first. */
export const REPORT_TOTALS_CACHE_SIZE = 500;

/**
 * What, besides the caller's scope, decides a total: the folded search term ("" for none), the
 * completedAt bounds, the form and the group. A group's members change without a submission
 * changing, which the version does not see: those totals are counted every time.
 */
export type ReportTotalFilter = { term: string; from: Date | undefined; to: Date | undefined; formId?: string | undefined; groupId?: string | undefined };

/** The cache key of a total, or null when the total is never cached (see report-totals.server.ts). */
export function reportTotalKey(caller: { role: string; userId: string; organizationId: string }, filter: ReportTotalFilter): string | null {
  let scope: string;
  if (caller.role === "ADMIN") scope = "organization";
  else if (caller.role === "TEACHER") scope = `assignedBy:${caller.userId}`;
  else return null;
  if (filter.groupId) return null;
  return JSON.stringify([
    caller.organizationId,
    scope,
    filter.term,
    filter.from?.toISOString() ?? null,
    filter.to?.toISOString() ?? null,
    filter.formId ?? null,
  ]);
}
