import { once } from "node:events";
import { setPriority } from "node:os";
import { setTimeout } from "node:timers/promises";
import type { MessagePort } from "node:worker_threads";
import { type ExportPlan, exportFileChunks } from "../app/features/reports/report-export-file.server.ts";
import { openSqlClient } from "../app/lib/sql-client.server.ts";

/**
 * One reports export in a worker thread of server/export-workers.ts: a connection of its own with
 * a small page cache, the file made batch by batch, each chunk sent on the export's port when the
 * main thread asks for the next one. The connection closes with the export.
 */
try {
  // As for PDFs: when the cores are busy, the scheduler serves the requests on the main thread first.
  setPriority(10);
} catch {
  // Not allowed here: the worker keeps the normal priority.
}

export type ExportTask = { databaseUrl: string; sqliteCacheKiB: number; plan: ExportPlan; port: MessagePort };
/** The main thread asks for the next chunk, or says the client has gone. */
export type ToExportWorker = "next" | "cancel";
export type FromExportWorker = { type: "chunk"; bytes: Uint8Array } | { type: "end" } | { type: "error"; message: string };

/**
 * How long the worker waits for the main thread to ask for the next chunk. A client that reads
 * nothing for this long has gone in all but name; the worker stops rather than stay taken.
 */
const PULL_TIMEOUT_MS = 5 * 60_000;

/** The main thread's next request; a port closed from the other side, or silent too long, is a cancel. */
async function nextRequest(port: MessagePort): Promise<ToExportWorker> {
  const silence = new AbortController();
  try {
    return await Promise.race([
      once(port, "message", { signal: silence.signal }).then(([request]) => request as ToExportWorker),
      once(port, "close", { signal: silence.signal }).then(() => "cancel" as const),
      setTimeout(PULL_TIMEOUT_MS, "cancel" as const, { signal: silence.signal }),
    ]);
  } finally {
    silence.abort();
  }
}

export default async function exportFile({ databaseUrl, sqliteCacheKiB, plan, port }: ExportTask): Promise<void> {
  const client = openSqlClient(databaseUrl, { poolSize: 1, readOnlyWithCacheKiB: sqliteCacheKiB });
  const chunks = exportFileChunks(client, plan);
  const post = (message: FromExportWorker, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
  try {
    for (;;) {
      const request = await nextRequest(port);
      if (request === "cancel") return void (await chunks.return(undefined));
      const next = await chunks.next();
      if (next.done) return post({ type: "end" });
      const bytes = next.value;
      // A chunk that owns its whole buffer is handed over; a slice of a shared one (ExcelJS's) is copied.
      const owned = bytes.byteOffset === 0 && bytes.buffer instanceof ArrayBuffer && bytes.byteLength === bytes.buffer.byteLength;
      post({ type: "chunk", bytes }, owned ? [bytes.buffer as ArrayBuffer] : []);
    }
  } catch (error) {
    post({ type: "error", message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  } finally {
    port.close();
    await client.close();
  }
}
