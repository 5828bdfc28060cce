import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { drainOrClose } from "../../app/lib/drain-or-close.ts";

/**
 * The XLSX export waits, after each batch, for the zip's deflate stream and for its reader. A
 * wait used to leave its "close" listener behind: eleven batches into an export Node warned of
 * a listener leak, and a long export kept one listener per batch.
 */
describe("waiting for a stream to drain or its output to close", () => {
  it("given a hundred waits that each end by a drain, should leave no listener behind", async () => {
    const deflating = new PassThrough();
    const output = new PassThrough();
    for (let i = 0; i < 100; i += 1) {
      const waiting = drainOrClose(deflating, output);
      deflating.emit("drain");
      await waiting;
    }
    expect([deflating.listenerCount("drain"), output.listenerCount("close"), deflating.listenerCount("error"), output.listenerCount("error")]).toEqual([
      0, 0, 0, 0,
    ]);
  });

  it("given an output that closes while waiting, should end the wait", async () => {
    const deflating = new PassThrough();
    const output = new PassThrough();
    const waiting = drainOrClose(deflating, output);
    output.destroy();
    await waiting;
    expect(deflating.listenerCount("drain")).toBe(0);
  });
});
