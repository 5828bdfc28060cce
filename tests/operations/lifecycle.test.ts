import { mkdtempSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, inject, test } from "vitest";
import { api } from "../support/api.ts";
import { assign, createForm, createStudent, mediumAnswers } from "../support/assessment.ts";
import { startInstance, waitUntilHealthy, type Instance } from "../support/instance.ts";
import { openRequest } from "../support/raw-http.ts";
import { waitUntil } from "../support/wait.ts";

/**
 * The service as a process an operator runs: it stops cleanly on SIGTERM without cutting requests
 * short, sheds load it cannot serve in time, and answers 503 while its database is away, coming
 * back by itself. Each test starts its own instance on the suite's database.
 */
const instances: Instance[] = [];
afterEach(async () => {
  await Promise.all(instances.splice(0).map((instance) => instance.stop()));
});
async function instance(options: Parameters<typeof startInstance>[0] = {}): Promise<Instance> {
  const started = await startInstance(options);
  instances.push(started);
  return started;
}

const connectionRefused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(true));
  });

/** A fresh link and the answers to submit to it. */
async function newLink() {
  const form = await createForm("teacher@demo.test");
  const student = await createStudent("teacher@demo.test");
  const { token } = await assign("teacher@demo.test", { formId: form.id, studentId: student.id });
  return { token, body: JSON.stringify(mediumAnswers(form)) };
}

/**
 * An OpenID provider that holds every request until `release`, then answers 503: a request of the
 * service that asks it stays in progress for as long as the test wants.
 */
async function silentProvider() {
  const waiting: http.ServerResponse[] = [];
  const server = http.createServer((_request, response) => void waiting.push(response));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const release = () => {
    for (const response of waiting.splice(0)) response.writeHead(503).end();
  };
  return {
    issuer: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    asked: () => waiting.length > 0,
    release,
    close: async () => {
      release();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A submit to a fresh link, in progress on the server (it has answered "100 Continue"), whose JSON
 * body is sent all but its last byte; `finish` sends the rest.
 */
async function slowSubmit(port: number) {
  const form = await createForm("teacher@demo.test");
  const student = await createStudent("teacher@demo.test");
  const { token } = await assign("teacher@demo.test", { formId: form.id, studentId: student.id });
  const body = JSON.stringify(mediumAnswers(form));
  const request = await openRequest(
    port,
    `POST /api/test-link/${token}/submit HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
    { awaitContinue: true },
  );
  await request.write(body.slice(0, -1));
  return { token, request, finish: () => request.write(body.slice(-1)) };
}

describe("stopping", () => {
  test("SIGTERM to `npm start` stops the server: no process is left holding the port", async () => {
    const started = await instance({ command: "npm start" });
    started.process.kill("SIGTERM");
    expect(await started.exited).toBe(0);
    expect(await connectionRefused(started.port)).toBe(true);
    // A new start on the same port works.
    const again = await instance({ port: started.port });
    expect((await fetch(`${again.baseUrl}/healthz`)).status).toBe(200);
  });

  test("a closed standard output and error (the log reader went away) do not stop the server: it answers, logs nowhere, and still stops on SIGTERM", async () => {
    const started = await instance();
    started.process.stdout!.destroy();
    started.process.stderr!.destroy();
    // Every request writes an access-log line, the failed sign-in a warning too.
    for (let i = 0; i < 20; i++) expect((await fetch(`${started.baseUrl}/api/forms`)).status).toBe(401);
    expect((await fetch(`${started.baseUrl}/healthz`)).status).toBe(200);
    expect(started.process.exitCode).toBeNull();
    started.process.kill("SIGTERM");
    expect(await started.exited).toBe(0);
  });

  test("SIGTERM lets submits in progress finish, refuses new connections, then exits", async () => {
    const started = await instance();
    const submits = await Promise.all(Array.from({ length: 5 }, () => slowSubmit(started.port)));
    started.process.kill("SIGTERM");
    await waitUntil(() => started.output().includes("SIGTERM: no new connections"), "the shutdown to begin", { timeoutMs: 30_000 });
    expect(await connectionRefused(started.port)).toBe(true);
    await Promise.all(submits.map((submit) => submit.finish()));
    const responses = await Promise.all(submits.map((submit) => submit.request.response));
    for (const response of responses) expect(response.status, started.output()).toBe(200);
    expect(await started.exited).toBe(0);
    expect(started.output()).toContain("Stopped.");
    // They were recorded.
    for (const submit of submits) {
      const link = await api("GET", `/api/test-link/${submit.token}`);
      expect(link.status).toBe(409);
    }
  });
});

describe("load shedding", () => {
  test("past its limit the server answers 503 busy with Retry-After; public submits are shed last", async () => {
    // One request in progress: an OpenID sign-in whose provider has not answered discovery yet. (A
    // submit whose body has not all arrived is not in progress: the client holds it, not the server.)
    const provider = await silentProvider();
    const started = await instance({
      env: {
        LOAD_SHED_MAX_IN_FLIGHT: "1",
        LOAD_SHED_MAX_WAIT_MS: "200",
        OIDC_ISSUER: provider.issuer,
        OIDC_CLIENT_ID: "held",
        OIDC_CLIENT_SECRET: "held-secret",
      },
    });
    const held = fetch(`${started.baseUrl}/api/auth/oidc`, { redirect: "manual" });
    await waitUntil(() => provider.asked(), "the sign-in to reach the provider", { timeoutMs: 30_000 });
    await waitUntil(async () => (await fetch(`${started.baseUrl}/api/auth/session`)).status === 503, "the server to be busy", { timeoutMs: 30_000 });
    const page = await fetch(`${started.baseUrl}/es/login`);
    expect(page.status).toBe(503);
    expect(page.headers.get("retry-after")).toBe("2");
    expect(await page.text()).toContain("El servicio está ocupado");
    const problem = await fetch(`${started.baseUrl}/api/forms`);
    expect(problem.status).toBe(503);
    expect(await problem.json()).toMatchObject({ status: 503, code: "SERVER_BUSY" });
    // A public submit is still admitted (twice the limit).
    const submit = await newLink();
    const other = await fetch(`${started.baseUrl}/api/test-link/${submit.token}/submit`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: submit.body,
    });
    expect(other.status).toBe(200);
    provider.release();
    expect((await held).status).toBe(302);
    await provider.close();
    await waitUntil(async () => (await fetch(`${started.baseUrl}/api/auth/session`)).status === 200, "the server to admit requests again", {
      timeoutMs: 30_000,
    });
  });
});

describe("database unavailable", () => {
  test("every request answers 503 with Retry-After while the database is away, and the service recovers by itself", async () => {
    const outage = await databaseOutage();
    try {
      const started = await instance({ databaseUrl: outage.databaseUrl });
      const session = await fetch(`${started.baseUrl}/api/auth/csrf`);
      expect(session.status).toBe(200);

      await outage.begin();
      const health = await fetch(`${started.baseUrl}/healthz`);
      expect(health.status).toBe(503);
      expect(health.headers.get("retry-after")).toBe("5");
      const page = await fetch(`${started.baseUrl}/pt-BR/login`);
      expect(page.status).toBe(503);
      expect(page.headers.get("retry-after")).toBe("5");
      expect(await page.text()).toContain("O serviço está indisponível");
      const problem = await fetch(`${started.baseUrl}/api/forms`);
      expect(problem.status).toBe(503);
      expect(await problem.json()).toMatchObject({ code: "DATABASE_UNAVAILABLE" });
      const withCookie = await fetch(`${started.baseUrl}/healthz`, { headers: { cookie: inject("sessions")["teacher@demo.test"]! } });
      expect(withCookie.status).toBe(503);

      await outage.end();
      await waitUntilHealthy(started, 60_000);
      // Answered by the app again (this instance has its own session secret, so: sign in first).
      // On SQLite the outage held the event loop in SQLite's busy wait for seconds, and the load
      // shedder may still see that lag for a moment (the health check no longer waits behind it).
      await waitUntil(async () => (await fetch(`${started.baseUrl}/api/forms`)).status === 401, "the app to answer again", { timeoutMs: 30_000 });
      expect((await fetch(`${started.baseUrl}/pt-BR/login`)).status).toBe(200);
      expect(started.output()).toContain("[database] available again");
    } finally {
      await outage.end();
      await outage.close();
    }
  });
});

/**
 * A database that can be taken away and given back. PostgreSQL: the instance connects through a
 * TCP relay that the test closes (every connection cut, new ones refused). SQLite: another process
 * holds the write lock, so every write waits out its busy timeout and fails; on a copy of the
 * suite's database, so the server every other test file is using meanwhile is not taken down too.
 */
async function databaseOutage(): Promise<{
  databaseUrl: string;
  begin: () => Promise<void>;
  end: () => Promise<void>;
  close: () => Promise<void>;
}> {
  const databaseUrl = inject("databaseUrl");
  if (databaseUrl.startsWith("file:")) {
    const copy = path.join(mkdtempSync(path.join(tmpdir(), "assessment-outage-")), "outage.db");
    const shared = new Database(databaseUrl.slice("file:".length), { readonly: true });
    shared.exec(`VACUUM INTO '${copy.replaceAll("'", "''")}'`);
    shared.close();
    const holder = new Database(copy);
    return {
      databaseUrl: `file:${copy}`,
      begin: async () => void holder.exec("BEGIN IMMEDIATE"),
      end: async () => {
        if (holder.inTransaction) holder.exec("ROLLBACK");
      },
      close: async () => void holder.close(),
    };
  }
  const target = new URL(databaseUrl);
  const sockets = new Set<net.Socket>();
  let relay: net.Server | undefined;
  const listen = (port: number) =>
    new Promise<number>((resolve) => {
      relay = net.createServer((client) => {
        const upstream = net.connect(Number(target.port || 5432), target.hostname);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on("close", () => sockets.delete(socket));
          socket.on("error", () => socket.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      relay.listen(port, "127.0.0.1", () => resolve((relay!.address() as net.AddressInfo).port));
    });
  const port = await listen(0);
  const relayed = new URL(databaseUrl);
  relayed.host = `127.0.0.1:${port}`;
  let down = false;
  return {
    databaseUrl: relayed.toString(),
    begin: async () => {
      down = true;
      await new Promise<void>((resolve) => relay!.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
    },
    end: async () => {
      if (!down) return;
      down = false;
      await listen(port);
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => (relay?.listening ? relay.close(() => resolve()) : resolve()));
    },
  };
}
