import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, unique } from "../support/api.ts";
import { createForm } from "../support/assessment.ts";
import { testDatabase } from "../support/database.ts";
import { mailTo } from "../support/mail.ts";
import { startInstance, type Instance } from "../support/instance.ts";

/**
 * A double click, a retried sync, or two instances behind a load balancer send the same write
 * at once: it takes effect once (ADR 41). Each test fires the same request 10 times at once,
 * spread over the suite's server and a second instance on the same database, with a teacher's
 * API token (valid on both).
 */
let second: Instance;
let token: string;

beforeAll(async () => {
  second = await startInstance();
  const created = await api("POST", "/api/user/tokens", { as: "teacher@demo.test", json: { name: unique("Concurrency") } });
  expect(created.status, created.text).toBe(201);
  token = created.body.token;
}, 180_000);

afterAll(async () => {
  await second?.stop();
});

/** The same request ten times at once, every other one to the second instance. */
function tenAtOnce(method: string, path: string, body: { json: unknown } | { csv: string }) {
  return Promise.all(
    Array.from({ length: 10 }, async (_, index) => {
      const origin = index % 2 === 0 ? baseUrl() : second.baseUrl;
      const response = await fetch(`${origin}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "json" in body ? "application/json" : "text/csv" },
        body: "json" in body ? JSON.stringify(body.json) : body.csv,
      });
      return { status: response.status, body: await response.json() };
    }),
  );
}

describe("the same write ten times at once", { timeout: 120_000 }, () => {
  it("given one class list imported ten times at once, should make one class: each pupil once, one group", async () => {
    const tag = unique("twice").replaceAll("-", "");
    const csv = ["name,email,group", ...Array.from({ length: 20 }, (_, i) => `Pupil ${i} ${tag},p${i}.${tag}@school.test,Class ${tag}`)].join("\n");
    const answers = await tenAtOnce("POST", "/api/students/import", { csv });
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses, JSON.stringify(answers.find((answer) => answer.status >= 500)?.body)).toEqual([201, 400, 400, 400, 400, 400, 400, 400, 400, 400]);
    for (const refused of answers.filter((answer) => answer.status === 400)) {
      expect(refused.body.code).toBe("VALIDATION_FAILED");
      // Every row refused for its address, which the first import took.
      expect(refused.body.errors).toHaveLength(20);
      expect(new Set(refused.body.errors.map((error: { field: string }) => error.field))).toEqual(new Set(["email"]));
    }
    const students = await api("GET", `/api/students?search=${tag}&limit=100`, { as: "teacher@demo.test" });
    expect(students.body.total).toBe(20);
    const groups = await api("GET", `/api/groups?search=${tag}`, { as: "teacher@demo.test" });
    expect(groups.body.groups).toEqual([expect.objectContaining({ name: `Class ${tag}`, _count: { members: 20 } })]);
  });

  it("given one new student with one e-mail address sent ten times at once, should create them once and answer the others 409 EMAIL_TAKEN", async () => {
    const email = `${unique("once")}@school.test`.toLowerCase();
    const answers = await tenAtOnce("POST", "/api/students", { json: { name: unique("Only once"), email } });
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    for (const refused of answers.filter((answer) => answer.status === 409)) expect(refused.body.code).toBe("EMAIL_TAKEN");
    expect(await testDatabase().student.count({ where: { email, deletedAt: null } })).toBe(1);
  });

  it("given one form assigned to one class ten times at once with e-mail, should make one link and one e-mail per pupil", async () => {
    const tag = unique("double").replaceAll("-", "");
    const csv = ["name,email,group", ...Array.from({ length: 12 }, (_, i) => `Pupil ${i} ${tag},p${i}.${tag}@school.test,Class ${tag}`)].join("\n");
    expect((await api("POST", "/api/students/import", { as: "teacher@demo.test", body: csv, headers: { "content-type": "text/csv" } })).status).toBe(201);
    const group = (await api("GET", `/api/groups?search=${tag}`, { as: "teacher@demo.test" })).body.groups[0];
    const form = await createForm("teacher@demo.test");

    const answers = await tenAtOnce("POST", "/api/submissions/bulk", { json: { formId: form.id, groupId: group.id, send: true } });
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(201));
    expect(answers.reduce((sum, answer) => sum + answer.body.created.length, 0)).toBe(12);
    expect(answers.reduce((sum, answer) => sum + answer.body.skipped.length, 0)).toBe(9 * 12);

    const links = await testDatabase().submission.groupBy({ by: ["studentId"], where: { formId: form.id }, _count: { _all: true } });
    expect(links).toHaveLength(12);
    expect(links.every((link) => link._count._all === 1)).toBe(true);
    // Every e-mail sent (the suite's server runs the queue), and one each.
    await expect
      .poll(async () => (await Promise.all(Array.from({ length: 12 }, (_, i) => mailTo(`p${i}.${tag}@school.test`)))).every((mails) => mails.length >= 1))
      .toBe(true);
    const ids = (await testDatabase().submission.findMany({ where: { formId: form.id }, select: { id: true } })).map((row) => row.id);
    const waitingJobs = async () => {
      const jobs = await testDatabase().job.findMany({ where: { doneAt: null, failedAt: null }, select: { payload: true } });
      return jobs.filter((job) => ids.some((id) => JSON.stringify(job.payload).includes(id))).length;
    };
    await expect.poll(waitingJobs).toBe(0);
    for (let i = 0; i < 12; i++) expect(await mailTo(`p${i}.${tag}@school.test`)).toHaveLength(1);
  });

  it("given remind now for one class ten times at once, should send each pupil waiting one reminder", async () => {
    const tag = unique("remind").replaceAll("-", "");
    const csv = ["name,email,group", ...Array.from({ length: 6 }, (_, i) => `Pupil ${i} ${tag},r${i}.${tag}@school.test,Class ${tag}`)].join("\n");
    expect((await api("POST", "/api/students/import", { as: "teacher@demo.test", body: csv, headers: { "content-type": "text/csv" } })).status).toBe(201);
    const group = (await api("GET", `/api/groups?search=${tag}`, { as: "teacher@demo.test" })).body.groups[0];
    const form = await createForm("teacher@demo.test");
    // Assigned without e-mail: every message counted below is a reminder.
    expect((await api("POST", "/api/submissions/bulk", { as: "teacher@demo.test", json: { formId: form.id, groupId: group.id } })).status).toBe(201);

    const answers = await tenAtOnce("POST", "/api/submissions/remind", { json: { formId: form.id, groupId: group.id } });
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(202));
    expect(answers.reduce((sum, answer) => sum + answer.body.queued, 0)).toBe(6);

    await expect
      .poll(async () => (await Promise.all(Array.from({ length: 6 }, (_, i) => mailTo(`r${i}.${tag}@school.test`)))).every((mails) => mails.length >= 1))
      .toBe(true);
    const ids = (await testDatabase().submission.findMany({ where: { formId: form.id }, select: { id: true } })).map((row) => row.id);
    await expect.poll(() => testDatabase().job.count({ where: { submissionId: { in: ids }, doneAt: null, failedAt: null } })).toBe(0);
    for (let i = 0; i < 6; i++) {
      const mails = await mailTo(`r${i}.${tag}@school.test`);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toBe(`Reminder: ${form.title} is waiting for your answers`);
    }
  });
});
