import { describe, expect, it } from "vitest";
import { api, unique } from "../support/api.ts";
import { createStudent } from "../support/assessment.ts";

/** Groups (classes, caseloads) over real HTTP: docs/api-contract.md §9. */
async function createCandidate(as: "teacher@demo.test" | "teacher@other.test", name = unique("Candidate")) {
  const response = await api("POST", "/api/candidates", { as, json: { name } });
  expect(response.status).toBe(201);
  return response.body as { id: string; name: string };
}

async function createGroup(as: "teacher@demo.test" | "teacher2@demo.test" | "teacher@other.test", name = unique("5B")) {
  const response = await api("POST", "/api/groups", { as, json: { name, description: "Reading group" } });
  expect(response.status).toBe(201);
  return response.body as { id: string; name: string };
}

describe("groups", () => {
  it("given a name, should create the group (201) with no members, and list it with its member count", async () => {
    const name = unique("Clase Ñandú");
    const created = await api("POST", "/api/groups", { as: "teacher@demo.test", json: { name, description: "  Lectura  " } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name, description: "Lectura", members: [], createdBy: { name: expect.any(String) } });
    const student = await createStudent("teacher@demo.test", "Ana Lima");
    await api("POST", `/api/groups/${created.body.id}/members`, { as: "teacher@demo.test", json: { studentIds: [student.id] } });
    // Found by any part of its name, without accents or case.
    const list = await api("GET", `/api/groups?search=${encodeURIComponent("NANDU")}&limit=100`, { as: "teacher2@demo.test" });
    expect(list.status).toBe(200);
    expect(list.body.groups.find((group: { id: string }) => group.id === created.body.id)).toMatchObject({ name, _count: { members: 1 } });
  });

  it("given students and candidates, should add them once however often they are sent, list them by name, and remove them", async () => {
    const group = await createGroup("teacher@demo.test");
    const zoe = await createStudent("teacher@demo.test", "Zoë Ørsted");
    const ana = await createStudent("teacher@demo.test", "Ana Lima");
    const bruno = await createCandidate("teacher@demo.test", "Bruno Costa");
    const add = await api("POST", `/api/groups/${group.id}/members`, {
      as: "teacher@demo.test",
      json: { studentIds: [zoe.id, ana.id, ana.id], candidateIds: [bruno.id] },
    });
    expect(add.status).toBe(200);
    expect(add.body.members).toEqual([
      { kind: "student", id: ana.id, name: "Ana Lima", status: "ACTIVE" },
      { kind: "candidate", id: bruno.id, name: "Bruno Costa", status: "NEW" },
      { kind: "student", id: zoe.id, name: "Zoë Ørsted", status: "ACTIVE" },
    ]);
    const again = await api("POST", `/api/groups/${group.id}/members`, { as: "teacher@demo.test", json: { studentIds: [zoe.id] } });
    expect(again.body.members).toHaveLength(3);
    // Both at once, racing: still one membership each.
    await Promise.all([0, 1].map(() => api("POST", `/api/groups/${group.id}/members`, { as: "teacher@demo.test", json: { candidateIds: [bruno.id] } })));
    expect((await api("GET", `/api/groups/${group.id}`, { as: "teacher@demo.test" })).body.members).toHaveLength(3);

    const filtered = await api("GET", `/api/students?groupId=${group.id}`, { as: "teacher@demo.test" });
    expect(filtered.body.students.map((s: { id: string }) => s.id).sort()).toEqual([ana.id, zoe.id].sort());
    const candidates = await api("GET", `/api/candidates?groupId=${group.id}`, { as: "teacher@demo.test" });
    expect(candidates.body.candidates.map((c: { id: string }) => c.id)).toEqual([bruno.id]);

    const removed = await api("DELETE", `/api/groups/${group.id}/members`, {
      as: "teacher@demo.test",
      json: { studentIds: [zoe.id], candidateIds: [bruno.id] },
    });
    expect(removed.status).toBe(200);
    expect(removed.body.members.map((m: { id: string }) => m.id)).toEqual([ana.id]);
    // A deleted student leaves every answer.
    await api("DELETE", `/api/students/${ana.id}`, { as: "admin@demo.test" });
    expect((await api("GET", `/api/groups/${group.id}`, { as: "teacher@demo.test" })).body.members).toEqual([]);
  });

  it("given an id of another organization among the members, should answer 404 and change nothing", async () => {
    const group = await createGroup("teacher@demo.test");
    const mine = await createStudent("teacher@demo.test");
    const theirs = await createStudent("teacher@other.test");
    const response = await api("POST", `/api/groups/${group.id}/members`, { as: "teacher@demo.test", json: { studentIds: [mine.id, theirs.id] } });
    expect(response.status).toBe(404);
    expect((await api("GET", `/api/groups/${group.id}`, { as: "teacher@demo.test" })).body.members).toEqual([]);
  });

  it("given another organization's group, should answer 404 to every call and change nothing", async () => {
    const group = await createGroup("teacher@other.test");
    const student = await createStudent("teacher@demo.test");
    const calls: [string, string, unknown?][] = [
      ["GET", `/api/groups/${group.id}`],
      ["PUT", `/api/groups/${group.id}`, { name: "Mine now" }],
      ["DELETE", `/api/groups/${group.id}`],
      ["POST", `/api/groups/${group.id}/members`, { studentIds: [student.id] }],
      ["DELETE", `/api/groups/${group.id}/members`, { studentIds: [student.id] }],
    ];
    for (const [method, path, json] of calls) {
      const response = await api(method, path, { as: "admin@demo.test", ...(json ? { json } : {}) });
      expect(response.status, `${method} ${path}`).toBe(404);
    }
    const list = await api("GET", "/api/groups?limit=100", { as: "admin@demo.test" });
    expect(list.body.groups.some((g: { id: string }) => g.id === group.id)).toBe(false);
    expect((await api("GET", `/api/groups/${group.id}`, { as: "teacher@other.test" })).body).toMatchObject({ name: group.name, members: [] });
    expect((await api("GET", `/api/students?groupId=${group.id}`, { as: "teacher@demo.test" })).body.students).toEqual([]);
  });

  it("given a colleague's group, should let a teacher read it but not change it (403), and an administrator change and delete it", async () => {
    const group = await createGroup("teacher2@demo.test");
    const student = await createStudent("teacher@demo.test");
    expect((await api("GET", `/api/groups/${group.id}`, { as: "teacher@demo.test" })).status).toBe(200);
    expect((await api("PUT", `/api/groups/${group.id}`, { as: "teacher@demo.test", json: { name: "Taken" } })).status).toBe(403);
    expect((await api("POST", `/api/groups/${group.id}/members`, { as: "teacher@demo.test", json: { studentIds: [student.id] } })).status).toBe(403);
    expect((await api("DELETE", `/api/groups/${group.id}`, { as: "teacher@demo.test" })).status).toBe(403);
    const renamed = await api("PUT", `/api/groups/${group.id}`, { as: "admin@demo.test", json: { name: "6A", description: "" } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: "6A", description: null });
    const deleted = await api("DELETE", `/api/groups/${group.id}`, { as: "admin@demo.test" });
    expect(deleted.status).toBe(200);
    expect((await api("GET", `/api/groups/${group.id}`, { as: "admin@demo.test" })).status).toBe(404);
  });

  it("given a student's login, should answer 403 on the groups", async () => {
    expect((await api("GET", "/api/groups", { as: "student@demo.test" })).status).toBe(403);
    expect((await api("POST", "/api/groups", { as: "student@demo.test", json: { name: "Mine" } })).status).toBe(403);
  });

  it.each([
    [{}, "name"],
    [{ name: "" }, "name"],
    [{ name: "x".repeat(201) }, "name"],
    [{ name: "A", members: [] }, "members"],
  ])("given an invalid group (%#), should answer 400 pointing at %s", async (json, path) => {
    const response = await api("POST", "/api/groups", { as: "teacher@demo.test", json });
    expect(response.status).toBe(400);
    expect(response.body.errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  it("given more than 1,000 ids in one members call, should answer 400", async () => {
    const group = await createGroup("teacher@demo.test");
    const studentIds = Array.from({ length: 1001 }, (_, i) => `id${i}`);
    const response = await api("POST", `/api/groups/${group.id}/members`, { as: "teacher@demo.test", json: { studentIds } });
    expect(response.status).toBe(400);
    expect(response.body.errors[0].path).toBe("studentIds");
  });
});
