import type { RequestOrigin } from "./auth/actor.server.ts";

/**
 * The request's origin as an audit event records it: the client's address (server.ts puts the
 * TCP peer, or the trusted proxy's client, in the route context) and the request id the HTTP server
 * gave it (server/access-log.ts), which the access log and `X-Request-Id` carry too.
 */
export function requestOrigin(request: Request, clientAddress: string): RequestOrigin {
  return { ip: clientAddress === "unknown" ? null : clientAddress, requestId: request.headers.get("x-request-id") };
}
