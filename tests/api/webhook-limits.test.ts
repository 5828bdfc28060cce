import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, inject, it } from "vitest";
import { api, baseUrl, unique, withCsrf } from "../support/api.ts";
import { testDatabase } from "../support/database.ts";
import { createSignedInUser, expectProblem } from "../support/fixtures.ts";
import { startInstance, type Instance } from "../support/instance.ts";
import { TEST_ENCRYPTION_KEY } from "../support/global-setup.ts";

/**
 * What keeps one organization's webhooks from costing the others (docs/api-contract.md §23, ADR 44), over
 * real HTTP to receivers on loopback: an organization's silent endpoints hold at most a share of
 * the delivery lanes, so another organization's delivery arrives at once; at most 10 webhooks per
 * organization (409 WEBHOOK_LIMIT, said on the page in its language); https in production; the
 * delivery log's generic reasons; a webhook removed during its delivery. Each test makes its own
 * organizations, so other files' webhooks and limits cannot meet these.
 */
const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

type Admin = { organizationId: string; cookie: string };

/** A new organization and its administrator, signed in. */
async function newOrganization(label: string): Promise<Admin> {
  const organization = await testDatabase().organization.create({ data: { name: unique(label) } });
  const admin = await createSignedInUser("ADMIN", { as: "superadmin@demo.test", organizationId: organization.id });
  return { organizationId: organization.id, cookie: admin.cookie };
}

async function addWebhook(admin: Admin, url: string, events = ["student.created"]) {
  const created = await api("POST", "/api/webhooks", { cookie: admin.cookie, json: { url, events } });
  expect(created.status, created.text).toBe(201);
  cleanup.push(() => api("DELETE", `/api/webhooks/${created.body.id}`, { cookie: admin.cookie }));
  return created.body as { id: string };
}

const addStudent = async (admin: Admin, name: string) => {
  const created = await api("POST", "/api/students", { cookie: admin.cookie, json: { name: unique(name) } });
  expect(created.status, created.text).toBe(201);
  return created.body as { id: string };
};

/** A receiver on loopback; `handle` decides what each request gets once its body is read. */
async function receiver(handle: (request: IncomingMessage, response: ServerResponse, body: string) => void): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => handle(request, response, body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanup.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const deliveriesOf = async (admin: Admin, webhookId: string) =>
  (await api("GET", `/api/webhooks/${webhookId}/deliveries`, { cookie: admin.cookie })).body.deliveries as {
    id: string;
    status: string;
    attempts: number;
    lastStatusCode: number | null;
    lastError: string | null;
  }[];

describe("webhooks shared fairly between organizations", () => {
  it("given one organization's 10 silent endpoints with events due, should deliver another organization's event within 5 s", { timeout: 90_000 }, async () => {
    // Takes each request and never answers: every delivery to it waits for its whole timeout (10 s).
    let held = 0;
    const silent = await receiver(() => held++);
    const noisy = await newOrganization("Silent School");
    const hooks = [];
    for (let index = 0; index < 10; index++) hooks.push(await addWebhook(noisy, `${silent.url}/silent/${index}`));
    // Three events: thirty deliveries due, more than all four lanes' worth of timeouts.
    for (const name of ["Quiet 1", "Quiet 2", "Quiet 3"]) await addStudent(noisy, name);
    await expect.poll(() => held, { timeout: 20_000 }).toBeGreaterThan(0);

    const arrived: string[] = [];
    const quick = await receiver((_request, response, body) => {
      arrived.push(body);
      response.writeHead(204).end();
    });
    const other = await newOrganization("Other School");
    await addWebhook(other, `${quick.url}/hooks`);
    const started = Date.now();
    const student = await addStudent(other, "Punctual");
    await expect.poll(() => arrived.some((body) => body.includes(student.id)), { timeout: 5_000, interval: 50 }).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
    // The silent organization had two lanes meanwhile, never more (one process claims in turn).
    const leased = await testDatabase().job.count({
      where: { groupKey: `organization:${noisy.organizationId}`, doneAt: null, lockedUntil: { gt: new Date() } },
    });
    expect(leased).toBeLessThanOrEqual(2);

    // Removed while their deliveries wait: those end quietly (see the last test).
    for (const hook of hooks) expect((await api("DELETE", `/api/webhooks/${hook.id}`, { cookie: noisy.cookie })).status).toBe(200);
  });
});

describe("at most 10 webhooks per organization", () => {
  it("given 10 webhooks, should answer 409 WEBHOOK_LIMIT to the 11th, also when the last ones are added at once", async () => {
    const admin = await newOrganization("Limited School");
    for (let index = 0; index < 8; index++) await addWebhook(admin, `https://hooks.example.org/${index}`);
    // Four at once for the last two places: exactly two get them.
    const racing = await Promise.all(
      [0, 1, 2, 3].map(() =>
        api("POST", "/api/webhooks", { cookie: admin.cookie, json: { url: "https://hooks.example.org/race", events: ["student.created"] } }),
      ),
    );
    for (const response of racing.filter((r) => r.status === 201)) {
      cleanup.push(() => api("DELETE", `/api/webhooks/${response.body.id}`, { cookie: admin.cookie }));
    }
    expect(racing.map((response) => response.status).sort()).toEqual([201, 201, 409, 409]);
    const listed = await api("GET", "/api/webhooks", { cookie: admin.cookie });
    expect(listed.body.webhooks).toHaveLength(10);

    const eleventh = await api("POST", "/api/webhooks", { cookie: admin.cookie, json: { url: "https://hooks.example.org/11", events: ["student.created"] } });
    expectProblem(eleventh, 409, "WEBHOOK_LIMIT");
    expect(eleventh.body.detail).toContain("at most 10 webhooks");

    // The administrators' page says it in its own language.
    const session = admin.cookie;
    const csrf = withCsrf(session);
    for (const [locale, message] of [
      ["en", "An organization can have at most 10 webhooks. Remove one before adding another."],
      ["es", "Una organización puede tener como máximo 10 webhooks. Elimina uno antes de añadir otro."],
      ["pt-BR", "Uma organização pode ter no máximo 10 webhooks. Remova um antes de adicionar outro."],
    ] as const) {
      const page = await fetch(`${baseUrl()}/${locale}/admin/webhooks`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrf.cookie!, origin: baseUrl() },
        body: new URLSearchParams({ intent: "add", url: "https://hooks.example.org/page", events: "student.created", csrfToken: csrf["x-csrf-token"]! }),
        redirect: "manual",
      });
      expect(page.status, locale).toBe(409);
      expect(await page.text(), locale).toContain(message);
    }
    expect((await api("GET", "/api/webhooks", { cookie: admin.cookie })).body.webhooks).toHaveLength(10);
  });
});

describe("webhooks in production", () => {
  let instance: Instance | undefined;
  afterAll(async () => {
    await instance?.stop();
  });

  it("given NODE_ENV=production, should refuse an http address on create and update, and take https", { timeout: 120_000 }, async () => {
    const admin = await newOrganization("Production School");
    const token = (await api("POST", "/api/user/tokens", { cookie: admin.cookie, json: { name: unique("production check") } })).body;
    instance = await startInstance({
      env: { NODE_ENV: "production", SESSION_SECRET: "a-production-session-secret-of-enough-length", ENCRYPTION_KEY: TEST_ENCRYPTION_KEY },
    });
    const call = (method: string, path: string, json: unknown) =>
      fetch(`${instance!.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${token.token}`, "content-type": "application/json" },
        body: JSON.stringify(json),
      });

    const plain = await call("POST", "/api/webhooks", { url: "http://hooks.example.org/x", events: ["student.created"] });
    expect(plain.status).toBe(400);
    expect(((await plain.json()) as { errors: unknown[] }).errors).toEqual([{ path: "url", message: "Use an address starting with https://." }]);

    const secure = await call("POST", "/api/webhooks", { url: "https://hooks.example.org/x", events: ["student.created"] });
    expect(secure.status).toBe(201);
    const { id } = (await secure.json()) as { id: string };
    cleanup.push(() => api("DELETE", `/api/webhooks/${id}`, { cookie: admin.cookie }));
    const downgraded = await call("PUT", `/api/webhooks/${id}`, { url: "http://hooks.example.org/y" });
    expect(downgraded.status).toBe(400);
    expect((await api("GET", `/api/webhooks/${id}`, { cookie: admin.cookie })).body.url).toBe("https://hooks.example.org/x");
  });
});

describe("the delivery log", () => {
  it("given a closed port and a name that does not resolve, should log a generic reason without address or port", { timeout: 60_000 }, async () => {
    const admin = await newOrganization("Logged School");
    // A port that was open a moment ago and is closed now: the connection is refused.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const closed = await addWebhook(admin, `http://127.0.0.1:${port}/hooks`);
    const unresolved = await addWebhook(admin, "http://no-such-host.invalid/hooks");
    await addStudent(admin, "Logged");

    for (const [hook, reason] of [
      [closed, "connection failed"],
      [unresolved, "address refused"],
    ] as const) {
      await expect.poll(async () => (await deliveriesOf(admin, hook.id))[0]?.attempts, { timeout: 20_000 }).toBe(1);
      const [entry] = await deliveriesOf(admin, hook.id);
      expect(entry).toMatchObject({ status: "PENDING", lastStatusCode: null, lastError: reason });
    }
    const log = await api("GET", `/api/webhooks/${closed.id}/deliveries`, { cookie: admin.cookie });
    expect(log.text).not.toContain(String(port));
    expect(log.text).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|ENOTFOUND|getaddrinfo/);
  });
});

describe("a webhook removed during its delivery", () => {
  it("given the delivery under way, should end it quietly: no error in the server log", { timeout: 60_000 }, async () => {
    const admin = await newOrganization("Removing School");
    const waiting: ServerResponse[] = [];
    const slow = await receiver((_request, response) => waiting.push(response));
    const hook = await addWebhook(admin, `${slow.url}/hooks`);
    await addStudent(admin, "Removed");
    await expect.poll(() => waiting.length, { timeout: 20_000 }).toBe(1);
    const job = await testDatabase().job.findFirstOrThrow({ where: { concurrencyKey: `webhook:${hook.id}` }, select: { id: true } });

    // Removed while the delivery waits for its answer; then the receiver answers.
    expect((await api("DELETE", `/api/webhooks/${hook.id}`, { cookie: admin.cookie })).status).toBe(200);
    waiting[0]!.writeHead(204).end();

    // The job ends done (its delivery went with the webhook), and the server wrote nothing about it.
    await expect.poll(async () => (await testDatabase().job.findUniqueOrThrow({ where: { id: job.id } })).doneAt, { timeout: 20_000 }).not.toBeNull();
    expect(await testDatabase().job.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({ attempts: 1, lastError: null, failedAt: null });
    const serverLog = readFileSync(inject("serverLog"), "utf8");
    expect(serverLog.split("\n").filter((line) => line.includes(job.id))).toEqual([]);
  });
});
