import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { assign, createForm, createStudent } from "../support/assessment.ts";
import { TEST_ENCRYPTION_KEY } from "../support/global-setup.ts";
import { startInstance, type Instance } from "../support/instance.ts";
import { openRequest, type OpenRequest } from "../support/raw-http.ts";

/**
 * Clients that reset their connection in the middle of a body, or send it a byte at a time, are
 * their own problem: nobody else is answered 503, neither the health check nor a sign-in. The
 * instance runs in production mode with the default load-shedding limits (64 requests in
 * progress), behind a trusted proxy, so each test chooses its clients' addresses.
 */
let instance: Instance;
let token: string;

beforeAll(async () => {
  const form = await createForm("teacher@demo.test");
  const student = await createStudent("teacher@demo.test");
  ({ token } = await assign("teacher@demo.test", { formId: form.id, studentId: student.id }));
  instance = await startInstance({
    env: {
      NODE_ENV: "production",
      SESSION_SECRET: "an-operator-chosen-session-secret-of-enough-length",
      ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      SMTP_URL: "smtp://127.0.0.1:9",
      ACCESS_LOG: "false",
    },
  });
}, 180_000);

afterAll(async () => {
  await instance?.stop();
});

/** What other clients get meanwhile: the health check and a sign-in, from an address of their own. */
async function othersAnswered(): Promise<number[]> {
  const health = await fetch(`${instance.baseUrl}/healthz`);
  const csrf = await fetch(`${instance.baseUrl}/api/auth/csrf`, { headers: { "x-forwarded-for": "198.51.100.7" } });
  const csrfCookie = csrf.headers.getSetCookie()[0]!.split(";")[0]!;
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const signIn = await fetch(`${instance.baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: csrfCookie, "x-forwarded-for": "198.51.100.7" },
    body: JSON.stringify({ email: "teacher@demo.test", password: inject("seedPassword"), csrfToken }),
  });
  return [health.status, csrf.status, signIn.status];
}

/**
 * Requests whose heads declare a 1,000-byte body and send its first bytes: a sign-in, a
 * forgotten password, a public submit, and a page post. With `inProgress`, the head asks for
 * "100 Continue", which the server sends once the request has reached it.
 */
function bodyRequests(address: string, options: { inProgress?: boolean } = {}): string[] {
  const expectContinue = options.inProgress ? "Expect: 100-continue\r\n" : "";
  const head = (target: string, type: string) =>
    `POST ${target} HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: ${address}\r\nContent-Type: ${type}\r\n${expectContinue}Content-Length: 1000\r\n\r\n`;
  return [
    `${head("/api/auth/callback/credentials", "application/json")}{"email":"`,
    `${head("/api/auth/forgot-password", "application/json")}{"email":"`,
    `${head(`/api/test-link/${token}/submit`, "application/json")}{"answers":[`,
    `${head(`/pt-BR/test/${token}`, "application/x-www-form-urlencoded")}intent=submit&`,
  ];
}

/** A request that has reached the server and waits for the rest of its body. */
const inProgress = (head: string) => openRequest(instance.port, head, { awaitContinue: true });

describe("clients that go away or send slowly", { timeout: 180_000 }, () => {
  test("100 connections reset in the middle of their bodies leave every other request answered, the database never marked away", async () => {
    const resets = Array.from({ length: 100 }, (_, index) => bodyRequests(`203.0.113.${(index % 50) + 1}`, { inProgress: true })[index % 4]!);
    const opened = await Promise.all(resets.map(inProgress));
    for (const request of opened) request.socket.resetAndDestroy();

    const statuses: number[] = [];
    for (let round = 0; round < 10; round++) statuses.push(...(await othersAnswered()));
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect(instance.output()).not.toContain("[database] unavailable");
    expect(instance.output()).not.toMatch(/ECONNRESET|\s{4}at /);
  });

  test("100 bodies sent a byte a second hold no slot of the load shedder; past 32 from one address that address alone is refused", async () => {
    // 80 clients with addresses of their own, 20 of them twice: more than the 64 requests in progress the shedder admits.
    const distributed: OpenRequest[] = [];
    for (let index = 0; index < 100; index++) {
      distributed.push(await inProgress(bodyRequests(`192.0.2.${(index % 80) + 1}`, { inProgress: true })[index % 4]!));
    }
    const trickle = setInterval(() => {
      for (const request of distributed) void request.write("a");
    }, 1000);
    try {
      const statuses: number[] = [];
      for (let round = 0; round < 5; round++) statuses.push(...(await othersAnswered()));
      expect(statuses.filter((status) => status !== 200)).toEqual([]);

      // One address with 32 bodies on their way: its 33rd request is answered 429, in its language.
      const oneAddress = await Promise.all(Array.from({ length: 32 }, () => inProgress(bodyRequests("198.18.0.9", { inProgress: true })[2]!)));
      distributed.push(...oneAddress);
      const refused = await openRequest(instance.port, bodyRequests("198.18.0.9")[3]!);
      const page = await refused.response;
      expect(page.status).toBe(429);
      expect(page.headers["retry-after"]).toBe("2");
      expect(page.body).toContain("Envios demais ao mesmo tempo");
      const problem = await (await openRequest(instance.port, bodyRequests("198.18.0.9")[0]!)).response;
      expect(problem.status).toBe(429);
      expect(JSON.parse(problem.body)).toMatchObject({ status: 429, code: "TOO_MANY_UPLOADS" });
      // Everyone else is still served.
      expect((await othersAnswered()).filter((status) => status !== 200)).toEqual([]);
    } finally {
      clearInterval(trickle);
      for (const request of distributed) request.socket.destroy();
    }
    expect(instance.output()).not.toContain("[load] shedding");
    expect(instance.output()).not.toContain("[database] unavailable");
  });
});
