import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, unique } from "../support/api.ts";
import { assign, createForm, createStudent, mediumAnswers } from "../support/assessment.ts";
import { testDatabase } from "../support/database.ts";
import { waitForMail } from "../support/mail.ts";
import { startInstance, type Instance } from "../support/instance.ts";
import { checkWebhookBody } from "../support/response-contract.ts";

/**
 * Webhooks (docs/api-contract.md §14) over real HTTP, to a receiver on loopback (the suite's server allows
 * private addresses; an instance started without that setting refuses them): one signed delivery
 * per completion, checked with the `standardwebhooks` verifier; retries after a 500; "send again";
 * scope. The other organization's administrator is used, so the demo organization's traffic from
 * other test files stays out of these deliveries.
 */
const admin = "admin@other.test" as const;
const teacher = "teacher@other.test" as const;

type Received = { url: string | undefined; headers: IncomingHttpHeaders; body: string };
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
/** How many of the next requests answer 500. */
let failNext = 0;
const cleanup: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      received.push({ url: request.url, headers: request.headers, body });
      // An endpoint the receiver removed: every request to it answers 410 Gone.
      const gone = request.url === "/gone";
      const failing = !gone && failNext > 0;
      if (failing) failNext--;
      response.writeHead(gone ? 410 : failing ? 500 : 204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});

afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
  await new Promise((resolve) => receiver.close(resolve));
});

async function addWebhook(events: string[], url = receiverUrl) {
  const created = await api("POST", "/api/webhooks", { as: admin, json: { url, events } });
  expect(created.status, created.text).toBe(201);
  cleanup.push(() => api("DELETE", `/api/webhooks/${created.body.id}`, { as: admin }));
  return created.body as { id: string; secret: string; url: string; events: string[] };
}

/** The deliveries of one event about one thing (other files' events may reach the same receiver). */
const deliveriesAbout = (type: string, id: string) =>
  received.filter((r) => {
    const body = JSON.parse(r.body) as { type: string; data: { id?: string } };
    return body.type === type && body.data.id === id;
  });

/** Runs the queued webhook jobs now instead of after their back-off: the test moves the clock of its jobs. */
const runRetriesNow = () =>
  testDatabase().job.updateMany({ where: { kind: "webhook", doneAt: null, failedAt: null }, data: { runAt: new Date(Date.now() - 1000) } });

describe("webhooks", () => {
  it("given a completion, should post it once, signed, with the report item and the form's id", async () => {
    const hook = await addWebhook(["submission.completed"]);
    expect(hook.secret).toMatch(/^whsec_/);
    const listed = await api("GET", "/api/webhooks", { as: admin });
    expect(listed.text).not.toContain(hook.secret);

    const form = await createForm(teacher);
    const student = await createStudent(teacher, unique("Hooked"));
    const link = await assign(teacher, { formId: form.id, studentId: student.id });
    expect((await api("POST", `/api/test-link/${link.token}/submit`, { json: mediumAnswers(form) })).status).toBe(200);

    await expect.poll(() => deliveriesAbout("submission.completed", link.id).length, { timeout: 20_000 }).toBe(1);
    const [delivery] = deliveriesAbout("submission.completed", link.id);
    const verified = new Webhook(hook.secret).verify(delivery!.body, delivery!.headers as Record<string, string>) as {
      type: string;
      data: Record<string, unknown>;
    };
    expect(verified.data).toMatchObject({ id: link.id, formId: form.id, studentName: student.name, totalScore: 1, scoreLabel: "Medium" });
    // As the served OpenAPI document's webhooks describe it.
    await checkWebhookBody(delivery!.body);
    // A tampered body fails the same check.
    expect(() =>
      new Webhook(hook.secret).verify(delivery!.body.replace('"totalScore":1', '"totalScore":9'), delivery!.headers as Record<string, string>),
    ).toThrow();

    // The receiver has the body before the worker records the answer: the log follows a moment later.
    const entryOf = async () => {
      const log = await api("GET", `/api/webhooks/${hook.id}/deliveries`, { as: admin });
      return log.body.deliveries.find((d: { id: string }) => d.id === delivery!.headers["webhook-id"]);
    };
    await expect.poll(async () => (await entryOf())?.status, { timeout: 20_000 }).toBe("SUCCEEDED");
    expect(await entryOf()).toMatchObject({ event: "submission.completed", status: "SUCCEEDED", attempts: 1, lastStatusCode: 204 });
    // No second delivery arrives for the same completion.
    expect(deliveriesAbout("submission.completed", link.id)).toHaveLength(1);
  });

  it("given a receiver that answers 500, should retry with the same id until it succeeds, and send again on demand", async () => {
    const hook = await addWebhook(["student.created"]);
    failNext = 1;
    const student = await createStudent(admin, unique("Retried"));
    await expect.poll(() => deliveriesAbout("student.created", student.id).length, { timeout: 20_000 }).toBe(1);
    // This delivery, by its id: other files may add students to this organization meanwhile.
    const deliveryId = String(deliveriesAbout("student.created", student.id)[0]!.headers["webhook-id"]);
    const entry = async () =>
      (
        (await api("GET", `/api/webhooks/${hook.id}/deliveries`, { as: admin })).body.deliveries as {
          id: string;
          status: string;
          attempts: number;
          lastStatusCode: number;
        }[]
      ).find((delivery) => delivery.id === deliveryId);
    await expect.poll(async () => (await entry())?.lastStatusCode, { timeout: 20_000 }).toBe(500);
    expect(await entry()).toMatchObject({ status: "PENDING", attempts: 1 });

    await runRetriesNow();
    await expect.poll(() => deliveriesAbout("student.created", student.id).length, { timeout: 20_000 }).toBe(2);
    const [first, second] = deliveriesAbout("student.created", student.id);
    expect(second!.headers["webhook-id"]).toBe(first!.headers["webhook-id"]);
    expect(second!.body).toBe(first!.body);
    await expect.poll(async () => (await entry())?.status, { timeout: 20_000 }).toBe("SUCCEEDED");
    expect(await entry()).toMatchObject({ attempts: 2, lastStatusCode: 204 });

    const again = await api("POST", `/api/webhooks/${hook.id}/deliveries/${deliveryId}/resend`, { as: admin });
    expect(again.status).toBe(202);
    await expect.poll(() => deliveriesAbout("student.created", student.id).length, { timeout: 20_000 }).toBe(3);
  });

  it("given a receiver that answers 410 Gone, should fail the delivery at once, without a retry, and tell the administrator why", async () => {
    const hook = await addWebhook(["student.created"], receiverUrl.replace(/\/hooks$/, "/gone"));
    await createStudent(admin, unique("Gone"));
    // This endpoint's one delivery (the other tests' endpoints get the event too).
    const entry = async () =>
      ((await api("GET", `/api/webhooks/${hook.id}/deliveries`, { as: admin })).body.deliveries as { id: string; status: string; attempts: number }[])[0];
    await expect.poll(async () => (await entry())?.status, { timeout: 20_000 }).toBe("FAILED");
    const failed = (await entry())!;
    const deliveryId = failed.id;
    expect(failed).toMatchObject({ status: "FAILED", lastStatusCode: 410, lastError: "endpoint gone (410)" });
    // The try answered 410 was the last. (It is the first, unless the machine was loaded enough
    // for a try to time out: that one is retried 5 s later, as any failure is.)
    expect(received.some((request) => request.url === "/gone" && request.headers["webhook-id"] === deliveryId)).toBe(true);
    // Its job ended with that try: nothing is left to run, whenever.
    const jobs = (await testDatabase().job.findMany({ where: { kind: "webhook", concurrencyKey: `webhook:${hook.id}` } })).filter(
      (job) => (job.payload as { deliveryId: string }).deliveryId === deliveryId,
    );
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ attempts: failed.attempts, doneAt: null, lockedUntil: null });
    expect(jobs[0]!.failedAt).not.toBeNull();
    expect(jobs[0]!.lastError).toContain("410");

    // The administrator reads why, in Spanish, on the webhooks page.
    const page = await api("GET", "/es/admin/webhooks", { as: admin });
    expect(page.text).toContain("el destino respondió 410 Gone, así que no se vuelve a intentar");
  });

  it("given an endpoint that does not answer, should still e-mail a pupil's link meanwhile (deliveries have lanes of their own)", async () => {
    // A receiver that holds every request until told to answer.
    const held: { response: import("node:http").ServerResponse; body: string }[] = [];
    const slow = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString()));
      request.on("end", () => held.push({ response, body }));
    });
    await new Promise<void>((resolve) => slow.listen(0, "127.0.0.1", resolve));
    try {
      const created = await api("POST", "/api/webhooks", {
        as: admin,
        json: { url: `http://127.0.0.1:${(slow.address() as AddressInfo).port}/slow`, events: ["student.created"] },
      });
      cleanup.push(() => api("DELETE", `/api/webhooks/${created.body.id}`, { as: admin }));
      const waiting = await createStudent(admin, unique("Waited on"));
      await expect.poll(() => held.some((entry) => entry.body.includes(waiting.id)), { timeout: 20_000 }).toBe(true);

      // While that delivery waits for its answer, a link is e-mailed.
      const email = `${unique("pupil")}@lanes.test`.toLowerCase();
      const pupil = (await api("POST", "/api/students", { as: teacher, json: { name: unique("Emailed"), email } })).body;
      const form = await createForm(teacher);
      const link = await assign(teacher, { formId: form.id, studentId: pupil.id });
      expect((await api("POST", `/api/submissions/${link.id}/send`, { as: teacher })).status).toBe(202);
      expect((await waitForMail(email)).text).toContain(link.token);
      // The delivery's attempt is still under way: nothing recorded on it yet. (In one shared lane the
      // e-mail would only have gone after that attempt ended, recorded as attempt 1.)
      const log = await api("GET", `/api/webhooks/${created.body.id}/deliveries`, { as: admin });
      expect(log.body.deliveries.find((d: { id: string; attempts: number }) => d.attempts === 0)).toBeDefined();
      expect(held.filter((entry) => !entry.response.writableEnded).length).toBeGreaterThan(0);
    } finally {
      for (const entry of held) entry.response.writeHead(204).end();
      await new Promise((resolve) => slow.close(resolve));
    }
  });

  it("given a teacher or another organization's administrator, should refuse (403, 404); a bad address or no event, 400", async () => {
    const hook = await addWebhook(["candidate.promoted"]);
    expect((await api("GET", "/api/webhooks", { as: teacher })).status).toBe(403);
    expect((await api("GET", `/api/webhooks/${hook.id}`, { as: "admin@demo.test" })).status).toBe(404);
    expect((await api("DELETE", `/api/webhooks/${hook.id}`, { as: "admin@demo.test" })).status).toBe(404);
    const bad = await api("POST", "/api/webhooks", { as: admin, json: { url: "ftp://example.org/x", events: [] } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(["events", "url"]);
    const updated = await api("PUT", `/api/webhooks/${hook.id}`, { as: admin, json: { events: ["submission.created", "submission.created"] } });
    expect(updated.body.events).toEqual(["submission.created"]);
  });
});

describe("webhooks in production settings", () => {
  let instance: Instance;
  afterAll(async () => {
    await instance?.stop();
  });

  it("given an instance that allows no private addresses, should refuse loopback and private endpoints", { timeout: 120_000 }, async () => {
    // A token of the administrator: the instance shares the database, and needs no sign-in or CSRF.
    const token = (await api("POST", "/api/user/tokens", { as: admin, json: { name: unique("webhook check") } })).body;
    cleanup.push(() => api("DELETE", `/api/user/tokens/${token.id}`, { as: admin }));
    instance = await startInstance();
    for (const url of ["http://127.0.0.1/hooks", "http://10.0.0.1/hooks", "http://[::1]:8080/x", "http://169.254.169.254/latest"]) {
      const response = await fetch(`${instance.baseUrl}/api/webhooks`, {
        method: "POST",
        headers: { authorization: `Bearer ${token.token}`, "content-type": "application/json" },
        body: JSON.stringify({ url, events: ["submission.completed"] }),
      });
      expect(response.status, url).toBe(400);
      const body = (await response.json()) as { errors: { path: string; message: string }[] };
      expect(body.errors[0]).toMatchObject({ path: "url", message: "Webhooks cannot post to loopback, private or link-local addresses." });
    }
  });
});
