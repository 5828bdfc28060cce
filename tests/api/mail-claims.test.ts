import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { api, unique } from "../support/api.ts";
import { createForm } from "../support/assessment.ts";
import { testDatabase } from "../support/database.ts";
import { mailTo, waitForMail } from "../support/mail.ts";
import { waitFor } from "../support/wait.ts";

/**
 * Each e-mail about a link is claimed once (ADR 45): identical requests at once ("remind now"
 * clicked ten times, ten sends) queue one message, counted in the loopback SMTP server's inbox; and
 * `remindedAt` says what the mail server accepted, so a refused reminder leaves the automatic one
 * to go out.
 */
async function pupilWithLink(options: { email?: string; remindAfterDays?: number } = {}) {
  const email = options.email ?? `${unique("claim").toLowerCase()}@pupils.test`;
  const student = await api("POST", "/api/students", { as: "teacher@demo.test", json: { name: unique("Claimed"), email } });
  expect(student.status).toBe(201);
  const form = await createForm("teacher@demo.test");
  const bulk = await api("POST", "/api/submissions/bulk", {
    as: "teacher@demo.test",
    json: { formId: form.id, studentIds: [student.body.id], ...(options.remindAfterDays ? { remindAfterDays: options.remindAfterDays } : {}) },
  });
  expect(bulk.status).toBe(201);
  return { email, form, studentId: student.body.id as string, link: bulk.body.created[0] as { id: string; token: string } };
}

const mailJobsOf = (submissionId: string) =>
  testDatabase().job.findMany({
    where: { submissionId, kind: { in: ["sendLink", "remind"] } },
    select: { id: true, kind: true, runAt: true, doneAt: true, attempts: true, lastError: true },
  });

describe("one e-mail per claim", () => {
  it("given remind now ten times at once, should queue and send one reminder", async () => {
    const { email, form, link } = await pupilWithLink();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => api("POST", "/api/submissions/remind", { as: "teacher@demo.test", json: { formId: form.id } })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(202));
    expect(answers.reduce((sum, answer) => sum + answer.body.queued, 0)).toBe(1);
    expect(answers.reduce((sum, answer) => sum + answer.body.recentlySent, 0)).toBe(9);

    const jobs = await waitFor(
      () => mailJobsOf(link.id),
      (rows) => rows.every((row) => row.doneAt !== null),
      "the reminder to go out",
    );
    expect(jobs).toHaveLength(1);
    const mails = await mailTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`Reminder: ${form.title} is waiting for your answers`);
  });

  it("given the same link sent ten times at once, should queue one e-mail and refuse the others with 429 and Retry-After", async () => {
    const { email, link } = await pupilWithLink();
    const answers = await Promise.all(Array.from({ length: 10 }, () => api("POST", `/api/submissions/${link.id}/send`, { as: "teacher@demo.test" })));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([202, ...Array(9).fill(429)]);
    for (const refused of answers.filter((answer) => answer.status === 429)) {
      expect(refused.body.code).toBe("RATE_LIMITED");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(500);
    }

    const jobs = await waitFor(
      () => mailJobsOf(link.id),
      (rows) => rows.every((row) => row.doneAt !== null),
      "the link to go out",
    );
    expect(jobs).toHaveLength(1);
    await waitForMail(email);
    expect(await mailTo(email)).toHaveLength(1);
    const sent = await waitFor(
      () => api("GET", `/api/submissions/${link.id}`, { as: "teacher@demo.test" }),
      (r) => r.body.sendCount === 1,
      "sendCount",
    );
    expect(sent.body.sentAt).not.toBeNull();
  });

  it("given a message still waiting for the mail server, should refuse another send even after 10 minutes", async () => {
    // Refused for now (451): it is tried again later.
    const { link } = await pupilWithLink({ email: `busy-${unique("wait").toLowerCase()}@pupils.test` });
    expect((await api("POST", `/api/submissions/${link.id}/send`, { as: "teacher@demo.test" })).status).toBe(202);
    await waitFor(
      () => mailJobsOf(link.id),
      (rows) => rows[0]?.lastError != null,
      "the mail server's refusal",
    );
    // Eleven minutes on, as far as the link knows: the message is still to be tried again.
    await testDatabase().submission.update({ where: { id: link.id }, data: { mailQueuedAt: new Date(Date.now() - 11 * 60_000) } });
    const again = await api("POST", `/api/submissions/${link.id}/send`, { as: "teacher@demo.test" });
    expect(again.status).toBe(429);
    expect(Number(again.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await mailJobsOf(link.id)).toHaveLength(1);
    const reminded = await api("POST", "/api/submissions/remind", {
      as: "teacher@demo.test",
      json: { formId: (await testDatabase().submission.findUniqueOrThrow({ where: { id: link.id } })).formId },
    });
    expect(reminded.body).toEqual({ queued: 0, noEmail: 0, recentlySent: 1 });
  });
});

describe("what the mail server accepted", () => {
  it("given a reminder the mail server refuses, should leave remindedAt empty and the automatic reminder to go out", async () => {
    const { form, link, studentId } = await pupilWithLink({ email: `refused-${unique("remind").toLowerCase()}@pupils.test`, remindAfterDays: 3 });
    const reminded = await api("POST", "/api/submissions/remind", { as: "teacher@demo.test", json: { formId: form.id } });
    expect(reminded.body).toEqual({ queued: 1, noEmail: 0, recentlySent: 0 });
    const jobs = await waitFor(
      () => mailJobsOf(link.id),
      (rows) => rows.some((row) => row.lastError !== null),
      "the mail server's refusal",
    );
    expect(jobs.find((job) => job.lastError !== null)!.lastError).toMatch(/550|rejected/i);
    const refused = await api("GET", `/api/submissions/${link.id}`, { as: "teacher@demo.test" });
    expect(refused.body.remindedAt).toBeNull();
    expect(refused.body.sentAt).toBeNull();

    // The pupil's address is corrected; three days on, the automatic reminder goes out (run here,
    // with the clock moved, against the suite's mail server).
    const fixed = `${unique("fixed").toLowerCase()}@pupils.test`;
    expect((await api("PUT", `/api/students/${studentId}`, { as: "teacher@demo.test", json: { email: fixed } })).status).toBe(200);
    const scheduled = jobs.find((job) => job.kind === "remind" && job.runAt.getTime() > Date.now() + 2 * 86_400_000)!;
    expect(scheduled).toBeDefined();
    process.env.DATABASE_URL = inject("databaseUrl");
    process.env.DATA_DIR ??= mkdtempSync(path.join(tmpdir(), "mail-claims-"));
    process.env.SMTP_URL = inject("smtpUrl");
    const [{ runDueJobs }, { JOB_HANDLERS }] = await Promise.all([
      import("../../app/features/jobs/jobs.server.ts"),
      import("../../app/features/jobs/job-handlers.server.ts"),
    ]);
    expect(await runDueJobs(JOB_HANDLERS, { now: () => new Date(scheduled.runAt.getTime() + 60_000), only: [scheduled.id] })).toBe(1);
    const mail = await waitForMail(fixed);
    expect(mail.subject).toBe(`Reminder: ${form.title} is waiting for your answers`);
    expect((await api("GET", `/api/submissions/${link.id}`, { as: "teacher@demo.test" })).body.remindedAt).not.toBeNull();
  });
});
