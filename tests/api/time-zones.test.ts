import { describe, expect, it } from "vitest";
import { api, unique } from "../support/api.ts";
import { assign, completeMedium, createForm, createStudent } from "../support/assessment.ts";
import { createOrganization, errorPaths, expectProblem } from "../support/fixtures.ts";

/**
 * Organization time zones over real HTTP (docs/api-contract.md §10): the demo school is on UTC and the other
 * clinic on Asia/Tokyo (UTC+9, no daylight saving), so a day there ends at 14:59:59.999 UTC.
 */
const TOKYO = "Asia/Tokyo";
const dayInTokyo = (instant: Date) => new Intl.DateTimeFormat("en-CA", { timeZone: TOKYO, year: "numeric", month: "2-digit", day: "2-digit" }).format(instant);
const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

describe("the organization's settings", () => {
  it("given any signed-in user, should answer their own organization with its time zone, and 401 without a session", async () => {
    const school = await api("GET", "/api/organization", { as: "teacher@demo.test" });
    expect(school.status).toBe(200);
    expect(school.body).toMatchObject({ name: "Demo School", timeZone: "UTC" });
    expect((await api("GET", "/api/organization", { as: "student@demo.test" })).body.timeZone).toBe("UTC");
    expect((await api("GET", "/api/organization", { as: "teacher@other.test" })).body).toMatchObject({ name: "Other Clinic", timeZone: TOKYO });
    expect((await api("GET", "/api/organization")).status).toBe(401);
  });

  it("given a teacher, should refuse to change the settings (403) and change nothing", async () => {
    const refused = await api("PUT", "/api/organization", { as: "teacher@other.test", json: { timeZone: "UTC" } });
    expect(refused.status).toBe(403);
    expect((await api("GET", "/api/organization", { as: "admin@other.test" })).body.timeZone).toBe(TOKYO);
  });

  it("given a zone that does not exist or an unknown field, should answer 400 naming it and change nothing", async () => {
    const unknownZone = await api("PUT", "/api/organization", { as: "admin@other.test", json: { timeZone: "Mars/Olympus_Mons" } });
    expect(unknownZone.status).toBe(400);
    expect(unknownZone.body.errors).toEqual([expect.objectContaining({ path: "timeZone" })]);
    const extra = await api("PUT", "/api/organization", { as: "admin@other.test", json: { id: "x", organizationId: "y" } });
    expect(extra.status).toBe(400);
    const emptyName = await api("PUT", "/api/organization", { as: "admin@other.test", json: { name: "  " } });
    expect(emptyName.status).toBe(400);
    expect((await api("GET", "/api/organization", { as: "admin@other.test" })).body).toMatchObject({ name: "Other Clinic", timeZone: TOKYO });
  });

  it("given the kind of organization, should answer it, change it for an administrator, and refuse one that is neither", async () => {
    expect((await api("GET", "/api/organization", { as: "teacher@demo.test" })).body.kind).toBe("SCHOOL");
    expect((await api("GET", "/api/organization", { as: "teacher@other.test" })).body.kind).toBe("CLINIC");
    const own = await createOrganization("Kind of organization");
    expect((await api("GET", "/api/organization", { cookie: own.admin })).body.kind).toBe("SCHOOL");
    const refused = await api("PUT", "/api/organization", { cookie: own.admin, json: { kind: "HOSPITAL" } });
    expectProblem(refused, 400, "VALIDATION_FAILED");
    expect(errorPaths(refused)).toEqual(["kind"]);
    expect((await api("PUT", "/api/organization", { cookie: own.teacher, json: { kind: "CLINIC" } })).status).toBe(403);
    const changed = await api("PUT", "/api/organization", { cookie: own.admin, json: { kind: "CLINIC" } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ kind: "CLINIC", timeZone: "UTC" });
    // The pages say so at once: the next page the teacher opens says patients.
    const students = await api("GET", "/en/students", { cookie: own.teacher });
    expect(students.text).toContain("<h1");
    expect(students.text).toMatch(/<title>Patients · /);
    expect((await api("PUT", "/api/organization", { cookie: own.admin, json: { kind: "SCHOOL" } })).body.kind).toBe("SCHOOL");
    expect((await api("GET", "/en/students", { cookie: own.teacher })).text).toMatch(/<title>Students · /);
  });

  it("given an administrator, should store the zone as Intl spells it", async () => {
    const saved = await api("PUT", "/api/organization", { as: "admin@other.test", json: { timeZone: "asia/tokyo", name: "Other Clinic" } });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ name: "Other Clinic", timeZone: TOKYO });
  });
});

describe("date-only inputs in the organization's time zone", () => {
  it("given a day as a link's expiry, should keep the link to the end of that day where the organization is", async () => {
    const form = await createForm("teacher@other.test");
    const [first, second] = [await createStudent("teacher@other.test"), await createStudent("teacher@other.test")];
    const one = await assign("teacher@other.test", { formId: form.id, studentId: first.id, expiresAt: "2099-03-05" });
    expect((await api("GET", `/api/submissions/${one.id}`, { as: "teacher@other.test" })).body.expiresAt).toBe("2099-03-05T14:59:59.999Z");
    const extended = await api("PUT", `/api/submissions/${one.id}`, { as: "teacher@other.test", json: { expiresAt: "2099-03-06" } });
    expect(extended.body.expiresAt).toBe("2099-03-06T14:59:59.999Z");
    const bulk = await api("POST", "/api/submissions/bulk", {
      as: "teacher@other.test",
      json: { formId: form.id, studentIds: [second.id], expiresAt: "2099-12-31" },
    });
    expect(bulk.status).toBe(201);
    expect(bulk.body.created[0].expiresAt).toBe("2099-12-31T14:59:59.999Z");
    // The same day in the school on UTC ends nine hours later.
    const schoolForm = await createForm("teacher@demo.test");
    const pupil = await createStudent("teacher@demo.test");
    const inSchool = await assign("teacher@demo.test", { formId: schoolForm.id, studentId: pupil.id, expiresAt: "2099-03-05" });
    expect((await api("GET", `/api/submissions/${inSchool.id}`, { as: "teacher@demo.test" })).body.expiresAt).toBe("2099-03-05T23:59:59.999Z");
  });

  it("given today there, should accept it, and refuse yesterday there (400 naming expiresAt) without creating a link", async () => {
    const form = await createForm("teacher@other.test");
    const student = await createStudent("teacher@other.test");
    const today = dayInTokyo(new Date());
    const todayLink = await api("POST", "/api/submissions", { as: "teacher@other.test", json: { formId: form.id, studentId: student.id, expiresAt: today } });
    expect(todayLink.status).toBe(201);
    const other = await createStudent("teacher@other.test");
    for (const expiresAt of [addDays(today, -1), "2020-02-30", "tomorrow"]) {
      const refused = await api("POST", "/api/submissions", { as: "teacher@other.test", json: { formId: form.id, studentId: other.id, expiresAt } });
      expect(refused.status, expiresAt).toBe(400);
      expect(refused.body.errors).toEqual([expect.objectContaining({ path: "expiresAt" })]);
      const bulk = await api("POST", "/api/submissions/bulk", { as: "teacher@other.test", json: { formId: form.id, studentIds: [other.id], expiresAt } });
      expect(bulk.status, expiresAt).toBe(400);
    }
    const list = await api("GET", `/api/submissions?formId=${form.id}`, { as: "teacher@other.test" });
    expect(list.body.submissions.map((s: { id: string }) => s.id)).toEqual([todayLink.body.id]);
  });

  it("given report dates, should read each as a whole day in the organization's time zone", async () => {
    const name = unique("Tokyo respondent");
    const { assignment } = await completeMedium("teacher@other.test", name);
    const completedAt = new Date((await api("GET", `/api/submissions/${assignment.id}`, { as: "teacher@other.test" })).body.completedAt);
    const day = dayInTokyo(completedAt);
    const found = async (query: string) =>
      (await api("GET", `/api/reports?search=${encodeURIComponent(name)}&${query}`, { as: "teacher@other.test" })).body.reports.map(
        (r: { id: string }) => r.id,
      );
    expect(await found(`from=${day}&to=${day}`)).toEqual([assignment.id]);
    expect(await found(`to=${addDays(day, -1)}`)).toEqual([]);
    expect(await found(`from=${addDays(day, 1)}`)).toEqual([]);
  });
});
