import { noteDatabaseFailure } from "./database-health.server.ts";
import { ApiError } from "./problem.server.ts";

/**
 * Why a request failed, when it was not a bug of ours: the database could not be reached, or the
 * client sent a body that is not what it claims to be (a multipart body cut short, a form post
 * without a form). `handleError` records it per request; the `failureStatus` middleware turns the
 * 500 React Router rendered into a 503 or a 400.
 */
export type RequestFault = "database" | "malformed";

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

/** Classifies (and remembers for the request) a failure; undefined for a real server error. */
export function classifyRequestFailure(request: Request, error: unknown): RequestFault | undefined {
  const fault = noteDatabaseFailure(error) ? "database" : isMalformedBody(error) ? "malformed" : undefined;
  if (fault) faults.set(request, fault);
  return fault;
}

export const requestFault = (request: Request): RequestFault | undefined => faults.get(request);
