import { MessageChannel } from "node:worker_threads";
import { Piscina } from "piscina";
import type { ExportMaker } from "../app/features/reports/report-export.server.ts";
import type { ExportPlan } from "../app/features/reports/report-export-file.server.ts";
import type { ExportTask, FromExportWorker, ToExportWorker } from "./export-worker.ts";
import { RELOAD_WHEN_IDLE } from "./pdf-pool.ts";

/**
 * Reports exports are made in a pool of worker threads (piscina), one export per thread at a time
 * (ADR 34). On the event loop a 100,000-row export grew the server by 90–190 MiB and kept most of
 * it: SQLite's 64 MiB page cache filled from the scan, and V8 let its old generation grow with the
 * batches. A worker reads through a connection of its own with a 2 MiB page cache, closed after
 * each export, and its heap is capped, so an export costs the server a bounded amount whatever
 * its size; the CSV and XLSX work leaves the event loop that serves everyone else too.
 *
 * The first worker starts with the server and stays (the module loading is paid once, at start);
 * more start when exports overlap. Past `waiting` exports in line an export is refused at once
 * (503 with Retry-After) rather than waited for without end.
 */

/** The name the app knows a full line by (EXPORTS_BUSY in app/features/reports/report-export.server.ts). */
const EXPORTS_BUSY = "ExportsBusyError";

/**
 * A worker's heap: one batch of 1,000 rows with its groups, answers and CSV is a few MiB. The caps
 * make V8 collect within them rather than grow; an export that outgrew them would end its own
 * thread (ERR_WORKER_OUT_OF_MEMORY), not the server. A young generation of 8 MiB is the 8 MiB new
 * space these workers had under `npm start`'s former `--max-semi-space-size=4`, which V8 applied
 * to every thread and which let the event loop stall (ADR 34, amended).
 */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 8 };
const SQLITE_CACHE_KIB = 2048;

export type ExportWorkers = { make: ExportMaker; close: () => Promise<void> };

export function createExportWorkers(options: { databaseUrl: string; workers: number; waiting: number; reloadWhenIdle?: boolean }): ExportWorkers {
  const pool = new Piscina({
    // Loaded by the workers as TypeScript: they inherit `--import tsx` from `npm start` and `npm run dev`.
    filename: new URL("./export-worker.ts", import.meta.url).href,
    ...(options.reloadWhenIdle ? RELOAD_WHEN_IDLE : { minThreads: 1, idleTimeout: 60_000 }),
    maxThreads: options.workers,
    maxQueue: options.waiting,
    // An export keeps its thread until its last chunk is taken, however long the client takes.
    concurrentTasksPerWorker: 1,
    resourceLimits: WORKER_LIMITS,
  });

  const make: ExportMaker = async (plan: ExportPlan) => {
    const { port1: port, port2 } = new MessageChannel();
    const task: ExportTask = { databaseUrl: options.databaseUrl, sqliteCacheKiB: SQLITE_CACHE_KIB, plan, port: port2 };
    let running: Promise<unknown>;
    try {
      running = pool.run(task, { transferList: [port2] });
    } catch (error) {
      port.close();
      throw busyOr(error);
    }
    let ended = false;
    const end = () => {
      ended = true;
      port.close();
    };
    // A task the pool refuses (its line is full) or a worker that dies ends the export too.
    const failed = running.then(
      () => null,
      (error: unknown) => {
        end();
        throw busyOr(error);
      },
    );
    // One request in flight at a time: the next chunk is asked for when the last one has been passed on.
    const next = () =>
      new Promise<Uint8Array | null>((resolve, reject) => {
        port.once("message", (message: FromExportWorker) => {
          if (message.type === "chunk") return resolve(message.bytes);
          end();
          // The file ends once its worker is free again (its connection closed): the next export,
          // even one asked for at once, then finds that worker idle instead of starting another
          // thread, and each thread costs its own heap (≈40 MiB at its peak).
          if (message.type === "end") failed.then(resolve, reject);
          else reject(new Error(`the export failed in its worker: ${message.message}`));
        });
        port.postMessage("next" satisfies ToExportWorker);
      });
    const nextOrFailure = () => Promise.race([next(), failed.then(() => new Promise<never>(() => {}))]);

    const first = await nextOrFailure();
    return new ReadableStream<Uint8Array>(
      {
        start(controller) {
          if (first) controller.enqueue(first);
          else controller.close();
        },
        async pull(controller) {
          try {
            const bytes = await nextOrFailure();
            if (bytes) controller.enqueue(bytes);
            else controller.close();
          } catch (error) {
            console.error("[exports]", error instanceof Error ? error.message : error);
            controller.error(error);
          }
        },
        cancel() {
          // The client went away: the worker stops reading and closes its connection.
          if (ended) return;
          port.postMessage("cancel" satisfies ToExportWorker);
          end();
        },
      },
      // Nothing read ahead: a batch is made when the client asks for it.
      { highWaterMark: 0 },
    );
  };

  return { make, close: () => pool.destroy() };
}

function busyOr(error: unknown): unknown {
  if (error instanceof Error && /queue is at limit/i.test(error.message)) {
    const busy = new Error("Every export worker is busy and the line is full.");
    busy.name = EXPORTS_BUSY;
    return busy;
  }
  return error;
}
