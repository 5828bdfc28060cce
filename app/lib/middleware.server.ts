import type { MiddlewareFunction } from "react-router";
import { authenticationChallenge } from "./auth/challenge.server.ts";
import { verifyCsrfToken } from "./auth/csrf.server.ts";
import { readActor } from "./auth/session.server.ts";
import { actorContext, clientAddressContext } from "./context.server.ts";
import { requestOrigin } from "./request-origin.server.ts";
import { env } from "./env.server.ts";
import { errorResponse } from "./endpoint.server.ts";
import { SAFE_METHODS } from "./http.server.ts";
import { ApiError, problemResponse } from "./problem.server.ts";
import { isDatabaseAvailable } from "./database-health.server.ts";
import { pageError } from "./page.server.ts";
import { classifyRequestFailure, faultResponse, requestFault } from "./request-faults.server.ts";

/** Header that carries the CSRF token for scripts (the value of GET /api/auth/csrf). */
export const CSRF_HEADER = "x-csrf-token";

/**
 * Paths that check a CSRF token in their own body (sign-in and sign-out, which browsers post as
 * plain forms) or never use the session (the public test links).
 */
const GUARDS_ITSELF = [/^\/api\/auth\/callback\/credentials$/, /^\/api\/auth\/signout$/, /^\/api\/auth\/signin\/oidc$/, /^\/api\/test-link\//];

const crossSite = () => problemResponse(new ApiError(403, "CROSS_SITE_REQUEST", "Requests from other sites may not change data here."));

/**
 * A request that changes data with a session cookie must provably come from our own pages, or
 * carry the CSRF token. Browsers say where a request comes from in Sec-Fetch-Site (which a page
 * cannot forge), older ones in Origin; scripts send neither and must send the token in the
 * X-CSRF-Token header (double submit: it has to match the signed CSRF cookie).
 */
export const crossSiteRequestGuard: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  // A bearer token is sent by a program, never by a browser on its own: nothing to forge.
  const actor = context.get(actorContext);
  if (SAFE_METHODS.has(request.method) || !actor || actor.via === "token") return next();
  const site = request.headers.get("sec-fetch-site");
  if (site === "same-origin" || site === "none") return next();
  if (site !== null) return crossSite();
  const origin = request.headers.get("origin");
  if (origin !== null) {
    const ownOrigins = new Set([new URL(env().APP_URL).origin, new URL(request.url).origin]);
    return ownOrigins.has(origin) ? next() : crossSite();
  }
  if (GUARDS_ITSELF.some((pattern) => pattern.test(new URL(request.url).pathname))) return next();
  try {
    await verifyCsrfToken(request, request.headers.get(CSRF_HEADER));
  } catch (error) {
    return errorResponse(error, request);
  }
  return next();
};

/**
 * Loads the signed-in caller (or null) once per request for loaders, actions and services. A
 * read-only API token's write is refused there (ADR 54): problem details on the API, the friendly
 * 403 page on a page.
 */
export const actorMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  try {
    const actor = await readActor(request);
    context.set(actorContext, actor && { ...actor, origin: requestOrigin(request, context.get(clientAddressContext)) });
  } catch (error) {
    if (!new URL(request.url).pathname.startsWith("/api/")) {
      if (error instanceof ApiError && error.status === 403) throw pageError(403);
      throw error;
    }
    const response = errorResponse(error, request);
    // The API token the request sent was refused (RFC 6750 §3.1).
    if (response.status === 401) response.headers.set("WWW-Authenticate", authenticationChallenge({ invalidToken: true }));
    return response;
  }
  return next();
};

/**
 * Every 401, of the API or of a page, names the ways in (RFC 9110 §15.5.2: a 401 carries
 * `WWW-Authenticate`): challenge.server.ts.
 */
export const askForCredentials: MiddlewareFunction<Response> = async (_args, next) => {
  const response = await next();
  if (response.status === 401 && !response.headers.has("WWW-Authenticate")) response.headers.set("WWW-Authenticate", authenticationChallenge());
  return response;
};

/**
 * Whatever is answered to a signed-in caller may hold people's data (a child's report, a name in a
 * list), so no cache keeps it: after signing out, the browser's Back button must not show it again
 * from its cache, and a shared computer's next user cannot find it there. A route that knows
 * better (a file whose URL changes with its content) sets its own Cache-Control.
 */
export const noStoreWhenSignedIn: MiddlewareFunction<Response> = async ({ context }, next) => {
  const response = await next();
  if (context.get(actorContext) && !response.headers.has("Cache-Control")) response.headers.set("Cache-Control", "no-store");
  return response;
};

/**
 * Headers every response carries. Documents get their Content-Security-Policy (with the script
 * nonce) from app/entry.server.tsx; everything else (JSON, files) gets one that allows nothing.
 */
export const securityHeaders: MiddlewareFunction<Response> = async (_args, next) => {
  const response = await next();
  const headers = response.headers;
  headers.set("X-Content-Type-Options", "nosniff");
  // A route may ask for less (the public test link sends no Referer at all).
  if (!headers.has("Referrer-Policy")) headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  headers.set("X-Frame-Options", "DENY");
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  headers.set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()");
  if (!headers.has("Content-Security-Policy")) {
    headers.set("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
  }
  if (env().APP_URL.startsWith("https://")) {
    headers.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  }
  return response;
};

/**
 * Failures that are not the server's fault get their true status instead of a 500: a database that
 * is unreachable, or a transaction that could not run in time on an overloaded server, answers 503
 * with Retry-After (the client may simply try again), and a body that
 * cannot be parsed as the form it claims to be answers 400. Failures inside loaders and actions are
 * classified by `handleError` (app/entry.server.tsx) and arrive here as a 500 page or problem;
 * failures in the middleware below (reading the session) arrive as thrown errors.
 */
export const failureStatus: MiddlewareFunction<Response> = async ({ request }, next) => {
  const pathname = new URL(request.url).pathname;
  let response: Response;
  try {
    response = await next();
  } catch (error) {
    const fault = classifyRequestFailure(request, error);
    if (fault) return faultResponse(fault, pathname);
    throw error;
  }
  if (response.status < 500) return response;
  const fault = request.signal.aborted ? undefined : requestFault(request);
  if (fault) return faultResponse(fault, pathname);
  return isDatabaseAvailable() ? response : faultResponse("database", pathname);
};
