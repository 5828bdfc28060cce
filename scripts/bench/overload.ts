import http from "node:http";
import type { LoadRequest } from "./load.ts";

/**
 * The overload scenario's load generator (run in its own process, like scripts/bench/load.ts).
 *
 * Three phases at fixed arrival rates, an open loop as real clients are: `before` at a rate the
 * server sustains, `overload` at several times that rate, `after` at the first rate again. Every
 * request goes out when it is due, on a free kept-alive connection or a new one (no cap on
 * connections: a thousand phones do not wait for each other), so the queue forms where it would
 * in production, in the server's listen backlog and unread sockets, not in this process.
 *
 * Beside them a health check asks `/healthz` every `healthEveryMs` on a connection of its own, as
 * a load balancer does.
 *
 * The answer is a timeline per second (by the moment each request was due) and the figures the
 * bench's overload row reports.
 *
 * Written in plain erasable TypeScript so Node runs it without a loader.
 */
export type OverloadJob = {
  target: string;
  requests: LoadRequest[];
  /** The rate the server sustains (requests/s), sent before and after the overload. */
  normalRate: number;
  overloadRate: number;
  beforeMs: number;
  overloadMs: number;
  afterMs: number;
  healthEveryMs: number;
  /** A request not answered by then counts as timed out (a browser or a proxy gives up too). */
  timeoutMs: number;
  forwardedFor?: boolean;
};

export type OverloadSecond = {
  second: number;
  phase: "before" | "overload" | "after";
  sent: number;
  ok: number;
  busy: number;
  /** Answers other than 2xx and 503. */
  other: number;
  /** Connection errors and requests not answered within `timeoutMs`. */
  failed: number;
  okP99Ms: number;
  busyP99Ms: number;
  healthMaxMs: number;
};

export type OverloadResult = {
  timeline: OverloadSecond[];
  /** During the overload: from its start to the first 503 that carried Retry-After (null: none). */
  firstBusyAfterMs: number | null;
  busyWithoutRetryAfter: number;
  /** p99 of the requests admitted (2xx) while overloaded, by the moment each was due. */
  admittedP99Ms: number;
  /** Share of the overload's requests that failed (connection error or timeout), not answered at all. */
  failedShare: number;
  /** The overload's failures by cause (an error code, or "timeout"). */
  failures: Record<string, number>;
  healthMaxMs: number;
  healthFailures: number;
  /** p99 of the `before` phase: what "normal" means for the recovery. */
  normalP99Ms: number;
  /**
   * From the overload's end to the start of the first second that begins SETTLED_SECONDS normal
   * seconds in a row (all 2xx, p99 within three times the calm's, at least 100 ms) after which no
   * request is refused or fails.
   */
  recoveryMs: number | null;
};

/** Normal seconds in a row that make a recovery. */
const SETTLED_SECONDS = 5;

type Sample = { dueAt: number; latency: number; outcome: "ok" | "busy" | "other" | "failed"; retryAfter: boolean; why?: string };

function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export async function runOverload(job: OverloadJob): Promise<OverloadResult> {
  const url = new URL(job.target);
  const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY, maxFreeSockets: Number.POSITIVE_INFINITY });
  const samples: Sample[] = [];
  const health: { at: number; latency: number; ok: boolean }[] = [];
  let sequence = 0;

  const send = (request: LoadRequest, dueAt: number): Promise<void> =>
    new Promise((resolve) => {
      const headers: Record<string, string> = { ...request.headers };
      if (request.body !== undefined) headers["content-length"] = String(Buffer.byteLength(request.body));
      const n = sequence++;
      if (job.forwardedFor) headers["x-forwarded-for"] = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
      let settled = false;
      const finish = (outcome: Sample["outcome"], retryAfter = false, why?: string) => {
        if (settled) return;
        settled = true;
        samples.push({ dueAt, latency: performance.now() - dueAt, outcome, retryAfter, ...(why ? { why } : {}) });
        resolve();
      };
      const outgoing = http.request({ host: url.hostname, port: url.port, method: request.method, path: request.path, headers, agent }, (response) => {
        response.resume();
        response.on("end", () => {
          const status = response.statusCode ?? 0;
          finish(status >= 200 && status < 300 ? "ok" : status === 503 ? "busy" : "other", response.headers["retry-after"] !== undefined);
        });
        response.on("error", () => finish("failed"));
      });
      outgoing.setTimeout(job.timeoutMs, () => {
        outgoing.destroy();
        finish("failed", false, "timeout");
      });
      outgoing.on("error", (error: NodeJS.ErrnoException) => finish("failed", false, error.code ?? error.message));
      if (request.body !== undefined) outgoing.write(request.body);
      outgoing.end();
    });

  const healthAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const checkHealth = (): Promise<void> =>
    new Promise((resolve) => {
      const at = performance.now();
      let settled = false;
      const finish = (ok: boolean) => {
        if (settled) return;
        settled = true;
        health.push({ at, latency: performance.now() - at, ok });
        resolve();
      };
      const outgoing = http.request({ host: url.hostname, port: url.port, path: "/healthz", agent: healthAgent }, (response) => {
        response.resume();
        response.on("end", () => finish(response.statusCode === 200));
      });
      outgoing.setTimeout(job.timeoutMs, () => {
        outgoing.destroy();
        finish(false);
      });
      outgoing.on("error", () => finish(false));
      outgoing.end();
    });

  const started = performance.now();
  const overloadFrom = started + job.beforeMs;
  const overloadUntil = overloadFrom + job.overloadMs;
  const end = overloadUntil + job.afterMs;
  const pending = new Set<Promise<void>>();
  const track = (promise: Promise<void>) => {
    pending.add(promise);
    void promise.then(() => pending.delete(promise));
  };

  // The health checker runs on its own clock, one check at a time, as a load balancer's does.
  let healthRunning = true;
  const healthLoop = (async () => {
    while (healthRunning) {
      const at = performance.now();
      await checkHealth();
      const wait = job.healthEveryMs - (performance.now() - at);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  })();

  // Arrivals: the requests due by now in each phase are sent now.
  let index = 0;
  let nextDue = started;
  while (nextDue < end) {
    const now = performance.now();
    while (nextDue <= now && nextDue < end) {
      const request = job.requests[index++ % job.requests.length]!;
      track(send(request, nextDue));
      const rate = nextDue >= overloadFrom && nextDue < overloadUntil ? job.overloadRate : job.normalRate;
      nextDue += 1000 / rate;
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await Promise.all(pending);
  healthRunning = false;
  await healthLoop;
  agent.destroy();
  healthAgent.destroy();

  const phaseOf = (at: number): OverloadSecond["phase"] => (at < overloadFrom ? "before" : at < overloadUntil ? "overload" : "after");
  const seconds = Math.ceil((end - started) / 1000);
  const timeline: OverloadSecond[] = Array.from({ length: seconds }, (_, second) => {
    const from = started + second * 1000;
    const inSecond = samples.filter((sample) => sample.dueAt >= from && sample.dueAt < from + 1000);
    const checks = health.filter((check) => check.at >= from && check.at < from + 1000);
    return {
      second,
      phase: phaseOf(from),
      sent: inSecond.length,
      ok: inSecond.filter((sample) => sample.outcome === "ok").length,
      busy: inSecond.filter((sample) => sample.outcome === "busy").length,
      other: inSecond.filter((sample) => sample.outcome === "other").length,
      failed: inSecond.filter((sample) => sample.outcome === "failed").length,
      okP99Ms: percentile(
        inSecond.filter((sample) => sample.outcome === "ok").map((sample) => sample.latency),
        99,
      ),
      busyP99Ms: percentile(
        inSecond.filter((sample) => sample.outcome === "busy").map((sample) => sample.latency),
        99,
      ),
      healthMaxMs: Math.max(0, ...checks.map((check) => check.latency)),
    };
  });

  const during = samples.filter((sample) => sample.dueAt >= overloadFrom && sample.dueAt < overloadUntil);
  const firstBusy = during.filter((sample) => sample.outcome === "busy" && sample.retryAfter).sort((a, b) => a.dueAt + a.latency - (b.dueAt + b.latency))[0];
  const normalP99Ms = percentile(
    samples.filter((sample) => sample.dueAt < overloadFrom && sample.outcome === "ok").map((sample) => sample.latency),
    99,
  );
  // Normal: every request answered 2xx, and no slower than a second of the calm before allows for
  // (a second's p99 at half the sustainable rate is its slowest one or two: three times the calm's
  // p99, and never less than 100 ms, so one stall of the machine does not count as overload).
  const isNormal = (second: OverloadSecond) => second.sent > 0 && second.ok === second.sent && second.okP99Ms <= Math.max(3 * normalP99Ms, 100);
  const after = timeline.filter((second) => second.phase === "after");
  // A slow second later on, with every request answered, is a stall the calm has too (see
  // docs/benchmarks.md, "the stalls"): it does not undo a recovery. A refusal or a failure does.
  const recoveredAt = after.findIndex(
    (_, i) => after.slice(i, i + SETTLED_SECONDS).every(isNormal) && after.slice(i).every((second) => second.ok === second.sent),
  );
  return {
    timeline,
    firstBusyAfterMs: firstBusy ? firstBusy.dueAt + firstBusy.latency - overloadFrom : null,
    busyWithoutRetryAfter: during.filter((sample) => sample.outcome === "busy" && !sample.retryAfter).length,
    admittedP99Ms: percentile(
      during.filter((sample) => sample.outcome === "ok").map((sample) => sample.latency),
      99,
    ),
    failures: during.reduce<Record<string, number>>((counts, sample) => {
      if (sample.why) counts[sample.why] = (counts[sample.why] ?? 0) + 1;
      return counts;
    }, {}),
    failedShare: during.length ? during.filter((sample) => sample.outcome === "failed").length / during.length : 0,
    healthMaxMs: Math.max(0, ...health.map((check) => check.latency)),
    healthFailures: health.filter((check) => !check.ok).length,
    normalP99Ms,
    recoveryMs: recoveredAt === -1 ? null : after[recoveredAt]!.second * 1000 + started - overloadUntil,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const job = JSON.parse(Buffer.concat(chunks).toString("utf8")) as OverloadJob;
  process.stdout.write(JSON.stringify(await runOverload(job)));
}
