import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/free-port.ts";
import { type Listening, listen } from "../../server/listen.ts";

/**
 * The production server listens on its port through several sockets on Linux (ADR 50): each
 * accepts its share of a surge of connections, and they all reach the one HTTP server.
 */
const open: Listening[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((listening) => listening.close()));
});

function helloServer(): http.Server {
  return http.createServer((_req, res) => {
    res.setHeader("Connection", "close");
    res.end("hello");
  });
}

describe("listening on the port", () => {
  it("given many connections at once, should serve every one, whichever socket accepted it", async () => {
    const server = helloServer();
    const connections: unknown[] = [];
    server.on("connection", (socket) => connections.push(socket));
    open.push(await listen(server, await freePort(), "127.0.0.1"));
    const { port } = server.address() as AddressInfo;
    const answers = await Promise.all(
      Array.from({ length: 200 }, () => fetch(`http://127.0.0.1:${port}/`, { headers: { connection: "close" } }).then((response) => response.text())),
    );
    expect(answers).toEqual(Array(200).fill("hello"));
    expect(connections.length).toBe(200);
  });

  it("given the port held by another server, should fail with EADDRINUSE instead of sharing it", async () => {
    const first = helloServer();
    const port = await freePort();
    open.push(await listen(first, port, "127.0.0.1"));
    await expect(listen(helloServer(), port, "127.0.0.1")).rejects.toMatchObject({ code: "EADDRINUSE" });
  });

  it("given a request still being answered, should finish closing only once its connection has ended", async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let allStarted!: () => void;
    const answering = new Promise<void>((resolve) => (allStarted = resolve));
    let started = 0;
    const server = http.createServer((_req, res) => {
      if (++started === 8) allStarted();
      void released.then(() => res.end("late"));
    });
    const listening = await listen(server, await freePort(), "127.0.0.1");
    const { port } = server.address() as AddressInfo;
    // Several connections, so that some are accepted by each socket.
    const answers = Array.from({ length: 8 }, () => fetch(`http://127.0.0.1:${port}/`).then((response) => response.text()));
    await answering;
    let closed = false;
    const closing = listening.close().then(() => (closed = true));
    for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    release();
    expect(await Promise.all(answers)).toEqual(Array(8).fill("late"));
    server.closeIdleConnections();
    await closing;
    expect(closed).toBe(true);
  });
});
