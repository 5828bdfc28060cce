import type { Server } from "node:http";
import type { Socket } from "node:net";
import type { RequestHandler } from "express";
import { serviceStatusResponse } from "../app/lib/service-status.server.ts";
import { sendPlain } from "./plain-response.ts";

/**
 * Load shedding: past its capacity a server that queues every request makes everyone wait, and
 * still answers most of them too late. Instead a request that has waited too long is answered 503
 * with Retry-After (pages: a "busy" page in their language), so the requests that are served
 * finish in time and the server keeps serving at its capacity (ADR 48).
 *
 * The queue is kept here, where it can be seen. Left to itself, Node reads every socket that is
 * ready in one turn of its event loop and, with SQLite, serves each request to its end before
 * reading the next, while it accepts one new connection per turn (libuv has accepted one at a time
 * since 2022). At three times the sustainable rate a turn held hundreds of requests, new
 * connections waited in the kernel's listen backlog until it overflowed (clients retrying after 1,
 * 3, 7 s), and nothing in the process saw a queue: the requests in progress were none between
 * turns, the event loop's lag small. So requests are not served where they are read:
 *
 * - A request read from a socket joins a queue, in arrival order. (The health check never does:
 *   server/app.ts answers it before this middleware.)
 * - The queue is served right after the sockets are read, in the same turn, until the turn has
 *   spent `turnBudgetMs` serving; what is left waits for the next turn, after the loop has
 *   accepted a connection and read the sockets again. Turns stay short however long the queue.
 * - A request that has waited longer than `maxWaitMs` (from the turn that read it, plus the loop's
 *   delay before that turn) is answered 503 when its time comes, and while the oldest request in
 *   the queue has waited that long a new one is answered 503 at once: it would wait longer still.
 * - A queue that has not once been empty for `maxWaitMs` is standing, not a burst: while it stands
 *   a request may wait `standingWaitMs` only (CoDel, as in "Fail at Scale", ACM Queue 2015). After
 *   60 s at three times the sustainable rate, a queue kept at the full wait never drained at half
 *   that rate: every request waited about a second, the objects of waiting requests outlived the
 *   young generation, and the collector's work held the rate served below the rate arriving.
 *
 * `maxInFlight` bounds the requests in progress (with PostgreSQL they wait for the database
 * between turns); past it the queue waits for one to finish. A respondent submitting a test has
 * typed their answers already: public-link submits are shed last, at twice both limits.
 *
 * A fresh instance compiles as it serves its first requests (one request can take a second): during
 * `warmUpMs` after start a request is shed only for waiting on `maxInFlight`, not on the loop, so
 * the first requests a load balancer sends are served.
 *
 * A request whose body is still arriving is not in progress yet: it costs a socket, not the
 * server's time. Counted as in progress, 64 clients sending their bodies a byte a second held every
 * slot, and every other request (the health check too) answered 503 until the request timeout cut
 * them. Such a request starts to count once its body has arrived; what bounds the waiting ones is
 * the request timeout (server/main.ts) and a cap per client address on bodies still arriving
 * (past it, 429 with Retry-After to that address alone).
 */
export type LoadSheddingOptions = {
  /** The longest a request may wait to be served; past it, 503. */
  maxWaitMs: number;
  /** The longest a request may wait while the queue stands (has not been empty for `maxWaitMs`). */
  standingWaitMs?: number;
  maxInFlight: number;
  /**
   * Connections open at once. The requests of a connection past it are answered 503 and the
   * connection closed: each open connection holds memory and a file descriptor, and a client that
   * opens thousands of them (or a crowd whose answers are late) must not exhaust either.
   */
  maxConnections: number;
  /** Requests from one client address whose bodies may be arriving at once. */
  maxReceivingPerAddress: number;
  /** The client address a request is counted against (server/app.ts: the rate limits' address). */
  addressOf: (req: Parameters<RequestHandler>[0]) => string;
  /** Time a turn of the event loop spends starting queued requests before it reads the sockets again. */
  turnBudgetMs?: number;
  /** How often the event loop's lag is sampled. */
  sampleIntervalMs?: number;
  /** After start, how long waits for the loop are not held against requests (see above). */
  warmUpMs?: number;
  /** The clock waits are measured with (tests move their own). */
  now?: () => number;
};

type Request = Parameters<RequestHandler>[0];
type Response = Parameters<RequestHandler>[1];
type Waiting = { req: Request; res: Response; next: () => void; since: number };

const RETRY_AFTER_SECONDS = 2;
const PUBLIC_SUBMIT = /^\/(api\/test-link\/[^/]+\/submit|[A-Za-z-]{2,5}\/test\/[^/]+(\.data)?)$/;

/** Requests waiting to be served, oldest first; `factor` scales the limits they are held to. */
class WaitingLine {
  private readonly items: Waiting[] = [];
  private head = 0;

  constructor(readonly factor: number) {}

  get length(): number {
    return this.items.length - this.head;
  }

  get oldest(): Waiting | undefined {
    return this.items[this.head];
  }

  push(waiting: Waiting): void {
    this.items.push(waiting);
  }

  take(): Waiting {
    const waiting = this.items[this.head]!;
    this.items[this.head] = undefined as unknown as Waiting;
    this.head += 1;
    // Compact now and then, not on every request.
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items.splice(0, this.head);
      this.head = 0;
    }
    return waiting;
  }
}

export class LoadShedder {
  private inFlight = 0;
  /** Admitted requests whose bodies are still arriving, by client address. */
  private readonly receiving = new Map<string, number>();
  private lagMs = 0;
  /** Public-link submits, served first and shed last, and every other request. */
  private readonly submits = new WaitingLine(2);
  private readonly others = new WaitingLine(1);
  /** When this turn's serving began; undefined until the turn's first request is served. */
  private servingSince: number | undefined;
  /** This turn's budget is spent: the calls to `serveOne` left move to the next turn. */
  private deferring = false;
  /** Wakes the lines when all the requests allowed are in progress, to shed those that wait too long. */
  private staleTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly warmUntil: number;
  /** When the lines were last seen empty: since then, the queue has stood. */
  private lastEmptyAt: number;
  private readonly standingWaitMs: number;
  private readonly now: () => number;
  private connections = 0;
  /** Connections opened past `maxConnections`: their requests are shed and they are closed. */
  private readonly overCapacity = new WeakSet<Socket>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Requests shed since shedding began, or 0 while every request is admitted (for the log). */
  private shed = 0;
  private readonly sampleIntervalMs: number;
  private readonly turnBudgetMs: number;

  constructor(private readonly options: LoadSheddingOptions) {
    this.sampleIntervalMs = options.sampleIntervalMs ?? 50;
    this.turnBudgetMs = options.turnBudgetMs ?? 2;
    this.now = options.now ?? (() => performance.now());
    this.warmUntil = this.now() + (options.warmUpMs ?? 5000);
    this.lastEmptyAt = this.now();
    this.standingWaitMs = Math.min(options.standingWaitMs ?? 100, options.maxWaitMs);
  }

  /** Measures the lag as how late a timer fires: the time the loop was busy with something else. */
  start(): void {
    const sample = (expected: number) => {
      const now = this.now();
      const lag = Math.max(0, now - expected);
      // The newest sample counts most; an older one fades within a few samples.
      this.lagMs = Math.max(lag, this.lagMs * 0.5);
      this.timer = setTimeout(() => sample(now + this.sampleIntervalMs), this.sampleIntervalMs);
      this.timer.unref();
    };
    sample(this.now());
  }

  stop(): void {
    clearTimeout(this.timer);
    clearTimeout(this.staleTimer);
  }

  /** Counts the server's open connections (see `maxConnections`). */
  watchConnections(server: Server): void {
    server.on("connection", (socket: Socket) => {
      this.connections += 1;
      if (this.connections > this.options.maxConnections) this.overCapacity.add(socket);
      socket.once("close", () => (this.connections -= 1));
    });
  }

  get requestsInFlight(): number {
    return this.inFlight;
  }

  readonly middleware: RequestHandler = (req, res, next) => {
    if (this.overCapacity.has(req.socket)) {
      res.setHeader("Connection", "close");
      return this.refuse(req, res, "connections");
    }
    const line = req.method === "POST" && PUBLIC_SUBMIT.test(req.path) ? this.submits : this.others;
    const now = this.now();
    if (this.waitingCount() === 0) this.lastEmptyAt = now;
    // The oldest in its line has waited too long already: this one would wait longer still.
    const oldest = line.oldest;
    if (oldest && this.waitedTooLong(oldest, line, now)) return this.refuse(req, res, "queue");
    // The loop's delay before this turn is time the request already waited for it.
    line.push({ req, res, next, since: now - this.lagMs });
    setImmediate(this.serveOne);
  };

  private waitingCount(): number {
    return this.submits.length + this.others.length;
  }

  /** The wait a request of `line` is allowed now: the full one, or a short one while the queue stands. */
  private allowedWait(line: WaitingLine, now: number): number {
    const standing = now - this.lastEmptyAt > this.options.maxWaitMs;
    return (standing ? this.standingWaitMs : this.options.maxWaitMs) * line.factor;
  }

  /** During the warm-up only a wait for a free slot counts, not one for the loop (see above). */
  private waitedTooLong(waiting: Waiting, line: WaitingLine, now: number): boolean {
    if (now - waiting.since <= this.allowedWait(line, now)) return false;
    return now > this.warmUntil || this.inFlight >= this.options.maxInFlight * line.factor;
  }

  /**
   * Each request queued schedules one call to `serveOne` for the loop's check phase, right after
   * the sockets have been read (setImmediate). Each call starts the request at the head of the
   * lines; what the request does up to its first wait for I/O runs before the next call (the
   * microtasks between immediates), so each call sees the time the turn has spent serving. Past
   * `turnBudgetMs` the calls left move to the next turn, after the loop has accepted a connection
   * and read the sockets again. (Immediates scheduled by an immediate run in the next turn; the
   * first one moved schedules a marker ahead of them that starts the next turn's budget.)
   */
  private readonly serveOne = (): void => {
    const now = this.now();
    this.servingSince ??= now;
    if (this.deferring || now - this.servingSince > this.turnBudgetMs) {
      if (!this.deferring) {
        this.deferring = true;
        setImmediate(this.startTurn);
      }
      setImmediate(this.serveOne);
      return;
    }
    this.shedStale(now);
    const line = this.admissible(this.submits) ? this.submits : this.admissible(this.others) ? this.others : undefined;
    if (line) this.admit(line.take());
    else if (this.waitingCount() > 0) this.wakeWhenStale(now);
    // Empty lines end the turn's serving (the next request starts a fresh budget) and the queue's standing.
    if (this.waitingCount() === 0) {
      this.servingSince = undefined;
      this.lastEmptyAt = this.now();
    }
  };

  private readonly startTurn = (): void => {
    this.deferring = false;
    this.servingSince = this.now();
  };

  /** A line whose oldest request may start now: there is one, and its limit has room. */
  private admissible(line: WaitingLine): boolean {
    return line.length > 0 && this.inFlight < this.options.maxInFlight * line.factor;
  }

  /** Answers 503 to the requests that waited too long, and forgets those whose clients went away. */
  private shedStale(now: number): void {
    for (const line of [this.submits, this.others]) {
      for (let oldest = line.oldest; oldest; oldest = line.oldest) {
        if (oldest.res.destroyed || oldest.req.socket.destroyed) line.take();
        else if (this.waitedTooLong(oldest, line, now)) {
          line.take();
          this.refuse(oldest.req, oldest.res, "queue");
        } else break;
      }
    }
  }

  /**
   * All the requests allowed are in progress: a request that finishes calls `serveOne` again (see
   * `admit`), and this timer sheds the waiting ones whose time runs out before that.
   */
  private wakeWhenStale(now: number): void {
    if (this.staleTimer) return;
    const due = Math.min(...[this.submits, this.others].flatMap((line) => (line.oldest ? [line.oldest.since + this.allowedWait(line, now)] : [])));
    this.staleTimer = setTimeout(
      () => {
        this.staleTimer = undefined;
        this.serveOne();
      },
      Math.max(1, due - now + 1),
    );
    this.staleTimer.unref();
  }

  private refuse(req: Request, res: Response, why: "queue" | "connections"): void {
    // One line when shedding begins and one when it ends: an operator sees why, not every request.
    if (this.shed++ === 0) {
      const cause = why === "queue" ? `requests waited over ${this.options.maxWaitMs} ms` : `over ${this.options.maxConnections} connections`;
      console.warn(`[load] shedding requests: ${cause}; ${this.inFlight} in progress, ${this.waitingCount()} waiting`);
    }
    sendPlain(res, serviceStatusResponse("busy", req.path, { retryAfterSeconds: RETRY_AFTER_SECONDS }));
  }

  private admit({ req, res, next }: Waiting): void {
    if (this.shed > 0) {
      console.warn(`[load] admitting requests again after shedding ${this.shed}`);
      this.shed = 0;
    }
    const finished = () => {
      if (this.waitingCount() > 0) setImmediate(this.serveOne);
    };
    if (hasBodyToCome(req)) {
      const address = this.options.addressOf(req);
      const waiting = this.receiving.get(address) ?? 0;
      if (waiting >= this.options.maxReceivingPerAddress) {
        res.setHeader("Connection", "close");
        sendPlain(res, serviceStatusResponse("tooManyUploads", req.path, { retryAfterSeconds: RETRY_AFTER_SECONDS }));
        return;
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
        else if (state === "inFlight") {
          this.inFlight -= 1;
          finished();
        }
        state = "done";
      });
    } else {
      this.inFlight += 1;
      res.once("close", () => {
        this.inFlight -= 1;
        finished();
      });
    }
    next();
  }
}

/**
 * Whether the request's body has yet to be read: a method that carries one, a declared length or a
 * chunked body, and not all of it parsed yet. (Listening for "end" does not start the stream.)
 */
function hasBodyToCome(req: Request): boolean {
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
function whenBodyArrived(req: Request, arrived: () => void): void {
  const push = req.push.bind(req);
  req.push = (chunk: unknown, encoding?: BufferEncoding) => {
    if (chunk === null) arrived();
    return push(chunk, encoding);
  };
}
