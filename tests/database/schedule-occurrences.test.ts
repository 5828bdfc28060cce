import { beforeAll, describe, expect, it } from "vitest";
import { api, unique, type RequestOptions } from "../support/api.ts";
import { mixedForm } from "../support/assessment.ts";
import { inTestProcess, testDatabase } from "../support/database.ts";
import { createOrganization, createSignedInUser } from "../support/fixtures.ts";
import { mailTo, waitForMail } from "../support/mail.ts";

/**
 * A schedule's occurrences (docs/api-contract.md §18, ADR 76): schedules made over real HTTP, their
 * jobs run in this process by the queue's own runner with a clock the test moves, against the
 * suite's database and mail server. Their days lie decades ahead, so the suite's server (whose
 * clock is the real one) never runs them; the e-mails they queue are due at once, and it sends those.
 */
const services = () =>
  inTestProcess(async () => {
    const [{ runDueJobs }, { JOB_HANDLERS }] = await Promise.all([
      import("../../app/features/jobs/jobs.server.ts"),
      import("../../app/features/jobs/job-handlers.server.ts"),
    ]);
    return { runDueJobs, JOB_HANDLERS };
  });

type Who = { cookie: string };

const instant = (iso: string) => new Date(iso);

/** The schedule's jobs not yet done, due by `at`. */
const dueJobs = (scheduleId: string, at: Date) =>
  testDatabase().job.findMany({
    where: { concurrencyKey: `schedule:${scheduleId}`, doneAt: null, failedAt: null, runAt: { lte: at } },
    select: { id: true, payload: true },
  });

/** Runs the schedule's occurrences due at `at` (and those they queue that are due by then), as a worker whose clock reads `at`. */
async function runSchedule(scheduleId: string, at: Date): Promise<number> {
  const { runDueJobs, JOB_HANDLERS } = await services();
  let ran = 0;
  for (;;) {
    const due = await dueJobs(scheduleId, at);
    if (due.length === 0) return ran;
    ran += await runDueJobs(JOB_HANDLERS, { now: () => at, only: due.map((job) => job.id) });
  }
}

async function makeSchedule(who: Who, json: Record<string, unknown>) {
  const created = await api("POST", "/api/schedules", { ...(who as RequestOptions), json: { everyDays: 7, send: false, ...json } });
  expect(created.status, created.text).toBe(201);
  return created.body.schedule as { id: string };
}

const readSchedule = async (who: Who, id: string) => (await api("GET", `/api/schedules/${id}`, who as RequestOptions)).body;

/** The links of a form, oldest first: whose, and when made. */
async function linksOf(who: Who, formId: string) {
  const listed = await api("GET", `/api/submissions?formId=${formId}&limit=100`, who as RequestOptions);
  return (listed.body.submissions as { student: { id: string } | null; candidate: { id: string } | null; createdAt: string; expiresAt: string | null }[])
    .map((link) => ({ respondent: (link.student ?? link.candidate)!.id, createdAt: link.createdAt, expiresAt: link.expiresAt }))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.respondent.localeCompare(b.respondent));
}

/** A new form of the school's teacher. */
async function newForm(who: { cookie: string }): Promise<{ id: string; title: string }> {
  const created = await api("POST", "/api/forms", { ...who, json: mixedForm() });
  expect(created.status, created.text).toBe(201);
  return created.body;
}

/** A new student of the school. */
async function newStudent(who: { cookie: string }, name = unique("Student")): Promise<{ id: string; name: string }> {
  const created = await api("POST", "/api/students", { ...who, json: { name } });
  expect(created.status, created.text).toBe(201);
  return created.body;
}

async function classOf(who: { cookie: string }, names: string[]) {
  const group = await api("POST", "/api/groups", { ...who, json: { name: unique("Weekly class") } });
  const students = [];
  for (const name of names) students.push(await newStudent(who, unique(name)));
  await api("POST", `/api/groups/${group.body.id}/members`, { ...who, json: { studentIds: students.map((s) => s.id) } });
  return { groupId: group.body.id as string, students };
}

/**
 * The teacher of a school of this file's own (on UTC, as the demo school): its links are dated in
 * 2097, and in the demo school they would come first on every other file's lists of recent links.
 */
let teacher: { cookie: string };
beforeAll(async () => {
  teacher = { cookie: (await createOrganization("Scheduling school")).teacher };
});

describe("a schedule's occurrences", () => {
  it("given a clinic in Tokyo, should make the links at midnight there and not a moment before, then wait a week", async () => {
    const tokyo = await testDatabase().organization.create({ data: { name: unique("Tokyo clinic"), timeZone: "Asia/Tokyo" } });
    const clinic = { cookie: (await createSignedInUser("TEACHER", { as: "superadmin@demo.test", organizationId: tokyo.id })).cookie };
    const form = await newForm(clinic);
    const student = await newStudent(clinic);
    const schedule = await makeSchedule(clinic, { formId: form.id, studentIds: [student.id], startsAt: "2097-03-02" });
    // Midnight of 2 March in Tokyo (UTC+9) is 15:00 UTC on 1 March.
    expect(await runSchedule(schedule.id, instant("2097-03-01T14:59:59.999Z"))).toBe(0);
    expect(await linksOf(clinic, form.id)).toEqual([]);
    expect(await runSchedule(schedule.id, instant("2097-03-01T15:00:00.000Z"))).toBe(1);
    expect(await linksOf(clinic, form.id)).toEqual([{ respondent: student.id, createdAt: "2097-03-01T15:00:00.000Z", expiresAt: null }]);
    const read = await readSchedule(clinic, schedule.id);
    expect(read.occurrences).toEqual([
      { day: "2097-03-02", dueAt: "2097-03-01T15:00:00.000Z", ranAt: "2097-03-01T15:00:00.000Z", status: "DONE", created: 1, skipped: 0, reason: null },
    ]);
    expect(read.schedule).toMatchObject({ occurrencesRun: 1, nextOccurrence: { day: "2097-03-09", at: "2097-03-08T15:00:00.000Z" } });
    // Nothing more until then.
    expect(await runSchedule(schedule.id, instant("2097-03-08T14:59:59.999Z"))).toBe(0);
  });

  it("given an organization on Madrid time, should start each day at its midnight on both sides of the change to summer time", async () => {
    const organization = await testDatabase().organization.create({ data: { name: unique("Madrid school"), timeZone: "Europe/Madrid" } });
    const madrid = { cookie: (await createSignedInUser("TEACHER", { as: "superadmin@demo.test", organizationId: organization.id })).cookie };
    const form = (await api("POST", "/api/forms", { ...madrid, json: mixedForm() })).body;
    const student = (await api("POST", "/api/students", { ...madrid, json: { name: unique("Lucía") } })).body;
    // The school's integration is told of each link an occurrence makes, as of a bulk assignment's.
    const admin = { cookie: (await createSignedInUser("ADMIN", { as: "superadmin@demo.test", organizationId: organization.id })).cookie };
    const hook = await api("POST", "/api/webhooks", { ...admin, json: { url: `http://127.0.0.1:9/${organization.id}`, events: ["submission.created"] } });
    expect(hook.status, hook.text).toBe(201);
    // Summer time starts at 02:00 on Sunday 31 March 2097: 30 March starts at 23:00 UTC, 1 April at 22:00 UTC.
    const schedule = await makeSchedule(madrid, {
      formId: form.id,
      studentIds: [student.id],
      startsAt: "2097-03-30",
      everyDays: 1,
      count: 3,
      expiresAfterDays: 1,
    });
    for (const due of ["2097-03-29T23:00:00.000Z", "2097-03-30T23:00:00.000Z", "2097-03-31T22:00:00.000Z"]) {
      expect(await runSchedule(schedule.id, new Date(Date.parse(due) - 1)), due).toBe(0);
      expect(await runSchedule(schedule.id, instant(due)), due).toBe(1);
    }
    const read = await readSchedule(madrid, schedule.id);
    expect(read.occurrences.map((o: { day: string; dueAt: string; status: string }) => [o.day, o.dueAt, o.status])).toEqual([
      ["2097-04-01", "2097-03-31T22:00:00.000Z", "DONE"],
      ["2097-03-31", "2097-03-30T23:00:00.000Z", "DONE"],
      ["2097-03-30", "2097-03-29T23:00:00.000Z", "DONE"],
    ]);
    // Each day's link expired as the next day began there, so each day made one.
    expect((await linksOf(madrid, form.id)).map((link) => [link.createdAt, link.expiresAt])).toEqual([
      ["2097-03-29T23:00:00.000Z", "2097-03-30T23:00:00.000Z"],
      ["2097-03-30T23:00:00.000Z", "2097-03-31T22:00:00.000Z"],
      ["2097-03-31T22:00:00.000Z", "2097-04-01T22:00:00.000Z"],
    ]);
    const events = await testDatabase().webhookDelivery.findMany({ where: { webhookId: hook.body.id }, select: { event: true, payload: true } });
    expect(events.map((delivery) => [delivery.event, JSON.parse(delivery.payload).data.formId])).toEqual(
      Array.from({ length: 3 }, () => ["submission.created", form.id]),
    );
    // Three times, as asked: it has ended, and nothing waits in the queue.
    expect(read.schedule).toMatchObject({ status: "ENDED", endedBecause: "FINISHED", nextOccurrence: null, occurrencesRun: 3 });
    expect(await dueJobs(schedule.id, instant("2199-01-01T00:00:00Z"))).toEqual([]);
  });

  it("given two runners at the same moment, a run taken again after its lease, and a job run again after a crash, should make each occurrence's links once", async () => {
    const { runDueJobs, JOB_HANDLERS } = await services();
    const form = await newForm(teacher);
    const { groupId, students } = await classOf(teacher, ["Ana", "Bruno", "Carla", "Dario"]);
    const schedule = await makeSchedule(teacher, { formId: form.id, groupId, startsAt: "2097-06-02", expiresAfterDays: 7 });

    // Two runners (two instances' workers) poll at the same moment.
    const first = instant("2097-06-02T00:00:00.000Z");
    const only = (await dueJobs(schedule.id, first)).map((job) => job.id);
    const ran = await Promise.all([runDueJobs(JOB_HANDLERS, { now: () => first, only }), runDueJobs(JOB_HANDLERS, { now: () => first, only })]);
    expect(ran.reduce((sum, count) => sum + count, 0)).toBe(1);

    // A run whose lease ran out while it worked, taken by another worker: both runs at once.
    const second = instant("2097-06-09T00:00:00.000Z");
    const [job] = await dueJobs(schedule.id, second);
    const run = { attempts: 1, lastAttempt: false, now: second };
    await Promise.all([JOB_HANDLERS.schedule(job!.payload, run), JOB_HANDLERS.schedule(job!.payload, { ...run, attempts: 2 })]);
    // The job itself is still to be marked done: a worker that died after the occurrence was
    // recorded. Its next run (after a restart) finds the day taken and does nothing.
    expect(await runSchedule(schedule.id, second)).toBe(1);

    const read = await readSchedule(teacher, schedule.id);
    expect(read.occurrences.map((o: { day: string; status: string; created: number }) => [o.day, o.status, o.created])).toEqual([
      ["2097-06-09", "DONE", 4],
      ["2097-06-02", "DONE", 4],
    ]);
    const links = await linksOf(teacher, form.id);
    expect(links).toHaveLength(8);
    for (const student of students) {
      expect(links.filter((link) => link.respondent === student.id).map((link) => link.createdAt)).toEqual([first.toISOString(), second.toISOString()]);
    }
    expect(read.schedule.nextOccurrence).toEqual({ day: "2097-06-16", at: "2097-06-16T00:00:00.000Z" });
    expect(await dueJobs(schedule.id, instant("2097-06-16T00:00:00.000Z"))).toHaveLength(1);
  });

  it("given three days of downtime, should record the days missed by more than a day as MISSED and send only the day still within reach", async () => {
    const form = await newForm(teacher);
    const email = `${unique("daily").toLowerCase()}@pupils.test`;
    const student = await api("POST", "/api/students", { ...teacher, json: { name: unique("Daily pupil"), email } });
    const schedule = await makeSchedule(teacher, { formId: form.id, studentIds: [student.body.id], startsAt: "2097-07-01", everyDays: 1, send: true });
    // The service comes back at noon on the 4th: the 1st, 2nd and 3rd began more than a day ago.
    const back = instant("2097-07-04T12:00:00.000Z");
    expect(await runSchedule(schedule.id, back)).toBe(4);
    const read = await readSchedule(teacher, schedule.id);
    expect(read.occurrences.map((o: { day: string; status: string; created: number; ranAt: string }) => [o.day, o.status, o.created, o.ranAt])).toEqual([
      ["2097-07-04", "DONE", 1, back.toISOString()],
      ["2097-07-03", "MISSED", 0, back.toISOString()],
      ["2097-07-02", "MISSED", 0, back.toISOString()],
      ["2097-07-01", "MISSED", 0, back.toISOString()],
    ]);
    expect(read.schedule).toMatchObject({ occurrencesRun: 4, nextOccurrence: { day: "2097-07-05" } });
    // One link and one e-mail: the missed days sent nothing late.
    expect(await linksOf(teacher, form.id)).toEqual([{ respondent: student.body.id, createdAt: back.toISOString(), expiresAt: null }]);
    const mail = await waitForMail(email);
    expect(mail.subject).toBe(`A test for you: ${form.title}`);
    const links = await testDatabase().submission.findMany({ where: { formId: form.id }, select: { id: true } });
    await expect
      .poll(async () => testDatabase().job.count({ where: { submissionId: { in: links.map((link) => link.id) }, kind: "sendLink", doneAt: { not: null } } }))
      .toBe(1);
    expect(await mailTo(email)).toHaveLength(1);

    // A day late to the millisecond still runs; a millisecond more is missed.
    const other = await newForm(teacher);
    const weekly = await makeSchedule(teacher, { formId: other.id, studentIds: [student.body.id], startsAt: "2097-08-01", expiresAfterDays: 7 });
    expect(await runSchedule(weekly.id, instant("2097-08-02T00:00:00.000Z"))).toBe(1);
    expect(await runSchedule(weekly.id, instant("2097-08-09T00:00:00.001Z"))).toBe(1);
    const late = await readSchedule(teacher, weekly.id);
    expect(late.occurrences.map((o: { day: string; status: string }) => [o.day, o.status])).toEqual([
      ["2097-08-08", "MISSED"],
      ["2097-08-01", "DONE"],
    ]);
    expect(late.schedule.nextOccurrence).toEqual({ day: "2097-08-15", at: "2097-08-15T00:00:00.000Z" });
  });

  it("given a group whose members change, should read the members at each occurrence and skip whoever still has a link waiting", async () => {
    const form = await newForm(teacher);
    const { groupId, students } = await classOf(teacher, ["Alba", "Bea"]);
    const [alba, bea] = [students[0]!, students[1]!];
    const schedule = await makeSchedule(teacher, { formId: form.id, groupId, startsAt: "2097-09-01" });
    expect(await runSchedule(schedule.id, instant("2097-09-01T00:00:00.000Z"))).toBe(1);

    // Bea leaves the class and Cris joins it before the next week.
    const cris = await newStudent(teacher, unique("Cris"));
    await api("DELETE", `/api/groups/${groupId}/members`, { ...teacher, json: { studentIds: [bea.id] } });
    await api("POST", `/api/groups/${groupId}/members`, { ...teacher, json: { studentIds: [cris.id] } });
    expect(await runSchedule(schedule.id, instant("2097-09-08T06:00:00.000Z"))).toBe(1);

    const read = await readSchedule(teacher, schedule.id);
    expect(read.occurrences.map((o: { day: string; created: number; skipped: number }) => [o.day, o.created, o.skipped])).toEqual([
      ["2097-09-08", 1, 1],
      ["2097-09-01", 2, 0],
    ]);
    const links = await linksOf(teacher, form.id);
    expect(links.filter((link) => link.respondent === alba.id)).toHaveLength(1);
    expect(links.filter((link) => link.respondent === bea.id)).toHaveLength(1);
    expect(links.filter((link) => link.respondent === cris.id).map((link) => link.createdAt)).toEqual(["2097-09-08T06:00:00.000Z"]);
  });

  it("given a schedule that e-mails and reminds, should send each occurrence's links through the loopback mail server and remind later", async () => {
    const { runDueJobs, JOB_HANDLERS } = await services();
    const form = await newForm(teacher);
    const email = `${unique("weekly").toLowerCase()}@pupils.test`;
    const student = await api("POST", "/api/students", { ...teacher, json: { name: unique("Weekly pupil"), email } });
    const schedule = await makeSchedule(teacher, { formId: form.id, studentIds: [student.body.id], startsAt: "2097-10-05", send: true, remindAfterDays: 2 });
    const at = instant("2097-10-05T00:00:00.000Z");
    expect(await runSchedule(schedule.id, at)).toBe(1);
    const link = await waitForMail(email);
    expect(link.subject).toBe(`A test for you: ${form.title}`);
    expect(link.text).toMatch(/\/en\/test\/[\w-]+/);

    // Two days on, the reminder (run here, with the clock moved).
    const remindAt = new Date(at.getTime() + 2 * 86_400_000);
    const [submission] = await testDatabase().submission.findMany({ where: { formId: form.id }, select: { id: true } });
    const reminders = await testDatabase().job.findMany({ where: { submissionId: submission!.id, kind: "remind" }, select: { id: true, runAt: true } });
    expect(reminders.map((job) => job.runAt)).toEqual([remindAt]);
    expect(await runDueJobs(JOB_HANDLERS, { now: () => remindAt, only: reminders.map((job) => job.id) })).toBe(1);
    const reminder = await waitForMail(email, 1);
    expect(reminder.subject).toBe(`Reminder: ${form.title} is waiting for your answers`);
  });

  it("given its form unpublished, then published, then deleted, should record a failure with the reason, go on, then stop for good", async () => {
    const form = await newForm(teacher);
    const student = await newStudent(teacher);
    const schedule = await makeSchedule(teacher, { formId: form.id, studentIds: [student.id], startsAt: "2097-11-02", expiresAfterDays: 7 });
    await api("PUT", `/api/forms/${form.id}`, { ...teacher, json: { isPublished: false } });
    expect(await runSchedule(schedule.id, instant("2097-11-02T00:00:00.000Z"))).toBe(1);
    await api("PUT", `/api/forms/${form.id}`, { ...teacher, json: { isPublished: true } });
    expect(await runSchedule(schedule.id, instant("2097-11-09T00:00:00.000Z"))).toBe(1);
    const read = await readSchedule(teacher, schedule.id);
    expect(
      read.occurrences.map((o: { day: string; status: string; created: number; reason: string | null }) => [o.day, o.status, o.created, o.reason]),
    ).toEqual([
      ["2097-11-09", "DONE", 1, null],
      ["2097-11-02", "FAILED", 0, "FORM_NOT_PUBLISHED"],
    ]);

    // Deleted: the next occurrence's job finds it ended and does nothing, and nothing follows.
    expect((await api("DELETE", `/api/forms/${form.id}`, teacher)).status).toBe(200);
    expect(await runSchedule(schedule.id, instant("2097-11-16T00:00:00.000Z"))).toBe(1);
    const ended = await readSchedule(teacher, schedule.id);
    expect(ended.occurrences).toHaveLength(2);
    expect(ended.schedule).toMatchObject({ status: "ENDED", endedBecause: "FORM_DELETED", nextOccurrence: null, occurrencesRun: 2 });
    expect(await dueJobs(schedule.id, instant("2199-01-01T00:00:00Z"))).toEqual([]);
  });
});
