import { describe, expect, it } from "vitest";
import { api, unique } from "../support/api.ts";
import { testDatabase } from "../support/database.ts";
import { createOrganization, errorPaths, expectProblem } from "../support/fixtures.ts";

const STUDENT_FIELDS = ["age", "createdAt", "dateOfBirth", "deletedAt", "email", "externalId", "gender", "grade", "id", "name", "phone", "status", "updatedAt"];

/** A calendar day `days` from today in UTC: two days on is later than today in every time zone. */
const dayFromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe("students", () => {
  it("given JSON with all profile fields, should create the student (201) with an empty history", async () => {
    const email = `${unique("s")}@demo.test`.toUpperCase();
    const response = await api("POST", "/api/students", {
      as: "teacher@demo.test",
      json: { name: "Inês Gonçalves", email, phone: "+55 11 5555-0101", age: 11, grade: "6B", gender: "female", status: "ACTIVE", dateOfBirth: "2014-03-09" },
    });
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual([...STUDENT_FIELDS, "submissions"].sort());
    expect(response.body).toMatchObject({
      name: "Inês Gonçalves",
      email: email.toLowerCase(),
      age: 11,
      status: "ACTIVE",
      dateOfBirth: "2014-03-09",
      submissions: [],
    });
  });

  it("given a date of birth, should read it back as the same calendar day everywhere, and clear it with an empty string or null", async () => {
    const created = await api("POST", "/api/students", { as: "teacher@demo.test", json: { name: unique("Born"), dateOfBirth: "2012-02-29" } });
    expect(created.status, created.text).toBe(201);
    const path = `/api/students/${created.body.id}`;
    expect((await api("GET", path, { as: "teacher@demo.test" })).body.dateOfBirth).toBe("2012-02-29");
    const listed = await api("GET", `/api/students?search=${encodeURIComponent(created.body.name)}`, { as: "teacher@demo.test" });
    expect(listed.body.students).toEqual([expect.objectContaining({ id: created.body.id, dateOfBirth: "2012-02-29" })]);
    // Yesterday is a day that has come in every time zone.
    const changed = await api("PUT", path, { as: "teacher@demo.test", json: { dateOfBirth: dayFromToday(-1) } });
    expect(changed.body.dateOfBirth).toBe(dayFromToday(-1));
    expect((await api("PUT", path, { as: "teacher@demo.test", json: { phone: "555" } })).body.dateOfBirth).toBe(dayFromToday(-1));
    expect((await api("PUT", path, { as: "teacher@demo.test", json: { dateOfBirth: "" } })).body.dateOfBirth).toBeNull();
    await api("PUT", path, { as: "teacher@demo.test", json: { dateOfBirth: "2012-02-29" } });
    expect((await api("PUT", path, { as: "teacher@demo.test", json: { dateOfBirth: null } })).body.dateOfBirth).toBeNull();
  });

  it.each([
    ["a day that does not exist", "2014-02-30"],
    ["a day written the way one country writes it", "09/03/2014"],
    ["a date without its leading zeros", "2014-3-9"],
    ["a date and time", "2014-03-09T10:00:00Z"],
    ["a number", 20140309],
    ["a day after today", dayFromToday(2)],
  ])("given %s as the date of birth, should answer 400 naming dateOfBirth and store nothing", async (_, dateOfBirth) => {
    const name = unique("Not born");
    const refused = await api("POST", "/api/students", { as: "teacher@demo.test", json: { name, dateOfBirth } });
    expectProblem(refused, 400, "VALIDATION_FAILED");
    expect(errorPaths(refused)).toEqual(["dateOfBirth"]);
    expect(await testDatabase().student.count({ where: { name } })).toBe(0);
    const student = await api("POST", "/api/students", { as: "teacher@demo.test", json: { name, dateOfBirth: "2014-03-09" } });
    const update = await api("PUT", `/api/students/${student.body.id}`, { as: "teacher@demo.test", json: { dateOfBirth } });
    expectProblem(update, 400, "VALIDATION_FAILED");
    expect((await api("GET", `/api/students/${student.body.id}`, { as: "teacher@demo.test" })).body.dateOfBirth).toBe("2014-03-09");
  });

  it("given a record number or its start in `search`, should find the people it begins, in any case, and nobody for a part of its middle", async () => {
    const school = await createOrganization("Record numbers");
    const tag = unique("MRN").toUpperCase();
    const [first, second, other] = await Promise.all(
      [`${tag}-1042`, `${tag}-1043`, `${tag}-2001`].map(async (externalId, index) => {
        const created = await api("POST", "/api/students", { cookie: school.teacher, json: { name: `Person ${index}`, externalId } });
        expect(created.status, created.text).toBe(201);
        return created.body;
      }),
    );
    const found = async (search: string) =>
      ((await api("GET", `/api/students?search=${encodeURIComponent(search)}`, { cookie: school.teacher })).body.students as { id: string }[])
        .map((student) => student.id)
        .sort();
    expect(await found(`${tag}-1042`)).toEqual([first.id]);
    expect(await found(`${tag}-10`)).toEqual([first.id, second.id].sort());
    expect(await found(`${tag}-10`.toLowerCase())).toEqual([first.id, second.id].sort());
    expect(await found(`${tag}-`)).toEqual([first.id, second.id, other.id].sort());
    expect(await found("1042")).toEqual([]);
    // `%` and `_` are themselves, not wildcards: a search holding one finds a record number whole.
    expect(await found(`${tag}-1_42`)).toEqual([]);
    expect(await found("%1042")).toEqual([]);
    const underscored = await api("POST", "/api/students", { cookie: school.teacher, json: { name: "Person 3", externalId: `${tag}_9` } });
    expect(await found(`${tag}_9`)).toEqual([underscored.body.id]);
    // The name is still searched.
    expect(await found("person 2")).toEqual([other.id]);
    // Another organization's record numbers are not found.
    expect((await api("GET", `/api/students?search=${encodeURIComponent(tag)}`, { as: "teacher@demo.test" })).body.students).toEqual([]);
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
