import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { LoadShedder, type LoadSheddingOptions } from "../../server/load-shedding.ts";

/**
 * The load shedder over real HTTP, in front of a handler that works synchronously as a request
 * does on SQLite. The handler moves the shedder's clock by the time its work "takes", so what
 * counts as waiting is decided by the test, not by how fast this machine is.
 */
type Bench = { url: string; clock: { now: number }; served: { path: string; sentAt: number; ranAt: number }[]; close: () => Promise<void> };
const benches: Bench[] = [];
afterEach(async () => {
  await Promise.all(benches.splice(0).map((bench) => bench.close()));
});

async function serverWith(options: Partial<LoadSheddingOptions>, workMs: number): Promise<Bench> {
  const clock = { now: 0 };
  const shedder = new LoadShedder({
    maxWaitMs: 300,
    maxInFlight: 64,
    maxConnections: 1000,
    maxReceivingPerAddress: 32,
    addressOf: () => "test",
    warmUpMs: 0,
    now: () => clock.now,
    ...options,
  });
  const served: Bench["served"] = [];
  const app = express();
  app.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  app.use(shedder.middleware);
  app.use((req, res) => {
    if (req.path === "/open") return res.json({ ok: true });
    served.push({ path: req.path, sentAt: Number(req.headers["x-sent-at"]), ranAt: clock.now });
    clock.now += workMs;
    res.json({ ok: true });
  });
  const server = http.createServer(app);
  shedder.watchConnections(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const bench: Bench = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    clock,
    served,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  benches.push(bench);
  return bench;
}

/**
 * Kept-alive connections, opened before the test's requests: Node accepts one new connection per
 * turn of its loop, so requests on new connections would reach the shedder one turn apart, and
 * only requests that arrive together can wait for each other where the shedder sees them.
 */
async function openConnections(bench: Bench, count: number): Promise<http.Agent> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: count });
  await Promise.all(Array.from({ length: count }, () => send(bench, "/open", agent)));
  return agent;
}

/** A request (on a connection of its own unless an agent is given), stamped with the clock when sent. */
function send(bench: Bench, path: string, agent?: http.Agent): Promise<{ status: number; retryAfter?: string; connection?: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${bench.url}${path}`, { agent: agent ?? false, headers: { "x-sent-at": String(bench.clock.now) } }, (response) => {
      response.resume();
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, retryAfter: response.headers["retry-after"], connection: response.headers.connection }),
      );
    });
    request.on("error", reject);
  });
}

describe("load shedding by the time a request has waited", () => {
  it("given more work than fits in the wait allowed, should serve the requests that can start in time and answer the others 503 with Retry-After", async () => {
    const bench = await serverWith({ maxWaitMs: 300 }, 100);
    const agent = await openConnections(bench, 20);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => send(bench, `/work/${i}`, agent)));
    agent.destroy();

    const busy = answers.filter((answer) => answer.status === 503);
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(bench.served.length);
    expect(busy.length).toBeGreaterThan(0);
    expect(busy.length + bench.served.length).toBe(20);
    for (const answer of busy) expect(answer.retryAfter).toBe("2");
    // Every request that was served started within the wait allowed.
    for (const run of bench.served) expect(run.ranAt - run.sentAt).toBeLessThanOrEqual(300);
  });

  it("given a queue that has not emptied for the full wait, should hold its requests to the short one", async () => {
    // Eight requests at once, served 40 ms apart on the test's clock; three more join when five
    // are answered (the clock at 200), so the queue never empties. Each of the three waits 120 to
    // 200 ms: within the full 300 ms, not within 50 once the queue has stood for 300.
    const run = async (standingWaitMs: number) => {
      const bench = await serverWith({ maxWaitMs: 300, standingWaitMs }, 40);
      const agent = await openConnections(bench, 11);
      let answered = 0;
      let fifth: () => void = () => {};
      const fiveAnswered = new Promise<void>((resolve) => (fifth = resolve));
      const first = Array.from({ length: 8 }, (_, i) =>
        send(bench, `/first/${i}`, agent).then((answer) => {
          if (++answered === 5) fifth();
          return answer;
        }),
      );
      await fiveAnswered;
      const joined = await Promise.all(Array.from({ length: 3 }, (_, i) => send(bench, `/joined/${i}`, agent)));
      await Promise.all(first);
      agent.destroy();
      return joined.map((answer) => answer.status);
    };

    expect(await run(300)).toEqual([200, 200, 200]);
    expect(await run(50)).toEqual([503, 503, 503]);
  });

  it("given the health check among waiting requests, should answer it without waiting", async () => {
    const bench = await serverWith({ maxWaitMs: 300 }, 100);
    const agent = await openConnections(bench, 11);
    const work = Array.from({ length: 10 }, (_, i) => send(bench, `/work/${i}`, agent));
    const health = send(bench, "/healthz", agent);
    const answer = await health;
    const clockWhenAnswered = bench.clock.now;
    expect(answer.status).toBe(200);
    // Answered before the work queued ahead of it had all run.
    expect(clockWhenAnswered).toBeLessThan(1000);
    await Promise.all(work);
    agent.destroy();
  });

  it("given a fresh instance still warming up, should serve every request however long the loop takes", async () => {
    const bench = await serverWith({ maxWaitMs: 300, warmUpMs: 60_000 }, 100);
    const agent = await openConnections(bench, 10);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => send(bench, `/work/${i}`, agent)));
    agent.destroy();
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
  });

  it("given more connections than allowed, should answer the one past the limit 503 and close it", async () => {
    const bench = await serverWith({ maxConnections: 2 }, 0);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 3 });
    try {
      // Three connections open at once: the third is past the limit.
      const answers = await Promise.all([0, 1, 2].map((i) => send(bench, `/work/${i}`, agent)));
      const refused = answers.filter((answer) => answer.status === 503);
      expect(refused).toHaveLength(1);
      expect(refused[0]).toMatchObject({ retryAfter: "2", connection: "close" });
    } finally {
      agent.destroy();
    }
  });
});
