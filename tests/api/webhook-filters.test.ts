import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, unique, withCsrf } from "../support/api.ts";
import { type CreatedForm, mediumAnswers, mixedForm } from "../support/assessment.ts";
import { testDatabase } from "../support/database.ts";
import { createOrganization, errorPaths, expectProblem, type OwnOrganization } from "../support/fixtures.ts";
import { checkWebhookBody } from "../support/response-contract.ts";

/**
 * Webhooks told only of some forms (`formIds`), `form.updated`, `submission.created` for each link
 * of a bulk assignment, and the test delivery of POST /api/webhooks/:id/test (docs/api-contract.md §23,
 * ADR 53), over real HTTP to a receiver on loopback. Every body the receiver gets is checked
 * against the OpenAPI document the service serves (its `webhooks`). The file makes its own
 * organizations, so other files' events and webhooks never meet these.
 */
type Organization = OwnOrganization;
type Received = { path: string; headers: IncomingHttpHeaders; body: string };
type Body = { type: string; timestamp: string; data: Record<string, unknown> };

const cleanup: (() => Promise<unknown>)[] = [];
const received: Received[] = [];
let receiver: Server;
let receiverUrl: string;
let school: Organization;
let elsewhere: Organization;

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      received.push({ path: request.url ?? "", headers: request.headers, body });
      response.writeHead(request.url === "/fail" ? 500 : 200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  [school, elsewhere] = await Promise.all([createOrganization("Filtered School"), createOrganization("Elsewhere School")]);
});

// Each test's webhooks go with it: an organization has at most 10.
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

async function addWebhook(body: { events: string[]; formIds?: string[] }, path = `/${unique("hook")}`) {
  const created = await api("POST", "/api/webhooks", { cookie: school.admin, json: { url: `${receiverUrl}${path}`, ...body } });
  expect(created.status, created.text).toBe(201);
  cleanup.push(() => api("DELETE", `/api/webhooks/${created.body.id}`, { cookie: school.admin }));
  return { ...(created.body as { id: string; secret: string; formIds: string[] }), path };
}

async function createForm(cookie = school.admin): Promise<CreatedForm> {
  const response = await api("POST", "/api/forms", { cookie, json: mixedForm() });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

async function createStudent(name = unique("Pupil")): Promise<{ id: string; name: string }> {
  const response = await api("POST", "/api/students", { cookie: school.admin, json: { name } });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

async function assign(formId: string, studentId: string): Promise<{ id: string; token: string }> {
  const response = await api("POST", "/api/submissions", { cookie: school.admin, json: { formId, studentId } });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

/** The bodies an endpoint received, of one type. */
const bodiesAt = (path: string, type: string) =>
  received.filter((r) => r.path === path).flatMap((r) => ((JSON.parse(r.body) as Body).type === type ? [JSON.parse(r.body) as Body] : []));

/** An address on a port nothing listens on: a server's, started and closed again. */
async function unreachableUrl() {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const { port } = closed.address() as AddressInfo;
  await new Promise((resolve) => closed.close(resolve));
  return `http://127.0.0.1:${port}/nobody`;
}

/** Every body an endpoint received, checked against the served document's `webhooks` (a mismatch throws). */
async function expectConforming(path: string) {
  const bodies = received.filter((r) => r.path === path);
  expect(bodies.length).toBeGreaterThan(0);
  for (const delivery of bodies) await checkWebhookBody(delivery.body);
}

/**
 * What was queued for a webhook, whenever it is sent: the deliveries are written in the change's
 * own transaction, so what is not here after the answer is never sent.
 */
const queuedFor = async (webhookId: string) =>
  (await testDatabase().webhookDelivery.findMany({ where: { webhookId }, select: { event: true, payload: true } })).map(
    (delivery) => JSON.parse(delivery.payload) as Body,
  );

describe("webhooks told of some forms", () => {
  it("given formIds, should deliver the events of those forms only, a person's events always, and every form's once emptied", async () => {
    const [chosen, other] = await Promise.all([createForm(), createForm()]);
    const filtered = await addWebhook({ events: ["submission.created", "student.created"], formIds: [chosen.id, chosen.id] });
    expect(filtered.formIds).toEqual([chosen.id]);
    const everyForm = await addWebhook({ events: ["submission.created"] });
    expect(everyForm.formIds).toEqual([]);
    expect((await api("GET", `/api/webhooks/${filtered.id}`, { cookie: school.admin })).body.formIds).toEqual([chosen.id]);

    const pupil = await createStudent();
    const ofChosen = await assign(chosen.id, pupil.id);
    const ofOther = await assign(other.id, pupil.id);

    await expect
      .poll(
        () =>
          bodiesAt(everyForm.path, "submission.created")
            .map((body) => body.data.id)
            .sort(),
        { timeout: 20_000 },
      )
      .toEqual([ofChosen.id, ofOther.id].sort());
    await expect.poll(() => bodiesAt(filtered.path, "submission.created").map((body) => body.data.id), { timeout: 20_000 }).toEqual([ofChosen.id]);
    // A person belongs to no form: told whatever the webhook's forms.
    await expect.poll(() => bodiesAt(filtered.path, "student.created").map((body) => body.data.id), { timeout: 20_000 }).toEqual([pupil.id]);
    // The other form's link was never queued for it.
    expect((await queuedFor(filtered.id)).map((body) => body.data.id).sort()).toEqual([pupil.id, ofChosen.id].sort());

    // No forms: every form's events again.
    const emptied = await api("PUT", `/api/webhooks/${filtered.id}`, { cookie: school.admin, json: { formIds: [] } });
    expect(emptied.body.formIds).toEqual([]);
    const later = await assign(other.id, (await createStudent()).id);
    await expect.poll(() => bodiesAt(filtered.path, "submission.created").some((body) => body.data.id === later.id), { timeout: 20_000 }).toBe(true);
    await expectConforming(filtered.path);
  });

  it("given PUT /api/forms/:id, should deliver form.updated with the form's id, title and time, signed, to the webhooks of that form", async () => {
    const [form, other] = await Promise.all([createForm(school.teacher), createForm(school.teacher)]);
    const hook = await addWebhook({ events: ["form.updated"], formIds: [form.id] });
    const title = unique("Renamed test");
    const updated = await api("PUT", `/api/forms/${form.id}`, { cookie: school.teacher, json: { title } });
    expect(updated.status, updated.text).toBe(200);
    expect((await api("PUT", `/api/forms/${other.id}`, { cookie: school.teacher, json: { title: unique("Not told") } })).status).toBe(200);

    await expect.poll(() => bodiesAt(hook.path, "form.updated").length, { timeout: 20_000 }).toBe(1);
    const delivery = received.find((r) => r.path === hook.path)!;
    const verified = new Webhook(hook.secret).verify(delivery.body, delivery.headers as Record<string, string>) as Body;
    expect(verified.data).toEqual({
      id: form.id,
      title,
      isPublished: true,
      isTemplate: false,
      updatedById: school.teacherId,
      updatedAt: updated.body.updatedAt,
    });
    // Publishing on the page is a change of the form too; the other form is never queued.
    expect((await api("PUT", `/api/forms/${form.id}`, { cookie: school.admin, json: { isPublished: false } })).status).toBe(200);
    await expect
      .poll(
        () =>
          bodiesAt(hook.path, "form.updated")
            .map((body) => body.data.isPublished)
            .sort(),
        { timeout: 20_000 },
      )
      .toEqual([false, true]);
    expect((await queuedFor(hook.id)).every((body) => body.data.id === form.id)).toBe(true);
    await expectConforming(hook.path);
  });

  it("given a bulk assignment of two people, should deliver one submission.created per link", async () => {
    const form = await createForm();
    const hook = await addWebhook({ events: ["submission.created"], formIds: [form.id] });
    const [ana, ben] = await Promise.all([createStudent(unique("Ana")), createStudent(unique("Ben"))]);
    const bulk = await api("POST", "/api/submissions/bulk", { cookie: school.admin, json: { formId: form.id, studentIds: [ana.id, ben.id] } });
    expect(bulk.status, bulk.text).toBe(201);
    const links = bulk.body.created as { id: string; student: { id: string } }[];
    expect(links).toHaveLength(2);

    await expect.poll(() => bodiesAt(hook.path, "submission.created").length, { timeout: 20_000 }).toBe(2);
    const told = bodiesAt(hook.path, "submission.created").map((body) => body.data);
    expect(told.map((data) => data.id).sort()).toEqual(links.map((link) => link.id).sort());
    for (const link of links) {
      expect(told.find((data) => data.id === link.id)).toMatchObject({
        formId: form.id,
        respondent: { kind: "student", id: link.student.id },
        expiresAt: null,
      });
    }
    // Each its own delivery, under its own id.
    expect(new Set(received.filter((r) => r.path === hook.path).map((r) => r.headers["webhook-id"])).size).toBe(2);
    await expectConforming(hook.path);
  });
});

describe("POST /api/webhooks/:id/test", () => {
  const deliveriesOf = async (webhookId: string) =>
    (await api("GET", `/api/webhooks/${webhookId}/deliveries`, { cookie: school.admin })).body.deliveries as {
      id: string;
      event: string;
      status: string;
      attempts: number;
      lastStatusCode: number | null;
      lastError: string | null;
    }[];

  it("given an endpoint that answers 200, should send a signed webhook.test at once, log it as delivered and say so", async () => {
    const hook = await addWebhook({ events: ["submission.completed"] });
    const test = await api("POST", `/api/webhooks/${hook.id}/test`, { cookie: school.admin });
    expect(test.status, test.text).toBe(200);
    expect(test.body).toEqual({ delivered: true, status: 200, error: null, deliveryId: expect.any(String) });
    // Sent before the answer: the receiver has it already.
    const delivery = received.find((r) => r.path === hook.path)!;
    expect(delivery.headers["webhook-id"]).toBe(test.body.deliveryId);
    const verified = new Webhook(hook.secret).verify(delivery.body, delivery.headers as Record<string, string>) as Body;
    expect(verified).toMatchObject({ type: "webhook.test", data: { webhookId: hook.id } });
    expect(await deliveriesOf(hook.id)).toEqual([
      expect.objectContaining({ id: test.body.deliveryId, event: "webhook.test", status: "SUCCEEDED", attempts: 1, lastStatusCode: 200, lastError: null }),
    ]);
    await expectConforming(hook.path);
  });

  it("given an endpoint that answers 500, or none at all, should say why it was not delivered, and never retry it", async () => {
    const failing = await addWebhook({ events: ["submission.completed"] }, "/fail");
    const refused = await api("POST", `/api/webhooks/${failing.id}/test`, { cookie: school.admin });
    expect(refused.body).toEqual({ delivered: false, status: 500, error: "answered 500", deliveryId: expect.any(String) });

    const created = await api("POST", "/api/webhooks", { cookie: school.admin, json: { url: await unreachableUrl(), events: ["student.created"] } });
    expect(created.status, created.text).toBe(201);
    cleanup.push(() => api("DELETE", `/api/webhooks/${created.body.id}`, { cookie: school.admin }));
    const unreachable = await api("POST", `/api/webhooks/${created.body.id}/test`, { cookie: school.admin });
    expect(unreachable.status).toBe(200);
    expect(unreachable.body).toEqual({ delivered: false, status: null, error: "connection failed", deliveryId: expect.any(String) });

    expect(await deliveriesOf(failing.id)).toEqual([expect.objectContaining({ event: "webhook.test", status: "FAILED", attempts: 1, lastStatusCode: 500 })]);
    expect(await deliveriesOf(created.body.id)).toEqual([
      expect.objectContaining({ event: "webhook.test", status: "FAILED", attempts: 1, lastStatusCode: null, lastError: "connection failed" }),
    ]);
    // Nothing queued to try them again.
    const jobs = await testDatabase().job.findMany({
      where: { kind: "webhook", concurrencyKey: { in: [`webhook:${failing.id}`, `webhook:${created.body.id}`] } },
    });
    expect(jobs).toEqual([]);
    await expectConforming(failing.path);
  });

  it("given another organization's administrator, a teacher or no such webhook, should answer 404, 403 and 404", async () => {
    const hook = await addWebhook({ events: ["student.created"] });
    expectProblem(await api("POST", `/api/webhooks/${hook.id}/test`, { cookie: elsewhere.admin }), 404, "NOT_FOUND");
    expectProblem(await api("POST", `/api/webhooks/${hook.id}/test`, { cookie: school.teacher }), 403, "FORBIDDEN");
    expectProblem(await api("POST", "/api/webhooks/cl0000000000000000000none/test", { cookie: school.admin }), 404, "NOT_FOUND");
    expect(received.filter((r) => r.path === hook.path)).toEqual([]);
  });
});

describe("a webhook's forms and events, checked", () => {
  it("given a form of another organization, an unknown one or a deleted one, should answer 400 naming each; webhook.test is no event to choose", async () => {
    const [ours, theirs, deleted] = await Promise.all([createForm(), createForm(elsewhere.admin), createForm()]);
    expect((await api("DELETE", `/api/forms/${deleted.id}`, { cookie: school.admin })).status).toBe(200);
    const url = `${receiverUrl}/${unique("checked")}`;

    const refused = await api("POST", "/api/webhooks", {
      cookie: school.admin,
      json: { url, events: ["form.updated"], formIds: [ours.id, theirs.id, "cl0000000000000000000none", deleted.id] },
    });
    expectProblem(refused, 400, "VALIDATION_FAILED");
    expect(errorPaths(refused)).toEqual(["formIds.1", "formIds.2", "formIds.3"]);
    expect(refused.body.errors[0].message).toBe("Choose a form of this organization.");
    expect(errorPaths(await api("POST", "/api/webhooks", { cookie: school.admin, json: { url, events: ["form.updated"], formIds: "all" } }))).toEqual([
      "formIds",
    ]);
    expect(errorPaths(await api("POST", "/api/webhooks", { cookie: school.admin, json: { url, events: ["webhook.test"] } }))).toEqual(["events.0"]);

    const hook = await addWebhook({ events: ["form.updated"], formIds: [ours.id] });
    expectProblem(await api("PUT", `/api/webhooks/${hook.id}`, { cookie: school.admin, json: { formIds: [theirs.id] } }), 400, "VALIDATION_FAILED");
    // Another organization's administrator cannot see it, nor a teacher change it.
    expectProblem(await api("PUT", `/api/webhooks/${hook.id}`, { cookie: elsewhere.admin, json: { formIds: [] } }), 404, "NOT_FOUND");
    expectProblem(await api("PUT", `/api/webhooks/${hook.id}`, { cookie: school.teacher, json: { formIds: [] } }), 403, "FORBIDDEN");
    // A form deleted after it was chosen may stay: what GET answered can be sent back.
    const kept = await api("PUT", `/api/webhooks/${hook.id}`, { cookie: school.admin, json: { formIds: [ours.id] } });
    expect(kept.status).toBe(200);
    expect((await api("GET", `/api/webhooks/${hook.id}`, { cookie: school.admin })).body.formIds).toEqual([ours.id]);
    expect((await api("DELETE", `/api/forms/${ours.id}`, { cookie: school.admin })).status).toBe(200);
    const again = await api("PUT", `/api/webhooks/${hook.id}`, { cookie: school.admin, json: { formIds: [ours.id] } });
    expect(again.status, again.text).toBe(200);
  });
});

describe("the webhooks page without JavaScript", () => {
  /** A page form posted as a browser without JavaScript does, with the administrator's session. */
  async function postPage(path: string, fields: [string, string][]) {
    const { cookie, "x-csrf-token": token } = withCsrf(school.admin);
    const response = await fetch(`${baseUrl()}${path}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookie!, origin: baseUrl() },
      body: new URLSearchParams([...fields, ["csrfToken", token!]]),
      redirect: "manual",
    });
    return { status: response.status, text: await response.text() };
  }

  it("given Spanish, Portuguese and English, should add a webhook for the forms ticked and say what each test delivery came to", async () => {
    const form = await createForm();
    const path = `/${unique("page-hook")}`;
    const added = await postPage("/es/admin/webhooks", [
      ["url", `${receiverUrl}${path}`],
      ["events", "form.updated"],
      ["formIds", form.id],
      ["intent", "add"],
    ]);
    expect(added.status).toBe(200);
    expect(added.text).toContain("Se añadió el webhook");
    const hook = (await api("GET", "/api/webhooks", { cookie: school.admin })).body.webhooks.find((w: { url: string }) => w.url === `${receiverUrl}${path}`);
    cleanup.push(() => api("DELETE", `/api/webhooks/${hook.id}`, { cookie: school.admin }));
    expect(hook).toMatchObject({ events: ["form.updated"], formIds: [form.id] });
    expect((await api("GET", "/es/admin/webhooks", { cookie: school.admin })).text).toContain(`Formularios: ${form.title}`);

    const delivered = await postPage("/es/admin/webhooks", [
      ["id", hook.id],
      ["intent", "test"],
    ]);
    expect(delivered.text).toContain("El aviso de prueba se entregó: el destino respondió 200.");
    await expectConforming(path);

    const failing = await addWebhook({ events: ["form.updated"] }, "/fail");
    const refused = await postPage("/pt-BR/admin/webhooks", [
      ["id", failing.id],
      ["intent", "test"],
    ]);
    expect(refused.text).toContain("O aviso de teste não foi entregue: o destino respondeu 500.");
    const unreachable = await api("POST", "/api/webhooks", {
      cookie: school.admin,
      json: { url: await unreachableUrl(), events: ["form.updated"] },
    });
    cleanup.push(() => api("DELETE", `/api/webhooks/${unreachable.body.id}`, { cookie: school.admin }));
    const unanswered = await postPage("/en/admin/webhooks", [
      ["id", unreachable.body.id],
      ["intent", "test"],
    ]);
    expect(unanswered.text).toContain("The test delivery did not arrive: could not connect.");
  });
});

describe("what each delivery holds", () => {
  it("given every kind of event, should send bodies that the served OpenAPI document's webhooks accept", { timeout: 60_000 }, async () => {
    const hook = await addWebhook({
      events: ["submission.completed", "submission.created", "form.updated", "student.created", "student.updated", "candidate.created", "candidate.promoted"],
    });
    const form = await createForm();
    expect((await api("PUT", `/api/forms/${form.id}`, { cookie: school.admin, json: { description: "Told to the webhook." } })).status).toBe(200);
    const pupil = await createStudent();
    expect((await api("PUT", `/api/students/${pupil.id}`, { cookie: school.admin, json: { name: unique("Renamed") } })).status).toBe(200);
    const link = await assign(form.id, pupil.id);
    expect((await api("POST", `/api/test-link/${link.token}/submit`, { json: mediumAnswers(form) })).status).toBe(200);
    const candidate = await api("POST", "/api/candidates", { cookie: school.admin, json: { name: unique("Hopeful") } });
    expect(candidate.status).toBe(201);
    expect((await api("POST", `/api/candidates/${candidate.body.id}/promote`, { cookie: school.admin })).status).toBe(201);
    expect((await api("POST", `/api/webhooks/${hook.id}/test`, { cookie: school.admin })).body.delivered).toBe(true);

    const types = () => [...new Set(received.filter((r) => r.path === hook.path).map((r) => (JSON.parse(r.body) as Body).type))].sort();
    await expect
      .poll(types, { timeout: 30_000 })
      .toEqual(
        [
          "submission.completed",
          "submission.created",
          "form.updated",
          "student.created",
          "student.updated",
          "candidate.created",
          "candidate.promoted",
          "webhook.test",
        ].sort(),
      );
    // Every body this file received, this test's and the others'.
    for (const delivery of received) await checkWebhookBody(delivery.body);
  });
});
