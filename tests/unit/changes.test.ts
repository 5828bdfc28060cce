import { describe, expect, it } from "vitest";
import { type ChangeKey, compareChanges, Deletion, deletionsNeeded, liveWindow, mergeChanges } from "../../app/lib/changes.ts";

/**
 * The page of a list read with updatedSince (ADR 52) is the live items and the tombstones merged in
 * order: checked against the whole merged list, sliced, for many sizes, pages and moments (ties
 * included), reading only what a service reads (the first `deletionsNeeded` tombstones and the
 * live window, as the database's OFFSET and LIMIT would give them).
 */
function seeded(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

describe("a page of changes", () => {
  it("given live items and deletions at any moments, should be the whole merged list's page, for every page and size", () => {
    const random = seeded(52);
    for (let trial = 0; trial < 400; trial += 1) {
      // Few distinct moments, so that many changes share one and the ids break the ties.
      const moments = 1 + Math.floor(random() * 6);
      const at = () => new Date(1_700_000_000_000 + Math.floor(random() * moments));
      const live: ChangeKey[] = Array.from({ length: Math.floor(random() * 30) }, (_, i) => ({ id: `l${String(i).padStart(3, "0")}`, updatedAt: at() })).sort(
        compareChanges,
      );
      const deletions = Array.from({ length: Math.floor(random() * 30) }, (_, i) => new Deletion(`d${String(i).padStart(3, "0")}`, at())).sort(compareChanges);
      const whole = [...live, ...deletions].sort((a, b) => compareChanges(a, b) || (a instanceof Deletion ? -1 : 1));
      const limit = 1 + Math.floor(random() * 7);
      for (let pageNumber = 1; (pageNumber - 1) * limit <= whole.length + limit; pageNumber += 1) {
        const page = { skip: (pageNumber - 1) * limit, take: limit };
        const read = deletions.slice(0, deletionsNeeded(page));
        const window = liveWindow(page, read.length);
        const items = mergeChanges(page, window, live.slice(window.offset, window.offset + window.limit), read);
        expect(
          items.map((item) => item.id),
          `trial ${trial}, page ${pageNumber} of ${limit}`,
        ).toEqual(whole.slice(page.skip, page.skip + page.take).map((item) => item.id));
      }
    }
  });

  it("given no deletions, should read exactly the page's live items", () => {
    expect(liveWindow({ skip: 40, take: 20 }, 0)).toEqual({ offset: 40, limit: 20, before: 0 });
  });

  it("given a deletion, should answer it as its id, updatedAt and deletedAt", () => {
    expect(JSON.parse(JSON.stringify(new Deletion("c1", new Date("2026-03-14T09:30:00.000Z"))))).toEqual({
      id: "c1",
      updatedAt: "2026-03-14T09:30:00.000Z",
      deletedAt: "2026-03-14T09:30:00.000Z",
    });
  });
});
