import { randomBytes } from "node:crypto";
import { PassThrough } from "node:stream";

import type { EntryContext, RouterContextProvider } from "react-router";
import { createReadableStreamFromReadable } from "@react-router/node";
import { ServerRouter } from "react-router";
import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import { env } from "./lib/env.server.ts";
import { NonceContext } from "./lib/nonce.ts";
import { classifyRequestFailure } from "./lib/request-faults.server.ts";
import { redactPath } from "./lib/log-redaction.ts";

/**
 * The page's policy: scripts only from us or with this response's nonce (React Router's inline
 * hydration scripts carry it), no plugins, no framing, forms only to us (and to the OpenID
 * provider when one is configured).
 */
function contentSecurityPolicy(nonce: string): string {
  const issuer = env().OIDC_ISSUER;
  const formTargets = ["'self'", ...(issuer ? [new URL(issuer).origin] : [])].join(" ");
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    // Under `npm run dev` Vite adds the stylesheets as <style> elements with the page's nonce
    // (app/root.tsx); the build links them as files.
    import.meta.env.DEV ? `style-src 'self' 'nonce-${nonce}'` : "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    `form-action ${formTargets}`,
    "frame-ancestors 'none'",
  ].join("; ");
}

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const nonce = randomBytes(16).toString("base64");
  responseHeaders.set("Content-Security-Policy", contentSecurityPolicy(nonce));

  // https://httpwg.org/specs/rfc9110.html#HEAD: the headers GET would send, without rendering the page.
  if (request.method.toUpperCase() === "HEAD") {
    responseHeaders.set("Content-Type", "text/html; charset=utf-8");
    return new Response(null, {
      status: responseStatusCode,
      headers: responseHeaders,
    });
  }

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");

    // Ensure requests from bots and SPA Mode renders wait for all content to load before responding
    // https://react.dev/reference/react-dom/server/renderToPipeableStream#waiting-for-all-content-to-load-for-crawlers-and-static-generation
    const readyOption: keyof RenderToPipeableStreamOptions = (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";

    // Abort the rendering stream after the `streamTimeout` so it has time to
    // flush down the rejected boundaries
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceContext.Provider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough({
            final(callback) {
              // Clear the timeout to prevent retaining the closure and memory leak
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          const stream = createReadableStreamFromReadable(body);

          responseHeaders.set("Content-Type", "text/html; charset=utf-8");

          pipe(body);

          resolve(
            new Response(stream, {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Log streaming rendering errors from inside the shell.  Don't log
          // errors encountered during initial shell rendering since they'll
          // reject and get logged in handleDocumentRequest.
          if (shellRendered) {
            console.error(error);
          }
        },
      },
    );
  });
}

/**
 * The HTTP server (scripts/server.ts) fills this context for every request; it is exported here so
 * the server uses the very same context key as the bundled app.
 */
export { clientAddressContext } from "./lib/context.server.ts";
export { pdfRendererContext } from "./features/pdf/pdf-renderer.server.ts";
export { exportMakerContext } from "./features/reports/report-export.server.ts";
export { scheduleHousekeeping } from "./lib/auth/housekeeping.server.ts";
export { startBackgroundJobs } from "./features/jobs/job-handlers.server.ts";
export { healthCheck, isDatabaseAvailable, stopDatabaseProbe } from "./lib/database-health.server.ts";
export { DATABASE_RETRY_AFTER_SECONDS } from "./lib/database-health.server.ts";
export { disconnectDatabase } from "./lib/db.server.ts";

/**
 * Errors React Router catches are logged once here; thrown Responses are expected outcomes, and a
 * failure that is not a bug (an unreachable database, a malformed body) is classified instead, so
 * the request answers 503 or 400 (app/lib/request-faults.server.ts).
 */
export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted || error instanceof Response) return;
  if (classifyRequestFailure(request, error)) return;
  console.error(`[${request.method} ${redactPath(new URL(request.url).pathname)}]`, error);
}
