import { describe, expect, it } from "vitest";
import { api, unique } from "../support/api.ts";
import { assign, createForm, createStudent } from "../support/assessment.ts";

/** Assigning a whole class at once over real HTTP (docs/api-contract.md §10). */
async function classOf(size: number) {
  const group = await api("POST", "/api/groups", { as: "teacher@demo.test", json: { name: unique("Bulk class") } });
  const students = await Promise.all(Array.from({ length: size }, (_, i) => createStudent("teacher@demo.test", unique(`Pupil ${String(i).padStart(2, "0")}`))));
  await api("POST", `/api/groups/${group.body.id}/members`, { as: "teacher@demo.test", json: { studentIds: students.map((s) => s.id) } });
  return { groupId: group.body.id as string, students };
}

describe("bulk assignment", () => {
  it("given 1,000 respondents (the most one call takes), should create 1,000 links, and skip all 1,000 when asked again", async () => {
    // A class list imported in one go, as a school would (SQLite once refused more than 999 values in one query).
    const tag = unique("thousand").replaceAll("-", "");
    const csv = ["name,group", ...Array.from({ length: 1000 }, (_, i) => `Pupil ${i} ${tag},Year ${tag}`)].join("\n");
    const imported = await api("POST", "/api/students/import", { as: "teacher@demo.test", body: csv, headers: { "content-type": "text/csv" } });
    expect(imported.status, JSON.stringify(imported.body).slice(0, 300)).toBe(201);
    const group = (await api("GET", `/api/groups?search=${tag}`, { as: "teacher@demo.test" })).body.groups[0];
    const form = await createForm("teacher@demo.test");
    const first = await api("POST", "/api/submissions/bulk", { as: "teacher@demo.test", json: { formId: form.id, groupId: group.id } });
    expect(first.status, JSON.stringify(first.body).slice(0, 300)).toBe(201);
    expect(first.body.created).toHaveLength(1000);
    expect(new Set(first.body.created.map((s: { token: string }) => s.token)).size).toBe(1000);
    const again = await api("POST", "/api/submissions/bulk", { as: "teacher@demo.test", json: { formId: form.id, groupId: group.id } });
    expect(again.status).toBe(201);
    expect(again.body.created).toEqual([]);
    expect(again.body.skipped).toHaveLength(1000);
    expect(new Set(again.body.skipped.map((s: { reason: string }) => s.reason))).toEqual(new Set(["ALREADY_PENDING"]));
  });

  it("given a group of 30, should create 30 working links at once, and skip the ones already pending when assigned again", async () => {
    const form = await createForm("teacher@demo.test");
    const { groupId, students } = await classOf(30);
    const first = await api("POST", "/api/submissions/bulk", { as: "teacher@demo.test", json: { formId: form.id, groupId } });
    expect(first.status).toBe(201);
    expect(first.body.created).toHaveLength(30);
    expect(first.body.skipped).toEqual([]);
    expect(new Set(first.body.created.map((s: { student: { id: string } }) => s.student.id))).toEqual(new Set(students.map((s) => s.id)));
    for (const created of first.body.created.slice(0, 3)) {
      expect(created).toMatchObject({ status: "PENDING", form: { id: form.id } });
      expect(created.url).toMatch(new RegExp(`/en/test/${created.token}$`));
      expect((await api("GET", `/api/test-link/${created.token}`)).status).toBe(200);
    }

    // One newcomer: the other 30 are skipped as already pending, the newcomer gets a link.
    const newcomer = await createStudent("teacher@demo.test", unique("Newcomer"));
    const again = await api("POST", "/api/submissions/bulk", { as: "teacher@demo.test", json: { formId: form.id, groupId, studentIds: [newcomer.id] } });
    expect(again.status).toBe(201);
    expect(again.body.created.map((s: { student: { id: string } }) => s.student.id)).toEqual([newcomer.id]);
    expect(again.body.skipped).toHaveLength(30);
    expect(new Set(again.body.skipped.map((s: { reason: string }) => s.reason))).toEqual(new Set(["ALREADY_PENDING"]));
  });

  it("given inactive students and a revoked earlier link, should skip the inactive (NOT_ACTIVE) and give the revoked one a new link", async () => {
    const form = await createForm("teacher@demo.test");
    const active = await createStudent("teacher@demo.test", unique("Active"));
    const graduated = await api("POST", "/api/students", { as: "teacher@demo.test", json: { name: unique("Graduated"), status: "GRADUATED" } });
    const earlier = await assign("teacher@demo.test", { formId: form.id, studentId: active.id });
    await api("POST", `/api/submissions/${earlier.id}/revoke`, { as: "teacher@demo.test" });
    const response = await api("POST", "/api/submissions/bulk", {
      as: "teacher@demo.test",
      json: { formId: form.id, studentIds: [active.id, graduated.body.id, active.id] },
    });
    expect(response.status).toBe(201);
    expect(response.body.created.map((s: { student: { id: string } }) => s.student.id)).toEqual([active.id]);
    expect(response.body.skipped).toEqual([{ kind: "student", id: graduated.body.id, name: graduated.body.name, reason: "NOT_ACTIVE" }]);
  });

  it("given an id of another organization, should answer 404 and create nothing", async () => {
    const form = await createForm("teacher@demo.test");
    const mine = await createStudent("teacher@demo.test", unique("Mine"));
    const theirs = await createStudent("teacher@other.test", unique("Theirs"));
    const response = await api("POST", "/api/submissions/bulk", { as: "teacher@demo.test", json: { formId: form.id, studentIds: [mine.id, theirs.id] } });
    expect(response.status).toBe(404);
    expect((await api("GET", `/api/submissions?formId=${form.id}`, { as: "teacher@demo.test" })).body.total).toBe(0);
    const otherGroup = await api("POST", "/api/groups", { as: "teacher@other.test", json: { name: unique("Theirs") } });
    expect((await api("POST", "/api/submissions/bulk", { as: "teacher@demo.test", json: { formId: form.id, groupId: otherGroup.body.id } })).status).toBe(404);
  });

  it.each([
    [{}, "formId"],
    [{ formId: "x" }, "groupId"],
    [{ formId: "x", studentIds: [] }, "groupId"],
    [{ formId: "x", studentIds: Array.from({ length: 1001 }, (_, i) => `s${i}`) }, "studentIds"],
    [{ formId: "x", studentIds: ["s"], expiresAt: "2020-01-01T00:00:00Z" }, "expiresAt"],
    [{ formId: "x", studentIds: ["s"], send: "yes" }, "send"],
  ])("given an invalid request (%#), should answer 400 pointing at %s", async (json, path) => {
    const response = await api("POST", "/api/submissions/bulk", { as: "teacher@demo.test", json });
    expect(response.status).toBe(400);
    expect(response.body.errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  it("given an unpublished form or a student's login, should answer 409 and 403", async () => {
    const draft = await api("POST", "/api/forms", { as: "teacher@demo.test", json: { title: unique("Draft"), isPublished: false } });
    const student = await createStudent("teacher@demo.test");
    const response = await api("POST", "/api/submissions/bulk", { as: "teacher@demo.test", json: { formId: draft.body.id, studentIds: [student.id] } });
    expect(response.status).toBe(409);
    expect(response.body.code).toBe("FORM_NOT_PUBLISHED");
    expect((await api("POST", "/api/submissions/bulk", { as: "student@demo.test", json: { formId: draft.body.id, studentIds: [student.id] } })).status).toBe(
      403,
    );
  });
});
