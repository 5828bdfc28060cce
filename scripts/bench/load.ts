import http from "node:http";
import zlib from "node:zlib";

/**
 * The load generator. It runs in its own process (scripts/bench/run.ts starts it with the job as
 * JSON on stdin) so that the servers under test and the client never share an event loop.
 *
 * - `throughput`: `connections` keep-alive connections, each sending its next request when the
 *   previous answer has been read (no pipelining), for `durationMs`.
 * - `rate`: an open loop at a fixed arrival rate. Latency is measured from the moment a request
 *   was due, not from when a free connection sent it, so a stalled server is not flattered
 *   (no coordinated omission). The requests due in the first `settleMs` are sent at the same
 *   rate without being timed: a server that was idle a moment before (the other server's round)
 *   answers its first few hundred milliseconds of load slowly, and without this lead-in the p95
 *   of a round measured that start, not the request (docs/decisions/0012-benchmarks.md).
 *
 * Written in plain erasable TypeScript so Node runs it without a loader.
 */
export type LoadRequest = { method: string; path: string; headers?: Record<string, string>; body?: string };
export type LoadJob = {
  target: string;
  requests: LoadRequest[];
  /** Each request is sent at most once (submits consume their link); otherwise the list repeats. */
  consume?: boolean;
  mode: "throughput" | "rate";
  connections: number;
  durationMs: number;
  rate?: number;
  /** Rate mode: a lead-in at the same rate before the `durationMs` that are measured; its answers are not timed, but its errors count. */
  settleMs?: number;
  /** A different X-Forwarded-For per request: many respondents behind the app's proxy. */
  forwardedFor?: boolean;
  /** Return every latency (for percentiles over several rounds), not only this run's. */
  keepSamples?: boolean;
  /** Sent as `Accept-Encoding` with every request that sets none: a browser's `br, gzip` for `npm start`'s compression. */
  acceptEncoding?: string;
};
export type LoadResult = {
  /** Answers timed: those to requests due after the lead-in. */
  completed: number;
  /** Every answer, the lead-in's too: what the server did in the run, for its CPU time per request. */
  answered: number;
  errors: number;
  statuses: Record<string, number>;
  firstError?: string;
  durationMs: number;
  rps: number;
  latencyMs: { mean: number; p50: number; p90: number; p95: number; p99: number; max: number };
  samplesMs?: number[];
};

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** A failed answer's body for the report, decompressed when it came compressed. */
function readable(body: Buffer, encoding: string | undefined): string {
  try {
    const decoded = encoding === "br" ? zlib.brotliDecompressSync(body) : encoding === "gzip" ? zlib.gunzipSync(body) : body;
    return decoded.toString("utf8").slice(0, 300);
  } catch {
    return `(${body.length} bytes, ${encoding})`;
  }
}

export async function runLoad(job: LoadJob): Promise<LoadResult> {
  const url = new URL(job.target);
  const agent = new http.Agent({ keepAlive: true, maxSockets: job.connections });
  let latencies = new Float64Array(1 << 16);
  let completed = 0;
  let answered = 0;
  let errors = 0;
  let next = 0;
  let firstError: string | undefined;
  /** Answers to requests due before this moment (the rate mode's lead-in) are not timed. */
  let measuredFrom = 0;
  const statuses: Record<string, number> = {};

  const take = (): LoadRequest | null => {
    if (job.consume) return next < job.requests.length ? job.requests[next++]! : null;
    return job.requests[next++ % job.requests.length]!;
  };

  const send = (request: LoadRequest, sequence: number, dueAt: number): Promise<void> =>
    new Promise((resolve) => {
      const headers: Record<string, string> = { ...request.headers };
      if (job.acceptEncoding && !Object.keys(headers).some((name) => name.toLowerCase() === "accept-encoding")) headers["accept-encoding"] = job.acceptEncoding;
      if (request.body !== undefined) headers["content-length"] = String(Buffer.byteLength(request.body));
      if (job.forwardedFor) headers["x-forwarded-for"] = `10.${(sequence >> 16) & 255}.${(sequence >> 8) & 255}.${sequence & 255}`;
      const finish = (status: string, error?: string) => {
        answered += 1;
        if (error) {
          errors += 1;
          firstError ??= error;
        }
        if (dueAt < measuredFrom) return resolve();
        const latency = performance.now() - dueAt;
        if (completed === latencies.length) {
          const grown = new Float64Array(latencies.length * 2);
          grown.set(latencies);
          latencies = grown;
        }
        latencies[completed++] = latency;
        statuses[status] = (statuses[status] ?? 0) + 1;
        resolve();
      };
      const outgoing = http.request({ host: url.hostname, port: url.port, method: request.method, path: request.path, headers, agent }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const status = response.statusCode ?? 0;
          const ok = status >= 200 && status < 300;
          finish(
            String(status),
            ok ? undefined : `${status} ${request.method} ${request.path}: ${readable(Buffer.concat(chunks), response.headers["content-encoding"])}`,
          );
        });
      });
      outgoing.on("error", (error) => finish("network", `${request.method} ${request.path}: ${error.message}`));
      if (request.body !== undefined) outgoing.write(request.body);
      outgoing.end();
    });

  const started = performance.now();
  const settleMs = job.mode === "rate" ? (job.settleMs ?? 0) : 0;
  measuredFrom = started + settleMs;
  const deadline = measuredFrom + job.durationMs;
  if (job.mode === "throughput") {
    const worker = async () => {
      while (performance.now() < deadline) {
        const request = take();
        if (!request) return;
        await send(request, next, performance.now());
      }
    };
    await Promise.all(Array.from({ length: job.connections }, worker));
  } else {
    const rate = job.rate ?? 10;
    const inFlight = new Set<Promise<void>>();
    let scheduled = 0;
    while (performance.now() < deadline) {
      // Request n is due at n / rate seconds: every request whose time has come is sent now.
      const due = Math.floor(((performance.now() - started) * rate) / 1000) + 1;
      while (scheduled < due) {
        const request = take();
        if (!request) break;
        const promise = send(request, next, started + (scheduled * 1000) / rate);
        inFlight.add(promise);
        void promise.then(() => inFlight.delete(promise));
        scheduled += 1;
      }
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await Promise.all(inFlight);
  }
  const durationMs = performance.now() - measuredFrom;
  agent.destroy();
  const sorted = latencies.subarray(0, completed).sort();
  const sum = sorted.reduce((total, value) => total + value, 0);
  return {
    completed,
    answered,
    errors,
    statuses,
    ...(firstError ? { firstError } : {}),
    durationMs,
    rps: (completed * 1000) / durationMs,
    latencyMs: {
      mean: completed ? sum / completed : 0,
      p50: percentile(sorted, 50),
      p90: percentile(sorted, 90),
      p95: percentile(sorted, 95),
      p99: percentile(sorted, 99),
      max: completed ? sorted[completed - 1]! : 0,
    },
    ...(job.keepSamples ? { samplesMs: Array.from(sorted) } : {}),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const job = JSON.parse(Buffer.concat(chunks).toString("utf8")) as LoadJob;
  process.stdout.write(JSON.stringify(await runLoad(job)));
}
