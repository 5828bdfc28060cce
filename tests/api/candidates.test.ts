import { describe, expect, it } from "vitest";
import { api, unique } from "../support/api.ts";
import { testDatabase } from "../support/database.ts";
import { errorPaths, expectProblem } from "../support/fixtures.ts";

async function createCandidate(name = unique("Candidate")) {
  const response = await api("POST", "/api/candidates", {
    as: "teacher@demo.test",
    json: { name, email: `${unique("c")}@mail.test`, age: 14, grade: "8", gender: "male", status: "IN_EVALUATION" },
  });
  expect(response.status).toBe(201);
  return response.body;
}

describe("candidates", () => {
  it("given a new candidate, should create it with status, profile and empty evaluations", async () => {
    const candidate = await createCandidate("François Lefèvre");
    expect(candidate).toMatchObject({ name: "François Lefèvre", status: "IN_EVALUATION", promotedStudentId: null, evaluations: [] });
    const defaulted = await api("POST", "/api/candidates", { as: "teacher@demo.test", json: { name: "Defaulted" } });
    expect(defaulted.body.status).toBe("NEW");
  });

  it("given status PROMOTED in a body, should answer 400: promotion has its own endpoint", async () => {
    const response = await api("POST", "/api/candidates", { as: "teacher@demo.test", json: { name: "X", status: "PROMOTED" } });
    expect(response.status).toBe(400);
  });

  it("given search and status filters, should apply both", async () => {
    const tag = unique("t").replaceAll("-", "");
    await createCandidate(`Søren Ærø ${tag}`);
    const response = await api("GET", `/api/candidates?search=${encodeURIComponent(`soren aero ${tag}`)}&status=IN_EVALUATION`, {
      as: "teacher@demo.test",
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ total: 1, page: 1, limit: 20 });
    const none = await api("GET", `/api/candidates?search=${tag}&status=NEW`, { as: "teacher@demo.test" });
    expect(none.body.total).toBe(0);
    expect((await api("GET", "/api/candidates?status=ENROLLED", { as: "teacher@demo.test" })).status).toBe(400);
  });

  it("given an update, should change the fields sent", async () => {
    const candidate = await createCandidate();
    const response = await api("PUT", `/api/candidates/${candidate.id}`, { as: "teacher@demo.test", json: { status: "APPROVED", phone: "555" } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: "APPROVED", phone: "555", name: candidate.name });
  });

  it("given an admin, should promote once: a student from the profile, the candidate PROMOTED, 409 on repeat", async () => {
    const candidate = await createCandidate();
    expect((await api("POST", `/api/candidates/${candidate.id}/promote`, { as: "teacher@demo.test" })).status).toBe(403);
    const response = await api("POST", `/api/candidates/${candidate.id}/promote`, { as: "admin@demo.test" });
    expect(response.status).toBe(201);
    const { student, candidate: promoted } = response.body;
    expect(student).toMatchObject({ name: candidate.name, email: candidate.email, age: 14, grade: "8", gender: "male", status: "ACTIVE" });
    expect(promoted).toMatchObject({ id: candidate.id, status: "PROMOTED", promotedStudentId: student.id });
    expect((await api("GET", `/api/students/${student.id}`, { as: "teacher@demo.test" })).status).toBe(200);
    const again = await api("POST", `/api/candidates/${candidate.id}/promote`, { as: "admin@demo.test" });
    expect(again.status).toBe(409);
    expect(await testDatabase().student.count({ where: { email: candidate.email } })).toBe(1);
  });

  it("given parallel promotions of one candidate, should create exactly one student", async () => {
    const candidate = await createCandidate();
    const responses = await Promise.all(Array.from({ length: 6 }, () => api("POST", `/api/candidates/${candidate.id}/promote`, { as: "admin@demo.test" })));
    expect(responses.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect(await testDatabase().student.count({ where: { email: candidate.email, deletedAt: null } })).toBe(1);
  });

  it("given a date of birth and a record number, should keep them, find the candidate by the number's start, refuse a later day, and carry the date to the promoted student", async () => {
    const tag = unique("CAND").toUpperCase();
    const created = await api("POST", "/api/candidates", {
      as: "teacher@demo.test",
      json: { name: unique("Dated"), externalId: `${tag}-7`, dateOfBirth: "2011-12-31" },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ externalId: `${tag}-7`, dateOfBirth: "2011-12-31" });
    const listed = await api("GET", `/api/candidates?search=${encodeURIComponent(tag.toLowerCase())}`, { as: "teacher@demo.test" });
    expect(listed.body.candidates).toEqual([expect.objectContaining({ id: created.body.id, dateOfBirth: "2011-12-31" })]);

    const later = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    for (const dateOfBirth of [later, "2011-13-01", "31.12.2011"]) {
      const refused = await api("PUT", `/api/candidates/${created.body.id}`, { as: "teacher@demo.test", json: { dateOfBirth } });
      expectProblem(refused, 400, "VALIDATION_FAILED");
      expect(errorPaths(refused)).toEqual(["dateOfBirth"]);
    }
    expect(errorPaths(await api("POST", "/api/candidates", { as: "teacher@demo.test", json: { name: "Later", dateOfBirth: later } }))).toEqual(["dateOfBirth"]);

    const promoted = await api("POST", `/api/candidates/${created.body.id}/promote`, { as: "admin@demo.test" });
    expect(promoted.status).toBe(201);
    expect(promoted.body.student).toMatchObject({ dateOfBirth: "2011-12-31" });
  });

  it("given an admin delete, should soft-delete the candidate", async () => {
    const candidate = await createCandidate();
    expect((await api("DELETE", `/api/candidates/${candidate.id}`, { as: "teacher@demo.test" })).status).toBe(403);
    const response = await api("DELETE", `/api/candidates/${candidate.id}`, { as: "admin@demo.test" });
    expect(response.status).toBe(200);
    expect(response.body.id).toBe(candidate.id);
    expect((await api("GET", `/api/candidates/${candidate.id}`, { as: "admin@demo.test" })).status).toBe(404);
    expect((await testDatabase().candidate.findUnique({ where: { id: candidate.id } }))?.deletedAt).not.toBeNull();
  });
});
