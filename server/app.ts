import { createRequest } from "@remix-run/node-fetch-server";
import express, { type ErrorRequestHandler, type Request, type RequestHandler } from "express";
import { createRequestHandler, RouterContextProvider, type RouterContext, type ServerBuild } from "react-router";
import { unstable_preloadRoutePattern } from "react-router/route-pattern";
import type { PdfRenderer } from "../app/features/pdf/pdf-renderer.server.ts";
import type { ExportMaker } from "../app/features/reports/report-export.server.ts";
import { clientAddress } from "../app/lib/client-address.server.ts";
import { redactPath } from "../app/lib/log-redaction.ts";
import { type PlainResponse, serviceStatusResponse } from "../app/lib/service-status.server.ts";
import { type AccessLog, accessLog, requestId } from "./access-log.ts";
import type { AppSource } from "./app-source.ts";
import { bodyLimits } from "./body-limits.ts";
import { compressionWhenAccepted } from "./compression.ts";
import { sendFetchResponse } from "./fetch-response.ts";
import type { LoadShedder } from "./load-shedding.ts";
import { sendPlain } from "./plain-response.ts";

/** What the app's server entry (app/entry.server.tsx) exports for the HTTP server. */
export type ServerEntryExports = {
  clientAddressContext: RouterContext<string>;
  pdfRendererContext: RouterContext<PdfRenderer>;
  exportMakerContext: RouterContext<ExportMaker>;
  scheduleHousekeeping: () => () => void;
  /** Starts this instance's job worker; answers its stop, which waits up to `timeoutMs` for the runs in progress, then hands them back. */
  startBackgroundJobs: () => (timeoutMs: number) => Promise<number>;
  isDatabaseAvailable: () => boolean;
  healthCheck: () => Promise<PlainResponse>;
  stopDatabaseProbe: () => void;
  disconnectDatabase: () => Promise<void>;
  DATABASE_RETRY_AFTER_SECONDS: number;
};

/** What the app's server entry exports, from its build. */
export const entryOf = (build: ServerBuild) => build.entry.module as unknown as ServerEntryExports;

export type AppOptions = {
  /** The built bundle (`npm start`) or the source through Vite (`npm run dev`): server/app-source.ts. */
  source: AppSource;
  trustProxy: boolean;
  /** Where each request's line goes (server/access-log.ts); none with `ACCESS_LOG=false`. */
  accessLog: AccessLog | undefined;
  loadShedder: LoadShedder;
  isShuttingDown: () => boolean;
  /** Renders report PDFs off the event loop (server/pdf-pool.ts). */
  renderPdf: PdfRenderer;
  /** Makes reports exports in worker threads (server/export-workers.ts). */
  makeExport: ExportMaker;
};

/**
 * The HTTP stack in front of React Router, in the order a request meets it: request id and access
 * log, compression, static files, the database-unavailable fast path, load shedding, body limits,
 * then React Router. Malformed requests of every kind end in the error handler as a 400; nothing a
 * client sends can end the process.
 */
export function createApp(options: AppOptions): express.Express {
  const { source } = options;
  const entry = entryOf(source.build);
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false); // React Router's responses are dynamic; static files get their own ETags.

  app.use(requestId);
  app.use(accessLog(options.accessLog));
  app.use(connectionCloseWhileStopping(options.isShuttingDown));
  // Load balancers and orchestrators ask this path: it is answered ahead of everything that could
  // make it wait or refuse (load shedding, the database-unavailable fast path, React Router), so
  // it says whether the database is there, never that the queue is long.
  app.get("/healthz", (_req, res, next) => {
    entry.healthCheck().then((answer) => sendPlain(res, answer), next);
  });
  app.use(compressionWhenAccepted());

  source.serveClientFiles(app);

  app.use(whileDatabaseUnavailable(entry));
  app.use(options.loadShedder.middleware);
  app.use(bodyLimits);
  app.use(dropMeaninglessNullOrigin);
  app.use(keepEmptyIdempotencyKey);
  const loadContext = (req: Request, { clientAddressContext, pdfRendererContext, exportMakerContext }: ServerEntryExports) => {
    const context = new RouterContextProvider();
    const forwardedFor = req.get("x-forwarded-for") ?? null;
    context.set(clientAddressContext, clientAddress(req.socket.remoteAddress, forwardedFor, options.trustProxy));
    context.set(pdfRendererContext, options.renderPdf);
    context.set(exportMakerContext, options.makeExport);
    return context;
  };
  const { current } = source;
  const handleRequest = createRequestHandler(
    current ? async () => withRoutePatternMatching(await current()) : withRoutePatternMatching(source.build),
    // The built app always runs in production mode, whatever NODE_ENV says: in any other mode
    // React Router sends an unexpected error's message and stack (file paths, SQL) to the browser.
    // Only `npm run dev` shows them.
    source.mode,
  );
  // The context keys are the request's own app's: in development an edit can make new ones.
  const contextOf = current ? async (req: Request) => loadContext(req, entryOf(await current())) : (req: Request) => loadContext(req, entry);
  // Remix's Node adapter makes the Fetch Request, as Express's adapter does with Express's getters
  // (ADR 99); a request it cannot make (a Host no URL can hold) is the error handler's 400, as is
  // one React Router throws on.
  app.all("/{*path}", (req, res, next) => {
    const answer = async () => sendFetchResponse(res, await handleRequest(createRequest(req, res), await contextOf(req)));
    answer().catch(next);
  });
  app.use(malformedRequest);
  return app;
}

/**
 * React Router matches a request's path against its routes with a trie of route patterns instead
 * of trying each ranked route's regular expression in turn (ADR 99): with 140 routes the regular
 * expressions cost 30 µs for the session check and 120 to 210 µs for a list or a page, the trie 13
 * to 24 µs whatever the route. The framework's configuration does not pass the flag on, so it is
 * set on the build here, for the server only: the page's handoff is the build's flags as JSON, and
 * `toJSON` keeps this one out of it, so the browser matches as before and does not download a
 * second matcher (a student's test page stays under its budget).
 */
function withRoutePatternMatching(build: ServerBuild): ServerBuild {
  unstable_preloadRoutePattern();
  let flagged = flaggedBuilds.get(build);
  if (!flagged) {
    const future = Object.defineProperty({ ...build.future, unstable_routePatternMatching: true }, "toJSON", { value: () => build.future });
    flagged = { ...build, future: future as unknown as ServerBuild["future"] };
    flaggedBuilds.set(build, flagged);
  }
  return flagged;
}

/** One flagged copy per build: React Router derives its routes again whenever the build it is given changes. */
const flaggedBuilds = new WeakMap<ServerBuild, ServerBuild>();

/** While shutting down, answers still go out but kept-alive connections are not reused. */
const connectionCloseWhileStopping =
  (isShuttingDown: () => boolean): RequestHandler =>
  (_req, res, next) => {
    if (isShuttingDown()) res.setHeader("Connection", "close");
    next();
  };

/**
 * Once a request has found the database unreachable, every request is answered 503 at once until
 * the app's probe sees it back (app/lib/database-health.server.ts), instead of each one waiting
 * for a connection timeout.
 */
const whileDatabaseUnavailable =
  (entry: ServerEntryExports): RequestHandler =>
  (req, res, next) => {
    if (entry.isDatabaseAvailable()) return next();
    sendPlain(res, serviceStatusResponse("unavailable", req.path, { retryAfterSeconds: entry.DATABASE_RETRY_AFTER_SECONDS }));
  };

/**
 * Pages served with `Referrer-Policy: no-referrer` (the public test link) make browsers send
 * `Origin: null` when their forms post back, which React Router's action guard would refuse.
 * `Sec-Fetch-Site` cannot be set by a page, so when it says the post came from our own origin the
 * meaningless `null` is dropped and the request is judged like any other same-origin post.
 */
const dropMeaninglessNullOrigin: RequestHandler = (req, _res, next) => {
  if (req.headers.origin === "null" && req.headers["sec-fetch-site"] === "same-origin") delete req.headers.origin;
  next();
};

/**
 * React Router's Express adapter leaves out headers whose value is empty, so an empty
 * `Idempotency-Key` would arrive as no key and the request be processed without one. It is handed
 * on as `""`, the empty Structured Field String, which the endpoint wrapper refuses with 400 like
 * any other key that is not 1 to 255 characters (ADR 48).
 */
const keepEmptyIdempotencyKey: RequestHandler = (req, _res, next) => {
  if (req.headers["idempotency-key"] === "") req.headers["idempotency-key"] = '""';
  next();
};

/**
 * The last stop of anything thrown before or around React Router: an address that is not valid
 * percent-encoding, a Host header no URL can be made of, a body the client stopped sending. The
 * client gets a 400 (problem details or a page); nothing here is a server fault worth a stack trace.
 */
const malformedRequest: ErrorRequestHandler = (error: unknown, req, res, _next) => {
  const status = (error as { status?: unknown; statusCode?: unknown }).status ?? (error as { statusCode?: unknown }).statusCode;
  const clientFault = error instanceof URIError || error instanceof TypeError || (typeof status === "number" && status >= 400 && status < 500);
  if (!clientFault) {
    console.error(`[${req.method} ${redactPath(req.originalUrl)}] request ${req.id ?? "-"} failed:`, error);
  }
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (typeof status === "number" && status === 413) {
    res.setHeader("Connection", "close");
    return sendPlain(res, serviceStatusResponse("tooLarge", safePath(req.path)));
  }
  sendPlain(res, serviceStatusResponse(clientFault ? "badRequest" : "serverError", safePath(req.path)));
};

/** `req.path` can itself be what failed to parse; the locale and API-ness are all that is needed. */
function safePath(pathname: string): string {
  return /^[\x21-\x7e]*$/.test(pathname) ? pathname : "/";
}
