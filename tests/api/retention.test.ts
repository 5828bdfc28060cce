import { describe, expect, it } from "vitest";
import { api, baseUrl, type RequestOptions, unique } from "../support/api.ts";
import { type CreatedForm, mediumAnswers, mixedForm } from "../support/assessment.ts";
import { inTestProcess, testDatabase } from "../support/database.ts";
import { createOrganization, errorPaths, expectProblem, type OwnOrganization } from "../support/fixtures.ts";
import { submissionCounts, submissionRecount, summaryRecount, summaryTallies } from "../support/recount.ts";

/**
 * The retention policy (docs/api-contract.md §21, ADR 89) over real HTTP, in organizations of this
 * file's own: the results and people are made through the API, then moved into the past in the
 * database; the daily run is the queue's own job, run in this process by the queue's runner with
 * a clock the test sets (hours ahead of the suite's server, whose real clock never reaches it).
 */
const services = () =>
  inTestProcess(async () => {
    const [{ runDueJobs }, { JOB_HANDLERS }] = await Promise.all([
      import("../../app/features/jobs/jobs.server.ts"),
      import("../../app/features/jobs/job-handlers.server.ts"),
    ]);
    return { runDueJobs, JOB_HANDLERS };
  });

const DAY = 24 * 3_600_000;
const monthsAgo = (months: number) => new Date(Date.now() - months * 30 * DAY);
/** The start of the next day in UTC after `at` (the organizations here are on UTC). */
const nextMidnight = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1));

const as = (cookie: string): RequestOptions => ({ cookie });

/** The organization's daily runs still to run. */
const waitingRuns = (organizationId: string) =>
  testDatabase().job.findMany({
    where: { concurrencyKey: `retention:${organizationId}`, doneAt: null, failedAt: null },
    select: { id: true, runAt: true, payload: true },
  });

/**
 * Runs the organization's waiting run as the worker would at `at`: its due time is moved there
 * first (out of reach of the suite's server, whose clock is hours behind). Answers how many ran.
 */
async function runRetention(organizationId: string, at: Date) {
  const [run] = await waitingRuns(organizationId);
  expect(run, "a waiting retention run").toBeDefined();
  await testDatabase().job.update({ where: { id: run!.id }, data: { runAt: at } });
  const { runDueJobs, JOB_HANDLERS } = await services();
  return runDueJobs(JOB_HANDLERS, { now: () => at, only: [run!.id] });
}

const retentionEvents = (organizationId: string) =>
  testDatabase().auditEvent.findMany({ where: { organizationId, action: "retention.applied" }, orderBy: { at: "asc" } });

/** A school of its own with a published form of its teacher. */
async function school(label: string) {
  const organization = await createOrganization(label);
  const created = await api("POST", "/api/forms", { ...as(organization.teacher), json: mixedForm() });
  expect(created.status, created.text).toBe(201);
  return { organization, form: created.body as CreatedForm };
}

async function newPerson(organization: OwnOrganization, kind: "students" | "candidates", name = unique("Person")) {
  const created = await api("POST", `/api/${kind}`, { ...as(organization.teacher), json: { name, email: `${unique("p").toLowerCase()}@people.test` } });
  expect(created.status, created.text).toBe(201);
  return created.body as { id: string; name: string };
}

/** A link of the form for the person, completed with medium answers (and its free text) when `complete`. */
async function linkFor(organization: OwnOrganization, form: CreatedForm, person: { studentId: string } | { candidateId: string }, complete = true) {
  const assigned = await api("POST", "/api/submissions", { ...as(organization.teacher), json: { formId: form.id, ...person } });
  expect(assigned.status, assigned.text).toBe(201);
  if (complete) {
    const submitted = await api("POST", `/api/test-link/${assigned.body.token}/submit`, { json: mediumAnswers(form) });
    expect(submitted.status, submitted.text).toBe(200);
  }
  return assigned.body.id as string;
}

/** Moves a link (made, and completed when it was) `months` into the past. */
async function age(submissionId: string, months: number) {
  const db = testDatabase();
  const row = await db.submission.findUniqueOrThrow({ where: { id: submissionId }, select: { isCompleted: true } });
  await db.submission.update({
    where: { id: submissionId },
    data: { createdAt: monthsAgo(months), ...(row.isCompleted ? { completedAt: monthsAgo(months) } : {}) },
  });
}

/**
 * The people and results of a school, with the moments that matter for a policy of 24 months for
 * results and 12 for inactive people:
 * - `active`: a result of 30 months (past the results rule), a link never completed made 30 months
 *   ago, and a result of last month; their record changed today.
 * - `idle`: a result of 18 months (inside the results rule) and no change for 18 months: inactive.
 * - `applicant`: a candidate with nothing for 18 months: inactive.
 * - `fresh`: a candidate made today: left alone.
 */
async function worldOf(label: string) {
  const { organization, form } = await school(label);
  const db = testDatabase();
  const active = await newPerson(organization, "students");
  const idle = await newPerson(organization, "students");
  const applicant = await newPerson(organization, "candidates");
  const fresh = await newPerson(organization, "candidates");
  const oldResult = await linkFor(organization, form, { studentId: active.id });
  const oldLink = await linkFor(organization, form, { studentId: active.id }, false);
  const recentResult = await linkFor(organization, form, { studentId: active.id });
  const idleResult = await linkFor(organization, form, { studentId: idle.id });
  await age(oldResult, 30);
  await age(oldLink, 30);
  await age(recentResult, 1);
  await age(idleResult, 18);
  await db.student.update({ where: { id: idle.id }, data: { updatedAt: monthsAgo(18) } });
  await db.candidate.update({ where: { id: applicant.id }, data: { updatedAt: monthsAgo(18) } });
  return { organization, form, active, idle, applicant, fresh, oldResult, oldLink, recentResult, idleResult };
}

async function setPolicy(organization: OwnOrganization, retention: unknown) {
  const before = new Date();
  const saved = await api("PUT", "/api/organization", { ...as(organization.admin), json: { retention } });
  expect(saved.status, saved.text).toBe(200);
  return { saved: saved.body, before, after: new Date() };
}

async function expectSummariesEqualARecount(organizationId: string, formId: string) {
  expect(await summaryTallies(formId)).toEqual(await summaryRecount(formId));
  expect(await submissionCounts([organizationId])).toEqual(await submissionRecount([organizationId]));
}

describe("the retention policy", () => {
  it("given ANONYMISE, should anonymise exactly what the preview listed, once, with summaries equal to a recount and one retention.applied event", async () => {
    const world = await worldOf("Anonymising school");
    const { organization, form } = world;
    const db = testDatabase();
    const tallied = await summaryTallies(form.id);

    const { saved, before, after } = await setPolicy(organization, { resultsMonths: 24, inactivePeopleMonths: 12, action: "ANONYMISE" });
    expect(saved.retention).toEqual({ resultsMonths: 24, inactivePeopleMonths: 12, action: "ANONYMISE" });
    expect((await api("GET", "/api/organization", as(organization.admin))).body.retention).toEqual(saved.retention);
    // One daily run, due at the start of the next day where the school is (UTC).
    const [queued] = await waitingRuns(organization.id);
    expect([nextMidnight(before).getTime(), nextMidnight(after).getTime()]).toContain(queued!.runAt.getTime());
    expect(queued!.payload).toEqual({ organizationId: organization.id });

    const preview = await api("GET", "/api/organization/retention/preview", as(organization.admin));
    expect(preview.status, preview.text).toBe(200);
    const oldRow = await db.submission.findUniqueOrThrow({ where: { id: world.oldResult }, select: { completedAt: true, createdAt: true } });
    const linkRow = await db.submission.findUniqueOrThrow({ where: { id: world.oldLink }, select: { createdAt: true } });
    expect(preview.body).toMatchObject({
      retention: saved.retention,
      nextRunAt: queued!.runAt.toISOString(),
      limit: 100,
      results: {
        count: 2,
        submissions: [
          { id: world.oldResult, completedAt: oldRow.completedAt!.toISOString(), createdAt: oldRow.createdAt.toISOString() },
          { id: world.oldLink, completedAt: null, createdAt: linkRow.createdAt.toISOString() },
        ],
      },
      people: {
        count: 2,
        people: [
          { kind: "student", id: world.idle.id, lastActivity: new Date(await idleLastActivity(world.idle.id)).toISOString() },
          { kind: "candidate", id: world.applicant.id, lastActivity: expect.any(String) },
        ],
      },
    });
    // Nothing was touched by looking.
    expect(await db.submission.count({ where: { organizationId: organization.id, anonymisedAt: { not: null } } })).toBe(0);

    const at = new Date(Date.now() + 6 * 3_600_000);
    expect(await runRetention(organization.id, at)).toBe(1);

    // The old result: scores kept, free text blanked, no one's any more.
    const old = await db.submission.findUniqueOrThrow({ where: { id: world.oldResult }, include: { answers: true } });
    expect(old).toMatchObject({ studentId: null, candidateId: null, anonymisedAt: at, totalScore: 1, isCompleted: true });
    expect((old.scoredAgainst as { respondent: unknown }).respondent).toEqual({ kind: "student", id: "", name: "", grade: null, age: null });
    expect(old.searchText).not.toContain(world.active.name.toLowerCase());
    expect(old.answers.find((answer) => answer.questionType === "TEXT")!.text).toBe("—");
    const report = await api("GET", `/api/reports/${world.oldResult}`, as(organization.admin));
    expect(report.status, report.text).toBe(200);
    expect(report.body).toMatchObject({ studentName: "", totalScore: 1, scoreLabel: "Medium" });
    expect(JSON.stringify(report.body)).not.toContain(world.active.name);
    // Everything that reads a result still reads it, without a respondent.
    const listed = await api("GET", `/api/reports?formId=${form.id}`, as(organization.admin));
    expect(listed.body.reports.map((item: { id: string }) => item.id)).toContain(world.oldResult);
    const fhir = await api("GET", `/api/reports/${world.oldResult}/fhir`, as(organization.admin));
    expect(fhir.status, fhir.text).toBe(200);
    expect(fhir.body.subject).toBeUndefined();
    expect(JSON.stringify(fhir.body)).not.toContain(world.active.id);
    const pdf = await fetch(`${baseUrl()}/en/reports/${world.oldResult}/pdf`, { headers: { cookie: organization.admin } });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    // The link never completed is gone; the recent result is as it was.
    expect(await db.submission.findUnique({ where: { id: world.oldLink } })).toBeNull();
    const recent = await db.submission.findUniqueOrThrow({ where: { id: world.recentResult }, include: { answers: true } });
    expect(recent).toMatchObject({ studentId: world.active.id, anonymisedAt: null });
    expect(recent.answers.find((answer) => answer.questionType === "TEXT")!.text).toBe("It was fine.");
    expect((await db.student.findUniqueOrThrow({ where: { id: world.active.id } })).name).toBe(world.active.name);

    // The inactive people, anonymised as an erasure does it (ADR 88): a mark for a name, no contact
    // details, off the lists; the idle student's result stays theirs, without its free text.
    const idle = await db.student.findUniqueOrThrow({ where: { id: world.idle.id } });
    expect(idle).toMatchObject({ email: null, phone: null, externalId: null, dateOfBirth: null, anonymisedAt: at });
    expect(idle.name).toMatch(/^#[0-9A-F]{6}$/);
    expect(idle.deletedAt).not.toBeNull();
    const idleResult = await db.submission.findUniqueOrThrow({ where: { id: world.idleResult }, include: { answers: true } });
    expect(idleResult).toMatchObject({ studentId: world.idle.id, anonymisedAt: at, totalScore: 1 });
    expect((idleResult.scoredAgainst as { respondent: { name: string } }).respondent.name).toBe(idle.name);
    expect(idleResult.answers.find((answer) => answer.questionType === "TEXT")!.text).toBe("—");
    const applicant = await db.candidate.findUniqueOrThrow({ where: { id: world.applicant.id } });
    expect(applicant).toMatchObject({ email: null, anonymisedAt: at });
    expect(applicant.name).not.toBe(world.applicant.name);
    expect(await db.candidate.findUniqueOrThrow({ where: { id: world.fresh.id } })).toMatchObject({ name: world.fresh.name, anonymisedAt: null });

    // The summaries still count both results as they did (their scores and choices are kept), and equal a recount.
    expect(await summaryTallies(form.id)).toEqual(tallied);
    await expectSummariesEqualARecount(organization.id, form.id);

    const [event, ...others] = await retentionEvents(organization.id);
    expect(others).toEqual([]);
    expect(event).toMatchObject({
      actorKind: "SYSTEM",
      actorName: "retention",
      actorId: null,
      targetType: "organization",
      targetId: organization.id,
      details: {
        policy: { resultsMonths: 24, inactivePeopleMonths: 12, action: "ANONYMISE" },
        results: { anonymised: 1, deleted: 1 },
        people: { anonymised: 2, deleted: 0, resultsAnonymised: 1, resultsDeleted: 0 },
      },
    });
    expect(JSON.stringify(event!.details)).not.toContain(world.idle.name);

    // The next day's run is queued; it touches nothing, and says so.
    const [next] = await waitingRuns(organization.id);
    expect(next!.runAt).toEqual(nextMidnight(at));
    const untouched = await db.submission.findMany({ where: { organizationId: organization.id }, orderBy: { id: "asc" } });
    expect(await runRetention(organization.id, new Date(next!.runAt.getTime() + 60_000))).toBe(1);
    expect(await db.submission.findMany({ where: { organizationId: organization.id }, orderBy: { id: "asc" } })).toEqual(untouched);
    expect((await db.student.findUniqueOrThrow({ where: { id: world.idle.id } })).name).toBe(idle.name);
    const events = await retentionEvents(organization.id);
    expect(events).toHaveLength(2);
    expect(events[1]!.details).toMatchObject({
      results: { anonymised: 0, deleted: 0 },
      people: { anonymised: 0, deleted: 0, resultsAnonymised: 0, resultsDeleted: 0 },
    });
    const afterwards = await api("GET", "/api/organization/retention/preview", as(organization.admin));
    expect(afterwards.body).toMatchObject({ results: { count: 0, submissions: [] }, people: { count: 0, people: [] } });
  });

  it("given DELETE, should delete exactly what the preview listed with their answers, once, and keep the summaries equal to a recount", async () => {
    const world = await worldOf("Deleting school");
    const { organization, form } = world;
    const db = testDatabase();
    await setPolicy(organization, { resultsMonths: 24, inactivePeopleMonths: 12, action: "DELETE" });
    const preview = (await api("GET", "/api/organization/retention/preview", as(organization.admin))).body;
    expect(preview.results.submissions.map((item: { id: string }) => item.id)).toEqual([world.oldResult, world.oldLink]);
    expect(preview.people.people.map((item: { id: string }) => item.id)).toEqual([world.idle.id, world.applicant.id]);

    const at = new Date(Date.now() + 6 * 3_600_000);
    expect(await runRetention(organization.id, at)).toBe(1);
    const left = await db.submission.findMany({ where: { organizationId: organization.id }, select: { id: true } });
    expect(left.map((row) => row.id)).toEqual([world.recentResult]);
    expect(await db.answer.count({ where: { submissionId: { in: [world.oldResult, world.idleResult] } } })).toBe(0);
    expect(await db.student.findUnique({ where: { id: world.idle.id } })).toBeNull();
    expect(await db.candidate.findUnique({ where: { id: world.applicant.id } })).toBeNull();
    expect(await db.student.findUnique({ where: { id: world.active.id } })).not.toBeNull();
    expect(await db.candidate.findUnique({ where: { id: world.fresh.id } })).not.toBeNull();
    await expectSummariesEqualARecount(organization.id, form.id);
    // The lists read with updatedSince are told of each deletion.
    const since = new Date(Date.now() - 60_000).toISOString();
    const changes = await api("GET", `/api/submissions?updatedSince=${encodeURIComponent(since)}&limit=100`, as(organization.admin));
    expect(changes.status, changes.text).toBe(200);
    const deleted = (changes.body.submissions as { id: string; deletedAt: string | null }[]).filter((item) => item.deletedAt !== null).map((item) => item.id);
    expect(deleted.sort()).toEqual([world.oldResult, world.oldLink, world.idleResult].sort());

    const [event] = await retentionEvents(organization.id);
    expect(event!.details).toMatchObject({
      results: { anonymised: 0, deleted: 2 },
      people: { anonymised: 0, deleted: 2, resultsAnonymised: 0, resultsDeleted: 1 },
    });
    // Again: nothing left to delete.
    expect(await runRetention(organization.id, new Date(at.getTime() + DAY))).toBe(1);
    expect(await db.submission.count({ where: { organizationId: organization.id } })).toBe(1);
    expect((await retentionEvents(organization.id))[1]!.details).toMatchObject({ results: { deleted: 0 }, people: { deleted: 0, resultsDeleted: 0 } });
  });

  it("given the policy removed, should remove its waiting run and keep everything", async () => {
    const { organization } = await school("Forgetful school");
    await setPolicy(organization, { resultsMonths: 6, action: "DELETE" });
    expect(await waitingRuns(organization.id)).toHaveLength(1);
    // Setting it again keeps the one run.
    await setPolicy(organization, { inactivePeopleMonths: 6, action: "ANONYMISE" });
    expect(await waitingRuns(organization.id)).toHaveLength(1);
    const { saved } = await setPolicy(organization, null);
    expect(saved.retention).toBeNull();
    expect(await waitingRuns(organization.id)).toEqual([]);
    const preview = await api("GET", "/api/organization/retention/preview", as(organization.admin));
    expect(preview.body).toEqual({ retention: null, nextRunAt: null, limit: 100, results: null, people: null });
  });

  it("given a policy that is not one, should answer 400 naming each field, and change nothing", async () => {
    const { organization } = await school("Careful school");
    const refused = async (retention: unknown, path: string) => {
      const response = await api("PUT", "/api/organization", { ...as(organization.admin), json: { retention } });
      expectProblem(response, 400, "VALIDATION_FAILED");
      expect(errorPaths(response)).toContain(path);
      return response;
    };
    await refused({ resultsMonths: 12, action: "ARCHIVE" }, "retention.action");
    await refused({ resultsMonths: 12 }, "retention.action");
    await refused({ resultsMonths: 0, action: "DELETE" }, "retention.resultsMonths");
    await refused({ resultsMonths: 601, action: "DELETE" }, "retention.resultsMonths");
    await refused({ inactivePeopleMonths: 1.5, action: "DELETE" }, "retention.inactivePeopleMonths");
    await refused({ inactivePeopleMonths: "12", action: "DELETE" }, "retention.inactivePeopleMonths");
    const none = await refused({ action: "DELETE" }, "retention.resultsMonths");
    expect(none.body.errors).toContainEqual({ path: "retention.resultsMonths", message: "Give a number of months for results, for inactive people, or both." });
    await refused({ resultsMonths: 12, action: "DELETE", auditMonths: 12 }, "retention.auditMonths");
    await refused("forever", "retention");
    expect((await api("GET", "/api/organization", as(organization.admin))).body.retention).toBeNull();
    expect(await waitingRuns(organization.id)).toEqual([]);
  });

  it("given a teacher, should answer 403 to the preview and to a policy", async () => {
    const { organization } = await school("Guarded school");
    expectProblem(await api("GET", "/api/organization/retention/preview", as(organization.teacher)), 403);
    expectProblem(await api("PUT", "/api/organization", { ...as(organization.teacher), json: { retention: { resultsMonths: 1, action: "DELETE" } } }), 403);
    expectProblem(await api("GET", "/api/organization/retention/preview"), 401);
    expect((await api("GET", "/api/organization", as(organization.admin))).body.retention).toBeNull();
  });
});

/** The idle student's last activity: their result's completion (their record changed at the same moment). */
async function idleLastActivity(studentId: string) {
  const db = testDatabase();
  const [student, result] = await Promise.all([
    db.student.findUniqueOrThrow({ where: { id: studentId }, select: { updatedAt: true } }),
    db.submission.findFirstOrThrow({ where: { studentId }, select: { createdAt: true, completedAt: true } }),
  ]);
  return Math.max(student.updatedAt.getTime(), result.createdAt.getTime(), result.completedAt!.getTime());
}
