import http from "node:http";
import path from "node:path";
import type { ServerBuild } from "react-router";
import { clientAddress } from "../app/lib/client-address.server.ts";
import { createApp, type ServerEntryExports } from "./app.ts";
import { listen } from "./listen.ts";
import { LoadShedder } from "./load-shedding.ts";
import { installLogRedaction } from "./log-redaction.ts";
import { createExportWorkers } from "./export-workers.ts";
import { createPdfPool } from "./pdf-pool.ts";

/** How long an idle keep-alive connection stays open: longer than the 60 s of common reverse proxies. */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/**
 * The production HTTP server: Express with React Router's adapter (server/app.ts), listening on
 * PORT, and stopping like a service: on SIGTERM or SIGINT it stops accepting connections and
 * claiming jobs, lets the requests and jobs in progress finish (up to SHUTDOWN_TIMEOUT seconds; a
 * job still running then is handed back to the other instances), then closes the database and exits.
 */
const root = path.resolve(import.meta.dirname, "..");
const buildDir = path.resolve(root, process.env.BUILD_DIR ?? "build");

export type ServerOptions = {
  port: number;
  host?: string;
  trustProxy: boolean;
  accessLog: boolean;
  loadShedding: { maxWaitMs: number; maxInFlight: number; maxConnections: number; maxReceivingPerAddress: number };
  shutdownTimeoutSeconds: number;
  /** Worker threads that render report PDFs. */
  pdfWorkers: number;
  /** Reports exports made at once, a worker thread each. */
  exportWorkers: number;
  /** The exports' workers open connections of their own. */
  databaseUrl: string;
};

export type RunningServer = { server: http.Server; stop: (reason: string) => Promise<void> };

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  installLogRedaction();
  const build = (await import(path.join(buildDir, "server/index.js"))) as ServerBuild;
  const entry = build.entry.module as unknown as ServerEntryExports;
  const loadShedder = new LoadShedder({
    ...options.loadShedding,
    addressOf: (req) => clientAddress(req.socket.remoteAddress, req.get("x-forwarded-for") ?? null, options.trustProxy),
  });
  let shuttingDown = false;
  const pdfPool = createPdfPool(options.pdfWorkers);
  const exportWorkers = createExportWorkers({ databaseUrl: options.databaseUrl, workers: options.exportWorkers, waiting: options.exportWorkers * 8 });
  const app = createApp({
    renderPdf: pdfPool.render,
    makeExport: exportWorkers.make,
    build,
    clientDir: path.join(buildDir, "client"),
    trustProxy: options.trustProxy,
    accessLog: options.accessLog,
    loadShedder,
    isShuttingDown: () => shuttingDown,
  });
  const server = http.createServer(app);
  loadShedder.watchConnections(server);
  // Slow clients must not hold sockets forever. An idle keep-alive connection is kept longer than
  // the reverse proxies and clients that reuse it do (nginx and cloud load balancers: 60 s): when
  // the server closes first, a request already on its way over that socket fails ("other side
  // closed", a 502 behind a proxy).
  server.requestTimeout = 30_000;
  server.headersTimeout = 15_000;
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  const listening = await listen(server, options.port, options.host);
  loadShedder.start();
  const stopHousekeeping = entry.scheduleHousekeeping();
  const stopJobs = entry.startBackgroundJobs();

  let stopping: Promise<void> | undefined;
  const stop = (reason: string) =>
    (stopping ??= (async () => {
      shuttingDown = true;
      console.log(`${reason}: no new connections; finishing ${loadShedder.requestsInFlight} request(s) in progress`);
      // The job worker claims nothing more and its runs in progress (an e-mail being sent) finish
      // alongside the requests; those still running at the deadline are handed back (ADR 46).
      const jobsStopped = stopJobs(options.shutdownTimeoutSeconds * 1000);
      const closed = listening.close();
      server.closeIdleConnections();
      const deadline = setTimeout(() => {
        console.log(`Requests still in progress after ${options.shutdownTimeoutSeconds} s: closing their connections`);
        server.closeAllConnections();
      }, options.shutdownTimeoutSeconds * 1000);
      await closed;
      clearTimeout(deadline);
      loadShedder.stop();
      stopHousekeeping();
      await jobsStopped;
      entry.stopDatabaseProbe();
      await pdfPool.close();
      await exportWorkers.close();
      await entry.disconnectDatabase();
      console.log("Stopped.");
    })());
  return { server, stop };
}

/**
 * Keeps the process up whatever a request does: an error that escapes every handler is logged and
 * the server goes on serving; only a signal stops it.
 */
export function stopOnSignals(running: RunningServer): void {
  process.on("unhandledRejection", (reason) => console.error("Unhandled rejection (the server keeps running):", reason));
  process.on("uncaughtException", (error) => console.error("Uncaught exception (the server keeps running):", error));
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      running.stop(signal).then(
        () => process.exit(0),
        (error: unknown) => {
          console.error("Shutdown failed:", error);
          process.exit(1);
        },
      );
    });
  }
}
