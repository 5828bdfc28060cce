import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { freePort } from "../../scripts/lib/free-port.ts";
import { api, unique } from "../support/api.ts";
import { assign, createForm } from "../support/assessment.ts";
import { testDatabase } from "../support/database.ts";
import { startSmtpServer } from "../support/smtp-server.ts";

/**
 * The job queue's retries, run in this process against the suite's database with a clock the test
 * moves: a link e-mailed while the mail server is down is tried again later, with back-off, and
 * delivered once the server is back. The job is due a year from now, so the suite's own server
 * (whose clock is the real one) leaves it alone.
 */
const smtpPort = await freePort();
const inbox = mkdtempSync(path.join(tmpdir(), "job-queue-inbox-"));

async function services() {
  process.env.DATABASE_URL = inject("databaseUrl");
  process.env.DATA_DIR ??= mkdtempSync(path.join(tmpdir(), "job-queue-"));
  process.env.SMTP_URL = `smtp://127.0.0.1:${smtpPort}`;
  const [{ runDueJobs, retryDelayMs, MAX_ATTEMPTS }, { JOB_HANDLERS }] = await Promise.all([
    import("../../app/features/jobs/jobs.server.ts"),
    import("../../app/features/jobs/job-handlers.server.ts"),
  ]);
  return { runDueJobs, retryDelayMs, MAX_ATTEMPTS, JOB_HANDLERS };
}

describe("the job queue", () => {
  it("given the mail server down, should retry with back-off and deliver once it is back", async () => {
    const { runDueJobs, retryDelayMs, JOB_HANDLERS } = await services();
    const form = await createForm("teacher@demo.test");
    const email = `${unique("retry").toLowerCase()}@pupils.test`;
    const student = await api("POST", "/api/students", { as: "teacher@demo.test", json: { name: "Rita Retry", email } });
    const link = await assign("teacher@demo.test", { formId: form.id, studentId: student.body.id });
    const inAYear = new Date(Date.now() + 365 * 86_400_000);
    const job = await testDatabase().job.create({ data: { kind: "sendLink", payload: { submissionId: link.id }, runAt: inAYear } });

    // Down: the attempt fails and the job waits 30 s.
    expect(await runDueJobs(JOB_HANDLERS, { now: () => inAYear })).toBe(1);
    const failed = await testDatabase().job.findUniqueOrThrow({ where: { id: job.id } });
    expect(failed).toMatchObject({ attempts: 1, doneAt: null, failedAt: null, lockedUntil: null });
    expect(failed.lastError).toMatch(/ECONNREFUSED|connect/i);
    expect(failed.runAt.getTime()).toBe(inAYear.getTime() + retryDelayMs(1));
    // Not due yet a second later.
    expect(await runDueJobs(JOB_HANDLERS, { now: () => new Date(inAYear.getTime() + 1000) })).toBe(0);

    // Back: the next attempt, once due, delivers, and the link counts one send.
    const smtp = await startSmtpServer(inbox, smtpPort);
    try {
      expect(await runDueJobs(JOB_HANDLERS, { now: () => new Date(inAYear.getTime() + retryDelayMs(1)) })).toBe(1);
    } finally {
      await smtp.close();
    }
    const done = await testDatabase().job.findUniqueOrThrow({ where: { id: job.id } });
    expect(done).toMatchObject({ attempts: 2, lastError: null });
    expect(done.doneAt).not.toBeNull();
    expect(readdirSync(inbox)).toHaveLength(1);
    expect((await testDatabase().submission.findUniqueOrThrow({ where: { id: link.id } })).sendCount).toBe(1);
    // Done is done.
    expect(await runDueJobs(JOB_HANDLERS, { now: () => new Date(inAYear.getTime() + 86_400_000) })).toBe(0);
  });

  it("given a job that keeps failing, should give up after the last attempt and say why", async () => {
    const { runDueJobs, MAX_ATTEMPTS, retryDelayMs } = await services();
    let when = new Date(Date.now() + 400 * 86_400_000);
    const job = await testDatabase().job.create({ data: { kind: "sendLink", payload: { submissionId: "gone" }, runAt: when } });
    const failing = { sendLink: async () => Promise.reject(new Error("mail server says no")) };
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      expect(await runDueJobs(failing, { now: () => when })).toBe(1);
      when = new Date(when.getTime() + retryDelayMs(attempt));
    }
    const given = await testDatabase().job.findUniqueOrThrow({ where: { id: job.id } });
    expect(given).toMatchObject({ attempts: MAX_ATTEMPTS, lastError: "mail server says no", doneAt: null });
    expect(given.failedAt).not.toBeNull();
    expect(await runDueJobs(failing, { now: () => new Date(when.getTime() + 86_400_000) })).toBe(0);
  });
});
