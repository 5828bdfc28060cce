import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestHandler } from "express";
import onHeaders from "on-headers";
import SonicBoom from "sonic-boom";
import { redactPath } from "../app/lib/log-redaction.ts";

/**
 * One line per request, written when the response is finished:
 *
 *   2026-11-23T10:00:00.000Z request id=9f1c… method=GET path=/en/test/[redacted] status=200 ms=12.4 bytes=5120
 *
 * The path is logged without its query string (searches carry people's names) and with the
 * public-link token replaced; cookies, headers and bodies are never logged. The request id is
 * also sent back as `X-Request-Id`, so a user's report of a failure can be found in the log.
 * `ms` is the time until the response's headers were sent (a streamed page goes on after it);
 * `status`, `ms` and `bytes` are `-` for a request whose client went away before its headers.
 *
 * The lines are written off the request path (ADR 96): a request hands its line to a buffer and
 * goes on; the thread pool writes the buffer to standard output once it holds 4 KB, and at least
 * every quarter of a second.
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

/**
 * What a log reader that stops reading (a collector restarting, a full pipe) can make the process
 * hold: about 30,000 lines. Past it, lines are dropped and counted, and the count is written as a
 * line of its own once the reader is back; the requests never wait for it.
 */
const HELD_BYTES = 4 * 2 ** 20;

/** The access log's destination: standard output, written asynchronously. */
export class AccessLog {
  #out: SonicBoom | undefined;
  #dropped = 0;
  /** Whether the buffer had room after the last line, so a notice of dropped lines can follow. */
  #room = true;

  constructor(fd = 1) {
    const out = new SonicBoom({ fd, sync: false, minLength: 4096, periodicFlush: 250, maxLength: HELD_BYTES });
    out.on("drop", () => {
      this.#dropped += 1;
    });
    // A reader that went away for good (a closed pipe: EPIPE) or a descriptor that failed: the log
    // stops, the service does not. An 'error' event without a listener would end the process.
    out.on("error", (error: NodeJS.ErrnoException) => {
      if (this.#out !== out) return;
      this.#out = undefined;
      out.destroy();
      process.stderr.write(`The access log stopped: its output failed (${error.code ?? error.message}).\n`);
    });
    this.#out = out;
  }

  write(line: string): void {
    const out = this.#out;
    if (!out) return;
    if (this.#dropped > 0 && this.#room) {
      out.write(`${new Date().toISOString()} access-log dropped=${this.#dropped}\n`);
      this.#dropped = 0;
    }
    this.#room = out.write(`${line}\n`);
  }

  /**
   * Writes out what is still held, for a stop: resolves once it is written, when the output has
   * failed, or after `timeoutMs` (a reader that no longer reads must not hold the stop).
   */
  flush(timeoutMs: number): Promise<void> {
    const out = this.#out;
    if (!out) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      timer.unref();
      out.flush(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

/** The access log's middleware: without a destination (`ACCESS_LOG=false`), it does nothing. */
export function accessLog(log: AccessLog | undefined): RequestHandler {
  if (!log) return (_req, _res, next) => next();
  return (req, res, next) => {
    const startedAt = performance.now();
    let headersAt: number | undefined;
    onHeaders(res, () => {
      headersAt = performance.now();
    });
    // 'close' comes once the response is finished or its connection ended before that.
    res.once("close", () => log.write(lineOf(req, res, headersAt === undefined ? undefined : headersAt - startedAt)));
    next();
  };
}

function lineOf(req: IncomingMessage & { originalUrl?: string }, res: ServerResponse, ms: number | undefined): string {
  const sent = res.headersSent;
  const length = sent ? res.getHeader("content-length") : undefined;
  return [
    new Date().toISOString(),
    "request",
    `id=${req.id ?? "-"}`,
    `method=${req.method}`,
    `path=${redactPath(req.originalUrl ?? req.url ?? "/")}`,
    `status=${sent ? res.statusCode : "-"}`,
    `ms=${sent && ms !== undefined ? ms.toFixed(3) : "-"}`,
    `bytes=${length === undefined ? "-" : Array.isArray(length) ? length.join(", ") : length}`,
  ].join(" ");
}
