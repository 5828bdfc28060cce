import type { RequestHandler } from "express";
import { serviceStatusResponse } from "../app/lib/service-status.server.ts";
import { sendPlain } from "./plain-response.ts";

/**
 * Load shedding: past its capacity a server that queues every request makes everyone wait (on
 * SQLite at 120–200 requests/s offered: p95 1–1.5 s, some 9 s) and still answers most of them too
 * late. Instead, when the event loop lags past `maxLagMs` or more than `maxInFlight` requests are in
 * progress, a new request is answered 503 with Retry-After at once (pages: a "busy" page in their
 * language), so the requests already admitted finish in time.
 *
 * A respondent submitting a test has typed their answers already: public-link submits are shed
 * last, only at twice both thresholds.
 *
 * A request whose body is still arriving is not in progress yet: it costs a socket, not the
 * server's time. Counted as in progress, 64 clients sending their bodies a byte a second held every
 * slot, and every other request (the health check too) answered 503 until the request timeout cut
 * them. Such a request starts to count once its body has arrived; what bounds the waiting ones is
 * the request timeout (server/main.ts) and a cap per client address on bodies still arriving
 * (past it, 429 with Retry-After to that address alone).
 */
export type LoadSheddingOptions = {
  maxLagMs: number;
  maxInFlight: number;
  /** Requests from one client address whose bodies may be arriving at once. */
  maxReceivingPerAddress: number;
  /** The client address a request is counted against (server/app.ts: the rate limits' address). */
  addressOf: (req: Parameters<RequestHandler>[0]) => string;
  /** How often the event loop's lag is sampled. */
  sampleIntervalMs?: number;
};

const RETRY_AFTER_SECONDS = 2;
const PUBLIC_SUBMIT = /^\/(api\/test-link\/[^/]+\/submit|[A-Za-z-]{2,5}\/test\/[^/]+(\.data)?)$/;

export class LoadShedder {
  private inFlight = 0;
  /** Admitted requests whose bodies are still arriving, by client address. */
  private readonly receiving = new Map<string, number>();
  private lagMs = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Requests shed since shedding began, or 0 while every request is admitted (for the log). */
  private shed = 0;
  private readonly sampleIntervalMs: number;

  constructor(private readonly options: LoadSheddingOptions) {
    this.sampleIntervalMs = options.sampleIntervalMs ?? 100;
  }

  /** Measures the lag as how late a timer fires: the time the loop was busy with something else. */
  start(): void {
    const sample = (expected: number) => {
      const now = performance.now();
      const lag = Math.max(0, now - expected);
      // The newest sample counts most, but one slow request does not shed the next ones alone.
      this.lagMs = Math.max(lag, this.lagMs * 0.5);
      this.timer = setTimeout(() => sample(now + this.sampleIntervalMs), this.sampleIntervalMs);
      this.timer.unref();
    };
    sample(performance.now());
  }

  stop(): void {
    clearTimeout(this.timer);
  }

  get requestsInFlight(): number {
    return this.inFlight;
  }

  readonly middleware: RequestHandler = (req, res, next) => {
    const factor = req.method === "POST" && PUBLIC_SUBMIT.test(req.path) ? 2 : 1;
    if (this.lagMs > this.options.maxLagMs * factor || this.inFlight >= this.options.maxInFlight * factor) {
      // One line when shedding begins and one when it ends: an operator sees why, not every request.
      if (this.shed++ === 0) {
        console.warn(`[load] shedding requests: event-loop lag ${Math.round(this.lagMs)} ms, ${this.inFlight} in progress`);
      }
      return sendPlain(res, serviceStatusResponse("busy", req.path, { retryAfterSeconds: RETRY_AFTER_SECONDS }));
    }
    if (this.shed > 0) {
      console.warn(`[load] admitting requests again after shedding ${this.shed}`);
      this.shed = 0;
    }
    if (hasBodyToCome(req)) {
      const address = this.options.addressOf(req);
      const waiting = this.receiving.get(address) ?? 0;
      if (waiting >= this.options.maxReceivingPerAddress) {
        res.setHeader("Connection", "close");
        return sendPlain(res, serviceStatusResponse("tooManyUploads", req.path, { retryAfterSeconds: RETRY_AFTER_SECONDS }));
      }
      this.receiving.set(address, waiting + 1);
      let state: "receiving" | "inFlight" | "done" = "receiving";
      const stopReceiving = () => {
        const left = (this.receiving.get(address) ?? 1) - 1;
        if (left === 0) this.receiving.delete(address);
        else this.receiving.set(address, left);
      };
      whenBodyArrived(req, () => {
        if (state !== "receiving") return;
        stopReceiving();
        state = "inFlight";
        this.inFlight += 1;
      });
      res.once("close", () => {
        if (state === "receiving") stopReceiving();
        else if (state === "inFlight") this.inFlight -= 1;
        state = "done";
      });
    } else {
      this.inFlight += 1;
      res.once("close", () => (this.inFlight -= 1));
    }
    next();
  };
}

/**
 * Whether the request's body has yet to be read: a method that carries one, a declared length or a
 * chunked body, and not all of it parsed yet. (Listening for "end" does not start the stream.)
 */
function hasBodyToCome(req: Parameters<RequestHandler>[0]): boolean {
  if (req.complete) return false;
  if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return false;
  const length = req.headers["content-length"];
  return length !== undefined ? length !== "0" : req.headers["transfer-encoding"] !== undefined;
}

/**
 * Calls `arrived` once the request's whole body has been received, whether or not anyone has read
 * it yet. Node has no event for it ("end" waits for the reader, which may first read the session
 * from the database): its HTTP parser ends the body stream with `push(null)` the moment the last
 * byte is parsed, so that call is watched on this one request.
 */
function whenBodyArrived(req: Parameters<RequestHandler>[0], arrived: () => void): void {
  const push = req.push.bind(req);
  req.push = (chunk: unknown, encoding?: BufferEncoding) => {
    if (chunk === null) arrived();
    return push(chunk, encoding);
  };
}
