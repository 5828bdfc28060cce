import { SESSION_COOKIE_NAME } from "./session.server.ts";

/**
 * What every 401 answer says in `WWW-Authenticate` (RFC 9110 §11.6.1: a 401 names at least one
 * challenge), the two ways in, one challenge each (ADR 55):
 * - `Bearer` (RFC 6750) for a personal API token; when the request sent one that was refused,
 *   with `error="invalid_token"` (RFC 6750 §3.1);
 * - `Cookie` for the session cookie: no registry names a scheme for cookies, and RFC 9110 lets
 *   any token be one; the name and its parameters `form-action` (where the credentials are posted)
 *   and `cookie-name` follow the expired draft draft-broyer-http-cookie-auth.
 * Browsers show their own sign-in prompt only for schemes they know (Basic, Digest, Negotiate), so
 * neither makes a dialog appear over a page.
 */
export const AUTH_REALM = "assessment-service";

export function authenticationChallenge(options: { invalidToken?: boolean } = {}): string {
  const bearer = `Bearer realm="${AUTH_REALM}"${options.invalidToken ? `, error="invalid_token"` : ""}`;
  const cookie = `Cookie realm="${AUTH_REALM}", form-action="/api/auth/callback/credentials", cookie-name="${SESSION_COOKIE_NAME}"`;
  return `${bearer}, ${cookie}`;
}
