import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestHandler } from "express";
import morgan from "morgan";
import { redactPath } from "../app/lib/log-redaction.ts";

/**
 * One line per request, written when the response is finished:
 *
 *   2026-11-23T10:00:00.000Z request id=9f1c… method=GET path=/en/test/[redacted] status=200 ms=12.4 bytes=5120
 *
 * The path is logged without its query string (searches carry people's names) and with the
 * public-link token replaced; cookies, headers and bodies are never logged. The request id is
 * also sent back as `X-Request-Id`, so a user's report of a failure can be found in the log.
 */
const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

declare module "node:http" {
  interface IncomingMessage {
    id?: string;
  }
}

/** Takes the proxy's request id when it sent a sensible one, otherwise makes one. */
export const requestId: RequestHandler = (req, res, next) => {
  const incoming = req.get("x-request-id");
  req.id = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader("X-Request-Id", req.id);
  // The app reads it from the request's headers, for the audit events the request writes.
  req.headers["x-request-id"] = req.id;
  next();
};

morgan.token("id", (req: IncomingMessage) => req.id ?? "-");
morgan.token("safe-path", (req: IncomingMessage & { originalUrl?: string }) => redactPath(req.originalUrl ?? req.url ?? "/"));

const format: morgan.FormatFn<IncomingMessage, ServerResponse> = (tokens, req, res) =>
  [
    tokens["date"]!(req, res, "iso"),
    "request",
    `id=${tokens["id"]!(req, res)}`,
    `method=${tokens["method"]!(req, res)}`,
    `path=${tokens["safe-path"]!(req, res)}`,
    `status=${tokens["status"]!(req, res) ?? "-"}`,
    `ms=${tokens["response-time"]!(req, res) ?? "-"}`,
    `bytes=${tokens["res"]!(req, res, "content-length") ?? "-"}`,
  ].join(" ");

export function accessLog(options: { enabled: boolean }): RequestHandler {
  if (!options.enabled) return (_req, _res, next) => next();
  return morgan(format) as RequestHandler;
}
