/**
 * The pure half of the lists read with `updatedSince` (docs/api-contract.md §23,
 * docs/decisions/0052-changes-and-tombstones.md): a page of changes is the list's items changed at
 * or after the moment and its tombstones since then, merged oldest change first, ties by id. No
 * database here: the services use it (app/lib/tombstones.server.ts), and tests/unit/changes.test.ts
 * checks the merge alone.
 */

/** What orders a change: when it happened and, for changes at the same millisecond, its id. */
export type ChangeKey = { id: string; updatedAt: Date };

/** A deletion as a list answers it: its id, and when it was deleted (also its `updatedAt`). */
export class Deletion {
  readonly id: string;
  readonly updatedAt: Date;
  readonly deletedAt: Date;
  constructor(id: string, deletedAt: Date) {
    this.id = id;
    this.updatedAt = deletedAt;
    this.deletedAt = deletedAt;
  }
}

/** Whether a list's item is a deletion rather than an item as it is now. */
export const isDeletion = (item: unknown): item is Deletion => item instanceof Deletion;

export const compareChanges = (a: ChangeKey, b: ChangeKey) => a.updatedAt.getTime() - b.updatedAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * How many tombstones a page reads (`skip + take`, in order): every one that could be on it or
 * before it.
 */
export const deletionsNeeded = (page: { skip: number; take: number }) => page.skip + page.take;

/**
 * Which of the live items a page reads, once its `deletions` (up to `deletionsNeeded`) are known:
 * the page's items in the merged order are the live items from `offset` on and the tombstones,
 * and at most `before` of the tombstones can come ahead of the page's first item, so the live
 * items it needs start at most that many earlier than `skip`. The list reads them with the
 * database's own OFFSET, so a deep page costs what it skips in the index, as the lists' pages do.
 */
export function liveWindow(page: { skip: number; take: number }, deletions: number) {
  const before = Math.min(deletions, page.skip);
  return { offset: page.skip - before, limit: page.take + before, before };
}

/**
 * The page: the live items read from `liveWindow` and the tombstones, merged in order (a tombstone
 * ahead of a live item of the same moment and id), from the window's `before`-th on. Each list
 * keeps its database's order; only the two lists' items are compared with each other.
 *
 * Why this is the page: a live item at live offset `o` is at `o` plus the tombstones ahead of it in
 * the whole list. Fewer tombstones than `deletionsNeeded` are all of them, and the merge counts
 * those ahead of each live item; the ones it places ahead of the window's first live item without
 * knowing how many live items precede them all come before `skip`. With as many, the window starts
 * at the first live item and the merge is exact from the start. Whatever would follow the last
 * live item or tombstone read comes after the page.
 */
export function mergeChanges<Item extends ChangeKey>(
  page: { skip: number; take: number },
  window: { before: number },
  live: readonly Item[],
  deletions: readonly Deletion[],
): (Item | Deletion)[] {
  const merged: (Item | Deletion)[] = [];
  let l = 0;
  let d = 0;
  while (l < live.length || d < deletions.length) {
    if (d < deletions.length && (l === live.length || compareChanges(deletions[d]!, live[l]!) <= 0)) merged.push(deletions[d++]!);
    else merged.push(live[l++]!);
  }
  return merged.slice(window.before, window.before + page.take);
}
