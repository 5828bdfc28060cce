import { describe, expect, it } from "vitest";
import { api, unique } from "../support/api.ts";
import { testDatabase } from "../support/database.ts";

const STUDENT_FIELDS = ["age", "createdAt", "deletedAt", "email", "externalId", "gender", "grade", "id", "name", "phone", "status", "updatedAt"];

describe("students", () => {
  it("given JSON with all profile fields, should create the student (201) with an empty history", async () => {
    const email = `${unique("s")}@demo.test`.toUpperCase();
    const response = await api("POST", "/api/students", {
      as: "teacher@demo.test",
      json: { name: "Inês Gonçalves", email, phone: "+55 11 5555-0101", age: 11, grade: "6B", gender: "female", status: "ACTIVE" },
    });
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual([...STUDENT_FIELDS, "submissions"].sort());
    expect(response.body).toMatchObject({ name: "Inês Gonçalves", email: email.toLowerCase(), age: 11, status: "ACTIVE", submissions: [] });
  });

  it("given multipart form data, should coerce the fields from the same schema", async () => {
    const body = new FormData();
    body.set("name", "Zoë Ørsted");
    body.set("age", "9");
    body.set("status", "INACTIVE");
    body.set("grade", "");
    const response = await api("POST", "/api/students", { as: "teacher@demo.test", body });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ name: "Zoë Ørsted", age: 9, status: "INACTIVE", grade: null });
  });

  it("given urlencoded data with a bad age, should answer 400 naming the field", async () => {
    const response = await api("POST", "/api/students", {
      as: "teacher@demo.test",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "name=Ana&age=old",
    });
    expect(response.status).toBe(400);
    expect(response.body.errors.map((e: { path: string }) => e.path)).toContain("age");
  });

  it.each([
    [{}, "name"],
    [{ name: "A", status: "EXPELLED" }, "status"],
    [{ name: "A", age: 151 }, "age"],
    [{ name: "A", age: 10.5 }, "age"],
    [{ name: "A", email: "not-an-email" }, "email"],
    [{ name: "A", organizationId: "other" }, "organizationId"],
    [{ name: "A", deletedAt: null }, "deletedAt"],
  ])("given an invalid body (%#), should answer 400 pointing at %s", async (json, path) => {
    const response = await api("POST", "/api/students", { as: "teacher@demo.test", json });
    expect(response.status).toBe(400);
    expect(response.body.errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  it("given an e-mail another student of the organization uses, should answer 409", async () => {
    const email = `${unique("dup")}@demo.test`;
    expect((await api("POST", "/api/students", { as: "teacher@demo.test", json: { name: "One", email } })).status).toBe(201);
    const again = await api("POST", "/api/students", { as: "teacher@demo.test", json: { name: "Two", email } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("EMAIL_TAKEN");
    // Another organization may use it.
    expect((await api("POST", "/api/students", { as: "teacher@other.test", json: { name: "Three", email } })).status).toBe(201);
  });

  it("given a search without accents and in capitals, should find accented names", async () => {
    const tag = unique("tag").replaceAll("-", "");
    await api("POST", "/api/students", { as: "teacher@demo.test", json: { name: `José Muñoz ${tag}` } });
    for (const term of [`jose munoz ${tag}`, `MUNOZ ${tag}`, `josé MUÑOZ ${tag}`, `ose munoz ${tag.slice(0, -2)}`]) {
      const response = await api("GET", `/api/students?search=${encodeURIComponent(term)}`, { as: "teacher@demo.test" });
      expect(
        response.body.students.map((s: { name: string }) => s.name),
        term,
      ).toEqual([`José Muñoz ${tag}`]);
    }
    const seeded = await api("GET", "/api/students?search=lukasz", { as: "teacher@demo.test" });
    expect(seeded.body.students.map((s: { name: string }) => s.name)).toContain("Łukasz Wójcik");
  });

  it("given a status filter and pages, should list the organization's students only", async () => {
    const response = await api("GET", "/api/students?status=GRADUATED&limit=100", { as: "teacher@demo.test" });
    expect(response.status).toBe(200);
    expect(response.body.students.length).toBeGreaterThan(0);
    expect(response.body.students.every((s: { status: string }) => s.status === "GRADUATED")).toBe(true);
    const other = await api("GET", "/api/students?limit=100", { as: "admin@other.test" });
    const demo = await api("GET", "/api/students?limit=100", { as: "admin@demo.test" });
    const otherIds = new Set(other.body.students.map((s: { id: string }) => s.id));
    expect(demo.body.students.some((s: { id: string }) => otherIds.has(s.id))).toBe(false);
    expect(demo.body.total).toBeGreaterThanOrEqual(25);
  });

  it("given an update, should change only the fields sent; an empty string clears a text field", async () => {
    const created = (await api("POST", "/api/students", { as: "teacher@demo.test", json: { name: "Before", grade: "5A", age: 10 } })).body;
    const response = await api("PUT", `/api/students/${created.id}`, { as: "teacher@demo.test", json: { name: "After", grade: "" } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ name: "After", grade: null, age: 10 });
    const found = await api("GET", "/api/students?search=after", { as: "teacher@demo.test" });
    expect(found.body.students.map((s: { id: string }) => s.id)).toContain(created.id);
  });

  it("given an admin delete, should soft-delete: kept in the database with deletedAt, gone from the API", async () => {
    const created = (await api("POST", "/api/students", { as: "teacher@demo.test", json: { name: "Leaving Soon" } })).body;
    expect((await api("DELETE", `/api/students/${created.id}`, { as: "teacher@demo.test" })).status).toBe(403);
    const response = await api("DELETE", `/api/students/${created.id}`, { as: "admin@demo.test" });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ id: created.id, deletedAt: expect.any(String) });
    expect((await api("GET", `/api/students/${created.id}`, { as: "admin@demo.test" })).status).toBe(404);
    const stored = await testDatabase().student.findUnique({ where: { id: created.id } });
    expect(stored?.deletedAt?.toISOString()).toBe(response.body.deletedAt);
    const list = await api("GET", "/api/students?search=leaving%20soon", { as: "admin@demo.test" });
    expect(list.body.students.map((s: { id: string }) => s.id)).not.toContain(created.id);
  });
});
