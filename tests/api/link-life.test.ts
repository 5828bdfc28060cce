import { describe, expect, it } from "vitest";
import { api, unique } from "../support/api.ts";
import { assign, createForm, createStudent, mediumAnswers } from "../support/assessment.ts";
import { testDatabase } from "../support/database.ts";

/** The life of a link over real HTTP (docs/api-contract.md §10): statuses, revoke, extend, a closed form. */
async function newLink(as: "teacher@demo.test" | "teacher2@demo.test" = "teacher@demo.test") {
  const form = await createForm(as);
  const student = await createStudent(as, unique("Respondent"));
  const assignment = await assign(as, { formId: form.id, studentId: student.id });
  return { form, student, assignment };
}

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

describe("the life of a link", () => {
  it("given a new link, should be PENDING with nothing sent, and OPENED once the respondent opens it", async () => {
    const { assignment } = await newLink();
    const created = await api("GET", `/api/submissions/${assignment.id}`, { as: "teacher@demo.test" });
    expect(created.body).toMatchObject({ status: "PENDING", openedAt: null, sentAt: null, sendCount: 0, remindedAt: null, revokedAt: null });
    expect((await api("GET", `/api/test-link/${assignment.token}`)).status).toBe(200);
    const opened = await api("GET", `/api/submissions/${assignment.id}`, { as: "teacher@demo.test" });
    expect(opened.body.status).toBe("OPENED");
    expect(Date.parse(opened.body.openedAt)).toBeGreaterThan(Date.now() - 60_000);
    // Opening again keeps the first time.
    await api("GET", `/api/test-link/${assignment.token}`);
    expect((await api("GET", `/api/submissions/${assignment.id}`, { as: "teacher@demo.test" })).body.openedAt).toBe(opened.body.openedAt);
  });

  it("given a revoked link, should answer 410 LINK_REVOKED to the respondent, take no answers, and show REVOKED", async () => {
    const { form, assignment } = await newLink();
    const revoked = await api("POST", `/api/submissions/${assignment.id}/revoke`, { as: "teacher@demo.test" });
    expect(revoked.status).toBe(200);
    expect(revoked.body.status).toBe("REVOKED");
    const open = await api("GET", `/api/test-link/${assignment.token}`);
    expect(open.status).toBe(410);
    expect(open.body.code).toBe("LINK_REVOKED");
    const submit = await api("POST", `/api/test-link/${assignment.token}/submit`, { json: mediumAnswers(form) });
    expect(submit.status).toBe(410);
    expect(submit.body.code).toBe("LINK_REVOKED");
    // Twice is the same as once.
    const again = await api("POST", `/api/submissions/${assignment.id}/revoke`, { as: "teacher@demo.test" });
    expect(again.body.revokedAt).toBe(revoked.body.revokedAt);
    // A revoked link stays revoked: its expiry cannot bring it back.
    const extend = await api("PUT", `/api/submissions/${assignment.id}`, { as: "teacher@demo.test", json: { expiresAt: inDays(7) } });
    expect(extend.status).toBe(410);
    expect(extend.body.code).toBe("LINK_REVOKED");
    const list = await api("GET", `/api/submissions?status=REVOKED&formId=${form.id}`, { as: "teacher@demo.test" });
    expect(list.body.submissions.map((s: { id: string }) => s.id)).toEqual([assignment.id]);
    expect((await api("GET", `/api/submissions?status=PENDING&formId=${form.id}`, { as: "teacher@demo.test" })).body.submissions).toEqual([]);
  });

  it("given someone other than the assigner, should let an administrator revoke, a colleague not see it (404) and a student not (403)", async () => {
    const { assignment } = await newLink();
    expect((await api("POST", `/api/submissions/${assignment.id}/revoke`, { as: "teacher2@demo.test" })).status).toBe(404);
    expect((await api("PUT", `/api/submissions/${assignment.id}`, { as: "teacher2@demo.test", json: { expiresAt: null } })).status).toBe(404);
    expect((await api("POST", `/api/submissions/${assignment.id}/revoke`, { as: "teacher@other.test" })).status).toBe(404);
    expect((await api("POST", `/api/submissions/${assignment.id}/revoke`, { as: "student@demo.test" })).status).toBe(403);
    expect((await api("GET", `/api/test-link/${assignment.token}`)).status).toBe(200);
    expect((await api("POST", `/api/submissions/${assignment.id}/revoke`, { as: "admin@demo.test" })).body.status).toBe("REVOKED");
  });

  it("given a completed submission, should refuse to revoke it or change its expiry (409)", async () => {
    const { form, assignment } = await newLink();
    expect((await api("POST", `/api/test-link/${assignment.token}/submit`, { json: mediumAnswers(form) })).status).toBe(200);
    const revoke = await api("POST", `/api/submissions/${assignment.id}/revoke`, { as: "teacher@demo.test" });
    expect(revoke.status).toBe(409);
    expect(revoke.body.code).toBe("ALREADY_COMPLETED");
    expect((await api("PUT", `/api/submissions/${assignment.id}`, { as: "teacher@demo.test", json: { expiresAt: inDays(3) } })).status).toBe(409);
  });

  it("given an expired link, should bring it back with a later expiry, and take no expiry or refuse a past one", async () => {
    const { assignment } = await newLink();
    // Expired a day ago: set in the database, as no request may give a past expiry.
    await testDatabase().submission.update({ where: { id: assignment.id }, data: { expiresAt: new Date(Date.now() - 86_400_000) } });
    expect((await api("GET", `/api/test-link/${assignment.token}`)).body.code).toBe("LINK_EXPIRED");
    expect((await api("GET", `/api/submissions/${assignment.id}`, { as: "teacher@demo.test" })).body.status).toBe("EXPIRED");
    const past = await api("PUT", `/api/submissions/${assignment.id}`, {
      as: "teacher@demo.test",
      json: { expiresAt: new Date(Date.now() - 1000).toISOString() },
    });
    expect(past.status).toBe(400);
    expect(past.body.errors[0].path).toBe("expiresAt");
    const later = inDays(10);
    const extended = await api("PUT", `/api/submissions/${assignment.id}`, { as: "teacher@demo.test", json: { expiresAt: later } });
    expect(extended.status).toBe(200);
    expect(extended.body).toMatchObject({ status: "PENDING", expiresAt: later });
    expect((await api("GET", `/api/test-link/${assignment.token}`)).status).toBe(200);
    const unlimited = await api("PUT", `/api/submissions/${assignment.id}`, { as: "teacher@demo.test", json: { expiresAt: null } });
    expect(unlimited.body).toMatchObject({ status: "OPENED", expiresAt: null });
  });

  it("given a form unpublished, should close its pending links (410 FORM_CLOSED) until it is published again", async () => {
    const { form, assignment } = await newLink();
    expect((await api("PUT", `/api/forms/${form.id}`, { as: "teacher@demo.test", json: { isPublished: false } })).status).toBe(200);
    const closed = await api("GET", `/api/test-link/${assignment.token}`);
    expect(closed.status).toBe(410);
    expect(closed.body.code).toBe("FORM_CLOSED");
    expect((await api("POST", `/api/test-link/${assignment.token}/submit`, { json: mediumAnswers(form) })).body.code).toBe("FORM_CLOSED");
    await api("PUT", `/api/forms/${form.id}`, { as: "teacher@demo.test", json: { isPublished: true } });
    expect((await api("POST", `/api/test-link/${assignment.token}/submit`, { json: mediumAnswers(form) })).status).toBe(200);
  });

  it("given a group, should list only the submissions of its members", async () => {
    const { student, assignment } = await newLink();
    await newLink();
    const group = await api("POST", "/api/groups", { as: "teacher@demo.test", json: { name: unique("Link group") } });
    await api("POST", `/api/groups/${group.body.id}/members`, { as: "teacher@demo.test", json: { studentIds: [student.id] } });
    const list = await api("GET", `/api/submissions?groupId=${group.body.id}`, { as: "teacher@demo.test" });
    expect(list.body.submissions.map((s: { id: string }) => s.id)).toEqual([assignment.id]);
  });
});
