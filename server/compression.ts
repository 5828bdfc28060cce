import compression from "compression";
import type { RequestHandler, Response } from "express";

/**
 * `compression` for the requests that accept an encoding. For the others it could only ever send
 * the response as it is, and it still wraps the response's `write`, `end` and `on` to decide so:
 * measured on the session check, those wrappers made each request leave ≈ 6.7 KB more
 * in the old generation (8.8 against 2.1 KB: the response and its headers outlived two
 * young-generation collections), which filled it ≈ 4 times faster and brought its full
 * collections, the stalls of the latency tables, that much more often. Scripts, `curl` and
 * monitoring that ask for no encoding no longer pay for it; the `Vary` that `compression` adds is
 * kept, so a shared cache still tells the two answers apart.
 *
 * The settings are `compression`'s own, kept by measurement (ADR 96): Brotli at quality 4 for the
 * browsers that accept it (3 costs 40–60 % less CPU for 3–7 % more bytes, and the test page with
 * its scripts grows from 178.9 to 183.4 KB, past the budget of ADR 93; 1 makes a streamed answer
 * three times larger), gzip at level 6 for the few other clients, and nothing under 1 KB.
 */
export function compressionWhenAccepted(): RequestHandler {
  const compress = compression();
  return (req, res, next) => {
    if (!req.headers["accept-encoding"]) {
      res.vary("Accept-Encoding");
      return next();
    }
    compress(req, res, (error?: unknown) => {
      oneWritePerTurn(res);
      next(error);
    });
  };
}

type Flushable = Response & { flush?: () => void };

/**
 * React Router's adapter writes a page in the pieces React renders it in (≈ 4 KB, most of them in
 * one go) and flushes the response after each, so that a streamed page's parts reach the browser
 * as they are ready; `compression` makes each piece a job of the thread pool and each flush a
 * block of the compressor's own. The reports page of 50 rows was 38 pieces and 38 flushes, and
 * compressing it cost several times what the same page in one piece costs (ADR 96).
 *
 * Here the pieces written during one turn of the event loop go to the compressor together at its
 * end, flushed once if a flush was asked: what is written in one go goes out together, and a part
 * that comes later (a deferred loader's data, an export's next rows) is flushed as soon as it is
 * written. The writer is still held back when the compressor is: once a write to it has said
 * "wait", every write says so until it drains, so a slow reader of a long export stops the export
 * instead of filling the memory.
 */
export function oneWritePerTurn(res: Response): void {
  const response = res as Flushable;
  const { write, end, flush } = response;
  if (!flush) return;
  let pieces: Buffer[] = [];
  let flushAsked = false;
  let scheduled = false;
  /** The compressor (or, for an answer it does not compress, the socket) asked to wait and has not drained since. */
  let waiting = false;
  // `compression` hands this listener to its compressor once it has one, else to the response.
  response.on("drain", () => {
    waiting = false;
  });
  const pass = () => {
    if (pieces.length === 0) return;
    const chunk = pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
    pieces = [];
    if (!(write as (chunk: Buffer) => boolean).call(res, chunk)) waiting = true;
  };
  const atTurnEnd = () => {
    scheduled = false;
    pass();
    if (flushAsked) flush.call(res);
    flushAsked = false;
  };
  response.write = ((chunk: unknown, ...rest: unknown[]) => {
    // React Router writes bytes and nothing else; anything else (a string, a callback) goes on as it came, in order.
    if (!(chunk instanceof Uint8Array) || rest.length > 0) {
      pass();
      const written = (write as (...args: unknown[]) => boolean).call(res, chunk, ...rest);
      if (!written) waiting = true;
      return written;
    }
    pieces.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    if (!scheduled) {
      scheduled = true;
      setImmediate(atTurnEnd);
    }
    return !waiting;
  }) as Response["write"];
  response.end = ((...args: unknown[]) => {
    pass();
    flushAsked = false;
    return (end as (...args: unknown[]) => Response).apply(res, args);
  }) as Response["end"];
  response.flush = () => {
    flushAsked = true;
    if (!scheduled) {
      scheduled = true;
      setImmediate(atTurnEnd);
    }
  };
}
