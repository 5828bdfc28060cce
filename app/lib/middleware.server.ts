import type { MiddlewareFunction } from "react-router";
import { readActor } from "./auth/session.server.ts";
import { actorContext } from "./context.server.ts";
import { env } from "./env.server.ts";
import { errorResponse } from "./endpoint.server.ts";
import { ApiError, problemResponse } from "./problem.server.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * A request that changes data and carries cookies must come from our own pages: browsers tell us
 * with Sec-Fetch-Site and Origin. Scripts (curl, HTTP clients) send neither and are let through;
 * the CSRF token still guards sign-in and sign-out for them.
 */
export const crossSiteRequestGuard: MiddlewareFunction<Response> = async ({ request }, next) => {
  if (SAFE_METHODS.has(request.method) || !request.headers.has("cookie")) return next();
  const site = request.headers.get("sec-fetch-site");
  const origin = request.headers.get("origin");
  const ownOrigins = new Set([new URL(env().APP_URL).origin, new URL(request.url).origin]);
  const crossSite = (site !== null && site !== "same-origin" && site !== "none") || (origin !== null && !ownOrigins.has(origin));
  if (crossSite) {
    return problemResponse(new ApiError(403, "CROSS_SITE_REQUEST", "Requests from other sites may not change data here."));
  }
  return next();
};

/** Loads the signed-in caller (or null) once per request for loaders, actions and services. */
export const actorMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  try {
    context.set(actorContext, await readActor(request));
  } catch (error) {
    if (new URL(request.url).pathname.startsWith("/api/")) return errorResponse(error, request);
    throw error;
  }
  return next();
};

/** Headers every response carries; the full policy (CSP with nonces, HSTS) follows in hardening. */
export const securityHeaders: MiddlewareFunction<Response> = async (_args, next) => {
  const response = await next();
  response.headers.set("X-Content-Type-Options", "nosniff");
  // A route may ask for less (the public test link sends no Referer at all).
  if (!response.headers.has("Referrer-Policy")) response.headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  response.headers.set("X-Frame-Options", "DENY");
  if (!response.headers.has("Content-Security-Policy")) {
    response.headers.set("Content-Security-Policy", "frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'");
  }
  return response;
};
