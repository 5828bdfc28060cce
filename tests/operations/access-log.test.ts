import { afterEach, describe, expect, test } from "vitest";
import { startInstance, type Instance } from "../support/instance.ts";
import { waitUntil } from "../support/wait.ts";

/**
 * The access log is written off the request path (server/access-log.ts, ADR 96): a log reader that
 * stops reading or goes away neither holds the requests nor ends the process, and the lines of
 * the last requests are written before the process exits. Each test runs its own instance, as
 * `npm start` runs, on the suite's database.
 */
const instances: Instance[] = [];
afterEach(async () => {
  await Promise.all(instances.splice(0).map((instance) => instance.stop()));
});
async function instance(): Promise<Instance> {
  const started = await startInstance();
  instances.push(started);
  return started;
}

/** `count` requests for the session check, `concurrency` at a time, each with its own request id; none may take 10 s. */
async function burst(started: Instance, count: number, concurrency = 16): Promise<string[]> {
  const ids = Array.from({ length: count }, (_, index) => `burst-${String(index).padStart(6, "0")}`);
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++]!;
      const response = await fetch(`${started.baseUrl}/api/auth/session`, { headers: { "x-request-id": id }, signal: AbortSignal.timeout(10_000) });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return ids;
}

const loggedIds = (output: string) =>
  [...output.matchAll(/ request id=(burst-\d+) method=GET path=\/api\/auth\/session status=200 ms=[\d.]+ /g)].map((match) => match[1]);

describe("a log reader that stops reading or goes away", () => {
  test("a burst while standard output is not read is answered at once; its lines are held and written, each once, when it is read again", async () => {
    const started = await instance();
    // The test stops reading the server's standard output: the pipe fills after a few thousand lines.
    started.process.stdout!.pause();
    const ids = await burst(started, 4000);
    expect((await fetch(`${started.baseUrl}/healthz`)).status).toBe(200);
    started.process.stdout!.resume();
    await waitUntil(() => loggedIds(started.output()).length >= ids.length, "every line of the burst", { timeoutMs: 20_000 });
    expect(loggedIds(started.output()).toSorted()).toEqual(ids);
    expect(started.output()).not.toContain("access-log dropped=");
  });

  test("a burst after the log reader went away (EPIPE) is answered; the log stops, saying why once, and the process stops on SIGTERM", async () => {
    const started = await instance();
    started.process.stdout!.destroy();
    await burst(started, 2000);
    expect((await fetch(`${started.baseUrl}/healthz`)).status).toBe(200);
    expect(started.process.exitCode).toBeNull();
    await waitUntil(() => started.output().includes("The access log stopped"), "the access log's notice on standard error", { timeoutMs: 10_000 });
    expect(started.output().match(/The access log stopped: its output failed \((EPIPE|ECONNRESET)\)/g)).toHaveLength(1);
    started.process.kill("SIGTERM");
    expect(await started.exited).toBe(0);
  });
});

describe("stopping", () => {
  test("the lines of the requests answered just before SIGTERM are all written before the process exits", async () => {
    const started = await instance();
    const ids = await burst(started, 500);
    started.process.kill("SIGTERM");
    expect(await started.exited).toBe(0);
    const logged = loggedIds(started.output());
    expect(logged.toSorted()).toEqual(ids);
    // …before the last line of the stop.
    expect(started.output().lastIndexOf("request id=burst-")).toBeLessThan(started.output().lastIndexOf("Stopped."));
  });
});
