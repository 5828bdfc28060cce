import http from "node:http";
import path from "node:path";
import type { ServerBuild } from "react-router";
import { clientAddress } from "../app/lib/client-address.server.ts";
import { AccessLog } from "./access-log.ts";
import { createApp, entryOf } from "./app.ts";
import { builtApp, viteApp } from "./app-source.ts";
import { listen } from "./listen.ts";
import { LoadShedder } from "./load-shedding.ts";
import { installLogRedaction } from "./log-redaction.ts";
import { createExportWorkers } from "./export-workers.ts";
import { createPdfPool } from "./pdf-pool.ts";

/** How long an idle keep-alive connection stays open: longer than the 60 s of common reverse proxies. */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/**
 * The HTTP server of `npm start` and of `npm run dev` (which only takes the app from another
 * source, server/app-source.ts): Express with React Router's adapter (server/app.ts), listening on
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
  /**
   * "build": the bundle under BUILD_DIR (`npm start`). "vite": the source through Vite, reloaded
   * after each edit (`npm run dev`, ADR 58).
   */
  app: "build" | "vite";
};

export type RunningServer = { server: http.Server; stop: (reason: string) => Promise<void> };

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  installLogRedaction();
  const server = http.createServer();
  let shuttingDown = false;
  // In development the job worker follows the app's edits: when a request finds the app reloaded,
  // the worker of the old code stops claiming (its runs in progress finish) and one of the new starts.
  const retiredJobs: Promise<number>[] = [];
  const restartJobs = (build: ServerBuild) => {
    if (shuttingDown) return;
    retiredJobs.push(stopJobs(options.shutdownTimeoutSeconds * 1000));
    stopJobs = entryOf(build).startBackgroundJobs();
  };
  const source = options.app === "vite" ? await viteApp(server, restartJobs) : await builtApp(buildDir);
  const entry = entryOf(source.build);
  const loadShedder = new LoadShedder({
    ...options.loadShedding,
    addressOf: (req) => clientAddress(req.socket.remoteAddress, req.get("x-forwarded-for") ?? null, options.trustProxy),
  });
  // The worker threads load their modules from the source themselves (tsx), in both modes; in
  // development none is kept idle, so the next PDF or export runs the source as last edited.
  const reloadWhenIdle = options.app === "vite";
  const pdfPool = createPdfPool(options.pdfWorkers, { reloadWhenIdle });
  const exportWorkers = createExportWorkers({
    databaseUrl: options.databaseUrl,
    workers: options.exportWorkers,
    waiting: options.exportWorkers * 8,
    reloadWhenIdle,
  });
  const accessLog = options.accessLog ? new AccessLog() : undefined;
  const app = createApp({
    renderPdf: pdfPool.render,
    makeExport: exportWorkers.make,
    source,
    trustProxy: options.trustProxy,
    accessLog,
    loadShedder,
    isShuttingDown: () => shuttingDown,
  });
  server.on("request", app);
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
  let stopJobs = entry.startBackgroundJobs();

  let stopping: Promise<void> | undefined;
  const stop = (reason: string) =>
    (stopping ??= (async () => {
      shuttingDown = true;
      // The listener closes before the log says so: a client that reads the line and connects is refused.
      const closed = listening.close();
      server.closeIdleConnections();
      console.log(`${reason}: no new connections; finishing ${loadShedder.requestsInFlight} request(s) in progress`);
      // The job worker claims nothing more and its runs in progress (an e-mail being sent) finish
      // alongside the requests; those still running at the deadline are handed back (ADR 46).
      const jobsStopped = stopJobs(options.shutdownTimeoutSeconds * 1000);
      // Vite's hot-update sockets (development) are no requests: they would hold `closed` for ever.
      const sourceClosed = source.close();
      const deadline = setTimeout(() => {
        console.log(`Requests still in progress after ${options.shutdownTimeoutSeconds} s: closing their connections`);
        server.closeAllConnections();
      }, options.shutdownTimeoutSeconds * 1000);
      await closed;
      clearTimeout(deadline);
      loadShedder.stop();
      stopHousekeeping();
      await Promise.all([jobsStopped, ...retiredJobs]);
      entry.stopDatabaseProbe();
      await pdfPool.close();
      await exportWorkers.close();
      await sourceClosed;
      await entry.disconnectDatabase();
      // The last requests' lines are written before the process ends (a reader that no longer
      // reads gets a few seconds, then they are lost with it).
      await accessLog?.flush(5_000);
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
