import { randomBytes, timingSafeEqual } from "node:crypto";
import { createCookie } from "react-router";
import { env } from "../env.server.ts";
import { ApiError } from "../problem.server.ts";
import { readSignedCookie } from "./signed-cookie.server.ts";

/**
 * Double-submit CSRF tokens: the token travels in a signed, HttpOnly cookie and, separately, in
 * the request body. An attacker's page can make the browser send the cookie but cannot read it to
 * put the same token in the body.
 */
export const CSRF_COOKIE_NAME = "remix-auth.csrf-token";

let csrfCookie: ReturnType<typeof createCookie> | undefined;
function cookie() {
  csrfCookie ??= createCookie(CSRF_COOKIE_NAME, {
    httpOnly: true,
    secure: true,
    sameSite: "lax",
    path: "/",
    secrets: [env().SESSION_SECRET],
  });
  return csrfCookie;
}

async function tokenFromCookie(request: Request): Promise<string | null> {
  const value = readSignedCookie(request.headers.get("cookie"), CSRF_COOKIE_NAME, [env().SESSION_SECRET]);
  return typeof value === "string" && value.length > 0 ? value : null;
}

/** The caller's CSRF token, reusing the one its cookie already holds so open tabs keep working. */
export async function issueCsrfToken(request: Request): Promise<{ token: string; setCookie: string | null }> {
  const existing = await tokenFromCookie(request);
  if (existing) return { token: existing, setCookie: null };
  const token = randomBytes(32).toString("base64url");
  return { token, setCookie: await cookie().serialize(token) };
}

/** The field a form or a posted body carries the token in (app/components/csrf-input.tsx, NextAuth's client). */
export const CSRF_FIELD = "csrfToken";

/**
 * The token a posted form or body carries in its `csrfToken` field, checked against the cookie: the
 * one reading of that field, for the page posts (`pagePost` in app/lib/page.server.ts) and the
 * sign-in endpoints that guard themselves. 403 CSRF_FAILED when it is missing or does not match.
 */
export async function verifyCsrfField(request: Request, fields: FormData | Readonly<Record<string, unknown>>): Promise<void> {
  const value = fields instanceof FormData ? fields.get(CSRF_FIELD) : fields[CSRF_FIELD];
  await verifyCsrfToken(request, typeof value === "string" ? value : null);
}

/** The token of a header (X-CSRF-Token, scripts) or of a field read by `verifyCsrfField`. */
export async function verifyCsrfToken(request: Request, submitted: string | undefined | null): Promise<void> {
  const expected = await tokenFromCookie(request);
  const valid =
    expected !== null &&
    typeof submitted === "string" &&
    submitted.length === expected.length &&
    timingSafeEqual(Buffer.from(submitted), Buffer.from(expected));
  if (!valid) {
    throw new ApiError(403, "CSRF_FAILED", "The CSRF token is missing or does not match. Get one from /api/auth/csrf.");
  }
}
