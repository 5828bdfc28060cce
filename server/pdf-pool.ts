import { Piscina } from "piscina";
import type { PdfRenderer } from "../app/features/pdf/pdf-renderer.server.ts";

/**
 * `npm run dev` (ADR 58): a worker keeps the modules it loaded, so none is kept idle and the next
 * render after a pause of a second loads the source as last edited (and parses the fonts again).
 */
export const RELOAD_WHEN_IDLE = { minThreads: 0, idleTimeout: 1000 } as const;

/**
 * Report PDFs are rendered by a pool of worker threads (piscina), so the event loop only serves
 * requests: a render is ≈12 ms of CPU, and five exports a second used to add ≈90 ms to the p99 of
 * every other request (docs/decisions/0017-pdf-worker-pool.md). The queue is bounded: past it a
 * render is refused at once (503 with Retry-After) rather than waited for without end.
 */
export type PdfPool = { render: PdfRenderer; close: () => Promise<void> };

export function createPdfPool(workers: number, { reloadWhenIdle = false } = {}): PdfPool {
  const pool = new Piscina({
    // Loaded by the workers as TypeScript: they inherit `--import tsx` from `npm start` and `npm run dev`.
    filename: new URL("./pdf-worker.ts", import.meta.url).href,
    // The fonts are parsed once per worker; keep the workers rather than parse them again.
    ...(reloadWhenIdle ? RELOAD_WHEN_IDLE : { minThreads: 1, idleTimeout: 10 * 60_000 }),
    maxThreads: workers,
    // ≈12 ms a render: a full queue is under a second of work per worker, and bounds the memory.
    maxQueue: workers * 64,
    // The 8 MiB new space they had under `npm start`'s former process-wide `--max-semi-space-size=4`
    // (ADR 34, amended): the event loop now has V8's default, the render threads stay as measured.
    resourceLimits: { maxYoungGenerationSizeMb: 8 },
  });
  return {
    render: async (report, options) => {
      try {
        return (await pool.run({ report, options })) as Uint8Array;
      } catch (error) {
        if (error instanceof Error && /queue is at limit/i.test(error.message)) {
          const full = new Error("Every PDF worker is busy and the queue is full.");
          full.name = "PdfQueueFullError";
          throw full;
        }
        throw error;
      }
    },
    close: () => pool.destroy(),
  };
}
