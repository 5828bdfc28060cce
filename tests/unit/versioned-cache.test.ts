import { describe, expect, it } from "vitest";
import { VersionedCache } from "../../app/lib/versioned-cache.ts";

/**
 * The cache behind the report totals and the test links' form contents (app/lib/versioned-cache.ts,
 * docs/decisions/0013-report-totals.md): one computation for the callers that miss together, a
 * failed one kept for nobody, a new version computed again.
 */

/** A computation the test settles when it chooses, counting how often it was started. */
function heldComputation() {
  let settle!: { resolve: (value: number) => void; reject: (error: Error) => void };
  const held = new Promise<number>((resolve, reject) => (settle = { resolve, reject }));
  const computation = {
    calls: 0,
    compute: () => {
      computation.calls += 1;
      return held;
    },
    settle,
  };
  return computation;
}

describe("VersionedCache", () => {
  it("given three misses of one key and version while the first computes, should compute once for all three", async () => {
    const cache = new VersionedCache<number>(10);
    const held = heldComputation();
    const answers = Promise.all([1, 2, 3].map(() => cache.get("total", "v1", held.compute)));
    held.settle.resolve(5);
    expect(await answers).toEqual([5, 5, 5]);
    expect(held.calls).toBe(1);
    expect(await cache.get("total", "v1", held.compute)).toBe(5);
    expect(held.calls).toBe(1);
  });

  it("given a failed computation, should fail every caller that shared it and keep nothing", async () => {
    const cache = new VersionedCache<number>(10);
    const held = heldComputation();
    const answers = Promise.allSettled([1, 2, 3].map(() => cache.get("total", "v1", held.compute)));
    held.settle.reject(new Error("count failed"));
    expect((await answers).map((answer) => answer.status)).toEqual(["rejected", "rejected", "rejected"]);
    expect(held.calls).toBe(1);
    expect(cache.count).toBe(0);
    expect(await cache.get("total", "v1", async () => 3)).toBe(3);
  });

  it("given another version, should compute again and keep the new value", async () => {
    const cache = new VersionedCache<number>(10);
    expect(await cache.get("total", "v1", async () => 1)).toBe(1);
    expect(await cache.get("total", "v2", async () => 2)).toBe(2);
    expect(await cache.get("total", "v2", async () => 9)).toBe(2);
  });
});
