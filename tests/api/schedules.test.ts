import { describe, expect, it } from "vitest";
import { api, unique } from "../support/api.ts";
import { createForm, createStudent } from "../support/assessment.ts";
import { testDatabase } from "../support/database.ts";

/**
 * Schedules over real HTTP (docs/api-contract.md §18, ADR 76): made, listed, read, changed, paused,
 * resumed and deleted within the caller's scope, with the API's refusals. Their occurrences, run
 * with a moved clock, are tests/database/schedule-occurrences.test.ts. The days are far ahead, so
 * the suite's server (whose clock is the real one) never runs these occurrences.
 */
async function classOf(as: "teacher@demo.test" | "teacher@other.test", size: number) {
  const group = await api("POST", "/api/groups", { as, json: { name: unique("Scheduled class") } });
  const students = await Promise.all(Array.from({ length: size }, () => createStudent(as)));
  await api("POST", `/api/groups/${group.body.id}/members`, { as, json: { studentIds: students.map((s) => s.id) } });
  return { groupId: group.body.id as string, students };
}

/** The schedule's jobs still to run (its next occurrence), as the queue holds them. */
const waitingJobs = (scheduleId: string) =>
  testDatabase().job.findMany({ where: { concurrencyKey: `schedule:${scheduleId}`, doneAt: null, failedAt: null }, select: { runAt: true, payload: true } });

describe("schedules", () => {
  it("given a teacher's weekly schedule for a group, should answer 201 with it, its Location and its first occurrence at the start of the day, and queue that occurrence", async () => {
    const form = await createForm("teacher@demo.test");
    const { groupId } = await classOf("teacher@demo.test", 2);
    const created = await api("POST", "/api/schedules", {
      as: "teacher@demo.test",
      json: { formId: form.id, groupId, startsAt: "2098-09-07", everyDays: 7, count: 10, send: true, remindAfterDays: 2, expiresAfterDays: 7 },
    });
    expect(created.status, created.text).toBe(201);
    const { schedule } = created.body;
    expect(created.headers.get("location")).toBe(`/api/schedules/${schedule.id}`);
    expect(schedule).toMatchObject({
      form: { id: form.id, title: form.title },
      group: { id: groupId },
      students: [],
      candidates: [],
      startsAt: "2098-09-07",
      everyDays: 7,
      endsAt: null,
      count: 10,
      send: true,
      remindAfterDays: 2,
      expiresAfterDays: 7,
      paused: false,
      status: "ACTIVE",
      endedBecause: null,
      // The demo school is on UTC.
      nextOccurrence: { day: "2098-09-07", at: "2098-09-07T00:00:00.000Z" },
      occurrencesRun: 0,
      createdBy: { name: expect.any(String) },
    });
    expect(await waitingJobs(schedule.id)).toEqual([{ runAt: new Date("2098-09-07T00:00:00.000Z"), payload: { scheduleId: schedule.id, day: "2098-09-07" } }]);

    const read = await api("GET", `/api/schedules/${schedule.id}`, { as: "teacher@demo.test" });
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ schedule, occurrences: [] });
    const listed = await api("GET", `/api/schedules?formId=${form.id}`, { as: "teacher@demo.test" });
    expect(listed.body).toEqual({ schedules: [schedule], total: 1, page: 1, limit: 20 });
    expect((await api("GET", `/api/schedules?groupId=${groupId}`, { as: "teacher@demo.test" })).body.total).toBe(1);
  });

  it("given a date-time, a clinic in Tokyo and named people, should keep the day it falls on there and start at its midnight there", async () => {
    const form = await createForm("teacher@other.test");
    const [student, candidate] = [
      await createStudent("teacher@other.test"),
      await api("POST", "/api/candidates", { as: "teacher@other.test", json: { name: unique("Applicant") } }),
    ];
    // 20:00 UTC on the 6th is already the 7th in Tokyo (UTC+9).
    const created = await api("POST", "/api/schedules", {
      as: "teacher@other.test",
      json: {
        formId: form.id,
        studentIds: [student.id, student.id],
        candidateIds: [candidate.body.id],
        startsAt: "2098-09-06T20:00:00Z",
        everyDays: 1,
        endsAt: "2098-09-20",
        send: false,
      },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.schedule).toMatchObject({
      students: [{ id: student.id, name: student.name }],
      candidates: [{ id: candidate.body.id, name: candidate.body.name }],
      startsAt: "2098-09-07",
      endsAt: "2098-09-20",
      count: null,
      nextOccurrence: { day: "2098-09-07", at: "2098-09-06T15:00:00.000Z" },
    });
  });

  it("given bodies the contract refuses, should answer 400 naming the field and make nothing", async () => {
    const form = await createForm("teacher@demo.test");
    const student = await createStudent("teacher@demo.test");
    const base = { formId: form.id, studentIds: [student.id], startsAt: "2098-10-01", everyDays: 7, send: false };
    const refusals: [Record<string, unknown>, string][] = [
      [{ ...base, studentIds: undefined }, "groupId"],
      [{ ...base, everyDays: 0 }, "everyDays"],
      [{ ...base, everyDays: 366 }, "everyDays"],
      [{ ...base, everyDays: 1.5 }, "everyDays"],
      [{ ...base, startsAt: "next monday" }, "startsAt"],
      [{ ...base, startsAt: "2000-01-03" }, "startsAt"],
      [{ ...base, endsAt: "2098-09-30" }, "endsAt"],
      [{ ...base, endsAt: "2098-12-01", count: 3 }, "count"],
      [{ ...base, count: 0 }, "count"],
      [{ ...base, remindAfterDays: 61 }, "remindAfterDays"],
      [{ ...base, expiresAfterDays: 0 }, "expiresAfterDays"],
      [{ ...base, send: undefined }, "send"],
      [{ ...base, organizationId: "x" }, "organizationId"],
      [{ ...base, paused: true }, "paused"],
    ];
    for (const [json, field] of refusals) {
      const response = await api("POST", "/api/schedules", { as: "teacher@demo.test", json });
      expect(response.status, `${field}: ${response.text}`).toBe(400);
      expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(response.body.code).toBe("VALIDATION_FAILED");
      expect(response.body.errors.map((error: { path: string }) => error.path)).toContain(field);
    }
    const tooOften = await api("POST", "/api/schedules", { as: "teacher@demo.test", json: { ...base, everyDays: 366 } });
    expect(tooOften.body.errors).toEqual([{ path: "everyDays", message: "Enter 365 or less." }]);
    const groupTooBig = await api("POST", "/api/schedules", {
      as: "teacher@demo.test",
      json: { ...base, studentIds: Array.from({ length: 1001 }, (_, i) => `x${i}`) },
    });
    expect(groupTooBig.status).toBe(400);
    expect((await api("GET", `/api/schedules?formId=${form.id}`, { as: "teacher@demo.test" })).body.total).toBe(0);
    for (const query of ["limit=0", "limit=101", "page=0", "formId=a&formId=b", "colour=blue"]) {
      expect((await api("GET", `/api/schedules?${query}`, { as: "teacher@demo.test" })).status, query).toBe(400);
    }
  });

  it("given another organization's form, group or person, or a form not published, should answer 404 (409) and make nothing", async () => {
    const form = await createForm("teacher@demo.test");
    const mine = await createStudent("teacher@demo.test");
    const theirForm = await createForm("teacher@other.test");
    const theirs = await createStudent("teacher@other.test");
    const { groupId: theirGroup } = await classOf("teacher@other.test", 1);
    const body = { startsAt: "2098-10-01", everyDays: 7, send: false };
    const post = (json: Record<string, unknown>) => api("POST", "/api/schedules", { as: "teacher@demo.test", json: { ...body, ...json } });
    expect((await post({ formId: theirForm.id, studentIds: [mine.id] })).status).toBe(404);
    expect((await post({ formId: form.id, studentIds: [mine.id, theirs.id] })).status).toBe(404);
    expect((await post({ formId: form.id, groupId: theirGroup })).status).toBe(404);
    // Another teacher's own form is not this teacher's to give.
    expect((await api("POST", "/api/schedules", { as: "teacher2@demo.test", json: { ...body, formId: form.id, studentIds: [mine.id] } })).status).toBe(404);
    await api("PUT", `/api/forms/${form.id}`, { as: "teacher@demo.test", json: { isPublished: false } });
    const unpublished = await post({ formId: form.id, studentIds: [mine.id] });
    expect(unpublished.status).toBe(409);
    expect(unpublished.body.code).toBe("FORM_NOT_PUBLISHED");
    expect(await testDatabase().schedule.count({ where: { formId: { in: [form.id, theirForm.id] } } })).toBe(0);
  });

  it("given the roles, should show a teacher their own schedules, an administrator the organization's, another organization nothing, and refuse a student", async () => {
    const form = await createForm("teacher@demo.test");
    const student = await createStudent("teacher@demo.test");
    const created = await api("POST", "/api/schedules", {
      as: "teacher@demo.test",
      json: { formId: form.id, studentIds: [student.id], startsAt: "2098-10-01", everyDays: 30, send: false },
    });
    const id = created.body.schedule.id as string;
    expect((await api("GET", `/api/schedules/${id}`, { as: "admin@demo.test" })).status).toBe(200);
    expect((await api("GET", `/api/schedules?formId=${form.id}`, { as: "admin@demo.test" })).body.total).toBe(1);
    for (const as of ["teacher2@demo.test", "admin@other.test", "teacher@other.test"] as const) {
      expect((await api("GET", `/api/schedules/${id}`, { as })).status, as).toBe(404);
      expect((await api("PUT", `/api/schedules/${id}`, { as, json: { paused: true } })).status, as).toBe(404);
      expect((await api("DELETE", `/api/schedules/${id}`, { as })).status, as).toBe(404);
      expect((await api("GET", `/api/schedules?formId=${form.id}`, { as })).body.total, as).toBe(0);
    }
    expect((await api("GET", "/api/schedules", { as: "student@demo.test" })).status).toBe(403);
    expect((await api("GET", `/api/schedules/${id}`, { as: "student@demo.test" })).status).toBe(403);
    expect((await api("GET", "/api/schedules")).status).toBe(401);
    // An administrator changes a teacher's schedule; its links stay the teacher's.
    const changed = await api("PUT", `/api/schedules/${id}`, { as: "admin@demo.test", json: { everyDays: 14 } });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.schedule).toMatchObject({ everyDays: 14, createdBy: created.body.schedule.createdBy });
    expect((await api("GET", "/api/schedules/nonexistent", { as: "admin@demo.test" })).status).toBe(404);
  });

  it("given a pause, a resume and changes, should stop and requeue the next occurrence, and refuse what the contract refuses", async () => {
    const form = await createForm("teacher@demo.test");
    const student = await createStudent("teacher@demo.test");
    const created = await api("POST", "/api/schedules", {
      as: "teacher@demo.test",
      json: { formId: form.id, studentIds: [student.id], startsAt: "2098-11-02", everyDays: 7, send: false },
    });
    const id = created.body.schedule.id as string;
    const put = (json: Record<string, unknown>) => api("PUT", `/api/schedules/${id}`, { as: "teacher@demo.test", json });

    const paused = await put({ paused: true });
    expect(paused.status, paused.text).toBe(200);
    expect(paused.body.schedule).toMatchObject({ paused: true, status: "PAUSED", nextOccurrence: null });
    expect(await waitingJobs(id)).toEqual([]);
    const resumed = await put({ paused: false });
    expect(resumed.body.schedule).toMatchObject({ paused: false, status: "ACTIVE", nextOccurrence: { day: "2098-11-02" } });
    expect(await waitingJobs(id)).toHaveLength(1);

    // A new day moves the next occurrence; its job moves with it, and only one waits.
    const moved = await put({ startsAt: "2098-11-05", everyDays: 14, count: 3, remindAfterDays: 1, expiresAfterDays: 10, send: true });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.schedule).toMatchObject({
      startsAt: "2098-11-05",
      everyDays: 14,
      count: 3,
      endsAt: null,
      send: true,
      remindAfterDays: 1,
      expiresAfterDays: 10,
      nextOccurrence: { day: "2098-11-05", at: "2098-11-05T00:00:00.000Z" },
    });
    expect(await waitingJobs(id)).toEqual([{ runAt: new Date("2098-11-05T00:00:00.000Z"), payload: { scheduleId: id, day: "2098-11-05" } }]);
    // A last day replaces the count, and null clears what may be cleared.
    const ending = await put({ endsAt: "2099-01-31", remindAfterDays: null, expiresAfterDays: null });
    expect(ending.body.schedule).toMatchObject({ endsAt: "2099-01-31", count: null, remindAfterDays: null, expiresAfterDays: null });
    // A last day before the next occurrence ends it; a later one starts it again.
    const ended = await put({ endsAt: "2098-11-05", startsAt: "2098-11-06" });
    expect(ended.status).toBe(400);
    expect(ended.body.errors.map((error: { path: string }) => error.path)).toEqual(["endsAt"]);

    const other = await createStudent("teacher@demo.test");
    const retargeted = await put({ studentIds: [other.id] });
    expect(retargeted.body.schedule.students).toEqual([{ id: other.id, name: other.name }]);

    for (const [json, field] of [
      [{ formId: form.id }, "formId"],
      [{ paused: "yes" }, "paused"],
      [{ everyDays: 0 }, "everyDays"],
      [{ endsAt: "2099-01-01", count: 2 }, "count"],
      [{ startsAt: "2000-01-03" }, "startsAt"],
      [{ studentIds: [] }, "groupId"],
    ] as const) {
      const refused = await put(json);
      expect(refused.status, `${field}: ${refused.text}`).toBe(400);
      expect(refused.body.errors.map((error: { path: string }) => error.path)).toContain(field);
    }
    const theirs = await createStudent("teacher@other.test");
    expect((await put({ studentIds: [theirs.id] })).status).toBe(404);
    expect((await api("GET", `/api/schedules/${id}`, { as: "teacher@demo.test" })).body.schedule.students).toEqual([{ id: other.id, name: other.name }]);
  });

  it("given a delete, should answer the deletion, forget the schedule and its next occurrence, and keep what it made", async () => {
    const form = await createForm("teacher@demo.test");
    const student = await createStudent("teacher@demo.test");
    const created = await api("POST", "/api/schedules", {
      as: "teacher@demo.test",
      json: { formId: form.id, studentIds: [student.id], startsAt: "2098-12-01", everyDays: 7, send: false },
    });
    const id = created.body.schedule.id as string;
    const deleted = await api("DELETE", `/api/schedules/${id}`, { as: "teacher@demo.test" });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id, deletedAt: expect.any(String) });
    expect((await api("GET", `/api/schedules/${id}`, { as: "teacher@demo.test" })).status).toBe(404);
    expect((await api("DELETE", `/api/schedules/${id}`, { as: "teacher@demo.test" })).status).toBe(404);
    expect((await api("GET", `/api/schedules?formId=${form.id}`, { as: "teacher@demo.test" })).body.total).toBe(0);
    expect(await waitingJobs(id)).toEqual([]);
  });

  it("given its form or its group deleted, should show it ended for good, with no next occurrence", async () => {
    const form = await createForm("teacher@demo.test");
    const { groupId } = await classOf("teacher@demo.test", 1);
    const make = (json: Record<string, unknown>) =>
      api("POST", "/api/schedules", { as: "teacher@demo.test", json: { startsAt: "2098-12-01", everyDays: 7, send: false, ...json } });
    const byGroup = (await make({ formId: form.id, groupId })).body.schedule;
    expect((await api("DELETE", `/api/groups/${groupId}`, { as: "teacher@demo.test" })).status).toBe(200);
    expect((await api("GET", `/api/schedules/${byGroup.id}`, { as: "teacher@demo.test" })).body.schedule).toMatchObject({
      status: "ENDED",
      endedBecause: "GROUP_DELETED",
      nextOccurrence: null,
    });
    const other = await createForm("teacher@demo.test");
    const student = await createStudent("teacher@demo.test");
    const byForm = (await make({ formId: other.id, studentIds: [student.id] })).body.schedule;
    expect((await api("DELETE", `/api/forms/${other.id}`, { as: "teacher@demo.test" })).status).toBe(200);
    const listed = await api("GET", `/api/schedules?formId=${other.id}`, { as: "teacher@demo.test" });
    expect(listed.body.schedules).toEqual([expect.objectContaining({ id: byForm.id, status: "ENDED", endedBecause: "FORM_DELETED", nextOccurrence: null })]);
  });
});
