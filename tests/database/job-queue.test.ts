import { randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { freePort } from "../../scripts/lib/free-port.ts";
import { api, unique } from "../support/api.ts";
import { assign, createForm, mediumAnswers } from "../support/assessment.ts";
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
  const [jobs, { JOB_HANDLERS }] = await Promise.all([
    import("../../app/features/jobs/jobs.server.ts"),
    import("../../app/features/jobs/job-handlers.server.ts"),
  ]);
  const { runDueJobs, maxAttempts, GROUP_RUNS, LEASE_MS, HEARTBEAT_MS, MAX_RUN_MS, startJobWorker } = jobs;
  /** The wait after failed attempt `attempts` (of an e-mail unless said), never the end of the schedule. */
  const retryDelayMs = (attempts: number, kind: "sendLink" | "webhook" = "sendLink") => jobs.retryDelayMs(kind, attempts) ?? Number.NaN;
  return { runDueJobs, retryDelayMs, maxAttempts, GROUP_RUNS, LEASE_MS, HEARTBEAT_MS, MAX_RUN_MS, startJobWorker, JOB_HANDLERS };
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

    const only = [job.id];
    // Down: the attempt fails and the job waits a minute.
    expect(await runDueJobs(JOB_HANDLERS, { now: () => inAYear, only })).toBe(1);
    const failed = await testDatabase().job.findUniqueOrThrow({ where: { id: job.id } });
    expect(failed).toMatchObject({ attempts: 1, doneAt: null, failedAt: null, lockedUntil: null });
    expect(failed.lastError).toMatch(/ECONNREFUSED|connect/i);
    expect(failed.runAt.getTime()).toBe(inAYear.getTime() + retryDelayMs(1));
    // Not due yet a second later.
    expect(await runDueJobs(JOB_HANDLERS, { now: () => new Date(inAYear.getTime() + 1000), only })).toBe(0);

    // Back: the next attempt, once due, delivers, and the link counts one send.
    const smtp = await startSmtpServer(inbox, smtpPort);
    try {
      expect(await runDueJobs(JOB_HANDLERS, { now: () => new Date(inAYear.getTime() + retryDelayMs(1)), only })).toBe(1);
    } finally {
      await smtp.close();
    }
    const done = await testDatabase().job.findUniqueOrThrow({ where: { id: job.id } });
    expect(done).toMatchObject({ attempts: 2, lastError: null });
    expect(done.doneAt).not.toBeNull();
    expect(readdirSync(inbox)).toHaveLength(1);
    expect((await testDatabase().submission.findUniqueOrThrow({ where: { id: link.id } })).sendCount).toBe(1);
    // Done is done.
    expect(await runDueJobs(JOB_HANDLERS, { now: () => new Date(inAYear.getTime() + 86_400_000), only })).toBe(0);
  });

  it("given a job that keeps failing, should retry an e-mail over about a day and a webhook over about three, then give up and say why", async () => {
    const { runDueJobs, maxAttempts, retryDelayMs } = await services();
    const fail = async () => Promise.reject(new Error("mail server says no"));
    const failing = { sendLink: fail, remind: fail, flagAlert: fail, webhook: fail };
    for (const [kind, hours] of [
      ["sendLink", [20, 26]],
      ["webhook", [60, 75]],
    ] as const) {
      const first = new Date(Date.now() + 400 * 86_400_000);
      let when = first;
      const job = await testDatabase().job.create({ data: { kind, payload: { submissionId: "gone", deliveryId: "gone" }, runAt: when } });
      const only = [job.id];
      for (let attempt = 1; attempt <= maxAttempts(kind); attempt++) {
        expect(await runDueJobs(failing, { now: () => when, only })).toBe(1);
        if (attempt === maxAttempts(kind)) break;
        // Not a moment early.
        expect(await runDueJobs(failing, { now: () => new Date(when.getTime() + retryDelayMs(attempt, kind) - 1000), only })).toBe(0);
        when = new Date(when.getTime() + retryDelayMs(attempt, kind));
      }
      const given = await testDatabase().job.findUniqueOrThrow({ where: { id: job.id } });
      expect(given).toMatchObject({ attempts: maxAttempts(kind), lastError: "mail server says no", doneAt: null });
      expect(given.failedAt).not.toBeNull();
      const spanHours = (when.getTime() - first.getTime()) / 3_600_000;
      expect(spanHours).toBeGreaterThan(hours[0]);
      expect(spanHours).toBeLessThan(hours[1]);
      expect(await runDueJobs(failing, { now: () => new Date(when.getTime() + 30 * 86_400_000), only })).toBe(0);
    }
    // Standard Webhooks' schedule: at once, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h...
    expect([1, 2, 3, 4, 5, 6].map((attempt) => retryDelayMs(attempt, "webhook"))).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000]);
  });

  it("given a recipient the mail server refuses for good (550), should stop at once and show the teacher why", async () => {
    const { runDueJobs, JOB_HANDLERS } = await services();
    const form = await createForm("teacher@demo.test");
    const email = `refused-${unique("nobody").toLowerCase()}@pupils.test`;
    const student = await api("POST", "/api/students", { as: "teacher@demo.test", json: { name: "Nora Nobody", email } });
    const link = await assign("teacher@demo.test", { formId: form.id, studentId: student.body.id });
    const when = new Date(Date.now() + 365 * 86_400_000);
    const job = await testDatabase().job.create({ data: { kind: "sendLink", payload: { submissionId: link.id }, runAt: when, submissionId: link.id } });
    const only = [job.id];
    const smtp = await startSmtpServer(inbox, smtpPort);
    try {
      expect(await runDueJobs(JOB_HANDLERS, { now: () => when, only })).toBe(1);
      // No retry: not an hour later, nor a day.
      expect(await runDueJobs(JOB_HANDLERS, { now: () => new Date(when.getTime() + 86_400_000), only })).toBe(0);
    } finally {
      await smtp.close();
    }
    const ended = await testDatabase().job.findUniqueOrThrow({ where: { id: job.id } });
    expect(ended).toMatchObject({ attempts: 1, doneAt: null });
    expect(ended.failedAt).not.toBeNull();
    expect(ended.lastError).toMatch(/550/);

    const read = await api("GET", `/api/submissions/${link.id}`, { as: "teacher@demo.test" });
    expect(read.body).toMatchObject({ sentAt: null, sendCount: 0 });
    expect(read.body.mailFailedAt).not.toBeNull();
    expect(read.body.mailError).toMatch(/^550 .*Mailbox unavailable/);
    const listed = await api("GET", `/api/submissions?formId=${form.id}`, { as: "teacher@demo.test" });
    expect(listed.body.submissions[0]).toMatchObject({ id: link.id, mailError: read.body.mailError });

    // The teacher's page, in Portuguese, says so with the server's reply.
    const page = await api("GET", `/pt-BR/assignments/${link.id}`, { as: "teacher@demo.test" });
    expect(page.text).toContain("E-mail não entregue");
    expect(page.text).toContain("Mailbox unavailable");
    // And so does the group's progress, beside the pupil's name.
    const group = await api("POST", "/api/groups", { as: "teacher@demo.test", json: { name: unique("Refused class") } });
    await api("POST", `/api/groups/${group.body.id}/members`, { as: "teacher@demo.test", json: { studentIds: [student.body.id] } });
    const progress = await api("GET", `/pt-BR/groups/${group.body.id}`, { as: "teacher@demo.test" });
    expect(progress.text).toMatch(/e-mail não entregue: 550 [^<]*Mailbox unavailable/);
  });

  it("given the mail server unreachable until an e-mail's last try, should give up and show the teacher that no server answered", async () => {
    const { runDueJobs, maxAttempts, JOB_HANDLERS } = await services();
    const form = await createForm("teacher@demo.test");
    const email = `${unique("unreached").toLowerCase()}@pupils.test`;
    const student = await api("POST", "/api/students", { as: "teacher@demo.test", json: { name: "Ulla Unreached", email } });
    const link = await assign("teacher@demo.test", { formId: form.id, studentId: student.body.id });
    const when = new Date(Date.now() + 365 * 86_400_000);
    // Its tries but the last already made (the schedule itself is walked above).
    const job = await testDatabase().job.create({
      data: { kind: "sendLink", payload: { submissionId: link.id }, runAt: when, submissionId: link.id, attempts: maxAttempts("sendLink") - 1 },
    });
    expect(await runDueJobs(JOB_HANDLERS, { now: () => when, only: [job.id] })).toBe(1);
    expect((await testDatabase().job.findUniqueOrThrow({ where: { id: job.id } })).failedAt).not.toBeNull();
    const read = await api("GET", `/api/submissions/${link.id}`, { as: "teacher@demo.test" });
    expect(read.body.mailFailedAt).not.toBeNull();
    expect(read.body.mailError).toBeNull();
    const page = await api("GET", `/es/assignments/${link.id}`, { as: "teacher@demo.test" });
    expect(page.text).toContain("Correo no entregado el");
    expect(page.text).toContain("no se pudo contactar con el servidor de correo");
  });

  it("given a worker that stops renewing its lease (it died), should let another take the job within a minute", async () => {
    const { runDueJobs, LEASE_MS } = await services();
    const start = new Date(Date.now() + 600 * 86_400_000);
    const job = await testDatabase().job.create({ data: { kind: "sendLink", payload: { submissionId: "x" }, runAt: start } });
    const only = [job.id];
    let clock = start;
    const now = () => clock;
    let finish!: () => void;
    const hanging = new Promise<void>((resolve) => (finish = resolve));
    const runs: string[] = [];
    const nothing = async () => {};
    const slow = {
      sendLink: async () => {
        runs.push("first");
        await hanging;
      },
      remind: nothing,
      flagAlert: nothing,
      webhook: nothing,
    };
    // The first worker's heartbeat renews the lease as its clock moves: nobody else takes the job.
    const first = runDueJobs(slow, { now, only, heartbeatMs: 10 });
    await expect.poll(() => runs.length).toBe(1);
    // Three minutes on, three times its first lease: still its job.
    clock = new Date(start.getTime() + 3 * 60_000);
    await expect
      .poll(async () => (await testDatabase().job.findUniqueOrThrow({ where: { id: job.id } })).lockedUntil?.getTime())
      .toBe(clock.getTime() + LEASE_MS);
    const other = {
      sendLink: async () => {
        runs.push("second");
      },
      remind: nothing,
      flagAlert: nothing,
      webhook: nothing,
    };
    expect(await runDueJobs(other, { now: () => new Date(clock.getTime() + LEASE_MS / 2), only })).toBe(0);

    // It dies (its clock, and so its heartbeat, stands still): within a minute another takes the job.
    const died = clock;
    const taken = new Date(died.getTime() + LEASE_MS + 1000);
    expect(taken.getTime() - died.getTime()).toBeLessThanOrEqual(61_000);
    expect(await runDueJobs(other, { now: () => taken, only })).toBe(1);
    expect(runs).toEqual(["first", "second"]);
    const done = await testDatabase().job.findUniqueOrThrow({ where: { id: job.id } });
    expect(done).toMatchObject({ attempts: 2, lockedUntil: null });
    expect(done.doneAt?.getTime()).toBe(taken.getTime());

    // The first worker's late end changes nothing: its claim was the first attempt's.
    finish();
    await first;
    expect((await testDatabase().job.findUniqueOrThrow({ where: { id: job.id } })).doneAt?.getTime()).toBe(taken.getTime());
  });

  it("given a mail server that answers after 5.5 minutes, should keep the job its sender's all along: no other worker takes it, and it is done once", async () => {
    const { runDueJobs, LEASE_MS, HEARTBEAT_MS, MAX_RUN_MS } = await services();
    // The real constants: a 60 s lease renewed every 15 s, for at most 5 minutes.
    expect({ LEASE_MS, HEARTBEAT_MS, MAX_RUN_MS }).toEqual({ LEASE_MS: 60_000, HEARTBEAT_MS: 15_000, MAX_RUN_MS: 300_000 });
    const start = new Date(Date.now() + 650 * 86_400_000);
    const job = await testDatabase().job.create({ data: { kind: "sendLink", payload: { submissionId: "slow" }, runAt: start } });
    const only = [job.id];
    let clock = start;
    let answer!: () => void;
    const mailServerAnswers = new Promise<void>((resolve) => (answer = resolve));
    const sends: string[] = [];
    const nothing = async () => {};
    const sender = {
      sendLink: async () => {
        sends.push("first");
        await mailServerAnswers;
      },
      remind: nothing,
      flagAlert: nothing,
      webhook: nothing,
    };
    const other = {
      sendLink: async () => {
        sends.push("second");
      },
      remind: nothing,
      flagAlert: nothing,
      webhook: nothing,
    };
    // The sender's heartbeat runs every few milliseconds here; it reads the test's clock, which
    // moves one HEARTBEAT_MS at a time, so each renewal is the one due at that moment.
    const first = runDueJobs(sender, { now: () => clock, only, heartbeatMs: 5 });
    await expect.poll(() => sends.length).toBe(1);
    const lockedUntil = async () => (await testDatabase().job.findUniqueOrThrow({ where: { id: job.id } })).lockedUntil?.getTime();
    const answeredAt = start.getTime() + 5.5 * 60_000;
    for (let at = start.getTime() + HEARTBEAT_MS; at <= answeredAt; at += HEARTBEAT_MS) {
      clock = new Date(at);
      // Renewed at each heartbeat up to MAX_RUN_MS; the last renewal (at 4 min 45 s) holds it to 5 min 45 s.
      const renewedAt = Math.min(at, start.getTime() + MAX_RUN_MS - HEARTBEAT_MS);
      if (at < start.getTime() + MAX_RUN_MS) await expect.poll(lockedUntil).toBe(renewedAt + LEASE_MS);
      expect(await lockedUntil()).toBe(renewedAt + LEASE_MS);
      // The other instance polls now and just before the next heartbeat: the job is never free.
      for (const when of [at, at + HEARTBEAT_MS - 1]) expect(await runDueJobs(other, { now: () => new Date(when), only })).toBe(0);
    }
    // 5.5 minutes after the send began, the mail server takes the message: done, once.
    answer();
    expect(await first).toBe(1);
    expect(sends).toEqual(["first"]);
    const done = await testDatabase().job.findUniqueOrThrow({ where: { id: job.id } });
    expect(done).toMatchObject({ attempts: 1, lockedUntil: null });
    expect(done.doneAt?.getTime()).toBe(answeredAt);
    expect(await runDueJobs(other, { now: () => new Date(answeredAt + 86_400_000), only })).toBe(0);
  });

  it("given a renewal computed from an earlier moment than the last (one that was slow to land), should never move the lease back", async () => {
    const { runDueJobs, LEASE_MS } = await services();
    const start = new Date(Date.now() + 660 * 86_400_000);
    const job = await testDatabase().job.create({ data: { kind: "sendLink", payload: { submissionId: "renewals" }, runAt: start } });
    let clock = start;
    // Each heartbeat reads the clock: its reads are the signal that renewals have run.
    let reads = 0;
    const now = () => {
      reads++;
      return clock;
    };
    let answer!: () => void;
    const mailServerAnswers = new Promise<void>((resolve) => (answer = resolve));
    const nothing = async () => {};
    const running = runDueJobs(
      { sendLink: () => mailServerAnswers, remind: nothing, flagAlert: nothing, webhook: nothing },
      { now, only: [job.id], heartbeatMs: 5 },
    );
    const lockedUntil = async () => (await testDatabase().job.findUniqueOrThrow({ where: { id: job.id } })).lockedUntil?.getTime();
    clock = new Date(start.getTime() + 30_000);
    await expect.poll(lockedUntil).toBe(start.getTime() + 30_000 + LEASE_MS);
    // The clock as an older renewal read it: the renewals it gives must leave the later lease.
    clock = new Date(start.getTime() + 15_000);
    const readsBefore = reads;
    await expect.poll(() => reads).toBeGreaterThan(readsBefore + 10);
    expect(await lockedUntil()).toBe(start.getTime() + 30_000 + LEASE_MS);
    answer();
    expect(await running).toBe(1);
  });

  it("given a stop while a job runs, should wait for it to finish, or hand it back at the deadline", async () => {
    const { startJobWorker, runDueJobs } = await services();
    const when = new Date(Date.now() + 700 * 86_400_000);
    const jobs = await Promise.all(
      ["finishes", "hangs"].map((name) =>
        testDatabase().job.create({ data: { kind: "sendLink", payload: { submissionId: name }, runAt: when }, select: { id: true } }),
      ),
    );
    const nothing = async () => {};
    for (const [index, name] of ["finishes", "hangs"].entries()) {
      const only = [jobs[index]!.id];
      let started = false;
      let finish!: () => void;
      const sending = new Promise<void>((resolve) => (finish = resolve));
      const handlers = {
        sendLink: async () => {
          started = true;
          await sending;
        },
        remind: nothing,
        flagAlert: nothing,
        webhook: nothing,
      };
      // The clock counts its readings: the heartbeat reads it at each renewal.
      let readings = 0;
      const now = () => {
        readings++;
        return when;
      };
      const stop = startJobWorker(handlers, 5, { now, only, heartbeatMs: 5 });
      await expect.poll(() => started).toBe(true);
      if (name === "finishes") {
        // The send ends while the worker stops: it is recorded as done, nothing is handed back.
        const stopped = stop(60_000);
        finish();
        expect(await stopped).toBe(0);
        const done = await testDatabase().job.findUniqueOrThrow({ where: { id: only[0]! } });
        expect(done.doneAt).not.toBeNull();
      } else {
        // Still sending at the deadline: handed back, free for another instance at once.
        expect(await stop(50)).toBe(1);
        const readingsAtHandBack = readings;
        // And it stays free: the stopped worker renews the lease no more, however many of its
        // heartbeats go by (counted on another job's run, renewed as often).
        const metronome = await testDatabase().job.create({
          data: { kind: "sendLink", payload: { submissionId: "beats" }, runAt: when },
          select: { id: true },
        });
        let beats = 0;
        const counted = () => {
          beats++;
          return when;
        };
        const beating = {
          sendLink: () => expect.poll(() => beats, { timeout: 10_000 }).toBeGreaterThan(20),
          remind: nothing,
          flagAlert: nothing,
          webhook: nothing,
        };
        expect(await runDueJobs(beating, { now: counted, only: [metronome.id], heartbeatMs: 5 })).toBe(1);
        expect(readings).toBe(readingsAtHandBack);
        expect((await testDatabase().job.findUniqueOrThrow({ where: { id: only[0]! } })).lockedUntil).toBeNull();
        expect(await runDueJobs({ sendLink: nothing, remind: nothing, flagAlert: nothing, webhook: nothing }, { now: () => when, only })).toBe(1);
        finish();
      }
    }
  });

  it("given a job handed back among many queued at the same moment, should claim it before the rest of its batch", async () => {
    const { runDueJobs } = await services();
    const when = new Date(Date.now() + 750 * 86_400_000);
    // One bulk assignment's e-mails: one statement, one runAt.
    const ids = Array.from({ length: 50 }, () => randomUUID());
    await testDatabase().job.createMany({ data: ids.map((id, index) => ({ id, kind: "sendLink", payload: { submissionId: `batch ${index}` }, runAt: when })) });
    // The last of them was claimed and handed back by a stopping instance: tried once, free again.
    const handedBack = ids.at(-1)!;
    await testDatabase().job.update({ where: { id: handedBack }, data: { attempts: 1, lockedUntil: null } });
    const claimed: string[] = [];
    const nothing = async () => {};
    const handlers = {
      sendLink: async (payload: unknown) => {
        claimed.push((payload as { submissionId: string }).submissionId);
      },
      remind: nothing,
      flagAlert: nothing,
      webhook: nothing,
    };
    expect(await runDueJobs(handlers, { now: () => when, only: ids, limit: 1 })).toBe(1);
    expect(claimed).toEqual(["batch 49"]);
  });

  it("given an endpoint that holds its deliveries, should send them one at a time while another endpoint's go on in the other lanes", async () => {
    const { runDueJobs } = await services();
    const when = new Date(Date.now() + 500 * 86_400_000);
    const slowKey = `webhook:${unique("slow")}`;
    const quickKey = `webhook:${unique("quick")}`;
    const queue = (key: string, name: string) =>
      testDatabase().job.create({ data: { kind: "webhook", payload: { deliveryId: name }, runAt: when, concurrencyKey: key }, select: { id: true } });
    const jobs = [
      await queue(slowKey, "slow 1"),
      await queue(slowKey, "slow 2"),
      await queue(slowKey, "slow 3"),
      await queue(quickKey, "quick 1"),
      await queue(quickKey, "quick 2"),
    ];
    const only = jobs.map((job) => job.id);

    const started: string[] = [];
    const running = new Map<string, number>();
    let mostAtOnce = 0;
    let answer!: () => void;
    const slowEndpointAnswers = new Promise<void>((resolve) => (answer = resolve));
    const nothing = async () => {};
    const handlers = {
      sendLink: nothing,
      remind: nothing,
      flagAlert: nothing,
      webhook: async (payload: unknown) => {
        const name = (payload as { deliveryId: string }).deliveryId;
        const key = name.split(" ")[0]!;
        started.push(name);
        running.set(key, (running.get(key) ?? 0) + 1);
        mostAtOnce = Math.max(mostAtOnce, running.get(key)!);
        if (key === "slow") await slowEndpointAnswers;
        running.set(key, running.get(key)! - 1);
      },
    };
    // Four lanes at once, as the worker runs them.
    const lanes = Array.from({ length: 4 }, () => runDueJobs(handlers, { now: () => when, only, kinds: ["webhook"] }));

    // The quick endpoint's deliveries are both sent while the slow one holds its first.
    await expect.poll(() => started.filter((name) => name.startsWith("quick")).length).toBe(2);
    expect(started.filter((name) => name.startsWith("slow"))).toHaveLength(1);

    answer();
    const ran = await Promise.all(lanes);
    expect(ran.reduce((sum, count) => sum + count, 0)).toBe(5);
    expect(mostAtOnce).toBe(1);
    const done = await testDatabase().job.findMany({ where: { id: { in: only } }, select: { doneAt: true, attempts: true } });
    expect(done.every((job) => job.doneAt !== null && job.attempts === 1)).toBe(true);
  });

  it("given one organization's endpoints all holding their deliveries, should give it at most two lanes and another organization's delivery one of the others", async () => {
    const { runDueJobs, GROUP_RUNS } = await services();
    const when = new Date(Date.now() + 600 * 86_400_000);
    const busy = `organization:${unique("busy")}`;
    const other = `organization:${unique("other")}`;
    const queue = (group: string, endpoint: string, name: string) =>
      testDatabase().job.create({
        data: { kind: "webhook", payload: { deliveryId: name }, runAt: when, concurrencyKey: `webhook:${endpoint}`, groupKey: group },
        select: { id: true },
      });
    const jobs = [];
    // Four endpoints of the busy organization, queued first: in one queue without groups they would take all four lanes.
    for (let endpoint = 1; endpoint <= 4; endpoint++) jobs.push(await queue(busy, unique(`busy-${endpoint}`), `busy ${endpoint}`));
    jobs.push(await queue(other, unique("other"), "other 1"));
    const only = jobs.map((job) => job.id);

    const started: string[] = [];
    let busyAtOnce = 0;
    let mostBusyAtOnce = 0;
    let answer!: () => void;
    const busyEndpointsAnswer = new Promise<void>((resolve) => (answer = resolve));
    const nothing = async () => {};
    const handlers = {
      sendLink: nothing,
      remind: nothing,
      flagAlert: nothing,
      webhook: async (payload: unknown) => {
        const name = (payload as { deliveryId: string }).deliveryId;
        started.push(name);
        if (!name.startsWith("busy")) return;
        mostBusyAtOnce = Math.max(mostBusyAtOnce, ++busyAtOnce);
        await busyEndpointsAnswer;
        busyAtOnce--;
      },
    };
    const lanes = Array.from({ length: 4 }, () => runDueJobs(handlers, { now: () => when, only, kinds: ["webhook"] }));
    let lanesFinished = 0;
    for (const lane of lanes) void lane.then(() => lanesFinished++);

    // The other organization's delivery goes while the busy one holds its two lanes; the other two
    // lanes find nothing more they may take (a lane stops when its claim finds nothing).
    await expect.poll(() => lanesFinished).toBe(2);
    expect(started).toContain("other 1");
    expect(started.filter((name) => name.startsWith("busy"))).toHaveLength(GROUP_RUNS);

    answer();
    expect((await Promise.all(lanes)).reduce((sum, count) => sum + count, 0)).toBe(5);
    expect(mostBusyAtOnce).toBe(GROUP_RUNS);
    const done = await testDatabase().job.findMany({ where: { id: { in: only } }, select: { doneAt: true, attempts: true } });
    expect(done.every((job) => job.doneAt !== null && job.attempts === 1)).toBe(true);
  });

  it("given two organizations holding all four lanes with backlogs, should give the next free lane to a third organization first", async () => {
    const { runDueJobs } = await services();
    const when = new Date(Date.now() + 700 * 86_400_000);
    const queue = (group: string, name: string) =>
      testDatabase().job.create({
        data: { kind: "webhook", payload: { deliveryId: name }, runAt: when, concurrencyKey: `webhook:${unique(name)}`, groupKey: `organization:${group}` },
        select: { id: true },
      });
    const [first, second, third] = [unique("first"), unique("second"), unique("third")];
    const jobs = [];
    for (const name of ["a1", "a2", "a3"]) jobs.push(await queue(first, name));
    for (const name of ["b1", "b2", "b3"]) jobs.push(await queue(second, name));
    const only = jobs.map((job) => job.id);
    const started: string[] = [];
    const answers = new Map<string, () => void>();
    const nothing = async () => {};
    const handlers = {
      sendLink: nothing,
      remind: nothing,
      flagAlert: nothing,
      webhook: async (payload: unknown) => {
        const name = (payload as { deliveryId: string }).deliveryId;
        started.push(name);
        if (name !== "c1") await new Promise<void>((resolve) => answers.set(name, resolve));
      },
    };
    const lanes = Array.from({ length: 4 }, () => runDueJobs(handlers, { now: () => when, only, kinds: ["webhook"] }));
    // Two each: all four lanes held.
    await expect.poll(() => answers.size).toBe(4);
    expect(started.filter((name) => name.startsWith("a"))).toHaveLength(2);
    // The third organization's delivery, queued behind both backlogs, takes the first lane to come free.
    only.push((await queue(third, "c1")).id);
    answers.get(started[0]!)!();
    await expect.poll(() => started.includes("c1")).toBe(true);
    expect(started.indexOf("c1")).toBe(4);
    // Then every endpoint answers, as soon as it is called.
    const answering = setInterval(() => {
      for (const answer of answers.values()) answer();
    }, 10);
    try {
      expect((await Promise.all(lanes)).reduce((sum, count) => sum + count, 0)).toBe(7);
    } finally {
      clearInterval(answering);
    }
  });

  it("given remindAfterDays, should remind once, after that many days, only those still waiting", async () => {
    const { runDueJobs, JOB_HANDLERS } = await services();
    const form = await createForm("teacher@demo.test");
    const people = await Promise.all(
      ["Waiting", "Answered"].map(async (name) => {
        const email = `${unique(name).toLowerCase()}@pupils.test`;
        const student = await api("POST", "/api/students", { as: "teacher@demo.test", json: { name, email } });
        return { id: student.body.id as string, email };
      }),
    );
    const bulk = await api("POST", "/api/submissions/bulk", {
      as: "teacher@demo.test",
      json: { formId: form.id, studentIds: people.map((p) => p.id), remindAfterDays: 3 },
    });
    const linkOf = (studentId: string) => bulk.body.created.find((s: { student: { id: string } }) => s.student.id === studentId);
    const answered = linkOf(people[1]!.id);
    expect((await api("POST", `/api/test-link/${answered.token}/submit`, { json: mediumAnswers(form) })).status).toBe(200);

    const ids = bulk.body.created.map((s: { id: string }) => s.id);
    const jobs = await testDatabase().job.findMany({ where: { kind: "remind" }, select: { id: true, payload: true } });
    const only = jobs.filter((j) => ids.includes((j.payload as { submissionId: string }).submissionId)).map((j) => j.id);
    expect(only).toHaveLength(2);
    const reminders = mkdtempSync(path.join(tmpdir(), "reminders-"));
    const smtp = await startSmtpServer(reminders, smtpPort);
    try {
      // Two days on: not yet.
      expect(await runDueJobs(JOB_HANDLERS, { now: () => new Date(Date.now() + 2 * 86_400_000), only })).toBe(0);
      // Three days on: both jobs run; only the one still waiting gets an e-mail.
      expect(await runDueJobs(JOB_HANDLERS, { now: () => new Date(Date.now() + 3 * 86_400_000 + 60_000), only })).toBe(2);
      expect(await runDueJobs(JOB_HANDLERS, { now: () => new Date(Date.now() + 30 * 86_400_000), only })).toBe(0);
    } finally {
      await smtp.close();
    }
    const files = readdirSync(reminders);
    expect(files).toHaveLength(1);
    expect(readFileSync(path.join(reminders, files[0]!), "utf8")).toContain(people[0]!.email);
    const waiting = await api("GET", `/api/submissions/${linkOf(people[0]!.id).id}`, { as: "teacher@demo.test" });
    expect(waiting.body.remindedAt).not.toBeNull();
    expect((await api("GET", `/api/submissions/${answered.id}`, { as: "teacher@demo.test" })).body.remindedAt).toBeNull();
  });
});
