import { describe, expect, it } from "vitest";
import { api, baseUrl, postPageForm, sessionOf } from "../support/api.ts";
import { assign, createForm, createStudent } from "../support/assessment.ts";

/** The administrators' settings page and the pages' dates in the organization's time zone, over plain HTTP. */
const post = postPageForm;

const page = async (path: string, session: string) => fetch(`${baseUrl()}${path}`, { headers: { cookie: session }, redirect: "manual" });

describe("the organization settings page", () => {
  it("given an administrator, should show the name and the zone chosen in a list of every zone", async () => {
    const response = await page("/pt-BR/admin/organization", sessionOf("admin@other.test"));
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("Configurações da organização");
    expect(html).toMatch(/<option value="Asia\/Tokyo" selected="">Asia\/Tokyo<\/option>/);
    expect(html).toContain('value="Other Clinic"');
    expect(html).toContain('<option value="America/Sao_Paulo">America/Sao Paulo</option>');
  });

  it("given a clinic, should show its sector chosen, and say so in the page's words", async () => {
    const html = await (await page("/es/admin/organization", sessionOf("admin@other.test"))).text();
    expect(html).toMatch(/<option value="CLINIC" selected="">Salud<\/option>/);
    expect(html).toContain('<option value="SCHOOL">Educación</option>');
    const school = await (await page("/en/admin/organization", sessionOf("admin@demo.test"))).text();
    expect(school).toMatch(/<option value="SCHOOL" selected="">Education<\/option>/);
  });

  it("given a teacher, should answer the 403 page", async () => {
    expect((await page("/en/admin/organization", sessionOf("teacher@demo.test"))).status).toBe(403);
    expect((await post("/en/admin/organization", { name: "Taken over", timeZone: "UTC" }, sessionOf("teacher@demo.test"))).status).toBe(403);
    expect((await api("GET", "/api/organization", { as: "admin@demo.test" })).body.name).toBe("Demo School");
  });

  it("given an unknown zone or an empty name, should say so next to each field in the page's language and keep what was typed", async () => {
    const response = await post("/es/admin/organization", { name: "", timeZone: "Mars/Olympus_Mons" }, sessionOf("admin@other.test"));
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain("Elige una zona horaria de la lista.");
    expect(html).toContain("Escribe un nombre.");
    const kind = await post("/en/admin/organization", { name: "Other Clinic", timeZone: "Asia/Tokyo", kind: "HOSPITAL" }, sessionOf("admin@other.test"));
    expect(kind.status).toBe(400);
    expect(await kind.text()).toContain("Choose one of the options.");
    expect((await api("GET", "/api/organization", { as: "admin@other.test" })).body).toMatchObject({
      name: "Other Clinic",
      timeZone: "Asia/Tokyo",
      kind: "CLINIC",
    });
  });

  it("given a valid change, should save it and come back to the page with a message", async () => {
    const response = await post("/en/admin/organization", { name: "Other Clinic", timeZone: "Asia/Tokyo" }, sessionOf("admin@other.test"));
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/en/admin/organization");
  });
});

describe("dates on the pages of an organization far from UTC", () => {
  it("given a last day chosen on the assignment page, should keep the link to the end of that day in Tokyo and show it in Tokyo time", async () => {
    const session = sessionOf("teacher@other.test");
    const form = await createForm("teacher@other.test");
    const student = await createStudent("teacher@other.test");
    const assignment = await assign("teacher@other.test", { formId: form.id, studentId: student.id });
    const response = await post(`/en/assignments/${assignment.id}`, { intent: "extend", expiresAt: "2099-03-05" }, session);
    expect(response.status).toBe(302);
    expect((await api("GET", `/api/submissions/${assignment.id}`, { as: "teacher@other.test" })).body.expiresAt).toBe("2099-03-05T14:59:59.999Z");
    const html = await (await page(`/en/assignments/${assignment.id}`, session)).text();
    // 23:59 in Tokyo, and the date field shows the same day.
    expect(html).toContain("Mar 5, 2099, 11:59 PM");
    expect(html).toMatch(/name="expiresAt"[^>]*value="2099-03-05"|value="2099-03-05"[^>]*name="expiresAt"/);
  });
});
