/**
 * What may be written to a log. Logs are read by operators and kept by log collectors, so they
 * never hold a public-link token (it opens a child's test), a session id, a reset or invitation
 * link, a second-factor code or anyone's answers. Paths are logged without their query string
 * (searches carry people's names; links carry tokens) and with secret path segments replaced.
 */

/** Route segments that are secrets: the public test link (`/en/test/<token>`, `/api/test-link/<token>`). */
const SECRET_SEGMENT = /(\/(?:test|test-link)\/)[^/?#]+/g;

/** Anything that looks like a random secret: 32 or more URL-safe characters in a row. */
const SECRET_LOOKING = /[A-Za-z0-9_-]{32,}={0,2}/g;

/** Query parameters and cookies whose values are secrets wherever they appear. */
const SECRET_PARAMETER = /\b(token|code|state|csrfToken|password|remix-auth\.[\w.-]+|__session)=([^&\s;"']+)/gi;

export const REDACTED = "[redacted]";

/** The path of a request as it may be logged: no query, no fragment, no secret segment. */
export function redactPath(url: string): string {
  const end = url.search(/[?#]/);
  const pathname = end === -1 ? url : url.slice(0, end);
  const suffix = end === -1 ? "" : "?…";
  return redactSecrets(pathname.replace(SECRET_SEGMENT, `$1${REDACTED}`)) + suffix;
}

/** A log message with anything secret-looking replaced. */
export function redactSecrets(text: string): string {
  return text.replace(SECRET_SEGMENT, `$1${REDACTED}`).replace(SECRET_PARAMETER, `$1=${REDACTED}`).replace(SECRET_LOOKING, REDACTED);
}
