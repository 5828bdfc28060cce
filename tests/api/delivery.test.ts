import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, unique } from "../support/api.ts";
import { createForm } from "../support/assessment.ts";
import { testDatabase } from "../support/database.ts";
import { mailTo, waitForMail } from "../support/mail.ts";
import { startInstance, type Instance } from "../support/instance.ts";
import { waitFor } from "../support/wait.ts";

/**
 * Links sent by e-mail through the durable job queue, with the loopback SMTP server (docs/api-contract.md §10,
 * ADR 20): one message per respondent, a resend at most every 10 minutes, and exactly once with
 * two instances working the same queue.
 */
async function studentWithEmail(name = unique("Mailed")) {
  const email = `${unique("to").toLowerCase()}@pupils.test`;
  const response = await api("POST", "/api/students", { as: "teacher@demo.test", json: { name, email } });
  return { ...(response.body as { id: string; name: string }), email };
}

describe("delivery of links by e-mail", () => {
  it("given send: true, should e-mail each respondent with an address once, with a working link in the teacher's language, and report those without one", async () => {
    const form = await createForm("teacher@demo.test");
    const [ana, bruno] = await Promise.all([studentWithEmail("Ana Lima"), studentWithEmail("Bruno Reis")]);
    const silent = await api("POST", "/api/students", { as: "teacher@demo.test", json: { name: unique("No address") } });
    const response = await api("POST", "/api/submissions/bulk", {
      as: "teacher@demo.test",
      json: { formId: form.id, studentIds: [ana.id, bruno.id, silent.body.id], send: true, expiresAt: "2099-06-30T12:00:00Z" },
    });
    expect(response.status).toBe(201);
    const delivery = Object.fromEntries(response.body.created.map((s: { student: { id: string }; delivery: string }) => [s.student.id, s.delivery]));
    expect(delivery).toEqual({ [ana.id]: "QUEUED", [bruno.id]: "QUEUED", [silent.body.id]: "NO_EMAIL" });

    const mail = await waitForMail(ana.email);
    expect(mail.subject).toBe(`A test for you: ${form.title}`);
    expect(mail.text).toContain("Hello Ana Lima,");
    expect(mail.text).toContain("Demo School");
    expect(mail.text).toContain("2099");
    const url = /https?:\/\/\S+\/en\/test\/[\w-]+/.exec(mail.text)?.[0];
    expect(url).toBeDefined();
    const token = url!.split("/").pop()!;
    expect((await api("GET", `/api/test-link/${token}`)).status).toBe(200);
    await waitForMail(bruno.email);

    const anaLink = response.body.created.find((s: { student: { id: string } }) => s.student.id === ana.id);
    const sent = await waitFor(
      () => api("GET", `/api/submissions/${anaLink.id}`, { as: "teacher@demo.test" }),
      (r) => r.body.sendCount === 1,
      "sendCount",
    );
    expect(sent.body.sentAt).not.toBeNull();
    expect(await mailTo(ana.email)).toHaveLength(1);
  });

  it("given a resend, should refuse it within 10 minutes of the last (429), then send it again once that time has passed", async () => {
    const form = await createForm("teacher@demo.test");
    const pupil = await studentWithEmail();
    const bulk = await api("POST", "/api/submissions/bulk", { as: "teacher@demo.test", json: { formId: form.id, studentIds: [pupil.id], send: true } });
    const id = bulk.body.created[0].id;
    await waitForMail(pupil.email);
    await waitFor(
      () => api("GET", `/api/submissions/${id}`, { as: "teacher@demo.test" }),
      (r) => r.body.sendCount === 1,
      "the first send",
    );
    const tooSoon = await api("POST", `/api/submissions/${id}/send`, { as: "teacher@demo.test" });
    expect(tooSoon.status).toBe(429);
    expect(Number(tooSoon.headers.get("retry-after"))).toBeGreaterThan(500);
    // Eleven minutes later, as far as the link knows (the interval counts from when it was queued).
    await testDatabase().submission.update({ where: { id }, data: { mailQueuedAt: new Date(Date.now() - 11 * 60_000) } });
    expect((await api("POST", `/api/submissions/${id}/send`, { as: "teacher@demo.test" })).status).toBe(202);
    await waitForMail(pupil.email, 1);
    await waitFor(
      () => api("GET", `/api/submissions/${id}`, { as: "teacher@demo.test" }),
      (r) => r.body.sendCount === 2,
      "the second send",
    );
  });

  it("given no address, a withdrawn link, a completed one or a colleague's, should refuse to send", async () => {
    const form = await createForm("teacher@demo.test");
    const silent = await api("POST", "/api/students", { as: "teacher@demo.test", json: { name: unique("Silent") } });
    const pupil = await studentWithEmail();
    const bulk = await api("POST", "/api/submissions/bulk", { as: "teacher@demo.test", json: { formId: form.id, studentIds: [silent.body.id, pupil.id] } });
    const [noAddress, withAddress] = [silent.body.id, pupil.id].map(
      (sid) => bulk.body.created.find((s: { student: { id: string } }) => s.student.id === sid).id,
    );
    const none = await api("POST", `/api/submissions/${noAddress}/send`, { as: "teacher@demo.test" });
    expect(none.status).toBe(409);
    expect(none.body.code).toBe("NO_EMAIL");
    expect((await api("POST", `/api/submissions/${withAddress}/send`, { as: "teacher2@demo.test" })).status).toBe(404);
    await api("POST", `/api/submissions/${withAddress}/revoke`, { as: "teacher@demo.test" });
    const revoked = await api("POST", `/api/submissions/${withAddress}/send`, { as: "teacher@demo.test" });
    expect(revoked.status).toBe(410);
    expect(revoked.body.code).toBe("LINK_REVOKED");
    expect(await mailTo(pupil.email)).toEqual([]);
  });
});

describe("the job queue with two instances", () => {
  let second: Instance;

  beforeAll(async () => {
    // A second instance on the same database and mail server, its worker as eager as the first's.
    second = await startInstance({ env: { JOB_POLL_MS: "50", SMTP_URL: inject("smtpUrl") } });
  }, 120_000);

  afterAll(async () => {
    await second?.stop();
  });

  it("given 40 links e-mailed at once, should deliver each exactly once", async () => {
    const form = await createForm("teacher@demo.test");
    const pupils = await Promise.all(Array.from({ length: 40 }, () => studentWithEmail()));
    const bulk = await api("POST", "/api/submissions/bulk", {
      as: "teacher@demo.test",
      json: { formId: form.id, studentIds: pupils.map((p) => p.id), send: true },
    });
    expect(bulk.status).toBe(201);
    const ids = bulk.body.created.map((s: { id: string }) => s.id);
    await waitFor(
      () => testDatabase().submission.count({ where: { id: { in: ids }, sendCount: { gt: 0 } } }),
      (count) => count === 40,
      "40 sends",
    );
    const counts = await Promise.all(pupils.map(async (p) => (await mailTo(p.email)).length));
    expect(counts).toEqual(Array(40).fill(1));
    expect(await testDatabase().submission.count({ where: { id: { in: ids }, sendCount: { not: 1 } } })).toBe(0);
  });
});
