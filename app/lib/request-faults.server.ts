import { anyInCauseChain, DATABASE_RETRY_AFTER_SECONDS, noteDatabaseFailure } from "./database-health.server.ts";
import { redactPath } from "./log-redaction.ts";
import { ApiError } from "./problem.server.ts";
import { serviceStatusFetchResponse } from "./service-status.server.ts";

/**
 * Why a request failed, when it was not a bug of ours: the database could not be reached, the
 * server was too busy to run a transaction in time, or the client sent a body that is not what it
 * claims to be (a multipart body cut short, a form post without a form), or went away while
 * sending it. `handleError` records it
 * per request; the `failureStatus` middleware turns the 500 React Router rendered into a 503 or a
 * 400.
 */
export type RequestFault = "database" | "busy" | "malformed" | "aborted";

const faults = new WeakMap<Request, RequestFault>();

/** Errors the Fetch API's body parsers throw for a body that does not parse. */
const MALFORMED_BODY =
  /Failed to parse body as FormData|Content-Type was not one of|Unexpected end of (multipart|form) data|malformed part header|missing boundary/i;

function isMalformedBody(error: unknown): boolean {
  if (error instanceof URIError) return true;
  // A page's form whose field names do not parse (http.server.ts formPayload).
  if (error instanceof ApiError) return error.status === 400 && error.code === "MALFORMED_BODY";
  return error instanceof TypeError && MALFORMED_BODY.test(`${error.message} ${(error.cause as Error | undefined)?.message ?? ""}`);
}

/**
 * Prisma's P2028: an interactive transaction could not get a connection (or SQLite's turn) within
 * its `maxWait`, or ran past its `timeout`. Nothing was written, and the database is there: the
 * server is overloaded, so the client is asked to try again rather than told of a bug. Seen on a
 * machine starved of CPU, where creating a form waited over 2 s for a PostgreSQL connection.
 */
export const isTransactionTimeout = (error: unknown): boolean => anyInCauseChain(error, (candidate) => candidate.code === "P2028");

/** Socket errors of the client's connection: it reset or closed it while its body was being read. */
const CLIENT_GONE_CODES = new Set(["ECONNRESET", "EPIPE", "ECONNABORTED", "ERR_STREAM_PREMATURE_CLOSE"]);

/**
 * The client went away before the request was read: its connection closed or reset mid-body (a
 * phone losing its signal while it posts its answers). Nobody is left to read the answer, and it
 * is no fault of the server's or the database's.
 */
const isClientGone = (request: Request, error: unknown): boolean =>
  request.signal.aborted ||
  anyInCauseChain(error, (candidate) => (typeof candidate.code === "string" && CLIENT_GONE_CODES.has(candidate.code)) || candidate.message === "aborted");

/** Classifies (and remembers for the request) a failure; undefined for a real server error. */
export function classifyRequestFailure(request: Request, error: unknown): RequestFault | undefined {
  const fault = noteDatabaseFailure(error)
    ? "database"
    : isTransactionTimeout(error)
      ? "busy"
      : isMalformedBody(error)
        ? "malformed"
        : isClientGone(request, error)
          ? "aborted"
          : undefined;
  if (fault === "busy")
    console.warn(`[${request.method} ${redactPath(new URL(request.url).pathname)}] a transaction could not run in time (P2028): answered 503`);
  if (fault) faults.set(request, fault);
  return fault;
}

export const requestFault = (request: Request): RequestFault | undefined => faults.get(request);

/** Seconds a client is asked to wait (Retry-After) when a transaction could not run in time. */
const BUSY_RETRY_AFTER_SECONDS = 2;

/** The answer for a classified failure: 503 with Retry-After, or 400 (for a client gone, a 400 nobody reads). */
export const faultResponse = (fault: RequestFault, pathname: string): Response =>
  fault === "database"
    ? serviceStatusFetchResponse("unavailable", pathname, { retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS })
    : fault === "busy"
      ? serviceStatusFetchResponse("busy", pathname, { retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS })
      : serviceStatusFetchResponse("badRequest", pathname);
