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
 */
export type LoadSheddingOptions = {
  maxLagMs: number;
  maxInFlight: number;
  /** How often the event loop's lag is sampled. */
  sampleIntervalMs?: number;
};

const RETRY_AFTER_SECONDS = 2;
const PUBLIC_SUBMIT = /^\/(api\/test-link\/[^/]+\/submit|[A-Za-z-]{2,5}\/test\/[^/]+(\.data)?)$/;

export class LoadShedder {
  private inFlight = 0;
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
    this.inFlight += 1;
    res.once("close", () => (this.inFlight -= 1));
    next();
  };
}
